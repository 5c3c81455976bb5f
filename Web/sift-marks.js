// Arrival (docs/search-bar.md): the page a result opened marks the search's terms (handed over in
// the link's ?mark=) with <mark> elements made around text nodes (never HTML, so the strict CSP
// holds), and scrolls to the first. Esc or a click removes them. sift.js loads this module only
// on such a page.
import { CJK, fold, highlight, terms } from "./sift-core.js";
import { joinedText, markedTerms } from "./sift-excerpts.js";
import { pieces, wordDistance } from "./sift-typos.js";

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
 * Marks the terms of `query` in the page's main content (its body without one; navigation left out) and scrolls to
 * the first, unless the browser has scrolled the page already (to the link's #fragment, then
 * brought out from under a sticky site header, or to its #:~:text=); returns the marks.
 */
export function markTerms(query, root = document.querySelector("main") ?? document.body) {
  // The terms excerpts mark (a term of one or two ASCII letters, "a", "by", would mark every word
  // holding it). A long Chinese or Japanese term found by its pairs ("Partial matches" in
  // docs/search.md) has them marked: the pieces partial matching cuts it into.
  const kept = markedTerms(terms(query)), marked = pieces(kept) ?? kept;
  const runs = textRuns(root), texts = runs.map((run) => ({ data: run.map((text) => text.data).join("") })), marks = [];
  query = [...marked, ...marked.flatMap((term) => [...nearWords(term, texts), ...joinedWords(term, texts)])].join(" ");
  runs.forEach((run, r) => {
    const found = [], starts = [];
    run.reduce((at, text) => (starts.push(at), at + text.data.length), 0);
    // From the last range back, each cut into the text nodes it spans (`Har<em>bor</em>`): splitting
    // a node keeps its start, and the text before the cut, as they were.
    for (const [start, end] of highlight(texts[r].data, query).reverse()) {
      for (let k = run.length - 1; k >= 0; k--) {
        const text = run[k], at = starts[k], from = Math.max(start, at), to = Math.min(end, at + text.data.length);
        if (from >= to) continue;
        const term = text.splitText(from - at), mark = document.createElement("mark");
        term.splitText(to - from);
        term.replaceWith(mark);
        mark.append(term);
        found.unshift(mark);
      }
    }
    marks.push(...found);
  });
  if (!scrollY) marks[0]?.scrollIntoView({ block: "center" });
  else {
    // The browser scrolled the link's #heading to the top of the window, where a site header that
    // stays there (sticky, as the example theme's on a wide window) hides it: brought out from under it.
    const target = document.querySelector(":target");
    for (const header of target ? document.querySelectorAll("[data-sift-header]") : []) {
      const at = target.getBoundingClientRect(), { top, bottom } = header.getBoundingClientRect();
      if (at.bottom > top && at.top < bottom) scrollBy(0, at.top - bottom);
    }
  }
  const unmark = (event) => {
    // An Esc an input method takes (ending its composition, keyCode 229 in Safari) is not the visitor's.
    if (event.type == "keydown" && (event.key != "Escape" || event.isComposing || event.keyCode == 229)) return;
    for (const mark of marks) mark.replaceWith(...mark.childNodes);
    root.normalize();
    removeEventListener("keydown", unmark);
    removeEventListener("click", unmark);
  };
  addEventListener("keydown", unmark);
  addEventListener("click", unmark);
  return marks;
}

// Elements inside a line of text: a term may run across them (`<b>Har</b>bor`).
const INLINE = new Set(["A", "ABBR", "B", "BDI", "BDO", "CITE", "CODE", "DATA", "DEL", "DFN", "EM", "I", "INS", "KBD", "MARK", "Q", "S", "SAMP", "SMALL", "SPAN", "STRONG", "SUB", "SUP", "TIME", "U", "VAR"]);

// The page's text in runs: the text nodes one line of text joins, in order (a block's, up to a
// line break, an image or a block inside it). Not the page's navigation (a detail page's Previous
// and Next name other pages: no hits of this one), its scripts or its forms.
function textRuns(root) {
  const skip = (node) => node.nodeType == 1 && node.matches("script, style, form, nav, [data-sift-search]");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, { acceptNode: (node) => (skip(node) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT) });
  // The element a text node's line belongs to: its nearest ancestor not inside a line.
  const lineOf = (node) => {
    while (node.parentNode != root && INLINE.has(node.parentNode.nodeName)) node = node.parentNode;
    return node.parentNode;
  };
  const runs = [];
  let run = null, line = null;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.nodeType == 3) {
      const at = lineOf(node);
      if (!run || at != line) runs.push((run = [])), (line = at);
      run.push(node);
    } else if (!INLINE.has(node.nodeName)) run = null;
  }
  return runs;
}

// "Typos" (docs/search.md): a term of 4 or more code points, none CJK, that the page holds nowhere
// matched its title within 1 edit (2 from 8 code points): the page's words within those edits of
// it (sift-typos.js's `wordDistance`, whole words), to be marked in its place (`choclate` marks Chocolate).
function nearWords(term, texts) {
  const pattern = [...term], within = pattern.length >= 8 ? 2 : 1;
  if (pattern.length < 4 || CJK.test(term) || texts.some((text) => highlight(text.data, term).length)) return [];
  const near = new Set();
  for (const text of texts) {
    for (const [word] of text.data.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
      if (!near.has(word) && wordDistance(pattern, [...terms(word).join("")], within)) near.add(word);
    }
  }
  return [...near];
}

// Joined words (docs/search-index.md): the page's words that hold a term only across one other
// code point between their word code points (`hardcrack` in `hard-crack`, `email` in `E-mail`),
// as written, to be marked whole.
function joinedWords(term, texts) {
  const found = new Set();
  for (const text of texts) {
    for (const [word] of text.data.matchAll(/[\p{L}\p{M}\p{N}]+(?:[^\p{L}\p{M}\p{N}\p{White_Space}][\p{L}\p{M}\p{N}]+)+/gu)) {
      const folded = fold(word);
      if (!folded.includes(term) && joinedText(folded).joined.includes(term)) found.add(word);
    }
  }
  return [...found];
}
