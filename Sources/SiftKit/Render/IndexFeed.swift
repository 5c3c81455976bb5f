import Foundation

/// Feeds rendered chunks' digests to the search index and the build cache on a queue of its
/// own, so the next chunk renders while this one is merged.
final class IndexFeed: @unchecked Sendable {
    private var index = SearchIndexBuilder()
    private let cache: BuildCache?
    private let queue = DispatchQueue(label: "sift.index")
    /// At most two chunks wait, which bounds the digests held.
    private let slots = DispatchSemaphore(value: 2)
    private var error: Error?

    init(cache: BuildCache?) { self.cache = cache }

    func addCollection(_ info: SearchCollectionInfo) {
        queue.sync { index.addCollection(info) }
    }

    /// Queues a chunk's digests, in list order.
    func add(_ records: [(item: String, key: UInt64, digest: SearchDigest)]) {
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard error == nil else { return }
            for r in records { index.add(r.digest) }
            do { try cache?.appendDigests(records) } catch { self.error = error }
        }
    }

    /// Waits for every queued chunk; the index, or the first error.
    func finish() throws -> SearchIndexBuilder {
        try queue.sync {
            if let error { throw error }
            return index
        }
    }
}
