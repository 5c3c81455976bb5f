import Foundation

/// What one build leaves for the next, so an incremental build renders only the pages whose
/// inputs changed: per output file the key of everything it was made from, per item its search
/// digest. Unchanged pages are hard-linked from the previous output into the new one, so the
/// result is byte for byte what a clean build writes. Kept in `<site>/.sift-cache/`.
final class BuildCache: @unchecked Sendable {
    /// Bumped when the cache layout or anything that shapes output without being hashed changes.
    static let format: UInt64 = 1

    /// The output folder the keys describe; a cache for another output is ignored.
    var output: String
    /// Output path → key of its inputs.
    var pages: [String: UInt64] = [:]
    /// `collection/slug` → key of the item's search inputs and its digest.
    var digests: [String: (key: UInt64, digest: SearchDigest)] = [:]

    private let lock = NSLock()

    init(output: String) { self.output = output }

    func page(_ path: String) -> UInt64? { lock.lock(); defer { lock.unlock() }; return pages[path] }
    func setPage(_ path: String, _ key: UInt64) { lock.lock(); pages[path] = key; lock.unlock() }
    func digest(_ item: String, key: UInt64) -> SearchDigest? {
        lock.lock(); defer { lock.unlock() }
        guard let d = digests[item], d.key == key else { return nil }
        return d.digest
    }
    func setDigest(_ item: String, key: UInt64, _ digest: SearchDigest) { lock.lock(); digests[item] = (key, digest); lock.unlock() }

    // MARK: Disk

    static func file(in site: URL) -> URL { site.appendingPathComponent(".sift-cache/build.cache") }

    /// Reads the cache; nil when there is none, it is damaged, or it was written for another output.
    static func load(site: URL, output: String) -> BuildCache? {
        guard let data = FileManager.default.contents(atPath: file(in: site).path) else { return nil }
        var r = BinaryReader(bytes: [UInt8](data))
        guard r.u64() == format, r.string() == SiftCLI.version, let out = r.string(), out == output else { return nil }
        let cache = BuildCache(output: output)
        guard let pageCount = r.count() else { return nil }
        for _ in 0..<pageCount {
            guard let p = r.string(), let k = r.u64() else { return nil }
            cache.pages[p] = k
        }
        guard let digestCount = r.count() else { return nil }
        for _ in 0..<digestCount {
            guard let item = r.string(), let k = r.u64(), let d = SearchDigest(reading: &r) else { return nil }
            cache.digests[item] = (k, d)
        }
        return r.atEnd ? cache : nil
    }

    /// Writes the cache atomically (a temporary file renamed over the old one).
    func save(site: URL) throws {
        var w = BinaryWriter()
        w.u64(Self.format)
        w.string(SiftCLI.version)
        w.string(output)
        w.u64(UInt64(pages.count))
        for (p, k) in pages.sorted(by: { $0.key < $1.key }) { w.string(p); w.u64(k) }
        w.u64(UInt64(digests.count))
        for (item, d) in digests.sorted(by: { $0.key < $1.key }) {
            w.string(item); w.u64(d.key); d.digest.write(to: &w)
        }
        let url = Self.file(in: site)
        try FileSystem.makeDirectory(url.deletingLastPathComponent().path)
        let tmp = url.path + ".tmp-\(getpid())"
        try FileSystem.write(w.bytes, to: tmp)
        guard rename(tmp, url.path) == 0 else { throw SiftError("cannot write \(url.path): \(FileSystem.errorText())", at: nil) }
    }

    /// Removes the cache, for `--clean` builds.
    static func remove(site: URL) { FileSystem.remove(site.appendingPathComponent(".sift-cache").path) }
}

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

extension SearchDigest {
    /// Encodes every stored property; a change to SearchDigest must change this and `BuildCache.format`.
    func write(to w: inout BinaryWriter) {
        w.string(collection); w.string(slug); w.string(title); w.string(url)
        w.u64(scope == nil ? 0 : 1); w.string(scope ?? "")
        w.u64(UInt64(fieldNames.count)); for n in fieldNames { w.string(n) }
        w.u64(UInt64(fieldValues.count)); for v in fieldValues { w.string(v) }
        w.raw(wordBytes); w.raw(wordEnds); w.raw(wordHashes)
    }

    init?(reading r: inout BinaryReader) {
        guard let collection = r.string(), let slug = r.string(), let title = r.string(), let url = r.string(),
              let hasScope = r.u64(), let scope = r.string(), let nameCount = r.count() else { return nil }
        var names: [String] = []
        for _ in 0..<nameCount { guard let n = r.string() else { return nil }; names.append(n) }
        guard let valueCount = r.count() else { return nil }
        var values: [String] = []
        for _ in 0..<valueCount { guard let v = r.string() else { return nil }; values.append(v) }
        guard let wordBytes = r.raw(UInt8.self), let wordEnds = r.raw(UInt32.self), let wordHashes = r.raw(UInt64.self) else { return nil }
        self.init(collection: collection, slug: slug, title: title, url: url, scope: hasScope == 1 ? scope : nil,
                  fieldNames: names, fieldValues: values, wordBytes: wordBytes, wordEnds: wordEnds, wordHashes: wordHashes)
    }
}
