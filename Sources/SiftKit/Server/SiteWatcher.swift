import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Polls folders for changes and calls `onChange` once a burst of changes has settled.
/// Polling works on every Linux file system (inotify misses network mounts and needs a
/// watch per folder); hidden files and editor backups (`~`, `.swp`) are ignored, but for the
/// hidden files of the folders given `withHidden` (Static/, whose `.well-known/` is published).
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
        while !isStopped {
            usleep(useconds_t(interval * 1_000_000))
            let now = SiteWatcher.snapshot(folders, withHidden: withHidden)
            if now != seen {
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
