// A large collection's document table in parts (docs/search-index.md, "The document table"):
// sift-core.js asks for every part at once and reads each as it arrives, and a missing part fails
// the index. The engines' answers on sites in parts: Tests/js/differential.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bin, build, site, writeSite } from "../differential/engines.mjs";
import { SiftIndex, filePath } from "../../Sources/SiftKit/Resources/sift-core.js";

const skip = !existsSync(bin) && "run `make site` first";

test("a table in parts is read a part at a time as the parts arrive, and a missing part fails the index", { skip }, async () => {
  const dir = writeSite(site(11, { size: 3000 }), "sift-parts-");
  try {
    build(dir, { SIFT_DOCS_PART: "1000" });
    const search = join(dir, "public/search"), manifest = JSON.parse(readFileSync(join(search, "manifest.json"), "utf8"));
    const c = manifest.collections.findIndex((collection) => Array.isArray(collection.docs)), { docs: parts, count } = manifest.collections[c];
    assert.deepEqual(parts, Array.from({ length: Math.ceil(count / 1000) }, (_, p) => `docs-${c}-${p}.json`));
    assert.ok(parts.length >= 2 && manifest.collections.every((collection) => !Array.isArray(collection.docs) || collection.count > 1000));
    const read = async (name) => JSON.parse(await readFile(join(search, filePath(name, manifest.files)), "utf8"));
    // Its second part held back: the first is read meanwhile, then the rest.
    let release;
    const held = new Promise((resolve) => (release = resolve)).then(() => read(parts[1]));
    const tables = manifest.collections.map(({ docs }) => (docs.fields ? [docs] : [].concat(docs).map((name) => (name === parts[1] ? held : read(name)))));
    const index = new SiftIndex(manifest, read), reading = index.read(tables, () => new Promise((resolve) => setTimeout(resolve)), 100);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const first = manifest.collections.slice(0, c).reduce((sum, collection) => sum + collection.count, 0);
    assert.equal(index.foldedTitles.length, first + 1000, "the first part read while the second is on the way");
    release();
    await reading;
    assert.equal(index.count, manifest.collections.reduce((sum, c) => sum + c.count, 0));
    // As an index built in one table answers.
    const wholeDir = writeSite(site(11, { size: 3000 }), "sift-parts-");
    try {
      build(wholeDir);
      const fetch = async (url) => ({ ok: true, status: 200, json: async () => JSON.parse(await readFile(fileURLToPath(url), "utf8")) });
      const whole = await SiftIndex.load(pathToFileURL(join(wholeDir, "public/search/manifest.json")), { fetch });
      for (const query of ["", "a", "ne", "hav", "lum ber"]) assert.deepEqual(await index.search(query, { limit: 30 }), await whole.search(query, { limit: 30 }), query);
    } finally {
      rmSync(wholeDir, { recursive: true, force: true });
    }
    const manifestURL = pathToFileURL(join(search, "manifest.json"));
    // A part's URL exceptions are keyed by the document's index within it, written as JavaScript and
    // Swift write a number: "00" is no key of document 0 (found in review: it was read as one).
    const oddPart = await read(parts[0]);
    oddPart.urls = { "00": "elsewhere/" };
    const oddFetch = async (url) => ({ ok: true, status: 200, json: async () => (String(url).includes(manifest.files[parts[0]]) ? oddPart : JSON.parse(await readFile(fileURLToPath(url), "utf8"))) });
    const oddIndex = await SiftIndex.load(manifestURL, { fetch: oddFetch });
    assert.ok(!(await oddIndex.search("", { collection: manifest.collections[c].name, limit: 1 })).results[0].url.endsWith("/elsewhere/"));
    // A part that cannot be fetched fails the index, as a missing table does.
    const missing = async (url) => (String(url).includes(manifest.files[parts.at(-1)]) ? { ok: false, status: 404 } : { ok: true, status: 200, json: async () => JSON.parse(await readFile(fileURLToPath(url), "utf8")) });
    await assert.rejects(SiftIndex.load(pathToFileURL(join(search, "manifest.json")), { fetch: missing }), /bad index/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
