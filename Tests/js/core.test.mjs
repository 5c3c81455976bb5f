// sift-core.js against the shared vectors (through the index the Swift tests record in
// Tests/Fixtures/search-index/) and against `sift search --json` on the built example site: its
// source (Web/) and what ships (Sources/SiftKit/Resources/, esbuild's output).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fold, terms, highlight, SiftIndex } from "../../Web/sift-core.js";
import * as shippedCore from "../../Sources/SiftKit/Resources/sift-core.js";
import { excerpts } from "../../Web/sift-excerpts.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const vectors = JSON.parse(readFileSync(root + "Tests/Fixtures/search-vectors.json", "utf8"));

/** A fetch over files that remembers what it read, as a browser's network panel would. */
export function fileFetch(read = []) {
  return async (url) => {
    try {
      const text = await readFile(fileURLToPath(url), "utf8");
      read.push(url);
      return { ok: true, status: 200, json: async () => JSON.parse(text) };
    } catch {
      return { ok: false, status: 404 };
    }
  };
}

const load = (dir, Index = SiftIndex) => Index.load(pathToFileURL(root + dir + "/manifest.json"), { fetch: fileFetch() });
const cores = { source: { fold, terms, SiftIndex }, shipped: shippedCore };

for (const [name, core] of Object.entries(cores)) {
  test(`fold vectors, ${name}`, () => {
    for (const v of vectors.fold) assert.equal(core.fold(v.in), v.out, v.note ?? v.in);
  });

  test(`term vectors, ${name}`, () => {
    for (const v of vectors.terms) assert.deepEqual(core.terms(v.query), v.terms, v.query);
  });
}

for (const [kind, name] of ["small", "sharded"].flatMap((kind) => Object.keys(cores).map((name) => [kind, name]))) {
  test(`query vectors, ${kind} index, ${name}`, async () => {
    const index = await load(`Tests/Fixtures/search-index/${kind}`, cores[name].SiftIndex);
    for (const v of vectors.queries) {
      const call = () => index.search(v.query, { scope: v.scope ?? "All", collection: v.collection ?? null, limit: v.limit ?? Infinity,
        filters: v.filters, sort: v.sort, facets: Boolean(v.facets) });
      if (v.error) {
        await assert.rejects(call, (e) => e.message.includes(v.error), v.note);
        continue;
      }
      const r = await call();
      assert.deepEqual(r.results.map((x) => `${x.slug}:${x.match}`), v.results.map((x) => `${x.slug}:${x.match}`), `${v.query} (${v.note})`);
      assert.equal(r.total, v.total ?? v.results.length, `total for ${v.query}`);
      if (v.facets) assert.deepEqual(r.facets, v.facets, `facets for ${v.query} (${v.note})`);
    }
  });
}

test("scope counts ignore the scope filter and equal each scope's total", async () => {
  const index = await load("Tests/Fixtures/search-index/sharded");
  for (const q of ["a", "choc", "", "cocoa", "choclate"]) {
    const all = await index.search(q);
    for (const s of ["All", ...index.collections[0].scopes]) {
      const one = await index.search(q, { scope: s });
      assert.equal(all.scopeCounts[s], one.total, `${q} in ${s}`);
      assert.deepEqual(one.scopeCounts, all.scopeCounts);
    }
  }
});

// The same corpus with and without unions (SearchVectorsTests.swift, UnionCorpus): the same
// answers, and a three- or four-letter term reads its union file instead of the shards of
// every frequent word holding it; so does a window of a term (`::h` of `::harbor`) inside
// bridges of many first letters (`a::h`, `b::h`, …), which otherwise cost a shard each.
test("unions: same answers, fewer files", async () => {
  const stems = ["harbor", "arbor", "corbel", "orbit", "torch", "porch", "chord", "anchor", "archive", "march"];
  const qs = [...new Set(stems.flatMap((w) => [3, 4, 5].flatMap((n) => [...w].slice(0, w.length - n + 1).map((_, o) => w.slice(o, o + n)))))];
  const windows = stems.map((w) => "::" + w);
  const files = { unions: 0, "unions-off": 0 }, windowFiles = { unions: 0, "unions-off": 0 };
  let saw = 0;
  for (const q of [...qs, ...windows]) {
    const answers = [];
    for (const kind of Object.keys(files)) {
      const read = [];
      const index = await SiftIndex.load(pathToFileURL(root + `Tests/Fixtures/search-index/${kind}/manifest.json`), { fetch: fileFetch(read) });
      answers.push(await index.search(q));
      files[kind] += read.length;
      if (windows.includes(q)) windowFiles[kind] += read.length;
      saw += read.some((u) => /\/union\./.test(u));
    }
    assert.deepEqual(answers[0], answers[1], q);
    if (windows.includes(q)) assert.ok(answers[0].total > 0, q);
  }
  assert.ok(saw > 0, "no union file was read");
  assert.ok(files.unions < files["unions-off"], JSON.stringify(files));
  assert.ok(windowFiles.unions * 2 < windowFiles["unions-off"], JSON.stringify(windowFiles));
});

/** fileFetch, but shard files wait until `release()`: a slow network. */
function heldFetch() {
  const inner = fileFetch(), held = [];
  const fetch = (url) => /\/shard\./.test(url) ? new Promise((ok) => held.push(() => ok(inner(url)))) : inner(url);
  return { fetch, release: () => held.splice(0).forEach((go) => go()) };
}

test("now: field matches at once while body shards load, then the whole answer", async () => {
  const dir = pathToFileURL(root + "Tests/Fixtures/search-index/sharded/manifest.json");
  const whole = await (await SiftIndex.load(dir, { fetch: fileFetch() })).search("cocoa");
  assert.ok(whole.results.some((x) => x.match === "body") && !whole.partial, "the fixture has body matches for cocoa");
  const net = heldFetch(), index = await SiftIndex.load(dir, { fetch: net.fetch });
  const quick = await index.search("cocoa", { now: 1 });
  assert.equal(quick.partial, true);
  assert.deepEqual(quick.results, whole.results.filter((x) => x.match === "field"), "field matches only, in order");
  const later = index.search("cocoa");
  net.release();
  assert.deepEqual(await later, whole);
  assert.deepEqual(await index.search("cocoa", { now: 1 }), whole, "shards here: no partial answer");
  // A term typed while the index loaded (hint) was fetched with it: its answer is waited for.
  const early = heldFetch(), hinted = SiftIndex.load(dir, { fetch: early.fetch, hint: () => "cocoa" });
  const answer = (await hinted).search("cocoa", { now: 1 });
  early.release();
  assert.deepEqual(await answer, whole);
});

test("collections and list order", async () => {
  const index = await load("Tests/Fixtures/search-index/small");
  const [candies] = index.collections;
  assert.deepEqual([candies.name, candies.count, candies.scopes], ["candies", 9, ["Chocolate", "Hard", "Other"]]);
  const empty = await index.search("", { collection: "candies" });
  assert.equal(empty.results[0].slug, "chocolate-bar", "the empty query lists every item in list order");
  const r = await index.search("caramel");
  assert.equal(r.results[0].url, "/candies/caramel/");
});

test("highlight maps folded matches back to the original text", () => {
  assert.deepEqual(highlight("Côte d'Ivoire", "cote"), [[0, 4]]);
  assert.deepEqual(highlight("Cafe\u0301 Crème", "cafe creme"), [[0, 5], [6, 11]]);
  assert.deepEqual(highlight("ﬁle ﬁsh", "fi"), [[0, 1], [4, 5]]);
  assert.deepEqual(highlight("ﬁle", "il"), [[0, 2]]);
  assert.deepEqual(highlight("中华人民共和国", "人民"), [[2, 4]]);
  assert.deepEqual(highlight("😀 Chocolate chocolate", "CHOC late"), [[3, 7], [8, 12], [13, 17], [18, 22]]);
  assert.deepEqual(highlight("Chocolate", "choc ocol"), [[0, 6]]);
  assert.deepEqual(highlight("abc", ""), []);
});

// The built example site: JavaScript and `sift search --json` give the same answer.
const siteDir = process.env.SIFT_SITE ?? root;
const site = siteDir + "/public/search/manifest.json";
const bin = process.env.SIFT_BIN ?? root + ".build/release/sift";
const ready = existsSync(site) && existsSync(bin);
// The shipped core (public/assets/, as a build writes it) as well.
test("example site: sift-core.js, as written and as shipped, answers as sift search does", { skip: !ready && "run `make site` first" }, async () => {
  const shipped = await import(pathToFileURL(siteDir + "/public/assets/sift-core.js"));
  const shippedExcerpts = await import(pathToFileURL(siteDir + "/public/assets/sift-excerpts.js"));
  assert.notEqual(shipped.SiftIndex, SiftIndex);
  for (const [Index, withExcerpts] of [[SiftIndex, excerpts], [shipped.SiftIndex, shippedExcerpts.excerpts]]) {
    const index = await Index.load(pathToFileURL(site), { fetch: fileFetch() });
    const queries = [["choc"], ["a", "Hard"], ["cote d"], ["choclate"], ["sugar"], ["milk proteins"], ["caramel", "Other"],
      ["中"], ["ar"], ["lollipop"], ["zzzz"], [""], ["°c"], ["isl"],
      // Many matches, but none in Hard: a typo ("Cand" for "land") only searched within Hard.
      ["land"], ["land", "Hard"]];
    for (const [q, scope = "All"] of queries) {
      const out = execFileSync(bin, ["search", q, "--site", siteDir, "--scope", scope, "--json"], { encoding: "utf8" });
      const { scopeCounts, ...js } = await index.search(q, { scope, facets: true });
      await withExcerpts(index, js.results, q);
      for (const x of js.results) assert.equal(typeof x.position, "number"), delete x.position;
      assert.deepEqual(js, JSON.parse(out), `${q} in ${scope}`);
    }
    // The scope bar's counts include the typo that scope Hard would show (Chocolate Bar: its body).
    assert.deepEqual((await index.search("land")).scopeCounts, { All: 28, Chocolate: 1, Hard: 1, Other: 0 });
  }
  for (const v of vectors.fold) assert.equal(shipped.fold(v.in), v.out, v.note ?? v.in);
});

// What a visitor downloads: the files the built pages load from public/assets/, under their
// hashed names (whose imports spell out the hashed names of the modules they load), measured as
// docs/search-bar.md says, `gzip -9c FILE | wc -c` (zlib's level 9 comes out ~16 B larger), with
// every content hash in them written as twelve zeros: the hashes change with any module's bytes,
// and moved the figure by up to 50 B with no change to the files measured.
test("budgets: sift.js + sift-core.js at most 12,440 B gzip, sift.css at most 3 KB, as the pages load them", { skip: !ready && "run `make site` first" }, () => {
  const page = readFileSync(siteDir + "/public/index.html", "utf8"), assets = siteDir + "/public/assets/";
  const loaded = (pattern, text) => text.match(pattern)?.[1] ?? assert.fail(`${pattern} not found`);
  const js = loaded(/src="\/assets\/(sift\.[0-9a-f]{12}\.js)"/, page), css = loaded(/href="\/assets\/(sift\.[0-9a-f]{12}\.css)"/, page);
  const core = loaded(/from"\.\/(sift-core\.[0-9a-f]{12}\.js)"/, readFileSync(assets + js, "utf8"));
  const gz = (f) => execFileSync("gzip", ["-9c"], { input: readFileSync(assets + f, "latin1").replace(/\.[0-9a-f]{12}\.(js|css)/g, ".000000000000.$1"), encoding: "latin1" }).length;
  assert.ok(gz(js) + gz(core) <= 12440, `JS: ${gz(js) + gz(core)} B (${js}, ${core})`);
  assert.ok(gz(css) <= 3072, `CSS: ${gz(css)} B`);
});

// The typo rule ("Typos" in docs/search-index.md) against the edit distance computed in full for
// every title: sift-typos.js skips titles by their letters and, within one edit, by the halves of
// the term, which must never leave out one that is within its edits. Every single edit of a term
// (a code point changed, removed, added, two neighbours swapped) is in a title, among titles of
// two edits and others.
test("typos: every title within a term's edits is found, wherever the edit is", async () => {
  // Optimal string alignment distance from `term` to the nearest substring of `text`, written plainly.
  const nearest = (term, text) => {
    const p = [...term], t = [...text];
    let best = Infinity;
    for (let start = 0; start <= t.length; start++) {
      const d = Array.from({ length: p.length + 1 }, (_, i) => Array.from({ length: t.length - start + 1 }, (_, j) => (j === 0 ? i : i === 0 ? j : 0)));
      for (let i = 1; i <= p.length; i++) for (let j = 1; j <= t.length - start; j++) {
        const a = p[i - 1], b = t[start + j - 1];
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a === b ? 0 : 1));
        if (i > 1 && j > 1 && a === t[start + j - 2] && p[i - 2] === b) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
      best = Math.min(best, ...d[p.length]);
    }
    return best;
  };
  for (const term of ["quie", "valle", "harbor", "abcdefg", "süßer", "naïve", "abcdefgh"]) {
    const p = [...term], titles = [], edits = [];
    for (let i = 0; i <= p.length; i++) {
      for (const c of "xqé") {
        if (i < p.length) edits.push([...p.slice(0, i), c, ...p.slice(i + 1)]);
        edits.push([...p.slice(0, i), c, ...p.slice(i)]);
      }
      if (i < p.length) edits.push([...p.slice(0, i), ...p.slice(i + 1)]);
      if (i + 1 < p.length) edits.push([...p.slice(0, i), p[i + 1], p[i], ...p.slice(i + 2)]);
    }
    // Those still holding the term (a code point added at either end) would be matches of their own.
    for (const [k, edited] of edits.filter((edited) => !fold(edited.join("")).includes(fold(term))).entries()) {
      titles.push(["", "mo ", "za"][k % 3] + edited.join("") + ["", " lu", "r"][k % 2]);
      // Two edits apart: a second swap or change beside the first.
      const twice = [...edited], at = (k * 7) % twice.length;
      twice[at] = twice[at] === "w" ? "v" : "w";
      titles.push("ko " + twice.join(""));
    }
    titles.push("nothing alike", "🍫 " + term.slice(1), term.slice(0, 2) + " apart " + term.slice(2));
    const table = { slugs: titles.map((_, i) => `t${i}`), fields: [{ name: "name", values: titles }] };
    const manifest = { version: 5, base: "/", shards: 0, words: {}, collections: [{ name: "t", title: "T", count: titles.length, scopes: [], docs: table }] };
    const index = await new SiftIndex(manifest, async () => ({})).read([[table]]);
    // As the engine compares them: folded ("é" is "e", "ï" is "i").
    const folded = fold(term), within = [...folded].length > 7 ? 2 : 1;
    const expected = titles.filter((title) => !fold(title).includes(folded) && nearest(folded, fold(title)) <= within).sort();
    const answer = await index.search(term);
    const found = answer.results.filter((result) => result.match === "fuzzy").map((result) => result.title).sort();
    assert.ok(answer.results.filter((result) => result.match !== "fuzzy").length < 5, term);
    assert.deepEqual(found, expected, term);
    assert.ok(expected.length > p.length, `${term}: ${expected.length} titles within its edits`);
  }
});
