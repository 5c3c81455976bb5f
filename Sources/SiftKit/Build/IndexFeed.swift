import Foundation

/// The index stage: takes rendered chunks' search records into the search index, and into
/// the build's record for the next build, on a queue of its own, so the next chunk renders
/// while this one is merged.
///
/// For `sift serve` (a live feed) the index of the previous build is brought up to date
/// instead when only some documents changed: their words leave and enter the word tables,
/// and the render recomputes only the words they touched.
final class IndexFeed: @unchecked Sendable {
    private var index: SearchIndexBuilder
    /// Where this build's digests are recorded for the next build.
    private let record: (any BuildRecord)?
    private let live: Bool
    private let base: SearchIndexBuilder?
    private var records: [SearchRecord] = []
    private var infos: [SearchCollectionInfo] = []
    private let queue = DispatchQueue(label: "sift.index")
    /// At most two chunks wait, which bounds the digests held.
    private let slots = DispatchSemaphore(value: 2)
    private var error: Error?
    /// Which of the last build's shards an incremental `sift build` keeps, told of every record.
    private let reuse: ShardReuse?

    /// A feed; `live` keeps what a later `update` needs, `base` is the previous live index;
    /// `expected`: how many documents will come, when known; `reuse`: the last build's shards.
    init(record: (any BuildRecord)?, live: Bool = false, base: SearchIndexBuilder? = nil, expected: Int = 0, reuse: ShardReuse? = nil,
         index: SearchIndexBuilder = SearchIndexBuilder()) {
        self.record = record
        self.live = live
        self.base = live ? base : nil
        self.reuse = live ? nil : reuse
        self.index = index
        self.index.expectedDocuments = expected
    }

    func addCollection(_ info: SearchCollectionInfo) {
        queue.sync {
            infos.append(info)
            index.addCollection(info)
        }
    }

    /// Queues a chunk's digests, in list order.
    func add(_ records: [SearchRecord]) {
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard error == nil else { return }
            reuse?.note(records)
            var records = records
            do { if let record { records = try record.appendDigests(records) } } catch { self.error = error; return }
            if base != nil {
                if self.records.isEmpty { self.records = records } else { self.records += records }
            } else {
                for r in records { live ? index.add(r.digest, key: r.key) : index.add(r.digest, textKey: r.key) }
            }
        }
    }

    /// Waits for every queued chunk; the index, or the first error.
    func finish() throws -> SearchIndexBuilder {
        try queue.sync {
            if let error { throw error }
            guard var updated = base else { return index }
            if updated.update(records, collections: infos) { return updated }
            for r in records { index.add(r.digest, key: r.key) }
            return index
        }
    }
}
