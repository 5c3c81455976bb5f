// The constants sift-core.js shares with the Swift side come from one place: IndexFormat.swift
// (the index version, the bucket count) and the shared vectors (the derived slug, which
// SearchVectorsTests.swift checks against IndexFormat.derivedSlug).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as source from "../../Web/sift-core.js";
import * as shipped from "../../Sources/SiftKit/Resources/sift-core.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const swift = readFileSync(root + "Sources/SiftKit/Search/IndexFormat.swift", "utf8");
const vectors = JSON.parse(readFileSync(root + "Tests/Fixtures/search-vectors.json", "utf8"));

/** The value of `static let name = 123` in IndexFormat.swift. */
function swiftConstant(name) {
  const found = swift.match(new RegExp(`static let ${name} = ([0-9_]+)\\b`));
  assert.ok(found, `IndexFormat.swift has no \`static let ${name} = …\``);
  return Number(found[1].replaceAll("_", ""));
}

for (const [name, core] of Object.entries({ source, shipped })) {
  test(`${name} sift-core.js reads the index version and bucket count IndexFormat.swift writes`, () => {
    assert.equal(core.IndexFormat.version, swiftConstant("version"));
    assert.equal(core.IndexFormat.buckets, swiftConstant("buckets"));
  });

  test(`${name} sift-core.js derives slugs as IndexFormat.derivedSlug does`, () => {
    for (const v of vectors.derivedSlug) assert.equal(core.derivedSlug(core.fold(v.title)), v.slug ?? "", v.note ?? v.title);
  });

  test(`${name} sift-core.js tells CJK terms as IndexFormat.isCJK does`, () => {
    for (const v of vectors.cjkTerms) assert.equal(core.isCJK(v.term), v.cjk, v.note ?? v.term);
  });
}

// The score's constants (docs/search-index.md, "Ranking"): Swift's `enum Score` and sift-core.js's
// constants of the same names, read from both sources.
test("sift-core.js scores with the constants of Swift's Score", () => {
  const ranking = readFileSync(root + "Sources/SiftKit/Search/SearchIndex+Ranking.swift", "utf8");
  const core = readFileSync(root + "Web/sift-core.js", "utf8");
  const names = { titleWeight: "TITLE_WEIGHT", fieldWeight: "FIELD_WEIGHT", bodyWeight: "BODY_WEIGHT", phraseWeight: "PHRASE_WEIGHT",
    k1: "K1", b: "B", oftenCount: "OFTEN_COUNT", insideWord: "INSIDE_WORD", wordStart: "WORD_START", wholeWord: "WHOLE_WORD", often: "OFTEN" };
  for (const [swiftName, jsName] of Object.entries(names)) {
    const inSwift = ranking.match(new RegExp(`(?:static let |, )${swiftName} = ([0-9.]+)`)), inJS = core.match(new RegExp(`\\b${jsName} = ([0-9.]+)`));
    assert.ok(inSwift && inJS, `${swiftName} / ${jsName}`);
    assert.equal(Number(inJS[1]), Number(inSwift[1]), `${swiftName} / ${jsName}`);
  }
});

// Entropy-coded facet columns (docs/search-index.md, "Entropy-coded columns"): sift-facets.js
// decodes the vectors' codes, which SearchVectorsTests.swift checks EntropyCode writes, with the
// constants of Swift's EntropyCode.
const entropySwift = readFileSync(root + "Sources/SiftKit/Search/EntropyCode.swift", "utf8");
const facetsSource = readFileSync(root + "Web/sift-facets.js", "utf8");
for (const [name, facets] of Object.entries({ source: await import("../../Web/sift-facets.js"), shipped: await import("../../Sources/SiftKit/Resources/sift-facets.js") })) {
  test(`${name} sift-facets.js decodes the entropy codes EntropyCode writes, and refuses broken ones`, () => {
    for (const v of vectors.entropyCodes) assert.deepEqual(facets.decodeEntropyCode(v.code, v.frequencies, v.symbols.length), v.symbols, v.note);
    const [v] = vectors.entropyCodes.filter((x) => x.symbols.length > 20);
    assert.throws(() => facets.decodeEntropyCode(v.code, v.frequencies, v.symbols.length + 1), /bad index/);
    assert.throws(() => facets.decodeEntropyCode(v.code + "A", v.frequencies, v.symbols.length), /bad index/);
    assert.throws(() => facets.decodeEntropyCode(v.code, [...v.frequencies.slice(1), v.frequencies[0] + 1], v.symbols.length), /bad index/);
    assert.throws(() => facets.decodeEntropyCode("AgA", [4096], 1), /bad index/);
  });
}

test("sift-facets.js decodes with the constants of Swift's EntropyCode", () => {
  for (const [swiftName, jsName] of Object.entries({ scaleBits: "SCALE_BITS", lower: "LOWER", stateDigits: "STATE_DIGITS" })) {
    const inSwift = entropySwift.match(new RegExp(`static let ${swiftName} = ([0-9 <]+)\\n`)), inJS = facetsSource.match(new RegExp(`\\b${jsName} = ([0-9 <]+)[,;]`));
    assert.ok(inSwift && inJS, `${swiftName} / ${jsName}`);
    const value = (text) => text.split("<<").map(Number).reduce((base, shift) => base * 2 ** shift);
    assert.equal(value(inJS[1]), value(inSwift[1]), `${swiftName} / ${jsName}`);
  }
});
