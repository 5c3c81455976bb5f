// Sift's search bar (docs/search-bar.md): one on every [data-sift-search] of the page.
import { SiftSearch } from "./search-bar.js";
export { SiftSearch };
for (const mount of document.querySelectorAll("[data-sift-search]")) new SiftSearch(mount);
// Opened from a result: its terms marked (sift-marks.js, loaded only then).
try {
  const [url, query] = JSON.parse(sessionStorage.siftArrival ?? "[]");
  delete sessionStorage.siftArrival;
  if (url == location.href.split("#")[0] && query.trim()) import("./sift-marks.js").then((marks) => marks.markTerms(query));
} catch {}
