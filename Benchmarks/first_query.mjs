// The cost of a visitor's first query, measured with the real client: sift-core.js loads the
// built index through a fetch that counts files, then answers each term from a cold start, asking
// as the search bar on a list page does for the first 50 results (ROWS in Web/search-bar.js).
// `precompressed`: the bytes of the build's own FILE.br (else FILE.gz, else FILE) for each file
// read, what a host serving `--precompress` copies sends a browser that accepts brotli.
// Then it fetches the excerpts of the first screen (the first 10 results) as the search bar does:
// `requests`, `raw`, `gzip`, `precompressed` count them too, `screen_*` them alone.
//   node Benchmarks/first_query.mjs SEARCH_DIR TERM...   -> one JSON line per term
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SiftIndex } from "../Sources/SiftKit/Resources/sift-core.js";
import { excerpts } from "../Sources/SiftKit/Resources/sift-excerpts.js";

const [dir, ...terms] = process.argv.slice(2);
// The results a first screen shows, and the rows a list page asks for.
const SCREEN = 10, ROWS = 50;
for (const term of terms) {
  const read = [], sent = [];
  const fetch = async (url) => {
    const path = fileURLToPath(url), bytes = await readFile(path);
    read.push(bytes);
    sent.push([".br", ".gz"].map((ext) => path + ext).filter(existsSync).map((copy) => statSync(copy).size)[0] ?? bytes.length);
    return { ok: true, status: 200, json: async () => JSON.parse(bytes) };
  };
  const start = performance.now();
  const index = await SiftIndex.load(pathToFileURL(dir + "/manifest.json"), { fetch });
  const loaded = performance.now();
  const r = await index.search(term, { limit: ROWS });
  const done = performance.now();
  // A warm keystroke: the same query again, shards cached.
  await index.search(term, { limit: ROWS });
  const warm = performance.now() - done;
  const before = read.length;
  await excerpts(index, r.results.slice(0, SCREEN), term);
  const texts = read.slice(before);
  console.log(JSON.stringify({
    term, requests: read.length, raw: read.reduce((a, b) => a + b.length, 0),
    gzip: read.reduce((a, b) => a + gzipSync(b, { level: 6 }).length, 0), precompressed: sent.reduce((a, b) => a + b, 0), total: r.total,
    screen_requests: texts.length, screen_gzip: texts.reduce((a, b) => a + gzipSync(b, { level: 6 }).length, 0),
    screen_precompressed: sent.slice(before).reduce((a, b) => a + b, 0),
    load_ms: +(loaded - start).toFixed(1), query_ms: +(done - loaded).toFixed(1), warm_ms: +warm.toFixed(1),
  }));
}
