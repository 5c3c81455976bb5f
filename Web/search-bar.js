// The search bar (docs/search-bar.md), modelled on iOS's UISearchController: it holds the search's
// state (the text searched, the scope, whether the bar is active) and hands each concern to its
// part: the field, the scope bar, the results (a panel, or the page's list), the empty state,
// the keyboard, the URL.
import { SiftIndex } from "./sift-core.js";
import { element, flagOption, onClick, setFlag } from "./dom.js";
import { Keyboard } from "./keyboard.js";
import { ListResults } from "./list-results.js";
import { ResultsPanel } from "./results-panel.js";
import { ScopeBar } from "./scope-bar.js";
import { SearchField } from "./search-field.js";
import { UrlState } from "./url-state.js";

const root = document.documentElement;
// Rows a list shows at first, and adds each time more are asked for (a panel: its `limit`).
const ROWS = 50;
// Loading indexes by URL: the bars of a page share them.
const indexes = {};
let bars = 0;

// What the dimming covers is inert while it lasts, as what a modal dialog covers is: out of Tab's
// reach and out of the accessibility tree. That is all but the bar (`form`) and its ancestors, the
// dimming itself (a click there cancels) and the site header, above the dimming (sift.css) when a
// theme positions it (z-index lifts nothing static). Returns what it made inert, for the end of the
// dimming to give back: what the site made inert itself (a closed drawer) stays so.
const inertAround = (form) => {
  const made = [];
  for (let part = form.closest("[data-sift-header]") ?? form; part != document.body; part = part.parentNode) {
    for (const other of part.parentNode.children) {
      if (other == part || other.inert || other.matches(".sift-dim") || (other.matches("[data-sift-header]") && getComputedStyle(other).position != "static")) continue;
      other.inert = true;
      made.push(other);
    }
  }
  return made;
};

// `href` carrying `query` as ?mark=: its own query kept (a row's template may link elsewhere with one), an earlier mark replaced.
const marked = (href, query) =>
  href.replace(/(?:\?([^#]*))?(?=#|$)/, (_, search = "") => "?" + [...search.split("&").filter((pair) => pair && !pair.startsWith("mark=")), "mark=" + encodeURIComponent(query)].join("&"));

/** A search bar built into `mount`; its options default to the mount's data- attributes. */
export class SiftSearch {
  constructor(mount, opts = {}) {
    const option = (name) => opts[name] ?? mount.dataset[name];
    const idPrefix = "sift" + bars++, collection = option("collection");
    // On a list page the bar searches that list's collection and shows its results in place of the list.
    const list = collection && document.querySelector(`[data-sift-list="${CSS.escape(collection)}"]`);
    this.indexURL = option("index");
    this.collection = collection || null;
    this.host = mount.parentNode;
    setFlag(this.host, "data-sift-host", true);
    this.instant = flagOption(option("instant"), true);
    this.dim = flagOption(option("dim"), false);
    this.hideNavigation = flagOption(option("hideNavigation"), true);
    this.limit = list ? ROWS : opts.limit ?? 20;
    this.query = ""; // the text of the latest search
    this.scope = "All";
    this.filters = {}; // the facets' checked values, {field: [values]}
    this.sort = ""; // "", or a sort field: "area", "-area"
    this.active = false;
    this.runs = 0; // searches started: a run that is not the latest shows nothing

    this.field = new SearchField({
      placeholder: option("placeholder"),
      cancelText: option("cancelText"),
      controls: idPrefix + (list ? "-r" : "-l"),
      combobox: !list,
      // Focused again while searching, it keeps what is shown (the rows "Show more" added, the selection).
      onFocus: () => this.active || this.search(),
      onInput: (query, change) => {
        if (change) this.emit("change", { query });
        // Without instant search, typing waits for Enter (typed into the field at rest, it starts the
        // search as a focus does), and lets go of a row selected for the text searched; emptying
        // the field (or leaving only spaces in it, which search nothing) still shows the empty state.
        if (this.instant || !query.trim()) this.search({ text: query });
        else this.active || this.search(), this.keyboard.deselect(), this.update();
      },
      // Enter or Space (a click of no pointer: detail 0) leaves the focus in the field.
      onCancel: (event) => this.cancel({ keyboard: !event.detail }),
    });
    this.scopeBar = new ScopeBar({ onPick: (scope) => this.pickScope(scope) });
    this.status = element("div", { class: "sift-status", role: "status", "aria-live": "polite" });
    this.emptyArea = element("div", { class: "sift-empty" }); // the empty state's (sift-empty-state.js)
    this.panel = new ResultsPanel({ listboxId: idPrefix + "-l", onMore: () => this.showMore() });
    this.popover = element("div", { class: "sift-pop", hidden: "" }, this.emptyArea, this.panel.listbox);
    this.form = element("form", { role: "search", class: "sift", "data-style": option("style") ?? "prominent", "data-scope-bar": option("scopeBar") ?? "active" },
      this.field.element, (this.scopeArea = element("div", { class: "sift-sb" }, this.scopeBar.element)), this.popover);
    // The status follows the bar on a list page, and leads the panel's results elsewhere.
    if (list) this.form.append(this.status);
    else this.popover.insertBefore(this.status, this.panel.listbox);
    mount.replaceChildren(this.form);
    const dimmer = element("div", { class: "sift-dim" });
    document.body.append(dimmer);
    this.listResults = list ? new ListResults({ list, id: idPrefix + "-r", onMore: () => this.showMore() }) : null;
    this.urlState = new UrlState({ state: () => ({ query: this.query, scope: this.scope, filters: this.filters, sort: this.sort }) });

    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.keyboard = new Keyboard({
      idPrefix,
      input: this.field.input,
      listbox: list ? null : this.panel.listbox,
      onEscape: () => this.cancel({ keyboard: true }),
      onSubmit: () => {
        this.emit("submit", { query: this.field.value });
        this.search({ remember: true, text: this.field.value });
      },
      onScope: (scope) => this.pickScope(scope),
      onLastRow: list ? () => this.showMore() : null,
    });
    onClick(dimmer, () => this.cancel());
    // Opening a result is a search worth remembering, in a new tab by the middle button too.
    for (const results of [this.listResults?.copy, this.panel.listbox]) {
      for (const type of ["click", "auxclick"]) {
        results?.addEventListener(type, (event) => {
          const link = event.target.closest("a");
          if (!link || event.button > 1) return;
          this.opened = link.getAttribute("href");
          this.remember();
        });
      }
    }
    // A panel closes on a click anywhere else, as the dimmed background does, and when Tab takes
    // the focus out of it: it would hide what has the focus. A click that began elsewhere: a touch
    // that scrolls the page makes none, and a press in the field that moves it (the header sliding
    // away) ends elsewhere.
    // Where the press was is taken as it begins: a button of the panel its own click takes away
    // (Clear of the recent searches) was inside, and a click of the keyboard (Enter) had no press.
    // A link pressed is not a click elsewhere: it leaves the page with its search, for Back (as a
    // list's does), or opens a tab beside it.
    if (!list) {
      let outside, link;
      document.addEventListener("pointerdown", (event) => ((link = event.target.closest("a[href]")), (outside = !link && !this.form.contains(event.target))));
      document.addEventListener("click", () => (outside && this.cancel(), (outside = link = null)));
      this.form.addEventListener("focusout", (event) => event.relatedTarget && !this.form.contains(event.relatedTarget) && event.relatedTarget != link && this.cancel());
    } else {
      // On a list with nothing searched, the empty state lies over the list's first rows: Tab out
      // of the bar closes it, as it closes a panel, rather than focus rows it hides.
      this.form.addEventListener("focusout", (event) => event.relatedTarget && !this.form.contains(event.relatedTarget) && this.idle() && this.cancel());
    }
    // A link followed while searching (a result, or any other) keeps the search and its place with
    // the history entry, as the page goes: a page the back-forward cache takes writes nothing then,
    // and may be dropped from it later (Chrome keeps a few, for minutes).
    document.addEventListener("click", (event) => this.active && event.target.closest?.("a[href]") && (this.urlState.flush(), this.keepPlace()));
    // Back to a page kept in the back-forward cache, or to another entry of the same page (a
    // `#fragment` followed): as it was left. Its URL may lag the search (see pagehide below), and is
    // brought up to date.
    const follow = () => JSON.stringify(this.urlState.read()) != JSON.stringify(this.urlState.state()) && this.urlState.save();
    window.addEventListener("pageshow", (event) => event.persisted && follow());
    window.addEventListener("popstate", follow);
    // A phone turned or a window resized while searching: the header's height again.
    window.addEventListener("resize", () => this.fit());
    // A page left (a list's or a panel's) keeps its search's rows and place with the history entry
    // (keepPlace): Back without the back-forward cache searches again and shows them as they were.
    // A page going into the back-forward cache (persisted) is kept whole and writes nothing: a
    // replaceState while it goes evicts it from Chrome's cache.
    window.addEventListener("pagehide", (event) => {
      history.scrollRestoration = this.active ? "manual" : "auto";
      if (!event.persisted) this.keepPlace();
    });
    Keyboard.focusOnShortcut(this.field.input);
    // Scopes are a collection's: a bar searching every collection has none to show.
    if (this.form.dataset.scopeBar == "always" && this.collection) {
      this.loadIndex().then((index) => {
        this.indexed(index);
        this.showScopes();
      }, console.warn);
    }
    this.restore();
  }

  emit(name, detail) {
    this.form.dispatchEvent(new CustomEvent("sift:" + name, { bubbles: true, detail }));
  }

  // Fetched on first use. Text typed while it loads is its hint: that term's shard comes first.
  loadIndex() {
    return (indexes[this.indexURL] ??= SiftIndex.load(this.indexURL, { hint: () => this.field.value }));
  }

  // The place left with the history entry, for Back without the back-forward cache: the rows shown,
  // the scroll offset and the row opened with where it was in the window (the rows made again hold
  // no excerpts until seen, so the same scroll offset would show others). Left at rest, a place kept by an earlier search is not
  // this page's: Back would go to it. Left while the place it came back to is still on its way
  // (Back, then Forward at once), the entry keeps that place.
  keepPlace() {
    if (this.placing) return;
    const row = this.active && this.opened && this.resultLink(this.opened);
    if (this.active) history.replaceState({ rows: this.rowLimit, y: scrollY, row: row && { href: this.opened, top: row.getBoundingClientRect().top } }, "");
    else history.state?.y && history.replaceState(null, "");
  }

  // The index in: said once a bar, as the page opens (scope_bar: always) or on the first search.
  indexed(index) {
    this.index = index;
    this.ready ||= (this.emit("ready"), true);
  }

  /** The URL's search, if it has one; else the bar at rest. */
  restore() {
    const { query, scope, filters, sort } = this.urlState.read();
    this.filters = filters;
    this.sort = sort;
    this.facetBar?.sync();
    const { rows, y, row } = history.state ?? {};
    // Kept for the next page left: Back, Forward and Back again find the same row.
    this.opened = row?.href;
    // Left with the bar active and nothing searched (a row of the page's own list opened): the place it kept.
    if (!query && scope == "All" && !this.chosen()) return this.cancel(), y && scrollTo(0, y);
    this.field.value = query;
    this.selectScope(scope);
    const searched = this.search({ text: query, rows }), run = this.runs;
    // The place is shown until the visitor moves (a wheel, a touch, a key, a press: Cancel, or
    // typing while the index loads), not after; until then, it stays the history entry's (keepPlace).
    const stop = () => (this.placing = false);
    if ((this.placing = y != null)) for (const type of ["wheel", "touchstart", "keydown", "pointerdown"]) addEventListener(type, stop, { once: true, passive: true });
    // Nothing left once what the list does not offer is let go (run): the bar at rest, as the page
    // opens without it, not active over a dimmed page (unless a search of the visitor's came since).
    searched.then(() => {
      if (run == this.runs && !this.query && this.scope == "All" && !this.chosen()) return stop(), this.cancel();
      if (!this.placing) return;
      const link = row && this.resultLink(row.href), results = this.listResults?.copy ?? this.panel.listbox;
      scrollTo(0, y);
      setTimeout(stop, 2000);
      if (!link) return;
      // The row opened where it was in the window, again as the rows around it fill in their
      // excerpts.
      const watch = new ResizeObserver(() =>
        !this.placing ? watch.disconnect() : this.listResults ? scrollBy(0, link.getBoundingClientRect().top - row.top) : (results.scrollTop += link.getBoundingClientRect().top - row.top),
      );
      watch.observe(results);
    });
  }

  start() {
    if (this.active) return;
    this.active = true;
    this.fit();
    setFlag(this.form, "data-active", true);
    root.dataset.sift = this.listResults ? "list" : "panel";
    if (this.hideNavigation) {
      setFlag(root, "data-sift-hide", true);
      // Not on <html>: see "What stays fast, and why" in docs/search-bar.md.
      this.host.dataset.siftHost = "hide";
    }
    this.emit("start");
  }

  // The header slides away by its own height (as laid out: hidden, it keeps its place).
  fit() {
    const header = this.active && this.hideNavigation ? document.querySelector("[data-sift-header]") : null;
    header?.style.setProperty("--sift-header-height", header.offsetHeight + "px");
  }

  /**
   * Ends the search. From the `keyboard` (Esc, or Enter or Space on Cancel) with the focus in the
   * bar or on the results, which go, the focus stays in the field, at rest, as the focus of a
   * combobox stays on Esc (WAI-ARIA's combobox pattern), where Tab goes on from the bar's place in
   * the page; else the field lets go of it (on a phone, the keyboard goes, as UISearchController's
   * Cancel takes it away).
   */
  cancel({ keyboard } = {}) {
    if (!this.active) return;
    const input = this.field.input, focus = document.activeElement;
    // While still active: the focus starts nothing.
    keyboard && focus.closest(".sift,[data-sift-list],.sift-more") ? input.focus() : input.blur();
    this.active = false;
    this.runs++;
    this.busy(false);
    this.field.value = this.query = "";
    this.selectScope("All");
    this.filters = {};
    this.sort = "";
    // The bar at rest, as the page opened (with `scope_bar: always` it stays in view).
    this.scopeBar.showCounts();
    this.facetBar?.reset();
    if (this.listResults) this.resetList();
    this.update();
    this.say("");
    setFlag(this.form, "data-active", false);
    setFlag(root, "data-sift", false);
    setFlag(root, "data-sift-hide", false);
    this.host.dataset.siftHost = "";
    // The place an earlier search kept is not the page at rest's.
    if (history.state?.y) history.replaceState(null, "");
    this.urlState.save();
    this.emit("cancel");
  }

  // Shows what the state asks for: Clear while there is text; while active with nothing typed
  // (idle), the dimmed page and the empty state; the panel while it has something to show.
  // Active with nothing searched: no text, the scope All, no facet value or sort chosen.
  idle() {
    return this.active && !this.field.value.trim() && this.scope == "All" && !this.chosen();
  }

  update() {
    const idle = this.idle(), listbox = this.panel.listbox;
    this.field.update();
    const dimmed = this.dim && idle;
    setFlag(root, "data-sift-dim", dimmed);
    if (dimmed != !!this.dimmed) {
      if ((this.dimmed = dimmed)) this.madeInert = inertAround(this.form);
      else for (const other of this.madeInert.splice(0)) other.inert = false;
    }
    // The empty state's code comes the first time it is wanted; it then shows what is wanted by then.
    if (idle) {
      this.emptyStateLoad ??= import("./sift-empty-state.js").then((module) => {
        this.emptyState = module.emptyStateOf(this);
        this.update();
      }, (error) => this.fail(error));
    }
    this.emptyArea.hidden = !idle || !this.emptyState?.render();
    this.popover.hidden = this.emptyArea.hidden && (this.listResults || !this.query || !this.active);
    listbox.hidden = idle || this.listResults;
    if (!this.listResults) this.field.input.setAttribute("aria-expanded", !this.popover.hidden && !listbox.hidden);
  }

  say(text, nothingFound) {
    this.status.textContent = text;
    setFlag(this.status, "data-none", nothingFound);
  }

  /**
   * Searches `text` in the scope and shows the answer: by default the field's, or without instant
   * search the text last searched (typed text waits for Enter, as a focus, a scope, a facet or
   * more rows find it). `remember`: keep the search among the recent ones; `more`: the next rows
   * of a list, below those shown.
   */
  search(options = {}) {
    // A failed search reads the manifest again past the cache and tries once more: a deploy since
    // the index was read may have removed its files (docs/deploy.md, "Deploys under an open page").
    return this.run(options)
      .catch(() => {
        indexes[this.indexURL] = SiftIndex.load(this.indexURL);
        this.facetsShown = null;
        return this.run(options);
      })
      .catch((error) => this.fail(error));
  }

  // An index of another version or a module gone (a deploy of another sift) reloads the page, its
  // search in the URL, once per reason (kept in the history entry: a host still sending the old page must not loop);
  // not offline, where a module fails to load for want of a network and a reload would lose the page. A corrupt
  // or missing index, or a failed search, is said in the bar, the reason in the console.
  fail(error) {
    const reason = "" + (error.cause || error);
    if (/version|import/i.test(reason) && history.state != reason && navigator.onLine) return history.replaceState(reason, ""), this.urlState.save(), location.reload();
    console.warn(error);
    // Unless Cancel came while the index was asked for again.
    if (this.active) this.say("Search is unavailable");
  }

  async run({ remember, more, rows = this.limit, text = this.instant ? this.field.value : this.query }) {
    // Spaces alone are no query: they filter nothing, as an empty field does.
    const run = ++this.runs, query = (this.query = text.trim() && text);
    let scope = this.scope;
    if (!more) this.rowLimit = rows;
    this.start();
    this.update();
    // Rows shown for an earlier query stay, marked busy, while this one has no answer yet after a
    // moment (a large site's tables, a slow network): they are not its results.
    const busy = setTimeout(() => run == this.runs && this.busy(true), 300);
    // A search worth remembering is kept at once: Cancel may come before its answer.
    remember ? this.remember() : this.urlState.saveSoon();
    const loading = this.loadIndex();
    if (this.listResults && (query || scope != "All" || this.chosen())) this.listResults.showResults(true);
    try {
      // An index that fails to load ends the run here too, no longer busy.
      this.indexed(await loading);
      await this.showScopes();
      // A link's scope, facets and sort the list does not offer (a link from before the site
      // changed them, or written by hand) are let go, as a search of them would fail or filter
      // unseen: the scope by the scope bar's, facets and sort by the facet bar (showScopes lets
      // go of them all where there is none).
      if (scope != "All" && !this.scopeBar.scopes.includes(scope)) this.selectScope((scope = "All"));
      if (this.chosen()) await this.facetsShown;
      // Field matches at once; the whole answer when the body shards arrive.
      // A run overtaken by a newer one searches no further (as the focus's empty query once the index is in).
      const { filters, sort, facetBar } = this;
      const options = { scope, collection: this.collection, limit: this.rowLimit, filters, sort, facets: facetBar?.open };
      for (let now = true; run == this.runs; now = false) {
        const answer = await this.index.search(query, { ...options, now });
        // Its first answer, partial or whole, is its own: no longer the earlier query's rows. Not
        // one that found nothing while body matches are on the way: it would say "No results".
        if (run == this.runs && this.active && (answer.total || !answer.partial)) {
          this.show(answer, { keepShown: more });
          clearTimeout(busy);
          this.busy(false);
          // The latest search's whole answer, below which "Show more" may add rows (not once another search starts).
          if (!answer.partial) this.whole = run;
        }
        if (!answer.partial) break;
      }
    } finally {
      clearTimeout(busy);
      if (run == this.runs) this.busy(false);
    }
    await this.facetsShown;
  }

  // The results marked busy (`aria-busy`), or not.
  busy(on) {
    (this.listResults?.copy ?? this.panel.listbox).ariaBusy = on;
  }

  show({ query, scope, total, results, scopeCounts, facets, partial }, { keepShown }) {
    const filtering = query || scope != "All" || this.chosen(), { keyboard } = this;
    // A row selected with this query typed stays selected wherever the answer puts it, found by
    // its page (its link's ?mark= may be the last query's): ↓ may come before the answer (the
    // last one's rows shown), or during a partial one (body matches may rank above it).
    // `keepShown`: more rows below those shown.
    const page = (row) => (row?.querySelector("a") ?? row)?.pathname, selected = keyboard.query == query && page(keyboard.rows[keyboard.selected]);
    if (!keepShown) keyboard.deselect();
    this.scopeBar.showCounts(scopeCounts);
    this.facetBar?.showCounts(facets);
    if (!this.listResults) {
      const collectionTitle = (name) => this.index.collections.find((collection) => collection.name == name).title;
      // With nothing typed the panel is hidden: no options, for the keys to move through either.
      // More rows take the place of "Show more results": selected, it selects the first of them.
      const at = keyboard.selected;
      keyboard.deselect();
      keyboard.rows = this.panel.show(filtering ? results : [], query, { keepShown, total: filtering ? total : 0, collectionTitle });
      if (keepShown) keyboard.move(at + 1);
    } else if (!filtering) this.resetList();
    else this.keyboard.rows = this.listResults.show(results, query, total, { keepShown });
    // Body matches show excerpts, their code loaded with the first of them: the rows of this answer,
    // taken now, as a later answer may replace them while the code loads. Only the latest answer's
    // rows are watched: a slow first load of the code ends for every answer waiting at once.
    const rows = [...(this.listResults?.copy ?? this.panel.listbox).children], shown = (this.answersShown = (this.answersShown ?? 0) + 1);
    // Each result's link carries the query to the page it opens, which marks its terms (sift-marks.js),
    // however it is opened: a click, a new tab, a copied link.
    // The site's own pages only: a row's link to another site or a mail address is not given the search.
    if (query) for (const row of rows) for (const link of row.querySelectorAll("a")) if (link.origin == location.origin) link.setAttribute("href", marked(link.getAttribute("href"), query));
    if (selected && !keepShown) keyboard.move(1 + keyboard.rows.findIndex((row) => page(row) == selected));
    if (results.some((result) => result.match == "body")) import("./sift-excerpt-view.js").then((view) => shown == this.answersShown && view.watch(this, rows, results, query, keepShown), (error) => this.fail(error));
    this.update();
    this.say(!filtering ? "" : total ? `${total} result${total == 1 ? "" : "s"}` : query ? `No results for “${query}”` : "No results", filtering && !total);
    // Nothing searched (a panel focused, a list cleared): no results to tell of.
    if (filtering) this.emit("results", { query, scope, total, partial: !!partial });
  }

  // More rows below those of the latest search's whole answer (not while another is on the way,
  // whose rows are not these, nor below a partial answer, whose rows the whole one may reorder).
  showMore() {
    const shown = this.listResults ?? this.panel;
    if (this.whole == this.runs && shown.hasMore && shown.rowCount >= this.rowLimit) {
      this.rowLimit += this.limit;
      this.search({ more: true });
    }
  }

  resetList() {
    this.listResults.reset();
    this.keyboard.rows = [];
  }

  // The scope bar and the facets, once the index says which the collection has.
  async showScopes() {
    const table = this.index.tables.find((candidate) => candidate.collection.name == this.collection), collection = table?.collection;
    if (collection?.facets) {
      setFlag(this.form, "data-scopes", true);
      // The first answer waits for no facets: the bar, once in, shows the counts of the search then
      // current. A failed file fails the search once its answer is shown (run awaits facetsShown),
      // which reads the index, and the facets with it, again; the bar is made once.
      // Its failure is heard by run, maybe only after the answer: `.catch(String)` keeps it from
      // counting as unhandled meanwhile.
      (this.facetsShown ??= Promise.all([import("./sift-facet-bar.js"), this.index.facets([table])]).then(([{ FacetBar }, facets]) => (this.facetBar ??= new FacetBar({ bar: this, facets })))).catch(String);
    } else (this.filters = {}), (this.sort = "");
    if (this.scopeBar.built || !collection?.scopes.length) return;
    setFlag(this.form, "data-scopes", true);
    this.scopeBar.build(collection.scopes);
    this.scopeBar.select(this.scope);
  }

  /** Whether a facet value is checked or a sort chosen: a list is filtered even with no text. */
  chosen() {
    return this.sort || Object.values(this.filters).some((values) => values.length);
  }

  pickScope(scope) {
    if (scope == this.scope) return;
    this.selectScope(scope);
    this.emit("scope", { scope });
    this.search();
  }

  selectScope(scope) {
    this.scope = scope;
    this.scopeBar.select(scope);
  }

  // A result's link, in the list's rows or the panel, by its href but the text fragment its excerpt
  // adds (#:~:text=…), which a row made again has not until its excerpt comes.
  resultLink(href) {
    const page = (href) => href.replace(/#?:~:.*/, "");
    return [...(this.listResults?.copy ?? this.panel.listbox).querySelectorAll("a")].find((link) => page(link.getAttribute("href")) == page(href));
  }

  // The recent searches are the empty state's, in its module, which the bar loads when it is first
  // active: at once when it is there (a result's click is followed by the page it opens).
  remember() {
    const query = this.query.trim(), add = ({ recentSearches }) => recentSearches.add(query);
    this.urlState.save();
    if (query) this.emptyState ? add(this.emptyState) : import("./sift-empty-state.js").then(add, String);
  }
}
