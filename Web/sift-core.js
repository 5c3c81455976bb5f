// Sift's search without the DOM: the query engine of docs/search-index.md, for the browser and
// for node. `sift search` runs the same engine in Swift (Sources/SiftKit/Search/SearchIndex.swift
// and IndexFormat.swift): the same steps under the same names, in the same order, each naming
// its section of docs/search-index.md; Tests/Fixtures/search-vectors.json keeps the two answers
// equal. What only this side has (field matches over one string, only the first `limit` hits kept
// in order, partial answers, typo sets kept while typing on, fields not looked at for a term
// they were seen not to hold) is there for a keystroke's speed.

/** The index format this client reads: IndexFormat.swift's constants, compared by Tests/js/format.test.mjs. */
export const IndexFormat = Object.freeze({ version: 5, buckets: 4096 });

const WORD_CODE_POINT_AT_END = /[\p{L}\p{M}\p{N}]$/u, WORD_CODE_POINT_AT_START = /^[\p{L}\p{M}\p{N}]/u;
const PIECE = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+/gu;
const codePoints = (text) => [...text];
// IndexFormat.isCJKScalar's ranges.
const CJK_RANGES = "\\u1100-\\u11ff\\u3005-\\u31ff\\u3400-\\u9fff\\ua960-\\ua97f\\uac00-\\ud7ff\\u{1aff0}-\\u{1b16f}\\u{20000}-\\u{323af}";
// A CJK term is made of CJK word code points (IndexFormat.isCJKWordScalar): `〜〜` is none. `CJK`
// finds any CJK code point: a term holding one is not looked for with typos ("Typos").
export const CJK = new RegExp(`[${CJK_RANGES}]`, "u");
const CJK_TERM = new RegExp(`^(?:(?=[\\p{L}\\p{M}\\p{N}])[${CJK_RANGES}])+$`, "u");
// Nonspacing marks but the kana voicing marks (U+3099, U+309A), which tell ガ from カ.
const DROPPED_MARK = /(?![\u3099\u309a])\p{Mn}/gu;

// "Folding and terms" (Fold.fold).
export function fold(text) {
  // Pure ASCII has nothing to normalize: lowercasing it is its whole fold.
  return /[^\0-\x7f]/.test(text) ? text.normalize("NFKD").replace(DROPPED_MARK, "").normalize("NFC").toLowerCase().replace(/ς/g, "σ") : text.toLowerCase();
}

// "Folding and terms" (Fold.terms).
export function terms(query) {
  return fold(query).split(/\p{White_Space}+/u).filter(Boolean);
}

// "Folding and terms" (SearchIndex.queryTerms): identical terms count once.
function queryTerms(query) {
  return [...new Set(terms(query))];
}

// "Matching" (SearchIndex.searchesAlone): a term of 3+ code points, or a CJK term of 2, searches bodies on its own.
function searchesAlone(term) {
  const length = codePoints(term).length;
  return length > 2 || (length === 2 && isCJK(term));
}

// "Matching" (IndexFormat.isCJK): every code point of the term is CJK (Han, Hiragana, Katakana, Hangul).
export function isCJK(term) {
  return CJK_TERM.test(term);
}

// "Words and postings" (IndexFormat.pieces): a term splits as bodies do, into runs of word code
// points and of other code points. Terms hold no white space.
function pieces(folded) {
  return folded.match(PIECE);
}

// "Matching" (IndexFormat.markedPiece): the word piece of a term that is one word piece with single
// marks at its start or end, which are never looked for ("st.", "-rf", "文件系统。"); null for any
// other term ("c++" is looked for by its window).
function markedPiece(term) {
  const p = pieces(term) ?? [], words = p.filter((piece) => WORD_CODE_POINT_AT_START.test(piece));
  return p.length > 1 && words.length === 1 && !windows(p).length ? words[0] : null;
}

// "Matching" (IndexFormat.bodyForm): a CJK marked piece is what the body is searched for ("文件系统。" as "文件系统").
export function bodyForm(term) {
  const piece = markedPiece(term);
  return piece && isCJK(piece) ? piece : null;
}

// "Matching" (IndexFormat.isLoose): a term of 3+ code points whose marked piece has one or two outside
// CJK ("-rf", "St."), too short to narrow a body: it lets any through, and holds none for a partial match.
function isLoose(term) {
  const piece = markedPiece(term);
  return piece != null && !isCJK(piece) && codePoints(piece).length < 3 && codePoints(term).length > 2;
}

// "Bridges" (IndexFormat.windows): what a term of several pieces is looked for by among the
// bridges: each run of other code points with the code point on either side of it, and a first or
// last run of two or more with the one after or before it.
function windows(p) {
  return p.flatMap((piece, i) => {
    const before = codePoints(p[i - 1] ?? "").pop() ?? "", after = codePoints(p[i + 1] ?? "")[0] ?? "";
    return WORD_CODE_POINT_AT_START.test(piece) || !((before && after) || (p[1] && codePoints(piece)[1])) ? [] : before + piece + after;
  });
}

// "Bridges" (IndexFormat.isBridge): a word of word code points and others, which only windows look for.
function isBridge(word) {
  return pieces(word)[1];
}

// "Sharding" (IndexFormat.key): a word is filed under its first three code points.
function key(word) {
  return codePoints(word).slice(0, 3).join("");
}

// "Sharding" (IndexFormat.fnv1a): 32-bit FNV-1a over the text's UTF-8.
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

// "Sharding" (IndexFormat.bucket(ofKey:)): FNV-1a of the key modulo the bucket count.
function bucket(key) {
  return fnv1a(key) % IndexFormat.buckets;
}

// "Sharding" (IndexFormat.shard(ofBucket:bounds:)): the number of bounds at or below the bucket.
function shard(bucketNumber, bounds) {
  let number = 0;
  for (const bound of bounds) number += bound <= bucketNumber;
  return number;
}

// "Words and postings" (IndexFormat.decodePostings): marks each document of the postings in
// `into`, or'ing `mark` (1 unless given) into each's marks. Base64 of LEB128 varints of the gaps, or
// "!" and base64 of a bitmap.
export function decodePostings(postings, into, mark = 1) {
  const bitmap = postings[0] === "!", bytes = atob(postings.slice(bitmap ? 1 : 0));
  for (let i = 0, doc = -1, gap = 0, shift = 0; i < bytes.length; i++) {
    const byte = bytes.charCodeAt(i);
    if (bitmap) {
      for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) into[i * 8 + bit] |= mark;
    } else {
      gap += (byte & 127) * 2 ** shift;
      shift += 7;
      // A varint's last byte is below 128.
      if (byte < 128) {
        doc += gap + 1;
        into[doc] |= mark;
        gap = shift = 0;
      }
    }
  }
}

// "Codes" (IndexFormat.decodeCodes): `count` numbers, each the same number of base64 digits.
export function decodeCodes(codes, count) {
  const width = codes.length / count, out = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < width; k++) {
      const char = codes.charCodeAt(i * width + k);
      // A–Z a–z 0–9 + / are the digits 0 … 63.
      out[i] = out[i] * 64 + (char > 96 ? char - 71 : char > 64 ? char - 65 : char > 47 ? char + 4 : char > 43 ? 63 : 62);
    }
  }
  return out;
}

// "The document table" (IndexFormat.derivedSlug): the slug a table leaves as "", from the folded
// title: its runs of characters other than a-z0-9 become "-", trimmed; "" when it is not ASCII.
export function derivedSlug(foldedTitle) {
  return /^[\0-\x7f]*$/.test(foldedTitle) ? foldedTitle.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") : "";
}

// A corrupt or mismatched index rejects with this Error, the TypeError (or 404) met deep inside
// as its cause. `.catch(String)` below marks a promise no one awaits yet as handled: its failure
// is not an uncaught one.
function corruptIndex(cause) {
  throw Error("sift: bad index", { cause });
}

// "File names" (IndexFileNames.path): where the file the index calls `name` is, beside the manifest.
export function filePath(name, files = {}) {
  const hash = files[name];
  return hash ? `immutable/${name.replace(/(-\d+)?(\.[^.]*)?$/, `.${hash}$2`)}` : name;
}

/** A search index read from a built site's search/manifest.json, answering as `sift search` does. */
export class SiftIndex {
  /**
   * Fetches the manifest and the document tables it names. `hint()` is the text typed meanwhile:
   * its terms' shards are requested before the tables are built, so their round trip overlaps it.
   * The manifest is always asked for past the browser's cache (a conditional request). A file
   * fetched over 10 s after the manifest waits for the manifest to be asked again, and fails
   * when a deploy renamed it (docs/deploy.md, "Deploys under an open page").
   */
  static async load(manifestURL, { fetch = globalThis.fetch, hint } = {}) {
    const url = new URL(manifestURL, globalThis.location?.href);
    const fetchJSON = async (name, init) => {
      const response = await fetch(new URL(name, url).href, init);
      if (!response.ok) throw Error(`sift: ${name}: ${response.status}`);
      return response.json();
    };
    try {
      const latest = () => fetchJSON(url.href, { cache: "no-cache" });
      const manifest = await latest();
      let checked = Date.now();
      const fetchFile = async (name) => {
        // A deploy since the manifest was read gave this file another name: the index is stale.
        if (Date.now() - checked > 1e4 && ((checked = Date.now()), (await latest()).files?.[name] != manifest.files?.[name])) throw Error("sift: deployed");
        return fetchJSON(filePath(name, manifest.files));
      };
      // Version 6, the ranked layout, has a reader of its own (sift-ranked.js).
      if (manifest.version === 6) return await (await import("./sift-ranked.js")).default(manifest, fetchFile, hint);
      if (manifest.version !== IndexFormat.version) throw Error(`sift: index version ${manifest.version}`);
      // Each collection's table, or its parts, all asked for at once and read as they arrive.
      const index = (pause, slice, Index = SiftIndex) => new Index(manifest, fetchFile, hint).read(manifest.collections.map(({ docs }) => (docs.fields ? [docs] : [].concat(docs).map(fetchFile))), pause, slice);
      // An index with answers answers short terms before it fetches its tables (sift-answers.js).
      return manifest.answers ? new (await import("./sift-answers.js")).default(manifest, fetchFile, index, hint) : await index();
    } catch (error) {
      corruptIndex(error);
    }
  }

  // The index of a manifest; its document tables come with `read`.
  constructor(manifest, fetchJSON, hint) {
    this.manifest = manifest;
    this.fetchJSON = fetchJSON;
    this.collections = manifest.collections;
    this.files = {}; // shard and union files, as promises, by kind and number
    this.bodySearches = {}; // body candidates, as promises, by term
    this.bodyCandidatesFound = {}; // the same once found
    this.pools = {}; // the documents a search considers, by first document and count
    this.facetSets = {}; // their facets, as promises, by the names of the collections
    this.hintedTerms = terms(hint?.() ?? "");
    for (const term of this.hintedTerms) if (codePoints(term).length > 2 || isCJK(term) || this.hintedTerms.length > 1) this.words(term).catch(String);
  }

  // The document tables read into the arrays a search runs over. Documents are numbered across
  // collections, in list order. Their folded fields are one string, "\n" between fields: document
  // d's are fieldText[fieldOffsets[d] … fieldOffsets[d + 1] - 1). Titles, slugs and URLs stay as
  // they are until a result needs them. `tables`: each collection's table, or its parts in order,
  // as values or promises, each read once it is in. Given `slice`, their documents
  // are read that many at a time, `pause()` awaited between: an index with answers (sift-answers.js)
  // lets the page handle input and paint meanwhile, when a million documents take seconds.
  async read(tables, pause, slice) {
    const { collections } = this, fields = [], parts = [];
    this.tables = [];
    // A part that fails while an earlier one is read is heard when its turn comes.
    for (const part of tables.flat()) part.catch?.(String);
    const foldedTitles = (this.foldedTitles = []), documentScopes = (this.documentScopes = []); // each document's scope name, or null
    const scopeNames = (this.scopeNames = [...new Set([null, ...collections.flatMap((collection) => collection.scopes)])]);
    const scopeNumbers = (this.scopeNumbers = []), bodyLengths = (this.bodyLengths = []), fieldOffsets = (this.fieldOffsets = [0]);
    for (const [number, collection] of collections.entries()) {
      const first = foldedTitles.length, titles = [], slugs = [], urls = {};
      this.tables.push({ collection, first, titles, slugs, urls });
      for (const part of tables[number]) {
        // "The document table" (SearchIndex.load(_:number:)): each table, checked against the
        // documents its collection has left before anything of that size is built, and its documents' folded fields.
        const table = await part, count = table.slugs.length, start = foldedTitles.length - first, partURLs = table.urls ?? {};
        if (start + count > collection.count || !table.fields[0]) corruptIndex();
        const scopeCodes = table.scope ? decodeCodes(table.scope, count) : [], lengthCodes = table.lengths ? decodeCodes(table.lengths, count) : [];
        const columns = table.fields.map((field) => {
          const ids = field.scope ? scopeCodes : field.ids && decodeCodes(field.ids, count), values = field.scope ? collection.scopes : field.values;
          return { ids, values, folded: [] }; // folded as documents ask, once a value
        });
        for (let i = 0, offset = fieldOffsets.at(-1); i < count; i++) {
          for (const { ids, values, folded } of columns) {
            const value = ids ? ids[i] : i;
            fields.push((folded[value] ??= fold(values[value] ?? "")));
            offset += fields.at(-1).length + 1;
          }
          titles.push(columns[0].values[columns[0].ids ? columns[0].ids[i] : i] ?? "");
          slugs.push(table.slugs[i]);
          if (partURLs[i] !== undefined) urls[start + i] = partURLs[i];
          foldedTitles.push(fields[fields.length - columns.length]);
          documentScopes.push(collection.scopes[scopeCodes[i]] ?? null);
          scopeNumbers.push(scopeNames.indexOf(documentScopes.at(-1)));
          bodyLengths.push(bodyLength(lengthCodes[i] ?? 0));
          fieldOffsets.push(offset);
          // A slice's fields are put together ("\n" between them) before the pause.
          if (foldedTitles.length % slice == 0) {
            parts.push(fields.join("\n"));
            fields.length = 0;
            await pause();
          }
        }
      }
      if (slugs.length !== collection.count) corruptIndex();
    }
    this.count = foldedTitles.length; // documents in the index
    this.fieldText = [...parts, ...fields].join("\n");
    const count = this.count || 1;
    this.averageLengths = {
      title: Math.max(1, foldedTitles.reduce((sum, title) => sum + title.length, 0) / count),
      body: bodyLengths.reduce((sum, length) => sum + length, 0) / count,
    };
    return this;
  }

  // "Matching", "Partial matches", "Typos" and "Ranking" (SearchIndex.search). With `now`, a sharded
  // index answers at once, without the body matches of terms whose shards are still on the way
  // (fetched meanwhile), and the answer says `partial`. `filters` ({field: [values]}), `sort`
  // ("-area") and `facets: true` (the counts wanted) read the collections' facet files: "Filters,
  // counts and sorting".
  async search(query, { scope = "All", collection = null, limit = Infinity, now, filters = {}, sort, facets: counted } = {}) {
    const { pool, scopes, chosen } = this.consideredDocuments(scope, collection);
    const facets = counted || sort || Object.values(filters).some((values) => values.length) ? await this.facets(chosen) : null;
    facets?.select(filters);
    const searched = await this.searchedTerms(queryTerms(query), { now });
    // The title is compared with the query as typed: "pago pago" is Pago Pago's title, not Pago's.
    searched.phrase = terms(query).join(" ");
    const partial = searched.some((term) => term.pending);
    // Per document: whether a term is only in its body, and which terms its fields hold (bit k % 32 for term k).
    const viaBody = new Uint8Array(this.count), inFields = new Uint32Array(this.count);
    let hits = pool.documents;
    searched.forEach((term, k) => (hits = this.fullMatches(term, hits, { viaBody, inFields, bit: 1 << k })));
    const { scopeNames, documentScopes, scopeNumbers } = this;
    const wanted = (doc) => scope === "All" || documentScopes[doc] === scope, passes = (doc) => !facets || facets.passes(doc);
    const facetCounts = facets?.counts(scope === "All" ? hits : hits.filter(wanted));
    if (facets?.selected.length) hits = hits.filter(passes);
    const scopeHits = tally(hits, scopeNumbers, scopeNames.length);
    const counts = { All: hits.length };
    for (const name of scopes) counts[name] = scopeHits[scopeNames.indexOf(name)];
    const few = (name) => counts[name] < 5, scopeCounts = { ...counts };
    // Not for a partial answer: its few may be many once body matches arrive.
    const extra = searched.length && !partial && (few("All") || scopes.some(few)) ? await this.fewMatches({ searched, hits, pool, scope, scopes, few, passes, scopeCounts }) : [];
    let ordered = this.order(scope === "All" ? hits : hits.filter(wanted), { viaBody, inFields }, extra, searched, sort ? Infinity : limit);
    if (sort) ordered = facets.sortedHits(ordered, sort);
    const results = ordered.slice(0, limit).map((hit) => this.result(hit.doc, hit.match));
    const total = scope === "All" ? scopeCounts.All : scopeCounts[scope];
    return { query, scope, total, ...(facets && { facets: facetCounts }), results, scopeCounts, ...(partial && { partial: true }) };
  }

  // "Matching" (SearchIndex.consideredDocuments): the collections and documents asked for, the
  // documents kept with their typo sets for the next query; the scope is applied as hits are listed.
  consideredDocuments(scope, collection) {
    const chosen = collection == null ? this.tables : this.tables.filter((table) => table.collection.name === collection);
    if (!chosen.length) throw Error(`unknown collection “${collection}”`);
    const scopes = orderedScopes(chosen.map((table) => table.collection));
    if (scope !== "All" && !scopes.includes(scope)) throw Error(`unknown scope “${scope}”`);
    const first = chosen[0].first, count = chosen.reduce((sum, table) => sum + table.collection.count, 0);
    const pool = (this.pools[first + " " + count] ??= { documents: new Int32Array(count).map((_, i) => first + i), typos: {} });
    return { pool, scopes, chosen };
  }

  // "Matching" (SearchIndex.searchedTerms): each term with its body candidates. A term of 3+ code
  // points, or a CJK term of 2, searches bodies on its own; a shorter one only beside such a term,
  // as a whole word; a CJK word piece with marks, as that piece (`bodyForm`); a loose term lets any
  // body through (`isLoose`).
  // With `now`, candidates still on the way are left out and the term `pending`.
  async searchedTerms(queryTerms, { now }) {
    const anyAlone = queryTerms.some(searchesAlone);
    return Promise.all(queryTerms.map(async (text) => {
      const alone = searchesAlone(text), length = codePoints(text).length, piece = bodyForm(text);
      const term = { text, searchesAlone: alone, body: null, typoEdits: length > 3 && !CJK.test(text) ? (length > 7 ? 2 : 1) : 0 };
      if (isLoose(text)) Object.assign(term, { anyBody: true, searchesAlone: false });
      else if (alone || anyAlone) {
        const looked = piece ?? text, search = this.bodyCandidates(looked, { wholeWord: !searchesAlone(looked) });
        // At once, in the keystroke's own task (a timer let Chromium paint a frame first), unless
        // the body matches are known or near: a one-file index, or shards fetched with the index.
        if (now && this.manifest.shards && !(looked in this.bodyCandidatesFound) && !this.hintedTerms.includes(text)) {
          search.catch(String);
          term.pending = true;
        } else term.body = await search;
      }
      term.idf = idf(this.count, term.anyBody ? this.count : term.body ? term.body.holding : 0);
      return term;
    }));
  }

  // "Filters, counts and sorting" (Facets.init): the facets of the collections searched, their
  // files and the code that reads them (sift-facets.js, which only a search with facets needs)
  // fetched once.
  facets(chosen) {
    return (this.facetSets[chosen.map((table) => table.collection.name)] ??= Promise.all([import("./sift-facets.js"), ...chosen.filter((table) => table.collection.facets).map(async (table) =>
      ({ first: table.first, count: table.collection.count, file: await this.fetchJSON(table.collection.facets) }))])
      .then(([{ Facets }, ...loaded]) => Facets.read(loaded, this.count), corruptIndex));
  }

  // "Matching" (SearchIndex.fullMatch): the documents of `documents` (ascending) with the term in
  // a field or in the body, those only in the body marked in `viaBody`, those with it in a field given `bit` in `inFields`.
  fullMatches(term, documents, { viaBody, inFields, bit }) {
    const found = this.fieldMatches(term.text, documents), { body, anyBody } = term;
    for (const doc of found) inFields[doc] |= bit;
    if ((!body && !anyBody) || found.length === documents.length) return found;
    const out = new Int32Array(documents.length);
    let count = 0;
    for (let i = 0, field = 0; i < documents.length; i++) {
      const doc = documents[i];
      if (field < found.length && found[field] === doc) field++, (out[count++] = doc);
      else if (anyBody || body[doc]) (viaBody[doc] = 1), (out[count++] = doc);
    }
    return out.subarray(0, count);
  }

  // "Matching": the documents of `documents` (ascending) with the term in a folded field. One
  // indexOf over every field jumps past the documents without it.
  fieldMatches(term, documents) {
    const { fieldText, fieldOffsets } = this, out = new Int32Array(documents.length);
    let count = 0;
    for (let i = 0, found = -1; i < documents.length; i++) {
      const doc = documents[i];
      if (found < fieldOffsets[doc] && (found = fieldText.indexOf(term, fieldOffsets[doc])) < 0) break;
      if (found < fieldOffsets[doc + 1]) out[count++] = doc;
    }
    return out.subarray(0, count);
  }

  // "Partial matches" and "Typos" (SearchIndex.partialMatch, fuzzyMatch): in sift-typos.js, which
  // only a query with few matches needs, fetched once (the search's state: sift-typos.js fewMatches).
  async fewMatches(search) {
    // One term adds matches only past 3 code points: typos, or the pieces of a CJK term.
    if (search.searched.length < 2 && !search.searched.some((term) => codePoints(term.text).length > 3)) return [];
    const { fewMatches } = await (this.typoCode ??= import("./sift-typos.js"));
    return fewMatches(this, search);
  }

  // "Ranking" (SearchIndex.order): the full matches (`full`, with their body-only marks) and the
  // partial and typo ones (`extra`) scored and put in order (group: 0 the title is the phrase, 1
  // starts with its words, 2 starts with it, 3 the other full matches, 4 partial, 5 fuzzy; edits;
  // a title's length in groups 0–2; score; title length; list order), the first `limit` of them.
  // Past 4 × `limit` hits only the first ones are kept as the hits go by; a hit placed after the
  // last of them by what comes before its score is not scored.
  order(full, { viaBody, inFields }, extra, searched, limit) {
    if (!searched.length || !(limit > 0)) return Array.from(full.slice(0, Math.max(0, limit)), (doc) => ({ doc, match: "field", group: 3 }));
    const phrase = searched.phrase ?? searched.map((term) => term.text).join(" "), { foldedTitles } = this, kept = [];
    const before = (a, b) => a.group - b.group || a.distance - b.distance || b.words - a.words || (a.group < 3 && a.titleLength - b.titleLength)
      || b.score - a.score || a.titleLength - b.titleLength || this.listed(a.doc, b.doc);
    const all = full.length + extra.length <= limit * 4;
    // Past 4 × `limit` a hit is weighed in one probe, and copied only if kept.
    const probe = {};
    const consider = (doc, match, group, distance, words = 0, score) => {
      const title = foldedTitles[doc], last = !all && kept.length >= limit && kept[limit - 1], hit = all ? {} : probe;
      if (group === 3) group = title === phrase ? 0 : !title.startsWith(phrase) ? 3 : isWordAt(title, phrase.length) ? 2 : 1;
      // Once `limit` are kept, a hit of a group after the last one's is placed after it; of group 3
      // with the last in it too (the partial and typo ones come after every full match), by its score alone, unless equal.
      if (last && (group > last.group || (group === 3 && (score ??= this.score(doc, searched, phrase, inFields[doc])) < last.score))) return;
      (hit.doc = doc), (hit.match = match), (hit.group = group), (hit.distance = distance), (hit.words = words), (hit.titleLength = title.length);
      hit.score = score ?? this.score(doc, searched, phrase, group < 4 ? inFields[doc] : -1);
      if (all) return kept.push(hit);
      if (last && before(hit, last) > 0) return;
      let at = kept.length;
      while (at > 0 && before(hit, kept[at - 1]) < 0) at--;
      kept.splice(at, 0, { ...hit });
      if (kept.length > limit) kept.pop();
    };
    for (let i = 0; i < full.length; i++) consider(full[i], viaBody[full[i]] ? "body" : "field", 3, 0);
    for (const hit of extra) consider(hit.doc, hit.match, hit.group, hit.distance, hit.words, hit.score);
    return all ? kept.sort(before).slice(0, limit) : kept;
  }

  // "Ranking", the score (SearchIndex.score): per term found, its rarity times its weight in the
  // title, the other fields (as one text, "\n" between them) and the body; the phrase in a field,
  // or else every term in the page's head (a field or the body's lead), one in the lead, lifts every term.
  // `inFields`: the bits of the terms its fields may hold (bit k % 32 for term k); the others are not looked for there.
  score(doc, searched, phrase, inFields) {
    const title = this.foldedTitles[doc], average = this.averageLengths, bodyLength = this.bodyLengths[doc];
    const others = inFields ? this.fieldText.slice(this.fieldOffsets[doc] + title.length + 1, this.fieldOffsets[doc + 1] - 1) : "";
    let total = 0, rarity = 0, termsInFields = 0, inHead = 0, anyLead = 0;
    const anyAlone = searched.some((term) => term.searchesAlone);
    for (let k = 0; k < searched.length; k++) {
      const { text, body, idf, searchesAlone } = searched[k], bit = inFields & (1 << k);
      // A short term beside a longer one weighs in the title and the body, not in the other fields.
      const inTitle = bit && title.includes(text), inOthers = bit && others.includes(text), held = inTitle || inOthers;
      let weight = inTitle ? TITLE_WEIGHT * place(wordFit(title, text)) * saturation(title.length, average.title, 1) : 0;
      if (inOthers && (searchesAlone || !anyAlone)) weight += FIELD_WEIGHT * place(wordFit(others, text)) * saturation(others.length, average.title, 1);
      if (held) termsInFields++;
      const marks = body ? body[doc] : 0, inLead = marks & LEAD;
      if (held || inLead) inHead++;
      anyLead |= inLead;
      if (marks) weight += BODY_WEIGHT * place(marks) * saturation(bodyLength, average.body, marks & OFTEN ? OFTEN_COUNT : 1);
      if (weight > 0 || held) rarity += idf;
      total += idf * weight;
    }
    if (searched.length > 1) {
      total += (termsInFields == searched.length && squeezed(title + "\n" + others).includes(squeezed(phrase)) ? PHRASE_WEIGHT : inHead == searched.length && anyLead ? LEAD_WEIGHT : 0) * rarity;
    }
    return total;
  }

  // A result as `sift search --json` prints it, plus its place in its collection's list order.
  result(doc, match) {
    const table = this.tables.findLast((table) => table.first <= doc), position = doc - table.first;
    const slug = table.slugs[position] || derivedSlug(this.foldedTitles[doc]);
    return {
      collection: table.collection.name,
      slug,
      title: table.titles[position],
      url: this.manifest.base + (table.urls[position] ?? `${table.collection.name}/${slug}/`),
      scope: this.documentScopes[doc],
      match,
      position,
    };
  }

  // "Matching", body candidates (SearchIndex.bodyCandidates): the documents whose body may hold the
  // term, never missing one that does, each with its marks (Score's: how a body word holds it,
  // whether often); `holding` counts them. `wholeWord`: a short term, found as a word of its own (a CJK
  // one as its gram). One search per term, kept as a promise.
  bodyCandidates(term, { wholeWord }) {
    return (this.bodySearches[term] ??= this.searchBodies(term, wholeWord).catch(corruptIndex));
  }

  async searchBodies(term, wholeWord) {
    const termPieces = wholeWord ? [term] : pieces(term), last = termPieces.length - 1;
    // Only a one-piece term outside CJK text can be part of a word rather than all of one.
    const alwaysWhole = wholeWord || last > 0 || isCJK(term);
    // Each piece, then each window among the bridges.
    const looked = wholeWord ? termPieces : termPieces.concat(windows(termPieces));
    let candidates = null;
    for (let i = 0; i < looked.length; i++) {
      const piece = looked[i];
      // A short first or last piece of several may be cut from a longer word: it constrains nothing.
      if (last && codePoints(piece).length < 3 && (i === 0 || i === last)) continue;
      // One piece: the words holding it; of several, the first ends a word, the last starts one
      // and each middle one is a word; a window: the bridges holding it. A bridge holds a piece
      // only where one of its pieces does.
      const fits = wholeWord ? (word) => word === piece : i > last ? (word) => word.includes(piece) && isBridge(word)
        : (word) => !isBridge(word) && (!last ? word.includes(piece) : i === 0 ? word.endsWith(piece) : i < last ? word === piece : word.startsWith(piece));
      const found = new Uint8Array(this.count), words = await this.words(piece);
      // A task's pause before the work on the shard: a keystroke's field matches go first, and are painted.
      if (i === 0 && this.manifest.shards) await new Promise((resolve) => setTimeout(resolve));
      // A " piece" marker: the union of the "@" words holding the piece (or window) is in the union
      // file; they hold it after their first code point, so inside a word.
      const union = (!last || i > last) && !wholeWord && " " + piece in words && (await this.unions(key(piece)))[piece];
      // Only the words that fit, each a promise: a one-file index's every word would be one per term.
      await Promise.all(Object.keys(words).filter(fits).map(async (word) => {
        const entry = words[word];
        if (union && entry === "@") return;
        const [postings, ...more] = (entry === "@" ? await this.primaryPostings(word) : entry).split(":"), starts = word.startsWith(piece);
        decodePostings(postings, found, alwaysWhole || word === piece ? WHOLE_WORD : starts ? WORD_START : INSIDE_WORD);
        // Only a word starting with the piece is read from its own entry by every reader, unions or
        // not: its often postings (OFTEN), then its lead's (LEAD, the next bit).
        if (starts && !last) more.map((part, k) => decodePostings(part, found, OFTEN << k));
      }));
      if (union) decodePostings(union, found, alwaysWhole ? WHOLE_WORD : INSIDE_WORD);
      candidates = candidates ? candidates.map((value, doc) => (found[doc] ? value : 0)) : found;
      if (!candidates.some(Boolean)) break;
    }
    candidates ??= new Uint8Array(this.count).fill(WHOLE_WORD);
    // Counted by index: a reduce's callback for each of a million documents took 20 ms.
    let holding = 0;
    for (let doc = 0; doc < candidates.length; doc++) holding += candidates[doc] > 0;
    candidates.holding = holding;
    return (this.bodyCandidatesFound[term] = candidates);
  }

  // "Sharding" (SearchIndex.words(for:)): the word entries filed under a term's key, from its
  // shard, or every word of a one-file index.
  words(term) {
    return this.indexFile("shard", key(term));
  }

  // "Unions": the union file beside the key's shard.
  unions(key) {
    return this.indexFile("union", key);
  }

  async indexFile(kind, key) {
    const { manifest } = this;
    if (!manifest.shards) return manifest.words;
    const number = shard(bucket(key), manifest.bounds);
    return (this.files[kind + number] ??= this.fetchJSON(`${kind}-${number}.json`));
  }

  // "Sharding" (SearchIndex.primaryPostings): the postings of a word whose entry says "@".
  async primaryPostings(word) {
    return (await this.words(word))[word];
  }

  // "Ranking": which of two documents ranked alike comes first, by list order (their numbers).
  listed(a, b) {
    return a - b;
  }
}

// How many of `docs` each number of `numbers` has (`size` numbers): a loop of its own, which
// V8 optimizes apart from search(), whose optimized code a loop inside it made it leave at every call.
function tally(docs, numbers, size) {
  const out = new Int32Array(size);
  for (let i = 0; i < docs.length; i++) out[numbers[docs[i]]]++;
  return out;
}

// "Matching" (SearchIndex.orderedScopes): the scopes of the collections searched, each once, in order.
function orderedScopes(collections) {
  return [...new Set(collections.flatMap((collection) => collection.scopes))];
}

// "Ranking" (SearchIndex.wordFit): how `value` holds `term` at best (Score's fit): as a whole word
// (after and before a code point that is not a word code point, or the ends), at a word's start,
// or inside a word. Folded, an ASCII neighbour is never A-Z.
function wordFit(value, term) {
  let best = INSIDE_WORD;
  for (let i = value.indexOf(term); i >= 0; i = value.indexOf(term, i + 1)) {
    if (isWordBefore(value, i)) continue;
    if (!isWordAt(value, i + term.length)) return WHOLE_WORD;
    best = WORD_START;
  }
  return best;
}

// "Ranking" (SearchIndex.squeezed): each run of code points that are not word code points made one space.
const squeezed = (text) => text.replace(/[^\p{L}\p{M}\p{N}]+/gu, " ");

const isWordCode = (code) => (code > 96 && code < 123) || (code > 47 && code < 58);
// Whether the code point ending at UTF-16 offset i, or starting at it, is a word code point.
const isWordBefore = (text, i) => (text.charCodeAt(i - 1) < 128 ? isWordCode(text.charCodeAt(i - 1)) : WORD_CODE_POINT_AT_END.test(text.substring(i - 2, i)));
const isWordAt = (text, i) => (text.charCodeAt(i) < 128 ? isWordCode(text.charCodeAt(i)) : WORD_CODE_POINT_AT_START.test(text.substring(i, i + 2)));

// "Ranking" (Score): the score's constants, and formulas written with + − × ÷ only, so that Swift
// and JavaScript compute the same doubles. The marks of a body candidate say how a body word holds
// the term: inside a word (1), at a word's start (3), a whole word (7), whether often (8:
// OFTEN_COUNT times or more), and whether in the body's lead (16: its first 24 word pieces).
const TITLE_WEIGHT = 8, FIELD_WEIGHT = 4, BODY_WEIGHT = 1, PHRASE_WEIGHT = 1.5, LEAD_WEIGHT = 1, K1 = 1.2, B = 0.5, OFTEN_COUNT = 3;
const INSIDE_WORD = 1, WORD_START = 3, WHOLE_WORD = 7, OFTEN = 8, LEAD = 16;

// "Ranking" (Score.place): what a place counts, from its marks.
function place(marks) {
  return marks & 4 ? 1 : marks & 2 ? 0.75 : 0.5;
}

// "Ranking" (Score.saturation): BM25's weight of `count` occurrences in a field of `length` where fields average `average`.
function saturation(length, average, count) {
  return ((K1 + 1) * count) / (count + K1 * (1 - B + (B * length) / average));
}

// "Ranking" (Score.idf): BM25's rarity, log2 taken piecewise linearly between powers of two.
function idf(documents, holding) {
  let x = 1 + (documents - holding + 0.5) / (holding + 0.5), exponent = 0;
  while (x >= 2) (x /= 2), exponent++;
  return exponent + x - 1;
}

// "Ranking" (IndexFormat.bodyLength(code:)): the body length a code stands for, (4 + q % 4) · 2^(q / 4) / 4 words.
function bodyLength(code) {
  return ((4 + (code % 4)) * 2 ** (code >> 2)) / 4;
}

/** The UTF-16 ranges of `text` that hold the query's terms once folded, merged where they meet. */
export function highlight(text, query) {
  let folded = "", position = 0;
  const starts = [], ends = [], ranges = [], merged = [];
  for (const char of text) {
    const foldedChar = fold(char), end = position + char.length;
    // A character that folds to nothing (a dropped mark) joins the one before it.
    if (!foldedChar && ends.length) ends[ends.length - 1] = end;
    for (let unit = 0; unit < foldedChar.length; unit++) starts.push(position), ends.push(end);
    folded += foldedChar;
    position = end;
  }
  for (const term of terms(query)) {
    for (let at = folded.indexOf(term); at >= 0; at = folded.indexOf(term, at + 1)) ranges.push([starts[at], ends[at + term.length - 1]]);
  }
  for (const range of ranges.sort((left, right) => left[0] - right[0])) {
    const previous = merged.at(-1);
    if (previous && range[0] <= previous[1]) previous[1] = Math.max(previous[1], range[1]);
    else merged.push(range);
  }
  return merged;
}
