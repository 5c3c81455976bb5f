// "Filters, counts and sorting" of docs/search-index.md (Facets.swift): the facets and sort
// orders of the collections a search considers, from their facets-C.json files. SiftIndex.search
// uses them at its edges: the counts and the filter over its matches, then the final order.
import { decodeCodes } from "./sift-core.js";

export class Facets {
  // `loaded`: per collection with a facets file, its first document, count and file. Each value's
  // documents are kept as a list, ascending, and each sort field's places by document number
  // (`total` documents): a byte a document for each value took 200 MB at 2,000 values of 100,000
  // documents. Read a field at a time, the page left to handle input and paint between fields: at
  // a million documents each takes about 100 ms.
  static async read(loaded, total) {
    // A few pauses: a timer's least wait (4 ms once nested) does not add up as it would over a table's slices.
    const facets = new Facets(), pause = () => globalThis.scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve));
    facets.total = total;
    // Keyed by names and values from the site's data ("constructor", "__proto__" among them): objects without a prototype.
    facets.fields = Object.create(null); // {field: {value: documents}}
    facets.orders = Object.create(null); // {field: places}, 0 for a document without a value
    facets.values = {}; // per collection, by its first document: its [field, value]s in its file's order
    const lists = Object.create(null); // {field: {value: [documents]}} while they are read
    for (const { first, count, file } of [...loaded].sort((a, b) => a.first - b.first)) {
      facets.values[first] = file.facets.flatMap(({ name, values }) => values.map((value) => [name, value]));
      for (const { name, values, postings, sets, ids, frequencies, rans } of file.facets) {
        // A field whose documents hold no value is a facet all the same: counted as {}, filtered to nothing.
        const field = (lists[name] ??= Object.create(null)), members = values.map((value) => (field[value] ??= []));
        // Each value's postings, or each document's set of values as a code into `sets`, entropy-coded or not.
        if (postings) postings.forEach((list, v) => postingsList(list, first, members[v]));
        else {
          const codes = ids ? decodeCodes(ids, count) : decodeEntropyCode(rans, frequencies, count);
          for (let doc = 0; doc < count; doc++) for (const v of sets[codes[doc]]) members[v].push(first + doc);
        }
        await pause();
      }
      for (const { name, order } of file.sorts) (facets.orders[name] ??= new Int32Array(total)).set(decodeCodes(order, count), first);
    }
    for (const name in lists) {
      const field = (facets.fields[name] = Object.create(null));
      for (const value in lists[name]) field[value] = Int32Array.from(lists[name][value]);
    }
    // For counting with one step a match: per field of at most 31 values, each document's set of
    // values as a number (bit v: the field's value v), and the sets there are, numbered.
    facets.valueSets = Object.create(null);
    for (const name in facets.fields) {
      const members = Object.values(facets.fields[name]);
      if (members.length > 31) continue;
      const bits = new Int32Array(total);
      members.forEach((documents, v) => {
        for (let i = 0; i < documents.length; i++) bits[documents[i]] |= 1 << v;
      });
      const numbers = new Map(), sets = new Int32Array(total);
      for (let doc = 0, last = NaN, number = 0; doc < total; doc++) {
        // Neighbours often hold the same values: the map is asked only when they change.
        if (bits[doc] !== last) number = numbers.get((last = bits[doc])) ?? numbers.set(last, numbers.size).size - 1;
        sets[doc] = number;
      }
      facets.valueSets[name] = { sets, bits: [...numbers.keys()] };
      await pause();
    }
    return facets;
  }

  // Selects {field: [values]}, checked against the fields there are: per field selected, a byte a
  // document, 1 where the document holds one of its values.
  select(filters) {
    this.selected = Object.entries(filters).filter(([, values]) => values.length).map(([name, values]) => {
      if (!this.fields[name]) throw Error(`unknown facet “${name}”`);
      const holds = new Uint8Array(this.total);
      for (const value of values) for (const doc of this.fields[name][value] ?? []) holds[doc] = 1;
      return [name, holds];
    });
  }

  // Whether a document holds a selected value of every field selected but `except`.
  passes(doc, except) {
    return this.selected.every(([name, holds]) => name === except || holds[doc] === 1);
  }

  // Each value's count over `matches`: those that pass every other field's selection and hold it.
  counts(matches) {
    const out = [];
    for (const name in this.fields) {
      const values = Object.keys(this.fields[name]), tally = values.map(() => 0), valueSets = this.valueSets[name];
      const passing = this.selected.length ? matches.filter((doc) => this.passes(doc, name)) : matches;
      if (valueSets) {
        const { sets, bits } = valueSets, perSet = new Int32Array(bits.length);
        for (let i = 0; i < passing.length; i++) perSet[sets[passing[i]]]++;
        // Each set's bits, lowest first: m & -m is the lowest, and clz32 its number.
        perSet.forEach((count, set) => { for (let m = bits[set]; count && m; m &= m - 1) tally[31 - Math.clz32(m & -m)] += count; });
      } else {
        // A larger field by each value's documents, the passing ones marked: a step a match and one a
        // document holding a value, not a pass over the matches for each of thousands of values.
        const marked = (this.marked ??= new Uint8Array(this.total));
        for (let i = 0; i < passing.length; i++) marked[passing[i]] = 1;
        Object.values(this.fields[name]).forEach((documents, v) => {
          for (let i = 0; i < documents.length; i++) tally[v] += marked[documents[i]];
        });
        for (let i = 0; i < passing.length; i++) marked[passing[i]] = 0;
      }
      out.push([name, Object.fromEntries(values.map((value, v) => [value, tally[v]]))]);
    }
    return Object.fromEntries(out);
  }

  // The documents by a sort field (`-field` descending), stably; those without a value last.
  sorted(docs, sort) {
    const sign = sort[0] === "-" ? -1 : 1, places = this.orders[sort.slice(sign < 0)];
    if (!places) throw Error(`unknown sort field “${sort}”`);
    const place = (doc) => places[doc] * sign || Infinity;
    return docs.sort((a, b) => place(a) - place(b) || 0);
  }

  // Ranked hits by a sort field: full matches, then partial ones, then typo ones, each in the field's order.
  sortedHits(hits, sort) {
    const hitOf = new Map(hits.map((hit) => [hit.doc, hit])), kinds = [(hit) => hit.group < 4, (hit) => hit.group === 4, (hit) => hit.group === 5];
    return kinds.flatMap((kind) => this.sorted(hits.filter(kind).map((hit) => hit.doc), sort).map((doc) => hitOf.get(doc)));
  }
}

// "Postings" (decodePostings), each document numbered from `first` appended to `into`, ascending.
function postingsList(postings, first, into) {
  const bitmap = postings[0] === "!", bytes = atob(postings.slice(bitmap ? 1 : 0));
  for (let i = 0, doc = -1, gap = 0, shift = 0; i < bytes.length; i++) {
    const byte = bytes.charCodeAt(i);
    if (bitmap) {
      for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) into.push(first + i * 8 + bit);
    } else {
      gap += (byte & 127) * 2 ** shift;
      shift += 7;
      // A varint's last byte is below 128.
      if (byte < 128) {
        doc += gap + 1;
        into.push(first + doc);
        gap = shift = 0;
      }
    }
  }
}

// "Entropy-coded columns" (EntropyCode): rANS over base64 digits, the state in [LOWER, LOWER · 64).
const SCALE_BITS = 12, LOWER = 1 << 23, STATE_DIGITS = 5;

// "Entropy-coded columns" (EntropyCode.decode): the `count` symbols of `code`, whose symbols have
// `frequencies`; throws unless they add up to 2^SCALE_BITS and the code ends with the last symbol.
export function decodeEntropyCode(code, frequencies, count) {
  const scale = 1 << SCALE_BITS, symbolAt = new Uint16Array(scale), starts = [], digits = decodeCodes(code, code.length);
  let start = 0, state = 0, next = 0;
  frequencies.forEach((frequency, symbol) => {
    if (!(frequency > 0)) throw Error("sift: bad index: a frequency of " + frequency);
    starts.push(start);
    symbolAt.fill(symbol, start, (start += frequency));
  });
  if (start != scale || code.length < STATE_DIGITS) throw Error("sift: bad index: an entropy code");
  while (next < STATE_DIGITS) state = state * 64 + digits[next++];
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const slot = state & (scale - 1), symbol = (out[i] = symbolAt[slot]);
    state = frequencies[symbol] * Math.floor(state / scale) + slot - starts[symbol];
    while (state < LOWER) {
      if (next >= digits.length) throw Error("sift: bad index: an entropy code ends early");
      state = state * 64 + digits[next++];
    }
  }
  if (state != LOWER || next != digits.length) throw Error("sift: bad index: an entropy code");
  return out;
}
