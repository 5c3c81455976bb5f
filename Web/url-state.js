// The search in the address bar, ?q=…&scope=…&f.region=…&sort=-area ("All" and Relevance left
// out), replaced and never pushed: Back leaves the page, and coming back (or opening such a URL)
// restores the search.
export class UrlState {
  constructor(opts = {}) {
    this.state = opts.state; // () => ({ query, scope, filters, sort })
    this.delay = opts.delay ?? 300;
    // A page left while a save waits (a link followed within the delay) saves at once, for Back;
    // not one going into the back-forward cache, whose replaceState would evict it (the bar saves
    // when the page comes back).
    addEventListener("pagehide", (event) => event.persisted || this.flush());
  }

  read() {
    const params = new URLSearchParams(location.search), filters = {};
    for (const [name, value] of params) if (name.startsWith("f.")) (filters[name.slice(2)] ??= []).push(value);
    return { query: params.get("q") ?? "", scope: params.get("scope") ?? "All", filters, sort: params.get("sort") ?? "" };
  }

  save() {
    clearTimeout(this.timer);
    this.timer = 0;
    const url = new URL(location.href), { query, scope, filters, sort } = this.state();
    const params = new URLSearchParams([...url.searchParams].filter(([name]) => !/^(q|scope|sort|f\..*)$/.test(name)));
    if (query) params.set("q", query);
    if (scope != "All") params.set("scope", scope);
    for (const name in filters) for (const value of filters[name]) params.append("f." + name, value);
    if (sort) params.set("sort", sort);
    url.search = params;
    history.replaceState(history.state, "", url);
  }

  /** Saves now if a save waits. */
  flush() {
    this.timer && this.save();
  }

  /** Saves once typing pauses: replaceState makes Chromium resolve every link of the page again. */
  saveSoon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), this.delay);
  }
}
