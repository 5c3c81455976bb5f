// Sift's search client (docs/search-index.md), no DOM.

const WORD = /[\p{L}\p{M}\p{N}]$/u, PIECE = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+/gu, cps = s => [...s];

export const fold = s =>
  /[^\0-\x7f]/.test(s) ? s.normalize("NFKD").replace(/\p{Mn}/gu, "").toLowerCase().replace(/ς/g, "σ") : s.toLowerCase();

export function terms(query) {
  return fold(query).split(/\p{White_Space}+/u).filter(Boolean);
}

function mark(s, into) {
  const bits = s[0] == "!", b = atob(s.slice(bits));
  for (let i = 0, d = -1, v = 0, sh = 0, x; i < b.length; i++) {
    x = b.charCodeAt(i);
    if (bits) for (let k = 0; k < 8; k++) x >> k & 1 && (into[i * 8 + k] = 1);
    else if ((v += (x & 127) * 2 ** sh, sh += 7, x < 128)) into[d += v + 1] = 1, v = sh = 0;
  }
}

// A corrupt or mismatched index rejects with this Error, the TypeError (or 404) met deep inside as
// its cause. catch(() => {}) below marks a promise no one awaits yet as handled: its failure is
// not an uncaught one.
const bad = cause => {
  throw Error("sift: bad index", { cause });
};

const codes = (s, n) => {
  const w = s.length / n, out = new Int32Array(n);
  for (let i = 0, c; i < n; i++) for (let k = 0; k < w; k++)
    c = s.charCodeAt(i * w + k), out[i] = out[i] * 64 + (c > 96 ? c - 71 : c > 64 ? c - 65 : c > 47 ? c + 4 : c > 43 ? 63 : 62);
  return out;
};

// Myers' bit vectors, BigInt past 32.
const edits = (p, text, k) => {
  const m = p.length, N = m > 32 ? BigInt : Number, one = N(1), zero = N(0), high = one << N(m - 1);
  const peq = (p.peq ??= p.reduce((o, c, i) => ((o[c] = (o[c] ?? zero) | one << N(i)), o), {}));
  let pv = -one, mv = zero, score = m;
  for (const c of text) {
    const eq = peq[c] ?? zero, xv = eq | mv, xh = (((eq & pv) + pv) ^ pv) | eq, ph = mv | ~(xh | pv), mh = pv & xh;
    score += !!(ph & high) - !!(mh & high);
    pv = mh << one | ~(xv | ph << one);
    mv = ph << one & xv;
    if (score <= k) return true;
  }
};

function near(t, ix, all, fz) {
  const p = cps(t), m = p.length, k = m > 7 ? 2 : 1, f = new Uint8Array(ix.ft.length), out = [];
  for (const q in fz) t.includes(q) && fz[q].k == k && (all = fz[q]);
  out.k = m > 3 && k;
  for (let j = 0; m > 3 && j <= k; j++) for (const d of ix.find(p.slice(j * m / (k + 1) | 0, (j + 1) * m / (k + 1) | 0).join(""), all)) f[d] = 1;
  for (const d of ix.find(t, all)) f[d] = 2;
  for (let i = 0, d; i < all.length; i++) (f[d = all[i]] > 1 || f[d] && edits(p, ix.ft[d], k)) && out.push(d);
  return out;
}

// Folded: no A-Z.
const wordStart = (title, t) => {
  for (let i = title.indexOf(t), c; i >= 0; i = title.indexOf(t, i + 1))
    if ((c = title.charCodeAt(i - 1)) < 128 ? !(c > 96 && c < 123 || c > 47 && c < 58) : !WORD.test(title.substring(i - 2, i))) return true;
};

export class SiftIndex {
  static async load(manifestURL, { fetch = globalThis.fetch, hint } = {}) {
    const url = new URL(manifestURL, globalThis.location?.href);
    const get = async name => {
      const r = await fetch(new URL(name, url).href);
      if (!r.ok) throw Error(`sift: ${name}: ${r.status}`);
      return r.json();
    };
    return get(url.href).then(async m => {
      if (m.version != 2) throw Error(`sift: index version ${m.version}`);
      return new SiftIndex(m, await Promise.all(m.collections.map(c => (c.docs.fields ? c.docs : get(c.docs)))), get, hint);
    }).catch(bad);
  }

  // d's folded fields, "\n"-joined: hay[off[d] … off[d+1]-1). Titles and slugs wait for a result.
  // The shards of a query typed while the index loaded (hint()) are fetched before the tables are built.
  constructor(m, tables, get, hint) {
    const ft = [], scope = [], coll = [], hay = [], off = [0];
    Object.assign(this, { m, get, ft, scope, coll, collections: m.collections, shards: {}, bodies: {}, got: {}, all: {} });
    for (const t of (this.hints = terms(hint?.() ?? ""))) t[2] && this.words(t).catch(() => {});
    m.collections.forEach((c, ci) => {
      // A collection has as many items as slugs (none without fields): a count that says
      // otherwise is not trusted, so no count can make these loops run for ever.
      const t = tables[ci], n = c.count = t.fields[0] && t.slugs.length, sc = t.scope ? codes(t.scope, n) : [];
      const cols = t.fields.map(f => {
        const vs = f.scope ? c.scopes : f.values;
        return [f.scope ? sc : f.ids && codes(f.ids, n), vs, vs.map(fold)];
      });
      Object.assign(c, { first: ft.length, urls: t.urls ?? {}, t, cols });
      for (let i = 0, o = off.at(-1); i < n; i++) {
        for (const [ids, , fs] of cols) hay.push(fs[ids ? ids[i] : i] ?? ""), o += hay.at(-1).length + 1;
        ft.push(hay[hay.length - cols.length]); coll.push(ci); scope.push(c.scopes[sc[i]] ?? null); off.push(o);
      }
    });
    this.sn = [...new Set([null, ...m.collections.flatMap(c => c.scopes)])];
    this.sid = Int32Array.from(scope, s => this.sn.indexOf(s));
    this.off = Int32Array.from(off);
    this.hay = hay.join("\n");
  }

  find(t, list) {
    const { hay, off } = this, out = [];
    for (let i = 0, p = -1, d; i < list.length; i++)
      if (p < off[(d = list[i])] && (p = hay.indexOf(t, off[d])) < 0) break;
      else if (p < off[d + 1]) out.push(d);
    return out;
  }

  // The shard filing w, or with kind "union" its union file.
  async words(w, kind = "shard") {
    const m = this.m;
    if (!m.shards) return m.words;
    let h = 0x811c9dc5, s = 0;
    for (const b of new TextEncoder().encode(cps(w).slice(0, 3).join(""))) h = Math.imul(h ^ b, 0x01000193) >>> 0;
    for (const x of m.bounds) s += x <= h % 4096;
    return (this.shards[kind + s] ??= this.get(`${kind}-${s}.json`));
  }

  body(t) {
    return (this.bodies[t] ??= (async () => {
      const ps = t.match(PIECE), last = ps.length - 1;
      let res = null;
      for (let i = 0; i <= last; i++) {
        const p = ps[i];
        if (last && cps(p).length < 3 && (!i || i == last)) continue;
        const how = !last ? "includes" : !i ? "endsWith" : i < last ? "" : "startsWith";
        // A " p" marker: the union of the "@" words holding p is in the union file.
        const found = new Uint8Array(this.ft.length), words = await this.words(p);
        // A task's pause before the work on the shard: a keystroke's field matches go first, and
        // are painted.
        i || !this.m.shards || await new Promise(r => setTimeout(r));
        const u = !last && " " + p in words && (await this.words(p, "union"))[p];
        await Promise.all(Object.keys(words).map(async w => (how ? w[how](p) : w == p) && !(u && words[w] == "@") && mark(words[w] == "@" ? (await this.words(w))[w] : words[w], found)));
        u && mark(u, found);
        res = res ? res.map((x, d) => x & found[d]) : found;
        if (!res.includes(1)) break;
      }
      return (this.got[t] = res);
    })().catch(bad));
  }

  // Rank buckets in list order, and each scope's count in cnt. Not in search(), and indexed, not
  // for…of: this loop runs over up to every item, before V8 has optimized it on a first visit,
  // and V8 optimizes such loops late in an async function and for…of loops late anywhere.
  order(hits, via, ts, scope, limit, cnt) {
    const { ft, scope: sc, sid } = this, ranks = [[], [], [], [], []], phrase = ts.join(" "), t0 = ts[0];
    let cap = 5;
    for (let i = 0, d; i < hits.length; i++) {
      cnt[sid[d = hits[i]]]++;
      if (cap && (scope == "All" || sc[d] == scope)) {
        const t = ft[d], r = !t0 ? 3 : via[d] ? 4 : t == phrase ? 0 : cap > 1 && t.startsWith(phrase) ? 1 : cap > 2 && wordStart(t, t0) ? 2 : 3;
        r < cap && ranks[r].push(d) >= limit && (cap = r);
      }
    }
    return ranks;
  }

  // now: answer at once, without the body matches of terms whose shards are still on the way
  // (fetched meanwhile); the answer then says partial.
  async search(query, { scope = "All", collection = null, limit = Infinity, now } = {}) {
    const cs = collection == null ? this.collections : this.collections.filter(c => c.name == collection);
    if (!cs.length) throw Error(`unknown collection “${collection}”`);
    const scopes = [...new Set(cs.flatMap(c => c.scopes))];
    if (scope != "All" && !scopes.includes(scope)) throw Error(`unknown scope “${scope}”`);
    const { ft, scope: sc } = this, lo = cs[0].first, n = cs.reduce((a, c) => a + c.count, 0);
    const all = (this.all[lo + " " + n] ??= Array.from({ length: n }, (_, k) => lo + k));
    const ts = [...new Set(terms(query))], prev = this.prev;
    // Typing on narrows when each new t matches only where an old p in it did; the body-only marks
    // (via) stay true then, and a term typed before ("port" in "port l") has nothing to do.
    const old = prev?.all == all && prev.ts.every(p => ts.some(t => t.includes(p) && (cps(t).length < 3 || cps(p).length > 2 && t.match(PIECE).length < 2))),
      via = old ? prev.via.slice() : new Uint8Array(ft.length);
    let hits = old ? prev.hits : all, partial;
    for (const t of ts) {
      if (old && prev.ts.includes(t)) continue;
      const f = this.find(t, hits);
      if (cps(t).length > 2 && f.length < hits.length) {
        // At once, in the keystroke's task (a timer let Chromium render a frame first), unless the
        // body matches are known, or near: the index is one file, or they were fetched with it.
        const wait = this.body(t), cand = !now || !this.m.shards || t in this.got || this.hints.includes(t) ? await wait : (wait.catch(() => {}), partial = f);
        let j = 0;
        // Partial: the field matches, without a pass over up to every item (5 ms at 100k).
        hits = cand == f ? f : hits.filter(d => (f[j] == d ? ++j : (!cand || cand[d]) && (via[d] = 1)));
      } else hits = f;
    }
    partial || (this.prev = { all, ts, hits, via });
    const { sn } = this, cnt = new Int32Array(sn.length), ranks = this.order(hits, via, ts, scope, limit, cnt);
    const counts = { All: hits.length };
    for (const s of scopes) counts[s] = cnt[sn.indexOf(s)];
    const few = s => counts[s] < 5, fuzzy = [], counted = { ...counts }, m = counts[scope];
    // Not for a partial answer: its few may be many once body matches arrive. Only the items of
    // few scopes can add typos, so only theirs (fz[" "]) are searched.
    if (ts.length && !partial && (few("All") || scopes.some(few))) {
      const k = few("All") ? "" : scopes.filter(few).join("\n"), fz = ((all.fz ??= {})[k] ??= { " ": k ? all.filter(d => few(sc[d])) : all }),
        hit = new Int32Array(ft.length), sets = ts.map(t => (fz[t] ??= near(t, this, fz[" "], fz)));
      for (const set of sets) for (const d of set) hit[d]++;
      for (let i = 0; i < hits.length; ) hit[hits[i++]] = 0;
      for (const d of sets[0]) if (hit[d] == ts.length && (few("All") || few(sc[d]))) {
        m < 5 && (scope == "All" || sc[d] == scope) && fuzzy.push(d);
        for (const s of ["All", sc[d]]) few(s) && counted[s]++;
      }
    }
    const results = [].concat(...ranks, fuzzy).slice(0, limit).map((d, k) => {
      const match = k >= m ? "fuzzy" : via[d] ? "body" : "field", c = this.collections[this.coll[d]], i = d - c.first,
        [ids, vs] = c.cols[0], f = ft[d], slug = c.t.slugs[i] || (/^[\0-\x7f]*$/.test(f) ? f.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") : "");
      return { collection: c.name, slug, title: vs[ids ? ids[i] : i] ?? "", url: this.m.base + (c.urls[i] ?? `${c.name}/${slug}/`), scope: sc[d], match, position: i };
    });
    return { query, scope, total: m + fuzzy.length, results, scopeCounts: counted, ...partial && { partial: true } };
  }
}

// Merged UTF-16 ranges of the query's terms in text.
export function highlight(text, query) {
  let f = "", i = 0;
  const from = [], to = [], r = [], out = [];
  for (const c of text) {
    const g = fold(c), j = i + c.length;
    // A dropped mark joins its letter.
    g || to.length && (to[to.length - 1] = j);
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
