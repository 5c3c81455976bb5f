// The reader of version 6, the ranked layout ("Version 6: the ranked layout" in
// docs/search-index.md), for sift-core.js: loaded only for an index of that version. It has no
// document tables: a query reads the pre file of each key it looks up, the shard or parts it
// names, the heavy files of the words that hold a term, and the records of the documents it
// needs (from field entries, or from their text files). The search itself is SiftIndex's:
// RankedIndex gives it what the tables gave, for the documents the query meets.
//
// Typo matches look at the title words of a term's two typo keys only (docs/search-index.md,
// "Typos"), which their pre files list. A query that lists documents in list order without a term (the
// empty query with a filter or a sort) reads every record.
import { SiftIndex, decodeCodes, decodePostings, derivedSlug, fnv1a, fold, terms } from "./sift-core.js";
import AnsweringIndex, { intersection } from "./sift-answers.js";
import { textEntry } from "./sift-excerpts.js";

const codePoints = (text) => [...text];
// "Version 6": keys hash into 2^20 buckets, and pre file P names the shards of buckets P·2048 … P·2048 + 2047.
const RANKED_BUCKETS = 2 ** 20, BUCKETS_PER_PRE_FILE = 2048;
const PIECE = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+/gu, WORD_PIECE = /^[\p{L}\p{M}\p{N}]/u;
// A corrupt index rejects with this, as in sift-core.js.
const corruptIndex = (cause) => {
  throw Error("sift: bad index", { cause });
};

/**
 * The index of a version-6 manifest: with answers, an AnsweringIndex (sift-answers.js) that
 * answers short terms and the empty query from them and hands every other query to a
 * RankedIndex; else the RankedIndex.
 */
export default function load(manifest, fetchJSON, hint) {
  if (manifest.version !== 6) throw Error(`sift: index version ${manifest.version}`);
  // A term typed alone may be a heavy one, which its answer spares looking up: ahead of the
  // search, that would read every part of its key, or its words' heavy entries.
  const lookedUp = () => {
    const typed = [...new Set(terms(hint?.() ?? ""))];
    return typed.length === 1 ? "" : typed.join(" ");
  };
  const ranked = async () => new RankedIndex(manifest, fetchJSON, manifest.answers ? lookedUp : hint).read();
  return manifest.answers ? new AnsweringIndex(manifest, fetchJSON, ranked, hint) : ranked();
}

/** SiftIndex over the ranked layout: what it reads of a document, fetched as a query meets it. */
export class RankedIndex extends SiftIndex {
  // What SiftIndex.read makes of the tables, from the manifest alone: each collection's first
  // document and cells, and each document's body length and title length from the groups.
  // Scopes, titles and fields come with the postings' cells and the records.
  read() {
    const { collections, lengthSums } = this.manifest, scopeNames = (this.scopeNames = [...new Set([null, ...collections.flatMap((c) => c.scopes)])]);
    this.cells = []; // each cell's table, scope name and number in scopeNames
    let first = 0;
    this.tables = collections.map((collection) => {
      const table = { collection, first };
      for (const scope of [...collection.scopes, null]) this.cells.push({ table, scope, number: scopeNames.indexOf(scope) });
      first += collection.count;
      return table;
    });
    const count = (this.count = first);
    this.bodyLengths = new Float64Array(count);
    this.titleLengths = new Int32Array(count);
    this.lengthCodes = new Int32Array(count);
    for (const { collection, first } of this.tables) {
      let doc = first;
      const { groups } = collection;
      for (let k = 0; k + 2 < groups.length; k += 3) {
        const [q, t, n] = groups.slice(k, k + 3);
        // A title of a million code units or more, or a length code past 2^64 words, is no site's.
        if (![q, t, n].every(Number.isInteger) || q < 0 || q > 255 || t < 0 || t >= 2 ** 20 || n < 1 || doc + n > first + collection.count) corruptIndex(groups);
        // "Ranking" (IndexFormat.bodyLength(code:)): (4 + q % 4) · 2^(q / 4) / 4 words.
        this.bodyLengths.fill(((4 + (q % 4)) * 2 ** (q >> 2)) / 4, doc, doc + n);
        this.titleLengths.fill(t, doc, doc + n);
        this.lengthCodes.fill(q, doc, doc + n);
        doc += n;
      }
      if (doc !== first + collection.count) corruptIndex();
    }
    // "Version 6", lengthSums: the averages of every document, which no client reads all of.
    this.averageLengths = { title: Math.max(1, lengthSums.title / (count || 1)), body: lengthSums.body / 4 / (count || 1) };
    this.scopeNumbers = new Int32Array(count);
    this.documentScopes = [];
    this.foldedTitles = []; // each document's once its record is in; a stand-in of its length before
    this.records = []; // each document's record, once in: { table, scope, position, fields, slug, url }
    this.fieldTexts = []; // its folded fields, "\n" between them, once in
    this.holders = {}; // each term's documents whose fields hold it, ascending, once looked up
    this.missing = new Set(); // documents whose records a search needed, until they are in
    this.needs = 0; // how many times a search needed one: searches overlap, and share `missing`
    // An AnsweringIndex answers a short term from its answers even once this index is in: it
    // has no tables to answer one from.
    this.answersFirst = true;
    return this;
  }

  // SiftIndex.search, again while it met documents whose records it needed and did not have:
  // their text files are fetched, and it runs again (their terms' entries are kept). A run during
  // which no search needed a record answered from records it had; each run before it reads one
  // record at least (ties broken by list order may need a few more each time, not as many runs).
  async search(query, options = {}) {
    for (let idle = 0; ; ) {
      const needs = this.needs, answer = await super.search(query, { ...options, now: undefined });
      const lacking = [...this.missing].filter((doc) => !this.records[doc]);
      this.missing = new Set(lacking);
      if (needs === this.needs && !answer.results.includes(null)) return answer;
      // Another search's needs (searches overlap): run again; a run of its own reads a record at least.
      if (!lacking.length && ++idle > 8) corruptIndex("records that do not come");
      await this.readRecords(lacking);
    }
  }

  // A record a search needs and has not.
  need(doc) {
    this.needs++;
    this.missing.add(doc);
  }

  // "Matching": each term's field holders as well as its body candidates.
  async searchedTerms(queryTerms, options) {
    const searched = await super.searchedTerms(queryTerms, {});
    // No term: every document, counted by scope and listed in list order, which only the records
    // give (answers spare a first screen of it, docs/search-index.md, "Answers").
    if (!searched.length) await this.readEveryRecord();
    // A loose term ("-rf") is 3+ code points, held by the fields as a term searching alone is.
    await Promise.all(searched.map((term) => (term.searchesAlone || term.anyBody ? this.fieldHolders(term.text) : this.gramHolders(term.text)))).catch(corruptIndex);
    return searched;
  }

  // "Partial matches" and "Typos": sift-typos.js picks the documents of the scopes with few
  // matches before it looks up the pieces of a long CJK term or a term's typo fits; the documents
  // only they match have their scopes here once those are read, so first.
  async fewMatches(search) {
    const code = await (this.typoCode ??= import("./sift-typos.js"));
    const cut = code.pieces(search.searched.map((term) => term.text));
    if (cut) await this.searchedTerms(cut, {});
    await Promise.all(search.searched.filter((term) => term.typoEdits).map((term) => this.readTypoFits(term.text, term.typoEdits, code))).catch(corruptIndex);
    return super.fewMatches(search);
  }

  // "Typos", version 6: the documents with a title word that starts with one of the term's typo
  // keys and whose start is within `within` edits of the term, each with its fewest edits (`edits`), and
  // those with such a word within them whole (`whole`). Read by `readTypoFits` first.
  typoFits(term, within) {
    return this.fits?.[term + " " + within];
  }

  // The title words of the term's typo keys (SearchIndex.typoKeys: its first three code points, and
  // its first two with its fourth), from the pre files of their buckets (or the manifest of a
  // one-file index), in typo files past a few bytes, a word's documents in a post file past 2 KB;
  // each one near enough has its documents' cells learnt (and only its post file read).
  async readTypoFits(term, within, { prefixDistance, wordDistance }) {
    const fits = (this.fits ??= {}), name = term + " " + within;
    if (fits[name]) return;
    const pattern = codePoints(term), keys = [...new Set([pattern.slice(0, 3).join(""), [pattern[0], pattern[1], pattern[3]].join("")])];
    const lists = await Promise.all(keys.map(async (key) => {
      const list = (this.manifest.shards ? (await this.preFile(key)).titles : this.manifest.titles)?.[key] ?? {};
      return typeof list === "string" && list[0] === "=" ? this.shardFile(`typo.${list.slice(1)}`) : list;
    }));
    const near = [];
    for (const list of lists) {
      if (!(list instanceof Object) || Array.isArray(list)) corruptIndex(term);
      for (const word in list) {
        const letters = codePoints(word), distance = prefixDistance(pattern, letters, within), entry = list[word];
        if (distance !== null) near.push({ distance, wholly: wordDistance(pattern, letters, within), entry: entry[0] === "=" ? this.shardFile(`post.${entry.slice(1)}`) : entry });
      }
    }
    const edits = new Map(), whole = new Set(), entries = await Promise.all(near.map(({ entry }) => entry));
    for (const [k, { distance, wholly }] of near.entries()) {
      for (const doc of documentsOf(this.postings(entries[k]))) {
        if (!(edits.get(doc) <= distance)) edits.set(doc, distance);
        if (wholly) whole.add(doc);
      }
    }
    fits[name] = { edits, whole };
  }

  // "Version 6", gram entries: the documents whose fields hold a short term, from its pre file
  // (or the manifest of a one-file index), their cells learnt, and how their titles hold it
  // (0 not at all, 1 inside a word, 2 at a word's start, 3 as a whole word), in `titleFits`.
  async gramHolders(term) {
    if (this.holders[term]) return;
    let entry = (this.manifest.shards ? (await this.preFile(term)).grams : this.manifest.grams)?.[term] ?? ";;";
    if (entry[0] === "=") entry = await this.shardFile(`post.${entry.slice(1)}`);
    const [postings, cells, fits, more] = typeof entry === "string" ? entry.split(";") : [];
    if (fits === undefined || more !== undefined) corruptIndex(term);
    const documents = documentsOf(this.postings(postings + ";" + cells));
    (this.titleFits ??= {})[term] = decodeCodes(fits, documents.length);
    this.holders[term] = documents;
  }

  // "Matching": the documents of `documents` (ascending) whose fields hold the term, from its holders.
  fieldMatches(term, documents) {
    return intersection(this.holders[term], documents);
  }

  // "Version 6", field entries: the documents whose fields hold a term of 3+ code points (or a
  // CJK one of 2), from the records of the field words holding one piece or window of it
  // that every field holding the term has in a word, each checked against its record.
  async fieldHolders(term) {
    if (this.holders[term]) return;
    const looked = lookedFor(term), documents = new Set();
    if (looked == null) {
      this.holders[term] = Int32Array.from((await this.readEveryRecord()).filter((doc) => this.fieldTexts[doc].includes(term)));
      return;
    }
    const { fields } = await this.entries(looked);
    await Promise.all(Object.keys(fields).filter((word) => word.includes(looked)).map(async (word) => {
      let records = fields[word];
      if (records === "@") records = (await this.entries(word)).fields[word];
      if (typeof records === "string" && records[0] === "=") records = await this.shardFile(`frec.${records.slice(1)}`);
      if (!Array.isArray(records)) corruptIndex(word);
      for (const [doc, ...record] of records) {
        this.learn(doc, record);
        documents.add(doc);
      }
    }));
    this.holders[term] = Int32Array.from(documents).sort().filter((doc) => this.fieldTexts[doc].includes(term));
  }

  // "Sharding": the word entries a piece may be among, as version 5 has them (SiftIndex.searchBodies
  // reads them): the words holding it, each heavy one's postings from its own file, the cells of
  // every postings learnt and cut off; a union marker as it is.
  words(piece) {
    return (this.found()["w" + piece] ??= this.entries(piece).then(async ({ words }) => {
      const out = {};
      await Promise.all(Object.keys(words).filter((word) => word.includes(piece) || word === " " + piece).map(async (word) => {
        const entry = words[word];
        out[word] = entry[0] === "=" ? this.postings(await this.shardFile(`post.${entry.slice(1)}`)) : entry === "@" || word[0] === " " ? entry : this.postings(entry);
      }));
      return out;
    }));
  }

  // "Unions": the union file of the shard a key is in, its cells learnt and cut off.
  unions(key) {
    return (this.found()["u" + key] ??= this.shardOf(key).then(async ([, , union]) => {
      const unions = union ? await this.shardFile(`union.${union}`) : {};
      return Object.fromEntries(Object.entries(unions).map(([piece, postings]) => [piece, this.postings(postings)]));
    }));
  }

  // "Version 6", cells: an entry's postings, often and lead as version 5 has them, its documents'
  // cells (after the `;`) learnt.
  postings(entry) {
    if (typeof entry !== "string") corruptIndex(entry);
    const cut = entry.lastIndexOf(";");
    if (cut < 0) return entry;
    // The cells are those of the first postings, in its order.
    const documents = documentsOf(entry.slice(0, cut).split(":")[0]), cells = decodeCodes(entry.slice(cut + 1), documents.length);
    documents.forEach((doc, i) => this.learnCell(doc, cells[i]));
    return entry.slice(0, cut);
  }

  // The entries of the shard a piece's key is in, or of the parts of a split key its code points
  // lead to (every part under them when it ends first), merged: a word's primary entry over an
  // `@` one of another part. An index of one file has them in its manifest.
  entries(piece) {
    const { manifest } = this;
    if (!manifest.shards) return Promise.resolve(entriesOf(manifest));
    const key = codePoints(piece).slice(0, 3).join(""), rest = codePoints(piece).slice(3);
    return (this.found()["e" + piece] ??= this.preFile(key).then(async (pre) => {
      const parts = pre.keys?.[key];
      if (!parts) return entriesOf(await this.shardFile(`shard.${(await this.shardOf(key))[1]}`));
      const leading = parts.filter(([path]) => path.every((step, i) => i >= rest.length || step === rest[i]));
      const merged = { words: {}, fields: {} };
      for (const part of await Promise.all(leading.map(async ([, hash]) => entriesOf(await this.shardFile(`shard.${hash}`))))) {
        for (const kind of ["words", "fields"]) for (const [word, entry] of Object.entries(part[kind])) if (!(word in merged[kind]) || merged[kind][word] === "@") merged[kind][word] = entry;
      }
      return merged;
    }));
  }

  // What lookups found, as promises: pre, shard, union and heavy files by name, and each piece's
  // entries. Made on first use: SiftIndex's constructor looks up the terms typed meanwhile.
  found() {
    return (this.lookups ??= {});
  }

  // "Version 6", pre files: the `[first bucket, shard hash, union hash]` of the shard holding a key's bucket.
  async shardOf(key) {
    const bucket = fnv1a(key) % RANKED_BUCKETS, { shards } = await this.preFile(key);
    const shard = shards.findLast(([start]) => start <= bucket);
    return shard ?? corruptIndex(key);
  }

  // "Answers": whether a heavy term has an answer (a split key of three code points, or the start
  // of words too heavy to fetch), as the pre file of its key's bucket lists them.
  async hasAnswer(term) {
    return this.manifest.shards > 0 && codePoints(term).length > 2 && (await this.preFile(codePoints(term).slice(0, 3).join(""))).answers?.includes(term) === true;
  }

  // The pre file of a key's bucket (named in the manifest's files).
  preFile(key) {
    const name = `pre-${Math.floor((fnv1a(key) % RANKED_BUCKETS) / BUCKETS_PER_PRE_FILE)}.json`;
    return (this.found()["/" + name] ??= this.fetchJSON(name).catch(corruptIndex));
  }

  // A shard, union, post or frec file by its kind and hash, in immutable/.
  shardFile(name) {
    return (this.found()["/" + name] ??= this.fetchJSON(`immutable/${name}.json`).catch(corruptIndex));
  }

  // "Version 6", records: what a document's record says of it, `[cell, position, [field values…], slug, url]`.
  learn(doc, record) {
    if (this.records[doc]) return;
    const [cell, position, fields, slug = "", url] = Array.isArray(record) ? record : [];
    if (!Number.isInteger(position) || position < 0 || !Array.isArray(fields) || !fields.length || ![...fields, slug, url ?? ""].every((value) => typeof value === "string")) corruptIndex(record);
    const place = this.learnCell(doc, cell), folded = fields.map((value) => fold(value));
    if (!(doc >= place.table.first && doc < place.table.first + place.table.collection.count) || folded[0].length !== this.titleLengths[doc]) corruptIndex(doc);
    this.records[doc] = { ...place, position, fields, slug, url };
    this.foldedTitles[doc] = folded[0];
    this.fieldTexts[doc] = folded.join("\n");
  }

  // A document's cell: its scope, known so for counting and for the scope bar.
  learnCell(doc, cell) {
    const place = this.cells[cell];
    if (!place || !(doc < this.count)) corruptIndex(cell);
    this.scopeNumbers[doc] = place.number;
    this.documentScopes[doc] = place.scope;
    return place;
  }

  // Every document's record, read where not in; every document number, ascending.
  async readEveryRecord() {
    const every = Array.from({ length: this.count }, (_, doc) => doc);
    await this.readRecords(every.filter((doc) => !this.records[doc]));
    return every;
  }

  // The records of `documents` from their text files (each entry's first element), each file
  // once, 64 requests at a time.
  async readRecords(documents) {
    if (!this.manifest.texts) corruptIndex("no text files");
    for (let first = 0; first < documents.length; first += 64) {
      await Promise.all(documents.slice(first, first + 64).map(async (doc) => {
        const record = (await textEntry(this, doc))?.[0];
        if (!Array.isArray(record)) corruptIndex(doc);
        this.learn(doc, record);
      })).catch(corruptIndex);
    }
  }

  // "Ranking", SiftIndex.order: a hit's title is only looked at when its fields hold a term (then
  // its record is in), or for its length (from the groups). A query without terms lists its
  // documents in list order, which only their records give.
  order(full, marks, extra, searched, limit) {
    if (!searched.length) {
      if (!(limit > 0)) return [];
      const lacking = Array.from(full).filter((doc) => !this.records[doc]);
      lacking.forEach((doc) => this.need(doc));
      return lacking.length ? [] : super.order(Int32Array.from(full).sort((a, b) => this.listed(a, b)), marks, extra, searched, limit);
    }
    // Short terms alone weigh where the fields hold them, and a title that starts with them is
    // ranked first: every hit's record, before SiftIndex.order passes over any of them.
    if (limit > 0 && !searched.some((term) => term.searchesAlone)) {
      const lacking = [...full, ...extra.map((hit) => hit.doc)].filter((doc) => !this.records[doc]);
      lacking.forEach((doc) => this.need(doc));
      if (lacking.length) return [];
    }
    for (const doc of full) this.foldedTitles[doc] ??= this.standIn(doc);
    for (const hit of extra) this.foldedTitles[hit.doc] ??= this.standIn(hit.doc);
    return super.order(full, marks, this.extraShown(full, extra, searched, limit), searched, limit);
  }

  // The partial and typo matches that may be shown: past `limit` with the full matches, those up
  // to the last one shown and those tied with it but for list order that may take its place, whose
  // records tell them apart (needed here, all at once). SiftIndex.order, given them all, compared
  // hits never shown and needed their records a few a run (`republc` at 100,000 documents: 6,552
  // typo matches of one distance, score and title length, 297 records in 11 runs). Its order but
  // its last key.
  extraShown(full, extra, searched, limit) {
    const shown = limit - full.length;
    if (extra.length <= shown) return extra;
    if (!(shown > 0)) return [];
    const phrase = searched.phrase ?? searched.map((term) => term.text).join(" "), lengths = this.titleLengths;
    const keyed = extra.map((hit) => ({ ...hit, score: hit.score ?? this.score(hit.doc, searched, phrase, -1) }));
    const before = (a, b) => a.group - b.group || a.distance - b.distance || b.words - a.words || b.score - a.score || lengths[a.doc] - lengths[b.doc];
    keyed.sort(before);
    let end = shown;
    while (end < keyed.length && before(keyed[end], keyed[shown - 1]) === 0) end++;
    // The hits tied with the last one shown fill its `slots` places: in list order, which within a
    // collection and length code is index order, so only the first `slots` of each such group can.
    const first = keyed.findIndex((hit) => before(hit, keyed[shown - 1]) === 0), slots = shown - first, taken = new Map();
    const kept = keyed.slice(first, end).sort((a, b) => a.doc - b.doc).filter((hit) => {
      const group = this.tableOf(hit.doc).first + " " + this.lengthCodes[hit.doc], count = taken.get(group) ?? 0;
      taken.set(group, count + 1);
      return count < slots;
    });
    if (taken.size > 1) kept.forEach((hit) => this.records[hit.doc] || this.need(hit.doc));
    return keyed.slice(0, first).concat(kept);
  }

  // A title not yet read: as long as the document's, and never the phrase nor starting with it
  // (a title that does holds every term, and the terms' field records brought it).
  standIn(doc) {
    const length = this.titleLengths[doc];
    return ((this.standIns ??= [])[length] ??= "\0".repeat(length));
  }

  // SiftIndex.consideredDocuments, without the documents sift-typos.js keeps by scope between
  // queries: a document's scope is known here only once a query has met it.
  consideredDocuments(scope, collection) {
    const considered = super.consideredDocuments(scope, collection);
    considered.pool.typos = {};
    return considered;
  }

  // "Ranking", SiftIndex.score, which reads a document's other fields from fieldText at
  // fieldOffsets: here, from the one document's.
  // A document whose record is not in holds no term searched alone in its fields (their field
  // entries brought every record that does); the short terms its fields hold (their gram
  // entries say which) stand in for its other fields: beside a longer term they weigh nothing
  // there, and only count as held (docs/search-index.md, "Ranking"). A query of short terms
  // alone weighs where its fields hold them: then its hits' records are fetched.
  score(doc, searched, phrase, inFields) {
    // -1: every term looked for in the fields (partial matches): the ones they hold.
    if (inFields === -1) inFields = searched.reduce((bits, term, k) => bits | ((holds(this.holders[term.text], doc) >= 0) << k), 0);
    this.foldedTitles[doc] ??= this.standIn(doc);
    let title = this.foldedTitles[doc];
    this.fieldText = this.fieldTexts[doc];
    if (this.fieldText === undefined) {
      const held = searched.filter((term, k) => inFields & (1 << k)).map((term) => term.text);
      if (held.length && !searched.some((term) => term.searchesAlone)) this.need(doc);
      title = this.titleHolding(doc, held, searched) ?? (this.need(doc), title);
      this.fieldText = [title, ...held].join("\n");
    }
    this.fieldOffsets = { [doc]: 0, [doc + 1]: this.fieldText.length + 1 };
    // SiftIndex.score reads the title from foldedTitles: this one's, for this query.
    const kept = this.foldedTitles[doc];
    this.foldedTitles[doc] = title;
    try {
      return super.score(doc, searched, phrase, inFields);
    } finally {
      this.foldedTitles[doc] = kept;
    }
  }

  // A title not yet read that holds the short terms `held` as the document's does, as far as the
  // score looks: each term its title holds, inside a word (a letter before it), at a word's start
  // (one after it) or whole, apart from the others by NULs, and as long as the document's.
  // Null when that is longer, or a term holds a NUL, that letter or another term: its record is needed.
  titleHolding(doc, held, searched) {
    const length = this.titleLengths[doc], segments = [];
    for (const text of held) {
      const at = holds(this.holders[text], doc), fit = at < 0 ? 0 : this.titleFits[text][at];
      // A term holding another term of the query would show that one as it is not (`-b` inside a
      // word holds `b`, whose own place the segment cannot say).
      if (/[\0ꙮ]/.test(text) || (fit && searched.some((term) => term.text !== text && text.includes(term.text)))) return null;
      if (fit) segments.push(fit === 1 ? "ꙮ" + text : fit === 2 ? text + "ꙮ" : text);
    }
    const title = segments.join("\0");
    return title.length > length ? null : title + "\0".repeat(length - title.length);
  }

  // "Ranking", ties by list order: by their places once their records are in. Without them, two
  // documents of one collection and one length code (their title lengths are equal here) are in list
  // order in index order; two of one collection and other length codes need their records.
  listed(a, b) {
    const x = this.records[a], y = this.records[b];
    if (x && y) return x.table.first + x.position - (y.table.first + y.position);
    if (this.lengthCodes[a] !== this.lengthCodes[b] && this.tableOf(a) === this.tableOf(b)) this.need(a), this.need(b);
    return a - b;
  }

  tableOf(doc) {
    return this.tables.findLast((table) => table.first <= doc);
  }

  // A result as SiftIndex.result gives it, from the document's record (fetched when not in). Its
  // document number goes with it, unlisted, for sift-excerpts.js.
  result(doc, match) {
    const record = this.records[doc];
    if (!record) {
      this.need(doc);
      return null;
    }
    const { table, scope, position, fields, slug, url } = record, name = table.collection.name, shown = slug || derivedSlug(this.foldedTitles[doc]);
    const result = { collection: name, slug: shown, title: fields[0], url: this.manifest.base + (url ?? `${name}/${shown}/`), scope, match, position };
    return Object.defineProperty(result, "doc", { value: doc });
  }
}

// "Version 6", field entries: what a term's field holders are found by: the term itself when it is
// one word piece; else its first word piece of 3+ code points, or its first window (*Bridges*),
// which a field word of every field holding the term holds. Null when it has neither (`te»`,
// `---`): such a term is looked for in every record.
function lookedFor(term) {
  const pieces = term.match(PIECE), last = pieces.length - 1;
  if (!last) return WORD_PIECE.test(term) ? term : null;
  const long = pieces.find((piece) => WORD_PIECE.test(piece) && codePoints(piece).length > 2);
  if (long) return long;
  const window = pieces.findIndex((piece, i) => !WORD_PIECE.test(piece) && ((i > 0 && i < last) || codePoints(piece).length > 1));
  if (window < 0) return null;
  return (codePoints(pieces[window - 1] ?? "").pop() ?? "") + pieces[window] + (codePoints(pieces[window + 1] ?? "")[0] ?? "");
}

// "Words and postings": the documents of postings, ascending: an object's integer keys, which
// come in ascending order. (A holey array's forEach went through every index below the last
// document: 21 ms for 5 documents past 900,000, `chanliva` 7 s at a million documents.)
function documentsOf(postings) {
  const seen = {};
  decodePostings(postings, seen);
  return Int32Array.from(Object.keys(seen), Number);
}

// Where an ascending list holds a number, or -1.
function holds(list, value) {
  let low = 0, high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle] < value) low = middle + 1;
    else high = middle;
  }
  return list[low] === value ? low : -1;
}

// A shard's (or a one-file manifest's) word and field entries, refused unless both are objects.
function entriesOf({ words, fields } = {}) {
  if (!(words instanceof Object && fields instanceof Object)) corruptIndex("a shard without words and fields");
  return { words, fields };
}
