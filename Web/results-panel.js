// The results of a page without a searched list: a listbox in a panel below the bar, every
// collection's matches, each an option that is its link.
import { element, writeHighlighted } from "./dom.js";

export class ResultsPanel {
  constructor(opts = {}) {
    // Focusable: it scrolls, so a keyboard must be able to reach it.
    this.listbox = element("ul", { role: "listbox", id: opts.listboxId, class: "sift-results", "aria-label": "Results", tabindex: "0" });
  }

  /**
   * Shows the results and returns the options. With `keepShown` (more rows) the options shown
   * stay, and so does the one selected.
   */
  show(results, query, { keepShown, collectionTitle }) {
    const listbox = this.listbox;
    if (!keepShown) listbox.replaceChildren();
    // The link is the option itself: an option holding a link nests one control in another.
    listbox.append(...results.slice(listbox.childElementCount).map((result) => element("li", { role: "none" },
      element("a", { href: result.url, role: "option", "aria-selected": "false", tabindex: "-1" },
        writeHighlighted(element("span", { class: "sift-t" }), result.title, query),
        element("span", { class: "sift-s" }, [collectionTitle(result.collection), result.scope].filter(Boolean).join(" · "))))));
    return [...listbox.querySelectorAll("a")];
  }
}
