import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What lets `sift build` know that nothing changed since its last build without reading a
/// source: the stamp (`FileStamp`, and the change time) of every file and folder under
/// Content/, Templates/ and Static/, the
/// options and the sift binary it ran with, the stamp of the output folder it left and of the
/// folders in it (`OutputFolders`), and what it reported. A build that finds them all the same reads nothing else, writes nothing and swaps
/// nothing. Kept in `.sift-cache/stamps.cache` beside the page keys, and removed with them
/// whenever anything else writes the output (`sift serve`, a failed swap).
struct BuildStamps {
    static let format: UInt64 = 5

    /// Everything compared: options, binary, sources (walked before the build read them) and,
    /// once appended, the output folder.
    private var key: BinaryWriter
    /// When the walk began; a source changed within a second of it is not trusted.
    private let started: Date
    private var newestSource: Double = 0
    /// Every file's stamp as the walk found it, by path, for the load that follows
    /// (`SiteLoader.stamps`), which then need not `stat` the pages again.
    private(set) var files: [String: FileStamp] = [:]
    /// The last build's stamps file, read once for the walk to compare with and for `unchanged`;
    /// its key, and how much of it the walk matched so far.
    private var lastFile: [UInt8]?
    private var saved: ArraySlice<UInt8> = []
    private var matched = 0
    /// Told once, as soon as the walk finds a source unlike the last build's (or at its end
    /// when there was none, or the output differs): a build then starts reading what it needs
    /// while the walk goes on, and a build with nothing to do reads nothing.
    private var changed: (() -> Void)?
    /// The folders walked so far: one reached again through a link is stamped, not walked again.
    private var walked: Set<FolderIdentity> = []

    /// Walks the sources of `options`' site; `changed` is called (on this thread) once the
    /// walk knows the build has something to do.
    init(_ options: SiteBuilder.Options, output: URL, changed: (() -> Void)? = nil) {
        started = Date()
        key = BinaryWriter()
        self.changed = changed
        if changed != nil, let data = try? FileSystem.read(Self.file(in: options.site), displayPath: "") {
            var r = BinaryReader(bytes: data)
            lastFile = r.bytes
            if let length = r.count(), r.offset + length <= r.bytes.count { saved = r.bytes[r.offset..<r.offset + length] }
        }
        key.u64(Self.format)
        for part in [options.version, options.displayRoot, output.path, options.baseURL ?? "\u{0}", options.drafts ? "drafts" : "",
                     options.precompress.map { "\($0)" } ?? "", "\(options.answersFrom) \(options.docsPart) \(options.rankedFrom)",
                     options.indexSharding.map { "\($0.threshold) \($0.target) \($0.heavy)" } ?? ""] { key.string(part) }
        Self.stamp("/proc/self/exe", into: &key)
        optionsLength = key.bytes.count
        compare()
        // The last build could not trust its sources' stamps: a change, told before the walk.
        if saved.dropFirst(optionsLength).starts(with: Self.unsettled) {
            tell()
        }
        for folder in ["Content", "Templates", StaticFiles.folder] {
            let path = options.site.appendingPathComponent(folder).path
            if let id = FolderIdentity(path) { walked.insert(id) }
            walk(path)
        }
    }

    /// Compares what the key gained since the last call with the saved key; on the first
    /// difference, tells `changed`.
    private mutating func compare() {
        guard let changed else { return }
        let end = key.bytes.count
        let base = saved.startIndex
        if end <= saved.count && key.bytes[matched..<end].elementsEqual(saved[base + matched..<base + end]) {
            matched = end
            return
        }
        self.changed = nil
        changed()
    }

    /// The size of the search index the last build reported, when it built with these options
    /// and its output folder is still as it left it: what an in-place build adds its change to
    /// (`SiteBuilder`), instead of walking the index's files again.
    private(set) var lastIndexBytes: Int?
    /// The output's folders the last build recorded, under the same conditions: an edit that
    /// made and removed no folder of the output leaves them as they were.
    private(set) var lastOutputFolders: OutputFolders?
    /// Follows the options of a key saved by a build that could not trust its sources' stamps
    /// (a walk writes no such number there: it starts with a count of names).
    private static let unsettled: [UInt8] = {
        var w = BinaryWriter()
        w.u64(0x5349_4654_554E_5345)
        return w.bytes
    }()

    /// How many bytes of the key the options and binary take (compared first).
    private var optionsLength = 0

    /// Tells `changed` now, if it was not yet told.
    private mutating func tell() {
        if let changed { self.changed = nil; changed() }
    }

    /// Tells `changed` now if it was not yet told: a build with sources unchanged may still
    /// have something to do (the output moved, or the last build left no stamps).
    mutating func finishWalk(output: URL) {
        // An output folder that cannot be stat'ed has no stamp to match (nor a size to add to).
        if let bytes = lastFile, let outputStamp = FileStamp(output.path) {
            var r = BinaryReader(bytes: bytes)
            var stamp = BinaryWriter()
            outputStamp.write(to: &stamp)
            if let length = r.count(), length >= optionsLength + stamp.bytes.count, r.offset + length <= bytes.count,
               bytes[r.offset..<r.offset + optionsLength].elementsEqual(key.bytes[0..<optionsLength]),
               bytes[r.offset + length - stamp.bytes.count..<r.offset + length].elementsEqual(stamp.bytes) {
                r.offset += length
                if let report = Self.readReport(&r, output: output, start: Date()) {
                    lastIndexBytes = report.indexBytes
                    lastOutputFolders = OutputFolders(reading: &r)
                }
            }
        }
        lastFile = nil
        saved = []
        tell()
    }

    private mutating func walk(_ path: String) {
        let names = FileSystem.sortedBytewise(FileSystem.entries(path, following: true).map(\.name))
        key.u64(UInt64(names.count))
        files.reserveCapacity(files.count + names.count)
        // A folder of a 100k-item collection is 100k calls to `stat`: on every core, each name
        // looked up in the open folder rather than its whole path from the root.
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if folder >= 0 { close(folder) } }
        // In chunks, each compared as it comes: a change near the start of a large folder is
        // told (and the build's caches read) without waiting for the whole folder's stamps.
        for chunk in stride(from: 0, to: names.count, by: 8192) {
            let part = Array(names[chunk..<min(chunk + 8192, names.count)])
            let stats = ParallelMap.map(part) { name -> stat? in
                var st = stat()
                return folder >= 0 && fstatat(folder, name, &st, 0) == 0 ? st : nil
            }
            stamp(part, stats, in: path)
        }
    }

    /// Adds a chunk of a folder's entries to the key (walking into folders), comparing as it goes.
    private mutating func stamp(_ names: [String], _ stats: [stat?], in path: String) {
        for (name, st) in zip(names, stats) {
            let child = path + "/" + name
            guard let st else { key.string("?" + name); continue }
            let stamp = FileStamp(st)
            if st.st_mode & S_IFMT == S_IFREG { files[child] = stamp }
            key.string(name)
            stamp.write(to: &key)
            // The change time too, which no tool sets back, for a file rewritten with its old time.
            key.u64(UInt64(bitPattern: Int64(st.st_ctim.tv_sec))); key.u64(UInt64(bitPattern: Int64(st.st_ctim.tv_nsec)))
            newestSource = max(newestSource, Double(stamp.seconds) + Double(stamp.nanoseconds) / 1e9)
            compare()
            if st.st_mode & S_IFMT == S_IFDIR && walked.insert(FolderIdentity(st)).inserted { walk(child) }
        }
    }

    private static func stamp(_ path: String, into w: inout BinaryWriter) {
        var st = stat()
        if stat(path, &st) == 0 { FileStamp(st).write(to: &w) } else { w.u64(0) }
    }

    private static func file(in site: URL) -> URL { DiskCache.folder(in: site).appendingPathComponent("stamps.cache") }

    /// The last build's report, when its stamps are these and its output is still in place and
    /// whole: no file added to or removed from any of its folders since.
    func unchanged(site: URL, output: URL, start: Date) -> SiteBuilder.Report? {
        var now = key
        Self.stamp(output.path, into: &now)
        guard let bytes = lastFile ?? (try? FileSystem.read(Self.file(in: site), displayPath: "")),
              let (report, folders) = Self.record(bytes, output: output, start: start, key: now.bytes),
              folders.unchanged(in: output) else { return nil }
        return report
    }


    /// A stamps file read past its key (which must be `key`, when given): the report and the
    /// output's folders; nil when damaged.
    private static func record(_ bytes: [UInt8], output: URL, start: Date, key: [UInt8]? = nil) -> (report: SiteBuilder.Report, folders: OutputFolders)? {
        var r = BinaryReader(bytes: bytes)
        guard let length = r.count(), length <= r.bytes.count - r.offset,
              key.map({ r.bytes[r.offset..<r.offset + length].elementsEqual($0) }) ?? true else { return nil }
        r.offset += length
        guard let report = readReport(&r, output: output, start: start), let folders = OutputFolders(reading: &r) else { return nil }
        return (report, folders)
    }

    /// Records a build that succeeded. When a source changed so near the walk that its stamp
    /// could hide a second change, the key is marked so that no walk matches it (the next build
    /// then goes by the page keys), and only the report is of use: its index size.
    func save(_ report: SiteBuilder.Report, site: URL, output: URL, folders: OutputFolders) {
        var w = BinaryWriter()
        var full = key
        if newestSource >= started.timeIntervalSince1970 - 1 {
            // Right after the options, so that the next walk tells of a change at its first source.
            full.bytes = Array(key.bytes[..<optionsLength]) + Self.unsettled + key.bytes[optionsLength...]
        }
        Self.stamp(output.path, into: &full)
        w.u64(UInt64(full.bytes.count))
        w.bytes += full.bytes
        w.u64(UInt64(report.pages))
        w.u64(UInt64(report.items.count))
        for (name, count) in report.items { w.string(name); w.u64(UInt64(count)) }
        w.u64(UInt64(report.staticFiles))
        w.u64(UInt64(report.warnings.count))
        for e in report.warnings {
            w.string(e.position?.path ?? "\u{0}")
            w.u64(UInt64(max(e.position?.line ?? 0, 0))); w.u64(UInt64(max(e.position?.column ?? 0, 0)))
            w.string(e.message)
            w.string(e.severity.rawValue)
        }
        w.u64(UInt64(report.indexBytes ?? BuildCommand.treeSize(output.appendingPathComponent("search"))))
        folders.write(to: &w)
        let url = Self.file(in: site)
        let tmp = url.path + ".tmp-\(getpid())"
        if (try? FileSystem.write(w.bytes, to: tmp)) != nil, rename(tmp, url.path) != 0 { _ = unlink(tmp) }
        folders.settle()
    }

    private static func readReport(_ r: inout BinaryReader, output: URL, start: Date) -> SiteBuilder.Report? {
        var report = SiteBuilder.Report(output: output)
        guard let pages = r.number(), let collections = r.count() else { return nil }
        report.pages = pages
        for _ in 0..<collections {
            guard let name = r.string(), let count = r.number() else { return nil }
            report.items.append((name, count))
        }
        guard let staticFiles = r.number(), let warnings = r.count() else { return nil }
        report.staticFiles = staticFiles
        for _ in 0..<warnings {
            guard let path = r.string(), let line = r.number(), let column = r.number(), let message = r.string(),
                  let severity = r.string().flatMap(SiftError.Severity.init(rawValue:)) else { return nil }
            report.warnings.append(SiftError(message, at: path == "\u{0}" ? nil : SourcePosition(path: path, line: line, column: column), severity: severity))
        }
        guard let indexBytes = r.number() else { return nil }
        report.indexBytes = indexBytes
        report.seconds = Date().timeIntervalSince(start)
        report.stages = [("stamps", report.seconds, FileSystem.peakMemory())]
        return report
    }
}

private extension BinaryReader {
    /// A number that counts nothing in the file (pages, a line, bytes).
    mutating func number() -> Int? { u64().flatMap { $0 < UInt64(Int.max) ? Int($0) : nil } }
}
