/// A collection's document table in the index: scopes, slugs, URL exceptions and searched
/// fields, one column each (docs/search-index.md, "The document table").
enum DocumentTable {
    /// The scopes a collection shows: its configured ones, else its documents' in order of appearance.
    static func scopes(_ info: SearchCollectionInfo, _ docs: [SearchDigest]) -> [String] {
        var scopes = info.scopes
        if scopes.isEmpty {
            // By index: a digest copied retains every string and array of it.
            for i in docs.indices { if let s = docs[i].scope, !scopes.contains(s) { scopes.append(s) } }
        }
        return scopes
    }

    /// A collection's tables: one, or past `part` documents one a part of `part` documents
    /// (docs/search-index.md, "The document table"), each with its key. `named` gives a table its
    /// JSON, the last build's when it has the same key.
    static func tables(_ info: SearchCollectionInfo, _ docs: [SearchDigest], part: Int,
                       named: (_ part: Int?, _ key: UInt64, _ make: () -> String) -> String) -> [String] {
        let scopes = scopes(info, docs), fields = fieldNames(docs)
        guard docs.count > part else { return [named(nil, key(info, docs[...], scopes, fields)) { json(info, docs[...], scopes, fields) }] }
        // The parts' keys on every core: an edit keeps all parts but one, and hashes them all.
        let parts = stride(from: 0, to: docs.count, by: part).map { docs[$0..<min($0 + part, docs.count)] }
        let keys = ParallelMap.map(parts) { key(info, $0, scopes, fields) }
        return parts.indices.map { p in named(p, keys[p]) { json(info, parts[p], scopes, fields) } }
    }

    /// The key of everything `json` reads of a collection and its documents.
    private static func key(_ info: SearchCollectionInfo, _ docs: ArraySlice<SearchDigest>, _ scopes: [String], _ fields: [String]) -> UInt64 {
        var h = StableHasher()
        h.combine(info.name)
        h.combine(UInt64(scopes.count))
        for s in scopes { h.combine(s) }
        h.combine(UInt64(fields.count))
        for f in fields { h.combine(f) }
        h.combine(UInt64(docs.count))
        for i in docs.indices {
            h.combine(docs[i].title); h.combine(docs[i].slug); h.combine(docs[i].url)
            h.combine(docs[i].scope.map { "1" + $0 } ?? "0")
            h.combine(UInt64(docs[i].fieldNames.count)); h.combine(UInt64(docs[i].fieldValues.count))
            for n in docs[i].fieldNames { h.combine(n) }
            for v in docs[i].fieldValues { h.combine(v) }
            h.combine(docs[i].bodyWords > 0 ? UInt64(1 + IndexFormat.lengthCode(docs[i].bodyWords)) : 0)
        }
        return h.finalize()
    }

    /// The table of `docs` (a collection's, or a part of them) as JSON, with the collection's
    /// scopes and fields.
    private static func json(_ info: SearchCollectionInfo, _ docs: ArraySlice<SearchDigest>, _ scopes: [String], _ fields: [String]) -> String {
        var j = JSONWriter()
        j.raw("{")
        var scopeValues: [String]?
        if !scopes.isEmpty {
            let index = Dictionary(scopes.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let ids = docs.map { d in d.scope.flatMap { index[$0] } ?? scopes.count }
            j.raw("\"scope\":"); j.string(IndexFormat.codes(ids, limit: scopes.count + 1)); j.raw(",")
            scopeValues = ids.map { $0 < scopes.count ? scopes[$0] : "" }
        }
        if docs.contains(where: { $0.bodyWords > 0 }) {
            j.raw("\"lengths\":"); j.string(IndexFormat.codes(docs.map { IndexFormat.lengthCode($0.bodyWords) }, limit: 64)); j.raw(",")
        }
        writeSlugs(docs, into: &j)
        writeURLs(info, docs, into: &j)
        j.raw(",\"fields\":[")
        for (f, name) in fields.enumerated() {
            if f > 0 { j.raw(",") }
            let values = docs.map { d -> String in
                if f == 0 { return d.title }
                return d.fieldNames.firstIndex(of: name).map { d.fieldValues[$0] } ?? ""
            }
            writeColumn(name, values, scopes: f > 0 ? scopeValues : nil, into: &j)
        }
        j.raw("]}")
        return j.out
    }

    /// Every searched field name in order of appearance; the title's first.
    static func fieldNames(_ docs: [SearchDigest]) -> [String] {
        var names: [String] = []
        for i in docs.indices { for n in docs[i].fieldNames where !names.contains(n) { names.append(n) } }
        return names.isEmpty ? ["title"] : names
    }

    /// Slugs, "" where the client derives the same one from the title.
    private static func writeSlugs(_ docs: ArraySlice<SearchDigest>, into j: inout JSONWriter) {
        j.raw("\"slugs\":[")
        let derived = ParallelMap.map(Array(docs.indices)) { IndexFormat.derivedSlug(docs[$0].title) == docs[$0].slug }
        for (i, d) in docs.enumerated() {
            if i > 0 { j.raw(",") }
            j.string(derived[i] ? "" : d.slug)
        }
        j.raw("]")
    }

    /// The URLs that are not `collection/slug/`, by document number.
    private static func writeURLs(_ info: SearchCollectionInfo, _ docs: ArraySlice<SearchDigest>, into j: inout JSONWriter) {
        var urls: [(Int, String)] = []
        for (i, d) in docs.enumerated() where d.url != "\(info.name)/\(d.slug)/" { urls.append((i, d.url)) }
        guard !urls.isEmpty else { return }
        j.raw(",\"urls\":{")
        for (k, (i, u)) in urls.enumerated() {
            if k > 0 { j.raw(",") }
            j.key(String(i)); j.string(u)
        }
        j.raw("}")
    }

    /// A field column: the scope itself when it always equals it, else its values,
    /// dictionary-coded when few distinct values repeat.
    private static func writeColumn(_ name: String, _ values: [String], scopes: [String]?, into j: inout JSONWriter) {
        j.raw("{"); j.key("name"); j.string(name)
        if let scopes, scopes == values {
            j.raw(",\"scope\":true}")
            return
        }
        var distinct: [String] = []
        var index: [String: Int] = [:]
        for v in values where index[v] == nil { index[v] = distinct.count; distinct.append(v) }
        let coded = distinct.count * 4 <= values.count
        j.raw(","); j.key("values"); j.strings(coded ? distinct : values)
        if coded {
            j.raw(",\"ids\":")
            j.string(IndexFormat.codes(values.map { index[$0]! }, limit: distinct.count))
        }
        j.raw("}")
    }
}
