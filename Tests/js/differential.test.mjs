// `sift search` and sift-core.js on random sites (Tests/differential/engines.mjs): a fixed seed,
// 20 sites (the first two of 5,000 and 2,500 items, sharded; every fourth with answers, every third with its
// document tables in parts), 100 queries or more each, and
// every disagreement ever kept in Tests/Fixtures/differential/. DIFF_SEED=S tries other sites.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { bin, compare, describe, fixtures, queries, site, withBuiltSite } from "../differential/engines.mjs";
import AnsweringIndex from "../../Sources/SiftKit/Resources/sift-answers.js";

// The tables of the sites with answers read 61 documents at a time (8,192 on a site), so that the seams between slices are searched too.
AnsweringIndex.slice = 61;

const SEED = Number(process.env.DIFF_SEED ?? 1), SITES = 20, QUERIES = 100;
const skip = !existsSync(bin) && "run `make site` first";

const report = (diffs) => diffs.slice(0, 5).map((d) => `${JSON.stringify(d.request)}: ${d.why}`).join("\n");

test(`the engines agree on ${SITES} random sites, seed ${SEED}`, { skip, timeout: 300_000 }, async (t) => {
  const start = performance.now();
  let asked = 0, answered = 0, items = 0, sharded = 0, withAnswers = 0, inParts = 0;
  for (let s = 0; s < SITES; s++) {
    const seed = SEED * 1000 + s, files = site(seed, { size: [5000, 2500][s] });
    // Every fourth site carries the answers of short terms (docs/search-index.md, "Answers"),
    // which sift-core.js reads for a short term's first rows: its queries ask for 50 at most.
    const answers = s % 4 === 3;
    // Every third has its document tables in parts of a few dozen documents (docs/search-index.md,
    // "The document table"), read by both engines one part after the other.
    const env = { ...(answers && { SIFT_ANSWERS_FROM: "0" }), ...(s % 3 === 1 && { SIFT_DOCS_PART: String(20 + (seed % 80)) }) };
    await withBuiltSite(files, "sift-diff-", env, async (dir) => {
      const m = JSON.parse(readFileSync(dir + "/public/search/manifest.json", "utf8"));
      items += m.collections.reduce((a, c) => a + c.count, 0);
      sharded += m.shards > 0;
      withAnswers += m.answers > 0;
      inParts += m.collections.some((c) => Array.isArray(c.docs));
      const requests = queries(seed, QUERIES, describe(dir, files)).map((q) => (answers ? { ...q, limit: q.limit ?? 50 } : q));
      const { diffs, count } = await compare(dir, requests);
      asked += requests.length;
      answered += count;
      assert.equal(diffs.length, 0, `site ${seed}: ${diffs.length} disagreements\n${report(diffs)}`);
    });
  }
  const seconds = (performance.now() - start) / 1000;
  t.diagnostic(`${asked} queries (${answered} sift search answers with the scope counts) over ${SITES} sites, ${items} items, ${sharded} sharded, ${withAnswers} with answers, ${inParts} with tables in parts, in ${seconds.toFixed(1)} s`);
  assert.ok(asked >= 2000 && sharded >= 2 && withAnswers === SITES / 4 && inParts >= 4, `${asked} queries, ${sharded} sharded sites, ${withAnswers} with answers, ${inParts} with tables in parts`);
});

// The ranked layout (version 6, docs/search-index.md) read by sift-ranked.js against sift search
// on the same files, typo matches as the ranked layout has them ("Typos"): 8 sites, every
// second with shards so small that keys split into parts and entries go to files of their own,
// every third with answers, and the first with both (and a low weight for heavy terms).
test(`the engines agree on the ranked layout of 8 random sites, seed ${SEED}`, { skip, timeout: 300_000 }, async (t) => {
  let asked = 0, parted = 0, heavy = 0;
  for (let s = 0; s < 8; s++) {
    const seed = SEED * 1000 + 500 + s, files = site(seed, { size: [1500, 600][s] });
    // The first site has split keys of three code points, whose answers it has too.
    const answers = s % 3 === 2 || s === 0;
    const env = { SIFT_RANKED_FROM: "0", ...(answers && { SIFT_ANSWERS_FROM: "0" }), ...(s % 2 === 0 && { SIFT_SHARDING: `0 ${[300, 1200, 4000, 600][s / 2]}${s === 0 ? " 3000" : ""}` }) };
    await withBuiltSite(files, "sift-diff-", env, async (dir) => {
      const m = JSON.parse(readFileSync(dir + "/public/search/manifest.json", "utf8"));
      assert.equal(m.version, 6);
      const pre = readdirSync(dir + "/public/search/immutable").filter((name) => name.startsWith("pre.")).map((name) => JSON.parse(readFileSync(dir + "/public/search/immutable/" + name, "utf8")));
      parted += pre.some((file) => Object.keys(file.keys ?? {}).length);
      // The heavy terms' answers (split keys of three code points, and on the first site the
      // starts of words of more than 3,000 bytes of entries), asked alone and in a scope.
      const listed = pre.flatMap((file) => file.answers ?? []), long = listed.filter((term) => [...term].length > 3);
      const answered = listed.filter((term) => [...term].length === 3).slice(0, 6).concat(long.slice(0, 6));
      if (s === 0) assert.ok(long.length > 0, "heavy terms of 4+ code points");
      const described = describe(dir, files), scope = described.collections.flatMap((c) => c.scopes)[0] ?? "All";
      const requests = queries(seed, QUERIES, described).map((q) => (answers ? { ...q, limit: q.limit ?? 50 } : q))
        .concat(answered.flatMap((query) => [{ query, scope: "All", limit: 50 }, { query, scope, limit: 7 }]));
      heavy += listed.length;
      const { diffs } = await compare(dir, requests);
      asked += requests.length;
      assert.equal(diffs.length, 0, `site ${seed}: ${diffs.length} disagreements\n${report(diffs)}`);
    });
  }
  t.diagnostic(`${asked} queries over 8 sites, ${parted} with split keys, ${heavy} heavy terms with answers`);
  assert.ok(parted >= 2 && heavy >= 1, `${parted} sites with split keys, ${heavy} heavy terms with answers`);
});

const kept = existsSync(fixtures) ? readdirSync(fixtures).filter((f) => f.endsWith(".json")).sort() : [];
for (const name of kept) {
  test(`kept disagreement ${name}`, { skip }, async () => {
    const { why, requests, files } = JSON.parse(readFileSync(fixtures + name, "utf8"));
    const { diffs } = await withBuiltSite(files, "sift-diff-", {}, (dir) => compare(dir, requests));
    assert.equal(diffs.length, 0, `once: ${why}\nnow: ${report(diffs)}`);
  });
}
