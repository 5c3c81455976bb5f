import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The few file operations a build needs, in POSIX calls that stay fast across 100k files,
/// each failure turned into a `SiftError` naming the file.
public enum FileSystem {
    /// Reads a whole file.
    public static func read(_ url: URL, displayPath: String) throws -> [UInt8] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SiftError("cannot read file: \(errorText())", at: SourcePosition(path: displayPath, line: 0)) }
        defer { close(fd) }
        var st = stat()
        let size = fstat(fd, &st) == 0 ? Int(st.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(size, 0))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count))) }
            let n = bytes.withUnsafeMutableBytes { buf in
                Glibc.read(fd, buf.baseAddress! + filled, buf.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw SiftError("cannot read file: \(errorText())", at: SourcePosition(path: displayPath, line: 0))
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
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
        var fd = open(path, O_WRONLY | O_CREAT | (replacing ? O_EXCL : O_TRUNC) | O_CLOEXEC, 0o644)
        if fd < 0 && replacing && errno == EEXIST {
            _ = unlink(path)
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw SiftError("cannot write \(path): \(errorText())", at: nil) }
        defer { close(fd) }
        var done = 0
        while done < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SiftError("cannot write \(path): \(errorText())", at: nil)
            }
            done += n
        }
    }

    /// Creates a folder and its parents; an existing folder is fine.
    public static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        if errno == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path {
                try makeDirectory(parent)
                if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
            }
        }
        throw SiftError("cannot create folder \(path): \(errorText())", at: nil)
    }

    /// The names in a folder, sorted by their bytes so builds do not depend on the file system's order.
    public static func list(_ url: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Whether the path is a folder (following links).
    public static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    /// Removes a file or folder tree; a missing one is fine. Large trees (an old output of
    /// 100k pages) are removed on every core: the folders two levels down are shared out.
    public static func remove(_ path: String) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return }
        if isDir.boolValue {
            var second: [String] = []
            for a in list(URL(fileURLWithPath: path)) {
                let child = path + "/" + a
                if isDirectory(URL(fileURLWithPath: child)) {
                    second += list(URL(fileURLWithPath: child)).map { child + "/" + $0 }
                }
            }
            if second.count > 64 {
                _ = ParallelMap.map(second) { try? FileManager.default.removeItem(atPath: $0) }
            }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
