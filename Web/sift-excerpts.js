// Excerpts for sift-core.js ("Excerpts" in docs/search-index.md; Excerpt.swift and
// SearchIndex+Excerpts.swift in Swift): a body match's excerpt and the sections of its page that
// hold the terms, from the index's text files. Loaded only when results on screen need them.
import { CJK, fold, terms } from "./sift-core.js";

const codePoints = (text) => [...text];
// A corrupt text file rejects with this, as a corrupt index does in sift-core.js.
const corruptIndex = (cause) => {
  throw Error("sift: bad index", { cause });
};

/**
 * "Excerpts" (SearchIndex.excerpts): gives each of `results` (of `index`, a SiftIndex) its
 * `excerpt` and `sections`, from the text files of the body matches among them, fetched
 * together. Rejects as a corrupt index.
 */
export async function excerpts(index, results, query) {
  const queryTerms = [...new Set(terms(query))];
  await Promise.all(results.map(async (result) => {
    result.excerpt = null;
    result.sections = [];
    // The ranked layout's results say their document (sift-ranked.js); else it follows from the position.
    const doc = result.doc ?? index.tables.find((table) => table.collection.name == result.collection).first + result.position;
    if (result.match != "body" || !index.manifest.texts) return;
    let entry = await textEntry(index, doc);
    // The ranked layout's entries start with their document's record.
    if (index.manifest.version > 5) entry = entry?.slice(1);
    if (entry?.length) (result.excerpt = excerpt(wholeText(entry), queryTerms)), (result.sections = sections(entry, queryTerms, result.url));
  })).catch(corruptIndex);
  return results;
}

/**
 * "Text files": document `doc`'s entry in its text file (of `index`, a SiftIndex), the file
 * fetched once; undefined past the file's end. The ranked layout reads its records so too.
 */
export async function textEntry(index, doc) {
  const { texts: perFile, textGroup, files = {} } = index.manifest, number = doc / perFile | 0;
  // A text file is named by its group's hash, in the manifest's files.
  const name = `text-${number}.json`, group = files[`texts-${number / textGroup | 0}`];
  return (await fetchOnce(index, name, group ? `immutable/text-${number}.${group}.json` : name))[doc % perFile];
}

// A file of the index by the name it calls it (at `path` when given), fetched once; a failed one
// is asked for again by the next rows that need it.
function fetchOnce(index, name, path = name) {
  return (index.files[name] ??= index.fetchJSON(path).catch((error) => {
    delete index.files[name];
    throw error;
  }));
}

// "Excerpts" (Excerpt.swift): about 25 words of a document's text around its best hit, and the
// sections holding the terms. Lengths in code points of the text, its white space collapsed.
const SPAN = 160, LEAD = 40, REACH = 80;

// "Excerpts" (Excerpt.markedTerms): terms of 3+ code points, and those holding a code point
// outside ASCII (文件, 斯): a short ASCII term ("by") would mark every word holding it.
export function markedTerms(queryTerms) {
  return queryTerms.filter((term) => term.length > 2 || /[^\0-\x7f]/.test(term));
}

// "Excerpts" (Excerpt.wholeText): the text before the first heading, then each section's title and text.
function wholeText(entry) {
  return entry.filter((_, i) => i % 3 != 1).join("\n");
}

// "Excerpts" (Excerpt.hits): each term's occurrences in the code points folded one by one, as
// [start, end, term] over the code points, by start, then term: unit u of the folds lies in the
// fold of code point starts[u], and a hit ending there takes in the code points up to ends[u]
// (those after it that fold to nothing, as a dropped accent, with it).
function hits(chars, queryTerms) {
  const starts = [], ends = [], out = [], folds = {};
  let folded = "";
  chars.forEach((char, i) => {
    // Each code point's fold once: a text repeats its letters.
    const foldedChar = (folds[char] ??= fold(char));
    if (!foldedChar && i) ends[ends.length - 1] = i + 1;
    for (const _ of foldedChar.split("")) starts.push(i), ends.push(i + 1);
    folded += foldedChar;
  });
  // Joined words: a term also runs across a code point that joins two word code points.
  const { joined, units } = joinedText(folded);
  queryTerms.forEach((term, t) => {
    for (let at = folded.indexOf(term); at >= 0; at = folded.indexOf(term, at + 1)) out.push([starts[at], ends[at + term.length - 1], t]);
    if (joined.length == folded.length) return;
    // Only occurrences across a left-out code point: the others were found above.
    for (let at = joined.indexOf(term), last; at >= 0; at = joined.indexOf(term, at + 1)) {
      if ((last = units[at + term.length - 1]) - units[at] != term.length - 1) out.push([starts[units[at]], ends[last], t]);
    }
  });
  return out.sort((left, right) => left[0] - right[0] || left[2] - right[2]);
}

const WORD = /[\p{L}\p{M}\p{N}]/u;

// "Excerpts" (Excerpt.joinedText): joined words (docs/search-index.md) in folded text: the text without
// each code point that joins two word code points outside CJK text (`hardcrack` of `hard-crack`),
// and `units`, each of its UTF-16 units' place in the text.
export function joinedText(folded) {
  const points = [...folded], units = [];
  let joined = "", unit = 0;
  points.forEach((point, k) => {
    if (!(k && isJoiner(point, points[k - 1], points[k + 1]))) for (let i = 0; i < point.length; i++) (joined += point[i]), units.push(unit + i);
    unit += point.length;
  });
  return { joined, units };
}

// "Excerpts" (Excerpt.isJoiner): whether a code point joins the word code points on either side of
// it (outside CJK text) into one word, as `-` in `e-mail`: it is neither a word code point nor white space.
function isJoiner(point, before, after) {
  return !WORD.test(point) && !/\p{White_Space}/u.test(point) && [before, after].every((c) => c && WORD.test(c) && !CJK.test(c));
}

// "Excerpts" (Excerpt.marks): code points from … to - 1 as strings whose odd-numbered ones are
// the hits (clipped to them), one mark where hits overlap or meet.
function marks(chars, found, from, to) {
  const parts = [""], slice = (start, end) => chars.slice(start, end).join("");
  let at = from;
  for (let [start, end] of found) {
    start = Math.max(start, at);
    end = Math.min(end, to);
    if (end <= start) continue;
    if (start > at || !parts[1]) parts[parts.length - 1] += slice(at, start), parts.push(slice(start, end), "");
    else parts[parts.length - 2] += slice(at, end);
    at = end;
  }
  parts[parts.length - 1] += slice(at, to);
  return parts;
}

/** "Excerpts" (Excerpt.excerpt): strings whose odd-numbered ones are the marked terms, "…" where the text goes on. */
export function excerpt(text, queryTerms) {
  const chars = codePoints(text.replace(/\p{White_Space}+/gu, " ").replace(/^ | $/g, "")), found = hits(chars, markedTerms(queryTerms)), n = chars.length;
  // The best hit: the most distinct terms among the hits from it on that start within REACH of it; the first on ties.
  let start = 0, end = 0, worth = 0;
  found.forEach((hit, i) => {
    const near = new Set();
    for (let k = i; found[k]?.[0] < hit[0] + REACH; k++) near.add(found[k][2]);
    if (near.size > worth) [start, end] = hit, worth = near.size;
  });
  let from = Math.max(0, Math.min(start - LEAD, n - SPAN)), to = Math.min(n, from + SPAN), space = chars.indexOf(" ", from);
  if (from && space >= 0 && space < start) from = space + 1;
  space = chars.lastIndexOf(" ", to - 1);
  if (to < n && space >= Math.max(end, from)) to = space;
  const parts = marks(chars, found, from, to);
  if (from) parts[0] = "…" + parts[0];
  if (to < n) parts[parts.length - 1] += "…";
  return parts;
}

// "Excerpts" (Excerpt.sections): the first 3 sections whose folded title and text hold a marked
// term, each with its excerpt.
function sections(entry, queryTerms, url) {
  const marked = markedTerms(queryTerms), out = [];
  for (let at = 1; at < entry.length - 2 && out.length < 3; at += 3) {
    const folded = fold(entry[at + 1] + "\n" + entry[at + 2]);
    if (marked.some((term) => folded.includes(term))) out.push({ title: entry[at + 1], url: url + "#" + entry[at], excerpt: excerpt(entry[at + 2], queryTerms) });
  }
  return out;
}
