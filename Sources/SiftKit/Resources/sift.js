// Sift's search bar (docs/search-bar.md). Index values become text nodes, never HTML.
import { SiftIndex, highlight } from "./sift-core.js";

const doc = document, root = doc.documentElement, KEY = "sift:recent", loads = {};
let uid = 0, keys;

const h = (tag, attrs, ...kids) => {
  const e = doc.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  e.append(...kids);
  return e;
};
const btn = (attrs, ...kids) => h("button", { type: "button", ...attrs }, ...kids);
const on = (el, type, f) => el.addEventListener(type, f);
const tap = (b, f) => (on(b, "click", f), b);
const flag = (v, d) => v == null || v === "" ? d : v !== false && v !== "false";
const set = (el, name, yes) => yes ? el.setAttribute(name, "") : el.removeAttribute(name);
const recent = () => { try { return JSON.parse(localStorage[KEY] || "[]"); } catch { return []; } };
const store = list => { try { localStorage[KEY] = JSON.stringify(list); } catch {} };

const paint = (el, text, q) => {
  const parts = [];
  let i = 0;
  for (const [a, b] of q ? highlight(text, q) : []) { parts.push(text.slice(i, a), h("mark", {}, text.slice(a, b))); i = b; }
  el.replaceChildren(...parts, text.slice(i));
  return el;
};

/// A search bar built into `el`; options default to its data- attributes.
export class SiftSearch {
  constructor(el, opts = {}) {
    const d = el.dataset, o = k => opts[k] ?? d[k], ph = o("placeholder") ?? "Search", id = this.id = "sift" + uid++;
    const list = this.list = o("collection") && doc.querySelector(`[data-sift-list="${CSS.escape(o("collection"))}"]`);
    this.url = o("index");
    this.col = o("collection") || null;
    set(this.host = el.parentNode, "data-sift-host", 1);
    this.instant = flag(o("instant"), true);
    this.dim = flag(o("dim"), false);
    this.hide = flag(o("hideNavigation"), true);
    this.limit = opts.limit ?? 20;
    this.q = ""; this.scope = "All"; this.items = []; this.at = -1; this.seq = 0;

    const input = this.input = h("input", { type: "search", class: "sift-input", placeholder: ph, "aria-label": ph,
      autocomplete: "off",
      ...!list && { role: "combobox", "aria-controls": id + "-l", "aria-expanded": "false", "aria-autocomplete": "list" } });
    const clear = this.clear = btn({ class: "sift-clear", "aria-label": "Clear", hidden: "" });
    const cancel = btn({ class: "sift-cancel" }, o("cancelText") ?? "Cancel");
    this.radios = h("div", { role: "radiogroup", "aria-label": "Scope", class: "sift-scopes" });
    this.status = h("div", { class: "sift-status", role: "status", "aria-live": "polite" });
    this.empty = h("div", { class: "sift-empty" });
    this.box = h("ul", { role: "listbox", id: id + "-l", class: "sift-results", "aria-label": "Results", tabindex: "0" });
    this.pop = h("div", { class: "sift-pop", hidden: "" }, this.empty, this.box);
    const f = this.form = h("form", { role: "search", class: "sift", "data-style": o("style") ?? "prominent",
      "data-scope-bar": o("scopeBar") ?? "active" },
      h("div", { class: "sift-bar" },
        h("div", { class: "sift-field" }, input,
          h("span", { class: "sift-hint", "aria-hidden": "true" }, h("i", { class: "sift-icon" }), h("span", {}, ph)), clear),
        cancel),
      h("div", { class: "sift-sb" }, this.radios), this.pop);
    (list ? f : this.pop).insertBefore(this.status, list ? null : this.box);
    el.replaceChildren(f);
    const dim = h("div", { class: "sift-dim" });
    doc.body.append(dim);

    if (list) {
      const out = this.out = list.cloneNode(), more = this.more = tap(btn({ class: "sift-more", hidden: "" }, "Show more"), () => this.grow());
      out.hidden = true;
      out.removeAttribute("id");
      list.after(out, more);
      new IntersectionObserver(e => e[0].isIntersecting && this.grow(), { rootMargin: "600px" }).observe(more);
    }

    on(f, "submit", e => e.preventDefault());
    on(f, "keydown", e => this.key(e));
    on(input, "focus", () => this.run());
    on(input, "input", () => {
      this.emit("change", { query: input.value });
      this.instant || !input.value ? this.run() : this.sync();
    });
    tap(clear, () => { input.value = ""; input.focus(); this.run(); });
    for (const b of [cancel, dim]) tap(b, () => this.cancel());
    for (const c of [this.out, this.box]) c && on(c, "click", e => e.target.closest("a") && this.remember());
    list || on(doc, "pointerdown", e => f.contains(e.target) || this.cancel());
    on(window, "pageshow", e => e.persisted && this.restore());
    if (!keys) on(doc, "keydown", keys = e => {
      if (e.key == "/" && !e.target.closest("input,textarea,select,[contenteditable]") ||
          (e.ctrlKey || e.metaKey) && e.key == "k") { e.preventDefault(); input.focus(); }
    });
    if (f.dataset.scopeBar == "always") this.index().then(ix => this.scopes(this.ix = ix), console.warn);
    this.restore();
  }

  emit(name, detail) { this.form.dispatchEvent(new CustomEvent("sift:" + name, { bubbles: true, detail })); }

  index() { return loads[this.url] ??= SiftIndex.load(this.url, { hint: () => this.input.value }); }

  restore() {
    const p = new URLSearchParams(location.search), q = p.get("q") ?? "", s = p.get("scope") ?? "All";
    if (!q && s == "All") return this.cancel();
    this.input.value = q;
    this.check(s);
    this.run();
  }

  start() {
    if (this.active) return;
    this.active = true;
    const hd = this.hide ? doc.querySelector("[data-sift-header]") : null;
    hd?.style.setProperty("--sift-header-height", hd.offsetHeight + "px");
    set(this.form, "data-active", 1);
    root.dataset.sift = this.list ? "list" : "panel";
    if (this.hide) {
      set(root, "data-sift-hide", 1);
      // Not <html>: see “Two more costs” in docs/search-bar.md.
      this.host.dataset.siftHost = "hide";
    }
    this.emit("start");
  }

  cancel() {
    if (!this.active) return;
    this.active = false;
    this.seq++;
    this.input.value = this.q = "";
    this.check("All");
    this.list && this.reset();
    this.sync();
    this.say("");
    set(this.form, "data-active");
    set(root, "data-sift");
    set(root, "data-sift-hide");
    this.host.dataset.siftHost = "";
    this.save();
    this.input.blur();
    this.emit("cancel");
  }

  sync() {
    const idle = this.active && !this.input.value && this.scope == "All";
    this.clear.hidden = !this.input.value;
    set(root, "data-sift-dim", this.dim && idle);
    this.empty.hidden = !idle || !this.suggest();
    this.pop.hidden = this.empty.hidden && (this.list || !this.q || !this.active);
    this.box.hidden = idle || !!this.list;
    this.list || this.input.setAttribute("aria-expanded", !this.pop.hidden && !this.box.hidden);
  }

  say(text, none) {
    this.status.textContent = text;
    set(this.status, "data-none", none);
  }

  save() {
    const u = new URL(location.href), p = u.searchParams;
    this.q ? p.set("q", this.q) : p.delete("q");
    this.scope != "All" ? p.set("scope", this.scope) : p.delete("scope");
    history.replaceState(history.state, "", u);
  }

  // A corrupt or missing index, or a failed search: said in the bar, the reason in the console.
  async run(keep, more) {
    try {
      const n = ++this.seq, q = this.q = this.input.value, scope = this.scope;
      more || (this.n = 50);
      this.start();
      this.sync();
      clearTimeout(this.st);
      this.st = setTimeout(() => this.save(), 300);
      const ix = this.index();
      this.list && (q || scope != "All") && this.flip(1);
      this.ix = await ix;
      this.scopes();
      // Field matches at once; body matches when their shards arrive, below rows already shown.
      // None for a run already overtaken (the focus's empty query, once the index is in, 2-6 ms
      // of a cold first query at 10k).
      const o = { scope, collection: this.col, limit: this.list ? this.n : this.limit };
      for (let now = 1, was; n == this.seq; now = 0) {
        const r = await this.ix.search(q, { ...o, now });
        if (n == this.seq && this.active) this.show(r, more || was?.every((x, i) => r.results[i]?.url == x.url));
        if (!r.partial) break;
        was = r.results;
      }
      keep && this.remember();
    } catch (e) {
      console.warn(e);
      this.say("Search is unavailable");
    }
  }

  show({ query: q, scope, total, results, scopeCounts, partial }, more) {
    const { list, out } = this, filtering = q || scope != "All";
    more || this.move(-1e9);
    for (const b of this.radios.children) b.lastChild.textContent = scopeCounts?.[b.dataset.scope] ?? 0;
    if (!list) {
      // A whole answer after a partial one keeps the options shown, and the one selected.
      const b = this.box;
      more || b.replaceChildren();
      // The link is the option itself: an option holding a link nests one control in another.
      b.append(...results.slice(b.childElementCount).map(x => h("li", { role: "none" },
        h("a", { href: x.url, role: "option", "aria-selected": "false", tabindex: "-1" }, paint(h("span", { class: "sift-t" }), x.title, q),
          h("span", { class: "sift-s" }, [this.ix.collections.find(c => c.name == x.collection).title, x.scope].filter(Boolean).join(" · "))))));
      this.items = [...b.querySelectorAll("a")];
    } else if (!filtering) this.reset();
    else {
      // Rows by their place in the list, checked by slug (else found by it: a paginated list).
      // Chromium lists a parent's children on the first access (20 ms at 100k): here, or after
      // a first answer without results, not on the next keystroke.
      const k = this.k ??= list.children;
      more || out.replaceChildren();
      out.append(...results.slice(out.childElementCount).map(x => {
        const r = k[x.position],
          li = (r?.dataset.siftItem == x.slug ? r : list.querySelector(`[data-sift-item="${CSS.escape(x.slug)}"]`))?.cloneNode(1) ??
            h("li", { class: "row" }, h("a", { href: x.url }, h("span", { class: "row-title" }, x.title))),
          t = li.querySelector(".row-title");
        t && paint(t, t.textContent, q);
        return li;
      }));
      results.length || setTimeout(() => k[0]);
      this.flip(1);
      this.more.hidden = out.childElementCount >= total;
      this.items = [...out.children];
    }
    this.sync();
    this.say(!filtering ? "" : total ? `${total} result${total == 1 ? "" : "s"}` : `No results for “${q}”`, filtering && !total);
    this.emit("results", { query: q, scope, total, partial: !!partial });
  }

  grow() {
    if (!this.more.hidden && this.out.childElementCount >= this.n) { this.n += 50; this.run(0, 1); }
  }

  flip(on) {
    set(this.list, "data-sift-off", !(this.out.hidden = !on));
  }

  reset() {
    this.flip(!(this.more.hidden = 1));
    this.out.replaceChildren();
    this.items = [];
  }

  scopes() {
    const c = this.ix.collections.find(c => c.name == this.col);
    if (this.radios.childElementCount || !c?.scopes.length) return;
    set(this.form, "data-scopes", 1);
    for (const s of ["All", ...c.scopes]) this.radios.append(tap(btn({ role: "radio", "data-scope": s }, s, " ", h("span", { class: "sift-count" })), () => this.pick(s)));
    this.check(this.scope);
  }

  pick(s) {
    if (s != this.scope) {
      this.check(s);
      this.emit("scope", { scope: s });
      this.run();
    }
  }

  check(s) {
    this.scope = s;
    for (const b of this.radios.children) b.setAttribute("aria-checked", !(b.tabIndex = (b.dataset.scope == s) - 1));
  }

  suggest() {
    const parts = [], rec = recent(), links = [...this.radios.children].slice(1).map(({ dataset: { scope } }) =>
      tap(btn({ class: "sift-token" }, scope), () => this.pick(scope)));
    if (links.length) parts.push(h("p", { class: "sift-h" }, "Browse"), h("div", { class: "sift-tokens" }, ...links));
    if (rec.length) {
      const clear = tap(btn({ "aria-label": "Clear recent searches" }, "Clear"), () => { store([]); this.input.focus(); this.sync(); });
      parts.push(h("p", { class: "sift-h" }, "Recent Searches", clear), h("ul", { class: "sift-recent" }, ...rec.map(q =>
        h("li", {}, tap(btn({}, q), () => { this.input.value = q; this.input.focus(); this.run(1); })))));
    }
    this.empty.replaceChildren(...parts);
    return parts.length;
  }

  remember() {
    const q = this.q.trim();
    this.save();
    if (q) store([q, ...recent().filter(x => x != q)].slice(0, 5));
  }

  key(e) {
    const k = e.key, t = e.target, field = t == this.input, next = k == "ArrowDown" || k == "ArrowRight";
    if (k == "Escape") { e.preventDefault(); this.cancel(); }
    else if ((field || t == this.box) && /Arrow(Down|Up)/.test(k)) { e.preventDefault(); this.move(next ? 1 : -1); }
    else if ((field || t == this.box) && k == "Enter") {
      e.preventDefault();
      const it = this.items[this.at];
      if (it) return (it.querySelector("a") ?? it).click();
      this.emit("submit", { query: this.input.value });
      this.run(1);
    } else if (t.role == "radio" && /Arrow(Left|Right)/.test(k)) {
      const b = t[next ? "nextElementSibling" : "previousElementSibling"];
      if (b) { b.focus(); this.pick(b.dataset.scope); }
    }
  }

  move(d) {
    const it = this.items, old = it[this.at];
    if (old) { delete old.dataset.active; old.role && old.setAttribute("aria-selected", "false"); }
    const n = it[this.at = Math.max(-1, Math.min(it.length - 1, this.at + d))];
    this.at == it.length - 1 && this.out && this.grow();
    if (n) {
      n.dataset.active = "";
      n.role && n.setAttribute("aria-selected", "true");
      n.id ||= `${this.id}-r${this.at}`;
      n.scrollIntoView({ block: "nearest" });
    }
    // The field keeps focus; the listbox has it when Tab took it there to scroll.
    for (const o of [this.input, this.box]) n ? o.setAttribute("aria-activedescendant", n.id) : set(o, "aria-activedescendant");
  }
}

for (const el of doc.querySelectorAll("[data-sift-search]")) new SiftSearch(el);
