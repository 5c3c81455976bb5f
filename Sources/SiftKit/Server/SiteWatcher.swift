import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Polls folders for changes and calls `onChange` once a burst of changes has settled.
/// Polling works on every Linux file system; where inotify tells of a change (`ChangeNotifier`),
/// the watcher walks when told and otherwise only every `idleWalk` seconds, for what inotify
/// does not see (a network mount edited from another machine): idle, a 10,000-page site's walk
/// took a sixth of a core four times a second. Hidden files and editor backups (`~`, `.swp`) are
/// ignored, but for the hidden files of the folders given `withHidden` (Static/, whose
/// `.well-known/` is published).
final class SiteWatcher: @unchecked Sendable {
    let folders: [URL]
    /// Folders whose hidden files count too.
    let withHidden: [URL]
    let interval: Double
    let debounce: Double
    private let onChange: @Sendable () -> Void
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private var baseline: [String: FileStamp]
    /// Nil where inotify is not to be had: the watcher then walks every `interval`.
    private let notifier = ChangeNotifier()
    /// How often a watcher told of changes walks without being told.
    static let idleWalk = 2.0
    /// How many times it walked the folders since it started.
    let walks = Locked(0)
    /// Whether inotify tells it of changes (else it walks every `interval`).
    var isTold: Bool { notifier != nil }

    /// Takes the first snapshot now, so a change made during the first build is seen.
    init(folders: [URL], withHidden: [URL] = [], interval: Double = 0.25, debounce: Double = 0.15, onChange: @escaping @Sendable () -> Void) {
        self.folders = folders
        self.withHidden = withHidden
        self.interval = interval
        self.debounce = debounce
        self.onChange = onChange
        baseline = SiteWatcher.snapshot(folders, withHidden: withHidden)
    }

    func start() {
        let t = Thread { [self] in loop() }
        t.name = "sift-watch"
        t.start()
    }

    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        notifier?.wake()
        if !already { _ = done.wait(timeout: .now() + 5) }
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    private func loop() {
        defer { done.signal() }
        var built = baseline
        var seen = baseline
        var lastChange = Date()
        watchFolders(of: baseline)
        // The first walk at once: a change made since the baseline (during the first build) came before the watches.
        var first = true
        while !isStopped {
            // Told of changes, it waits for one while all is built; a burst of them is watched
            // every `interval` until it settles, as without.
            if first {
                first = false
            } else if let notifier, seen == built {
                _ = notifier.wait(seconds: Self.idleWalk)
                if isStopped { break }
            } else {
                usleep(useconds_t(interval * 1_000_000))
            }
            let now = SiteWatcher.snapshot(folders, withHidden: withHidden)
            walks.withLock { $0 += 1 }
            let changed = now != seen
            // The folders in the roots when the walk found a change, the only walk that can find a
            // new one; the roots each time (one made since the start is watched once it is there).
            watchFolders(of: changed ? now : [:])
            if changed {
                seen = now
                lastChange = Date()
            }
            // Rebuild when the files differ from the last build and have been still for `debounce`.
            if seen != built && Date().timeIntervalSince(lastChange) >= debounce && !isStopped {
                built = seen
                onChange()
            }
        }
    }

    /// Has the notifier watch the roots and the folders of a snapshot (its keys ending in `/`).
    private func watchFolders(of snapshot: [String: FileStamp]) {
        guard let notifier else { return }
        notifier.watch((folders + withHidden).map(\.path) + snapshot.keys.filter { $0.hasSuffix("/") }.map { String($0.dropLast()) })
    }

    static func snapshot(_ folders: [URL], withHidden: [URL] = []) -> [String: FileStamp] {
        var out: [String: FileStamp] = [:]
        var walked: Set<FolderIdentity> = []
        for (f, hidden) in folders.map({ ($0, false) }) + withHidden.map({ ($0, true) }) {
            if let id = FolderIdentity(f.path) { walked.insert(id) }
            walk(f.path, into: &out, walked: &walked, hidden: hidden)
        }
        return out
    }

    /// Records the files under `path`; a folder in `walked` (reached again through a link) is
    /// recorded but not walked again.
    private static func walk(_ path: String, into out: inout [String: FileStamp], walked: inout Set<FolderIdentity>, hidden: Bool) {
        guard let dir = opendir(path) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." || (!hidden && FileSystem.isHidden(name)) || name.hasSuffix("~") || name.hasSuffix(".swp") || name == "4913" { continue }
            let full = path + "/" + name
            var st = stat()
            guard stat(full, &st) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                out[full + "/"] = FileStamp(folderInode: UInt(st.st_ino))
                if walked.insert(FolderIdentity(st)).inserted { walk(full, into: &out, walked: &walked, hidden: hidden) }
            } else {
                out[full] = FileStamp(st)
            }
        }
    }
}
