// What the bar shows while active with nothing typed: the scopes as shortcuts, and the recent
// searches with a button to clear them. Loaded by the search bar the first time it is wanted.
import { button, element, onClick } from "./dom.js";
import { RecentSearches } from "./recent-searches.js";

/** The page's recent searches, which the bar adds to (SiftSearch.remember). */
export const recentSearches = new RecentSearches();

export class EmptyState {
  constructor(opts = {}) {
    this.recentSearches = opts.recentSearches;
    this.scopes = opts.scopes ?? (() => []);
    this.onScope = opts.onScope ?? (() => {});
    this.onRecent = opts.onRecent ?? (() => {});
    this.onCleared = opts.onCleared ?? (() => {});
    this.element = opts.element ?? element("div", { class: "sift-empty" });
  }

  /** Renders the shortcuts and searches; false when there is neither. */
  render() {
    const parts = [], recent = this.recentSearches.list();
    const shortcuts = this.scopes().map((scope) => onClick(button({ class: "sift-token" }, scope), () => this.onScope(scope)));
    if (shortcuts.length) parts.push(element("p", { class: "sift-h" }, "Browse"), element("div", { class: "sift-tokens" }, ...shortcuts));
    if (recent.length) {
      const clear = onClick(button({ "aria-label": "Clear recent searches" }, "Clear"), () => {
        this.recentSearches.clear();
        this.onCleared();
      });
      const searches = recent.map((query) => element("li", {}, onClick(button({}, query), () => this.onRecent(query))));
      parts.push(element("p", { class: "sift-h" }, "Recent Searches", clear), element("ul", { class: "sift-recent" }, ...searches));
    }
    this.element.replaceChildren(...parts);
    return parts.length > 0;
  }
}

/** The empty state of `bar` (a SiftSearch), drawn in its `emptyArea`. */
export function emptyStateOf(bar) {
  return new EmptyState({
    element: bar.emptyArea,
    recentSearches,
    scopes: () => bar.scopeBar.scopes,
    // The shortcut goes with the empty state: the focus goes back to the field, for ↓ to reach the results.
    onScope: (scope) => {
      bar.pickScope(scope);
      bar.field.input.focus();
    },
    onRecent: (query) => {
      bar.field.value = query;
      bar.emit("change", { query });
      bar.field.input.focus();
      bar.search({ remember: true, text: query });
    },
    onCleared: () => {
      bar.field.input.focus();
      bar.update();
    },
  });
}
