import Foundation

/// What one `sift build` leaves for the next, so an incremental build renders only the pages
/// whose inputs changed: per output file the key of everything it was made from, per item its
/// search digest. Unchanged pages are hard-linked from the previous output into the new one, so
/// the result is byte for byte what a clean build writes. Kept in `<site>/.sift-cache/`: the
/// page keys in one file, the digests streamed to another as they are made, so a 100k-item
/// build never holds them all (the previous build's file is read a record at a time, as items
/// ask, with `pread`: neither mapped nor held, so an incremental build needs no more memory
/// than a clean one). The digest file ends with an index of its records (each item's key, where
/// its record lies and the record's head: names, fields, facets, sort values, length), so a build
/// finds them all, and the heads of the documents it keeps, with two reads instead of one per record.
///
/// An incremental build appends to the last build's digest file instead of copying it: the
/// records of changed items and a new index go at its end, the records it keeps stay where they
/// lie, and the page keys (written last, renamed into place) say how long the file is valid, so
/// what a killed build appended is cut off by the next. Once the file is more than twice the
/// records its index names, a build copies those records to a new file instead
/// (`appendsToPrevious`).
final class DiskCache: BuildRecord, @unchecked Sendable {
    /// Bumped when the cache layout or anything that shapes output without being hashed changes.
    static let format: UInt64 = 20
    /// Ends a digest file, after the offset of its index of records.
    private static let indexMark: UInt64 = 0x5349_4654_4447_5358

    /// The output folder the keys describe; a cache for another output is ignored.
    let output: String
    /// The version of sift that wrote the cache; another version's is ignored.
    let version: String
    /// Output path → key of its inputs.
    private var pages: [String: UInt64] = [:]
    let indexFiles = Locked(IndexFileRecords())
    /// The previous build's every output file → the hash of its bytes (0: not known), and the
    /// stamp of the output folder it left: what lets this build update that output in place.
    private(set) var files: [String: UInt64] = [:]
    private(set) var outputStamp: FileStamp?
    private let lock = NSLock()

    /// The previous build's digests: the open file and where each item's record lies.
    private var previousDigests: Int32 = -1
    private(set) var digestIndex: [String: (key: UInt64, range: Range<Int>, head: Range<Int>)] = [:]
    /// The index that ends the previous build's digest file, which holds each record's head.
    private var digestHeads: [UInt8] = []
    /// The items of the previous build's digests in the order it indexed them.
    private(set) var digestOrder: [String] = []
    /// How many bytes of the previous build's digest file are valid (a killed build may have
    /// appended more), and how many of them hold the records its index names.
    private var digestsLength = 0
    private var liveBytes = 0
    /// Whether this build appends to the last build's digest file (else it writes a new one).
    private var appending = false

    /// This build's digest file while it is being written, the bytes written so far, and the
    /// file opened again for reading the excerpt entries it keeps.
    private var digestFD: Int32 = -1
    private var digestTemp = ""
    private var written = 0
    private var digestsWritten: Int32 = -1
    /// This build's records as written: item, key, where the record starts, its length after
    /// the length itself and its head, for the index that ends the file.
    private var recordsWritten: [(item: String, key: UInt64, start: Int, length: Int, head: ArraySlice<UInt8>)] = []

    /// Whether this is the last build's cache, which a build reads and never writes once it is
    /// loaded: its page keys are then read without the lock, on every core at once.
    private let loaded: Bool

    init(output: String, version: String, loaded: Bool = false) {
        self.output = output
        self.version = version
        self.loaded = loaded
    }

    deinit {
        if previousDigests >= 0 { close(previousDigests) }
        if digestsWritten >= 0 { close(digestsWritten) }
    }

    func page(_ path: String) -> UInt64? {
        if loaded { return pages[path] }
        lock.lock(); defer { lock.unlock() }
        return pages[path]
    }
    func setPage(_ path: String, _ key: UInt64) {
        precondition(!loaded, "the last build's cache is not written")
        lock.lock(); pages[path] = key; lock.unlock()
    }
    func setPages(_ pages: [(path: String, key: UInt64)]) {
        precondition(!loaded, "the last build's cache is not written")
        lock.lock()
        for (path, key) in pages { self.pages[path] = key }
        lock.unlock()
    }

    /// Sizes the page keys for as many pages as `last` had, so they are not rehashed as they grow.
    func reservePages(like last: DiskCache?) {
        guard let last else { return }
        lock.lock(); pages.reserveCapacity(last.pages.count); lock.unlock()
    }

    func searchKey(_ item: String) -> UInt64? { digestIndex[item]?.key }

    /// The digest of an item with this key, its excerpt entry left in the file (`StoredExcerpt`):
    /// a text file of unchanged documents is linked from the last build, so most never need it.
    /// Without `words`, only the record's head is read, from the index (the record itself when
    /// that head is damaged).
    func digest(_ item: String, key: UInt64, words: Bool) -> SearchDigest? {
        guard let entry = digestIndex[item], entry.key == key else { return nil }
        if !words {
            var r = BinaryReader(bytes: digestHeads, offset: entry.head.lowerBound)
            var excerpt: (range: Range<Int>, bytes: Int) = (0..<0, 0)
            if var digest = SearchDigest(readingAllButExcerpt: &r, words: false, excerpt: &excerpt), r.offset == entry.head.upperBound,
               entry.head.count + excerpt.range.count <= entry.range.count {
                let start = entry.range.lowerBound + entry.head.count
                digest.storedExcerpt = self.excerpt(at: start..<start + excerpt.range.count, bytes: excerpt.bytes, inThisBuildsFile: false)
                return digest
            }
        }
        var range = entry.range
        while true {
            guard let bytes = Self.read(previousDigests, range) else { return nil }
            var r = BinaryReader(bytes: bytes)
            var excerpt: (range: Range<Int>, bytes: Int) = (0..<0, 0)
            if var digest = SearchDigest(readingAllButExcerpt: &r, words: words, excerpt: &excerpt),
               !words || r.atEnd, excerpt.range.upperBound <= entry.range.count {
                let at = entry.range.lowerBound + excerpt.range.lowerBound..<entry.range.lowerBound + excerpt.range.upperBound
                digest.storedExcerpt = self.excerpt(at: at, bytes: excerpt.bytes, inThisBuildsFile: false)
                return digest
            }
            if range == entry.range { return nil }
            range = entry.range
        }
    }

    /// An excerpt entry left in the last build's digest file or this build's; it keeps the cache,
    /// and so the file, open.
    private func excerpt(at range: Range<Int>, bytes: Int, inThisBuildsFile: Bool) -> StoredExcerpt {
        StoredExcerpt(bytes: bytes) { [self] in
            guard let read = Self.read(inThisBuildsFile ? digestsWritten : previousDigests, range) else {
                throw CacheDamage(what: "the search digests in .sift-cache/: \(FileSystem.errorText())")
            }
            var r = BinaryReader(bytes: read)
            // The text's length is the record's word for it: the text files are cut by it.
            guard let text = r.strings(), r.atEnd, text.reduce(0, { $0 + $1.utf8.count }) == bytes else {
                throw CacheDamage(what: "an excerpt in the search digests in .sift-cache/")
            }
            return text
        }
    }

    static func folder(in site: URL) -> URL { site.appendingPathComponent(".sift-cache") }
    static func pagesFile(in site: URL) -> URL { folder(in: site).appendingPathComponent("pages.cache") }
    static func digestsFile(in site: URL) -> URL { folder(in: site).appendingPathComponent("digests.cache") }
    static func wordTablesFile(in site: URL, part: Int) -> URL { folder(in: site).appendingPathComponent(WordTableFile.name(part: part)) }

    static func wordLogFile(in site: URL) -> URL { folder(in: site).appendingPathComponent(WordTableLog.name) }

    /// This build's word table files while they are written, put in place by `save`.
    private var wordTableTemps: [String] = []
    /// This build's word table log while it is written: when it is, the tables' files stay.
    private var wordLogTemp = ""
    /// The log of the tables `storedWordTables` read from this cache, for the next build to append to.
    private let wordLog = Locked<WordTableLog?>(nil)

    /// Where this build's render stores its word tables (`SearchIndexBuilder.wordTableStore`),
    /// marked with the fingerprint of its documents: whole, or as the log of the tables it took.
    func wordTableStore(site: URL, parts: Int, fingerprint: UInt64) -> WordTableFile.Store {
        wordTableTemps = (0..<parts).map { Self.wordTablesFile(in: site, part: $0).path + ".tmp-\(getpid())" }
        wordLogTemp = Self.wordLogFile(in: site).path + ".tmp-\(getpid())"
        return WordTableFile.Store(paths: wordTableTemps, header: WordTableFile.Header(format: Self.format, version: version, output: output, fingerprint: fingerprint, parts: parts),
                                   log: previous?.wordLog.withLock { $0 }, logPath: wordLogTemp)
    }

    /// The word tables the last build stored, split into `parts` partitions, when they hold its
    /// documents (its digests' items and keys, in index order): the tables' files as written,
    /// with the log of the builds since replayed (`WordTableLog`).
    func storedWordTables(site: URL, parts: Int) -> [(words: WordSet, stored: StoredPostings)]? {
        var fingerprint = StableHasher()
        for item in digestOrder { WordTableFile.combine(&fingerprint, item: item, key: digestIndex[item]?.key ?? 0) }
        let header = WordTableFile.Header(format: Self.format, version: version, output: output, fingerprint: fingerprint.finalize(), parts: parts)
        let paths = (0..<parts).map { Self.wordTablesFile(in: site, part: $0).path }
        let baseBytes = paths.reduce(0) { $0 + (FileSystem.fileSize($1) ?? 0) }
        if let log = WordTableLog.read(Self.wordLogFile(in: site).path, header: header, baseBytes: baseBytes), log.end == header.fingerprint {
            var base = header
            base.fingerprint = log.base
            if var tables = WordTableFile.read(paths, header: base), log.replay(into: &tables) {
                wordLog.withLock { $0 = log }
                return tables
            }
        }
        guard let tables = WordTableFile.read(paths, header: header) else { return nil }
        wordLog.withLock { $0 = WordTableLog(header: header, baseBytes: baseBytes) }
        return tables
    }

    private func header(_ w: inout BinaryWriter) {
        w.u64(Self.format)
        w.string(version)
        w.string(output)
    }

    private func readHeader(_ r: inout BinaryReader) -> Bool {
        r.u64() == Self.format && r.string() == version && r.string() == output
    }

    /// Reads the cache; nil when there is none, it is damaged, or it was written for another
    /// output or by another version.
    static func load(site: URL, output: String, version: String) -> DiskCache? {
        // Read into the array the reader takes: `Data` then a copy of it faulted in every page twice.
        guard let pageData = try? FileSystem.read(pagesFile(in: site), displayPath: "") else { return nil }
        let cache = DiskCache(output: output, version: version, loaded: true)
        cache.previousDigests = open(digestsFile(in: site).path, O_RDONLY | O_CLOEXEC)
        var st = stat()
        guard cache.previousDigests >= 0, fstat(cache.previousDigests, &st) == 0 else { return nil }
        var r = BinaryReader(bytes: pageData)
        guard cache.readHeader(&r), let length = r.u64().flatMap(Int.init(exactly:)), length <= Int(st.st_size),
              let pageCount = r.count() else { return nil }
        cache.pages.reserveCapacity(pageCount)
        for _ in 0..<pageCount {
            guard let p = r.string(), let k = r.u64() else { return nil }
            cache.pages[p] = k
        }
        guard let stamp = FileStamp(reading: &r), let fileCount = r.count() else { return nil }
        cache.outputStamp = stamp
        cache.files.reserveCapacity(fileCount)
        for _ in 0..<fileCount {
            guard let p = r.string(), let h = r.u64() else { return nil }
            cache.files[p] = h
        }
        guard let textCount = r.count() else { return nil }
        var records = IndexFileRecords()
        records.texts.reserveCapacity(textCount)
        for _ in 0..<textCount {
            guard let key = r.u64(), let hash = r.u64(), let group = r.u64() else { return nil }
            records.texts.append(TextFileRecord(key: key, hash: hash, group: group))
        }
        guard let tableCount = r.count() else { return nil }
        for _ in 0..<tableCount {
            guard let name = r.string(), let key = r.u64(), let json = r.string() else { return nil }
            records.tables[name] = IndexTableRecord(key: key, json: json)
        }
        cache.indexFiles.withLock { $0 = records }
        guard r.atEnd, cache.indexDigests(size: length) else { return nil }
        cache.digestsLength = length
        return cache
    }

    /// The output's files the last build recorded, read alone, whatever version of sift wrote
    /// them (for a build that reuses none of the cache, which must still tell the hidden entries
    /// it wrote at the output's top from the user's).
    static func lastFiles(site: URL, output: String) -> [String: UInt64]? {
        guard let pageData = try? FileSystem.read(pagesFile(in: site), displayPath: "") else { return nil }
        var r = BinaryReader(bytes: pageData)
        guard r.u64() == Self.format, r.string() != nil, r.string() == output, r.u64() != nil, let pageCount = r.count() else { return nil }
        for _ in 0..<pageCount { guard r.string() != nil, r.u64() != nil else { return nil } }
        guard FileStamp(reading: &r) != nil, let fileCount = r.count() else { return nil }
        var files: [String: UInt64] = [:]
        files.reserveCapacity(fileCount)
        for _ in 0..<fileCount {
            guard let p = r.string(), let h = r.u64() else { return nil }
            files[p] = h
        }
        return files
    }

    /// `range` of an open file; nil when it cannot be read whole.
    private static func read(_ fd: Int32, _ range: Range<Int>) -> [UInt8]? {
        var whole = false
        let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buf, count in
            whole = FileSystem.readAll(UnsafeMutableRawBufferPointer(buf), from: fd, at: range.lowerBound)
            count = whole ? range.count : 0
        }
        return whole ? bytes : nil
    }

    /// Reads the index that ends the digest file; a digest is read and decoded when an item asks for it.
    private func indexDigests(size: Int) -> Bool {
        let fd = previousDigests
        let headerLength = 8 + 8 + version.utf8.count + 8 + output.utf8.count
        guard headerLength + 16 <= size, let headBytes = Self.read(fd, 0..<headerLength),
              let tailBytes = Self.read(fd, size - 16..<size) else { return false }
        var head = BinaryReader(bytes: headBytes), tail = BinaryReader(bytes: tailBytes)
        // Lengths are checked by subtraction: a damaged one may be any 64-bit number.
        guard readHeader(&head), let start = tail.u64().flatMap(Int.init(exactly:)), tail.u64() == Self.indexMark,
              start >= headerLength, start <= size - 16, let indexBytes = Self.read(fd, start..<size - 16) else { return false }
        var r = BinaryReader(bytes: indexBytes)
        guard let count = r.count() else { return false }
        digestIndex.reserveCapacity(count)
        digestOrder.reserveCapacity(count)
        for _ in 0..<count {
            guard let item = r.string(), let key = r.u64(), let offset = r.u64().flatMap(Int.init(exactly:)),
                  let length = r.u64().flatMap(Int.init(exactly:)), offset >= headerLength, offset <= start - 8,
                  length >= 16 + item.utf8.count, length <= start - offset - 8,
                  let headLength = r.count(), headLength <= indexBytes.count - r.offset else { return false }
            digestIndex[item] = (key, offset + 8 + 16 + item.utf8.count..<offset + 8 + length, r.offset..<r.offset + headLength)
            r.offset += headLength
            digestOrder.append(item)
            liveBytes += 8 + length
        }
        digestHeads = indexBytes
        return r.atEnd
    }

    /// Whether this build appends to the last build's digest file: while that file is at most
    /// twice the records its index names, else the records are copied to a new one.
    var appendsToPrevious: Bool {
        guard let previous, previous.digestsLength > 0 else { return false }
        return previous.digestsLength <= 2 * previous.liveBytes
    }

    /// Starts this build's digest file: the last build's, reopened to append to after its valid
    /// bytes, or a new one.
    func beginDigests(site: URL) throws {
        try FileSystem.makeDirectory(Self.folder(in: site).path)
        if appendsToPrevious, let previous {
            let path = Self.digestsFile(in: site).path
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            if fd >= 0, ftruncate(fd, off_t(previous.digestsLength)) == 0, lseek(fd, 0, SEEK_END) == off_t(previous.digestsLength) {
                digestFD = fd
                digestTemp = path
                digestsWritten = open(path, O_RDONLY | O_CLOEXEC)
                written = previous.digestsLength
                appending = true
                guard digestsWritten >= 0 else { throw SiftError("cannot read \(path): \(FileSystem.errorText())", at: nil) }
                return
            }
            if fd >= 0 { close(fd) }
        }
        digestTemp = Self.digestsFile(in: site).path + ".tmp-\(getpid())"
        digestFD = open(digestTemp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        digestsWritten = digestFD >= 0 ? open(digestTemp, O_RDONLY | O_CLOEXEC) : -1
        guard digestFD >= 0, digestsWritten >= 0 else { throw SiftError("cannot write \(digestTemp): \(FileSystem.errorText())", at: nil) }
        var w = BinaryWriter()
        header(&w)
        try append(w.bytes)
    }

    /// The last build's cache: a record it holds with the same key stays where it lies in the
    /// file this build appends to, or is copied from it as it lies (runs of them in one piece)
    /// instead of encoded again.
    var previous: DiskCache?

    /// The records, each new one's excerpt entry left in this build's file, where the text files
    /// read it: a clean build held every document's text until the index was written.
    func appendDigests(_ records: [SearchRecord]) throws -> [SearchRecord] {
        guard digestFD >= 0 else { return records }
        var w = BinaryWriter()
        var copy: Range<Int>?
        var kept = records
        // Records come out in order, copied or encoded: each starts where the one before ended.
        var next = written
        for (k, r) in records.enumerated() {
            if let previous, let entry = previous.digestIndex[r.item], entry.key == r.key {
                let start = entry.range.lowerBound - 24 - r.item.utf8.count
                let head = previous.digestHeads[entry.head]
                if appending {
                    recordsWritten.append((r.item, r.key, start, entry.range.upperBound - start - 8, head))
                    continue
                }
                recordsWritten.append((r.item, r.key, next, entry.range.upperBound - start - 8, head))
                next += entry.range.upperBound - start
                if let run = copy, run.upperBound == start {
                    copy = run.lowerBound..<entry.range.upperBound
                    continue
                }
                try append(w.bytes)
                w.bytes.removeAll(keepingCapacity: true)
                if let run = copy { try append(copying: run, from: previous) }
                copy = start..<entry.range.upperBound
                continue
            }
            if let run = copy, let previous { try append(copying: run, from: previous); copy = nil }
            var record = BinaryWriter()
            record.string(r.item)
            record.u64(r.key)
            var digest = r.digest
            if digest.storedExcerpt != nil { digest.excerptText = try digest.excerpt() }
            let entry = digest.write(to: &record)
            // The head: what comes before the excerpt entry, after the item and key; copied, as a
            // slice would keep the whole record (words, excerpt text) until the save: at 100k
            // items a clean build's peak went from 1.2 to 2.1 GB.
            let head = ArraySlice(Array(record.bytes[16 + r.item.utf8.count..<entry.lowerBound]))
            recordsWritten.append((r.item, r.key, next, record.bytes.count, head))
            next += 8 + record.bytes.count
            w.u64(UInt64(record.bytes.count))
            let recordStart = written + w.bytes.count
            w.bytes += record.bytes
            if !digest.excerptText.isEmpty {
                kept[k].digest.excerptText = []
                kept[k].digest.storedExcerpt = excerpt(at: recordStart + entry.lowerBound..<recordStart + entry.upperBound,
                                                       bytes: digest.excerptBytes, inThisBuildsFile: true)
            }
        }
        try append(w.bytes)
        if let run = copy, let previous { try append(copying: run, from: previous) }
        return kept
    }

    /// Appends bytes of the last build's digest file, a megabyte at a time.
    private func append(copying range: Range<Int>, from previous: DiskCache) throws {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let end = min(offset + (1 << 20), range.upperBound)
            guard let bytes = Self.read(previous.previousDigests, offset..<end) else {
                throw CacheDamage(what: "the last build's search digests in .sift-cache/: \(FileSystem.errorText())")
            }
            try append(bytes)
            offset = end
        }
    }

    private func append(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ FileSystem.writeAll($0, to: digestFD) }) else {
            throw SiftError("cannot write \(digestTemp): \(FileSystem.errorText())", at: nil)
        }
        written += bytes.count
    }

    /// Whether the output folder is the one the last build left, so this build may update it in place.
    func outputIsAsLeft() -> Bool {
        guard let outputStamp, !files.isEmpty else { return false }
        return FileStamp(output) == outputStamp
    }

    /// Writes the page keys and the output's files (`files`: path → hash, as the writer recorded
    /// them) and puts both cache files in place (temporary files renamed over the old ones).
    func save(site: URL, files: [String: UInt64]) throws {
        if let ending = digestsEnding {
            digestsEnding = nil
            if let error = ending.take() { throw error }
        } else {
            try writeDigestIndex()
        }
        // The page keys and the files' hashes (at 100k items, 300,000 paths and 24 MB, at the end
        // of the build with the other core idle) encoded on two threads.
        let pages = self.pages
        let sections = ParallelMap.map([0, 1]) { section -> [UInt8] in
            var w = BinaryWriter()
            let entries = section == 0 ? pages : files
            w.bytes.reserveCapacity(entries.count * 80)
            w.u64(UInt64(entries.count))
            for (p, k) in entries { w.string(p); w.u64(k) }
            return w.bytes
        }
        var w = BinaryWriter()
        w.bytes.reserveCapacity(sections[0].count + sections[1].count + 4096)
        header(&w)
        w.u64(UInt64(written))
        w.bytes += sections[0]
        (FileStamp(output) ?? FileStamp(folderInode: 0)).write(to: &w)
        w.bytes += sections[1]
        let records = indexFiles.withLock { $0 }
        w.u64(UInt64(records.texts.count))
        for t in records.texts { w.u64(t.key); w.u64(t.hash); w.u64(t.group) }
        w.u64(UInt64(records.tables.count))
        for (name, t) in records.tables { w.string(name); w.u64(t.key); w.string(t.json) }
        let url = Self.pagesFile(in: site)
        let tmp = url.path + ".tmp-\(getpid())"
        try FileSystem.write(w.bytes, to: tmp)
        // Each file is marked with its documents: one left from another build is never read for these.
        for (p, temp) in wordTableTemps.enumerated() where FileManager.default.fileExists(atPath: temp) {
            _ = rename(temp, Self.wordTablesFile(in: site, part: p).path)
        }
        if keepsWordTables { _ = rename(wordLogTemp, Self.wordLogFile(in: site).path) }
        guard appending || rename(digestTemp, Self.digestsFile(in: site).path) == 0, rename(tmp, url.path) == 0 else {
            throw SiftError("cannot write \(url.path): \(FileSystem.errorText())", at: nil)
        }
    }

    /// Whether this build stored its word tables as a log (`WordTableLog`), the tables' files
    /// staying as they are.
    private var keepsWordTables: Bool { !wordLogTemp.isEmpty && FileManager.default.fileExists(atPath: wordLogTemp) }

    /// The digest file's index being written (`endDigests`).
    private var digestsEnding: Background<Error?>?

    /// Ends this build's digest file with the index of its records (each record's head
    /// with it: 4 MB at 10k items) on another thread, once every record is in: the index stage,
    /// which goes on meanwhile, leaves a core partly idle, and the end of the build did not.
    /// The file is valid only once `save` puts the page keys that name its length in place.
    func endDigests() {
        guard digestFD >= 0, digestsEnding == nil else { return }
        digestsEnding = Background { [self] in
            do { try writeDigestIndex() } catch { return error }
            return nil
        }
    }

    private func writeDigestIndex() throws {
        guard digestFD >= 0 else { return }
        var index = BinaryWriter()
        index.bytes.reserveCapacity(recordsWritten.reduce(16) { $0 + 48 + $1.item.utf8.count + $1.head.count })
        index.u64(UInt64(recordsWritten.count))
        for e in recordsWritten {
            index.string(e.item); index.u64(e.key); index.u64(UInt64(e.start)); index.u64(UInt64(e.length))
            index.u64(UInt64(e.head.count)); index.bytes += e.head
        }
        index.u64(UInt64(written))
        index.u64(Self.indexMark)
        try append(index.bytes)
        close(digestFD); digestFD = -1
    }

    /// Throws away this build's unfinished digest file; what it appended to the last build's is
    /// past the length the page keys record, and cut off by the next build.
    func discard() {
        _ = digestsEnding?.take()
        digestsEnding = nil
        for temp in wordTableTemps + [wordLogTemp] where !temp.isEmpty { FileSystem.remove(temp) }
        if digestFD >= 0 { close(digestFD); digestFD = -1 }
        if !digestTemp.isEmpty && !appending { _ = unlink(digestTemp) }
    }

    /// Removes the cache files (and temporary files of builds that died), keeping the folder
    /// where this build streams its digests, the lock this build holds, and the pages as read
    /// (`PageMemo.save`), which describe the sources, not the output.
    static func remove(site: URL, keeping: DiskCache? = nil) {
        if let aside = setAside(site: site, keeping: keeping) { FileSystem.remove(aside) }
    }

    /// Moves the files `remove` would remove into a folder of their own, which no build reads
    /// (and the next one removes with the rest); that folder, for the caller to remove while
    /// it does something else: freeing a 10k site's cache took a tenth of a clean build's commit.
    static func setAside(site: URL, keeping: DiskCache? = nil) -> String? {
        let pages = PageMemo.file(in: site).lastPathComponent
        let dir = folder(in: site)
        let aside = dir.path + "/old-\(getpid())"
        var made = false
        for name in FileSystem.list(dir) {
            let path = dir.path + "/" + name
            guard path != keeping?.digestTemp && !(keeping?.wordTableTemps.contains(path) ?? false) && name != BuildLock.name && name != pages,
                  path != aside, path != keeping?.wordLogTemp else { continue }
            // The tables' files a build's log was written for.
            if keeping?.keepsWordTables == true && name.hasPrefix("words-") && name.hasSuffix(".cache") { continue }
            if !made { made = mkdir(aside, 0o755) == 0 || errno == EEXIST }
            if !made || rename(path, aside + "/" + name) != 0 { FileSystem.remove(path) }
        }
        return made ? aside : nil
    }
}
