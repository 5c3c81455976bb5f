// Sift's search without the DOM: the query engine of docs/search-index.md, for the browser and
// for node. `sift search` runs the same engine in Swift (Sources/SiftKit/Search/SearchIndex.swift
// and IndexFormat.swift): the same steps under the same names, in the same order, each naming
// its section of docs/search-index.md; Tests/Fixtures/search-vectors.json keeps the two answers
// equal. What only this side has (field matches over one string, ranking in buckets, partial
// answers, typing on from the previous answer) is there for a keystroke's speed.

/** The index format this client reads: IndexFormat.swift's constants, compared by Tests/js/format.test.mjs. */
export const IndexFormat = Object.freeze({ version: 2, buckets: 4096 });

const WORD_CODE_POINT_AT_END = /[\p{L}\p{M}\p{N}]$/u;
const PIECE = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+/gu;
const codePoints = (text) => [...text];

// "Folding and terms" (Fold.fold).
export function fold(text) {
  // Pure ASCII has nothing to normalize: lowercasing it is its whole fold.
  return /[^\0-\x7f]/.test(text) ? text.normalize("NFKD").replace(/\p{Mn}/gu, "").toLowerCase().replace(/ς/g, "σ") : text.toLowerCase();
}

// "Folding and terms" (Fold.terms).
export function terms(query) {
  return fold(query).split(/\p{White_Space}+/u).filter(Boolean);
}

// "Words and postings" (IndexFormat.pieces): a term splits as bodies do, into runs of word code
// points and of other code points. Terms hold no white space.
function pieces(folded) {
  return folded.match(PIECE);
}

// "Sharding" (IndexFormat.key): a word is filed under its first three code points.
function key(word) {
  return codePoints(word).slice(0, 3).join("");
}

// "Sharding" (IndexFormat.bucket(ofKey:)): 32-bit FNV-1a over the key's UTF-8, modulo the bucket count.
function bucket(key) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(key)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % IndexFormat.buckets;
}

// "Sharding" (IndexFormat.shard(ofBucket:bounds:)): the number of bounds at or below the bucket.
function shard(bucketNumber, bounds) {
  let number = 0;
  for (const bound of bounds) number += bound <= bucketNumber;
  return number;
}

// "Words and postings" (IndexFormat.decodePostings): marks each document of the postings in
// `into`. Base64 of LEB128 varints of the gaps, or "!" and base64 of a bitmap.
export function decodePostings(postings, into) {
  const bitmap = postings[0] === "!", bytes = atob(postings.slice(bitmap ? 1 : 0));
  for (let i = 0, doc = -1, gap = 0, shift = 0; i < bytes.length; i++) {
    const byte = bytes.charCodeAt(i);
    if (bitmap) {
      for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) into[i * 8 + bit] = 1;
    } else {
      gap += (byte & 127) * 2 ** shift;
      shift += 7;
      // A varint's last byte is below 128.
      if (byte < 128) {
        doc += gap + 1;
        into[doc] = 1;
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

/** A search index read from a built site's search/manifest.json, answering as `sift search` does. */
export class SiftIndex {
  /**
   * Fetches the manifest and the document tables it names. `hint()` is the text typed meanwhile:
   * its terms' shards are requested before the tables are built, so their round trip overlaps it.
   */
  static async load(manifestURL, { fetch = globalThis.fetch, hint } = {}) {
    const url = new URL(manifestURL, globalThis.location?.href);
    const fetchJSON = async (name) => {
      const response = await fetch(new URL(name, url).href);
      if (!response.ok) throw Error(`sift: ${name}: ${response.status}`);
      return response.json();
    };
    try {
      const manifest = await fetchJSON(url.href);
      if (manifest.version !== IndexFormat.version) throw Error(`sift: index version ${manifest.version}`);
      const tables = await Promise.all(manifest.collections.map((collection) => (collection.docs.fields ? collection.docs : fetchJSON(collection.docs))));
      return new SiftIndex(manifest, tables, fetchJSON, hint);
    } catch (error) {
      corruptIndex(error);
    }
  }

  // Documents are numbered across collections, in list order. Their folded fields are one string,
  // "\n" between fields: document d's are fieldText[fieldOffsets[d] … fieldOffsets[d + 1] - 1).
  // Titles and slugs stay in the tables until a result needs them.
  constructor(manifest, tables, fetchJSON, hint) {
    this.manifest = manifest;
    this.fetchJSON = fetchJSON;
    this.collections = manifest.collections;
    this.files = {}; // shard and union files, as promises, by kind and number
    this.bodySearches = {}; // body candidates, as promises, by term
    this.bodyCandidatesFound = {}; // the same once found
    this.pools = {}; // the documents a search considers, by first document and count
    this.facetSets = {}; // their facets, as promises, by first document and number of collections
    this.hintedTerms = terms(hint?.() ?? "");
    for (const term of this.hintedTerms) if (term.length > 2) this.words(key(term)).catch(String);
    this.tables = [];
    this.foldedTitles = [];
    this.documentScopes = []; // each document's scope name, or null
    this.collectionNumbers = [];
    const fields = [], offsets = [0];
    manifest.collections.forEach((collection, number) => this.loadCollection(collection, tables[number], number, fields, offsets));
    this.scopeNames = [...new Set([null, ...manifest.collections.flatMap((collection) => collection.scopes)])];
    this.scopeNumbers = Int32Array.from(this.documentScopes, (scope) => this.scopeNames.indexOf(scope));
    this.fieldOffsets = Int32Array.from(offsets);
    this.fieldText = fields.join("\n");
  }

  // "The document table" (SearchIndex.load(_:number:)): one collection's table, checked against
  // its count before anything of that size is built, and its documents' folded fields.
  loadCollection(collection, table, number, fields, offsets) {
    const count = collection.count;
    if (table.slugs.length !== count || !table.fields[0]) corruptIndex();
    const scopeCodes = table.scope ? decodeCodes(table.scope, count) : [];
    const columns = table.fields.map((field) => {
      const values = field.scope ? collection.scopes : field.values;
      return { ids: field.scope ? scopeCodes : field.ids && decodeCodes(field.ids, count), values, folded: values.map(fold) };
    });
    this.tables.push({ collection, first: this.foldedTitles.length, urls: table.urls ?? {}, slugs: table.slugs, columns });
    const { foldedTitles, documentScopes, collectionNumbers } = this;
    for (let i = 0, offset = offsets.at(-1); i < count; i++) {
      for (const { ids, folded } of columns) {
        fields.push(folded[ids ? ids[i] : i] ?? "");
        offset += fields.at(-1).length + 1;
      }
      foldedTitles.push(fields[fields.length - columns.length]);
      collectionNumbers.push(number);
      documentScopes.push(collection.scopes[scopeCodes[i]] ?? null);
      offsets.push(offset);
    }
  }

  // "Matching", "Ranking" and "Typos" (SearchIndex.search). With `now`, a sharded index answers at
  // once, without the body matches of terms whose shards are still on the way (fetched
  // meanwhile), and the answer says `partial`. `filters` ({field: [values]}), `sort` ("-area")
  // and `facets: true` (the counts wanted) read the collections' facet files: "Filters, counts
  // and sorting".
  async search(query, { scope = "All", collection = null, limit = Infinity, now, filters = {}, sort, facets: counted } = {}) {
    const chosen = collection == null ? this.tables : this.tables.filter((table) => table.collection.name === collection);
    if (!chosen.length) throw Error(`unknown collection “${collection}”`);
    const scopes = orderedScopes(chosen.map((table) => table.collection));
    if (scope !== "All" && !scopes.includes(scope)) throw Error(`unknown scope “${scope}”`);
    const facets = counted || sort || Object.values(filters).some((values) => values.length) ? await this.facets(chosen) : null;
    facets?.select(filters);
    const first = chosen[0].first, count = chosen.reduce((sum, table) => sum + table.collection.count, 0);
    const pool = (this.pools[first + " " + count] ??= { documents: Array.from({ length: count }, (_, i) => first + i), typos: {} });
    const queryTerms = [...new Set(terms(query))], previous = this.previous;
    // Typing on narrows when each new term matches only where an old one inside it did: the old
    // hits and body-only marks hold, and a term searched before ("port" in "port l") is skipped.
    const narrowing = previous?.pool === pool && previous.terms.every((old) => queryTerms.some((term) =>
      term.includes(old) && (codePoints(term).length < 3 || (codePoints(old).length > 2 && pieces(term).length < 2))));
    const viaBody = narrowing ? previous.viaBody.slice() : new Uint8Array(this.foldedTitles.length);
    let hits = narrowing ? previous.hits : pool.documents, partial = false;
    for (const term of queryTerms) {
      if (narrowing && previous.terms.includes(term)) continue;
      const inFields = this.fieldMatches(term, hits);
      if (codePoints(term).length > 2 && inFields.length < hits.length) {
        const search = this.bodyCandidates(term);
        // At once, in the keystroke's own task (a timer let Chromium paint a frame first), unless
        // the body matches are known or near: a one-file index, or shards fetched with the index.
        if (now && this.manifest.shards && !(term in this.bodyCandidatesFound) && !this.hintedTerms.includes(term)) {
          search.catch(String);
          partial = true;
          // The field matches as found: a pass over up to every hit would delay the answer.
          hits = inFields;
          continue;
        }
        const candidates = await search;
        let field = 0;
        hits = hits.filter((doc) => {
          if (inFields[field] === doc) return ++field;
          if (candidates && !candidates[doc]) return false;
          viaBody[doc] = 1;
          return true;
        });
      } else hits = inFields;
    }
    // A partial answer lacks body matches: typing on narrows from whole answers only.
    if (!partial) this.previous = { pool, terms: queryTerms, hits, viaBody };
    const facetCounts = facets?.counts(hits.filter((doc) => scope === "All" || this.documentScopes[doc] === scope));
    if (facets) hits = hits.filter((doc) => facets.passes(doc));
    const { scopeNames, documentScopes } = this, scopeHits = new Int32Array(scopeNames.length);
    const ranks = this.rank(hits, viaBody, queryTerms, scope, sort ? Infinity : limit, scopeHits);
    const counts = { All: hits.length };
    for (const name of scopes) counts[name] = scopeHits[scopeNames.indexOf(name)];
    const few = (name) => counts[name] < 5, fuzzy = [], scopeCounts = { ...counts }, matched = counts[scope];
    // Not for a partial answer: its few may be many once body matches arrive. Only the items of
    // scopes with few matches can show typos, so only theirs are searched.
    if (queryTerms.length && !partial && (few("All") || scopes.some(few))) {
      const fewScopes = few("All") ? "" : scopes.filter(few).join("\n");
      const typos = (pool.typos[fewScopes] ??= { documents: fewScopes ? pool.documents.filter((doc) => few(documentScopes[doc])) : pool.documents, sets: {} });
      const reached = new Int32Array(this.foldedTitles.length);
      const sets = queryTerms.map((term) => (typos.sets[term] ??= this.fuzzyMatches(term, typos)));
      for (const set of sets) for (const doc of set) reached[doc]++;
      for (let i = 0; i < hits.length; i++) reached[hits[i]] = 0;
      for (const doc of sets[0]) {
        if (reached[doc] !== queryTerms.length || !(few("All") || few(documentScopes[doc])) || (facets && !facets.passes(doc))) continue;
        if (matched < 5 && (scope === "All" || documentScopes[doc] === scope)) fuzzy.push(doc);
        for (const name of ["All", documentScopes[doc]]) if (few(name)) scopeCounts[name]++;
      }
    }
    const ordered = sort ? facets.sorted([].concat(...ranks), sort).concat(facets.sorted(fuzzy, sort)) : [].concat(...ranks, fuzzy);
    const results = ordered.slice(0, limit).map((doc, i) => this.result(doc, i >= matched ? "fuzzy" : viaBody[doc] ? "body" : "field"));
    return { query, scope, total: matched + fuzzy.length, ...(facets && { facets: facetCounts }), results, scopeCounts, ...(partial && { partial: true }) };
  }

  // "Filters, counts and sorting" (Facets.init): the facets of the collections searched, their
  // files and the code that reads them (sift-facets.js, which only a search with facets needs)
  // fetched once.
  facets(chosen) {
    return (this.facetSets[chosen[0].first + " " + chosen.length] ??= Promise.all([import("./sift-facets.js"), ...chosen.filter((table) => table.collection.facets).map(async (table) =>
      ({ first: table.first, count: table.collection.count, file: await this.fetchJSON(table.collection.facets) }))])
      .then(([{ Facets }, ...loaded]) => new Facets(loaded, this.foldedTitles.length), corruptIndex));
  }

  // "Matching": the documents of `documents` (ascending) with the term in a folded field. One
  // indexOf over every field jumps past the documents without it.
  fieldMatches(term, documents) {
    const { fieldText, fieldOffsets } = this, out = [];
    for (let i = 0, found = -1; i < documents.length; i++) {
      const doc = documents[i];
      if (found < fieldOffsets[doc] && (found = fieldText.indexOf(term, fieldOffsets[doc])) < 0) break;
      if (found < fieldOffsets[doc + 1]) out.push(doc);
    }
    return out;
  }

  // "Ranking": the hits in the five rank buckets, in list order, and each scope's hits counted.
  // Once one bucket holds `limit` hits of the scope asked for, it and the buckets after it close:
  // later hits are only counted. A sync method with an indexed loop, not part of search() nor a
  // for…of: it meets up to every item before V8 has optimized it, and V8 optimizes such loops
  // late inside an async function, and for…of loops late anywhere.
  rank(hits, viaBody, queryTerms, scope, limit, scopeHits) {
    const { foldedTitles, documentScopes, scopeNumbers } = this, ranks = [[], [], [], [], []];
    const phrase = queryTerms.join(" "), firstTerm = queryTerms[0];
    let open = 5; // the buckets below this one are open
    for (let i = 0; i < hits.length; i++) {
      const doc = hits[i];
      scopeHits[scopeNumbers[doc]]++;
      if (open && (scope === "All" || documentScopes[doc] === scope)) {
        const title = foldedTitles[doc];
        const rank = !firstTerm ? 3 : viaBody[doc] ? 4 : title === phrase ? 0
          : open > 1 && title.startsWith(phrase) ? 1 : open > 2 && hasWordStarting(title, firstTerm) ? 2 : 3;
        if (rank < open && ranks[rank].push(doc) >= limit) open = rank;
      }
    }
    return ranks;
  }

  // A result as `sift search --json` prints it, plus its place in its collection's list order.
  result(doc, match) {
    const table = this.tables[this.collectionNumbers[doc]], position = doc - table.first;
    const { ids, values } = table.columns[0], slug = table.slugs[position] || derivedSlug(this.foldedTitles[doc]);
    return {
      collection: table.collection.name,
      slug,
      title: values[ids ? ids[position] : position] ?? "",
      url: this.manifest.base + (table.urls[position] ?? `${table.collection.name}/${slug}/`),
      scope: this.documentScopes[doc],
      match,
      position,
    };
  }

  // "Typos" (SearchIndex.fuzzyMatches, there per document): the documents of `typos.documents`
  // whose fields hold the term or, for 4+ code points, whose folded title holds a substring within
  // k edits of it. Swift tests every title; here, k edits leave one of k + 1 pieces of the term
  // whole, so only titles holding a piece are tested, and a kept set of a term inside this one
  // (with the same k) holds every title this one can reach.
  fuzzyMatches(term, typos) {
    const pattern = codePoints(term), length = pattern.length, within = length > 7 ? 2 : 1;
    const reach = new Uint8Array(this.foldedTitles.length), out = [];
    let documents = typos.documents;
    for (const kept in typos.sets) if (term.includes(kept) && typos.sets[kept].within === within) documents = typos.sets[kept];
    out.within = length > 3 && within;
    for (let piece = 0; length > 3 && piece <= within; piece++) {
      const text = pattern.slice((piece * length) / (within + 1) | 0, ((piece + 1) * length) / (within + 1) | 0).join("");
      for (const doc of this.fieldMatches(text, documents)) reach[doc] = 1;
    }
    for (const doc of this.fieldMatches(term, documents)) reach[doc] = 2;
    // Indexed: the loop meets up to every item before V8 has optimized it.
    for (let i = 0; i < documents.length; i++) {
      const doc = documents[i];
      if (reach[doc] > 1 || (reach[doc] && substringDistance(pattern, this.foldedTitles[doc], within))) out.push(doc);
    }
    return out;
  }

  // "Matching", body candidates (SearchIndex.bodyCandidates): the documents whose body may hold the
  // term, never missing one that does. One search per term, kept as a promise.
  bodyCandidates(term) {
    return (this.bodySearches[term] ??= this.searchBodies(term).catch(corruptIndex));
  }

  async searchBodies(term) {
    const termPieces = pieces(term), last = termPieces.length - 1;
    let candidates = null;
    for (let i = 0; i <= last; i++) {
      const piece = termPieces[i];
      // A short first or last piece of several may be cut from a longer word: it constrains nothing.
      if (last && codePoints(piece).length < 3 && (i === 0 || i === last)) continue;
      // One piece: the words holding it; of several, the first ends a word, the last starts one
      // and each middle one is a word.
      const fits = !last ? (word) => word.includes(piece) : i === 0 ? (word) => word.endsWith(piece)
        : i < last ? (word) => word === piece : (word) => word.startsWith(piece);
      const found = new Uint8Array(this.foldedTitles.length), words = await this.words(key(piece));
      // A task's pause before the work on the shard: a keystroke's field matches go first, and are painted.
      if (i === 0 && this.manifest.shards) await new Promise((resolve) => setTimeout(resolve));
      // A " piece" marker: the union of the "@" words holding the piece is in the union file.
      const union = !last && " " + piece in words && (await this.unions(key(piece)))[piece];
      await Promise.all(Object.keys(words).map(async (word) => {
        const entry = words[word];
        if (!fits(word) || (union && entry === "@")) return;
        decodePostings(entry === "@" ? await this.primaryPostings(word) : entry, found);
      }));
      if (union) decodePostings(union, found);
      candidates = candidates ? candidates.map((bit, doc) => bit & found[doc]) : found;
      if (!candidates.includes(1)) break;
    }
    return (this.bodyCandidatesFound[term] = candidates);
  }

  // "Sharding" (SearchIndex.words(for:)): the word entries filed under a key, from its shard, or
  // every word of a one-file index.
  words(key) {
    return this.indexFile("shard", key);
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
    return (await this.words(key(word)))[word];
  }
}

// "Matching" (SearchIndex.orderedScopes): the scopes of the collections searched, each once, in order.
function orderedScopes(collections) {
  return [...new Set(collections.flatMap((collection) => collection.scopes))];
}

// "Ranking", rank 2 (SearchIndex.hasWordStarting): the term starts the folded title or follows a
// code point that is not a word code point. Folded, an ASCII neighbour is never A-Z.
function hasWordStarting(title, term) {
  for (let i = title.indexOf(term); i >= 0; i = title.indexOf(term, i + 1)) {
    const before = title.charCodeAt(i - 1);
    if (before < 128 ? !((before > 96 && before < 123) || (before > 47 && before < 58)) : !WORD_CODE_POINT_AT_END.test(title.substring(i - 2, i))) return true;
  }
  return false;
}

// "Typos" (SearchIndex.substringDistance): whether some substring of `text` is within `within`
// edits of `pattern` (code points). Sellers' algorithm as Swift runs it, in Myers' bit-parallel
// form: the table's column is one machine word (a BigInt past 32 code points), its vertical and
// horizontal deltas kept as bit vectors. The pattern's match masks are kept on it for the next title.
function substringDistance(pattern, text, within) {
  const length = pattern.length, Word = length > 32 ? BigInt : Number, one = Word(1), zero = Word(0), last = one << Word(length - 1);
  const masks = (pattern.masks ??= pattern.reduce((out, char, i) => ((out[char] = (out[char] ?? zero) | (one << Word(i))), out), {}));
  let verticalPlus = -one, verticalMinus = zero, distance = length;
  for (const char of text) {
    const matches = masks[char] ?? zero, vertical = matches | verticalMinus;
    const horizontal = (((matches & verticalPlus) + verticalPlus) ^ verticalPlus) | matches;
    const horizontalPlus = verticalMinus | ~(horizontal | verticalPlus), horizontalMinus = verticalPlus & horizontal;
    distance += !!(horizontalPlus & last) - !!(horizontalMinus & last);
    verticalPlus = (horizontalMinus << one) | ~(vertical | (horizontalPlus << one));
    verticalMinus = (horizontalPlus << one) & vertical;
    if (distance <= within) return true;
  }
  return false;
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
