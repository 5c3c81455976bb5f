// Sift's search client: docs/search-index.md. No DOM.

const WORD = /[\p{L}\p{M}\p{N}]/u, MN = /\p{Mn}/u, PIECE = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+/gu;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const UNB64 = {};
[...B64].forEach((c, i) => (UNB64[c] = i));
const cps = (s) => [...s];

/** SPEC.md fold. */
export function fold(s) {
  if (!/[^\0-\x7f]/.test(s)) return s.toLowerCase();
  let out = "";
  for (const c of s.normalize("NFKD")) if (!MN.test(c)) out += c.toLowerCase().replace(/ς/g, "σ");
  return out;
}

/** Query terms. */
export function terms(query) {
  return fold(query).split(/\p{White_Space}+/u).filter(Boolean);
}

const bytes = (s) => {
  const out = [];
  let acc = 0, bits = 0;
  for (const c of s) {
    acc = (acc << 6) | UNB64[c];
    if ((bits += 6) >= 8) out.push((acc >> (bits -= 8)) & 255);
  }
  return out;
};

function mark(s, into, first) {
  if (s[0] === "!") {
    bytes(s.slice(1)).forEach((b, i) => { for (let k = 0; k < 8; k++) if (b >> k & 1) into[i * 8 + k] = 1; });
    return;
  }
  let doc = -1, v = 0, shift = 0;
  for (const b of bytes(s)) {
    v += (b & 127) * 2 ** shift;
    if (b & 128) { shift += 7; continue; }
    into[(doc += v + 1)] = 1;
    v = shift = 0;
  }
}

const codes = (s, n) => {
  const w = s.length / n, out = new Int32Array(n);
  for (let i = 0; i < n; i++) for (let k = 0; k < w; k++) out[i] = out[i] * 64 + UNB64[s[i * w + k]];
  return out;
};

function bucket(key) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(key)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h % 4096;
}

const key = (w) => cps(w).slice(0, 3).join("");

// Sellers' search: Myers' bit-parallel form up to 32 code points.
function near(p, text, k) {
  const m = p.length, t = text;
  if (m > 32) {
    let col = p.map((_, i) => i + 1);
    for (const c of t) {
      let diag = 0, left = 0;
      col = col.map((up, i) => (left = Math.min(diag + (p[i] !== c), up + 1, left + 1), diag = up, left));
      if (col[m - 1] <= k) return true;
    }
    return false;
  }
  const peq = {}, high = 1 << (m - 1);
  p.forEach((c, i) => (peq[c] |= 1 << i));
  let pv = -1, mv = 0, score = m;
  for (const c of t) {
    const eq = peq[c] | 0, xv = eq | mv, xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv), mh = pv & xh;
    if (ph & high) score++;
    else if (mh & high) score--;
    ph <<= 1; mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (score <= k) return true;
  }
  return false;
}

function wordStart(title, t) {
  for (let i = title.indexOf(t); i >= 0; i = title.indexOf(t, i + 1)) {
    if (!i) return true;
    const c = title.codePointAt(i - (title.charCodeAt(i - 1) >> 10 === 55 && i > 1 ? 2 : 1));
    if (!WORD.test(String.fromCodePoint(c))) return true;
  }
  return false;
}

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

  constructor(m, tables, get) {
    Object.assign(this, { m, get, shards: {}, bodies: {} });
    const d = (this.d = { title: [], slug: [], url: [], scope: [], hay: [], fold: [], coll: [] });
    this.c = m.collections.map((c, ci) => {
      const t = tables[ci], n = c.count, first = d.title.length;
      const scope = t.scope ? codes(t.scope, n) : new Int32Array(n).fill(c.scopes.length);
      const cols = t.fields.map((f) => {
        if (f.scope) return [...scope].map((s) => c.scopes[s] ?? "");
        const ids = f.ids && codes(f.ids, n), folded = f.values.map(fold);
        return ids ? [...ids].map((i) => [f.values[i], folded[i]]) : f.values.map((v, i) => [v, folded[i]]);
      });
      for (let i = 0; i < n; i++) {
        const fields = cols.map((col) => (Array.isArray(col[i]) ? col[i] : [col[i], fold(col[i])]));
        const title = fields[0][0], ft = fields[0][1];
        const slug = t.slugs[i] || (/^[\0-\x7f]*$/.test(ft) ? ft.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") : "");
        d.title.push(title); d.slug.push(slug); d.fold.push(ft); d.coll.push(ci);
        d.url.push(m.base + (t.urls?.[i] ?? `${c.name}/${slug}/`));
        d.scope.push(c.scopes[scope[i]] ?? null);
        d.hay.push(fields.map((f) => f[1]).join("\n"));
      }
      return { name: c.name, title: c.title, scopes: c.scopes, count: n, first };
    });
  }

  get collections() {
    return this.c.map(({ name, title, scopes, count }) => ({ name, title, scopes, count }));
  }

  order(collection) {
    const c = this.c.find((c) => c.name === collection);
    return c ? this.d.slug.slice(c.first, c.first + c.count) : [];
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
      const ps = t.match(PIECE), n = this.d.title.length;
      let res = null;
      for (let i = 0; i < ps.length; i++) {
        const p = ps[i], len = cps(p).length, one = ps.length === 1;
        if (!one && len < 3 && (i === 0 || i === ps.length - 1)) continue;
        const ok = one ? (w) => w.includes(p) : !i ? (w) => w.endsWith(p) : i === ps.length - 1 ? (w) => w.startsWith(p) : (w) => w === p;
        const found = new Uint8Array(n), words = await this.words(key(p));
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
    const d = this.d, ts = [...new Set(terms(query))], inScope = (i) => scope === "All" || d.scope[i] === scope;
    const key = cs.map((c) => c.name).join();
    const pool = (this.pools ??= {})[key] ??= Int32Array.from(cs.flatMap((c) => Array.from({ length: c.count }, (_, k) => c.first + k)));
    let hits = pool, body = new Uint8Array(d.title.length);
    if (ts.length) {
      for (const t of ts) {
        const f = hits.map((i) => d.hay[i].includes(t)), cand = cps(t).length > 2 && f.includes(0) ? await this.body(t) : 0;
        let n = 0;
        const out = new Int32Array(hits.length);
        hits.forEach((i, k) => (f[k] || (cand !== 0 && (!cand || cand[i]) && (body[i] = 1))) && (out[n++] = i));
        hits = out.subarray(0, n);
      }
      const phrase = ts.join(" "), ranks = [[], [], [], [], []];
      for (const i of hits) {
        const title = d.fold[i];
        ranks[body[i] ? 4 : title === phrase ? 0 : title.startsWith(phrase) ? 1 : wordStart(title, ts[0]) ? 2 : 3].push(i);
      }
      hits = ranks.flat();
    } else hits = [...pool];
    // Fuzzy matches count where fewer than 5 match, per scope too.
    const counts = { All: hits.length };
    scopes.forEach((s) => (counts[s] = 0));
    for (const i of hits) if (d.scope[i] in counts) counts[d.scope[i]]++;
    const few = (s) => counts[s] < 5, fuzzy = [];
    if (ts.length && (few("All") || scopes.some(few))) {
      const hit = new Set(hits), ps = ts.map(cps);
      for (const i of pool) {
        if (hit.has(i) || !(few("All") || few(d.scope[i]))) continue;
        let any = false;
        const ok = ts.every((t, k) => d.hay[i].includes(t) || (ps[k].length >= 4 && near(ps[k], d.fold[i], ps[k].length >= 8 ? 2 : 1) && (any = true)));
        if (ok && any) fuzzy.push(i);
      }
    }
    const counted = { ...counts };
    for (const i of fuzzy) {
      if (few("All")) counted.All++;
      if (d.scope[i] in counts && few(d.scope[i])) counted[d.scope[i]]++;
    }
    hits = hits.filter(inScope);
    const n = hits.length;
    if (n < 5) hits.push(...fuzzy.filter(inScope));
    // One frozen object per item and match: no garbage per keystroke.
    const made = (this.made ??= { field: [], body: [], fuzzy: [] });
    const results = hits.slice(0, limit).map((i, k) => {
      const match = k >= n ? "fuzzy" : body[i] ? "body" : "field";
      return (made[match][i] ??= Object.freeze({
        collection: this.c[d.coll[i]].name, slug: d.slug[i], title: d.title[i], url: d.url[i], scope: d.scope[i], match,
      }));
    });
    return { query, scope, total: hits.length, results, scopeCounts: counted };
  }
}

/** Merged UTF-16 ranges of `text` matching terms of `query`. */
export function highlight(text, query) {
  let f = "";
  const from = [], to = [];
  for (let i = 0; i < text.length; ) {
    const c = String.fromCodePoint(text.codePointAt(i)), j = i + c.length, g = fold(c);
    if (!g && to.length) to[to.length - 1] = j; // a dropped mark belongs to its letter
    for (let k = 0; k < g.length; k++) from.push(i), to.push(j);
    f += g;
    i = j;
  }
  const r = [];
  for (const t of terms(query)) for (let i = f.indexOf(t); i >= 0; i = f.indexOf(t, i + 1)) r.push([from[i], to[i + t.length - 1]]);
  r.sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const x of r) out.length && x[0] <= out[out.length - 1][1] ? (out[out.length - 1][1] = Math.max(out[out.length - 1][1], x[1])) : out.push(x);
  return out;
}
