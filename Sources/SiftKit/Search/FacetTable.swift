import Foundation

/// A collection's facets and sort orders in the index, the file `facets-C.json`
/// (docs/search-index.md, "Facets and sort orders"): written only for a collection with
/// `facets` or `sort_fields`, read only by a search that filters, counts or sorts.
enum FacetTable {
    /// Whether a collection's documents have facets or sort fields, and so a facets file.
    static func isNeeded(_ docs: [SearchDigest]) -> Bool {
        guard let first = docs.first else { return false }
        return !first.facetNames.isEmpty || !first.sortNames.isEmpty
    }

    /// The key of everything `json` reads of the documents.
    static func key(_ docs: [SearchDigest]) -> UInt64 {
        var h = StableHasher()
        h.combine(UInt64(docs.count))
        for i in docs.indices {
            h.combine(UInt64(docs[i].facetNames.count))
            for n in docs[i].facetNames { h.combine(n) }
            h.combine(UInt64(docs[i].facetValues.count))
            for values in docs[i].facetValues {
                h.combine(UInt64(values.count))
                for v in values { h.combine(v) }
            }
            h.combine(UInt64(docs[i].sortNames.count)); h.combine(UInt64(docs[i].sortValues.count))
            for n in docs[i].sortNames { h.combine(n) }
            for v in docs[i].sortValues { h.combine(v) }
        }
        return h.finalize()
    }

    /// The file's JSON, or nil when the collection has neither facets nor sort fields.
    static func json(_ docs: [SearchDigest]) -> String? {
        guard let first = docs.first, !first.facetNames.isEmpty || !first.sortNames.isEmpty else { return nil }
        var j = JSONWriter()
        j.raw("{\"facets\":[")
        for (f, name) in first.facetNames.enumerated() {
            if f > 0 { j.raw(",") }
            var members: [String: [Int32]] = [:]
            for (d, doc) in docs.enumerated() where f < doc.facetValues.count {
                for v in doc.facetValues[f] { members[v, default: []].append(Int32(d)) }
            }
            let values = sortedAscending(members.keys)
            j.raw("{"); j.key("name"); j.string(name)
            j.raw(","); j.key("values"); j.strings(values)
            j.raw(","); j.raw(shorterColumn(values: values, members: members, of: docs.map { f < $0.facetValues.count ? $0.facetValues[f] : [] }))
            j.raw("}")
        }
        j.raw("],\"sorts\":[")
        for (s, name) in first.sortNames.enumerated() {
            if s > 0 { j.raw(",") }
            let column = docs.map { s < $0.sortValues.count ? $0.sortValues[s] : "" }
            let distinct = sortedAscending(Set(column.filter { !$0.isEmpty }))
            let place = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
            j.raw("{"); j.key("name"); j.string(name)
            j.raw(","); j.key("order")
            j.string(IndexFormat.codes(column.map { place[$0].map { $0 + 1 } ?? 0 }, limit: distinct.count + 1))
            j.raw("}")
        }
        j.raw("]}")
        return j.out
    }

    /// A facet's documents in the smallest of three forms once gzipped: each value's postings;
    /// each document's set of values as a code into the distinct sets; or those codes entropy-coded.
    static func shorterColumn(values: [String], members: [String: [Int32]], of docValues: [[String]]) -> String {
        var p = JSONWriter()
        p.key("postings"); p.strings(values.map { IndexFormat.encodePostings(members[$0]!) })
        let number = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($1, $0) })
        var sets: [[Int]] = [], setNumber: [[Int]: Int] = [:], ids: [Int] = []
        for held in docValues {
            let set = held.map { number[$0]! }.sorted()
            if setNumber[set] == nil { setNumber[set] = sets.count; sets.append(set) }
            ids.append(setNumber[set]!)
        }
        let setsJSON = "\"sets\":[" + sets.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        var c = JSONWriter()
        c.raw(setsJSON)
        c.raw(","); c.key("ids"); c.string(IndexFormat.codes(ids, limit: sets.count))
        var forms = [p.out, c.out]
        var counts = [Int](repeating: 0, count: sets.count)
        for id in ids { counts[id] += 1 }
        if let frequencies = EntropyCode.frequencies(counts) {
            var e = JSONWriter()
            e.raw(setsJSON)
            e.raw(",\"frequencies\":[" + frequencies.map(String.init).joined(separator: ",") + "]")
            e.raw(","); e.key("rans"); e.string(EntropyCode.encode(ids, frequencies: frequencies))
            forms.append(e.out)
        }
        // Compared as served: gzip takes postings of clustered documents, or codes in runs, below their order-0 entropy.
        // Each form gzipped once, all at once: at a million documents a form is megabytes.
        let sizes = ParallelMap.map(forms) { Gzip.compress(Array($0.utf8), level: 9)?.count ?? $0.utf8.count }
        return forms[sizes.firstIndex(of: sizes.min()!)!]
    }

    /// A value with what `ascending` compares of it worked out once: a sort of n values folds
    /// n texts, not two a comparison.
    struct SortKey {
        let number: Double?
        let folded: String
        let text: String

        init(_ text: String) {
            self.text = text
            number = FacetTable.number(text)
            folded = Fold.fold(text)
        }
    }

    /// The order of values: numbers first, as numbers; then text, folded, then as written.
    static func ascending(_ a: SortKey, _ b: SortKey) -> Bool {
        switch (a.number, b.number) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default:
            if !a.folded.utf8.elementsEqual(b.folded.utf8) { return a.folded.utf8.lexicographicallyPrecedes(b.folded.utf8) }
            return a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
        }
    }

    /// Values in `ascending` order, each folded once.
    static func sortedAscending(_ values: some Collection<String>) -> [String] {
        values.map(SortKey.init).sorted(by: ascending).map(\.text)
    }

    /// A decimal number as written in a dataset (`-12`, `3.5`, `1e6`), nil for any other text.
    static func number(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        var digits = false, rest = Substring(t)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        for c in rest {
            if c.isASCII && c.isNumber { digits = true } else if !".eE+-".contains(c) { return nil }
        }
        guard digits, let value = Double(t), value.isFinite else { return nil }
        return value
    }
}
