import Foundation

/// The last build's shard and union files, for an incremental `sift build` to keep the ones an
/// edit leaves alone (linked from the last output, neither laid out nor written), as `sift serve`
/// keeps them in memory (`ShardWriter.files(touching:previous:)`).
///
/// When the documents are the last build's, in the same order (so every document keeps its
/// number), a word's postings change only where a changed document lost it, gained it, or holds
/// it otherwise (often, in its lead) than before; only the shards of the buckets those words are
/// filed under (primary and secondary) are laid out again. The others are the last build's files, once the words are cut into shards
/// at the same bounds. Anything else (a document added, removed or
/// moved, more than `maxChanged` changed, a file of the last output missing) writes every shard.
final class ShardReuse: @unchecked Sendable {
    /// Past this many changed documents, every shard is laid out again.
    static let maxChanged = 256

    private let previous: DiskCache
    private var position = 0
    private var changed = 0
    private var usable = true
    private var buckets = Set<Int32>()

    init(previous: DiskCache) { self.previous = previous }

    /// Takes a chunk of records in the order the index adds them; returns the documents among
    /// them that changed, while the documents are still the last build's.
    @discardableResult
    func note(_ records: [SearchRecord]) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        for r in records where usable {
            let order = previous.digestOrder
            guard position < order.count, order[position] == r.item, let last = previous.digestIndex[r.item] else {
                usable = false
                return []
            }
            position += 1
            if last.key == r.key { continue }
            changed += 1
            guard changed <= Self.maxChanged, let before = previous.digest(r.item, key: last.key) else {
                usable = false
                return []
            }
            touch(before, r.digest)
            changes.append(DocumentChange(document: Int32(position - 1), before: before, after: r.digest))
        }
        return changes
    }

    /// Whether every record so far was the last build's document in the same place, with at most `maxChanged` changed.
    var isUsable: Bool { usable }

    /// Whether the records noted are the last build's documents, all of them, in the same order.
    var isComplete: Bool { usable && position == previous.digestOrder.count }

    /// The last build's digest of an item with this key.
    func lastDigest(_ item: String, key: UInt64) -> SearchDigest? { previous.digest(item, key: key) }

    /// The buckets of the words whose postings the change from `before` to `after` changes: those
    /// it lost, gained, or now holds often or in its lead where it did not, or the other way round.
    private func touch(_ before: SearchDigest, _ after: SearchDigest) {
        let old = Self.words(before), new = Self.words(after)
        var changed: [[UInt8]] = []
        for (word, flags) in old where new[word] != flags { changed.append(word) }
        for word in new.keys where old[word] == nil { changed.append(word) }
        for word in changed {
            word.withUnsafeBufferPointer { bytes in
                let (primary, secondary) = WordList.buckets(ofWord: bytes)
                buckets.insert(primary)
                buckets.formUnion(secondary)
            }
        }
    }

    /// A digest's words, each with what its postings record of it (often, lead), as the word tables take them.
    private static func words(_ digest: SearchDigest) -> [[UInt8]: UInt64] {
        var out: [[UInt8]: UInt64] = [:]
        out.reserveCapacity(digest.wordEnds.count)
        var start = 0
        for (w, end) in digest.wordEnds.enumerated() {
            out[Array(digest.wordBytes[start..<Int(end)])] = WordTable.bits(count: w < digest.wordCounts.count ? digest.wordCounts[w] : 0)
            start = Int(end)
        }
        return out
    }

    /// The buckets to lay out again, and the last build's shard and union files (by name, with
    /// the hash that names them) when the index in `search` (the last output's search/) was cut at
    /// `bounds`, holds the documents of this build and has each of its files. `listed`: the
    /// regular files of search/immutable/ when the output writer listed them already.
    func lastFiles(search: URL, bounds: [Int], listed: Set<String>? = nil) -> (touching: Set<Int32>, hashes: [String: String])? {
        guard isComplete,
              let data = try? FileSystem.read(search.appendingPathComponent(IndexFileNames.manifest), displayPath: ""),
              let (lastBounds, names) = Self.boundsAndFiles(data), lastBounds == bounds else { return nil }
        var hashes: [String: String] = [:]
        for s in 0...bounds.count {
            let shard = IndexFormat.shardFileName(s), union = IndexFormat.unionFileName(s)
            guard let hash = names[shard] else { return nil }
            hashes[shard] = hash
            if let hash = names[union] { hashes[union] = hash }
        }
        // One listing of the folder, not a lookup per file: there are thousands.
        let present = listed ?? Set(FileSystem.entries(search.appendingPathComponent(IndexFileNames.folder).path, following: true).map(\.name))
        guard hashes.allSatisfy({ present.contains(String(IndexFileNames.path($0.key, hash: $0.value).dropFirst(IndexFileNames.folder.count))) }) else { return nil }
        return (buckets, hashes)
    }

    /// The `bounds` and `files` of a manifest this build's index writer wrote, read without
    /// decoding the rest (at 10k items, 270 KB of document tables): `bounds` comes before the
    /// collections, `files` ends the manifest, and neither key can stand inside a JSON string,
    /// whose quotes are escaped. Nil for anything else.
    static func boundsAndFiles(_ bytes: [UInt8]) -> (bounds: [Int], files: [String: String])? {
        func find(_ key: String, last: Bool) -> Int? {
            let k = Array(key.utf8)
            guard bytes.count >= k.count else { return nil }
            let starts = stride(from: 0, through: bytes.count - k.count, by: 1)
            let match = { (i: Int) in bytes[i] == k[0] && bytes[i..<i + k.count].elementsEqual(k) }
            return (last ? starts.reversed().first(where: match) : starts.first(where: match)).map { $0 + k.count }
        }
        guard var i = find("\"bounds\":[", last: false) else { return nil }
        var bounds: [Int] = []
        var n = 0, digits = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                guard digits < 18 else { return nil }
                n = n * 10 + Int(b - UInt8(ascii: "0")); digits += 1
            } else if (b == UInt8(ascii: ",") || b == UInt8(ascii: "]")) && digits > 0 {
                bounds.append(n); n = 0; digits = 0
                if b == UInt8(ascii: "]") { break }
            } else if b == UInt8(ascii: "]") && bounds.isEmpty && digits == 0 {
                break
            } else {
                return nil
            }
        }
        guard var j = find("\"files\":{", last: true) else { return nil }
        var files: [String: String] = [:]
        func string() -> String? {
            guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else { return nil }
            let start = j + 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                guard bytes[end] != UInt8(ascii: "\\") else { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            j = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        while j < bytes.count && bytes[j] != UInt8(ascii: "}") {
            guard let name = string(), j < bytes.count, bytes[j] == UInt8(ascii: ":") else { return nil }
            j += 1
            guard let hash = string() else { return nil }
            files[name] = hash
            if j < bytes.count && bytes[j] == UInt8(ascii: ",") { j += 1 }
        }
        return j < bytes.count ? (bounds, files) : nil
    }
}
