// `make fuzz`'s differential part: random sites and queries for DIFF_SECONDS (default 60; with
// DIFF_TOTAL=N, until N queries were asked instead, printing the count every 100,000), from
// DIFF_SEED (default: the clock), DIFF_QUERIES a site (default 2,000: a site's build costs as
// much as a few hundred queries, and one site answers many without repeating). Each disagreement is kept
// as Tests/Fixtures/differential/<seed>-<n>.json (replayed by Tests/js/differential.test.mjs);
// the exit status is 1 when there was one.
import { rmSync } from "node:fs";
import { build, compare, describe, keep, queries, site, writeSite } from "./engines.mjs";

const seconds = Number(process.env.DIFF_SECONDS ?? 60), perSite = Number(process.env.DIFF_QUERIES ?? 2000);
const first = Number(process.env.DIFF_SEED ?? Date.now() % 1e9), total = Number(process.env.DIFF_TOTAL ?? 0);
const start = performance.now(), elapsed = () => (performance.now() - start) / 1000;
let sites = 0, asked = 0, answered = 0, disagreements = 0;
for (let seed = first; total ? asked < total : elapsed() < seconds; seed++) {
  const files = site(seed), dir = writeSite(files);
  try {
    // A third of the sites with their document tables in parts of a few dozen documents.
    build(dir, seed % 3 ? {} : { SIFT_DOCS_PART: String(20 + (seed % 80)) });
    const requests = queries(seed, perSite, describe(dir, files));
    const { diffs, count } = await compare(dir, requests);
    sites++;
    if (total && Math.floor((asked + requests.length) / 1e5) > Math.floor(asked / 1e5)) {
      console.log(`${asked + requests.length} queries over ${sites} sites in ${elapsed().toFixed(0)} s, ${disagreements + diffs.length} disagreements`);
    }
    asked += requests.length;
    answered += count;
    for (const [n, d] of diffs.slice(0, 3).entries()) {
      const path = await keep(files, requests, d, `${seed}-${n}`);
      console.log(`site ${seed}: ${JSON.stringify(d.request)}: ${d.why}\n  kept in ${path}`);
    }
    disagreements += diffs.length;
  } catch (e) {
    console.log(`site ${seed}: ${e.message.split("\n")[0]}`);
    disagreements++;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const s = elapsed();
console.log(`differential  ${asked} queries (${answered} sift search answers) over ${sites} sites from seed ${first} in ${s.toFixed(0)} s, ` +
  `${(asked / s).toFixed(0)} queries/s, ${disagreements} disagreements`);
process.exit(disagreements ? 1 : 0);
