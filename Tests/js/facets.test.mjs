// Facet counts (docs/search-index.md, "Filters, counts and sorting"): sift-facets.js counts a field
// of up to 31 values in one pass over the matches, and a larger one by each value's documents. Both ways
// must give each value's count over the matches that pass every other field's selection.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as source from "../../Web/sift-facets.js";
import * as shipped from "../../Sources/SiftKit/Resources/sift-facets.js";
import { SiftIndex } from "../../Sources/SiftKit/Resources/sift-core.js";
import { bin, withBuiltSite } from "../differential/engines.mjs";

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A random generator with a seed, so that a failure repeats. */
function random(seed) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

/** A facets file of `count` documents: per field, each document's values (one to three), as sets and codes. */
function facetsFile(count, valueCounts, next) {
  const held = {};
  const facets = Object.entries(valueCounts).map(([name, valueCount]) => {
    const values = Array.from({ length: valueCount }, (_, v) => `${name} ${v}`), sets = [], codes = [];
    held[name] = [];
    for (let doc = 0; doc < count; doc++) {
      const set = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * valueCount)))].sort((a, b) => a - b);
      let code = sets.findIndex((known) => known.join() === set.join());
      if (code < 0) code = sets.push(set) - 1;
      codes.push(code);
      held[name].push(set.map((v) => values[v]));
    }
    const width = Math.max(1, Math.ceil(Math.log(sets.length) / Math.log(64)));
    const ids = codes.map((code) => Array.from({ length: width }, (_, k) => DIGITS[Math.floor(code / 64 ** (width - 1 - k)) % 64]).join("")).join("");
    return { name, values, sets, ids };
  });
  return { file: { facets, sorts: [] }, held };
}

/** The counts by their definition: each value, over the matches passing every other field's selection. */
function expectedCounts(matches, held, filters, valueCounts) {
  const passes = (doc, except) => Object.entries(filters).every(([name, values]) => name === except || !values.length || held[name][doc].some((value) => values.includes(value)));
  return Object.fromEntries(Object.entries(valueCounts).map(([name, valueCount]) => {
    const passing = matches.filter((doc) => passes(doc, name));
    return [name, Object.fromEntries(Array.from({ length: valueCount }, (_, v) => `${name} ${v}`).map((value) => [value, passing.filter((doc) => held[name][doc].includes(value)).length]))];
  }));
}

for (const [name, { Facets }] of Object.entries({ source, shipped })) {
  test(`${name} sift-facets.js counts fields of 2, 31, 32 and 70 values as their definition does`, async () => {
    const next = random(7), count = 500, valueCounts = { small: 2, most: 31, bits: 32, many: 70 };
    const { file, held } = facetsFile(count, valueCounts, next);
    const facets = await Facets.read([{ first: 0, count, file }], count);
    const everything = Array.from({ length: count }, (_, doc) => doc);
    for (const filters of [{}, { small: ["small 1"] }, { most: ["most 3", "most 30"], many: ["many 69"] }, { bits: ["bits 31"], small: ["small 0"] }]) {
      for (const matches of [everything, everything.filter((doc) => doc % 3 === 0), []]) {
        facets.select(filters);
        assert.deepEqual(facets.counts(matches), expectedCounts(matches, held, filters, valueCounts), JSON.stringify(filters));
      }
    }
  });
}

for (const [name, { Facets }] of Object.entries({ source, shipped })) {
  test(`${name} sift-facets.js counts a field of 2,000 values by its documents, not every match once a value`, async () => {
    // 100,000 documents, each holding one author of 2,000 as a postings list: counted value by value
    // over 50,000 matches, each search (each keystroke with a facet open) took about 3 s.
    const count = 100000, authors = 2000, DIGITS64 = (n) => btoa(String.fromCharCode(...n));
    const values = Array.from({ length: authors }, (_, v) => `author ${v}`);
    // Each value's documents v, v + 2,000, …: a document is the last one plus its gap plus one.
    const postings = values.map((_, v) => DIGITS64([...varint(v), ...Array(count / authors - 1).fill(varint(authors - 1)).flat()]));
    const before = process.memoryUsage().arrayBuffers;
    const facets = await Facets.read([{ first: 0, count, file: { facets: [{ name: "author", values, postings }], sorts: [] } }], count);
    const matches = Array.from({ length: count / 2 }, (_, i) => i * 2);
    facets.select({});
    let counted = facets.counts(matches);
    // Each document once in its value's list, not a byte per value and document (200 MB here).
    const held = process.memoryUsage().arrayBuffers - before;
    assert.ok(held < 20e6, `${(held / 1e6).toFixed(0)} MB held by the facets`);
    facets.select({ author: ["author 3", "author 1999"] });
    assert.deepEqual([3, 1999, 2003, 4, 2000].filter((doc) => facets.passes(doc)), [3, 1999, 2003]);
    assert.equal(counted.author["author 0"], 50);
    assert.equal(counted.author["author 1"], 0);
    const started = performance.now();
    for (let i = 0; i < 3; i++) counted = facets.counts(matches);
    const took = (performance.now() - started) / 3;
    assert.equal(Object.values(counted.author).reduce((a, b) => a + b), count / 2);
    assert.ok(took < 300, `${took.toFixed(0)} ms a count`);
  });
}

/** A number as a postings varint: 7 bits a byte, least significant first, the last byte below 128. */
function varint(n) {
  const out = [];
  for (; n >= 128; n = Math.floor(n / 128)) out.push(128 | (n & 127));
  return [...out, n];
}

for (const [name, { Facets }] of Object.entries({ source, shipped })) {
  test(`${name} sift-facets.js counts and filters values named as Object's properties`, async () => {
    // Five documents: {constructor}, {toString}, {__proto__}, {valueOf}, {constructor, __proto__}.
    const values = ["constructor", "toString", "__proto__", "valueOf"];
    const file = { facets: [{ name: "tag", values, sets: [[0], [1], [2], [3], [0, 2]], ids: "ABCDE" }], sorts: [] };
    const facets = await Facets.read([{ first: 0, count: 5, file }], 5);
    facets.select({});
    assert.equal(JSON.stringify(facets.counts([0, 1, 2, 3, 4])), '{"tag":{"constructor":2,"toString":1,"__proto__":2,"valueOf":1}}');
    facets.select({ tag: ["__proto__"] });
    assert.deepEqual([0, 1, 2, 3, 4].filter((doc) => facets.passes(doc)), [2, 4]);
    assert.throws(() => facets.sorted([0, 1], "constructor"), /unknown sort field/);
  });
}

test("the facets of a collection are its own after those of an empty collection before it", { skip: !existsSync(bin) && "run `make site` first" }, async () => {
  // "aa" holds no searchable document: it starts where "bb" starts, and its facets are none of bb's.
  await withBuiltSite({
    "Content/aa/collection.yml": "title_field: name\nfacets: [hue]\n", "Content/aa/aa.csv": "name,hue\nHidden,Grey\n",
    "Content/aa/hidden.md": "---\nsearch: false\n---\nNot searched.\n",
    "Content/bb/collection.yml": "title_field: name\nfacets: [hue]\n", "Content/bb/bb.csv": "name,hue\nApple,Red\nSky,Blue\n",
  }, "sift-facets-empty-", {}, async (dir) => {
    const fetch = async (url) => ({ ok: true, status: 200, json: async () => JSON.parse(await readFile(fileURLToPath(url), "utf8")) });
    const index = await SiftIndex.load(pathToFileURL(join(dir, "public/search/manifest.json")), { fetch });
    assert.deepEqual(index.collections.slice(0, 2).map((c) => [c.name, c.count]), [["aa", 0], ["bb", 2]]);
    assert.deepEqual((await index.search("", { collection: "aa", facets: true })).facets, {});
    assert.deepEqual((await index.search("", { collection: "bb", facets: true })).facets, { hue: { Blue: 1, Red: 1 } });
  });
});
