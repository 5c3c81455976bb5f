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
    /// first); a change to SearchDigest must change this and `DiskCache.format`.
    func write(to w: inout BinaryWriter) {
        w.string(collection); w.string(slug); w.string(title); w.string(url)
        w.u64(scope == nil ? 0 : 1); w.string(scope ?? "")
        w.u64(UInt64(fieldNames.count)); for n in fieldNames { w.string(n) }
        w.u64(UInt64(fieldValues.count)); for v in fieldValues { w.string(v) }
        w.u64(UInt64(facetNames.count)); for n in facetNames { w.string(n) }
        for values in facetValues { w.u64(UInt64(values.count)); for v in values { w.string(v) } }
        w.u64(UInt64(sortNames.count)); for n in sortNames { w.string(n) }
        for v in sortValues { w.string(v) }
        w.raw(wordBytes); w.raw(wordEnds); w.raw(wordHashes); w.raw(wordCounts); w.u64(UInt64(bodyWords))
        w.u64(UInt64(excerptText.count)); for t in excerptText { w.string(t) }
    }

    init?(reading r: inout BinaryReader) {
        guard let head = SearchDigest(readingAllButExcerpt: &r), let excerptText = r.strings() else { return nil }
        self = head
        self.excerptText = excerptText
    }

    /// Every stored property but the excerpt entry, which follows.
    init?(readingAllButExcerpt r: inout BinaryReader) {
        guard let collection = r.string(), let slug = r.string(), let title = r.string(), let url = r.string(),
              let hasScope = r.u64(), let scope = r.string(), let nameCount = r.count() else { return nil }
        var names: [String] = []
        for _ in 0..<nameCount { guard let n = r.string() else { return nil }; names.append(n) }
        guard let valueCount = r.count() else { return nil }
        var values: [String] = []
        for _ in 0..<valueCount { guard let v = r.string() else { return nil }; values.append(v) }
        guard let facetNames = r.strings(), let facetValues = r.lists(facetNames.count),
              let sortNames = r.strings(), let sortValues = r.list(sortNames.count) else { return nil }
        guard let wordBytes = r.raw(UInt8.self), let wordEnds = r.raw(UInt32.self), let wordHashes = r.raw(UInt64.self),
              let wordCounts = r.raw(UInt8.self), let bodyWords = r.count() else { return nil }
        self.init(collection: collection, slug: slug, title: title, url: url, scope: hasScope == 1 ? scope : nil,
                  fieldNames: names, fieldValues: values, facetNames: facetNames, facetValues: facetValues,
                  sortNames: sortNames, sortValues: sortValues, wordBytes: wordBytes, wordEnds: wordEnds, wordHashes: wordHashes,
                  wordCounts: wordCounts, bodyWords: bodyWords)
    }
}
