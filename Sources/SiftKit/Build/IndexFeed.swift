import Foundation

/// The index stage: takes rendered chunks' search records into the search index, and into
/// the build's record for the next build, on a queue of its own, so the next chunk renders
/// while this one is merged.
///
/// For `sift serve` (a live feed) the index of the previous build is brought up to date
/// instead when only some documents changed: their words leave and enter the word tables,
/// and the render recomputes only the words they touched. An incremental `sift build` does the
/// same from the word tables the last build stored (`WordTableFile`): documents it kept are
/// not merged again, and those it changed are applied to the stored postings (`StoredPostings`);
/// once the documents are no longer the last build's, it merges them all as a clean build does.
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
    /// While the index takes the last build's stored word tables: each document so far (item and
    /// key) and those that changed; nil when it merges every document.
    private var patch: (items: [(item: String, key: UInt64)], changes: [DocumentChange])?
    /// The documents so far, in index order (`WordTableFile.combine`).
    private var fingerprint = StableHasher()
    /// Whether records must come with their words: false while the index may take them from the
    /// stored word tables (a record without them is read again if it turns out to need them).
    private let wordsNeeded = Locked(true)

    /// A feed; `live` keeps what a later `update` needs, `base` is the previous live index;
    /// `expected`: how many documents will come, when known; `reuse`: the last build's shards.
    /// `storedTables`: reads the last build's word tables, when they hold its documents (with
    /// `reuse` only), on the feed's queue while the first pages render.
    init(record: (any BuildRecord)?, live: Bool = false, base: SearchIndexBuilder? = nil, expected: Int = 0, reuse: ShardReuse? = nil,
         storedTables: (@Sendable (Int) -> [(words: WordSet, stored: StoredPostings)]?)? = nil,
         index: SearchIndexBuilder = SearchIndexBuilder()) {
        self.record = record
        self.live = live
        self.base = live ? base : nil
        self.reuse = live ? nil : reuse
        self.index = index
        self.index.expectedDocuments = expected
        if self.reuse != nil, let storedTables {
            wordsNeeded.withLock { $0 = false }
            queue.async { [self] in
                let tables = self.index.tables
                guard let read = storedTables(tables.count), read.count == tables.count else {
                    wordsNeeded.withLock { $0 = true }
                    return
                }
                for (t, r) in zip(tables, read) { t.words = r.words; t.stored = r.stored }
                patch = ([], [])
            }
        }
    }

    /// Queues a collection's name, title and scopes, before its digests (without waiting for
    /// the stored tables being read).
    func addCollection(_ info: SearchCollectionInfo) {
        queue.async { [self] in
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
            let changes = reuse?.note(records) ?? []
            if !live { for r in records { WordTableFile.combine(&fingerprint, item: r.item, key: r.key) } }
            var records = records
            do {
                if let record { records = try record.appendDigests(records) }
                if patch != nil && reuse?.isUsable != true { try mergeStored() }
            } catch { self.error = error; return }
            if patch != nil {
                patch!.changes += changes
                for r in records {
                    patch!.items.append((r.item, r.key))
                    index.add(unmerged: r.digest, textKey: r.key)
                }
            } else if base != nil {
                if self.records.isEmpty { self.records = records } else { self.records += records }
            } else {
                for r in records {
                    var digest = r.digest
                    if digest.wordsLeftOut {
                        do { digest = try lastDigest(r.item, key: r.key) } catch { self.error = error; return }
                    }
                    live ? index.add(digest, key: r.key) : index.add(digest, textKey: r.key)
                }
            }
        }
    }

    /// The documents are no longer the last build's: the word tables are emptied of what it
    /// stored, and the documents so far merged as a clean build merges them.
    private func mergeStored() throws {
        guard let (items, changes) = patch else { return }
        patch = nil
        wordsNeeded.withLock { $0 = true }
        for t in index.tables { t.reset() }
        var changed: [Int: SearchDigest] = [:]
        for c in changes { changed[Int(c.document)] = c.after }
        var batch: [SearchDigest] = []
        var first = 0
        for (i, entry) in items.enumerated() {
            batch.append(try changed[i] ?? lastDigest(entry.item, key: entry.key))
            if batch.count == 1024 || i == items.count - 1 {
                index.mergeWords(batch, first: first)
                first += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The last build's digest of an item kept from it, words and all.
    private func lastDigest(_ item: String, key: UInt64) throws -> SearchDigest {
        guard let digest = reuse?.lastDigest(item, key: key) else {
            throw CacheDamage(what: "the last build's search digest of \(item) in .sift-cache/")
        }
        return digest
    }

    /// Whether the records fed next must hold their words (`SearchDigest.wordsLeftOut`).
    var needsWords: Bool { wordsNeeded.withLock { $0 } }

    /// The fingerprint of the documents fed so far, in index order, which the word tables
    /// stored for the next build are marked with.
    var documentsFingerprint: UInt64 { queue.sync { fingerprint.finalize() } }

    /// Waits for every queued chunk; the index, or the first error.
    func finish() throws -> SearchIndexBuilder {
        try queue.sync {
            if let error { throw error }
            if let (_, changes) = patch {
                if reuse?.isComplete != true { try mergeStored() } else {
                    let tables = index.tables
                    _ = ParallelMap.map(Array(tables.indices)) { p in tables[p].apply(changes, part: UInt64(p), parts: UInt64(tables.count)) }
                }
            }
            guard var updated = base else { return index }
            if updated.update(records, collections: infos) { return updated }
            for r in records { index.add(r.digest, key: r.key) }
            return index
        }
    }
}
