// Keystrokes on a built index in node, with its document tables read: words typed a key at a
// time, a fresh index each pass (what a visitor meets the first time they type those words), every
// query timed from the call to its answer. An index with answers is read as the browser reads its
// tables (sift-answers.js's LargeIndex), and the queries its answers files serve (a term of one or
// two code points) are left out, as the browser does not search them.
//
//   node Benchmarks/typing.mjs PUBLIC/search [--words "harbor,quiet river"] [--passes 3] [--web DIR]
//
// --web: the folder of sift-core.js and sift-answers.js (default: Web/), to time another version.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const args = process.argv.slice(2), option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dir = args[0], words = option("--words", "harbor,vorania,quiet river,new york,sunny valley").split(","), passes = +option("--passes", 3);
const web = resolve(option("--web", new URL("../Web", import.meta.url).pathname));
const { SiftIndex, filePath } = await import(pathToFileURL(web + "/sift-core.js"));
const manifest = JSON.parse(readFileSync(dir + "/manifest.json", "utf8"));
const read = (name) => JSON.parse(readFileSync(dir + "/" + filePath(name, manifest.files), "utf8"));
const Index = (manifest.answers && (await import(pathToFileURL(web + "/sift-answers.js"))).LargeIndex) || SiftIndex;
const tables = manifest.collections.map(({ docs }) => (docs.fields ? [docs] : [].concat(docs).map(read)));
const times = {};
for (let pass = 0; pass < passes; pass++) {
  const index = await new Index(manifest, async (name) => read(name)).read(tables, async () => {}, 8192);
  for (const word of words) {
    for (let end = 1; end <= word.length; end++) {
      const query = word.slice(0, end);
      if (manifest.answers && [...query].length < 3 && !query.includes(" ")) continue;
      const start = performance.now();
      await index.search(query, { limit: 50 });
      (times[query] ??= []).push(performance.now() - start);
    }
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1], all = Object.values(times).flat().sort((a, b) => a - b);
console.log(`${Index.name}, ${all.length} keystrokes: p50 ${median(all).toFixed(1)} ms, p95 ${all[Math.floor(all.length * 0.95)].toFixed(1)} ms, max ${all.at(-1).toFixed(1)} ms`);
console.log(Object.entries(times).map(([query, list]) => `${query} ${median(list).toFixed(0)}`).join(", "));
