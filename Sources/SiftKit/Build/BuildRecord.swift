/// The page keys and search digests of one build, which the next build compares its own with
/// to reuse what did not change: `DiskCache` between runs of `sift build`, `SessionMemory`
/// within one `sift serve`.
protocol BuildRecord: AnyObject, Sendable {
    /// The key of everything an output file was made from.
    func page(_ path: String) -> UInt64?
    func setPage(_ path: String, _ key: UInt64)
    /// Sets many pages' keys at once (a chunk of items': one lock taken, not one each).
    func setPages(_ pages: [(path: String, key: UInt64)])
    /// An item's digest, if its search inputs had this key; without `words`, a record that can
    /// leave its words out does (`SearchDigest.wordsLeftOut`).
    func digest(_ item: String, key: UInt64, words: Bool) -> SearchDigest?
    /// The key of the search inputs an item's digest was recorded with.
    func searchKey(_ item: String) -> UInt64?
    /// Records digests in the order they are added to the index; returns them as the index
    /// should keep them (a record on disk may keep their excerpt entries, `StoredExcerpt`).
    func appendDigests(_ records: [SearchRecord]) throws -> [SearchRecord]
    /// The search index's text files and tables as the build made them (`textFiles`, `indexTables`).
    var indexFiles: Locked<IndexFileRecords> { get }
}

/// The index files a build records beside its page keys, for the next build to keep.
struct IndexFileRecords {
    var texts: [TextFileRecord] = []
    var tables: [String: IndexTableRecord] = [:]
}

extension BuildRecord {
    /// An item's digest with its words, if its search inputs had this key.
    func digest(_ item: String, key: UInt64) -> SearchDigest? { digest(item, key: key, words: true) }

    /// The search index's text files, by number, as the build wrote them.
    var textFiles: [TextFileRecord] {
        get { indexFiles.withLock { $0.texts } }
        set { indexFiles.withLock { $0.texts = newValue } }
    }

    /// The search index's document tables and facets files, by name, as the build made them.
    var indexTables: [String: IndexTableRecord] {
        get { indexFiles.withLock { $0.tables } }
        set { indexFiles.withLock { $0.tables = newValue } }
    }
}
