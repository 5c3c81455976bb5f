// The scope bar: a radio group of "All" and the collection's scopes, each with its count.
import { button, element, onClick } from "./dom.js";

export class ScopeBar {
  constructor(opts = {}) {
    this.onPick = opts.onPick; // a radio chosen, with its scope
    this.element = element("div", { role: "radiogroup", "aria-label": "Scope", class: "sift-scopes" });
  }

  /** Whether the radios are there: they are made once, when the index names the scopes. */
  get built() {
    return this.element.childElementCount > 0;
  }

  /** The scopes offered, "All" left out. */
  get scopes() {
    return [...this.element.children].slice(1).map((radio) => radio.dataset.scope);
  }

  build(scopes) {
    for (const scope of ["All", ...scopes]) {
      const radio = button({ role: "radio", "data-scope": scope }, scope, " ", element("span", { class: "sift-count" }));
      this.element.append(onClick(radio, () => this.onPick(scope)));
    }
  }

  /** Checks the scope's radio; only the checked one is in the tab order (the arrow keys move along). */
  select(scope) {
    for (const radio of this.element.children) {
      const checked = radio.dataset.scope == scope;
      radio.tabIndex = checked ? 0 : -1;
      radio.setAttribute("aria-checked", checked);
    }
  }

  /** Shows each scope's count; none (the bar at rest) without `scopeCounts`. */
  showCounts(scopeCounts) {
    for (const radio of this.element.children) radio.lastChild.textContent = scopeCounts ? scopeCounts[radio.dataset.scope] ?? 0 : "";
  }
}
