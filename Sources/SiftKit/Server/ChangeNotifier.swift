import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Linux's inotify on the folders `SiteWatcher` walks: a wait that ends as soon as anything in
/// one of them changes (or `wake` is called), so the watcher need not walk every source four
/// times a second to notice an edit. It only says that something changed, never what: the
/// watcher's walk still decides. Not every file system tells (a network mount edited from
/// another machine), so the watcher still walks now and then without being told.
final class ChangeNotifier: @unchecked Sendable {
    private let fd: Int32
    /// A pipe whose write end `wake` writes to: the wait's way to end early on request.
    private let wakeRead: Int32, wakeWrite: Int32
    /// The folders watched, by path, and the path of each watch.
    private var watched: Set<String> = []
    private var paths: [Int32: String] = [:]

    /// Nil where inotify is not to be had (another system, no more instances).
    init?() {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(fd)
            return nil
        }
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK); _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    deinit {
        close(fd)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Watches each folder not watched yet (a watch ends by itself when its folder goes).
    func watch(_ folders: some Sequence<String>) {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        for folder in folders where !watched.contains(folder) {
            let wd = inotify_add_watch(fd, folder, mask)
            guard wd >= 0 else { continue }
            watched.insert(folder)
            paths[wd] = folder
        }
    }

    /// Waits until something changes in a folder watched, `wake` is called, or `seconds` pass;
    /// true when told of a change.
    func wait(seconds: Double) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 2, Int32(seconds * 1000)) > 0 else { return false }
        var drain = [UInt8](repeating: 0, count: 1024)
        while read(wakeRead, &drain, drain.count) > 0 {}
        return readEvents()
    }

    /// Ends a `wait` now (from another thread).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Reads the events waiting; forgets the watches that ended. True when there was one.
    private func readEvents() -> Bool {
        var any = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return any }
            any = true
            var at = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
            while at + 16 <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: at, as: Int32.self), raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)))
                }
                if mask & UInt32(IN_IGNORED) != 0, let path = paths.removeValue(forKey: wd) { watched.remove(path) }
                at += 16 + length
            }
        }
    }
}
