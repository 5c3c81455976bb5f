import Foundation

/// Little-endian binary encoding for the cache file.
struct BinaryWriter {
    var bytes: [UInt8] = []
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func string(_ s: String) { u64(UInt64(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
    /// Integers as they lie in memory: every host Swift runs on here is little-endian.
    mutating func raw<T: FixedWidthInteger>(_ a: [T]) {
        u64(UInt64(a.count))
        a.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}

struct BinaryReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }
    var atEnd: Bool { offset == bytes.count }

    mutating func u64() -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        defer { offset += 8 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
    mutating func count() -> Int? {
        guard let n = u64(), n < UInt64(bytes.count - offset + 1) else { return nil }
        return Int(n)
    }
    mutating func string() -> String? {
        guard let n = count(), offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return String(decoding: bytes[offset..<offset + n], as: UTF8.self)
    }
    mutating func raw<T: FixedWidthInteger>(_: T.Type) -> [T]? {
        guard let n = count(), offset + n * MemoryLayout<T>.size <= bytes.count else { return nil }
        let size = n * MemoryLayout<T>.size
        let out = [T](unsafeUninitializedCapacity: n) { buf, count in
            bytes.withUnsafeBytes { src in
                UnsafeMutableRawBufferPointer(buf).copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<offset + size]))
            }
            count = n
        }
        offset += size
        return out
    }
}

extension BinaryReader {
    /// A count, then that many strings.
    mutating func strings() -> [String]? {
        guard let n = count() else { return nil }
        return list(n)
    }

    /// `n` strings.
    mutating func list(_ n: Int) -> [String]? {
        var out: [String] = []
        for _ in 0..<n { guard let s = string() else { return nil }; out.append(s) }
        return out
    }

    /// A count, then that many strings, passed over: their UTF-8 bytes in all.
    mutating func skipStrings() -> Int? {
        guard let n = count() else { return nil }
        var total = 0
        for _ in 0..<n {
            guard let length = count(), offset + length <= bytes.count else { return nil }
            offset += length
            total += length
        }
        return total
    }

    /// `n` lists of strings, each its count first.
    mutating func lists(_ n: Int) -> [[String]]? {
        var out: [[String]] = []
        for _ in 0..<n { guard let l = strings() else { return nil }; out.append(l) }
        return out
    }
}

extension SearchDigest {
    /// Encodes every stored property (`excerptText` as it is: a stored excerpt is read into it
    /// first); a change to SearchDigest must change this and `DiskCache.format`. The words come
    /// last, after the excerpt entry and its lengths, so a build that takes the words from the
    /// stored word tables reads a record's first few hundred bytes, not its every word.
    /// Returns where the excerpt entry lies in `w`.
    @discardableResult
    func write(to w: inout BinaryWriter) -> Range<Int> {
        w.string(collection); w.string(slug); w.string(title); w.string(url)
        w.u64(scope == nil ? 0 : 1); w.string(scope ?? "")
        w.u64(UInt64(fieldNames.count)); for n in fieldNames { w.string(n) }
        w.u64(UInt64(fieldValues.count)); for v in fieldValues { w.string(v) }
        w.u64(UInt64(facetNames.count)); for n in facetNames { w.string(n) }
        for values in facetValues { w.u64(UInt64(values.count)); for v in values { w.string(v) } }
        w.u64(UInt64(sortNames.count)); for n in sortNames { w.string(n) }
        for v in sortValues { w.string(v) }
        w.u64(UInt64(bodyWords))
        var entry = BinaryWriter()
        entry.u64(UInt64(excerptText.count)); for t in excerptText { entry.string(t) }
        w.u64(UInt64(excerptText.reduce(0) { $0 + $1.utf8.count })); w.u64(UInt64(entry.bytes.count))
        let start = w.bytes.count
        w.bytes += entry.bytes
        let excerpt = start..<w.bytes.count
        // Not the words' hashes, a third of a record, which the reader makes again from the words.
        w.raw(wordBytes); w.raw(wordEnds); w.raw(wordCounts)
        return excerpt
    }

    /// Every stored property but the excerpt entry; `excerpt` is where the entry lies in the
    /// reader's bytes and how many bytes of text it holds. Without `words`, the reader stops
    /// before the entry and the words are left out (`wordsLeftOut`); with them it reads to the
    /// record's end.
    init?(readingAllButExcerpt r: inout BinaryReader, words: Bool = true, excerpt: inout (range: Range<Int>, bytes: Int)) {
        guard let collection = r.string(), let slug = r.string(), let title = r.string(), let url = r.string(),
              let hasScope = r.u64(), let scope = r.string(), let nameCount = r.count() else { return nil }
        var names: [String] = []
        for _ in 0..<nameCount { guard let n = r.string() else { return nil }; names.append(n) }
        guard let valueCount = r.count() else { return nil }
        var values: [String] = []
        for _ in 0..<valueCount { guard let v = r.string() else { return nil }; values.append(v) }
        guard let facetNames = r.strings(), let facetValues = r.lists(facetNames.count),
              let sortNames = r.strings(), let sortValues = r.list(sortNames.count),
              // Numbers, not counts of what follows: the head is read alone, without the entry and the words.
              let bodyWords = r.u64().flatMap(Int.init(exactly:)), let textBytes = r.u64().flatMap(Int.init(exactly:)),
              let entryLength = r.u64().flatMap(Int.init(exactly:)), entryLength <= Int(UInt32.max), textBytes <= entryLength,
              names.count == values.count else { return nil }
        excerpt = (r.offset..<r.offset + entryLength, textBytes)
        var wordBytes: [UInt8] = [], wordEnds: [UInt32] = [], wordHashes: [UInt64] = [], wordCounts: [UInt8] = []
        if words {
            guard entryLength <= r.bytes.count - r.offset else { return nil }
            // Read whole, the entry is checked too: a record damaged anywhere is not taken.
            var entry = BinaryReader(bytes: r.bytes, offset: r.offset)
            guard entry.skipStrings() == textBytes, entry.offset == r.offset + entryLength else { return nil }
            r.offset += entryLength
            guard let b = r.raw(UInt8.self), let e = r.raw(UInt32.self), let c = r.raw(UInt8.self),
                  c.isEmpty || c.count == e.count, Self.endsAreOrdered(e, within: b.count) else { return nil }
            (wordBytes, wordEnds, wordHashes, wordCounts) = (b, e, Self.hashes(b, ends: e), c)
        }
        self.init(collection: collection, slug: slug, title: title, url: url, scope: hasScope == 1 ? scope : nil,
                  fieldNames: names, fieldValues: values, facetNames: facetNames, facetValues: facetValues,
                  sortNames: sortNames, sortValues: sortValues, wordBytes: wordBytes, wordEnds: wordEnds, wordHashes: wordHashes,
                  wordCounts: wordCounts, bodyWords: bodyWords, wordsLeftOut: !words)
    }

    /// Each word's `WordHash`, as the tokenizer made it.
    private static func hashes(_ bytes: [UInt8], ends: [UInt32]) -> [UInt64] {
        var start = 0
        return ends.map { end in
            var h = WordHash.seed
            for k in start..<Int(end) { h = WordHash.adding(bytes[k], to: h) }
            start = Int(end)
            return WordHash.finish(h)
        }
    }

    /// Whether each word's end is at or after the last one's and inside the words' bytes.
    private static func endsAreOrdered(_ ends: [UInt32], within count: Int) -> Bool {
        var last: UInt32 = 0
        for end in ends {
            guard end >= last, Int(end) <= count else { return false }
            last = end
        }
        return true
    }
}

extension Value {
    /// Encodes the value: a tag, then its text, items or fields.
    func write(to w: inout BinaryWriter) {
        switch self {
        case .null: w.u64(0)
        case .bool(let b): w.u64(b ? 2 : 1)
        case .number(let s): w.u64(3); w.string(s)
        case .string(let s): w.u64(4); w.string(s)
        case .list(let l): w.u64(5); w.u64(UInt64(l.count)); for v in l { v.write(to: &w) }
        case .map(let f): w.u64(6); f.write(to: &w)
        }
    }

    init?(reading r: inout BinaryReader, depth: Int = 0) {
        guard depth < 512, let tag = r.u64() else { return nil }
        switch tag {
        case 0: self = .null
        case 1, 2: self = .bool(tag == 2)
        case 3, 4:
            guard let s = r.string() else { return nil }
            self = tag == 3 ? .number(s) : .string(s)
        case 5:
            guard let n = r.count() else { return nil }
            var l: [Value] = []
            for _ in 0..<n { guard let v = Value(reading: &r, depth: depth + 1) else { return nil }; l.append(v) }
            self = .list(l)
        case 6:
            guard let f = Fields(reading: &r, depth: depth + 1) else { return nil }
            self = .map(f)
        default: return nil
        }
    }
}

extension Fields {
    /// Encodes the fields in order: a count, then each key and value.
    func write(to w: inout BinaryWriter) {
        w.u64(UInt64(keys.count))
        for (k, v) in self { w.string(k); v.write(to: &w) }
    }

    init?(reading r: inout BinaryReader, depth: Int = 0) {
        guard let n = r.count() else { return nil }
        self.init()
        for _ in 0..<n {
            guard let k = r.string(), let v = Value(reading: &r, depth: depth) else { return nil }
            self[k] = v
        }
    }
}

extension SourcePosition {
    func write(to w: inout BinaryWriter) {
        w.string(path); w.u64(UInt64(bitPattern: Int64(line))); w.u64(UInt64(bitPattern: Int64(column)))
    }

    init?(reading r: inout BinaryReader) {
        guard let path = r.string(), let line = r.u64(), let column = r.u64() else { return nil }
        self.init(path: path, line: Int(truncatingIfNeeded: line), column: Int(truncatingIfNeeded: column))
    }
}

extension SiteLoader.LoadedPage {
    /// Encodes the page as loaded, all but its kept body (read again from its file when rendered).
    func write(to w: inout BinaryWriter) {
        w.string(slug)
        w.u64(title == nil ? 0 : 1); w.string(title ?? "")
        w.string(fileTitle); w.u64(titleFromHeading ? 1 : 0)
        fields.write(to: &w)
        w.u64(frontMatter == nil ? 0 : 1); (frontMatter ?? Fields()).write(to: &w)
        w.u64(UInt64(keyPositions.count))
        for (k, p) in keyPositions { w.string(k); p.write(to: &w) }
        w.string(page.path); w.string(page.displayPath)
        w.u64(UInt64(page.bodyOffset)); w.u64(UInt64(page.bodyLine))
        w.u64(page.bodyHash == nil ? 0 : 1); w.u64(page.bodyHash ?? 0)
    }

    init?(reading r: inout BinaryReader) {
        guard let slug = r.string(), let hasTitle = r.u64(), let title = r.string(), let fileTitle = r.string(),
              let fromHeading = r.u64(), let fields = Fields(reading: &r), let hasFrontMatter = r.u64(),
              let frontMatter = Fields(reading: &r), let positionCount = r.count() else { return nil }
        var positions: [String: SourcePosition] = [:]
        for _ in 0..<positionCount {
            guard let k = r.string(), let p = SourcePosition(reading: &r) else { return nil }
            positions[k] = p
        }
        guard let path = r.string(), let display = r.string(), let offset = r.u64().flatMap(Int.init(exactly:)), let line = r.u64(),
              let hasHash = r.u64(), let hash = r.u64() else { return nil }
        var source = MarkdownSource(path: path, displayPath: display, bodyOffset: offset, bodyLine: Int(truncatingIfNeeded: line))
        source.bodyHash = hasHash == 1 ? hash : nil
        self.init(slug: slug, title: hasTitle == 1 ? title : nil, fileTitle: fileTitle, titleFromHeading: fromHeading == 1,
                  fields: fields, frontMatter: hasFrontMatter == 1 ? frontMatter : nil, keyPositions: positions, page: source)
    }
}
