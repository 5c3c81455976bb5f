// The answers of short terms (docs/search-index.md, "Answers"; sift-answers.js) on random sites
// built with them (SIFT_ANSWERS_FROM=0): the first keystroke answered from one small file before
// the document tables arrive, and every answer what sift-core.js computes from the tables.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bin, build, site, withBuiltSite, writeSite } from "../differential/engines.mjs";
import { SiftIndex, filePath } from "../../Sources/SiftKit/Resources/sift-core.js";
import AnsweringIndex, { LargeIndex } from "../../Sources/SiftKit/Resources/sift-answers.js";

const skip = !existsSync(bin) && "run `make site` first";

/** A random site of `size` items built with answers, its search folder, and its removal. */
function answeredSite(seed, size) {
  const dir = writeSite(site(seed, { size }), "sift-answers-");
  build(dir, { SIFT_ANSWERS_FROM: "0" });
  return { search: join(dir, "public/search"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Reads a built file by its URL. */
const read = (url) => readFile(fileURLToPath(url), "utf8");
/** Fetches every built file as it is. */
const files = async (url) => ({ ok: true, status: 200, json: async () => JSON.parse(await read(url)) });
/** Fetches the answers alone: neither the document tables nor the facets files ever come (the manifest outlines the facets). */
const answersOnly = async (url) => (/\/(docs|facets)\./.test(url) ? { ok: false, status: 404 } : files(url));
/** Fetches the tables alone: the manifest names no answers. */
const tablesOnly = async (url) => ({ ok: true, status: 200, json: async () => {
  const { answers, ...rest } = JSON.parse(await read(url));
  return url.endsWith("/manifest.json") ? rest : { answers, ...rest };
} });

/** A fetch over the built files that holds back the files `held` names until `release()`. */
function heldFetch(held) {
  const names = [];
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const fetch = async (url) => {
    const path = fileURLToPath(url), text = await readFile(path, "utf8");
    names.push(path.split("/").pop());
    if (held(path)) await released;
    return { ok: true, status: 200, json: async () => JSON.parse(text) };
  };
  return { fetch, names, release };
}

test("a short term is answered from one answers file before the document tables are asked for", { skip }, async () => {
  const { search, remove } = answeredSite(11, 5000);
  try {
    const manifest = JSON.parse(readFileSync(join(search, "manifest.json"), "utf8"));
    assert.ok(manifest.answers > 0, "the manifest counts its answers files");
    assert.ok(manifest.collections.some((c) => typeof c.docs === "string"), "a document table in a file of its own");
    let offline = false;
    const { fetch: held, names, release } = heldFetch((path) => /\/docs(-\d+)?\./.test(path));
    const fetch = (url) => (offline ? Promise.reject(Error("offline")) : held(url));
    const index = await SiftIndex.load(pathToFileURL(join(search, "manifest.json")), { fetch });
    const answer = await index.search("n", { limit: 20 });
    assert.equal(answer.results.length, 20);
    assert.ok(answer.total > 1000);
    assert.deepEqual(names.filter((name) => /^answers\./.test(name)).length, 1, names.join(" "));
    assert.ok(!names.some((name) => /^docs(-\d+)?\./.test(name)), `the tables wait for the answer: ${names.join(" ")}`);
    // Then they come, for the next keystrokes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(names.some((name) => /^docs(-\d+)?\./.test(name)), `the tables follow the answer: ${names.join(" ")}`);
    // A longer term waits for the tables, and then finds what the answer's rows began with.
    const longer = index.search(answer.results[0].title.slice(0, 4), { limit: 20 });
    release();
    assert.ok((await longer).total >= 1);
    assert.deepEqual(await index.search("n", { limit: 20 }), await (await index.full).search("n", { limit: 20 }));
    // With the tables in, a short term whose answers file was never fetched needs no request.
    offline = true;
    const unfetched = ["z", "y", "x", "w", "v", "q"].find((term) => !index.files[index.answersFile(term)]);
    assert.deepEqual(await index.search(unfetched, { limit: 20 }), await (await index.full).search(unfetched, { limit: 20 }));
  } finally {
    remove();
  }
});

test("the empty query of a field just focused is answered from the answers, and brings no document table", { skip }, async () => {
  const { search, remove } = answeredSite(11, 5000);
  try {
    const { fetch, names } = heldFetch(() => false);
    assert.ok(JSON.parse(readFileSync(join(search, "manifest.json"), "utf8")).collections.some((c) => typeof c.docs === "string"), "a document table in a file of its own");
    const index = await SiftIndex.load(pathToFileURL(join(search, "manifest.json")), { fetch });
    const plain = await index.full;
    names.length = 0;
    const fresh = await SiftIndex.load(pathToFileURL(join(search, "manifest.json")), { fetch });
    for (const query of ["", "  "]) {
      for (const options of [{ limit: 20 }, { limit: 50, scope: "All", facets: true }, { limit: 7, collection: fresh.manifest.collections[0].name }]) {
        assert.deepEqual(await fresh.search(query, options), await plain.search(query, options), `${JSON.stringify(query)} ${JSON.stringify(options)}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(!names.some((name) => /^docs(-\d+)?\./.test(name)), `no table for a visitor who has typed nothing: ${names.join(" ")}`);
    assert.ok(names.some((name) => /^answers\./.test(name)), names.join(" "));
  } finally {
    remove();
  }
});

test("a keystroke made while the document tables are read is answered before they are in", { skip }, async () => {
  const { search, remove } = answeredSite(12, 5000), slice = AnsweringIndex.slice;
  try {
    // The keystroke comes in the first task after the tables arrive, as a person's may while they are read.
    let keystroke;
    const typed = new Promise((resolve) => (keystroke = resolve));
    const fetch = async (url) => {
      const text = await readFile(fileURLToPath(url), "utf8"), table = /\/docs(-\d+)?\./.test(url);
      return { ok: true, status: 200, json: async () => (table && setTimeout(keystroke), JSON.parse(text)) };
    };
    const index = await SiftIndex.load(pathToFileURL(join(search, "manifest.json")), { fetch });
    await index.answers("e");
    // 5,000 documents read 50 at a time: the page (here, node's event loop) runs between slices.
    AnsweringIndex.slice = 50;
    const full = index.full;
    await typed;
    const answer = await index.search("e", { limit: 20 });
    assert.equal(index.loaded, undefined, "answered while the tables are read");
    assert.deepEqual(answer, await (await full).search("e", { limit: 20 }));
  } finally {
    AnsweringIndex.slice = slice;
    remove();
  }
});

// One test a site: the 1,200-item site alone compares about 300,000 answers (some 25 s here), and
// the timeout is a guard against a hang, far from the time it takes on a busy machine.
for (const [seed, size] of [[3, 400], [4, 1200], [5, null]]) {
  test(`every answer is what the document tables give, in every collection, scope and limit: site ${seed}, ${size ?? "default"} items`, { skip, timeout: 300_000 }, async () => {
    const { search, remove } = answeredSite(seed, size);
    try {
      const manifestURL = pathToFileURL(join(search, "manifest.json"));
      const index = await SiftIndex.load(manifestURL, { fetch: answersOnly }), plain = await SiftIndex.load(manifestURL, { fetch: tablesOnly });
      const { manifest } = index;
      assert.ok(manifest.answers > 0 && !plain.manifest.answers);
      const terms = [];
      for (let n = 0; n < manifest.answers; n++) terms.push(...Object.keys(JSON.parse(await read(new URL(filePath(`answers-${n}.json`, manifest.files), manifestURL)))));
      // Short terms no field holds, and cased and accented ones.
      terms.push("ж", "Q", "É", "Ñ", "  a  ", "  ");
      // Every answers file in hand: a short term is answered from them even once the tables are in (inline ones are at once).
      for (let n = 0; n < manifest.answers; n++) await (index.files[`answers-${n}.json`] ??= index.fetchJSON(`answers-${n}.json`));
      let compared = 0;
      for (const term of terms) {
        for (const collection of [null, ...manifest.collections.map((c) => c.name)]) {
          const scopes = [...new Set(manifest.collections.filter((c) => collection == null || c.name === collection).flatMap((c) => c.scopes))];
          for (const scope of ["All", ...scopes]) {
            for (const [limit, facets] of [[0, false], [7, false], [50, false], [7, true], [50, true]]) {
              const options = { collection, scope, limit, facets };
              assert.deepEqual(await index.search(term, options), await plain.search(term, options), `${JSON.stringify(term)} ${JSON.stringify(options)}`);
              compared++;
            }
          }
        }
      }
      assert.ok(compared > 1000, `${compared} answers compared`);
      assert.ok(Object.keys(index.files).filter((name) => name.startsWith("answers-")).length === manifest.answers, "every answers file read");
      await assert.rejects(index.search("a", { scope: "Nope", limit: 20 }), /unknown scope/);
      await assert.rejects(index.search("a", { collection: "nope", limit: 20 }), /unknown collection/);
    } finally {
      remove();
    }
  });
}

test("a corrupt or missing answers file rejects as a bad index", { skip }, async () => {
  const { search, remove } = answeredSite(6, 300);
  try {
    for (const broken of ['{"a":{"hits":7,"counts":[1]}', "not json", null]) {
      const fetch = async (url) => {
        const path = fileURLToPath(url);
        if (/\/answers\./.test(path) && broken === null) return { ok: false, status: 404 };
        const text = /\/answers\./.test(path) ? broken.replace('"a"', '"x"') : await readFile(path, "utf8");
        return { ok: true, status: 200, json: async () => JSON.parse(text) };
      };
      const index = await SiftIndex.load(pathToFileURL(join(search, "manifest.json")), { fetch });
      await assert.rejects(index.search("x", { limit: 10 }), /sift: bad index/, String(broken));
    }
  } finally {
    remove();
  }
});

test("a scope named All and a limit that is not whole answer as the tables do", { skip }, async () => {
  const rows = ["Ant,All", "Bat,All", "Cat,All", "Asp,B", "Auk,B", "Ape,"].join("\n");
  const things = { "Content/things/collection.yml": "title_field: name\nscope_field: kind\n", "Content/things/things.csv": `name,kind\n${rows}\n` };
  await withBuiltSite(things, "sift-answers-all-", { SIFT_ANSWERS_FROM: "0" }, async (dir) => {
    const manifestURL = pathToFileURL(join(dir, "public/search/manifest.json"));
    const index = await SiftIndex.load(manifestURL, { fetch: files }), plain = await SiftIndex.load(manifestURL, { fetch: tablesOnly });
    assert.ok(index.manifest.answers > 0);
    for (const options of [{ limit: 20 }, { scope: "All", limit: 20 }, { scope: "B", limit: 20 }, { limit: 2.5 }, { limit: 0.5 }, { limit: -1 }]) {
      assert.deepEqual(await index.search("a", options), await plain.search("a", options), JSON.stringify(options));
    }
  });
});

test("facet values named as Object's properties are counted as the tables count them", { skip }, async () => {
  const tags = ["constructor", "__proto__", "toString", "valueOf;constructor", "hasOwnProperty"];
  const rows = Array.from({ length: 40 }, (_, i) => `Item ${i},${i % 2 ? "A" : "B"},${tags[i % tags.length]}`).join("\n");
  const things = { "Content/things/collection.yml": 'title_field: name\nscope_field: kind\nfacets: [tag]\nlist_separator: ";"\n', "Content/things/things.csv": `name,kind,tag\n${rows}\n` };
  await withBuiltSite(things, "sift-answers-proto-", { SIFT_ANSWERS_FROM: "0" }, async (dir) => {
    const manifestURL = pathToFileURL(join(dir, "public/search/manifest.json"));
    const index = await SiftIndex.load(manifestURL, { fetch: answersOnly }), plain = await SiftIndex.load(manifestURL, { fetch: tablesOnly });
    for (const scope of ["All", "A"]) {
      const options = { scope, limit: 20, facets: true }, answer = await index.search("i", options);
      assert.equal(JSON.stringify(answer), JSON.stringify(await plain.search("i", options)), scope);
      assert.equal(Object.keys(answer.facets.tag).join(" "), "__proto__ constructor hasOwnProperty toString valueOf");
    }
  });
});

test("a collection whose facets are too many to outline takes its facet counts from the tables", { skip }, async () => {
  const rows = Array.from({ length: 300 }, (_, i) => `Item ${i},a tag long enough to fill an outline ${i}`).join("\n");
  const things = { "Content/things/collection.yml": "title_field: name\nfacets: [tag]\n", "Content/things/things.csv": `name,tag\n${rows}\n` };
  await withBuiltSite(things, "sift-answers-tags-", { SIFT_ANSWERS_FROM: "0" }, async (dir) => {
    const manifestURL = pathToFileURL(join(dir, "public/search/manifest.json"));
    const index = await SiftIndex.load(manifestURL, { fetch: files }), plain = await SiftIndex.load(manifestURL, { fetch: tablesOnly });
    assert.ok(index.manifest.answers > 0 && !index.manifest.collections[0].facetOutline);
    const answer = await index.search("i", { limit: 20, facets: true });
    assert.deepEqual(answer, await plain.search("i", { limit: 20, facets: true }));
    assert.equal(Object.keys(answer.facets.tag).length, 300);
  });
});

test("typing on a large site's tables, key by key, gives what a plain SiftIndex gives", { skip, timeout: 60_000 }, async () => {
  const { search, remove } = answeredSite(21, 3000);
  try {
    const manifestURL = pathToFileURL(join(search, "manifest.json"));
    const large = await (await SiftIndex.load(manifestURL, { fetch: files })).full, plain = await SiftIndex.load(manifestURL, { fetch: tablesOnly });
    assert.ok(large instanceof LargeIndex && !(plain instanceof LargeIndex));
    // Words of titles, whole and cut short, a typo, two terms, and words typed again after others
    // (the terms it keeps): every prefix as it is typed, in every scope.
    const titles = plain.tables.flatMap((table) => table.titles);
    const words = titles.flatMap((title) => title.split(/\s+/)).filter((word) => word.length > 3);
    const typed = [words[0], words[7], `${words[3]} ${words[9]}`, words[0].slice(0, 3) + words[0].slice(4), words[7], `x${words[2].slice(1)}`, words[0].toUpperCase(), `${words[12]} ${words[12].slice(2)}`];
    let compared = 0;
    for (const text of typed) {
      for (let end = 1; end <= text.length; end++) {
        for (const options of [{ limit: 20 }, { limit: 50, scope: plain.manifest.collections[0].scopes[0] ?? "All" }, { limit: 5, facets: true }]) {
          const query = text.slice(0, end);
          assert.deepEqual(await large.search(query, options), await plain.search(query, options), `${JSON.stringify(query)} ${JSON.stringify(options)}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 150 && large.keptFields.size === LargeIndex.kept, `${compared} answers compared, ${large.keptFields.size} terms kept`);
  } finally {
    remove();
  }
});
