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
