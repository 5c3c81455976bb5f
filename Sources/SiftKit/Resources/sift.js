// Sift's search bar: UISearchController for the web. Mounts on every [data-sift-search];
// on a list page it filters the list in place, elsewhere it shows a results panel.
// Index values only ever become text nodes, never HTML.
import { SiftIndex, highlight } from "./sift-core.js";

const doc = document, root = doc.documentElement, KEY = "sift:recent", loads = {};
let uid = 0, keys;

/// h("tag", {attrs}, ...children): strings become text nodes.
const h = (tag, attrs = {}, ...kids) => {
  const e = doc.createElement(tag);
  for (const k in attrs) if (attrs[k] != null) e.setAttribute(k, attrs[k]);
  e.append(...kids);
  return e;
};
const flag = (v, d) => v == null || v === "" ? d : v !== false && v !== "false";
const set = (el, name, on) => on ? el.setAttribute(name, "") : el.removeAttribute(name);
const recent = () => { try { return JSON.parse(localStorage[KEY] || "[]"); } catch { return []; } };
const store = list => { try { localStorage[KEY] = JSON.stringify(list); } catch {} };

/// Wraps the ranges `highlight` finds in <mark>, building text nodes only.
const paint = (el, text, q) => {
  const rs = q ? highlight(text, q) : [], parts = [];
  if (!rs.length && !el.childElementCount) return el;
  let i = 0;
  for (const [a, b] of rs) { parts.push(text.slice(i, a), h("mark", {}, text.slice(a, b))); i = b; }
  el.replaceChildren(...parts, text.slice(i));
  return el;
};

/// One search bar. Options (each defaults to the mount's data- attribute): index, collection,
/// placeholder, instant, dim, hideNavigation, style, cancelText, scopeBar, limit.
export class SiftSearch {
  constructor(el, opts = {}) {
    const d = el.dataset, ph = opts.placeholder ?? d.placeholder ?? "Search", id = "sift" + uid++;
    this.url = opts.index ?? d.index;
    this.col = (opts.collection ?? d.collection) || null;
    this.instant = flag(opts.instant ?? d.instant, true);
    this.dim = flag(opts.dim ?? d.dim, false);
    this.hide = flag(opts.hideNavigation ?? d.hideNavigation, true);
    this.limit = opts.limit ?? 20;
    this.list = this.col && doc.querySelector(`[data-sift-list="${CSS.escape(this.col)}"]`);
    this.header = doc.querySelector("[data-sift-header]");
    this.id = id; this.q = ""; this.scope = "All"; this.items = []; this.at = -1; this.seq = 0;

    const panel = !this.list;
    this.input = h("input", { type: "search", class: "sift-input", placeholder: ph, "aria-label": ph, autocomplete: "off",
      spellcheck: "false", enterkeyhint: "search", role: panel ? "combobox" : null, "aria-controls": panel ? id + "-l" : null,
      "aria-expanded": panel ? "false" : null, "aria-autocomplete": panel ? "list" : null });
    this.clear = h("button", { type: "button", class: "sift-clear", "aria-label": "Clear", hidden: "" });
    this.cancelButton = h("button", { type: "button", class: "sift-cancel" }, opts.cancelText ?? d.cancelText ?? "Cancel");
    this.radios = h("div", { role: "radiogroup", "aria-label": "Scope", class: "sift-scopes" });
    this.status = h("div", { class: "sift-status", role: "status", "aria-live": "polite" });
    this.empty = h("div", { class: "sift-empty" });
    this.box = h("ul", { role: "listbox", id: id + "-l", class: "sift-results", "aria-label": "Results" });
    this.pop = h("div", { class: "sift-pop", hidden: "" }, this.empty, this.box);
    const f = this.form = h("form", { role: "search", class: "sift", action: "", "data-style": opts.style ?? d.style ?? "prominent",
      "data-scope-bar": opts.scopeBar ?? d.scopeBar ?? "active", "data-mode": panel ? "panel" : "list" },
      h("div", { class: "sift-bar" },
        h("div", { class: "sift-field" }, this.input,
          h("span", { class: "sift-hint", "aria-hidden": "true" }, h("i", { class: "sift-icon" }), h("span", {}, ph)), this.clear),
        this.cancelButton),
      h("div", { class: "sift-sb" }, this.radios), this.pop);
    (panel ? this.pop : f).insertBefore(this.status, panel ? this.box : null);
    el.replaceChildren(f);
    el.sift = this;
    this.dimmer = h("div", { class: "sift-dim" });
    doc.body.append(this.dimmer);

    // Hiding the navigation collapses what sits beside the field on its way up to the
    // header (or to the list header), never the field itself.
    for (let n = el; n.parentElement && n !== this.header && n.parentElement.tagName != "MAIN"; n = n.parentElement)
      for (const s of n.parentElement.children) if (s !== n) s.dataset.siftNav = "";

    if (this.list) {
      this.orig = [...this.list.children];
      this.rows = new Map(this.orig.map(li => [li.dataset.siftItem, li]));
      this.shown = new Set(this.orig);
    }

    f.addEventListener("submit", e => e.preventDefault());
    this.input.addEventListener("focus", () => this.run());
    this.input.addEventListener("input", () => {
      this.emit("change", { query: this.input.value });
      this.instant || !this.input.value ? this.run() : this.sync();
    });
    this.clear.addEventListener("click", () => { this.input.value = ""; this.input.focus(); this.run(); });
    this.cancelButton.addEventListener("click", () => this.cancel());
    this.dimmer.addEventListener("click", () => this.cancel());
    f.addEventListener("keydown", e => this.key(e));
    for (const c of [this.list, this.box]) c?.addEventListener("click", e => e.target.closest("a") && this.remember());
    doc.addEventListener("pointerdown", e => {
      if (panel && this.active && !f.contains(e.target)) this.input.value ? (this.pop.hidden = true, this.expand(false)) : this.cancel();
    });
    addEventListener("pageshow", e => e.persisted && this.restore());
    if (!keys) {
      keys = this;
      doc.addEventListener("keydown", e => {
        const t = e.target, typing = t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
        if (e.key == "/" && !typing || (e.ctrlKey || e.metaKey) && e.key.toLowerCase?.() == "k") { e.preventDefault(); this.input.focus(); }
      });
    }
    if (f.dataset.scopeBar == "always") this.index().then(() => this.scopes());
    this.restore();
  }

  emit(name, detail) { this.form.dispatchEvent(new CustomEvent("sift:" + name, { bubbles: true, detail })); }

  /// Loads the index once per page, whichever bar asks first.
  index() {
    return loads[this.url] ??= SiftIndex.load(this.url).then(ix => {
      this.ix = ix;
      return ix;
    });
  }

  /// Takes text and scope from the URL (on load, and when the page comes back from the back-forward cache).
  restore() {
    const p = new URLSearchParams(location.search), q = p.get("q") ?? "", s = p.get("scope") ?? "All";
    if (!q && s == "All") return this.active && this.cancel();
    this.input.value = q;
    this.check(s);
    this.start();
    this.run();
  }

  start() {
    if (this.active) return;
    this.active = true;
    set(this.form, "data-active", 1);
    root.dataset.sift = this.list ? "list" : "panel";
    if (this.hide) {
      root.style.setProperty("--sift-header-height", (this.header?.offsetHeight ?? 0) + "px");
      set(root, "data-sift-hide", 1);
    }
    this.emit("start");
  }

  /// Leaves the search: clears the text, restores the whole list.
  cancel() {
    if (!this.active) return;
    this.active = false;
    this.seq++;
    this.input.value = this.q = "";
    this.check("All");
    this.reset();
    this.pop.hidden = true;
    this.expand(false);
    this.say("");
    set(this.form, "data-active", 0);
    for (const a of ["data-sift", "data-sift-hide", "data-sift-dim", "data-sift-filtered"]) root.removeAttribute(a);
    this.url_();
    this.input.blur();
    this.emit("cancel");
  }

  /// Applies the state that does not wait for results: Clear, dimming, the empty state.
  sync() {
    const idle = this.active && !this.input.value && this.scope == "All";
    this.clear.hidden = !this.input.value;
    set(root, "data-sift-dim", this.dim && idle);
    this.empty.hidden = !idle || !this.suggest();
    this.pop.hidden = this.empty.hidden && (this.list || !this.q || !this.active);
    this.box.hidden = idle || !!this.list;
    this.expand(!this.pop.hidden && !this.box.hidden);
  }

  expand(on) { this.list || this.input.setAttribute("aria-expanded", on); }

  say(text, none) {
    this.status.textContent = text;
    set(this.status, "data-none", none);
  }

  url_() {
    const u = new URL(location.href), p = u.searchParams;
    this.q ? p.set("q", this.q) : p.delete("q");
    this.scope != "All" ? p.set("scope", this.scope) : p.delete("scope");
    if (u.href != location.href) history.replaceState(history.state, "", u);
  }

  /// Searches with the field's text and the scope; only the latest answer is shown.
  async run() {
    const n = ++this.seq, q = this.q = this.input.value, scope = this.scope;
    this.start();
    this.sync();
    this.url_();
    let ix;
    try { ix = await this.index(); } catch { return this.say("Search is unavailable"); }
    this.scopes();
    const r = await ix.search(q, { scope, collection: this.col, limit: this.list ? Infinity : this.limit });
    if (n == this.seq && this.active) this.show(r);
  }

  show(r) {
    const { query: q, scope, total } = r;
    for (const b of this.radios.children) b.lastChild.textContent = r.scopeCounts?.[b.dataset.scope] ?? 0;
    const filtering = q || scope != "All";
    set(root, "data-sift-filtered", this.list && filtering);
    if (this.list) {
      if (!filtering) this.reset();
      else {
        const seen = new Set(), kids = this.list.children;
        let i = 0;
        for (const x of r.results) {
          let li = this.rows.get(x.slug);
          if (!li) {
            // A paginated list holds only its page: rows for the rest are made as the results need them.
            li = h("li", { class: "row", "data-sift-item": x.slug }, h("a", { href: x.url }, h("span", { class: "row-title" }, x.title)));
            this.rows.set(x.slug, li);
          }
          if (kids[i] !== li) this.list.insertBefore(li, kids[i]);
          li.hidden = false;
          const t = li.querySelector(".row-title");
          if (t) paint(t, t.siftText ??= t.textContent, q);
          seen.add(li);
          i++;
        }
        for (const li of this.shown) if (!seen.has(li)) li.hidden = true;
        this.shown = seen;
        this.items = [...seen];
        this.dirty = true;
      }
    } else {
      const titles = Object.fromEntries(this.ix.collections.map(c => [c.name, c.title]));
      this.items = r.results.map((x, i) => h("li", { role: "option", id: `${this.id}-o${i}`, "aria-selected": "false" },
        h("a", { href: x.url, tabindex: "-1" }, paint(h("span", { class: "sift-t" }, x.title), x.title, q),
          h("span", { class: "sift-s" }, [titles[x.collection], x.scope].filter(Boolean).join(" · ")))));
      this.box.replaceChildren(...this.items);
    }
    this.sync();
    this.at = -1;
    this.input.removeAttribute("aria-activedescendant");
    this.say(!filtering ? "" : total ? `${total} result${total == 1 ? "" : "s"}` : q ? `No results for “${q}”` : "No results", filtering && !total);
    this.emit("results", { query: q, scope, total });
  }

  /// Puts the list back as the page had it.
  reset() {
    if (!this.dirty) return;
    this.dirty = false;
    this.list.replaceChildren(...this.orig);
    for (const li of this.orig) {
      li.hidden = false;
      const t = li.querySelector(".row-title");
      if (t?.siftText != null) paint(t, t.siftText, "");
    }
    this.shown = new Set(this.orig);
    this.items = this.orig;
  }

  /// Builds the scope bar: "All" first, then the collection's scopes.
  scopes() {
    const c = this.ix.collections.find(c => c.name == this.col);
    if (this.radios.childElementCount || !c?.scopes.length) return;
    set(this.form, "data-scopes", 1);
    for (const s of ["All", ...c.scopes]) {
      const b = h("button", { type: "button", role: "radio", "data-scope": s }, s, " ", h("span", { class: "sift-count" }));
      b.addEventListener("click", () => this.pick(s));
      this.radios.append(b);
    }
    this.check(this.scope);
  }

  pick(s) {
    if (s == this.scope) return;
    this.check(s);
    this.emit("scope", { scope: s });
    this.run();
  }

  check(s) {
    this.scope = s;
    for (const b of this.radios.children) {
      const on = b.dataset.scope == s;
      b.setAttribute("aria-checked", on);
      b.tabIndex = on ? 0 : -1;
    }
  }

  /// The empty state: scopes (or collections) as shortcuts, then the last five searches.
  suggest() {
    const parts = [], rec = recent(), scopes = [...this.radios.children].slice(1);
    const base = new URL("..", new URL(this.url, location.href)).pathname;
    const links = this.list ? scopes.map(b => {
      const t = h("button", { type: "button", class: "sift-token" }, b.dataset.scope);
      t.addEventListener("click", () => this.pick(b.dataset.scope));
      return t;
    }) : (this.ix?.collections ?? []).map(c => h("a", { class: "sift-token", href: base + c.name + "/" }, c.title));
    if (links.length) parts.push(h("p", { class: "sift-h" }, "Browse"), h("div", { class: "sift-tokens" }, ...links));
    if (rec.length) {
      const clear = h("button", { type: "button", "aria-label": "Clear recent searches" }, "Clear");
      clear.addEventListener("click", () => { store([]); this.input.focus(); this.sync(); });
      parts.push(h("p", { class: "sift-h" }, "Recent Searches", clear), h("ul", { class: "sift-recent" }, ...rec.map(q => {
        const b = h("button", { type: "button" }, q);
        b.addEventListener("click", () => { this.input.value = q; this.input.focus(); this.run(); this.remember(); });
        return h("li", {}, b);
      })));
    }
    this.empty.replaceChildren(...parts);
    return parts.length;
  }

  remember() {
    const q = this.q.trim();
    if (q) store([q, ...recent().filter(x => x != q)].slice(0, 5));
  }

  key(e) {
    const k = e.key, inField = e.target == this.input;
    if (k == "Escape") { e.preventDefault(); this.cancel(); }
    else if (inField && (k == "ArrowDown" || k == "ArrowUp")) { e.preventDefault(); this.move(k == "ArrowDown" ? 1 : -1); }
    else if (inField && k == "Enter") {
      e.preventDefault();
      const a = this.items[this.at]?.querySelector("a");
      if (a) return a.click();
      this.emit("submit", { query: this.input.value });
      this.run().then(() => this.remember());
    } else if (e.target.role == "radio" && (k == "ArrowRight" || k == "ArrowLeft")) {
      const b = e.target[k == "ArrowRight" ? "nextElementSibling" : "previousElementSibling"];
      if (b) { b.focus(); this.pick(b.dataset.scope); }
    }
  }

  /// ↓/↑ through the results; focus stays in the field (aria-activedescendant).
  move(d) {
    const it = this.items.filter(x => !x.hidden), old = it[this.at];
    if (old) { delete old.dataset.active; old.role && old.setAttribute("aria-selected", "false"); }
    this.at = Math.max(-1, Math.min(it.length - 1, this.at + d));
    this.items = it;
    const n = it[this.at];
    if (!n) return this.input.removeAttribute("aria-activedescendant");
    n.dataset.active = "";
    n.role && n.setAttribute("aria-selected", "true");
    n.id ||= `${this.id}-r${this.at}`;
    n.scrollIntoView({ block: "nearest" });
    this.input.setAttribute("aria-activedescendant", n.id);
  }
}

for (const el of doc.querySelectorAll("[data-sift-search]")) new SiftSearch(el);
