import Foundation

/// The edits made to the stored word tables (`WordTableFile`) since they were written, kept in
/// .sift-cache/words.log so that an incremental `sift build` that changed a few pages stores
/// those changes, not every table again (at 10k items the tables are 14 MB, and rewriting them
/// took a core for a tenth of a one-page edit).
///
/// The tables' files stay as the build that wrote them left them (the base); each later build
/// appends a batch: the words it added to each partition (in the order they took their ids) and
/// every entry it set (`WordTable.StoredEdit`), with the fingerprint of its documents. The next
/// build reads the base, replays every batch, and has the tables the last build ended with,
/// word ids and all. Past `limit` the log is dropped and the tables are written whole again.
///
/// The file holds the header `WordTableFile` writes (with the base's fingerprint, and the number
/// of partitions where a table file has its own), then the batches, then the `WideHasher` hash
/// of every byte before it.
struct WordTableLog {
    static let name = "words.log"

    /// The fingerprint of the documents the base tables hold.
    let base: UInt64
    /// The fingerprint of the documents the last batch leaves (the base's when there is none).
    private(set) var end: UInt64
    /// How many bytes the base tables take, which bounds the log.
    let baseBytes: Int
    /// The log's bytes, without the trailing hash.
    private(set) var bytes: [UInt8]
    private var batches: [Batch] = []

    private struct Batch {
        var end: UInt64
        var parts: [Part]
    }

    private struct Part {
        var firstNew: Int
        var words: [(bytes: [UInt8], hash: UInt64)]
        var sets: [(document: Int32, word: Int, flags: UInt64)]
    }

    /// An empty log over base tables written with `header`.
    init(header: WordTableFile.Header, baseBytes: Int) {
        base = header.fingerprint
        end = header.fingerprint
        self.baseBytes = baseBytes
        var w = BinaryWriter()
        header.write(to: &w, part: header.parts)
        bytes = w.bytes
    }

    /// The most a log may take: a thirty-second of the tables (at least 64 KB), so replaying it
    /// costs the next build little beside reading them.
    var limit: Int { max(64 << 10, baseBytes / 32) }

    /// The log at `path`, when it is whole and was written for tables of `header` (its
    /// fingerprint aside, which is the base's); nil otherwise.
    static func read(_ path: String, header: WordTableFile.Header, baseBytes: Int) -> WordTableLog? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 8 else { return nil }
        let all = [UInt8](data), body = Array(all[..<(all.count - 8)])
        var hasher = WideHasher()
        body.withUnsafeBytes { hasher.combine(bytes: $0) }
        var r = BinaryReader(bytes: all, offset: body.count)
        guard r.u64() == hasher.finalize() else { return nil }
        r = BinaryReader(bytes: body)
        guard r.u64() == header.format, r.string() == header.version, r.string() == header.output, let base = r.u64(),
              r.u64() == UInt64(header.parts), r.u64() == UInt64(header.parts) else { return nil }
        var log = WordTableLog(header: WordTableFile.Header(format: header.format, version: header.version, output: header.output,
                                                           fingerprint: base, parts: header.parts), baseBytes: baseBytes)
        while !r.atEnd {
            guard let end = r.u64() else { return nil }
            var parts: [Part] = []
            for _ in 0..<header.parts {
                guard let firstNew = r.u64().flatMap(Int.init(exactly:)), let newCount = r.count() else { return nil }
                var words: [(bytes: [UInt8], hash: UInt64)] = []
                for _ in 0..<newCount {
                    guard let n = r.count(), r.offset + n <= body.count else { return nil }
                    let word = Array(body[r.offset..<r.offset + n])
                    r.offset += n
                    guard let hash = r.u64() else { return nil }
                    words.append((word, hash))
                }
                guard let setCount = r.count() else { return nil }
                var sets: [(document: Int32, word: Int, flags: UInt64)] = []
                sets.reserveCapacity(setCount)
                for _ in 0..<setCount {
                    guard let d = r.u64().flatMap(Int32.init(exactly:)), d >= 0, let w = r.u64().flatMap(Int.init(exactly:)), let f = r.u64() else { return nil }
                    sets.append((d, w, f))
                }
                parts.append(Part(firstNew: firstNew, words: words, sets: sets))
            }
            log.batches.append(Batch(end: end, parts: parts))
            log.end = end
        }
        log.bytes = body
        return log
    }

    /// Replays every batch into the base tables, as read; false when one does not fit them.
    func replay(into tables: inout [(words: WordSet, stored: StoredPostings)]) -> Bool {
        for batch in batches {
            guard batch.parts.count == tables.count else { return false }
            for (p, part) in batch.parts.enumerated() {
                guard part.firstNew == tables[p].words.count else { return false }
                for (k, word) in part.words.enumerated() {
                    let id = word.bytes.withUnsafeBufferPointer { tables[p].words.insert($0, hash: word.hash) }
                    guard id == part.firstNew + k else { return false }
                }
                for s in part.sets {
                    guard s.word < tables[p].words.count else { return false }
                    tables[p].stored.set(document: s.document, flags: s.flags, in: s.word)
                }
            }
        }
        return true
    }

    /// Adds what `apply` did to each table (`WordTable.applied`) as a batch that leaves the
    /// documents of `fingerprint`; false, and the log unchanged, when a table was not edited
    /// that way or the log would pass its limit.
    mutating func append(_ tables: [WordTable], fingerprint: UInt64) -> Bool {
        var w = BinaryWriter()
        w.u64(fingerprint)
        for t in tables {
            guard let edit = t.applied else { return false }
            w.u64(UInt64(edit.firstNew))
            w.u64(UInt64(t.count - edit.firstNew))
            for id in edit.firstNew..<t.count {
                let range = t.words.range(of: id)
                w.u64(UInt64(range.count))
                w.bytes += t.words.bytes[range]
                w.u64(t.words.hashes[id])
            }
            w.u64(UInt64(edit.sets.count))
            for s in edit.sets { w.u64(UInt64(s.document)); w.u64(UInt64(s.word)); w.u64(s.flags) }
            guard bytes.count + w.bytes.count <= limit else { return false }
        }
        bytes += w.bytes
        end = fingerprint
        return true
    }

    /// Writes the log, its hash last.
    func write(to path: String) throws {
        var hasher = WideHasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        var w = BinaryWriter()
        w.u64(hasher.finalize())
        try FileSystem.write(bytes + w.bytes, to: path)
    }
}
