// Sift's search bar (docs/search-bar.md): one on every [data-sift-search] of the page.
import { SiftSearch } from "./search-bar.js";
export { SiftSearch };
for (const mount of document.querySelectorAll("[data-sift-search]")) new SiftSearch(mount);
// Opened from a result, whose link carries ?mark=: its terms marked (sift-marks.js, loaded only then).
if (/[?&]mark=/.test(location.search)) import("./sift-marks.js").then((marks) => marks.arrive());
