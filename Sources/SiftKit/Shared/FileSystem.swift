import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The few file operations a build needs, in POSIX calls that stay fast across 100k files,
/// each failure turned into a `SiftError` naming the file.
public enum FileSystem {
    /// Reads a whole file.
    public static func read(_ url: URL, displayPath: String) throws -> [UInt8] {
        try read(path: url.path, displayPath: displayPath)
    }

    /// Reads a whole file, by its path; anything but a regular file (or a link to one) is an error.
    public static func read(path: String, displayPath: String) throws -> [UInt8] {
        let (fd, size) = try openRegular(path: path, displayPath: displayPath)
        defer { close(fd) }
        let failure = cannotRead(displayPath)
        // Reads into `buffer` until it is full or the file ends; how much it read.
        func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
            var filled = 0
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw failure(errorText()) }
                if n == 0 { break }
                filled += n
            }
            return filled
        }
        // One byte past the size, so a file read whole ends in one buffer, uninitialised (no
        // zeros written first); a file that grew since `fstat` is read on in chunks.
        var bytes = try [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in count = try fill(buffer) }
        while bytes.count > size {
            let chunk = try [UInt8](unsafeUninitializedCapacity: max(65536, bytes.count)) { buffer, count in count = try fill(buffer) }
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }

    /// The error of a file that cannot be read, for a reason.
    static func cannotRead(_ displayPath: String) -> (String) -> SiftError {
        { reason in SiftError("cannot read file: \(reason)", at: SourcePosition(path: displayPath, line: 0)) }
    }

    /// Opens a regular file (or a link to one) for reading: its descriptor, which the caller
    /// closes, and its size; anything else is an error naming the file.
    static func openRegular(path: String, displayPath: String) throws -> (fd: Int32, size: Int) {
        // Non-blocking, so a named pipe without a writer is opened, and refused, at once.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let failure = cannotRead(displayPath)
        guard fd >= 0 else { throw failure(errorText()) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let e = failure(errorText()); close(fd); throw e }
        if let kind = notRegular(st) { close(fd); throw failure("not a regular file but \(kind)") }
        return (fd, max(Int(st.st_size), 0))
    }

    /// Reads an open file from its start to its end a megabyte at a time, each piece handed to
    /// `body` (every piece but the last a whole megabyte); throws what `failure` makes of an error.
    static func forEachPiece(of fd: Int32, failure: (String) -> SiftError, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            var filled = 0
            while filled < size {
                let n = pread(fd, buffer.baseAddress! + filled, size - filled, off_t(offset + filled))
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw failure(errorText()) }
                if n == 0 { break }
                filled += n
            }
            offset += filled
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
            if filled < size { return }
        }
    }

    /// Copies an open file, a megabyte at a time, to `path` in `folder` (replacing what is there).
    static func copy(_ source: Int32, displayPath: String, to path: String, in folder: Int32, named folderPath: String) throws {
        _ = unlinkat(folder, path, 0)
        let fd = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        let writeFailure = { SiftError("cannot write \(folderPath + "/" + path): \(errorText())", at: nil) }
        guard fd >= 0 else { throw writeFailure() }
        defer { close(fd) }
        try forEachPiece(of: source, failure: cannotRead(displayPath)) { piece in
            guard writeAll(piece, to: fd) else { throw writeFailure() }
        }
    }

    /// What a file that is not a regular one is, as an error names it; nil for a regular file.
    static func notRegular(_ st: stat) -> String? {
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "of an unknown kind"
        }
    }

    /// Writes a whole file, creating it or replacing its contents.
    /// With `replacing`, an existing file is unlinked first rather than written through, so a
    /// hard link shared with the previous output is never changed.
    public static func write(_ bytes: some Collection<UInt8>, to path: String, replacing: Bool = false) throws {
        let done: Void? = try bytes.withContiguousStorageIfAvailable { try write(UnsafeRawBufferPointer($0), to: path, replacing: replacing) }
        if done == nil { try Array(bytes).withUnsafeBytes { try write($0, to: path, replacing: replacing) } }
    }

    /// Writes a whole file from memory, without copying it first.
    public static func write(_ buffer: UnsafeRawBufferPointer, to path: String, replacing: Bool = false) throws {
        try write(buffer, to: path, in: AT_FDCWD, named: nil, replacing: replacing)
    }

    /// Writes a whole file at a path relative to an open folder (`folderPath` names it in errors),
    /// replacing whatever is there.
    static func write(_ bytes: some Collection<UInt8>, to path: String, in folder: Int32, named folderPath: String) throws {
        let done: Void? = try bytes.withContiguousStorageIfAvailable {
            try write(UnsafeRawBufferPointer($0), to: path, in: folder, named: folderPath, replacing: true)
        }
        if done == nil {
            try Array(bytes).withUnsafeBytes { try write($0, to: path, in: folder, named: folderPath, replacing: true) }
        }
    }

    private static func write(_ buffer: UnsafeRawBufferPointer, to path: String, in folder: Int32, named folderPath: String?, replacing: Bool) throws {
        var fd = openat(folder, path, O_WRONLY | O_CREAT | (replacing ? O_EXCL : O_TRUNC) | O_CLOEXEC, 0o644)
        if fd < 0 && replacing && errno == EEXIST {
            _ = unlinkat(folder, path, 0)
            fd = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        func failure() -> SiftError {
            SiftError("cannot write \(folderPath.map { $0 + "/" + path } ?? path): \(errorText())", at: nil)
        }
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        guard writeAll(buffer, to: fd) else { throw failure() }
    }

    /// Writes all of `buffer` to an open file at its position, again after an interrupted
    /// `write`; false (with `errno` telling why) when it cannot.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Fills all of `buffer` from an open file at `offset`, again after an interrupted `pread`;
    /// false when the file ends first or cannot be read.
    static func readAll(_ buffer: UnsafeMutableRawBufferPointer, from fd: Int32, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The folder part of a path (`a/b` of `a/b/c`); nil for a path without one (`c`, `/c`).
    /// Not NSString's deletingLastPathComponent: on Linux it traps on a one-character path.
    static func parent(of path: String) -> String? {
        guard let slash = path.utf8.lastIndex(of: 0x2F), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    /// Creates a folder and its parents; an existing folder is fine.
    /// Returns whether it made a folder (false: `path` was there already).
    @discardableResult
    public static func makeDirectory(_ path: String) throws -> Bool {
        try makeDirectory(path, in: AT_FDCWD, named: nil)
    }

    /// Creates a folder and its parents relative to an open folder (`folderPath` names it in
    /// errors); whether it made one.
    @discardableResult
    static func makeDirectory(_ path: String, in folder: Int32, named folderPath: String?) throws -> Bool {
        if mkdirat(folder, path, 0o755) == 0 { return true }
        if errno == EEXIST { return false }
        if errno == ENOENT, let parent = parent(of: path) {
            try makeDirectory(parent, in: folder, named: folderPath)
            if mkdirat(folder, path, 0o755) == 0 { return true }
            if errno == EEXIST { return false }
        }
        throw SiftError("cannot create folder \(folderPath.map { $0 + "/" + path } ?? path): \(errorText())", at: nil)
    }

    /// The names in a folder, sorted by their bytes so builds do not depend on the file system's order.
    /// Whether a file name starts with a dot, as shells and `ls` hide it: by its first byte, since
    /// "." and a combining mark after it are one Character that `hasPrefix(".")` does not match.
    public static func isHidden(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: ".")
    }

    public static func list(_ url: URL) -> [String] {
        sortedBytewise(entries(url.path, following: true).map(\.name))
    }

    /// The names in a folder of the site's sources, sorted as `list` sorts them; none when the
    /// folder is not there. One that is there and cannot be read is an error at `display`: read
    /// as empty, its pages and files were left out of the output, the build saying it succeeded.
    static func sourceList(_ url: URL, display: String) throws -> [String] {
        var errors: [SiftError] = []
        let names = sourceList(url, display: display, errors: &errors)
        if let e = errors.first { throw e }
        return names
    }

    /// `sourceList` for a walk that goes on past a folder it cannot read: its error goes to
    /// `errors`, and the folder gives no names.
    static func sourceList(_ url: URL, display: String, errors: inout [SiftError]) -> [String] {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno != ENOENT && errno != ENOTDIR { errors.append(SiftError("cannot read folder: \(errorText())", at: SourcePosition(path: display, line: 0))) }
            return []
        }
        return sortedBytewise(entries(fd: fd).map(\.name))
    }

    /// The longest file name Linux allows, in bytes.
    static let maximumNameBytes = 255

    /// Whether a listed name stands for one that is not valid UTF-8: read, its bytes were
    /// replaced (U+FFFD), so no entry of the folder has the name as read, and nothing can open it.
    static func undecodable(_ name: String, in folder: String) -> Bool {
        guard name.unicodeScalars.contains("\u{FFFD}") else { return false }
        var st = stat()
        return lstat(folder + "/" + name, &st) != 0
    }

    /// What is said of a file or folder whose name is not valid UTF-8.
    static let undecodableName = "its name is not valid UTF-8, which no link can hold: rename it"

    /// Names in the order of their UTF-8 bytes (`bytewise`), sorted by their first eight bytes
    /// as one number first: a folder of 100,000 names sorted with a comparison of strings took
    /// 100 ms, most of it retaining and releasing them.
    static func sortedBytewise(_ names: [String]) -> [String] {
        var keyed = names.enumerated().map { (i, name) -> (prefix: UInt64, index: Int) in
            var prefix: UInt64 = 0, n = 0
            for b in name.utf8.prefix(8) { prefix = prefix << 8 | UInt64(b); n += 1 }
            return (prefix << (8 * UInt64(8 - n)), i)
        }
        keyed.sort { a, b in
            a.prefix != b.prefix ? a.prefix < b.prefix : bytewise(names[a.index], names[b.index])
        }
        return keyed.map { names[$0.index] }
    }

    /// A regular file's size in bytes; nil when there is none at `path` (a link followed, or not).
    static func fileSize(_ path: String, following: Bool = true) -> Int? {
        var st = stat()
        return (following ? stat(path, &st) : lstat(path, &st)) == 0 && st.st_mode & S_IFMT == S_IFREG ? Int(st.st_size) : nil
    }

    /// Whether the path is a folder (following links).
    public static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    /// Removes a file or folder tree; a missing one is fine. Links are removed, never followed.
    /// Large trees (an old output of 100k pages) are removed on every core: the folders two
    /// levels down are shared out, and so are the files of a folder of thousands.
    public static func remove(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard st.st_mode & S_IFMT == S_IFDIR else { _ = unlink(path); return }
        for (a, aIsDir) in entries(path) where aIsDir {
            let child = path + "/" + a
            let names = entries(child).filter(\.isDirectory).map(\.name)
            guard names.count > 64 else { continue }
            let fd = open(child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            // An output's folders mostly hold one index.html: no listing for those. Opened
            // with O_NOFOLLOW, so a folder swapped for a link is never followed.
            _ = ParallelMap.map(names) { name in
                let sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if sub >= 0 {
                    _ = unlinkat(sub, "index.html", 0)
                    close(sub)
                }
                if unlinkat(fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT { removeTree(fd, name) }
            }
            close(fd)
        }
        removeTree(AT_FDCWD, path)
    }

    /// Names in the order of their UTF-8 bytes, whatever their letters' composition (`memcmp`:
    /// comparing the UTF-8 views element by element was a fifth of a 100k walk).
    static func bytewise(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    /// The entries of a folder, unsorted, with whether each is a folder (an entry that is a link
    /// counts as a file); the folder itself is followed if it is a link only when `following`.
    static func entries(_ path: String, following: Bool = false) -> [(name: String, isDirectory: Bool)] {
        let fd = open(path, O_RDONLY | O_DIRECTORY | (following ? 0 : O_NOFOLLOW) | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        return entries(fd: fd)
    }

    /// The names of the regular files (not links, not folders) in `folder` under the open folder `parent`.
    static func regularFiles(in parent: Int32, _ folder: String) -> [String] {
        let fd = folder.isEmpty ? dup(parent) : openat(parent, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, let dir = fdopendir(fd) else { if fd >= 0 { close(fd) }; return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let e = readdir(dir) {
            let (name, type) = withUnsafePointer(to: &e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { (String(cString: $0), e.pointee.d_type) }
            }
            if type == DT_REG {
                out.append(name)
            } else if type == DT_UNKNOWN && name != "." && name != ".." {
                var st = stat()
                if fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFREG { out.append(name) }
            }
        }
        return out
    }

    /// Reads and closes an open folder.
    private static func entries(fd: Int32) -> [(name: String, isDirectory: Bool)] {
        guard let dir = fdopendir(fd) else { close(fd); return [] }
        defer { closedir(dir) }
        var out: [(String, Bool)] = []
        while let e = readdir(dir) {
            let (name, type) = withUnsafePointer(to: &e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { (String(cString: $0), e.pointee.d_type) }
            }
            if name == "." || name == ".." { continue }
            if type == DT_UNKNOWN {
                var st = stat()
                let isDir = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFDIR
                out.append((name, isDir))
            } else {
                out.append((name, type == DT_DIR))
            }
        }
        return out
    }

    /// Removes `name` under the folder `parent` and everything in it, by descriptor so a
    /// link swapped in mid-way is removed rather than followed.
    private static func removeTree(_ parent: Int32, _ name: String) {
        if unlinkat(parent, name, 0) == 0 || errno == ENOENT { return }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        let dup = Glibc.dup(fd)
        let children = entries(fd: fd)
        // A folder of thousands of files (the index's) is shared out: freeing their pages is most
        // of the work, and the kernel does it on every core when the unlinks come from each.
        let step = children.count >= 1024 ? (children.count + 63) / 64 : max(children.count, 1)
        _ = ParallelMap.map(Array(stride(from: 0, to: children.count, by: step))) { start in
            for (child, isDir) in children[start..<min(start + step, children.count)] {
                if isDir { removeTree(dup, child) } else { _ = unlinkat(dup, child, 0) }
            }
        }
        close(dup)
        _ = unlinkat(parent, name, AT_REMOVEDIR)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// The process's peak resident memory so far, in bytes (`getrusage`; 0 when unknown).
    static func peakMemory() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return usage.ru_maxrss * 1024
    }
}
