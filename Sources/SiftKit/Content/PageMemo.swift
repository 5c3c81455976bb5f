import Foundation
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

    /// A folder's names as `FileSystem.list` gives them, listed again only when the folder's
    /// own stamp changed (adding, removing or renaming a file changes it; editing one does not).
    func listing(_ folder: URL) -> [String] {
        let path = folder.path
        guard let stamp = FileStamp(path) else { return FileSystem.list(folder) }
        lock.lock()
        if let known = listings[path], known.stamp == stamp { lock.unlock(); return known.names }
        lock.unlock()
        let names = FileSystem.list(folder)
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
        return page
    }

    /// Writes the pages of this load's settled files, for the next `sift build` of the site to
    /// take those whose file still has the stamp it had (at 100k items, reading and parsing every
    /// page again took a second of a one-page edit's load stage). A page taken from the last
    /// build's file is copied from it as it lies; only pages read again are encoded.
    func save(site: URL, version: String) {
        var w = BinaryWriter()
        w.bytes.reserveCapacity(savedBytes.count + 4096)
        w.u64(DiskCache.format); w.string(version)
        let asked = self.asked.withLock { $0 }, read = snapshot()
        var count = 0
        w.u64(0)
        func put(_ path: String, _ stamp: FileStamp, _ display: String, _ unsafe: Bool, _ page: ArraySlice<UInt8>) {
            w.string(path); stamp.write(to: &w); w.string(display); w.u64(unsafe ? 1 : 0)
            w.u64(UInt64(page.count)); w.bytes += page
            count += 1
        }
        for path in asked {
            if let e = read[path] {
                guard e.settled else { continue }
                var blob = BinaryWriter()
                e.page.write(to: &blob)
                put(path, e.stamp, e.display, e.unsafe, blob.bytes[...])
            } else if let s = saved[path] {
                // Copied as it lies, once.
                put(path, s.stamp, s.display, s.unsafe, savedBytes[s.range])
            }
        }
        let header = 8 + 8 + version.utf8.count
        withUnsafeBytes(of: UInt64(count).littleEndian) { w.bytes.replaceSubrange(header..<header + 8, with: $0) }
        let url = Self.file(in: site), tmp = url.path + ".tmp-\(getpid())"
        if (try? FileSystem.write(w.bytes, to: tmp)) == nil || rename(tmp, url.path) != 0 { _ = unlink(tmp) }
    }

    /// The pages the last `sift build` of the site saved, each decoded when a load asks for it;
    /// nil when there are none, they are damaged or another version wrote them.
    static func load(site: URL, version: String) -> PageMemo? {
        guard let bytes = try? FileSystem.read(file(in: site), displayPath: "") else { return nil }
        var r = BinaryReader(bytes: bytes)
        guard r.u64() == DiskCache.format, r.string() == version, let count = r.count() else { return nil }
        let memo = PageMemo()
        memo.saved.reserveCapacity(count)
        for _ in 0..<count {
            guard let path = r.string(), let stamp = FileStamp(reading: &r), let display = r.string(), let unsafe = r.u64(),
                  let length = r.count(), r.offset + length <= bytes.count else { return nil }
            memo.saved[path] = SavedPage(stamp: stamp, display: display, unsafe: unsafe == 1, range: r.offset..<r.offset + length)
            r.offset += length
        }
        guard r.atEnd else { return nil }
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
