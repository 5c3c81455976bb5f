// The search in the address bar, ?q=…&scope=… ("All" left out), replaced and never pushed: Back
// leaves the page, and coming back (or opening such a URL) restores the search.
export class UrlState {
  constructor(opts = {}) {
    this.state = opts.state; // () => ({ query, scope })
    this.delay = opts.delay ?? 300;
  }

  read() {
    const params = new URLSearchParams(location.search);
    return { query: params.get("q") ?? "", scope: params.get("scope") ?? "All" };
  }

  save() {
    const url = new URL(location.href), params = url.searchParams, { query, scope } = this.state();
    if (query) params.set("q", query);
    else params.delete("q");
    if (scope != "All") params.set("scope", scope);
    else params.delete("scope");
    history.replaceState(history.state, "", url);
  }

  /** Saves once typing pauses: replaceState makes Chromium resolve every link of the page again. */
  saveSoon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), this.delay);
  }
}
