// The facets and the sort control under the scope bar (docs/search-bar.md, "Facets and sorting"):
// each facet a disclosure holding a group of checkboxes named after its field, each value with
// its count (dimmed at 0); a select of Relevance and each sort field both ways. Loaded by the
// search bar of a list whose collection has facets or sort fields; the bar keeps the choice
// (`filters`, `sort`), this module only shows it and changes it.
import { element, setFlag } from "./dom.js";

const title = (name) => name[0].toUpperCase() + name.slice(1).replace(/_/g, " ");

export class FacetBar {
  /**
   * Shown under `bar`'s scope bar: the controls of its `filters` ({field: [values]}) and `sort`
   * ("", "area", "-area"), searching again on each change.
   */
  constructor({ bar, facets: { fields, orders, values } }) {
    const onChange = () => bar.search();
    this.bar = bar;
    this.offered = { fields, orders };
    this.element = element("div", { class: "sift-facets" });
    // Each field's values in its file's order, numbers first (as numbers), then text: the keys of
    // `fields` put whole numbers first, by value, and the rest as first met ("-1" and "3.5" after "10").
    // A field whose documents hold no value is not there: it offers nothing to choose.
    const ordered = new Map();
    for (const [name, value] of Object.values(values).flat()) (ordered.get(name) ?? ordered.set(name, new Set()).get(name)).add(value);
    for (const [name, list] of ordered) {
      const group = element("fieldset", { "aria-label": title(name) });
      for (const value of list) {
        const box = element("input", { type: "checkbox", value });
        box.onchange = () => {
          bar.filters[name] = [...group.querySelectorAll(":checked")].map((checked) => checked.value);
          this.showChosen();
          onChange();
        };
        // The value and its count in one box beside the checkbox, which a long value wraps within.
        group.append(element("label", { "data-field": name }, box, element("span", {}, value, " ", element("span", { class: "sift-count" }))));
      }
      // Named after its field, then the values checked in it (shown by showChosen).
      const disclosure = element("details", {}, element("summary", {}, title(name), element("span", { class: "sift-count" })), group);
      // Its counts, once opened: a closed one's are not seen, and not counted.
      disclosure.ontoggle = () => disclosure.open && this.count();
      this.element.append(disclosure);
    }
    const sorts = Object.keys(orders).flatMap((name) => [[title(name) + ", ascending", name], [title(name) + ", descending", "-" + name]]);
    if (sorts.length) {
      this.select = element("select", { "aria-label": "Sort" }, ...[["Relevance", ""], ...sorts].map(([text, value]) => new Option(text, value)));
      this.select.onchange = () => {
        bar.sort = this.select.value;
        onChange();
      };
      // Said on the page too: the select alone shows only its choice ("Relevance").
      this.element.append(element("label", {}, "Sort", this.select));
    }
    bar.scopeArea.append(this.element);
    this.sync();
  }

  /**
   * Whether a facet's disclosure is open, its counts seen: searches count by facet value only
   * then, for the counts need every match's values (the facets file, which grows with the site:
   * 90 KB gzip at 100,000 items, which a first query would have fetched for no count seen).
   */
  get open() {
    return [...this.element.querySelectorAll("details")].some((disclosure) => disclosure.open);
  }

  /** Counts the bar's current search when a disclosure is open, unless a newer search (which brings its own) starts meanwhile. */
  count() {
    const { bar } = this, run = bar.runs;
    if (!this.open) return;
    bar.index.search(bar.query, { scope: bar.scope, collection: bar.collection, filters: bar.filters, facets: true, limit: 1 })
      .then((answer) => run == bar.runs && this.showCounts(answer.facets), console.warn);
  }

  /** The bar at rest (Cancel): nothing chosen, every item counted, as the page opened with. */
  reset() {
    this.sync();
    this.count();
  }

  /**
   * Shows the bar's choice (from the URL, or none on Cancel), each facet holding a checked value
   * opened: a list filtered by a link, or as left for a result and come Back to, says by what, and
   * offers the box that undoes it. What the collection does not have is let go first (search-bar.js
   * run): a field or sort field renamed since the link was made, and a value no item holds, which
   * would select nothing with no box to uncheck; a value given twice is one.
   */
  sync() {
    const { bar } = this, { fields, orders } = this.offered, chosen = JSON.stringify([bar.filters, bar.sort]);
    for (const name in bar.filters) {
      if (fields[name]) bar.filters[name] = [...new Set(bar.filters[name])].filter((value) => value in fields[name]);
      else delete bar.filters[name];
    }
    if (!orders[bar.sort.replace(/^-/, "")]) bar.sort = "";
    // The first answer does not wait for the facets: the address it wrote may hold what was let go.
    if (JSON.stringify([bar.filters, bar.sort]) != chosen) bar.urlState.saveSoon();
    for (const box of this.element.querySelectorAll("input")) box.checked = bar.filters[box.parentNode.dataset.field]?.includes(box.value);
    for (const disclosure of this.element.querySelectorAll("details")) if (disclosure.querySelector(":checked")) disclosure.open = true;
    if (this.select) this.select.value = bar.sort;
    this.showChosen();
  }

  /**
   * Names the values checked in each facet after its name ("Region: Asia, Europe"): one closed to
   * make room (open, its list may take a third of a phone's screen) still says what it filters by.
   */
  showChosen() {
    for (const disclosure of this.element.querySelectorAll("details")) {
      const chosen = [...disclosure.querySelectorAll(":checked")].map((box) => box.value).join(", ");
      disclosure.firstChild.lastChild.textContent = chosen && ": " + chosen;
    }
  }

  /** Shows an answer's counts; an answer asked for before the bar was in has none, and changes nothing. */
  showCounts(facets) {
    if (facets) for (const label of this.element.querySelectorAll("fieldset label")) {
      const count = facets?.[label.dataset.field]?.[label.firstChild.value] ?? 0;
      label.querySelector(".sift-count").textContent = count;
      setFlag(label, "data-none", !count);
    }
  }
}
