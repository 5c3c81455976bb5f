// Sift's search bar (docs/search-bar.md): one on every [data-sift-search] of the page.
import { SiftSearch } from "./search-bar.js";
export { SiftSearch };
for (const mount of document.querySelectorAll("[data-sift-search]")) new SiftSearch(mount);
// Opened from a result: its terms marked (sift-marks.js, loaded only then).
const arrival = new URLSearchParams(location.search).get("mark");
if (arrival) import("./sift-marks.js").then((marks) => marks.markTerms(arrival));
