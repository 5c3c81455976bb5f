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
    /// `bounds`, holds the documents of this build and has each of its files.
    func lastFiles(search: URL, bounds: [Int]) -> (touching: Set<Int32>, hashes: [String: String])? {
        guard isComplete,
              let data = FileManager.default.contents(atPath: search.appendingPathComponent(IndexFileNames.manifest).path),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              manifest["bounds"] as? [Int] == bounds, let names = manifest["files"] as? [String: String] else { return nil }
        var hashes: [String: String] = [:]
        for s in 0...bounds.count {
            let shard = IndexFormat.shardFileName(s), union = IndexFormat.unionFileName(s)
            guard let hash = names[shard] else { return nil }
            hashes[shard] = hash
            if let hash = names[union] { hashes[union] = hash }
        }
        // One listing of the folder, not a lookup per file: there are thousands.
        let present = Set(FileSystem.entries(search.appendingPathComponent(IndexFileNames.folder).path, following: true).map { IndexFileNames.folder + $0.name })
        guard hashes.allSatisfy({ present.contains(IndexFileNames.path($0.key, hash: $0.value)) }) else { return nil }
        return (buckets, hashes)
    }
}
