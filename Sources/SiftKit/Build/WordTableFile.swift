import Foundation

/// The word tables a `sift build` leaves in .sift-cache, a file per partition (`words-P.cache`):
/// every word with its documents and what its entry takes, so that the next build, when it
/// indexes the same documents in the same order and changed few of them, takes these tables
/// and applies its edits (`StoredPostings`) instead of merging every document's words again.
///
/// A file holds the header (the cache's format, sift's version, the output, the fingerprint of
/// the documents: each item and search key in index order, the number of partitions and this
/// one's), then as raw arrays (`BinaryWriter.raw`): the words' UTF-8, where each ends, their
/// hashes; where each word's entries start, the entries; per word its encoded and suffix
/// lengths, its primary bucket, how many other buckets it has, and those buckets one after the other;
/// last, the `WideHasher` hash of every byte before it, so that a damaged file is not read (its
/// arrays' lengths are checked, not every entry, and entries out of order crashed the next build).
enum WordTableFile {
    /// What a file must start with to be read.
    struct Header: Equatable {
        var format: UInt64
        var version: String
        var output: String
        /// `fingerprint(_:)` of the documents the tables hold.
        var fingerprint: UInt64
        var parts: Int

        func write(to w: inout BinaryWriter, part: Int) {
            w.u64(format); w.string(version); w.string(output); w.u64(fingerprint); w.u64(UInt64(parts)); w.u64(UInt64(part))
        }
    }

    static func name(part: Int) -> String { "words-\(part).cache" }

    /// Where a build stores its tables: whole (`paths`, one a partition) or, when it took the
    /// last build's and edited them, as `log` with its edits added, written to `logPath`.
    struct Store {
        var paths: [String]
        var header: Header
        var log: WordTableLog?
        var logPath: String
    }

    /// Stores a render's tables: as the log with this build's edits when they fit in it, else
    /// whole. A cache: a build that cannot store its tables still writes its index.
    static func store(_ words: WordList, tables: [WordTable], in store: Store) {
        if var log = store.log, log.append(tables, fingerprint: store.header.fingerprint) {
            if (try? log.write(to: store.logPath)) != nil { return }
            FileSystem.remove(store.logPath)
        }
        do { try write(words, tables: tables, header: store.header, to: store.paths) } catch {
            for path in store.paths { FileSystem.remove(path) }
        }
    }

    /// Adds a document (its item and search key) to a fingerprint of the documents in index order.
    static func combine(_ hasher: inout StableHasher, item: String, key: UInt64) {
        hasher.combine(item)
        hasher.combine(key)
    }

    /// Writes every table of a render to `paths` (one per table); the documents are numbered in
    /// add order and no table is live (each encoded when asked or stored).
    static func write(_ words: WordList, tables: [WordTable], header: Header, to paths: [String]) throws {
        let failures = ErrorBox()
        _ = ParallelMap.map(Array(tables.indices)) { p in
            do { try write(part: p, words, tables[p], header: header, to: paths[p]) } catch { failures.set(error) }
        }
        if let error = failures.error { throw error }
    }

    private static func write(part p: Int, _ words: WordList, _ t: WordTable, header: Header, to path: String) throws {
        let range = words.range(ofTable: p)
        var bytes: [UInt8] = [], ends: [UInt32] = [], hashes: [UInt64] = []
        var starts: [UInt32] = [0], entries: [UInt32] = []
        var encoded: [Int32] = [], suffix: [Int32] = [], bucket: [Int32] = [], others: [UInt8] = [], secondary: [Int32] = []
        ends.reserveCapacity(range.count); hashes.reserveCapacity(range.count); starts.reserveCapacity(range.count + 1)
        var copy = t.stored.map(StoredPostings.Copy.init)
        for g in range {
            bytes += words.word(g)
            ends.append(UInt32(bytes.count))
            hashes.append(t.words.hashes[Int(words.ref(g).id)])
            if copy != nil {
                copy!.add(Int(words.ref(g).id))
                starts.append(UInt32(copy!.count))
            } else {
                let d = words.documents(g)
                entries += StoredPostings.entries(all: d.all, often: d.often, lead: d.lead)
                starts.append(UInt32(entries.count))
            }
            encoded.append(Int32(words.encodedCount(g)))
            suffix.append(Int32(words.suffixCount(g)))
            bucket.append(words.bucket[g])
            others.append(UInt8(words.secondary[g].count))
            secondary += words.secondary[g]
        }
        if copy != nil { entries = copy!.finish() }
        var w = BinaryWriter()
        header.write(to: &w, part: p)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SiftError("cannot write \(path): \(FileSystem.errorText())", at: nil) }
        defer { close(fd) }
        // Each array as it lies in memory, after its count: no copy of the whole file.
        var hasher = WideHasher()
        func put(_ buffer: UnsafeRawBufferPointer, hashed: Bool = true) throws {
            if hashed { hasher.combine(bytes: buffer) }
            guard FileSystem.writeAll(buffer, to: fd) else { throw SiftError("cannot write \(path): \(FileSystem.errorText())", at: nil) }
        }
        func put<T: FixedWidthInteger>(_ a: [T]) throws {
            try withUnsafeBytes(of: UInt64(a.count).littleEndian) { try put($0) }
            try a.withUnsafeBytes { try put($0) }
        }
        try w.bytes.withUnsafeBytes { try put($0) }
        try put(bytes); try put(ends); try put(hashes); try put(starts); try put(entries)
        try put(encoded); try put(suffix); try put(bucket); try put(others); try put(secondary)
        try withUnsafeBytes(of: hasher.finalize().littleEndian) { try put($0, hashed: false) }
    }

    /// Reads every partition's file; nil when one is missing, damaged, or written for other documents.
    static func read(_ paths: [String], header: Header) -> [(words: WordSet, stored: StoredPostings)]? {
        let tables = ParallelMap.map(Array(paths.indices)) { p in read(paths[p], header: header, part: p) }
        guard tables.allSatisfy({ $0 != nil }) else { return nil }
        return tables.map { $0! }
    }

    private static func read(_ path: String, header: Header, part: Int) -> (words: WordSet, stored: StoredPostings)? {
        // Each array read from the file into its own storage: the whole file read first, then
        // copied out, made a 100k site's 134 MB twice, a page fault each 4 KB.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(st.st_size)
        var expected = BinaryWriter()
        header.write(to: &expected, part: part)
        var offset = 0
        // Fills `buffer` from the file at `offset` and moves past what it read; false when the file ends first.
        func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
            guard FileSystem.readAll(buffer, from: fd, at: offset) else { return false }
            offset += buffer.count
            return true
        }
        func u64() -> UInt64? {
            var v: UInt64 = 0
            return withUnsafeMutableBytes(of: &v) { fill($0) } ? UInt64(littleEndian: v) : nil
        }
        // Hashed as `write` hashed them: the header, then each array's count and its elements.
        var hasher = WideHasher()
        guard size >= expected.bytes.count + 8 else { return nil }
        var head = [UInt8](repeating: 0, count: expected.bytes.count)
        guard head.withUnsafeMutableBytes({ fill($0) }), head == expected.bytes else { return nil }
        head.withUnsafeBytes { hasher.combine(bytes: $0) }
        func array<T: FixedWidthInteger>(_ type: T.Type) -> [T]? {
            guard let count = u64() else { return nil }
            withUnsafeBytes(of: count.littleEndian) { hasher.combine(bytes: $0) }
            // A damaged count may be any number: no array larger than what is left of the file.
            guard count <= UInt64(max(0, size - 8 - offset) / MemoryLayout<T>.size) else { return nil }
            let n = Int(count)
            var ok = true
            let a = [T](unsafeUninitializedCapacity: n) { buf, initialized in
                let raw = UnsafeMutableRawBufferPointer(buf)
                ok = fill(raw)
                if ok { hasher.combine(bytes: UnsafeRawBufferPointer(raw)) }
                initialized = ok ? n : 0
            }
            return ok ? a : nil
        }
        guard let wordBytes = array(UInt8.self), let ends = array(UInt32.self), let hashes = array(UInt64.self),
              let starts = array(UInt32.self), let entries = array(UInt32.self), let encoded = array(Int32.self),
              let suffix = array(Int32.self), let bucket = array(Int32.self), let others = array(UInt8.self),
              let flat = array(Int32.self), offset == size - 8, let written = u64(), hasher.finalize() == written else { return nil }
        let n = ends.count
        // Lengths are checked before any is used: a damaged file may say anything.
        guard hashes.count == n, starts.count == n + 1, encoded.count == n, suffix.count == n, bucket.count == n, others.count == n,
              ends.last.map({ Int($0) == wordBytes.count }) ?? wordBytes.isEmpty, zip(ends, ends.dropFirst()).allSatisfy({ $0 <= $1 }),
              starts.first == 0, Int(starts[n]) == entries.count, zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
              others.reduce(0, { $0 + Int($1) }) == flat.count,
              bucket.allSatisfy({ $0 >= 0 && $0 < IndexFormat.buckets }), flat.allSatisfy({ $0 >= 0 && $0 < IndexFormat.buckets }) else { return nil }
        var secondary: [[Int32]] = []
        secondary.reserveCapacity(n)
        var k = 0
        for c in others {
            secondary.append(c == 0 ? [] : Array(flat[k..<k + Int(c)]))
            k += Int(c)
        }
        let stored = StoredPostings(starts: starts, entries: entries, encoded: encoded, suffix: suffix, bucket: bucket, secondary: secondary)
        return (WordSet(bytes: wordBytes, ends: ends, hashes: hashes), stored)
    }
}
