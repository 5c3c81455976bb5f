import Foundation

/// What one build leaves for the next, so an incremental build renders only the pages whose
/// inputs changed: per output file the key of everything it was made from, per item its search
/// digest. Unchanged pages are hard-linked from the previous output into the new one, so the
/// result is byte for byte what a clean build writes. Kept in `<site>/.sift-cache/`: the page
/// keys in one file, the digests streamed to another as they are made, so a 100k-item build
/// never holds them all (the previous build's file is memory-mapped and read on demand).
final class BuildCache: @unchecked Sendable {
    /// Bumped when the cache layout or anything that shapes output without being hashed changes.
    static let format: UInt64 = 3

    /// The output folder the keys describe; a cache for another output is ignored.
    let output: String
    /// Output path → key of its inputs.
    private var pages: [String: UInt64] = [:]
    private let lock = NSLock()

    /// The previous build's digests: the mapped file and where each item's record lies.
    private var digestBytes = Data()
    private var digestIndex: [String: (key: UInt64, range: Range<Int>)] = [:]

    /// This build's digest file while it is being written.
    private var digestFD: Int32 = -1
    private var digestTemp = ""

    /// Digests held in memory instead of a file, for the builds of one `sift serve`.
    private var memory: [String: (key: UInt64, digest: SearchDigest)]?
    /// In memory: each item as it was built and the keys it got, so a rebuild skips even
    /// computing the keys of items whose inputs compare equal.
    private var items: [String: ItemMemo] = [:]
    /// In memory: the paths sitemap.xml lists.
    var sitemap: [String]?
    /// In memory: the settings the items were built with.
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

    let isInMemory: Bool

    /// What a list page shows of an item.
    struct ListRow: Equatable {
        var slug: String
        var title: String
        var fields: Fields
    }

    /// In memory: each collection's rows as its list pages showed them, and their context key.
    private var lists: [String: (rows: [ListRow], context: UInt64)] = [:]

    func list(_ collection: String) -> (rows: [ListRow], context: UInt64)? { lock.lock(); defer { lock.unlock() }; return lists[collection] }
    func setList(_ collection: String, rows: [ListRow], context: UInt64) { lock.lock(); lists[collection] = (rows, context); lock.unlock() }

    /// In memory: the build's live search index, handed to the next build once (`takeIndex`),
    /// so a build that fails after changing it leaves none behind.
    private var index: SearchIndexBuilder?

    func setIndex(_ index: SearchIndexBuilder) { lock.lock(); self.index = index; lock.unlock() }

    func takeIndex() -> SearchIndexBuilder? {
        lock.lock(); defer { lock.unlock() }
        defer { index = nil }
        return index
    }

    func item(_ key: String) -> ItemMemo? { lock.lock(); defer { lock.unlock() }; return items[key] }
    func setItem(_ key: String, _ memo: ItemMemo) { lock.lock(); items[key] = memo; lock.unlock() }

    init(output: String, inMemory: Bool = false) {
        self.output = output
        isInMemory = inMemory
        if inMemory { memory = [:] }
    }

    /// Takes over a previous in-memory build's page keys, item memos and digests (moved, not
    /// copied: copying 10k entries on the first change cost more than the rest of a rebuild),
    /// so what this build keeps wholesale needs no entry of its own. The previous cache is left
    /// without them: should this build fail, the next one renders the items it cannot take from
    /// the collection memos. An entry of an item since removed is never used: its page is gone
    /// from the output, so it cannot be kept.
    func inherit(from previous: BuildCache?) {
        guard let previous, previous.isInMemory, isInMemory else { return }
        previous.lock.lock()
        swap(&pages, &previous.pages)
        swap(&items, &previous.items)
        swap(&memory, &previous.memory)
        previous.memory = [:]
        previous.lock.unlock()
    }

    /// A collection as an in-memory build left it: its items, and per item (in order) its
    /// search record and page key.
    struct CollectionMemo {
        var context: UInt64
        var items: [Item]
        var records: [SearchRecord]
        var pageKeys: [UInt64]
    }

    private var collections: [String: CollectionMemo] = [:]

    func collection(_ name: String) -> CollectionMemo? { lock.lock(); defer { lock.unlock() }; return collections[name] }
    func setCollection(_ name: String, _ memo: CollectionMemo) { lock.lock(); collections[name] = memo; lock.unlock() }

    func page(_ path: String) -> UInt64? { lock.lock(); defer { lock.unlock() }; return pages[path] }
    func setPage(_ path: String, _ key: UInt64) { lock.lock(); pages[path] = key; lock.unlock() }

    /// The previous build's digest of an item, if its search inputs had the same key.
    func digest(_ item: String, key: UInt64) -> SearchDigest? {
        if isInMemory {
            lock.lock(); defer { lock.unlock() }
            guard let entry = memory?[item], entry.key == key else { return nil }
            return entry.digest
        }
        guard let entry = digestIndex[item], entry.key == key else { return nil }
        var r = BinaryReader(bytes: [UInt8](digestBytes[entry.range]))
        return SearchDigest(reading: &r)
    }

    // MARK: Disk

    static func folder(in site: URL) -> URL { site.appendingPathComponent(".sift-cache") }
    static func pagesFile(in site: URL) -> URL { folder(in: site).appendingPathComponent("pages.cache") }
    static func digestsFile(in site: URL) -> URL { folder(in: site).appendingPathComponent("digests.cache") }

    private func header(_ w: inout BinaryWriter) {
        w.u64(Self.format)
        w.string(SiftCLI.version)
        w.string(output)
    }

    private static func readHeader(_ r: inout BinaryReader, output: String) -> Bool {
        r.u64() == format && r.string() == SiftCLI.version && r.string() == output
    }

    /// Reads the cache; nil when there is none, it is damaged, or it was written for another output.
    static func load(site: URL, output: String) -> BuildCache? {
        guard let pageData = FileManager.default.contents(atPath: pagesFile(in: site).path),
              let digestData = try? Data(contentsOf: digestsFile(in: site), options: .alwaysMapped) else { return nil }
        let cache = BuildCache(output: output)
        var r = BinaryReader(bytes: [UInt8](pageData))
        guard readHeader(&r, output: output), let pageCount = r.count() else { return nil }
        for _ in 0..<pageCount {
            guard let p = r.string(), let k = r.u64() else { return nil }
            cache.pages[p] = k
        }
        guard r.atEnd else { return nil }
        // Only the record headers are read now; a digest is decoded when an item asks for it.
        let headerLength = 8 + 8 + SiftCLI.version.utf8.count + 8 + output.utf8.count
        var head = BinaryReader(bytes: [UInt8](digestData.prefix(headerLength)))
        guard readHeader(&head, output: output) else { return nil }
        var offset = headerLength
        while offset < digestData.count {
            guard offset + 8 <= digestData.count else { return nil }
            var lengths = BinaryReader(bytes: [UInt8](digestData[offset..<offset + 8]))
            guard let recordLength = lengths.u64().map(Int.init), recordLength >= 16, offset + 8 + recordLength <= digestData.count else { return nil }
            var itemLength = BinaryReader(bytes: [UInt8](digestData[offset + 8..<offset + 16]))
            guard let nameLength = itemLength.u64().map(Int.init), nameLength + 16 <= recordLength else { return nil }
            var record = BinaryReader(bytes: [UInt8](digestData[offset + 8..<offset + 8 + 16 + nameLength]))
            guard let item = record.string(), let key = record.u64() else { return nil }
            cache.digestIndex[item] = (key, offset + 8 + 16 + nameLength..<offset + 8 + recordLength)
            offset += 8 + recordLength
        }
        cache.digestBytes = digestData
        return cache
    }

    /// Starts this build's digest file.
    func beginDigests(site: URL) throws {
        try FileSystem.makeDirectory(Self.folder(in: site).path)
        digestTemp = Self.digestsFile(in: site).path + ".tmp-\(getpid())"
        digestFD = open(digestTemp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard digestFD >= 0 else { throw SiftError("cannot write \(digestTemp): \(FileSystem.errorText())", at: nil) }
        var w = BinaryWriter()
        header(&w)
        try append(w.bytes)
    }

    /// Appends digests in the order they are added to the index.
    func appendDigests(_ records: [SearchRecord]) throws {
        if isInMemory {
            lock.lock(); defer { lock.unlock() }
            for r in records where memory![r.item]?.key != r.key { memory![r.item] = (r.key, r.digest) }
            return
        }
        guard digestFD >= 0 else { return }
        var w = BinaryWriter()
        for r in records {
            var record = BinaryWriter()
            record.string(r.item)
            record.u64(r.key)
            r.digest.write(to: &record)
            w.u64(UInt64(record.bytes.count))
            w.bytes += record.bytes
        }
        try append(w.bytes)
    }

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = write(digestFD, buf.baseAddress! + done, buf.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SiftError("cannot write \(digestTemp): \(FileSystem.errorText())", at: nil)
                }
                done += n
            }
        }
    }

    /// Writes the page keys and puts both files in place (temporary files renamed over the old ones).
    func save(site: URL) throws {
        if digestFD >= 0 { close(digestFD); digestFD = -1 }
        var w = BinaryWriter()
        header(&w)
        w.u64(UInt64(pages.count))
        for (p, k) in pages.sorted(by: { $0.key < $1.key }) { w.string(p); w.u64(k) }
        let url = Self.pagesFile(in: site)
        let tmp = url.path + ".tmp-\(getpid())"
        try FileSystem.write(w.bytes, to: tmp)
        guard rename(digestTemp, Self.digestsFile(in: site).path) == 0, rename(tmp, url.path) == 0 else {
            throw SiftError("cannot write \(url.path): \(FileSystem.errorText())", at: nil)
        }
    }

    /// Throws away this build's unfinished digest file.
    func discard() {
        if digestFD >= 0 { close(digestFD); digestFD = -1 }
        if !digestTemp.isEmpty { _ = unlink(digestTemp) }
    }

    /// Removes the cache files (and temporary files of builds that died), keeping the folder
    /// where this build streams its digests.
    static func remove(site: URL, keeping: BuildCache? = nil) {
        for name in FileSystem.list(folder(in: site)) {
            let path = folder(in: site).appendingPathComponent(name).path
            if path != keeping?.digestTemp { FileSystem.remove(path) }
        }
    }
}

/// Little-endian binary encoding for the cache file.
struct BinaryWriter {
    var bytes: [UInt8] = []
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func string(_ s: String) { u64(UInt64(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
    /// Integers as they lie in memory: every host Swift runs on here is little-endian.
    mutating func raw<T: FixedWidthInteger>(_ a: [T]) {
        u64(UInt64(a.count))
        a.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}

struct BinaryReader {
    let bytes: [UInt8]
    var offset = 0
    var atEnd: Bool { offset == bytes.count }

    mutating func u64() -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        defer { offset += 8 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
    mutating func count() -> Int? {
        guard let n = u64(), n < UInt64(bytes.count - offset + 1) else { return nil }
        return Int(n)
    }
    mutating func string() -> String? {
        guard let n = count(), offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return String(decoding: bytes[offset..<offset + n], as: UTF8.self)
    }
    mutating func raw<T: FixedWidthInteger>(_: T.Type) -> [T]? {
        guard let n = count(), offset + n * MemoryLayout<T>.size <= bytes.count else { return nil }
        let size = n * MemoryLayout<T>.size
        let out = [T](unsafeUninitializedCapacity: n) { buf, count in
            bytes.withUnsafeBytes { src in
                UnsafeMutableRawBufferPointer(buf).copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<offset + size]))
            }
            count = n
        }
        offset += size
        return out
    }
}

extension SearchDigest {
    /// Encodes every stored property; a change to SearchDigest must change this and `BuildCache.format`.
    func write(to w: inout BinaryWriter) {
        w.string(collection); w.string(slug); w.string(title); w.string(url)
        w.u64(scope == nil ? 0 : 1); w.string(scope ?? "")
        w.u64(UInt64(fieldNames.count)); for n in fieldNames { w.string(n) }
        w.u64(UInt64(fieldValues.count)); for v in fieldValues { w.string(v) }
        w.raw(wordBytes); w.raw(wordEnds); w.raw(wordHashes)
    }

    init?(reading r: inout BinaryReader) {
        guard let collection = r.string(), let slug = r.string(), let title = r.string(), let url = r.string(),
              let hasScope = r.u64(), let scope = r.string(), let nameCount = r.count() else { return nil }
        var names: [String] = []
        for _ in 0..<nameCount { guard let n = r.string() else { return nil }; names.append(n) }
        guard let valueCount = r.count() else { return nil }
        var values: [String] = []
        for _ in 0..<valueCount { guard let v = r.string() else { return nil }; values.append(v) }
        guard let wordBytes = r.raw(UInt8.self), let wordEnds = r.raw(UInt32.self), let wordHashes = r.raw(UInt64.self) else { return nil }
        self.init(collection: collection, slug: slug, title: title, url: url, scope: hasScope == 1 ? scope : nil,
                  fieldNames: names, fieldValues: values, wordBytes: wordBytes, wordEnds: wordEnds, wordHashes: wordHashes)
    }
}
