// Arrival (docs/search-bar.md): the page a result opened marks the search's terms (handed over in
// the link's ?mark=) with <mark> elements made around text nodes (never HTML, so the strict CSP
// holds), and scrolls to the first. Esc or a click removes them. sift.js loads this module only
// on such a page.
import { highlight, terms } from "./sift-core.js";

/**
 * Takes ?mark= out of the address (left as it was before, so that it copies as the page's own)
 * and marks its terms; returns the marks.
 */
export function arrive() {
  const url = new URL(location.href), query = url.searchParams.get("mark");
  url.searchParams.delete("mark");
  history.replaceState(history.state, "", url);
  return markTerms(query);
}

/**
 * Marks the terms of `query` in the page's main content (its body without one) and scrolls to
 * the first, unless the browser has scrolled the page already (to the link's #fragment or
 * #:~:text=); returns the marks.
 */
export function markTerms(query, root = document.querySelector("main") ?? document.body) {
  // As excerpts mark them (Excerpt.markedTerms): a term of one or two ASCII letters ("a", "by")
  // would mark every word holding it.
  query = terms(query).filter((term) => [...term].length > 2 || /[^\0-\x7f]/.test(term)).join(" ");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), texts = [], marks = [];
  while (walker.nextNode()) if (!walker.currentNode.parentNode.closest("script, style, form, [data-sift-search]")) texts.push(walker.currentNode);
  for (const text of texts) {
    const found = [];
    // From the last range back: splitting leaves the offsets before it as they were.
    for (const [start, end] of highlight(text.data, query).reverse()) {
      const term = text.splitText(start), mark = document.createElement("mark");
      term.splitText(end - start);
      term.replaceWith(mark);
      mark.append(term);
      found.unshift(mark);
    }
    marks.push(...found);
  }
  if (!scrollY) marks[0]?.scrollIntoView({ block: "center" });
  const unmark = (event) => {
    if (event.type == "keydown" && event.key != "Escape") return;
    for (const mark of marks) mark.replaceWith(...mark.childNodes);
    root.normalize();
    removeEventListener("keydown", unmark);
    removeEventListener("click", unmark);
  };
  addEventListener("keydown", unmark);
  addEventListener("click", unmark);
  return marks;
}
