extension SearchIndexBuilder {
    /// A text file aims at this many bytes of text (docs/search-index.md, "Excerpts").
    static let textFileTarget = 4 * 1024

    /// The documents' excerpt entries, in index order, as `text-N.json` files of `perFile`
    /// entries each, and their names' tables, `text-names-N.json` of `perTable` names each;
    /// nil when no document has text. With the documents' search keys, a file `reuse` kept as
    /// the last build left it is left out of `files`, its hash in `kept` (and its table); `hashes`
    /// are the written text files' hashes, by name.
    static func textFiles(_ documents: [SearchDigest], keys: [UInt64]? = nil, reuse: TextFileReuse? = nil)
        -> (perFile: Int, perTable: Int, files: [(String, [UInt8])], kept: Set<String>, hashes: [String: String])? {
        var bytes = 0
        for d in documents { for part in d.excerptText { bytes += part.utf8.count } }
        guard bytes > 0 else { return nil }
        let perFile = max(1, min(documents.count, textFileTarget * documents.count / bytes))
        let starts = Array(stride(from: 0, to: documents.count, by: perFile))
        let made = ParallelMap.map(starts) { start -> (name: String, hash: String, bytes: [UInt8]?) in
            let name = IndexFormat.textFileName(start / perFile)
            let end = min(start + perFile, documents.count)
            var key: UInt64?
            if let keys, let reuse {
                var h = StableHasher()
                h.combine(UInt64(perFile))
                h.combine(UInt64(end - start))
                for d in start..<end { h.combine(keys[d]) }
                key = h.finalize()
                if let hash = reuse.keep(name, key!) { return (name, ContentHash.hex(hash), nil) }
            }
            var j = JSONWriter()
            j.raw("[")
            for d in start..<end {
                if d > start { j.raw(",") }
                j.strings(documents[d].excerptText)
            }
            j.raw("]\n")
            let bytes = Array(j.out.utf8)
            let hash = ContentHash.value(bytes)
            if let key, let reuse { reuse.wrote(name, key, hash) }
            return (name, ContentHash.hex(hash), bytes)
        }
        let perTable = tableSize(made.count)
        let tables = stride(from: 0, to: made.count, by: perTable).map { start -> (String, [UInt8]) in
            var j = JSONWriter()
            j.raw("{")
            for n in start..<min(start + perTable, made.count) {
                if n > start { j.raw(",") }
                j.key(made[n].name); j.string(made[n].hash)
            }
            j.raw("}\n")
            return (IndexFormat.textNamesFileName(start / perTable), Array(j.out.utf8))
        }
        let files = made.compactMap { file in file.bytes.map { (file.name, $0) } }
        let hashes = Dictionary(uniqueKeysWithValues: made.filter { $0.bytes != nil }.map { ($0.name, $0.hash) })
        return (perFile, perTable, files + tables, Set(made.filter { $0.bytes == nil }.map(\.hash)), hashes)
    }

    /// The names a table holds: the least n with n² ≥ `files`, so the manifest names about as
    /// many tables as a table names text files.
    static func tableSize(_ files: Int) -> Int {
        var n = 1
        while n * n < files { n += 1 }
        return n
    }
}

/// How a build keeps the last build's text files of unchanged documents (docs/search-index.md,
/// "Text files"): the tables need each kept file's hash, which only the last build saw.
struct TextFileReuse: Sendable {
    /// Given a text file's name and its documents' key: the hash of the last build's file of that
    /// key once kept in this build's output, or nil (then the file is written).
    var keep: @Sendable (_ name: String, _ key: UInt64) -> UInt64?
    /// Told the name, documents' key and hash of each text file written.
    var wrote: @Sendable (_ name: String, _ key: UInt64, _ hash: UInt64) -> Void
}
