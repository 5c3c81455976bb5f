// The answers of short terms ("Answers" in docs/search-index.md; AnswerFiles.swift writes them),
// for sift-core.js: loaded only for an index that has them (a site of 50,000 documents or more).
// A query of one term of one or two code points, or of none, without filters or sort, is answered
// from one small answers file (its facet counts too), before and without the document tables;
// every other query waits for them, as sift-core.js's SiftIndex. The ranked layout's heavy terms
// (sift-ranked.js) have answers too, which name their body matches.
import { SiftIndex, derivedSlug, fnv1a, fold, isCJK, terms } from "./sift-core.js";

const codePoints = (text) => [...text];
// A corrupt index rejects with this, as in sift-core.js.
const corruptIndex = (cause) => {
  throw Error("sift: bad index", { cause });
};

/** The rows an answer holds of each cell (AnswerFiles.rows): no more can be asked of it. */
export const ANSWER_ROWS = 50;

/**
 * An index that answers short terms from the answers files and hands every other search to the
 * SiftIndex its document tables make (`tables()` fetches them and makes it): fetched once a
 * search needs them, or once the first answer is out, so that their bytes and the work of
 * reading them never delay it. It offers what the search bar and sift-excerpts.js read of a SiftIndex.
 */
export default class AnsweringIndex {
  constructor(manifest, fetchJSON, tables, hint) {
    this.manifest = manifest;
    this.fetchJSON = fetchJSON;
    this.collections = manifest.collections;
    this.files = {}; // answers and text files, as promises, by name
    this.facetSets = {}; // as SiftIndex's
    this.count = manifest.collections.reduce((sum, collection) => sum + collection.count, 0);
    // Each collection's first document and first cell: cell `cell + k` holds scope k, `cell + scopes.length` the rest.
    let first = 0, cell = 0;
    this.tables = manifest.collections.map((collection) => {
      const table = { collection, first, cell };
      first += collection.count;
      cell += collection.scopes.length + 1;
      return table;
    });
    this.loadTables = tables;
    const hinted = [...new Set(terms(hint?.() ?? ""))];
    if (hinted.length === 1 && answered(hinted[0])) this.answers(hinted[0]).catch(String);
    // The ranked layout's reader looks a term typed alone up here: its answer, if a heavy one.
    else if (hinted.length === 1 && manifest.version > 5) this.full.then(async (index) => ((await index.hasAnswer(hinted[0])) ? this.answers(hinted[0]) : index.words(hinted[0]))).catch(String);
    else if (hinted.length) this.full.catch(String);
  }

  /**
   * The SiftIndex of the document tables, fetched on first use (`loaded` once it is in), sharing
   * the facets read here. A failure is the search's that needs it. Its tables are read a slice of
   * documents at a time, the page handling input and painting between slices (a million
   * documents take seconds to read, and this index is for the largest sites).
   */
  get full() {
    return (this.fullIndex ??= this.loadTables(yieldToPage, AnsweringIndex.slice, LargeIndex).then((index) => {
      index.facetSets = this.facetSets;
      return (this.loaded = index);
    }, corruptIndex));
  }

  /** SiftIndex.search's answer; from the answers when it asks for a short term's first rows only, or the empty query's. */
  async search(query, options = {}) {
    const { scope = "All", collection = null, limit = Infinity, filters = {}, sort, facets } = options;
    const [term = "", ...more] = new Set(terms(query));
    const chosen = collection == null ? this.tables : this.tables.filter((table) => table.collection.name === collection);
    if (!chosen.length) throw Error(`unknown collection “${collection}”`);
    // Once the tables are in, a term whose answers file is not is answered from them: no request
    // (not by the ranked layout's reader, which has no tables: its answers come first).
    // The answers count by facet value only collections whose facets the manifest outlines.
    const uncounted = facets && chosen.some((table) => table.collection.facets && !table.collection.facetOutline);
    if (more.length || !(limit <= ANSWER_ROWS) || sort || uncounted || Object.values(filters).some((values) => values.length)
      || (this.loaded && !this.loaded.answersFirst && !this.files[this.answersFile(term)])
      // A heavy term of the ranked layout has an answer too, which its key's pre file lists.
      || !(answered(term) || (this.manifest.version > 5 && (await (await this.full).hasAnswer(term))))) {
      return (await this.full).search(query, options);
    }
    const scopes = [...new Set(chosen.flatMap((table) => table.collection.scopes))];
    if (scope !== "All" && !scopes.includes(scope)) throw Error(`unknown scope “${scope}”`);
    const answer = (await this.answers(term))[term] ?? { hits: [], counts: [] }, counted = facets && (await this.facets(chosen));
    // The tables, for the next keystrokes, once this answer is out and painted (a task after the next
    // frame's); not for the empty query, a field just focused: a visitor may never type.
    if (term) (globalThis.requestAnimationFrame ?? setTimeout)(() => setTimeout(() => this.full.catch(String)));
    try {
      return this.answer(query, answer, chosen, scopes, scope, limit, counted);
    } catch (error) {
      corruptIndex(error);
    }
  }

  // A short or heavy term's answer for `limit` results of `scope` in the collections `chosen`, which offer
  // `scopes`; with their facets (`counted`), its matches counted by facet value.
  answer(query, { hits, body = [], counts, facets = {}, typos = [], typoCounts = [] }, chosen, scopes, scope, limit, counted) {
    // Each cell of the collections searched: its table and scope (null: none).
    const cells = {};
    for (const table of chosen) {
      const { scopes: names } = table.collection;
      for (let k = 0; k <= names.length; k++) cells[table.cell + k] = { table, name: names[k] ?? null };
    }
    // "Typos" (sift-typos.js fewMatches): a heavy term's typo matches count where every collection
    // searched, or a scope, has fewer than 5 full matches, and follow those of the scope searched
    // when it has.
    const full = scopeCounts(counts, chosen, scopes), few = (name) => full[name] < 5, totals = { ...full };
    for (const cell in cells) {
      const name = cells[cell].name, count = typoCounts[cell] ?? 0;
      if (few("All")) totals.All += count;
      if (name !== null && few(name)) totals[name] += count;
    }
    // A heavy term's body matches: which hits, and their documents, for their excerpts.
    const bodyDocuments = new Map(body);
    const results = [];
    for (const [k, [cell, position, title, slug, url]] of hits.entries()) {
      const place = cells[cell];
      // As slice(0, limit) cuts.
      if (results.length >= Math.trunc(limit)) break;
      if (!place || (scope !== "All" && place.name !== scope)) continue;
      const name = place.table.collection.name, shown = slug || derivedSlug(fold(title)), doc = bodyDocuments.get(k);
      const result = { collection: name, slug: shown, title, url: this.manifest.base + (url ?? `${name}/${shown}/`), scope: place.name, match: doc === undefined ? "field" : "body", position };
      // As sift-ranked.js's results, its document unlisted.
      results.push(doc === undefined ? result : Object.defineProperty(result, "doc", { value: doc }));
    }
    for (const [cell, position, title, slug, url] of few(scope) ? typos : []) {
      const place = cells[cell];
      if (results.length >= Math.trunc(limit)) break;
      if (!place || (scope !== "All" && place.name !== scope)) continue;
      const name = place.table.collection.name, shown = slug || derivedSlug(fold(title));
      results.push({ collection: name, slug: shown, title, url: this.manifest.base + (url ?? `${name}/${shown}/`), scope: place.name, match: "fuzzy", position });
    }
    // Every value of the facets, as Facets.counts lists them, then each searched cell's counts added.
    const fields = counted?.fields ?? {};
    const facetCounts = Object.fromEntries(Object.keys(fields).map((name) => [name, Object.fromEntries(Object.keys(fields[name]).map((value) => [value, 0]))]));
    if (counted) {
      for (const cell in facets) {
        const place = cells[cell];
        if (!place || (scope !== "All" && place.name !== scope)) continue;
        facets[cell].forEach((count, k) => {
          const [field, value] = counted.values[place.table.first][k];
          facetCounts[field][value] += count;
        });
      }
    }
    return { query, scope, total: totals[scope], ...(counted && { facets: facetCounts }), results, scopeCounts: totals };
  }

  /**
   * The facets of the collections `chosen` as far as the facet bar and the answers' counts need
   * them, their fields, values and sort fields, from the outlines the manifest gives them; else
   * (a facet of many values leaves its outline out) SiftIndex.facets, which reads the facets
   * files. Neither needs the tables.
   */
  facets(chosen) {
    const faceted = chosen.filter((table) => table.collection.facets);
    if (!faceted.every((table) => table.collection.facetOutline)) return SiftIndex.prototype.facets.call(this, chosen);
    // Keyed by names and values from the site's data, as Facets.read keys them: objects without a prototype.
    const outline = { fields: Object.create(null), orders: Object.create(null), values: {} };
    // As Facets.read lists them: each field's values in order, collection after collection.
    for (const { first, collection } of faceted) {
      const { facets, sorts } = collection.facetOutline;
      for (const { name, values } of facets) {
        const field = (outline.fields[name] ??= Object.create(null));
        for (const value of values) field[value] = true;
      }
      for (const name of sorts) outline.orders[name] = true;
      outline.values[first] = facets.flatMap(({ name, values }) => values.map((value) => [name, value]));
    }
    return Promise.resolve(outline);
  }

  // "Answers": the name of the answers file holding a term's answer.
  answersFile(term) {
    return `answers-${fnv1a(term) % this.manifest.answers}.json`;
  }

  // The answers file holding a term's answer, fetched once.
  answers(term) {
    const name = this.answersFile(term);
    return (this.files[name] ??= this.fetchJSON(name).catch((error) => {
      delete this.files[name];
      corruptIndex(error);
    }));
  }
}

/**
 * The SiftIndex of a large site's tables. A million documents' fields are tens of MB of text,
 * which looking for a term goes through: it keeps the documents whose fields hold each of the
 * last terms looked for (typing on, partial matches and typos ask for the same terms again), and
 * looks for a term holding one of them among that one's documents only.
 */
export class LargeIndex extends SiftIndex {
  // "Matching": the documents of `documents` (ascending) with the term in a folded field.
  fieldMatches(term, documents) {
    const all = this.fieldDocuments(term);
    return documents.length === this.count ? all : intersection(all, documents);
  }

  // Every document (ascending) whose fields hold `term`, kept for the last LargeIndex.kept terms.
  fieldDocuments(term) {
    const kept = (this.keptFields ??= new Map()), { fieldText, fieldOffsets } = this;
    let found = kept.get(term);
    if (found) kept.delete(term);
    else {
      // The longest kept term inside this one, unless it is in a quarter of the documents or more:
      // only its documents can hold this one.
      let within = "";
      for (const other of kept.keys()) if (other.length > within.length && term.includes(other) && kept.get(other).length < this.count / 4) within = other;
      // Among its documents each is looked at in its own fields: SiftIndex's one indexOf over
      // every field would go through the text between them. Else SiftIndex's, over every document
      // (copied out: its answer is a view of an array as long as the documents).
      found = within
        ? kept.get(within).filter((doc) => fieldText.slice(fieldOffsets[doc], fieldOffsets[doc + 1]).includes(term))
        : super.fieldMatches(term, this.consideredDocuments("All", null).pool.documents).slice();
    }
    kept.set(term, found);
    if (kept.size > LargeIndex.kept) kept.delete(kept.keys().next().value);
    return found;
  }
}

/** The numbers of two ascending lists that both hold, ascending. */
export function intersection(a, b) {
  const out = new Int32Array(Math.min(a.length, b.length));
  let count = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else (out[count++] = a[i++]), j++;
  }
  return out.subarray(0, count);
}

/** How many terms' field matches a LargeIndex keeps. */
LargeIndex.kept = 8;

/** The documents the tables are read in a slice of (`full`); tests make it small, so that the seams between slices are searched. */
AnsweringIndex.slice = 8192;

// "Answers": an answer's matches counted as SiftIndex.search counts them: All, then each of
// `scopes` (a scope named "All" overwrites it), from its counts by cell over the collections `chosen`.
function scopeCounts(counts, chosen, scopes) {
  const byScope = {};
  let all = 0;
  for (const table of chosen) {
    const { scopes: names } = table.collection;
    for (let k = 0; k <= names.length; k++) {
      const count = counts[table.cell + k] ?? 0;
      all += count;
      if (k < names.length) byScope[names[k]] = (byScope[names[k]] ?? 0) + count;
    }
  }
  const out = { All: all };
  for (const name of scopes) out[name] = byScope[name];
  return out;
}

// "Answers": a term the answers hold, of one or two code points, matched in fields only (not a pair
// of CJK ones), or none (the empty query).
function answered(term) {
  const length = codePoints(term).length;
  return length < 2 || (length === 2 && !isCJK(term));
}

// A pause that lets the page handle input and paint: scheduler.yield() where there is one, else a
// message to ourselves (a timer nested this deep waits at least 4 ms).
function yieldToPage() {
  return globalThis.scheduler?.yield?.() ?? new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => (channel.port1.close(), resolve());
    channel.port2.postMessage(0);
  });
}
