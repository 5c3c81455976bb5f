import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder as the file system knows it, whatever path (or link) reached it: its device and
/// inode. Walks that follow links remember the folders they entered by it, so a link that
/// loops back (`a/l -> .`) is entered once and the walk ends.
struct FolderIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// The identity of what `stat` returned.
    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// The identity of the folder at `path`, following links; nil when it cannot be read.
    init?(_ path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        self.init(st)
    }
}
