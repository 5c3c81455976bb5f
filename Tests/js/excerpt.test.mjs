// sift-excerpts.js's excerpts and sections against Tests/Fixtures/excerpt-vectors.json, which
// Tests/SiftKitTests/Search/ExcerptTests.swift reads too: the source (Web/) and what ships.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as sourceCore from "../../Web/sift-core.js";
import * as shippedCore from "../../Sources/SiftKit/Resources/sift-core.js";
import * as sourceExcerpts from "../../Web/sift-excerpts.js";
import * as shippedExcerpts from "../../Sources/SiftKit/Resources/sift-excerpts.js";

const source = { ...sourceCore, ...sourceExcerpts }, shipped = { ...shippedCore, ...shippedExcerpts };

const root = fileURLToPath(new URL("../../", import.meta.url));
const vectors = JSON.parse(readFileSync(root + "Tests/Fixtures/excerpt-vectors.json", "utf8"));

/**
 * A one-document index whose only text file holds `entry` (or is `file`, as given), under its
 * immutable name, its group's hash in the manifest (docs/search-index.md, "Text files"). `requests` lists the
 * URLs asked for.
 */
function load({ SiftIndex, IndexFormat }, entry, file = [entry], requests = []) {
  const manifest = { version: IndexFormat.version, base: "/", shards: 0, texts: 1, textGroup: 1, words: {}, files: { "texts-0": "0123456789ab" },
    collections: [{ name: "c", title: "C", count: 1, scopes: [], docs: { slugs: ["d"], fields: [{ name: "title", values: ["D"] }] } }] };
  const files = { "manifest.json": manifest, ...(file && { "immutable/text-0.0123456789ab.json": file }) };
  const fetch = async (url) => {
    requests.push(url);
    const body = files[url.replace("http://site.test/search/", "")];
    return body ? { ok: true, json: async () => body } : { ok: false, status: 404 };
  };
  return SiftIndex.load("http://site.test/search/manifest.json", { fetch });
}

for (const [name, core] of Object.entries({ source, shipped })) {
  test(`${name}: excerpts as the vectors say`, () => {
    for (const v of vectors.excerpts) assert.deepEqual(core.excerpt(v.text, v.terms), v.excerpt, v.note);
  });

  test(`${name}: a body match's excerpt and sections as the vectors say`, async () => {
    for (const v of vectors.sections) {
      const index = await load(core, v.entry);
      const [result] = await core.excerpts(index, [index.result(0, "body")], v.query);
      assert.deepEqual({ url: result.url, excerpt: result.excerpt, sections: result.sections }, { url: v.url, excerpt: v.excerpt, sections: v.sections }, v.note);
    }
  });

  test(`${name}: a text file is read under its immutable name, its group's hash from the manifest, in one request`, async () => {
    const requests = [], index = await load(core, ["Soft caramel."], undefined, requests);
    const [result] = await core.excerpts(index, [index.result(0, "body")], "caramel");
    assert.deepEqual(result.excerpt, ["Soft ", "caramel", "."]);
    assert.deepEqual(requests.slice(1), ["http://site.test/search/immutable/text-0.0123456789ab.json"]);
  });

  test(`${name}: other matches have no excerpt and fetch no text`, async () => {
    const index = await load(core, null, null);
    const [result] = await core.excerpts(index, [index.result(0, "field")], "d");
    assert.deepEqual([result.excerpt, result.sections], [null, []]);
  });

  test(`${name}: a missing or unreadable text file rejects as a bad index; an entry that is no list gives no excerpt`, async () => {
    for (const file of [null, "text"]) {
      const index = await load(core, null, file);
      await assert.rejects(core.excerpts(index, [index.result(0, "body")], "caramel"), { message: "sift: bad index" }, JSON.stringify(file));
    }
    for (const file of [{}, [null], [7]]) {
      const index = await load(core, null, file);
      const [result] = await core.excerpts(index, [index.result(0, "body")], "caramel");
      assert.deepEqual([result.excerpt, result.sections], [null, []], JSON.stringify(file));
    }
  });
}
