import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One build of a site at a time: a build that writes (`sift build`, a `sift serve` rebuild)
/// holds an exclusive `flock` on `.sift-cache/lock` from its first read to its last write. A
/// second build waits for the first instead of removing its staging folder as a leftover, or
/// leaving a cache that describes the other's output. The lock goes with the process, however
/// it ends.
final class BuildLock {
    static let name = "lock"
    private let fd: Int32

    /// Takes the lock of `site`, waiting while another build holds it; `waiting` is told once
    /// before the wait. Without a cache folder that can be made, there is no lock, and no wait.
    init(site: URL, waiting: () -> Void) {
        let folder = DiskCache.folder(in: site)
        _ = try? FileSystem.makeDirectory(folder.path)
        fd = open(folder.appendingPathComponent(Self.name).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
        waiting()
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
    }

    deinit {
        if fd >= 0 { close(fd) }
    }
}
