extension SearchIndexBuilder {
    /// Brings a live builder to the given documents when only some of them changed (same
    /// collections, same items in the same order; changed ones have a new key). False, with
    /// nothing changed, when the list differs otherwise or too much changed: build afresh.
    mutating func update(_ records: [SearchRecord], collections: [SearchCollectionInfo]) -> Bool {
        flush()
        guard let keys = live?.keys, records.count == docs.count, collections.map(\.name) == infos.map(\.name) else { return false }
        var changed: [Int] = []
        for (i, r) in records.enumerated() {
            guard r.digest.collection == docs[i].collection, r.digest.slug == docs[i].slug else { return false }
            if r.key != keys[i] {
                changed.append(i)
                if changed.count > 256 { return false }
            }
        }
        if collections.map(\.title) != infos.map(\.title) || collections.map(\.scopes) != infos.map(\.scopes) { live!.tables = nil }
        infos = collections
        for i in changed {
            let digest = records[i].digest
            let old = docs[i]
            if old.title != digest.title || old.url != digest.url || old.scope != digest.scope
                || old.fieldNames != digest.fieldNames || old.fieldValues != digest.fieldValues
                || (old.bodyWords > 0) != (digest.bodyWords > 0)
                || IndexFormat.lengthCode(old.bodyWords) != IndexFormat.lengthCode(digest.bodyWords) { live!.tables = nil }
            let tables = self.tables
            _ = ParallelMap.map(Array(tables.indices)) { p in
                tables[p].replace(document: Int32(i), with: digest, part: UInt64(p), parts: UInt64(tables.count))
            }
            docs[i] = digest.withoutWords
            live!.keys[i] = records[i].key
        }
        return true
    }
}
