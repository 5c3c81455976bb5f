import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file's version as `stat` sees it: modification time, size, inode and change time. `sift
/// serve`'s watcher compares them to notice edits, and the page memos to know what they may
/// reuse. The change time is the one a program cannot set: a file rewritten in place with its
/// length and its old modification time put back (`touch -r`, `cp -p`, `rsync -t`) has a new one.
struct FileStamp: Equatable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    var inode: UInt
    var changeSeconds = 0
    var changeNanoseconds = 0

    /// A folder as the watcher records it: only its inode, since its times change with every
    /// file written inside it.
    init(folderInode inode: UInt) {
        seconds = 0; nanoseconds = 0; size = 0
        self.inode = inode
    }

    /// A stamp as recorded.
    init(seconds: Int, nanoseconds: Int, size: Int, inode: UInt, changeSeconds: Int = 0, changeNanoseconds: Int = 0) {
        self.seconds = seconds; self.nanoseconds = nanoseconds; self.size = size; self.inode = inode
        self.changeSeconds = changeSeconds; self.changeNanoseconds = changeNanoseconds
    }

    /// Writes the stamp as the build's caches keep it: three signed numbers, the inode, then the
    /// change time's two.
    func write(to w: inout BinaryWriter) {
        for n in [seconds, nanoseconds, size] { w.u64(UInt64(bitPattern: Int64(n))) }
        w.u64(UInt64(inode))
        for n in [changeSeconds, changeNanoseconds] { w.u64(UInt64(bitPattern: Int64(n))) }
    }

    /// A stamp as `write(to:)` wrote it; nil when the bytes end first.
    init?(reading r: inout BinaryReader) {
        guard let seconds = r.u64(), let nanoseconds = r.u64(), let size = r.u64(), let inode = r.u64(),
              let changeSeconds = r.u64(), let changeNanoseconds = r.u64() else { return nil }
        self.init(seconds: Int(truncatingIfNeeded: seconds), nanoseconds: Int(truncatingIfNeeded: nanoseconds),
                  size: Int(truncatingIfNeeded: size), inode: UInt(truncatingIfNeeded: inode),
                  changeSeconds: Int(truncatingIfNeeded: changeSeconds), changeNanoseconds: Int(truncatingIfNeeded: changeNanoseconds))
    }

    /// The stamp of what `stat` returned.
    init(_ st: stat) {
        seconds = Int(st.st_mtim.tv_sec)
        nanoseconds = Int(st.st_mtim.tv_nsec)
        size = Int(st.st_size)
        inode = UInt(st.st_ino)
        changeSeconds = Int(st.st_ctim.tv_sec)
        changeNanoseconds = Int(st.st_ctim.tv_nsec)
    }

    /// The file's stamp; nil when it cannot be read.
    init?(_ path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        self.init(st)
    }

    /// Whether the file was last changed over a second before `now`. A file changed within
    /// the clock tick of a read could change again without its stamp changing, so only
    /// settled files are trusted from memory ("racy" files, as git calls them, are read again).
    func isSettled(at now: Date = Date()) -> Bool {
        now.timeIntervalSince1970 - (Double(seconds) + Double(nanoseconds) / 1e9) > 1
    }
}
