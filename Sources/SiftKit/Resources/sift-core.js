// Sift's search client: docs/search-index.md. No DOM.

const WORD = /[\p{L}\p{M}\p{N}]$/u, PIECE = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+/gu;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", UN = new Int8Array(128);
[...B64].forEach((c, i) => (UN[c.charCodeAt()] = i));
const cps = (s) => [...s], AW = new Uint8Array(128);
for (const c of "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") AW[c.charCodeAt()] = 1;

/** SPEC.md fold. */
export function fold(s) {
  if (!/[^\0-\x7f]/.test(s)) return s.toLowerCase();
  let out = "";
  for (const c of s.normalize("NFKD")) if (!/\p{Mn}/u.test(c)) out += c.toLowerCase();
  return out.replace(/ς/g, "σ");
}

/** Query terms. */
export function terms(query) {
  return fold(query).split(/\p{White_Space}+/u).filter(Boolean);
}

// Sets into[d] for the documents of postings.
function mark(s, into) {
  const bitmap = s[0] === "!";
  let d = -1, v = 0, sh = 0, acc = 0, bits = 0;
  for (let i = +bitmap; i < s.length; i++) {
    acc = ((acc << 6) | UN[s.charCodeAt(i)]) & 0x3fff;
    if ((bits += 6) < 8) continue;
    const b = (acc >> (bits -= 8)) & 255;
    if (bitmap) for (let k = 0, e = ++d * 8; k < 8; k++) b >> k & 1 && (into[e + k] = 1);
    else if (((v += (b & 127) * 2 ** sh), (sh += 7), b < 128)) (into[(d += v + 1)] = 1), (v = sh = 0);
  }
}

const codes = (s, n) => {
  const w = s.length / n, out = new Int32Array(n);
  for (let i = 0; i < n; i++) for (let k = 0; k < w; k++) out[i] = out[i] * 64 + UN[s.charCodeAt(i * w + k)];
  return out;
};

function bucket(key) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(key)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h % 4096;
}

const key = (w) => cps(w).slice(0, 3).join("");

// Sellers' search (Myers' bit-parallel form up to 32 code points).
function near(p, text, k) {
  const m = p.length;
  if (m > 32) {
    let col = p.map((_, i) => i + 1);
    for (const c of text) {
      let diag = 0, left = 0;
      col = col.map((up, i) => (left = Math.min(diag + (p[i] !== c), up + 1, left + 1), diag = up, left));
      if (col[m - 1] <= k) return true;
    }
    return false;
  }
  const peq = (p.peq ??= p.reduce((o, c, i) => ((o[c] |= 1 << i), o), {})), high = 1 << (m - 1);
  let pv = -1, mv = 0, score = m;
  for (const c of text) {
    const eq = peq[c] | 0, xv = eq | mv, xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv), mh = pv & xh;
    score += (ph & high ? 1 : 0) - (mh & high ? 1 : 0);
    ph <<= 1; mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (score <= k) return true;
  }
  return false;
}

const wordStart = (title, t) => {
  for (let i = title.indexOf(t), c; i >= 0; i = title.indexOf(t, i + 1))
    if (!i || ((c = title.charCodeAt(i - 1)) < 128 ? !AW[c] : !WORD.test(title.slice(0, i)))) return true;
};

export class SiftIndex {
  static async load(manifestURL, { fetch = globalThis.fetch } = {}) {
    const url = new URL(manifestURL, globalThis.location?.href);
    const get = async (name) => {
      const r = await fetch(new URL(name, url).href);
      if (!r.ok) throw new Error(`sift: cannot fetch ${name} (${r.status})`);
      return r.json();
    };
    const m = await get(url.href);
    if (m.version !== 2) throw new Error(`sift: index version ${m.version} is not supported`);
    const tables = await Promise.all(m.collections.map((c) => (typeof c.docs === "string" ? get(c.docs) : c.docs)));
    return new SiftIndex(m, tables, get);
  }

  // All folded fields in one haystack, joined by "\n": document d is hay[off[d] … off[d+1]-1).
  constructor(m, tables, get) {
    const title = [], ft = [], slug = [], scope = [], coll = [], hay = [];
    Object.assign(this, { m, get, title, ft, slug, scope, coll, shards: {}, bodies: {}, made: {} });
    this.c = m.collections.map((c, ci) => {
      const t = tables[ci], n = c.count, first = title.length, sc = t.scope ? codes(t.scope, n) : [];
      const cols = t.fields.map((f) => {
        const ids = f.scope ? sc : f.ids && codes(f.ids, n), vs = f.scope ? c.scopes : f.values, fs = vs.map(fold);
        return (i, raw) => (raw ? vs : fs)[ids ? ids[i] : i] ?? "";
      });
      for (let i = 0; i < n; i++) {
        const fs = cols.map((col) => col(i)), f = fs[0];
        title.push(cols[0](i, 1)); ft.push(f); coll.push(ci); scope.push(c.scopes[sc[i]] ?? null);
        slug.push(t.slugs[i] || (/^[\0-\x7f]*$/.test(f) ? f.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") : ""));
        hay.push(fs.join("\n"));
      }
      return { name: c.name, title: c.title, scopes: c.scopes, count: n, first, urls: t.urls ?? {} };
    });
    this.sn = [...new Set([null, ...m.collections.flatMap((c) => c.scopes)])];
    this.sid = Int32Array.from(scope, (s) => this.sn.indexOf(s));
    const off = (this.off = new Int32Array(hay.length + 1));
    hay.forEach((h, d) => (off[d + 1] = off[d] + h.length + 1));
    this.hay = hay.join("\n");
  }

  get collections() {
    return this.c.map(({ name, title, scopes, count }) => ({ name, title, scopes, count }));
  }

  order(collection) {
    const c = this.c.find((c) => c.name === collection);
    return c ? this.slug.slice(c.first, c.first + c.count) : [];
  }

  // The documents of `list` (ascending) holding t in a field: one indexOf per hit.
  find(t, list) {
    const { hay, off } = this, out = [];
    for (let i = 0, p = -1, d; i < list.length; i++)
      if (p < off[(d = list[i])] && (p = hay.indexOf(t, off[d])) < 0) break;
      else if (p < off[d + 1]) out.push(d);
    return out;
  }

  async words(k) {
    const m = this.m;
    if (!m.shards) return m.words;
    const b = bucket(k), s = m.bounds.filter((x) => x <= b).length;
    return (this.shards[s] ??= this.get(`shard-${s}.json`));
  }

  // Body candidates: a byte per document; null: all.
  body(t) {
    return (this.bodies[t] ??= (async () => {
      const ps = t.match(PIECE), last = ps.length - 1;
      let res = null;
      for (let i = 0; i <= last; i++) {
        const p = ps[i];
        if (last && cps(p).length < 3 && (!i || i === last)) continue;
        const ok = !last ? (w) => w.includes(p) : !i ? (w) => w.endsWith(p) : i === last ? (w) => w.startsWith(p) : (w) => w === p;
        const found = new Uint8Array(this.title.length), words = await this.words(key(p));
        for (const w in words) if (ok(w)) mark(words[w] === "@" ? (await this.words(key(w)))[w] : words[w], found);
        res = res ? res.map((x, d) => x & found[d]) : found;
        if (!res.includes(1)) break;
      }
      return res;
    })());
  }

  async search(query, { scope = "All", collection = null, limit = Infinity } = {}) {
    const cs = collection == null ? this.c : this.c.filter((c) => c.name === collection);
    if (!cs.length) throw new Error(`unknown collection “${collection}” (collections: ${this.c.map((c) => c.name).join(", ")})`);
    const scopes = [...new Set(cs.flatMap((c) => c.scopes))];
    if (scope !== "All" && !scopes.includes(scope)) throw new Error(`unknown scope “${scope}” (scopes: ${["All", ...scopes].join(", ")})`);
    const { ft, scope: sc } = this, lo = cs[0].first, n = cs.reduce((a, c) => a + c.count, 0);
    const all = ((this.all ??= {})[lo] ??= {})[n] ??= Int32Array.from({ length: n }, (_, k) => lo + k);
    const ts = [...new Set(terms(query))], via = new Uint8Array(ft.length), prev = this.prev;
    // Typing on: matches lie within the previous ones when each old term p is inside a new
    // term t of 1–2 code points (fields only), or both have 3+ and t is one piece.
    let hits = prev?.all === all && prev.ts.every((p) => ts.some((t) => t.includes(p) && (cps(t).length < 3 || cps(p).length > 2 && t.match(PIECE).length < 2))) ? prev.hits : all;
    for (const t of ts) {
      const f = this.find(t, hits);
      if (cps(t).length > 2 && f.length < hits.length) {
        const cand = await this.body(t);
        let j = 0;
        hits = hits.filter((d) => (f[j] === d ? ++j : (!cand || cand[d]) && (via[d] = 1)));
      } else hits = f;
    }
    this.prev = { all, ts, hits };
    // Rank buckets and counts per scope in one pass.
    const { sn, sid } = this, cnt = new Int32Array(sn.length), phrase = ts.join(" "), ranks = [[], [], [], [], []];
    for (const d of hits) {
      const t = ft[d];
      cnt[sid[d]]++;
      ranks[!ts.length ? 3 : via[d] ? 4 : t === phrase ? 0 : t.startsWith(phrase) ? 1 : wordStart(t, ts[0]) ? 2 : 3].push(d);
    }
    hits = [].concat(...ranks);
    const counts = { All: hits.length };
    for (const s of scopes) counts[s] = cnt[sn.indexOf(s)];
    // Typos where fewer than 5 match, per scope too, in titles holding each term in a field
    // or one of its k+1 pieces (k edits leave one whole).
    const few = (s) => counts[s] < 5, fuzzy = [];
    if (ts.length && (few("All") || scopes.some(few))) {
      const ok = new Int32Array(ft.length), by = ts.map((t) => {
        const p = cps(t), m = p.length, k = m > 7 ? 2 : 1, f = new Uint8Array(ft.length);
        for (let j = 0; m > 3 && j <= k; j++) for (const d of this.find(p.slice((j * m) / (k + 1) | 0, ((j + 1) * m) / (k + 1) | 0).join(""), all)) f[d] = 1;
        for (const d of this.find(t, all)) f[d] = 2;
        f.forEach((x, d) => (ok[d] += x > 0));
        return { p, k, f };
      });
      hits.forEach((d) => (ok[d] = 0));
      for (const d of all) if (ok[d] === ts.length && (few("All") || few(sc[d])) && by.every(({ p, k, f }) => f[d] > 1 || (ft[d].length >= p.length - k && near(p, ft[d], k)))) fuzzy.push(d);
    }
    const counted = { ...counts };
    for (const d of fuzzy) {
      if (few("All")) counted.All++;
      if (sc[d] in counts && few(sc[d])) counted[sc[d]]++;
    }
    if (scope !== "All") hits = hits.filter((d) => sc[d] === scope);
    const m = hits.length;
    if (m < 5) hits.push(...fuzzy.filter((d) => scope === "All" || sc[d] === scope));
    const results = hits.slice(0, limit).map((d, k) => {
      const match = k >= m ? "fuzzy" : via[d] ? "body" : "field", c = this.c[this.coll[d]], i = d - c.first;
      return ((this.made[match] ??= [])[d] ??= Object.freeze({
        collection: c.name, slug: this.slug[d], title: this.title[d], url: this.m.base + (c.urls[i] ?? `${c.name}/${this.slug[d]}/`), scope: sc[d], match,
      }));
    });
    return { query, scope, total: hits.length, results, scopeCounts: counted };
  }
}

/** Merged UTF-16 ranges of `text` matching terms of `query`. */
export function highlight(text, query) {
  let f = "", i = 0;
  const from = [], to = [], r = [], out = [];
  for (const c of text) {
    const g = fold(c), j = i + c.length;
    if (!g && to.length) to[to.length - 1] = j; // a dropped mark belongs to its letter
    for (const _ of g.split("")) from.push(i), to.push(j);
    f += g;
    i = j;
  }
  for (const t of terms(query)) for (let i = f.indexOf(t); i >= 0; i = f.indexOf(t, i + 1)) r.push([from[i], to[i + t.length - 1]]);
  for (const x of r.sort((a, b) => a[0] - b[0])) {
    const l = out.at(-1);
    l && x[0] <= l[1] ? (l[1] = Math.max(l[1], x[1])) : out.push(x);
  }
  return out;
}
