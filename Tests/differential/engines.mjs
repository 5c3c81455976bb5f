// The two search engines against each other (issue 19): random sites built by the release
// `sift`, random queries answered by `sift search --batch` and by sift-core.js under node, the
// answers compared field by field. Tests/js/differential.test.mjs runs a fixed seed in
// `make test`; run.mjs runs seeds for as long as DIFF_SECONDS in `make fuzz` and keeps each
// disagreement as a fixture in Tests/Fixtures/differential/.
import { isDeepStrictEqual } from "node:util";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SiftIndex, filePath, terms } from "../../Sources/SiftKit/Resources/sift-core.js";
import { excerpts } from "../../Sources/SiftKit/Resources/sift-excerpts.js";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const bin = process.env.SIFT_BIN ?? root + ".build/release/sift";
export const fixtures = root + "Tests/Fixtures/differential/";

/** mulberry32, with helpers: a failure reproduces from its seed. */
export function rng(seed) {
  let a = seed >>> 0;
  const r = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  r.int = (n) => Math.floor(r() * n);
  r.range = (lo, hi) => lo + r.int(hi - lo + 1);
  r.pick = (list) => list[r.int(list.length)];
  r.chance = (p) => r() < p;
  return r;
}

// Words of every script the engines must fold and split alike.
const WORDS = {
  latin: ["café", "crème", "brûlée", "naïve", "façade", "Ångström", "Øresund", "Straße", "İstanbul", "Łódź", "Dvořák",
    "São", "Paulo", "jalapeño", "piñata", "über", "Zürich", "résumé", "coöperate", "Chocolate", "caramel", "harbor",
    "arbor", "volcano", "island", "River", "mountain", "apple", "lemon", "Côte", "Ivoire", "ÉCOLE", "ﬁle", "ﬂow",
    "Ａｐｐｌｅ", "Ǆemal", "ǅuro", "ﬀ", "Æsir", "œuvre", "ı", "ŉ", "ß", "ẞig", "Ĳssel", "Ｓｅａ"],
  punct: ["e-mail", "Wi-Fi", "don't", "rock'n'roll", "A.B.C.", "C++", "U.S.A", "3.14", "co-op", "x86_64", "node.js",
    "l'été", "d'Ivoire", "jean-luc", "AT&T", "50%", "#hash", "@home", "(aside)", "«quote»", "—", "...", "¿qué?", "O'Brien",
    "well-known", "e.g.", "semi-colon;", "key:value", "a/b", "½", "①", "№7", "™", "°C"],
  greek: ["Αθήνα", "Σοφία", "ΟΔΥΣΣΕΥΣ", "λόγος", "θάλασσα", "ήλιος", "Ἀριστοτέλης", "ΣΟΦΟΣ", "ψυχή", "Ἑλλάς", "ϐ", "ϑεός"],
  cyrillic: ["Москва", "ёжик", "йогурт", "Київ", "Санкт-Петербург", "щука", "Ёлка", "ЁЛКА", "Ґанок", "Ўзбек", "сёмга"],
  chinese: ["中华人民共和国", "北京", "上海", "文件", "搜索", "俄罗斯", "学习", "电脑", "中文", "你好世界", "數據", "圖書館"],
  japanese: ["東京", "ひらがな", "カタカナ", "ガラス", "パン", "ｶﾞﾗｽ", "がっこう", "日本語", "ポケモン", "ヴァイオリン", "ぱぴぷ", "〜"],
  korean: ["서울", "한국어", "검색", "파일", "사랑", "한글", "ㄱㄴㄷ", "값"],
  emoji: ["😀", "🍫", "👍🏽", "👨‍👩‍👧", "❤️", "🇫🇷", "1️⃣", "🙂🙃", "⭐", "☕"],
  digits: ["1960", "42", "٣٤", "007", "2024", "12,5", "१२"],
};
// Code points where Unicode tables of different ages may disagree: case pairs added late
// (Georgian Mtavruli, Cherokee), astral letters with case (Deseret, Adlam), compatibility
// forms (math letters, circled, fullwidth, ligatures), marks of every kind, joiners, Hangul.
const RANGES = [[0x00c0, 0x024f], [0x0250, 0x02ff], [0x0300, 0x036f], [0x0370, 0x03ff], [0x0400, 0x052f], [0x0531, 0x0587],
  [0x05d0, 0x05ea], [0x0620, 0x065f], [0x0900, 0x097f], [0x0e01, 0x0e5b], [0x10a0, 0x10ff], [0x1c90, 0x1cbf], [0x13a0, 0x13f5],
  [0xab70, 0xabbf], [0x1e00, 0x1fff], [0x2100, 0x218f], [0x2460, 0x24ff], [0x3040, 0x30ff], [0x3131, 0x318e], [0xac00, 0xd7a3],
  [0x4e00, 0x4e80], [0xfb00, 0xfb4f], [0xff01, 0xffee], [0x10400, 0x1044f], [0x1e900, 0x1e95f], [0x1d400, 0x1d7ff],
  [0x1f300, 0x1f64f], [0x200b, 0x200f], [0xfe00, 0xfe0f], [0x1100, 0x11ff], [0x0f00, 0x0fff], [0x1680, 0x16a0]];
const SCRIPTS = Object.keys(WORDS);

function rare(r) {
  let s = "";
  for (let n = r.range(1, 5); n > 0; n--) {
    const [lo, hi] = r.pick(RANGES);
    s += String.fromCodePoint(r.range(lo, hi));
  }
  return s;
}
const SYL = ["ba", "ko", "ri", "mu", "te", "sa", "lo", "ni", "vé", "dú", "gha", "zo", "pé", "chi", "ny", "xa", "qui", "rö", "fa", "wy",
  "an", "ek", "or", "ul", "bro", "sta", "mi", "ge", "hu", "jo", "ka", "le", "mo", "ne", "pi", "ru", "si", "tu", "vo", "ze"];

function word(r, { made = 0.35 } = {}) {
  if (r.chance(made)) return Array.from({ length: r.range(1, 4) }, () => r.pick(SYL)).join("");
  if (r.chance(0.08)) return rare(r);
  return r.pick(WORDS[r.pick(SCRIPTS)]) + (r.chance(0.05) ? rare(r) : "");
}

/** Space between words: mostly one space, sometimes none (CJK runs) or other white space. */
const gap = (r) => r.pick([" ", " ", " ", " ", " ", "  ", "", "\u00a0", "\u3000", " - ", ", "]);

function text(r, n, opts) {
  let s = word(r, opts);
  for (let i = 1; i < n; i++) s += gap(r) + word(r, opts);
  return s.trim();
}

/**
 * A random site as files: collections (JSON, CSV or text datasets, Markdown bodies), pages.
 * `size` fixes the number of items, and then every collection has bodies (a large one shards).
 */
export function site(seed, { size: fixed } = {}) {
  // Facets and sort fields from a generator of their own: the rest of a seed's site stays as it was.
  const r = rng(seed), files = {}, facetRng = rng(seed * 31 + 7);
  const random = r.chance(0.15) ? r.range(1, 5) : r.chance(0.2) ? r.range(1500, 5000) : r.range(5, 400), size = fixed ?? random;
  const names = ["alpha", "beta", "gamma", "delta"].slice(0, r.range(1, size < 3 ? 1 : 3));
  let left = size;
  names.forEach((name, ci) => {
    const count = ci === names.length - 1 ? left : Math.max(1, Math.floor(left * r.range(20, 70) / 100));
    left -= count;
    const kinds = ["Red", "Green", "Blue", "Ünïcode", "日本", "Zéro Space"].slice(0, r.range(1, 6));
    const format = r.pick(["json", "json", "csv", "txt"]);
    const scoped = format !== "txt" && r.chance(0.8);
    const settings = [`title: ${name[0].toUpperCase() + name.slice(1)}`];
    if (format !== "txt") settings.push("title_field: name");
    if (scoped) {
      settings.push("scope_field: kind");
      if (r.chance(0.5)) settings.push(`scopes: [${kinds.map((k) => JSON.stringify(k)).join(", ")}]`);
    }
    if (format !== "txt" && r.chance(size > 1000 ? 0.8 : 0.5)) settings.push(`search_fields: [name${r.chance(size > 1000 ? 0.8 : 0.5) ? ", tag" : ""}${scoped && r.chance(0.3) ? ", kind" : ""}]`);
    if (r.chance(0.15) && !fixed) settings.push("search_body: false");
    const faceted = format !== "txt" && facetRng.chance(0.6);
    if (faceted) settings.push("facets: [hue, tags]", "sort_fields: [size, name]", ...(format === "csv" ? ['list_separator: ";"'] : []));
    files[`Content/${name}/collection.yml`] = settings.join("\n") + "\n";
    const rows = [];
    for (let i = 0; i < count; i++) {
      // Unique slugs: an explicit one, or a title made unique by its number.
      let title = text(r, size > 1000 ? r.range(2, 9) : r.range(1, 4));
      const explicit = format !== "txt" && r.chance(0.3);
      if (!explicit) title = r.chance(0.7) ? `${title} n${i}` : `n${i}${r.pick([" ", "-"])}${title}`;
      rows.push({ slug: explicit ? `s${i}` : null, name: title, kind: scoped && r.chance(0.9) ? r.pick(kinds) : "",
        tag: size > 1000 ? text(r, r.range(4, 16)) : r.chance(0.6) ? (r.chance(0.5) ? r.pick(kinds) + " " + r.pick(SYL) : text(r, r.range(1, 2))) : "" });
      // A hue (or none), 0-3 tags (a value may hold a comma), a size: a number, text or nothing.
      if (faceted) Object.assign(rows.at(-1), { hue: facetRng.chance(0.9) ? facetRng.pick(HUES) : "",
        tags: Array.from({ length: facetRng.int(4) }, () => facetRng.pick(TAGS)),
        size: facetRng.chance(0.8) ? String(facetRng.range(-50, 5000) / facetRng.pick([1, 10])) : facetRng.chance(0.5) ? facetRng.pick(TAGS) : "" });
    }
    if (format === "json") {
      files[`Content/${name}/${name}.json`] = JSON.stringify(rows.map(({ slug, ...row }) => (slug ? { slug, ...row } : row)), null, 1);
      // A CSV cell of tags: split on ";", a tag with ";" or a quote inside written in quotes.
    } else if (format === "csv") {
      const cell = (v) => (/[",\n\r]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v);
      const head = [...(rows.some((x) => x.slug) ? ["slug"] : []), "name", "kind", "tag", ...(faceted ? ["hue", "tags", "size"] : [])];
      for (const x of rows) if (faceted) x.tags = x.tags.map((t) => (/[;"]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t)).join(";");
      // With a slug column every row names its own.
      if (head[0] === "slug") rows.forEach((x, i) => (x.slug ??= `d${i}`));
      files[`Content/${name}/${name}.csv`] = [head.join(","), ...rows.map((x) => head.map((h) => cell(x[h] ?? "")).join(","))].join("\n") + "\n";
    } else {
      files[`Content/${name}/${name}.txt`] = rows.map((x) => x.name.replace(/\s+/g, " ")).join("\n") + "\n";
    }
    // Bodies: a Markdown page for most rows, named by the row's slug (explicit, else the title's).
    const bodyShare = fixed ? r.pick([0.9, 1]) : r.pick([0, 0.5, 0.9, 1]), long = size > 1000 ? 3 : 1;
    rows.forEach((x, i) => {
      if (!r.chance(bodyShare)) return;
      const slug = x.slug ?? slugOf(format === "txt" ? x.name.replace(/\s+/g, " ") : x.name);
      if (!slug) return;
      // Some paragraphs open a section: excerpts and sections are compared too.
      const paragraphs = Array.from({ length: r.range(1, 3) * long }, (_, k) => (k && r.chance(0.3) ? `### ${text(r, r.range(1, 3))}\n\n` : "") + text(r, r.range(3, 40), { made: 0.5 }));
      const heading = r.chance(0.4) ? `## ${text(r, r.range(1, 3))}\n\n` : "";
      files[`Content/${name}/${slug}.md`] = `${heading}${paragraphs.join("\n\n")}\n`;
    });
  });
  for (let p = r.int(3); p > 0; p--) files[`Content/page${p}.md`] = `# ${text(r, r.range(1, 3))} ${p}\n\n${text(r, r.range(5, 30), { made: 0.5 })}\n`;
  return files;
}

const HUES = ["Red", "red", "Grün", "Blau", "10", "9", "日本", "Zéro, Space"];
const TAGS = ["a", "b", "Ünï", "x, y", "semi;colon", "1.5", "-2", "ça"];

/** Sift's slug (docs/content.md, "Slugs") for file names: NFKD, marks dropped, lowercase, non-letters to "-". */
function slugOf(s) {
  return s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
}

/** Writes files under a new folder in /dev/shm (else the system's temporary folder). */
export function writeSite(files, prefix = "sift-diff-") {
  const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), prefix));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), body);
  }
  return dir;
}

/** Builds the site in `dir` with the release sift; `env` adds to its environment (`SIFT_ANSWERS_FROM`). */
export function build(dir, env = {}) {
  execFileSync(bin, ["build", "--site", dir, "--quiet"], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
}

/**
 * Writes the site of `files` (its folder named from `prefix`), builds it with `env` added to
 * sift's environment, hands its folder to `check`, and removes it whatever `check` does.
 */
export async function withBuiltSite(files, prefix, env, check) {
  const dir = writeSite(files, prefix);
  try {
    build(dir, env);
    return await check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Changes case and accents as a visitor might type a query. */
function mangle(s, r) {
  if (!r.chance(0.4)) return s;
  let out = "";
  for (const c of s) {
    const k = r.int(8);
    out += k === 0 ? c.toUpperCase() : k === 1 ? c.normalize("NFD") : k === 2 && c === "o" ? "ô" : k === 3 && c === "e" ? "É" : c;
  }
  return out;
}

function typo(w, r) {
  const c = [...w], i = r.int(c.length);
  switch (r.int(4)) {
    case 0: c[i] = r.pick([..."aeiourst"]); break;
    case 1: c.splice(i, 1); break;
    case 2: c.splice(i, 0, r.pick([..."aeiourst"])); break;
    default: if (i + 1 < c.length) [c[i], c[i + 1]] = [c[i + 1], c[i]];
  }
  return c.join("");
}

const cut = (s, r, max = 8) => {
  const c = [...s], start = r.int(c.length), len = r.range(1, max);
  return c.slice(start, start + len).join("");
};

/** Random requests for a built site: `{query, scope, collection, limit}`, typing sequences in order. */
export function queries(seed, count, info) {
  const r = rng(seed), out = [], facetRng = rng(seed * 31 + 11);
  const { titles, bodies, collections } = info;
  const any = (list) => (list.length ? r.pick(list) : "");
  while (out.length < count) {
    const title = any(titles), body = any(bodies);
    let qs;
    switch (r.int(17)) {
      case 0: qs = [cut(title, r)]; break;
      case 1: qs = [...title].slice(0, r.range(3, 12)).map((_, i, a) => a.slice(0, i + 1).join("")); break; // typing
      case 2: qs = [typo(any(title.split(/\s+/).filter((w) => [...w].length > 3)) || title, r)]; break;
      case 3: qs = [cut(body, r, 3)]; break;
      case 4: qs = [Array.from({ length: r.range(2, 4) }, () => cut(r.chance(0.5) ? body : title, r, 6)).join(" ")]; break;
      case 5: qs = [cut(any(WORDS[r.pick(["chinese", "japanese", "korean"])]), r, 3)]; break;
      case 6: qs = [r.pick(["", " ", "\t", "\u3000", "  \n "])]; break;
      case 7: qs = [cut(body, r, 12)]; break;
      case 8: qs = [any(body.split(/\s+/)).replace(/[^\p{L}\p{N}]/gu, "")]; break; // "email" for "e-mail"
      case 9: qs = [typo(cut(body, r, 10), r)]; break;
      case 10: qs = [word(r) + " " + cut(title, r, 4)]; break;
      case 11: qs = [typo(cut(r.chance(0.5) ? title : body, r, 48), r)]; break; // long terms: bit vectors past 32
      case 12: qs = [rare(r)]; break;
      case 13: qs = [cut(body, r, 6) + " " + (any(body.split(/\s+/).filter((w) => [...w].length < 3)) || cut(body, r, 2))]; break; // "files by"
      case 14: qs = [...cut(body, r, 14)].map((_, i, a) => a.slice(0, i + 1).join("")); break; // typing across words
      case 15: qs = [Array.from({ length: r.range(2, 3) }, () => r.pick(WORDS[r.pick(["chinese", "japanese"])])).join("")]; break; // a CJK question: words without spaces, as the pieces of partial matches
      default: qs = [cut(title, r, 3)];
    }
    const c = r.chance(0.25) ? r.pick(collections) : null;
    const offered = [...new Set((c ? [c] : collections).flatMap((x) => x.scopes))];
    let scope = offered.length && r.chance(0.4) ? r.pick(offered) : r.chance(0.02) ? "Nope" : "All";
    // A scope is matched exactly: not folded, not normalized.
    if (r.chance(0.03)) scope = r.pick([scope.normalize("NFD"), scope.toLowerCase(), scope + " "]);
    const limit = r.chance(0.2) ? r.pick([0, 1, 3, 10]) : null;
    // Filters and a sort from a generator of their own, among the facets the collections offer.
    const facets = Object.assign({}, ...(c ? [c] : collections).map((x) => x.facets ?? {}));
    const fields = Object.keys(facets), pick = facetRng.chance(0.5) && fields.length;
    const filters = pick ? Object.fromEntries(fields.filter(() => facetRng.chance(0.6)).map((f) => [f, facets[f].filter(() => facetRng.chance(0.3))])) : null;
    const sort = pick && facetRng.chance(0.5) ? facetRng.pick(["size", "-size", "name", "-name"]) : null;
    for (const q of qs) out.push({ query: mangle(q, r), scope, collection: c?.name ?? null, limit, ...(pick && { filters, sort, facets: true }) });
  }
  return out;
}

/** Titles, bodies and collections of a built site, from its index and Content/, for queries. */
export function describe(dir, files) {
  const m = JSON.parse(readFileSync(join(dir, "public/search/manifest.json"), "utf8"));
  const titles = [], collections = [];
  for (const c of m.collections) {
    // Its table, in its manifest, a file, or parts: its first 400 titles.
    const read = (docs) => (typeof docs === "string" ? JSON.parse(readFileSync(join(dir, "public/search", filePath(docs, m.files)), "utf8")) : docs);
    if (c.docs) titles.push(...[].concat(c.docs).flatMap((docs) => read(docs).fields[0].values).slice(0, 400));
    const facets = c.facets && JSON.parse(readFileSync(join(dir, "public/search", filePath(c.facets, m.files)), "utf8")).facets;
    collections.push({ name: c.name, scopes: c.scopes, facets: facets && Object.fromEntries(facets.map((f) => [f.name, f.values])) });
  }
  // The ranked layout has no tables: the titles in its records, the text files' in order.
  if (m.version > 5) {
    const folder = join(dir, "public/search/immutable"), number = (name) => +name.split(/[-.]/)[1];
    const texts = readdirSync(folder).filter((name) => name.startsWith("text-")).sort((a, b) => number(a) - number(b));
    titles.push(...texts.flatMap((name) => JSON.parse(readFileSync(join(folder, name), "utf8")).map((entry) => entry[0][2][0])).slice(0, 400 * m.collections.length));
  }
  const bodies = Object.entries(files).filter(([k]) => k.endsWith(".md")).slice(0, 400).map(([, v]) => v);
  return { titles, bodies, collections };
}

/** A fetch over the built files. */
function fileFetch() {
  return async (url) => {
    try {
      const text = await readFile(fileURLToPath(url), "utf8");
      return { ok: true, status: 200, json: async () => JSON.parse(text) };
    } catch {
      return { ok: false, status: 404 };
    }
  };
}

/**
 * `sift search --batch` over the requests, in a process of its own while this one goes on: one
 * answer (or `{error}`) each.
 */
export function swiftAnswers(dir, requests) {
  const input = requests.map((q) => JSON.stringify(Object.fromEntries(Object.entries(q).filter(([, v]) => v != null)))).join("\n") + "\n";
  return new Promise((resolve, reject) => {
    const child = execFile(bin, ["search", "--batch", "--site", dir], { encoding: "utf8", maxBuffer: 1 << 30 }, (error, stdout, stderr) =>
      error ? reject(new Error(`sift search --batch: ${stderr || error.message}`)) : resolve(stdout.trimEnd().split("\n").map((line) => JSON.parse(line))));
    child.stdin.end(input);
  });
}

// The results of each answer whose excerpts and sections are compared too.
const EXCERPTS = 10;
// Requests a `sift search --batch` answers: both engines' answers to a site's every query, each
// with every result, would take gigabytes on a large site.
const CHUNK = 250;

/**
 * Every request through both engines at once, `sift search --batch` in its process and
 * sift-core.js in this one, CHUNK requests at a time; sift-core.js answers them in order on one
 * index, as a visitor typing would (its narrowing of the last answer is under test too). With
 * `scopeCounts`, sift-core.js's scope counts must equal `sift search`'s totals of the same
 * request with each scope (`scopeTotals`, as `--scope S` answers). Returns the disagreements and
 * how many searches `sift search` ran.
 */
export async function compare(dir, requests, { scopeCounts = true } = {}) {
  const manifest = pathToFileURL(join(dir, "public/search/manifest.json")), index = await SiftIndex.load(manifest, { fetch: fileFetch() });
  const diffs = [];
  let count = 0;
  for (let first = 0; first < requests.length; first += CHUNK) {
    const chunk = requests.slice(first, first + CHUNK);
    const swiftAnswered = swiftAnswers(dir, chunk.map((q) => ({ ...q, excerpts: EXCERPTS, scopeTotals: scopeCounts })));
    // Settled even when the JavaScript side throws first, so no rejection goes unhandled.
    swiftAnswered.catch(() => {});
    const js = [];
    for (const q of chunk) {
      try {
        const answer = await index.search(q.query, { scope: q.scope, collection: q.collection, limit: q.limit ?? Infinity,
          filters: q.filters ?? {}, sort: q.sort ?? undefined, facets: q.facets });
        await excerpts(index, answer.results.slice(0, EXCERPTS), q.query);
        js.push(answer);
      } catch (e) {
        js.push({ error: e.message });
      }
    }
    const swift = await swiftAnswered;
    chunk.forEach((q, i) => {
      const why = disagreement(swift[i], js[i], q);
      if (why) diffs.push({ request: q, index: first + i, why, swift: swift[i], js: js[i] });
    });
    count += swift.reduce((n, a) => n + 1 + Object.keys(a.scopeTotals ?? {}).length, 0);
  }
  return { diffs, count };
}

function disagreement(swift, js, q) {
  // Both refuse an unknown scope; any other error is a failure of its own.
  const refused = (e) => /^unknown (scope|collection)/.test(e ?? "");
  if (swift.error || js.error) return refused(swift.error) && refused(js.error) ? null : `error: ${swift.error ?? ""} / ${js.error ?? ""}`;
  const { scopeCounts, partial, facets, ...rest } = js;
  const { facets: swiftFacets, scopeTotals, ...swiftRest } = swift;
  const results = rest.results.map(({ position, ...x }) => x);
  // Facet counts as objects: JavaScript lists an integer-like value first.
  if (facets && !isDeepStrictEqual(facets, swiftFacets)) return `facets ${JSON.stringify(swiftFacets)} vs ${JSON.stringify(facets)}`;
  if (JSON.stringify({ ...rest, results }) !== JSON.stringify(swiftRest)) {
    if (swift.total !== rest.total) return `total ${swift.total} vs ${rest.total}`;
    const k = results.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(swift.results[i]));
    return `result ${k}: ${JSON.stringify(swift.results[k])} vs ${JSON.stringify(results[k])}`;
  }
  if (scopeCounts[q.scope] !== swift.total) return `scope count ${q.scope}: ${swift.total} vs ${scopeCounts[q.scope]}`;
  if (scopeTotals && !isDeepStrictEqual(scopeCounts, scopeTotals)) return `scope counts ${JSON.stringify(scopeTotals)} vs ${JSON.stringify(scopeCounts)}`;
  return null;
}

/**
 * Keeps a disagreement as a fixture: the site (cut down to the items either engine returned,
 * when that still disagrees) and the requests up to it (sift-core.js's answer may depend on the
 * ones before). Returns the fixture's path.
 */
export async function keep(files, requests, diff, name) {
  const upTo = requests.slice(Math.max(0, diff.index - 12), diff.index + 1);
  let kept = files;
  const small = reduce(files, diff);
  if (small) {
    const dir = writeSite(small);
    try {
      build(dir);
      if ((await compare(dir, upTo)).diffs.length) kept = small;
    } catch {} finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  mkdirSync(fixtures, { recursive: true });
  const path = fixtures + name + ".json";
  writeFileSync(path, JSON.stringify({ why: diff.why, requests: upTo, files: kept }, null, 1) + "\n");
  return path;
}

/** The site without the dataset rows and pages neither answer mentions (null if nothing to drop). */
function reduce(files, diff) {
  const wanted = new Set([...(diff.swift.results ?? []), ...(diff.js.results ?? [])].map((x) => x.slug));
  if (!wanted.size) return null;
  const out = {};
  for (const [rel, body] of Object.entries(files)) {
    if (rel.endsWith(".json") && rel.split("/").length === 3) {
      out[rel] = JSON.stringify(JSON.parse(body).filter((row) => wanted.has(row.slug ?? slugOf(row.name))), null, 1);
    } else out[rel] = body;
  }
  return JSON.stringify(out) === JSON.stringify(files) ? null : out;
}

export { terms };
