// List mode: on a list page the results replace the page's list while searching. They go into a
// copy of the list's element, just below it, as clones of the page's own rows; the list itself is
// only marked data-sift-off (not rendered, its layout kept) and comes back untouched.
import { button, element, onClick, setFlag, writeHighlighted } from "./dom.js";

export class ListResults {
  constructor(opts = {}) {
    this.list = opts.list;
    const { onMore } = opts; // Show more, or the last row reached
    this.copy = this.list.cloneNode();
    // The field names it as what it controls (aria-controls).
    this.copy.id = opts.id;
    this.moreButton = onClick(button({ class: "sift-more", hidden: "" }, "Show more"), onMore);
    this.copy.hidden = true;
    this.list.after(this.copy, this.moreButton);
    // The next rows come before "Show more" scrolls into view.
    (this.observer = new IntersectionObserver((entries) => entries.at(-1).isIntersecting && onMore(), { rootMargin: "600px" })).observe(this.moreButton);
  }

  /** The number of result rows shown. */
  get rowCount() {
    return this.copy.childElementCount;
  }

  /** Whether rows are left to show. */
  get hasMore() {
    return !this.moreButton.hidden;
  }

  /** The results in place of the list (true), or the list itself (false). */
  showResults(showing) {
    this.copy.hidden = !showing;
    setFlag(this.list, "data-sift-off", showing);
  }

  reset() {
    this.moreButton.hidden = true;
    this.showResults(false);
    this.copy.replaceChildren();
  }

  /**
   * Shows the results as rows, their titles marked, and returns the rows. With `keepShown` the
   * rows shown stay and the next ones follow.
   */
  show(results, query, total, { keepShown }) {
    const copy = this.copy;
    // Chromium lists a parent's children on the first indexed access, which then finds any row at
    // once: that happens here on the first answer with rows, or in a task after one without any,
    // so that it is not left to a later keystroke.
    const rows = (this.rows ??= this.list.children);
    if (!keepShown) copy.replaceChildren();
    copy.append(...results.slice(copy.childElementCount).map((result) => this.row(result, rows, query)));
    if (!results.length) setTimeout(() => rows[0]);
    this.showResults(true);
    this.moreButton.hidden = copy.childElementCount >= total;
    // Watched afresh: "Show more" near the view while the answer was on its way asked for no rows
    // then (the bar adds rows only below a whole answer), and moving no further, it would not again.
    this.observer.unobserve(this.moreButton);
    this.observer.observe(this.moreButton);
    return [...copy.children];
  }

  // A result's row: the page's row at the result's place in the list when it is the result's (no
  // search through the rows), else the row with its slug (rows by slug, listed once: on a page of a
  // paginated list most results are on other pages), else one made from the result.
  row(result, rows, query) {
    const atPosition = rows[result.position];
    const pageRow = atPosition?.dataset.siftItem == result.slug ? atPosition : (this.rowsBySlug ??= new Map(Array.from(rows, (row) => [row.dataset.siftItem, row]))).get(result.slug);
    const row = pageRow?.cloneNode(true) ?? element("li", { class: "row" }, element("a", { href: result.url }, element("span", { class: "row-title" }, result.title)));
    // A theme's ids stay the page's rows' own, which a reference inside the row still finds: an id twice is none.
    for (const named of [row, ...row.querySelectorAll("[id]")]) named.removeAttribute("id");
    const title = row.querySelector(".row-title");
    if (title) writeHighlighted(title, title.textContent, query);
    return row;
  }
}
