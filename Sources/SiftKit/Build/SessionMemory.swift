import Foundation

/// What one build of a `sift serve` session leaves in memory for the next: the page keys and
/// digests every build records, and, so a rebuild skips even computing the keys of items whose
/// inputs compare equal, the items, list rows, sitemap, settings and live search index as built.
final class SessionMemory: BuildRecord, @unchecked Sendable {
    private let lock = NSLock()
    /// Output path → key of its inputs.
    private var pages: [String: UInt64] = [:]
    /// Each item's digest and the key of its search inputs.
    private var digests: [String: (key: UInt64, digest: SearchDigest)] = [:]
    let indexFiles = Locked(IndexFileRecords())
    /// Each item as it was built and the keys it got.
    private var items: [String: ItemMemo] = [:]
    /// Each collection's rows as its list pages showed them, and their context key.
    private var lists: [String: (rows: [ListRow], context: UInt64)] = [:]
    private var collections: [String: CollectionMemo] = [:]
    /// The build's live search index, handed to the next build once (`takeIndex`), so a build
    /// that fails after changing it leaves none behind.
    private var index: SearchIndexBuilder?
    /// The paths sitemap.xml lists.
    var sitemap: [String]?
    /// The settings the items were built with.
    var settings: (site: SiteSettings, collections: [String: CollectionSettings])?

    /// Title and slug of an item's neighbours in its list, which its page links to.
    struct Neighbours: Equatable {
        var previousTitle: String?, previousSlug: String?, nextTitle: String?, nextSlug: String?

        init() {}

        init(_ items: [Item], _ i: Int) {
            if i > 0 { previousTitle = items[i - 1].title; previousSlug = items[i - 1].slug }
            if i + 1 < items.count { nextTitle = items[i + 1].title; nextSlug = items[i + 1].slug }
        }
    }

    /// An item as built: its inputs, and the keys of its page and search entry.
    struct ItemMemo {
        var item: Item
        /// Title and slug of the items before and after it.
        var neighbours: Neighbours
        /// The base key and the collection's shared parts.
        var context: UInt64
        var pageKey: UInt64
        var searchKey: UInt64
    }

    /// What a list page shows of an item.
    struct ListRow: Equatable {
        var slug: String
        var title: String
        var fields: Fields
    }

    /// A collection as a build left it: its items, and per item (in order) its search record
    /// and page key.
    struct CollectionMemo {
        var context: UInt64
        var items: [Item]
        var records: [SearchRecord]
        var pageKeys: [UInt64]
    }

    /// Takes over a previous build's page keys, item memos and digests (moved, not copied:
    /// copying them would cost more than the rest of a small rebuild), so what
    /// this build keeps wholesale needs no entry of its own. The previous memory is left
    /// without them: should this build fail, the next one renders the items it cannot take
    /// from the collection memos. An entry of an item since removed is never used: its page
    /// is gone from the output, so it cannot be kept.
    func inherit(from previous: SessionMemory?) {
        guard let previous else { return }
        previous.lock.lock()
        swap(&pages, &previous.pages)
        swap(&items, &previous.items)
        swap(&digests, &previous.digests)
        previous.digests = [:]
        indexFiles.withLock { mine in previous.indexFiles.withLock { swap(&mine, &$0) } }
        previous.lock.unlock()
    }

    func page(_ path: String) -> UInt64? { lock.lock(); defer { lock.unlock() }; return pages[path] }
    func setPage(_ path: String, _ key: UInt64) { lock.lock(); pages[path] = key; lock.unlock() }
    func setPages(_ pages: [(path: String, key: UInt64)]) {
        lock.lock()
        for (path, key) in pages { self.pages[path] = key }
        lock.unlock()
    }

    /// The digest as the session holds it, words and all.
    func digest(_ item: String, key: UInt64, words: Bool) -> SearchDigest? {
        lock.lock(); defer { lock.unlock() }
        guard let entry = digests[item], entry.key == key else { return nil }
        return entry.digest
    }

    func searchKey(_ item: String) -> UInt64? { lock.lock(); defer { lock.unlock() }; return digests[item]?.key }

    func appendDigests(_ records: [SearchRecord]) throws -> [SearchRecord] {
        lock.lock(); defer { lock.unlock() }
        for r in records where digests[r.item]?.key != r.key { digests[r.item] = (r.key, r.digest) }
        return records
    }

    func item(_ key: String) -> ItemMemo? { lock.lock(); defer { lock.unlock() }; return items[key] }
    func setItem(_ key: String, _ memo: ItemMemo) { lock.lock(); items[key] = memo; lock.unlock() }

    func list(_ collection: String) -> (rows: [ListRow], context: UInt64)? { lock.lock(); defer { lock.unlock() }; return lists[collection] }
    func setList(_ collection: String, rows: [ListRow], context: UInt64) { lock.lock(); lists[collection] = (rows, context); lock.unlock() }

    func collection(_ name: String) -> CollectionMemo? { lock.lock(); defer { lock.unlock() }; return collections[name] }
    func setCollection(_ name: String, _ memo: CollectionMemo) { lock.lock(); collections[name] = memo; lock.unlock() }

    func setIndex(_ index: SearchIndexBuilder) { lock.lock(); self.index = index; lock.unlock() }

    func takeIndex() -> SearchIndexBuilder? {
        lock.lock(); defer { lock.unlock() }
        defer { index = nil }
        return index
    }
}
