extension SearchIndexBuilder {
    /// A text file aims at this many bytes of text (docs/search-index.md, "Excerpts").
    static let textFileTarget = 4 * 1024

    /// The text files of a render (docs/search-index.md, "Text files"): `perFile` documents a
    /// file, `perGroup` files a group, the files written (by the names the index calls them) and
    /// each group's hash, which names its files.
    struct TextFiles {
        var perFile: Int
        var perGroup: Int
        var files: [(String, [UInt8])]
        var groups: [UInt64]
    }

    /// The documents' excerpt entries, in index order, as `text-N.json` files of `perFile`
    /// entries each, in groups of `perGroup` files named by the group's hash; nil when no
    /// document has text. With the documents' search keys, a file `reuse` finds as the last build
    /// left it is linked there under its new name and left out of `files`.
    /// With `records` (the ranked layout's, one a document), each entry starts with its document's
    /// record, and there are text files even when no document has text.
    static func textFiles(_ documents: [SearchDigest], keys: [UInt64]? = nil, reuse: TextFileReuse? = nil, records: [String]? = nil) throws -> TextFiles? {
        let bytes = documents.reduce(0) { $0 + $1.excerptBytes } + (records?.reduce(0) { $0 + $1.utf8.count } ?? 0)
        guard bytes > 0 else { return nil }
        let perFile = max(1, min(documents.count, textFileTarget * documents.count / bytes))
        let starts = Array(stride(from: 0, to: documents.count, by: perFile))
        let failures = ErrorBox()
        func render(_ start: Int) -> [UInt8] {
            var j = JSONWriter()
            j.raw("[")
            for d in start..<min(start + perFile, documents.count) {
                if d > start { j.raw(",") }
                do {
                    if let records {
                        j.raw("["); j.raw(records[d])
                        for text in try documents[d].excerpt() { j.raw(","); j.string(text) }
                        j.raw("]")
                    } else {
                        j.strings(try documents[d].excerpt())
                    }
                } catch { failures.set(error) }
            }
            j.raw("]\n")
            return Array(j.out.utf8)
        }
        let made = ParallelMap.map(starts) { start -> (hash: UInt64, bytes: [UInt8]?, key: UInt64?, kept: String?) in
            var key: UInt64?
            if let keys, let reuse {
                var h = StableHasher()
                h.combine(UInt64(perFile))
                h.combine(UInt64(min(start + perFile, documents.count) - start))
                for d in start..<min(start + perFile, documents.count) { h.combine(keys[d]) }
                key = h.finalize()
                let n = start / perFile
                if n < reuse.last.count, reuse.last[n].key == key {
                    return (reuse.last[n].hash, nil, key, IndexFileNames.textPath(n, group: ContentHash.hex(reuse.last[n].group)))
                }
            }
            let bytes = render(start)
            return (ContentHash.value(bytes), bytes, key, nil)
        }
        let perGroup = groupSize(made.count)
        let groups = stride(from: 0, to: made.count, by: perGroup).map { first in
            var h = StableHasher()
            h.combine(UInt64(min(perGroup, made.count - first)))
            for file in made[first..<min(first + perGroup, made.count)] { h.combine(file.hash) }
            return h.finalize()
        }
        // The files kept, linked in one call: at 10k documents, ten thousand of them.
        let keptFiles = made.indices.filter { made[$0].kept != nil }
        let linked = keptFiles.isEmpty ? [] : reuse!.link(keptFiles.map { n in
            (made[n].kept!, IndexFileNames.textPath(n, group: ContentHash.hex(groups[n / perGroup])))
        })
        var failed = Set<Int>()
        for (n, ok) in zip(keptFiles, linked) where !ok { failed.insert(n) }
        let written = ParallelMap.map(Array(made.indices)) { n -> [UInt8]? in
            failed.contains(n) ? render(starts[n]) : made[n].bytes
        }
        if let error = failures.error { throw error }
        if let reuse, keys != nil {
            reuse.wrote(made.indices.map { TextFileRecord(key: made[$0].key ?? 0, hash: made[$0].hash, group: groups[$0 / perGroup]) })
        }
        let files = zip(made.indices, written).compactMap { n, bytes in bytes.map { (IndexFormat.textFileName(n), $0) } }
        return TextFiles(perFile: perFile, perGroup: perGroup, files: files, groups: groups)
    }

    /// The files a group holds: the least n with n² ≥ `files`, so the manifest names about as
    /// many groups as a group holds text files, and an edit renames about as many.
    static func groupSize(_ files: Int) -> Int {
        var n = 1
        while n * n < files { n += 1 }
        return n
    }
}

/// One text file of the index as a build left it: the key of its documents' search inputs, the
/// hash of its bytes, and the hash of its group, which names it.
struct TextFileRecord: Equatable, Sendable {
    var key: UInt64
    var hash: UInt64
    var group: UInt64
}

/// How a build keeps the last build's text files of unchanged documents (docs/search-index.md,
/// "Text files"): the group hashes need each kept file's hash, which only the last build saw.
struct TextFileReuse: Sendable {
    /// The last build's text files, by number: one whose key is its documents' key now is
    /// linked from the last output (under its group's new name) instead of written.
    var last: [TextFileRecord]
    /// Links each of the last build's files at one path under search/ to another in this
    /// build's output; for each, false when it cannot (then the file is written).
    var link: @Sendable (_ files: [(from: String, to: String)]) -> [Bool]
    /// Told this build's text files, by number, once they are written.
    var wrote: @Sendable (_ files: [TextFileRecord]) -> Void
}

/// What an incremental build keeps of the last build's shard and union files (`ShardReuse`).
struct ShardFileReuse: Sendable {
    /// Given this render's bounds: the buckets whose shards are laid out again, and every shard
    /// and union file of the last build by name with its hash, when it was cut at the same bounds
    /// and the others may be kept; nil: every shard afresh.
    var last: @Sendable (_ bounds: [Int]) -> (touching: Set<Int32>, hashes: [String: String])?
    /// Links the last build's file at a path under search/ into this build's output; false when it cannot.
    var link: @Sendable (_ path: String) -> Bool
}
