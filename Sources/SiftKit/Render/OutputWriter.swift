import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a build into a staging folder beside the output, then swaps it in at once, so a failed
/// or killed build leaves the previous output exactly as it was; or, for a small change to the
/// last build's output, renames the changed files over the old ones (`inPlace`). Nothing is
/// written outside the staging folder: every path is checked.
public final class OutputWriter: @unchecked Sendable {
    /// The output folder (public/).
    public let output: URL
    /// Where this build writes until `commit()`.
    public let staging: URL
    private let stagingPath: String
    /// The staging folder, open: files and folders are made relative to it, so the kernel
    /// does not walk the whole path for each of 100k pages.
    private let stagingFD: Int32
    private let createdDirs = Locked<Set<String>>([])

    static let stagingMarker = ".sift-staging-"
    static let oldMarker = ".sift-old-"

    /// Every file this build produced with the hash of its bytes, when recording (`sift serve`,
    /// and `sift build` for the next one); 0 for a file kept whose hash the last build did not know.
    private let recorded: Locked<[String: UInt64]>?
    /// In place: the files the output holds now with their hashes. Only files that differ are
    /// written (to staging, then renamed over the old ones), and files this build no longer
    /// makes are removed; the rest of the output is never touched.
    private let inPlace: [String: UInt64]?
    /// Swapping: the hashes of the previous output's files, recorded for the files linked from it.
    private let previousHashes: [String: UInt64]?
    /// In place: whether a file is kept only once seen in the output (a file map read from disk,
    /// which someone may have pruned since), and whether a commit that changes many files swaps
    /// in a whole new folder instead (`sift build`, whose output must change at once).
    private let checksKept: Bool
    /// The output folder, open, for the existence checks of `checksKept`.
    private var outputFD: Int32 = -1
    /// The regular files of one folder of the output (`listKeptFiles`), which `stillThere` asks
    /// instead of looking each file up: the index's folder holds thousands.
    private var listing: (prefix: String, names: Set<String>)?
    /// In place: files waiting in staging.
    private let changed = Locked<[String]>([])
    /// Files linked from the previous output under another name: new name → old.
    private let renamed = Locked<[String: String]>([:])
    /// A dry run's folder of its own, removed by `discard()`.
    private var scratch: String?

    /// The files this build produced and their hashes, when recording.
    var files: [String: UInt64]? { recorded?.withLock { $0 } }

    /// A writer that records what it writes, and with `inPlace` (the files the output holds and
    /// their hashes, as recorded by the previous build) updates the output in place instead of
    /// swapping in a whole new folder. For `sift serve`, where a rebuild after one edit must not
    /// cost a pass over every file; a killed rebuild can leave a mix of old and new files there.
    /// With `checksKept`, each file it keeps is checked to be there still, as `sift build` does
    /// (the output changed since the last build, by hand).
    convenience init(output: URL, recording: Bool, inPlace: [String: UInt64]?, checksKept: Bool = false) throws {
        try self.init(output: output, recorded: recording ? Locked([:]) : nil, inPlace: inPlace, previousHashes: nil, checksKept: checksKept)
    }

    /// A writer for `sift build` that records what it writes for the next build. With
    /// `previousFiles` (the last build's files and hashes, from `.sift-cache/`) and `inPlace` it
    /// updates the output in place, checking that each file it keeps is still there, unless the
    /// build changes so many files that a whole new folder swapped in costs little more (`commit()`).
    convenience init(output: URL, previousFiles: [String: UInt64]?, inPlace: Bool) throws {
        // Sized for the last build's files: growing a dictionary of 20,000 paths rehashes them all, several times.
        try self.init(output: output, recorded: Locked(Dictionary(minimumCapacity: previousFiles?.count ?? 0)), inPlace: inPlace ? previousFiles : nil,
                      previousHashes: inPlace ? nil : previousFiles, checksKept: true)
    }

    /// Prepares a fresh staging folder, first clearing what killed builds left behind.
    public convenience init(output: URL) throws {
        try self.init(output: output, recorded: nil, inPlace: nil, previousHashes: nil, checksKept: false)
    }

    private init(output: URL, recorded: Locked<[String: UInt64]>?, inPlace: [String: UInt64]?,
                 previousHashes: [String: UInt64]?, checksKept: Bool) throws {
        self.recorded = recorded
        self.inPlace = inPlace
        self.previousHashes = previousHashes
        self.checksKept = checksKept
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = self.output.lastPathComponent
        try FileSystem.makeDirectory(parent.path)
        Self.recoverLeftovers(parent: parent, name: name, output: self.output)
        staging = parent.appendingPathComponent(".\(name)\(Self.stagingMarker)\(getpid())")
        stagingPath = staging.path
        FileSystem.remove(stagingPath)
        try FileSystem.makeDirectory(stagingPath)
        stagingFD = open(stagingPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard stagingFD >= 0 else { throw SiftError("cannot open \(stagingPath): \(FileSystem.errorText())", at: nil) }
        if inPlace != nil && checksKept {
            outputFD = open(self.output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard outputFD >= 0 else { throw SiftError("cannot open \(self.output.path): \(FileSystem.errorText())", at: nil) }
        }
    }

    deinit {
        close(stagingFD)
        if outputFD >= 0 { close(outputFD) }
    }

    /// Lists a folder of the output once, on another thread; what it returns installs the listing,
    /// to be called before the files this build keeps in that folder are linked (from one thread,
    /// before any of them is). The build writes nothing into the output before its commit.
    func listKeptFiles(in folder: String) -> () -> Void {
        guard outputFD >= 0 else { return {} }
        let fd = outputFD
        let names = Background { Set(FileSystem.regularFiles(in: fd, folder)) }
        return { self.listing = (folder + "/", names.take()) }
    }

    /// The regular files `listKeptFiles` found in `folder`, when it listed that folder.
    func listedFiles(in folder: String) -> Set<String>? {
        listing?.prefix == folder + "/" ? listing?.names : nil
    }

    /// In place, whether the output still holds a file the last build left there.
    private func stillThere(_ rel: String) -> Bool {
        guard outputFD >= 0 else { return true }
        if let listing, rel.utf8.starts(with: listing.prefix.utf8) {
            let name = rel.utf8.dropFirst(listing.prefix.utf8.count)
            if !name.contains(UInt8(ascii: "/")) { return listing.names.contains(String(Substring(name))) }
        }
        var st = stat()
        return fstatat(outputFD, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    /// Removes staging folders of builds that died, and brings back an output a build died
    /// while swapping out.
    static func recoverLeftovers(parent: URL, name: String, output: URL) {
        // Bytes: "café" composed and decomposed are equal Strings but two folders, each with its own leftovers.
        let leftover = Array(".\(name).sift-".utf8), swappedOut = Array(".\(name)\(oldMarker)".utf8)
        for entry in FileSystem.list(parent) where entry.utf8.starts(with: leftover) {
            let path = parent.appendingPathComponent(entry).path
            if entry.utf8.starts(with: swappedOut) && !FileManager.default.fileExists(atPath: output.path) {
                _ = rename(path, output.path)
            } else {
                FileSystem.remove(path)
            }
        }
    }

    /// Checks a relative output path: no absolute paths, no `..`, no empty or hidden segments.
    public static func checked(_ relative: String) throws -> String {
        var ok = true
        var segment = 0, dots = 0
        for b in relative.utf8 {
            if b == 0x2F {
                if segment == 0 || segment == dots && dots <= 2 { ok = false; break }
                segment = 0; dots = 0
            } else {
                if b == 0 { ok = false; break }
                segment += 1
                if b == 0x2E { dots += 1 }
            }
        }
        guard ok, segment > 0, !(segment == dots && dots <= 2) else {
            throw SiftError("refusing to write '\(relative)': outside the output folder", at: nil)
        }
        return relative
    }

    /// Writes a file at a path relative to the output folder.
    public func write(_ relative: String, _ bytes: some Collection<UInt8>) throws {
        let rel = try Self.checked(relative)
        let kept = try recording(rel) {
            var h = StableHasher()
            let done: Void? = bytes.withContiguousStorageIfAvailable { h.combine(bytes: UnsafeRawBufferPointer($0)) }
            if done == nil { Array(bytes).withUnsafeBytes { h.combine(bytes: $0) } }
            return h.finalize()
        }
        if !kept { try FileSystem.write(bytes, to: rel, in: stagingFD, named: stagingPath) }
    }

    /// Copies a file into the output a megabyte at a time, so a large one (a film in Static/)
    /// is never held in memory; in place, a file with the last build's bytes is kept as it is.
    func copy(path source: String, displayPath: String, to relative: String) throws {
        let rel = try Self.checked(relative)
        let (fd, _) = try FileSystem.openRegular(path: source, displayPath: displayPath)
        defer { close(fd) }
        let kept = try recording(rel) {
            var stream = StableHasher.Stream()
            try FileSystem.forEachPiece(of: fd, failure: FileSystem.cannotRead(displayPath)) { stream.add($0) }
            return stream.finish().finalize()
        }
        if !kept { try FileSystem.copy(fd, displayPath: displayPath, to: rel, in: stagingFD, named: stagingPath) }
    }

    /// Before a file is written at a checked path: its bytes' hash (`hash`, asked only when this
    /// build keeps a record) recorded, and true when in place the output already holds those
    /// bytes there (kept as it is); else the path noted as changed and its staging folder made.
    private func recording(_ rel: String, hash: () throws -> UInt64) throws -> Bool {
        if let recorded {
            let hash = try hash()
            recorded.withLock { $0[rel] = hash }
            if inPlace?[rel] == hash && stillThere(rel) { return true }
            if inPlace != nil { changed.withLock { $0.append(rel) } }
        }
        // Written over a link under a new name, the file is no longer the old one (`keptName`).
        renamed.withLock { _ = $0.removeValue(forKey: rel) }
        try makeFolder(of: rel)
        return false
    }

    /// Creates the staging folder a checked relative path goes in, once per folder.
    private func makeFolder(of rel: String) throws {
        guard let dir = FileSystem.parent(of: rel) else { return }
        if !createdDirs.withLock({ $0.contains(dir) }) {
            try FileSystem.makeDirectory(dir, in: stagingFD, named: stagingPath)
            createdDirs.withLock { _ = $0.insert(dir) }
        }
    }

    /// Hard-links a file of the previous output into the new one (in place: keeps it); false when there is none.
    public func linkFromPrevious(_ relative: String) -> Bool {
        if let inPlace {
            // Every path there was checked when it was written.
            guard let hash = inPlace[relative], stillThere(relative) else { return false }
            recorded?.withLock { $0[relative] = hash }
            return true
        }
        guard let rel = try? Self.checked(relative), (try? makeFolder(of: rel)) != nil,
              linkat(AT_FDCWD, output.path + "/" + rel, stagingFD, rel, 0) == 0 else { return false }
        if let recorded { recorded.withLock { $0[rel] = previousHashes?[rel] ?? 0 } }
        return true
    }

    /// Hard-links the previous output's file at `old` into the new one at `relative`; false when
    /// there is none. In place, the link waits in staging and is renamed into place with the
    /// files written.
    func linkFromPrevious(_ old: String, as relative: String) -> Bool {
        if old == relative { return linkFromPrevious(relative) }
        if let inPlace {
            guard let hash = inPlace[old], let from = try? Self.checked(old), let rel = try? Self.checked(relative), stillThere(from),
                  (try? makeFolder(of: rel)) != nil, linkat(AT_FDCWD, output.path + "/" + from, stagingFD, rel, 0) == 0 else { return false }
            recorded?.withLock { $0[rel] = hash }
            changed.withLock { $0.append(rel) }
            renamed.withLock { $0[rel] = from }
            return true
        }
        guard let from = try? Self.checked(old), let rel = try? Self.checked(relative),
              (try? makeFolder(of: rel)) != nil, linkat(AT_FDCWD, output.path + "/" + from, stagingFD, rel, 0) == 0 else { return false }
        if let recorded { recorded.withLock { $0[rel] = previousHashes?[from] ?? 0 } }
        renamed.withLock { $0[rel] = from }
        return true
    }

    /// Links many files of the previous output, each under its old name or a new one (in
    /// place, those under their old name are kept with one lock taken); for each, whether it was.
    /// On every core: at 100k items an edit keeps 100,000 text files.
    func linkFromPrevious(_ files: [(old: String, new: String)]) -> [Bool] {
        guard let inPlace, let recorded else { return ParallelMap.map(files) { linkFromPrevious($0.old, as: $0.new) } }
        let done = ParallelMap.map(files) { old, new -> (linked: Bool, kept: UInt64?) in
            guard old == new else { return (linkFromPrevious(old, as: new), nil) }
            guard let hash = inPlace[old], stillThere(old) else { return (false, nil) }
            return (true, hash)
        }
        recorded.withLock { r in
            for (file, d) in zip(files, done) { if let hash = d.kept { r[file.old] = hash } }
        }
        return done.map(\.linked)
    }

    /// Whether this build kept a file of the previous output as it was (a hard link to it, or
    /// in place the same hash), so what was derived from it may be kept too.
    func isKeptFromPrevious(_ relative: String) -> Bool {
        if let inPlace {
            return inPlace[relative] != nil && recorded?.withLock({ $0[relative] }) == inPlace[relative]
        }
        var new = stat(), old = stat()
        return fstatat(stagingFD, relative, &new, 0) == 0 && stat(output.path + "/" + relative, &old) == 0
            && new.st_ino == old.st_ino && new.st_dev == old.st_dev
    }

    /// The name a file this build kept from the previous output had there: its own when kept
    /// as it was, the old one when linked under a new name; nil when it was made anew.
    func keptName(_ relative: String) -> String? {
        if isKeptFromPrevious(relative) { return relative }
        return renamed.withLock { $0[relative] }
    }

    /// The bytes of a file this build wrote or kept.
    func readBack(_ relative: String) throws -> [UInt8] {
        let rel = try Self.checked(relative)
        let staged = URL(fileURLWithPath: stagingPath + "/" + rel)
        if FileManager.default.fileExists(atPath: staged.path) { return try FileSystem.read(staged, displayPath: rel) }
        return try FileSystem.read(output.appendingPathComponent(rel), displayPath: rel)
    }

    /// Every file this build produced, relative to the output, in no particular order.
    func producedFiles() -> [String] {
        if let files { return Array(files.keys) }
        var out: [String] = []
        let base = stagingPath + "/"
        guard let walk = FileManager.default.enumerator(atPath: stagingPath) else { return [] }
        for case let rel as String in walk {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + rel, isDirectory: &isDirectory), !isDirectory.boolValue { out.append(rel) }
        }
        return out
    }

    /// In place: keeps files of the previous output as they are, all or none; false, keeping
    /// none, when one of them is not there.
    func keepPrevious(_ relatives: [String]) -> Bool {
        guard let inPlace, let recorded else { return false }
        var hashes: [UInt64] = []
        hashes.reserveCapacity(relatives.count)
        for rel in relatives {
            guard let h = inPlace[rel], stillThere(rel) else { return false }
            hashes.append(h)
        }
        recorded.withLock { r in for (rel, h) in zip(relatives, hashes) { r[rel] = h } }
        return true
    }

    /// Writes text as UTF-8.
    public func write(_ relative: String, text: String) throws {
        var text = text
        try text.withUTF8 { try write(relative, $0) }
    }

    /// Swaps the staging folder in as the output. Top-level hidden entries of the old output
    /// (`.git`, `.gitkeep`, `.well-known` …) are carried over: a build owns what it writes, not those.
    public func commit() throws {
        try commit(meanwhile: {})
    }

    /// Swaps the staging folder in as the output, then runs `meanwhile` while what the output
    /// no longer holds (the old output, or the staging folder an in-place build emptied) is
    /// removed on another thread: at 10k pages the old output took a tenth of a clean build.
    func commit(meanwhile: () -> Void) throws {
        let leftover = try swapIn()
        let removed = Background { if let leftover { FileSystem.remove(leftover) } }
        meanwhile()
        removed.take()
    }

    /// Puts the new output in place; the folder left to remove.
    private func swapIn() throws -> String? {
        if let inPlace {
            if !checksKept || Double(changed.withLock(\.count)) <= inPlaceShare * Double(max(inPlace.count, 1)) {
                do { try commitInPlace(previous: inPlace) } catch {
                    FileSystem.remove(stagingPath)
                    throw error
                }
                return stagingPath
            }
            try linkKeptIntoStaging()
        }
        let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent)\(Self.oldMarker)\(getpid())").path
        // The output's hidden entries moved into the new one, and back should the swap fail.
        var moved: [String] = []
        func moveBack() { for entry in moved { _ = rename(stagingPath + "/" + entry, output.path + "/" + entry) } }
        var st = stat()
        if FileManager.default.fileExists(atPath: output.path) {
            // Not what the last build wrote there itself (Static/'s `.well-known/`): gone from Static/, it goes.
            let written = inPlace ?? previousHashes ?? lastBuildFiles ?? [:]
            for entry in FileSystem.list(output) where FileSystem.isHidden(entry) && !Self.holds(written, entry) {
                // Moved, not copied: an entry keeps its owner, times and links, and a named pipe
                // is not read (a copy waited on it for ever).
                if lstat(stagingPath + "/" + entry, &st) != 0, rename(output.path + "/" + entry, stagingPath + "/" + entry) == 0 { moved.append(entry) }
            }
            if Self.exchange(stagingPath, output.path) { return stagingPath }
            guard rename(output.path, old) == 0 else {
                let reason = FileSystem.errorText()
                moveBack()
                throw SiftError("cannot replace \(output.path): \(reason)", at: nil)
            }
        }
        guard rename(stagingPath, output.path) == 0 else {
            let reason = FileSystem.errorText()
            _ = rename(old, output.path)
            moveBack()
            throw SiftError("cannot move the new site into \(output.path): \(reason)", at: nil)
        }
        return old
    }

    /// Whether a build's files hold `entry` of the output's top, as a file or a folder.
    private static func holds(_ files: [String: UInt64], _ entry: String) -> Bool {
        files[entry] != nil || files.keys.contains { $0.utf8.count > entry.utf8.count && $0.hasPrefix(entry + "/") }
    }

    /// The files the last build wrote, for a build that reuses none of them (`--clean`): its
    /// hidden entries at the output's top are not carried over as the user's.
    var lastBuildFiles: [String: UInt64]?

    /// The share of the output's files a `sift build` may change in place; past it the build
    /// swaps in a whole new folder (`linkKeptIntoStaging`), as a clean build does.
    var inPlaceShare = 0.125

    /// Fills the staging folder with links to every file this in-place build kept, so it can be
    /// swapped in whole.
    private func linkKeptIntoStaging() throws {
        let now = files ?? [:], written = Set(changed.withLock { $0 })
        for rel in now.keys where !written.contains(rel) {
            try makeFolder(of: rel)
            guard linkat(outputFD, rel, stagingFD, rel, 0) == 0 else {
                throw SiftError("cannot link \(output.path)/\(rel) into the new output: \(FileSystem.errorText())", at: nil)
            }
        }
    }

    /// Renames the changed files over the output's and removes those this build did not make.
    /// The staging folder is left for the caller to remove.
    private func commitInPlace(previous: [String: UInt64]) throws {
        var made: Set<String> = []
        // Pages and the index's entry point last, once every file they name is in place.
        // Once each: a file linked under a new name may be written over after.
        let (names, entryPoints) = Set(changed.withLock { $0 }).reduce(into: ([String](), [String]())) { lists, rel in
            if rel.hasSuffix(".html") || rel == "search/" + IndexFileNames.manifest { lists.1.append(rel) } else { lists.0.append(rel) }
        }
        var change = 0, measured = true, foldersChanged = false
        // Every folder checked before any file moves: a refusal leaves the output as it was.
        for dir in Set((names + entryPoints).compactMap(FileSystem.parent(of:))) { try refuseLinks(in: dir) }
        for rel in names + entryPoints {
            if let dir = FileSystem.parent(of: rel), made.insert(dir).inserted, try FileSystem.makeDirectory(output.path + "/" + dir) { foldersChanged = true }
            if Self.isIndexFile(rel) {
                let old = FileSystem.fileSize(output.path + "/" + rel, following: false)
                // A file of the last build's gone from the output: its total no longer describes it.
                if old == nil && previous[rel] != nil { measured = false }
                change += (FileSystem.fileSize(stagingPath + "/" + rel, following: false) ?? 0) - (old ?? 0)
            }
            guard rename(stagingPath + "/" + rel, output.path + "/" + rel) == 0 else {
                throw SiftError("cannot write \(output.path)/\(rel): \(FileSystem.errorText())", at: nil)
            }
        }
        let now = files ?? [:]
        // Looked up on every core: 200,000 paths at 100k items.
        let keys = Array(previous.keys)
        let gone = ParallelMap.map(keys) { now[$0] == nil }
        // Whether a folder is reached through a link, each folder looked at once.
        var throughLink: [String: Bool] = [:]
        // The folders files left: a new file in one of them is in a folder the last build listed.
        var left: Set<String> = []
        for (rel, gone) in zip(keys, gone) where gone {
            if Self.isIndexFile(rel) {
                if let old = FileSystem.fileSize(output.path + "/" + rel, following: false) { change -= old } else { measured = false }
            }
            let parent = FileSystem.parent(of: rel)
            left.insert(parent ?? "")
            // Not through a link: the file it leads to is not the output's.
            if let parent {
                if throughLink[parent] == nil { throughLink[parent] = (try? refuseLinks(in: parent)) == nil }
                if throughLink[parent]! { continue }
            }
            _ = unlink(output.path + "/" + rel)
            var dir = parent
            while let d = dir, rmdir(output.path + "/" + d) == 0 { dir = FileSystem.parent(of: d); foldersChanged = true }
        }
        indexChange = measured ? change : nil
        // A new file in a folder no file left (one made by hand, not in the last build's list) is a new folder too.
        sameFolders = !foldersChanged && (names + entryPoints).allSatisfy { previous[$0] != nil || left.contains(FileSystem.parent(of: $0) ?? "") }
    }

    /// Throws when a folder of the output on the way to `dir` (the output's own path aside) is a
    /// link: a file renamed through it would land outside the output. A clean build, which puts a
    /// new folder in place of the whole output, replaces the link with a folder of its own.
    private func refuseLinks(in dir: String) throws {
        var path = output.path, st = stat()
        for part in dir.split(separator: "/") {
            path += "/" + part
            guard lstat(path, &st) == 0 else { return }
            if st.st_mode & S_IFMT == S_IFLNK {
                throw SiftError("\(path) is a link, which a build does not write through (its files would land outside the output): "
                                + "remove it, or run sift build --clean to write the output anew", at: nil)
            }
        }
    }

    /// After an in-place commit, how many bytes the search index's files gained (negative: lost),
    /// precompressed copies left out as `BuildCommand.treeSize` leaves them; nil after a swap, or
    /// when a file the last build left in the index was gone from the output (someone removed it).
    private(set) var indexChange: Int?
    /// After an in-place commit, whether the output's folders are the ones the last build left,
    /// no more and no fewer: it made and removed none (an edit's index files are renamed, its
    /// folders stay); false after a swap.
    private(set) var sameFolders = false

    /// Whether a path of the output is one of the search index's files `treeSize` counts.
    private static func isIndexFile(_ rel: String) -> Bool {
        rel.hasPrefix("search/") && !Precompressor.isCompressedCopy(rel)
    }

    /// Throws the staging folder away, and a dry run's scratch folder with it.
    public func discard() {
        FileSystem.remove(stagingPath)
        if let scratch { FileSystem.remove(scratch) }
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Atomically exchanges two paths with Linux's renameat2(RENAME_EXCHANGE); false where the
    /// kernel or file system cannot, and the caller falls back to two renames.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        guard let sym = dlsym(nil, "renameat2") else { return false }
        let renameat2 = unsafeBitCast(sym, to: RenameAt2.self)
        let renameExchange: UInt32 = 2
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
    }
}

extension OutputWriter {
    /// A writer into a throwaway folder, for `sift check`, which renders everything and keeps
    /// nothing: a folder of its own (`mkdtemp`), so checks running at once never share one,
    /// removed with the staging folder by `discard()`.
    public static func dryRun() throws -> OutputWriter {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("sift-check-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SiftError("cannot create a folder for sift check: \(FileSystem.errorText())", at: nil)
        }
        let dir = String(cString: made)
        do {
            let writer = try OutputWriter(output: URL(fileURLWithPath: dir).appendingPathComponent("public"))
            writer.scratch = dir
            return writer
        } catch {
            FileSystem.remove(dir)
            throw error
        }
    }
}
