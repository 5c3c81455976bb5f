import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folders of the output a build left, and the moment it was done with them: what lets a
/// build whose sources are all unchanged (`BuildStamps`) know that the output is still whole
/// without looking at each of its files. A file added to, removed from or renamed in the output
/// since (by hand, by a deploy tool) gives its folder a change time past that moment, and a
/// folder removed is missing: either way the build goes on, and puts back what is gone.
///
/// The kernel stamps a change with a clock that moves in ticks (4 ms here), behind the clock the
/// moment is read from: a build waits, if it must, until the ticking clock has passed the moment
/// (`settle`), so that every change after it gets a later time than the moment. A file edited in
/// place leaves its folder as it was, and is not seen: a build puts back what is missing, not
/// what was changed by hand, as an edit's build does (`OutputWriter`'s check of the files it keeps).
struct OutputFolders {
    /// The output's folders, relative to it ("" is the output itself), as the stamps file keeps
    /// them (a count, then each path): an edit that adds and removes no file keeps the last
    /// build's as they are, and only a build with nothing to do reads them.
    let list: ArraySlice<UInt8>
    /// When the build was done with the output (the real-time clock's seconds and nanoseconds).
    let written: (seconds: Int, nanoseconds: Int)

    /// The folders holding `files` (relative paths) and each of their ancestors, the output's own
    /// included; `written` should be read after the build's last change to the output.
    init(files: some Sequence<String>, written: (seconds: Int, nanoseconds: Int)) {
        var found: Set<Substring> = [""]
        for file in files {
            var path = Substring(file)
            while let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
                path = path[..<slash]
                if !found.insert(path).inserted { break }
            }
        }
        var w = BinaryWriter()
        w.u64(UInt64(found.count))
        for folder in found { w.string(String(folder)) }
        self.init(list: w.bytes[...], written: written)
    }

    /// The folders of `files` (paths relative to the output, as a build recorded them), or, when
    /// the build made and removed no folder (`OutputWriter.sameFolders`), `last`'s list as it is.
    init(files: [String: UInt64], keeping last: OutputFolders?, written: (seconds: Int, nanoseconds: Int)) {
        if let last { self.init(list: last.list, written: written) } else { self.init(files: files.keys, written: written) }
    }

    /// Folders listed as the stamps file keeps them.
    init(list: ArraySlice<UInt8>, written: (seconds: Int, nanoseconds: Int)) {
        self.list = list
        self.written = written
    }

    /// The real-time clock now.
    static func now() -> (seconds: Int, nanoseconds: Int) {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return (Int(t.tv_sec), Int(t.tv_nsec))
    }

    /// Returns once a change made from now on gets a change time later than `written`: at once,
    /// unless the build ended within a tick of the moment.
    func settle() {
        var t = timespec()
        while true {
            clock_gettime(CLOCK_REALTIME_COARSE, &t)
            if (Int(t.tv_sec), Int(t.tv_nsec)) > written { return }
            usleep(500)
        }
    }

    func write(to w: inout BinaryWriter) {
        w.u64(UInt64(bitPattern: Int64(written.seconds)))
        w.u64(UInt64(bitPattern: Int64(written.nanoseconds)))
        w.u64(UInt64(list.count))
        w.bytes += list
    }

    /// The folders as `write(to:)` wrote them; nil when the bytes end first.
    init?(reading r: inout BinaryReader) {
        guard let seconds = r.u64(), let nanoseconds = r.u64(), let length = r.count(), length <= r.bytes.count - r.offset else { return nil }
        self.init(list: r.bytes[r.offset..<r.offset + length],
                  written: (Int(truncatingIfNeeded: Int64(bitPattern: seconds)), Int(truncatingIfNeeded: Int64(bitPattern: nanoseconds))))
        r.offset += length
    }

    /// The folders listed; nil when the list is damaged.
    private func folders() -> [String]? {
        var r = BinaryReader(bytes: Array(list))
        guard let count = r.count() else { return nil }
        var folders: [String] = []
        folders.reserveCapacity(count)
        for _ in 0..<count {
            guard let folder = r.string() else { return nil }
            folders.append(folder)
        }
        return r.atEnd ? folders : nil
    }

    /// Whether every folder is still in `output`, a folder (not a link), and neither it nor its
    /// entries changed since `written`; on every core, a `stat` a folder.
    func unchanged(in output: URL) -> Bool {
        guard let folders = folders() else { return false }
        let fd = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let chunks = stride(from: 0, to: folders.count, by: 2048).map { $0..<min($0 + 2048, folders.count) }
        let written = self.written
        return ParallelMap.map(chunks) { range in
            var st = stat()
            return folders[range].allSatisfy { folder in
                let found = folder.isEmpty ? fstat(fd, &st) : fstatat(fd, folder, &st, AT_SYMLINK_NOFOLLOW)
                // The change time: an entry added, removed or renamed sets it, and so does setting the modification time.
                return found == 0 && st.st_mode & S_IFMT == S_IFDIR && (Int(st.st_ctim.tv_sec), Int(st.st_ctim.tv_nsec)) <= written
            }
        }.allSatisfy { $0 }
    }
}
