// Excerpts under the results on screen (docs/search-bar.md, "Excerpts"), loaded by the search bar
// once an answer has body matches: when such a row comes into view, its excerpt, or the sections
// of its page that hold the terms, each linking to its heading. The rows that come into view
// together fetch their text files together.
import { element } from "./dom.js";
import { excerpts } from "./sift-excerpts.js";

// Leaving the page aborts the text files still on the way: that failure is no fault of the index,
// even when it is heard only once the page is shown again.
let departures = 0;
addEventListener("pagehide", () => departures++);

const observer = new IntersectionObserver((entries) => {
  const rows = entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target);
  for (const row of rows) observer.unobserve(row);
  if (!rows.length) return;
  const { bar, query } = rows[0].sift, departed = departures;
  // A failed text file leaves its rows without excerpts; the reason goes to the console.
  excerpts(bar.index, rows.map((row) => row.sift.result), query).then(() => {
    for (const row of rows) write(row, row.sift.result);
    // A panel's sections are options too: ↓ and ↑ reach them, the selected one staying selected.
    const keyboard = bar.keyboard, selected = keyboard.rows[keyboard.selected];
    if (!bar.listResults) keyboard.selected = (keyboard.rows = [...bar.panel.listbox.querySelectorAll("[role=option]")]).indexOf(selected);
  }, (error) => {
    for (const row of rows) row.removeAttribute("data-sift-wait");
    departures != departed || console.warn(error);
  });
});

/**
 * Watches the rows `bar` shows for `results` (row i shows result i) for `query`; with
 * `keepShown` the rows watched before stay watched. A body match's row keeps room for its
 * excerpt until it comes (data-sift-wait): the rows below do not jump, and the rows in view
 * are those that stay in view, the only ones whose text is fetched.
 */
export function watch(bar, rows, results, query, keepShown) {
  if (!keepShown) observer.disconnect();
  rows.forEach((row, i) => {
    if (row.sift || !results[i]) return;
    row.sift = { bar, query, result: results[i] };
    if (results[i].match == "body") row.setAttribute("data-sift-wait", "");
    observer.observe(row);
  });
}

// The sections, each a link after the row's own (an option too in a panel) carrying its ?mark=;
// else the excerpt in it, and a text fragment to the excerpt's first mark.
function write(row, { excerpt, sections }) {
  row.removeAttribute("data-sift-wait");
  const link = row.querySelector("a"), option = link.role == "option" ? { role: "option", "aria-selected": "false", tabindex: "-1" } : {};
  if (!sections.length && excerpt) {
    link.append(marked(excerpt));
    link.setAttribute("href", link.getAttribute("href") + textFragment(excerpt));
  }
  row.append(...sections.map((section) => element("a", { href: section.url.replace("#", link.search + "#"), class: "sift-sub", ...option }, element("span", { class: "sift-t" }, section.title), marked(section.excerpt))));
}

// An excerpt's strings, the odd-numbered ones marked, as text nodes.
function marked(parts) {
  return element("span", { class: "sift-e" }, ...parts.map((part, i) => (i % 2 ? element("mark", {}, part) : part)));
}

// "#:~:text=" to the whole word holding the excerpt's first mark (a text fragment matches whole
// words only), after the word before it when only a space parts them: a browser that follows
// text fragments scrolls there as the page opens, before sift-marks.js is in. A page where that
// text is not found is not scrolled by it, and sift-marks.js scrolls to the first mark. "" for
// an excerpt without a mark, or a browser without Intl.Segmenter.
function textFragment(parts) {
  if (!parts[1] || !Intl.Segmenter) return "";
  const text = parts.join("").replace(/…/g, " "), start = parts[0].length, end = start + parts[1].length;
  // No locale: word breaks follow the script, and a page's lang attribute may be no valid tag.
  const words = [...new Intl.Segmenter(undefined, { granularity: "word" }).segment(text)];
  const first = words.findIndex((word) => word.index + word.segment.length > start);
  const last = words.findIndex((word) => word.index + word.segment.length >= end);
  const encode = (words) => encodeURIComponent(words).replace(/-/g, "%2D");
  const prefix = words[first - 1]?.segment == " " && words[first - 2]?.isWordLike ? encode(words[first - 2].segment) + "-," : "";
  return "#:~:text=" + prefix + encode(text.slice(words[first].index, words[last].index + words[last].segment.length));
}
