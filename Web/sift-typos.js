// The matches a query with few full matches adds, for sift-core.js: partial matches ("Partial
// matches" in docs/search-index.md; SearchIndex.partialMatch in Swift) and typo matching ("Typos";
// SearchIndex.fuzzyMatch and substringDistance): loaded only when a query has fewer than 5 matches.
import { isCJK } from "./sift-core.js";

const codePoints = (text) => [...text];

// "Partial matches", then "Typos", for a search of sift-core.js: its terms, full matches (`hits`),
// documents, scope, scopes and which of them have few matches, filters (`passes`). Only the items
// of the scopes with few matches can show partial and typo matches, so only theirs are searched;
// returns the matches to rank (none unless the scope asked for has few), and counts every one in
// `scopeCounts`.
export async function fewMatches(index, { searched, hits, pool, scope, scopes, few, passes, scopeCounts }) {
  const { documentScopes } = index, fewScopes = few("All") ? "" : scopes.filter(few).join("\n");
  const typos = (pool.typos[fewScopes] ??= { documents: fewScopes ? pool.documents.filter((doc) => few(documentScopes[doc])) : pool.documents, sets: {} });
  const documents = unmatched(typos.documents, hits, passes);
  const cut = pieces(searched.map((term) => term.text)), terms = cut ? await index.searchedTerms(cut, {}) : searched;
  const partial = terms.length > 1 ? partialMatches(index, terms, documents) : [];
  const fuzzy = searched.some((term) => term.typoEdits) ? fuzzyMatches(index, searched, partial.length ? without(documents, partial) : documents, typos) : [];
  const extra = [], matched = scopeCounts[scope], fewAll = few("All");
  for (const found of [partial, fuzzy]) {
    for (const hit of found) {
      const name = documentScopes[hit.doc];
      if (matched < 5 && (scope === "All" || name === scope)) extra.push(hit);
      if (fewAll) scopeCounts.All++;
      if (few(name)) scopeCounts[name]++;
    }
  }
  return extra;
}

// "Partial matches" (SearchIndex.pieces): the query's pieces, its terms with each CJK term of 4
// or more code points cut into pairs from its start (an odd last one alone), identical ones once;
// null when no term is cut.
export function pieces(terms) {
  const long = (term) => codePoints(term).length > 3 && isCJK(term);
  return terms.some(long) ? [...new Set(terms.flatMap((term) => (long(term) ? term.match(/..?/gsu) : [term])))] : null;
}

// "Partial matches" (SearchIndex.partialMatch): the documents with every piece, or every piece
// but one, a piece that searches bodies on its own among those held; scored by the pieces.
function partialMatches(index, searched, documents) {
  const missing = new Uint8Array(index.count), alone = new Uint8Array(index.count), out = [];
  for (const term of searched) {
    const inFields = new Uint8Array(index.count), body = term.body ?? inFields;
    for (const doc of index.fieldMatches(term.text, documents)) inFields[doc] = 1;
    for (let i = 0; i < documents.length; i++) {
      const doc = documents[i];
      if (!inFields[doc] && !body[doc] && !term.anyBody) missing[doc]++;
      else if (term.searchesAlone) alone[doc] = 1;
    }
  }
  const phrase = searched.map((term) => term.text).join(" ");
  for (let i = 0; i < documents.length; i++) {
    const doc = documents[i];
    if (missing[doc] < 2 && alone[doc]) out.push({ doc, match: "partial", group: 4, distance: 0, score: index.score(doc, searched, phrase, -1) });
  }
  return out;
}

// The documents of `documents` that are not among `hits` (both ascending) and pass the filters.
// Loops of their own: V8 optimizes each apart, where one inside fewMatches made it leave its
// optimized code at every call.
function unmatched(documents, hits, passes) {
  const out = new Int32Array(documents.length);
  let count = 0;
  for (let i = 0, hit = 0; i < documents.length; i++) {
    while (hits[hit] < documents[i]) hit++;
    if (hits[hit] !== documents[i] && passes(documents[i])) out[count++] = documents[i];
  }
  return out.subarray(0, count);
}

// The documents of `documents` but those of `hits` (both ascending).
function without(documents, hits) {
  const out = new Int32Array(documents.length);
  let count = 0;
  for (let i = 0, hit = 0; i < documents.length; i++) {
    while (hits[hit]?.doc < documents[i]) hit++;
    if (hits[hit]?.doc !== documents[i]) out[count++] = documents[i];
  }
  return out.subarray(0, count);
}

// "Typos" (SearchIndex.fuzzyMatch): the documents of `documents` with every term in a field or
// within its edits of a substring of the title, one at least the second way; the edits summed
// are the distance, and `words` counts the terms of the second way that a word of the title is
// within their edits of.
function fuzzyMatches(index, searched, documents, typos) {
  const out = [], patterns = searched.map((term) => codePoints(term.text));
  const edits = searched.map((term) => typoEdits(index, term, typos));
  // Only a document every term fits can match: those of the term fitting fewest, in list order,
  // that are among `documents` (both ascending).
  const fewest = edits.reduce((fewest, made) => (made.size < fewest.size ? made : fewest));
  for (let i = 0, at = 0, candidates = (fewest.sorted ??= Int32Array.from(fewest.keys()).sort()); i < candidates.length; i++) {
    const doc = candidates[i];
    while (documents[at] < doc) at++;
    if (documents[at] !== doc) continue;
    let distance = 0, fits = true;
    for (const made of edits) {
      if (!made.has(doc)) fits = false;
      else distance += made.get(doc);
    }
    if (!fits || !distance) continue;
    // The ranked layout (sift-ranked.js) has no titles: its typo fits say whose title words of the
    // term's typo keys hold one within the edits, whole.
    const titleWords = index.typoFits ? null : index.foldedTitles[doc].match(WORDS) ?? [];
    const whole = (term, i) => (titleWords ? titleWords.some((word) => wordDistance(patterns[i], codePoints(word), term.typoEdits)) : index.typoFits(term.text, term.typoEdits).whole.has(doc));
    const words = searched.filter((term, i) => edits[i].get(doc) && whole(term, i)).length;
    out.push({ doc, match: "fuzzy", group: 5, distance, words });
  }
  return out;
}

const WORDS = /[\p{L}\p{M}\p{N}]+/gu;

// "Typos" (SearchIndex.wordDistance): whether `word` is within `within` edits of `pattern`, the
// whole of both (optimal string alignment, a swap of adjacent code points one edit).
export function wordDistance(pattern, word, within) {
  return Math.abs(pattern.length - word.length) <= within && alignment(pattern, word)[word.length] <= within;
}

// "Typos": the edits a term needs in each document of the typo set that it fits (0: in a field),
// kept for the page's lifetime. A title within k edits of "chocla" is within k of "chocl": a
// kept term inside this one, with the same k, gives the only documents to test.
function typoEdits(index, { text, typoEdits: within }, typos) {
  if (typos.sets[text]) return typos.sets[text];
  let documents = typos.documents;
  // A term of no edits fits where a field holds it: often most documents for a short one, kept as
  // a bit per document rather than a Map entry each (at a million documents, 100 ms and more).
  if (!within) {
    const sorted = index.fieldMatches(text, documents), fits = new Uint8Array(index.count);
    for (const doc of sorted) fits[doc] = 1;
    return (typos.sets[text] = { within, sorted, size: sorted.length, keys: () => sorted, has: (doc) => fits[doc] === 1, get: () => 0 });
  }
  // The ranked layout looks at the title words of the term's typo keys only ("Typos"): their
  // fits, which sift-ranked.js read before this search, among the documents of scopes with few matches.
  const fits = index.typoFits?.(text, within);
  if (fits) {
    const made = new Map(Array.from(index.fieldMatches(text, documents), (doc) => [doc, 0])), among = new Uint8Array(index.count);
    for (const doc of documents) among[doc] = 1;
    for (const [doc, edits] of fits.edits) if (among[doc] && !made.has(doc)) made.set(doc, edits);
    made.within = within;
    return (typos.sets[text] = made);
  }
  for (const kept in typos.sets) if (text.includes(kept) && typos.sets[kept].within === within) documents = Int32Array.from(typos.sets[kept].keys()).sort();
  const made = new Map(Array.from(index.fieldMatches(text, documents), (doc) => [doc, 0])), pattern = codePoints(text), counts = new Map();
  // Each title's letters, hashed to bits (`letterBits`), made once: more than `within` of the
  // term's bits missing from a title's is too far, with no look at the title itself.
  // A term with an astral code point (two code units, two bits) is looked for the slow way only.
  const astral = /[\ud800-\udfff]/.test(text), bits = within && (index.titleBits ??= Int32Array.from(index.foldedTitles, letterBits)), wanted = astral ? 0 : letterBits(text);
  // Within one edit, a substring holds the term's first half or its second whole, or the term
  // with the two code points where they meet swapped (an edit inside one half leaves the other).
  const halves = within == 1 && !astral && split(pattern);
  // Indexed: the loop meets up to every item before V8 has optimized it.
  for (let i = 0; within && i < documents.length; i++) {
    const doc = documents[i], title = index.foldedTitles[doc];
    if (missing(wanted & ~bits[doc]) > within || (halves && !halves.some((part) => title.includes(part)))) continue;
    const distance = made.has(doc) || (astral ? tooFar(pattern, title, within, counts) : tooFarUnits(text, title, within)) ? null : substringDistance(pattern, title, within);
    if (distance != null) made.set(doc, distance);
  }
  made.within = within;
  return (typos.sets[text] = made);
}

// "Typos" in the ranked layout (SearchIndex.prefixDistance): the fewest edits turning `pattern`
// into some start of `word` (its first j code points, any j), when at most `within`, else null:
// the least of the same table's last row.
export function prefixDistance(pattern, word, within) {
  const best = Math.min(...alignment(pattern, word));
  return best <= within ? best : null;
}

// SearchIndex.alignment: the last row of the optimal string alignment table of `pattern` against
// `word`, entry j the fewest edits turning `pattern` into the first j code points of `word`.
function alignment(pattern, word) {
  let rows = [[], [], Array.from({ length: word.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= pattern.length; i++) {
    const row = [i];
    for (let j = 1; j <= word.length; j++) {
      row[j] = Math.min(rows[2][j] + 1, row[j - 1] + 1, rows[2][j - 1] + (pattern[i - 1] === word[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && pattern[i - 1] === word[j - 2] && pattern[i - 2] === word[j - 1]) row[j] = Math.min(row[j], rows[1][j - 2] + 1);
    }
    rows = [rows[1], rows[2], row];
  }
  return rows[2];
}

// "Typos" (SearchIndex.substringDistance): the fewest edits turning `pattern` into some substring
// of `text` (code points), when at most `within`, else null: Sellers' algorithm (the edit-distance
// table with a free start row) counting a swap of two adjacent code points as one edit (optimal
// string alignment), a column at a time.
function substringDistance(pattern, text, within) {
  const length = pattern.length;
  let beforeLast = new Int32Array(length + 1), last = Int32Array.from({ length: length + 1 }, (_, i) => i), column = new Int32Array(length + 1);
  let best = length, previous = "";
  for (const char of text) {
    column[0] = 0;
    for (let i = 1; i <= length; i++) {
      let cell = Math.min(last[i - 1] + (pattern[i - 1] === char ? 0 : 1), last[i] + 1, column[i - 1] + 1);
      if (i > 1 && pattern[i - 1] === previous && pattern[i - 2] === char) cell = Math.min(cell, beforeLast[i - 2] + 1);
      column[i] = cell;
    }
    best = Math.min(best, column[length]);
    [beforeLast, last, column] = [last, column, beforeLast];
    previous = char;
  }
  return best <= within ? best : null;
}

// A term's first half, its second, and the term with the code points where they meet swapped.
function split(pattern) {
  const middle = pattern.length >> 1, swapped = [...pattern];
  [swapped[middle - 1], swapped[middle]] = [pattern[middle], pattern[middle - 1]];
  return [pattern.slice(0, middle).join(""), pattern.slice(middle).join(""), swapped.join("")];
}

// The code units of `text` as a set: bit `unit % 32` of a 32-bit number for each. A code point of
// a term (not astral) whose bit a title's lacks is not in the title, and lacks its like there.
function letterBits(text) {
  let bits = 0;
  for (let i = 0; i < text.length; i++) bits |= 1 << (text.charCodeAt(i) & 31);
  return bits;
}

// How many bits a 32-bit number has set.
function missing(bits) {
  bits -= (bits >>> 1) & 0x55555555;
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

// A cheap test before substringDistance: each edit leaves at most one code point of the pattern
// without its like in the text, so more than `within` of them left over means too far.
function tooFar(pattern, text, within, counts) {
  counts.clear();
  for (const char of pattern) counts.set(char, (counts.get(char) ?? 0) + 1);
  let left = pattern.length;
  for (const char of text) if (counts.get(char) > 0) counts.set(char, counts.get(char) - 1), left--;
  return left > within;
}

// tooFar for a term without astral code points, counted by code unit in an array kept for it (the
// surrogates of a title's astral code points are never a term's): a tenth of the time at a million
// titles, where a Map was cleared and filled for each.
const unitCounts = new Int32Array(65536);
function tooFarUnits(term, title, within) {
  for (let i = 0; i < term.length; i++) unitCounts[term.charCodeAt(i)]++;
  let left = term.length;
  for (let i = 0; i < title.length && left > within; i++) {
    const unit = title.charCodeAt(i);
    if (unitCounts[unit] > 0) unitCounts[unit]--, left--;
  }
  for (let i = 0; i < term.length; i++) unitCounts[term.charCodeAt(i)] = 0;
  return left > within;
}
