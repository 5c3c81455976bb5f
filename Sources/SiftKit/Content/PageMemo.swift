import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Markdown pages as an earlier load read them, by path, for `sift serve`: a rebuild reads
/// again only the files whose size, modification time or inode changed.
final class PageMemo: @unchecked Sendable {
    struct Entry {
        var stamp: FileStamp
        var display: String
        var unsafe: Bool
        var page: SiteLoader.LoadedPage

        /// Whether the file had settled when it was read.
        var settled: Bool

        /// The page, if read from the same file version for the same use.
        func page(stamp: FileStamp, display: String, unsafeHTML: Bool) -> SiteLoader.LoadedPage? {
            settled && self.stamp == stamp && self.display == display && unsafe == unsafeHTML ? page : nil
        }
    }

    /// A dataset as read, and its rows' titles and slugs per choice of title and slug fields.
    struct Dataset {
        var stamp: FileStamp
        var display: String
        var records: [Record]
        /// The warnings its read gave (a header with no row).
        var warnings: [SiftError] = []
        var named: [String: [(title: String, slugSource: String, slug: String)]] = [:]
        /// Whether the file had settled when it was read (see `FileStamp.isSettled`).
        var settled = false
        /// Tells this read of the file from others.
        var generation: UInt64 = 0
    }

    private var entries: [String: Entry] = [:]
    private var datasets: [String: Dataset] = [:]
    private var listings: [String: (stamp: FileStamp, names: [String])] = [:]
    private var joins: [String: [String: (key: JoinKey, item: Item)]] = [:]

    /// What a row joined to a page was made from: a read of the dataset, the row, how titles and
    /// slugs are taken, a read of the page.
    struct JoinKey: Equatable {
        var dataset: UInt64
        var named: String
        var row: Int
        var page: UInt64
    }

    /// A folder's items as its rows and pages were joined in the last load, by slug.
    func joined(_ folder: String) -> [String: (key: JoinKey, item: Item)] {
        lock.lock(); defer { lock.unlock() }
        return joins[folder] ?? [:]
    }

    func setJoined(_ folder: String, _ items: [String: (key: JoinKey, item: Item)]) {
        lock.lock(); joins[folder] = items; lock.unlock()
    }

    /// A number no read in this memo had before.
    func nextVersion() -> UInt64 {
        lock.lock(); defer { lock.unlock() }
        versions += 1
        return versions
    }
    private var versions: UInt64 = 0
    private let lock = NSLock()

    init() {}

    /// A folder's names as `FileSystem.sourceList` gives them, listed again only when the folder's
    /// own stamp changed (adding, removing or renaming a file changes it; editing one does not).
    func listing(_ folder: URL, display: String) throws -> [String] {
        let path = folder.path
        guard let stamp = FileStamp(path) else { return try FileSystem.sourceList(folder, display: display) }
        lock.lock()
        if let known = listings[path], known.stamp == stamp { lock.unlock(); return known.names }
        lock.unlock()
        let names = try FileSystem.sourceList(folder, display: display)
        if stamp.isSettled() { lock.lock(); listings[path] = (stamp, names); lock.unlock() }
        return names
    }

    /// Every page remembered now, for lookups without the lock while a folder loads in parallel.
    func snapshot() -> [String: Entry] {
        lock.lock(); defer { lock.unlock() }
        return entries
    }

    func dataset(_ path: String, stamp: FileStamp, display: String) -> Dataset? {
        lock.lock(); defer { lock.unlock() }
        guard let d = datasets[path], d.stamp == stamp, d.display == display, d.settled else { return nil }
        return d
    }

    func setDataset(_ path: String, _ dataset: Dataset) {
        lock.lock(); defer { lock.unlock() }
        datasets[path] = dataset
    }

    // MARK: Between builds

    /// The pages a load asked for: `save` leaves out those of files since removed.
    private let asked = Locked([String]())

    /// Notes that a load asks for the pages at `paths` (a folder's at once: one lock, not one a page).
    func ask(_ paths: [String]) { asked.withLock { $0 += paths } }

    /// Where `sift build` keeps the pages it read for the next build.
    static func file(in site: URL) -> URL { DiskCache.folder(in: site).appendingPathComponent("loaded.cache") }

    /// A page the last build saved: its file's stamp and use then, and where its encoding lies in `savedBytes`.
    private struct SavedPage {
        var stamp: FileStamp
        var display: String
        var unsafe: Bool
        var range: Range<Int>
    }
    /// Set once, by `load`, before any lookup.
    private var saved: [String: SavedPage] = [:]
    private var savedBytes: [UInt8] = []

    /// The files of the pages the last build saved.
    var savedPaths: [String] { Array(saved.keys) }

    /// The last build's page for this file, decoded, if the file has the stamp it had then and
    /// is used the same way; pages are decoded as the load asks for them, on every core.
    func savedPage(_ path: String, stamp: FileStamp, display: String, unsafeHTML: Bool) -> SiteLoader.LoadedPage? {
        guard let s = saved[path], s.stamp == stamp, s.display == display, s.unsafe == unsafeHTML else { return nil }
        var r = BinaryReader(bytes: savedBytes, offset: s.range.lowerBound)
        guard var page = SiteLoader.LoadedPage(reading: &r), r.offset == s.range.upperBound else { return nil }
        page.page.version = nextVersion()
        taken.wrappingAdd(1, ordering: .relaxed)
        return page
    }

    /// Ends the file of saved pages, after where its last index starts and the hash of that index.
    private static let indexMark: UInt64 = 0x5349_4654_504D_454D
    /// An index that names every page, where the chain of earlier indexes ends.
    private static let wholeIndex = UInt64.max
    /// How many indexes a file holds before it is written anew.
    static let longestChain = 32

    /// Writes the pages of this load's settled files, for the next `sift build` of the site to
    /// take those whose file still has the stamp it had (at 100k items, reading and parsing every
    /// page again took a second of a one-page edit's load stage).
    ///
    /// Only the pages read again are encoded. They are appended to the last build's file with an
    /// index of what changed (those pages, and the pages no longer kept), which points at the index
    /// before it: at 100k items the file is 83 MB, and writing it whole took a core for 0.2 s of a
    /// one-page edit. The file is written anew, its pages copied as they lie with one index of them
    /// all, when there is none to append to, when it is more than twice what a file written anew would be,
    /// or after `longestChain` indexes.
    func save(site: URL, version: String) {
        let read = snapshot(), url = Self.file(in: site)
        if !savedBytes.isEmpty, chain < Self.longestChain, let change = change(read) {
            if change.pages.isEmpty && change.dropped.isEmpty { return }
            if savedBytes.count <= 2 * change.live, append(change, to: url.path) { return }
        }
        var seen = Set<String>()
        let order = asked.withLock { $0 }.filter { seen.insert($0).inserted }
        var w = BinaryWriter()
        w.u64(DiskCache.format); w.string(version)
        var records: [(path: String, stamp: FileStamp, display: String, unsafe: Bool, range: Range<Int>)] = []
        records.reserveCapacity(order.count)
        for path in order {
            let start = w.bytes.count
            if let e = read[path] {
                guard e.settled else { continue }
                e.page.write(to: &w)
                records.append((path, e.stamp, e.display, e.unsafe, start..<w.bytes.count))
            } else if let s = saved[path] {
                // Copied as it lies, once.
                w.bytes += savedBytes[s.range]
                records.append((path, s.stamp, s.display, s.unsafe, start..<w.bytes.count))
            }
        }
        let indexStart = w.bytes.count
        w.u64(UInt64(records.count))
        for r in records { Self.entry(&w, r.path, r.stamp, r.display, r.unsafe, r.range) }
        w.u64(Self.wholeIndex); w.u64(1)
        Self.endIndex(&w, at: indexStart, in: 0)
        let tmp = url.path + ".tmp-\(getpid())"
        if (try? FileSystem.write(w.bytes, to: tmp)) == nil || rename(tmp, url.path) != 0 { _ = unlink(tmp) }
    }

    /// What a change of the last build's pages holds: the pages read again and settled (their
    /// encodings one after the other in `bytes`), the paths no longer kept, and the bytes a file
    /// written anew would take.
    private struct Change {
        var pages: [(path: String, entry: Entry, range: Range<Int>)] = []
        var bytes: [UInt8] = []
        var dropped: [String] = []
        var live = 0
    }

    /// What this load changed of the last build's pages, found from the pages it read alone (at
    /// 100k items, looking every path up took 0.1 s of a core). Nil when some page of the last
    /// build was neither taken nor read again (its file is gone, or the load failed): `save` then
    /// goes through every path.
    private func change(_ read: [String: Entry]) -> Change? {
        let taken = self.taken.load(ordering: .relaxed)
        var change = Change(live: savedLive)
        var readSaved = 0
        var w = BinaryWriter()
        for (path, e) in read.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            if let s = saved[path] {
                readSaved += 1
                change.live -= s.range.count + Self.entryBytes(path, s.display)
                if !e.settled { change.dropped.append(path) }
            }
            guard e.settled else { continue }
            let start = w.bytes.count
            e.page.write(to: &w)
            change.pages.append((path, e, start..<w.bytes.count))
            change.live += w.bytes.count - start + Self.entryBytes(path, e.display)
        }
        guard taken + readSaved == saved.count, asked.withLock({ $0.count }) == taken + read.count else { return nil }
        change.bytes = w.bytes
        return change
    }

    /// Appends the pages read again and an index of the change, pointing at the last index.
    private func append(_ change: Change, to path: String) -> Bool {
        let base = savedBytes.count
        var w = BinaryWriter()
        w.bytes = change.bytes
        let indexStart = w.bytes.count
        w.u64(UInt64(change.pages.count + change.dropped.count))
        for p in change.pages { Self.entry(&w, p.path, p.entry.stamp, p.entry.display, p.entry.unsafe, p.range.lowerBound + base..<p.range.upperBound + base) }
        for path in change.dropped { w.string(path); w.u64(0) }
        w.u64(UInt64(lastIndex)); w.u64(UInt64(chain + 1))
        Self.endIndex(&w, at: indexStart, in: base)
        return append(w.bytes, to: path, after: base)
    }

    /// A page's entry in an index: its path, 1, its stamp and use, where its page lies.
    private static func entry(_ w: inout BinaryWriter, _ path: String, _ stamp: FileStamp, _ display: String, _ unsafe: Bool, _ range: Range<Int>) {
        w.string(path); w.u64(1); stamp.write(to: &w); w.string(display); w.u64(unsafe ? 1 : 0)
        w.u64(UInt64(range.lowerBound)); w.u64(UInt64(range.count))
    }

    /// Ends the file with where its last index starts (`indexStart` in `w`, whose bytes go after
    /// `base` bytes of the file), the index's hash and the mark.
    private static func endIndex(_ w: inout BinaryWriter, at indexStart: Int, in base: Int) {
        var hasher = StableHasher()
        w.bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[indexStart...])) }
        w.u64(UInt64(base + indexStart)); w.u64(hasher.finalize()); w.u64(indexMark)
    }

    /// What a page's entry in an index of them all takes, besides the page: the file would be
    /// its pages and those entries if written anew.
    private static func entryBytes(_ path: String, _ display: String) -> Int { path.utf8.count + display.utf8.count + 96 }

    /// Where the last index of the file this memo was loaded from starts, how many indexes its
    /// chain holds, and what a file of its pages alone would take.
    private var lastIndex = 0
    private(set) var chain = 0
    private var savedLive = 0
    /// How many of the last build's pages this load took (`savedPage`).
    private let taken = Atomic<Int>(0)

    /// Appends `bytes` to the file at `path` when it still is `length` bytes long, the file this
    /// memo was loaded from. A build killed while appending leaves a file that does not end with
    /// an index, which the next build does not take (it reads every page again and writes a new one).
    private func append(_ bytes: [UInt8], to path: String, after length: Int) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) == length, lseek(fd, off_t(length), SEEK_SET) == off_t(length) else { return false }
        if bytes.withUnsafeBytes({ FileSystem.writeAll($0, to: fd) }) { return true }
        // Cut back to the old length: its index is still the file's last bytes.
        _ = ftruncate(fd, off_t(length))
        return false
    }

    /// The pages the last `sift build` of the site saved, each decoded when a load asks for it;
    /// nil when there are none, they are damaged or another version wrote them. The file's last
    /// index is read, then the one it points at, back to the index of every page, and applied
    /// from that one on.
    static func load(site: URL, version: String) -> PageMemo? {
        guard let bytes = try? FileSystem.read(file(in: site), displayPath: "") else { return nil }
        var r = BinaryReader(bytes: bytes)
        guard r.u64() == DiskCache.format, r.string() == version else { return nil }
        let headerEnd = r.offset, trailer = bytes.count - 24
        guard trailer >= headerEnd else { return nil }
        r.offset = trailer
        guard let at = r.u64(), let hash = r.u64(), r.u64() == indexMark, at >= headerEnd, at <= trailer else { return nil }
        var hasher = StableHasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[Int(at)..<trailer])) }
        guard hasher.finalize() == hash else { return nil }
        // The chain of indexes, the last first; each lies after the pages it names.
        var indexes: [[(String, SavedPage?)]] = []
        var next = Int(at), end = trailer, chain = 0
        let memo = PageMemo()
        memo.lastIndex = next
        while true {
            r.offset = next
            guard let count = r.count() else { return nil }
            var entries: [(String, SavedPage?)] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                guard let path = r.string(), let kind = r.u64() else { return nil }
                if kind == 0 { entries.append((path, nil)); continue }
                guard kind == 1, let stamp = FileStamp(reading: &r), let display = r.string(), let unsafe = r.u64(),
                      let offset = r.u64(), let length = r.u64(), offset >= headerEnd, length <= UInt64(next), offset <= UInt64(next) - length else { return nil }
                entries.append((path, SavedPage(stamp: stamp, display: display, unsafe: unsafe == 1, range: Int(offset)..<Int(offset + length))))
            }
            guard let previous = r.u64(), let depth = r.u64(), indexes.isEmpty ? r.offset == end : r.offset <= end else { return nil }
            if indexes.isEmpty { chain = Int(depth) }
            indexes.append(entries)
            if previous == wholeIndex { break }
            guard previous >= UInt64(headerEnd), previous < UInt64(next), indexes.count < longestChain + 1 else { return nil }
            end = next
            next = Int(previous)
        }
        // The whole index, last in the chain, names every page; the others add to it.
        memo.saved.reserveCapacity(indexes.last?.count ?? 0)
        for entries in indexes.reversed() {
            for (path, page) in entries { memo.saved[path] = page }
        }
        memo.chain = chain
        memo.savedLive = memo.saved.reduce(0) { $0 + $1.value.range.count + entryBytes($1.key, $1.value.display) }
        memo.savedBytes = bytes
        return memo
    }

    /// Remembers a page just read, giving it a version of its own; returns it so.
    func set(_ path: String, stamp: FileStamp, display: String, unsafeHTML: Bool, page: SiteLoader.LoadedPage) -> SiteLoader.LoadedPage {
        lock.lock(); defer { lock.unlock() }
        versions += 1
        var page = page
        page.page.version = versions
        entries[path] = Entry(stamp: stamp, display: display, unsafe: unsafeHTML, page: page, settled: stamp.isSettled())
        return page
    }
}
