// The results of a page without a searched list: a listbox in a panel below the bar, every
// collection's matches, each an option that is its link, and while results are left, an option
// that shows the next ones.
import { button, element, onClick, writeHighlighted } from "./dom.js";

export class ResultsPanel {
  constructor(opts = {}) {
    // Focusable: it scrolls, so a keyboard must be able to reach it.
    this.listbox = element("ul", { role: "listbox", id: opts.listboxId, class: "sift-results", "aria-label": "Results", tabindex: "0" });
    // An option, not a button after the listbox: ↓ and Enter reach it as they reach the results,
    // and a screen reader hears it among them (Pagefind's "Load more results").
    this.moreItem = element("li", { role: "none" }, onClick(button({ role: "option", "aria-selected": "false", tabindex: "-1" }, "Show more results"), opts.onMore));
  }

  /** The number of results shown. */
  get rowCount() {
    return this.listbox.childElementCount - this.hasMore;
  }

  /** Whether results are left to show. */
  get hasMore() {
    return !!this.moreItem.parentNode;
  }

  /**
   * Shows the results, of `total`, and returns the options. With `keepShown` (more rows) the
   * options shown stay, and so does the one selected; the next ones take the place of the option
   * asking for them, which stays (and keeps the focus a click gave it) while results are left.
   */
  show(results, query, { keepShown, total, collectionTitle }) {
    const listbox = this.listbox, more = this.moreItem;
    if (!keepShown) listbox.replaceChildren(more);
    // The link is the option itself: an option holding a link nests one control in another.
    more.before(...results.slice(this.rowCount).map((result) => element("li", { role: "none" },
      element("a", { href: result.url, role: "option", "aria-selected": "false", tabindex: "-1" },
        writeHighlighted(element("span", { class: "sift-t" }), result.title, query),
        element("span", { class: "sift-s" }, [collectionTitle(result.collection), result.scope].filter(Boolean).join(" · "))))));
    if (this.rowCount >= total) more.remove();
    return [...listbox.querySelectorAll("[role=option]")];
  }
}
