// The last searches, kept in localStorage, newest first. Storage that is full or forbidden
// (a private window) keeps nothing, silently.
export class RecentSearches {
  constructor(opts = {}) {
    this.key = opts.key ?? "sift:recent";
    this.size = opts.size ?? 5;
  }

  list() {
    try {
      return JSON.parse(localStorage[this.key] || "[]");
    } catch {
      return [];
    }
  }

  add(query) {
    this.store([query, ...this.list().filter((earlier) => earlier != query)].slice(0, this.size));
  }

  clear() {
    this.store([]);
  }

  store(queries) {
    try {
      localStorage[this.key] = JSON.stringify(queries);
    } catch {}
  }
}
