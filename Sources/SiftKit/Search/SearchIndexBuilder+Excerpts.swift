extension SearchIndexBuilder {
    /// A text file aims at this many bytes of text (docs/search-index.md, "Excerpts").
    static let textFileTarget = 4 * 1024

    /// The documents' excerpt entries, in index order, as `text-N.json` files of `perFile`
    /// entries each; nil when no document has text. With the documents' search keys, a file
    /// `keeping` says was kept as the last build left it is left out.
    static func textFiles(_ documents: [SearchDigest], keys: [UInt64]? = nil,
                          keeping: (@Sendable (String, UInt64) -> Bool)? = nil) -> (perFile: Int, files: [(String, [UInt8])])? {
        var bytes = 0
        for d in documents { for part in d.excerptText { bytes += part.utf8.count } }
        guard bytes > 0 else { return nil }
        let perFile = max(1, min(documents.count, textFileTarget * documents.count / bytes))
        let starts = Array(stride(from: 0, to: documents.count, by: perFile))
        let files = ParallelMap.map(starts) { start -> (String, [UInt8])? in
            let name = IndexFormat.textFileName(start / perFile)
            let end = min(start + perFile, documents.count)
            if let keys, let keeping {
                var h = StableHasher()
                h.combine(UInt64(perFile))
                h.combine(UInt64(end - start))
                for d in start..<end { h.combine(keys[d]) }
                if keeping(name, h.finalize()) { return nil }
            }
            var j = JSONWriter()
            j.raw("[")
            for d in start..<end {
                if d > start { j.raw(",") }
                j.strings(documents[d].excerptText)
            }
            j.raw("]\n")
            return (name, Array(j.out.utf8))
        }
        return (perFile, files.compactMap { $0 })
    }
}
