// sift-core.js on corrupt and mismatched indexes (issue 19): random and mutated manifests,
// document tables, shards and union files, and random queries, with a fixed seed. Loading and
// searching either answer or reject with a plain Error (never a TypeError from deep inside,
// never an unhandled rejection), and no query takes 100 ms. FUZZ_CASES=N runs more cases,
// FUZZ_SEED=S another seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SiftIndex, filePath } from "../../Web/sift-core.js";
import { excerpts } from "../../Web/sift-excerpts.js";
import { bin, build, rng, site, writeSite } from "../differential/engines.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const CASES = Number(process.env.FUZZ_CASES ?? 3000), SEED = Number(process.env.FUZZ_SEED ?? 19);

/** The files of an index folder, by name, as text. */
// A recorded index as {name: text} by the names the index gives its files: those stored under
// their immutable names (docs/search-index.md, "File names") under their plain ones, and the
// manifest without `files`, so that cases corrupt "shard-0.json" as any client asks for it.
function files(dir) {
  const manifest = JSON.parse(readFileSync(dir + "/manifest.json", "utf8"));
  const out = {};
  for (const name of Object.keys(manifest.files ?? {})) {
    // `texts-M` is a group of text files' hash, which names them: no file of its own.
    if (!name.startsWith("texts-")) out[name] = readFileSync(`${dir}/${filePath(name, manifest.files)}`, "utf8");
  }
  for (const file of readdirSync(dir + "/immutable")) {
    const text = /^(text-\d+)\.[0-9a-f]{12}\.json$/.exec(file);
    if (text) out[text[1] + ".json"] = readFileSync(`${dir}/immutable/${file}`, "utf8");
    // The ranked layout's files named by its pre files, under their own names.
    if (/^(shard|union|post|frec)\./.test(file)) out[file] = readFileSync(`${dir}/immutable/${file}`, "utf8");
  }
  delete manifest.files;
  out["manifest.json"] = JSON.stringify(manifest);
  return out;
}

/** A fetch over in-memory files: a missing one is a 404, as a server would answer. */
export function memoryFetch(texts) {
  return async (url) => {
    const text = texts[new URL(url).pathname.split("/").pop()];
    return text === undefined ? { ok: false, status: 404 } : { ok: true, status: 200, json: async () => JSON.parse(text) };
  };
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ODD = ["@", "!", "=", " ", "\u0000", "é", "中", "😀", "\ud800", "-", "\"", "\\"];

function randomString(r, n = r.int(12)) {
  let s = "";
  for (let i = 0; i < n; i++) s += r.chance(0.7) ? B64[r.int(64)] : r.pick(ODD);
  return s;
}

function randomValue(r, depth = 0) {
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0: return null;
    case 1: return r.pick([true, false]);
    case 2: return r.pick([0, 1, -1, 2, 3, 1.5, -0.5, 63, 64, 4096, 2 ** 31, 2 ** 53, 1e12, NaN]);
    case 3: return randomString(r);
    case 4: return r.pick(["", "@", "!", "A", "/", "///////////", "docs-0.json", "shard-0.json", "../x.json", "All"]);
    case 5: return "!" + randomString(r, r.int(40));
    case 6: return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    case 7: return Object.fromEntries(Array.from({ length: r.int(4) }, () => [randomString(r, 3), randomValue(r, depth + 1)]));
    default: return { name: "c", count: r.int(4), scopes: ["X"], docs: { slugs: [""], fields: [{ name: "t", values: ["a"] }] } };
  }
}

/** Every [parent, key] of a JSON value, up to `limit` of them, sampled along the way. */
function slots(value, r, limit = 400) {
  const out = [];
  const walk = (v) => {
    if (v === null || typeof v !== "object") return;
    for (const k of Object.keys(v)) {
      if (out.length < limit || r.chance(0.05)) out.length < limit ? out.push([v, k]) : (out[r.int(limit)] = [v, k]);
      walk(v[k]);
    }
  };
  walk(value);
  return out;
}

/** Changes one value in place: replaced, removed, nudged, or its text edited. */
function mutateValue(value, r) {
  const all = slots(value, r);
  if (!all.length) return randomValue(r);
  const [parent, key] = r.pick(all), v = parent[key];
  const op = r.int(7);
  if (op === 0) Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key];
  else if (op === 1) parent[key] = randomValue(r);
  else if (op === 2 && typeof v === "number") parent[key] = r.pick([v + 1, v - 1, v * 2, -v, v * 1e6, v + 0.5]);
  else if (op === 3 && typeof v === "string") {
    const i = r.int(v.length + 1);
    parent[key] = r.pick([v.slice(0, i) + randomString(r, 1 + r.int(3)) + v.slice(i), v.slice(0, i) + v.slice(i + 1), v + v, v.slice(0, i)]);
  } else if (op === 4 && Array.isArray(v)) r.chance(0.5) ? v.push(...v.slice(0, r.int(v.length + 1))) : v.splice(r.int(v.length + 1));
  else if (op === 5 && typeof v === "string") parent[key] = Array.from({ length: v.length }, () => B64[r.int(64)]).join("");
  else parent[key] = randomValue(r);
  return value;
}

/** One corrupt index from a good one: JSON-aware edits of its files, or raw byte damage, or files swapped or gone. */
function corrupt(good, r) {
  const texts = { ...good }, names = Object.keys(texts);
  for (let n = 1 + r.int(3); n > 0; n--) {
    const name = r.chance(0.5) ? "manifest.json" : r.pick(names), op = r.int(10);
    if (op < 6) {
      let v;
      try { v = JSON.parse(texts[name]); } catch { continue; }
      texts[name] = JSON.stringify(mutateValue(v, r));
    } else if (op === 6) {
      const t = texts[name] ?? "", i = r.int(t.length + 1);
      texts[name] = t.slice(0, i) + r.pick(["", "}", "\"", "{", ",", "]", "x"]) + t.slice(i + r.int(3));
    } else if (op === 7) delete texts[name];
    else if (op === 8) texts[name] = texts[r.pick(names)];
    else texts[name] = JSON.stringify(randomValue(r));
  }
  return texts;
}

/** An index written from nothing: the right shape, with random numbers and codes. */
function scratch(r) {
  const n = r.int(6), scopes = r.chance(0.5) ? ["X", "Y"] : [];
  const words = Object.fromEntries(Array.from({ length: r.int(5) }, () => [r.pick(["choc", "cocoa", "bar", "a", " cho", "caramel"]), r.chance(0.3) ? "@" : randomString(r, r.int(8))]));
  const docs = { slugs: Array.from({ length: r.chance(0.8) ? n : r.int(6) }, () => r.pick(["", "x", "a-b"])),
    fields: [{ name: "t", values: Array.from({ length: r.chance(0.8) ? n : r.int(6) }, () => r.pick(["Choc", "Bar", "中文", "", "Cocoa bar"])) }] };
  if (scopes.length) docs.scope = randomString(r, r.chance(0.7) ? n : r.int(12));
  if (r.chance(0.3)) docs.fields.push({ name: "k", values: ["p", "q"], ids: randomString(r, n) });
  if (r.chance(0.2)) docs.fields.push({ name: "s", scope: true });
  const shards = r.chance(0.5) ? 0 : 1 + r.int(3);
  const m = { version: 5, base: "/", shards, collections: [{ name: "c", title: "C", count: r.chance(0.9) ? n : r.pick([-1, 1e9, 2 ** 32, 1.5]), scopes, docs }] };
  const texts = {};
  if (shards) {
    m.bounds = Array.from({ length: r.chance(0.8) ? shards - 1 : r.int(4) }, () => r.int(4200) - 50).sort((a, b) => a - b);
    for (let s = 0; s < shards; s++) texts[`shard-${s}.json`] = JSON.stringify(words);
    if (r.chance(0.5)) texts["union-0.json"] = JSON.stringify({ cho: randomString(r, 6) });
  } else m.words = words;
  texts["manifest.json"] = JSON.stringify(m);
  return texts;
}

const QUERIES = ["choc", "cocoa", "a", "", " ", "caramel", "chocolate bar", "zz", "choclate", "中", "cho-co", "arbor", "harbor",
  "ar", "bar", "😀", "cho", "lolipop", "e-mail", "\u0000", "a b c d e", "chocolatechocolatechocolatechocolate"];

/** The query list of one case: fixed ones and random text. */
const queries = (r) => [...QUERIES.filter(() => r.chance(0.4)), randomString(r, 1 + r.int(9)), randomString(r, 3)];

/** Fails unless `e` is what a corrupt index may throw: a plain Error with a message. */
function assertClean(e, what) {
  assert.ok(e instanceof Error && e.constructor === Error && typeof e.message === "string" && e.message,
    `${what}: threw ${e?.constructor?.name}: ${e?.message ?? e}\n${e?.stack}`);
}

async function runCase(texts, r, what, stats) {
  let index;
  try {
    index = await SiftIndex.load("http://fuzz.test/search/manifest.json", { fetch: memoryFetch(texts), hint: () => r.pick(QUERIES) });
    stats.loaded++;
  } catch (e) {
    assertClean(e, what + " load");
    stats.refused++;
    return;
  }
  for (const q of queries(r)) {
    const c = index.collections ?? [], scopes = c.flatMap((x) => (Array.isArray(x.scopes) ? x.scopes : []));
    const opts = { scope: r.chance(0.6) ? "All" : r.pick([...scopes, "Nope"]), collection: r.chance(0.8) ? null : c[0]?.name ?? "x", limit: r.pick([Infinity, 0, 1, 5]), now: r.chance(0.3) };
    for (let attempt = 0; ; attempt++) {
      const t0 = performance.now();
      try {
        const answer = await index.search(q, opts);
        stats.answered++;
        // The excerpts of the first rows, from the text files, as the bar shows them.
        await excerpts(index, answer.results.slice(0, 5), q).then(() => stats.excerpts++, (e) => (assertClean(e, `${what} excerpts ${JSON.stringify(q)}`), stats.excerptsRejected++));
      } catch (e) {
        assertClean(e, `${what} search ${JSON.stringify(q)} ${JSON.stringify(opts)}`);
        stats.rejected++;
      }
      const ms = performance.now() - t0;
      stats.slowest = Math.max(stats.slowest, attempt ? 0 : ms);
      // A busy machine may stall one run; a hang stalls every one.
      if (ms < 100) break;
      assert.ok(attempt < 2, `${what}: ${JSON.stringify(q)} took ${ms.toFixed(0)} ms`);
    }
  }
}

test(`sift-core.js on ${CASES} corrupt indexes, seed ${SEED}`, { timeout: 600_000 }, async (t) => {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  const good = ["small", "sharded", "unions"].map((k) => files(root + "Tests/Fixtures/search-index/" + k));
  // A site in the ranked layout (version 6, sift-ranked.js), its keys split into parts and its
  // heavy entries in files of their own, when the release sift is there to build it.
  if (existsSync(bin)) {
    const dir = writeSite(site(19, { size: 300 }));
    build(dir, { SIFT_RANKED_FROM: "0", SIFT_SHARDING: "0 300" });
    good.push(files(dir + "/public/search"));
    rmSync(dir, { recursive: true, force: true });
  }
  const stats = { loaded: 0, refused: 0, answered: 0, rejected: 0, excerpts: 0, excerptsRejected: 0, slowest: 0 };
  for (let i = 0; i < CASES; i++) {
    const r = rng(SEED * 1_000_003 + i), kind = r.int(10);
    const texts = kind < 2 ? scratch(r) : kind < 4 ? { ...good[r.int(good.length)] } : corrupt(good[r.int(good.length)], r);
    await runCase(texts, r, `case ${i} (seed ${SEED})`, stats);
  }
  // Unhandled rejections surface a task later.
  await new Promise((ok) => setTimeout(ok, 50));
  process.off("unhandledRejection", onUnhandled);
  assert.deepEqual(unhandled.map(String), []);
  t.diagnostic(`${CASES} cases: ${JSON.stringify({ ...stats, slowest: +stats.slowest.toFixed(1) })}`);
  assert.ok(stats.loaded > CASES / 10 && stats.refused > CASES / 10 && stats.excerptsRejected > 0, JSON.stringify(stats));
});

test("a corrupt manifest or shard rejects with an Error saying the index is bad", async () => {
  const load = (texts) => SiftIndex.load("http://fuzz.test/search/manifest.json", { fetch: memoryFetch(texts) });
  const crash = `{"version":5,"base":"/","shards":0,"collections":[{"name":"c","title":"C","count":1,"scopes":["X"],"docs":{"scope":"///////////","slugs":[""],"fields":[{"name":"name","values":["a"]}]}}],"words":{}}`;
  assert.equal((await (await load({ "manifest.json": crash })).search("a")).total, 1, "a scope code out of range is no scope");
  const bad = { message: "sift: bad index" };
  await assert.rejects(load({ "manifest.json": "{" }), bad);
  await assert.rejects(load({ "manifest.json": "null" }), bad);
  await assert.rejects(load({ "manifest.json": crash.replace('"version":5', '"version":7') }), (e) => e.message === "sift: bad index" && /version 7/.test(e.cause.message));
  // Version 6 goes to sift-ranked.js, which finds no groups in a manifest of version 5's shape.
  await assert.rejects(load({ "manifest.json": crash.replace('"version":5', '"version":6') }), bad);
  // A count that disagrees with the slugs is refused, as sift search refuses it: no loop trusts it.
  await assert.rejects(load({ "manifest.json": crash.replace('"count":1', '"count":1000000000') }), bad);
  await assert.rejects(load({ "manifest.json": crash.replace('"fields":[', '"fields":[7,') }), bad);
  await assert.rejects(load({ "manifest.json": crash.replace('"docs":{', '"docs":"docs-0.json","x":{') }), (e) => /docs-0.json: 404/.test(e.cause.message));

  const sharded = files(root + "Tests/Fixtures/search-index/sharded");
  const index = await load({ ...sharded, "shard-0.json": "[", "shard-1.json": "null" });
  for (const q of ["cocoa", "milk", "sugar", "caramel", "vanilla", "hard", "candy"]) {
    await index.search(q).catch((e) => assertClean(e, q));
  }
  const shards = Object.keys(sharded).filter((n) => n.startsWith("shard-"));
  const broken = await load(Object.fromEntries(Object.entries(sharded).map(([n, t]) => [n, n.startsWith("shard-") ? '{"cocoa":7}' : t])));
  await assert.rejects(broken.search("cocoa"), bad, `every shard (${shards.length}) broken`);
  const gone = await load({ "manifest.json": sharded["manifest.json"] });
  await assert.rejects(gone.search("cocoa"), (e) => e.message === "sift: bad index" && /404/.test(e.cause.message));
});
