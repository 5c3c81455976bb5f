/// The words of one partition with their postings (add order), touched by one thread at a time.
final class WordTable: @unchecked Sendable {
    var words = WordSet(slotCount: 1 << 12)
    /// (word id << 32 | often << 31 | lead << 30 | document) for every word of every document, in
    /// add order; often: the document holds the word `Score.oftenCount` times or more; lead: in
    /// its body's lead (`CountedWords.leads`).
    var pairs: [UInt64] = []
    /// A live table keeps its pairs after a render, and per word what the render computed.
    var keepsPairs = false
    /// Per word: encoded postings ("" once it has none), primary bucket, secondary buckets, and
    /// the suffix of its primary entry (`WordList.suffix`: often and lead postings).
    var memo: (encoded: [[UInt8]], bucket: [Int32], secondary: [[Int32]], often: [[UInt8]])?

    static let oftenBit: UInt64 = 1 << 31
    static let leadBit: UInt64 = 1 << 30

    /// A word's often and lead bits in a document, from its count there (`SearchDigest.wordCounts`).
    @inline(__always)
    static func bits(count: UInt8) -> UInt64 {
        (Int(count & 0x7F) >= Score.oftenCount ? oftenBit : 0) | (count & CountedWords.lead != 0 ? leadBit : 0)
    }

    /// The document of a pair.
    @inline(__always)
    static func document(_ pair: UInt64) -> Int32 { Int32(truncatingIfNeeded: pair & (leadBit - 1)) }
    /// Words whose postings changed since the last render.
    var dirty: Set<Int32> = []
    /// The last build's postings of this table, read from .sift-cache, in place of `pairs`.
    var stored: StoredPostings?

    var count: Int { words.count }

    func word(_ id: Int) -> ArraySlice<UInt8> { words.bytes[words.range(of: id)] }

    /// Adds the words of `batch` whose hash falls in `part`; document numbers start at `first`.
    /// `expected`: how many documents the index will hold in all, when known (0: unknown).
    func merge(_ batch: [SearchDigest], first: Int32, part: UInt64, parts: UInt64, expected: Int = 0) {
        // Locals, moved out of the object, skip exclusivity checks and copy-on-write tests.
        var words = WordSet(), pairs: [UInt64] = []
        swap(&words, &self.words); swap(&pairs, &self.pairs)
        defer { swap(&words, &self.words); swap(&pairs, &self.pairs) }
        let needed = pairs.count + batch.reduce(0) { $0 + $1.wordEnds.count } / Int(parts) + 1024
        if pairs.capacity < needed { pairs.reserveCapacity(Self.capacity(needed: needed, had: pairs.capacity, documents: Int(first) + batch.count, expected: expected)) }
        for (k, d) in batch.enumerated() {
            let doc = UInt64(UInt32(first + Int32(k)))
            d.wordBytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for (w, end) in d.wordEnds.enumerated() {
                    let h = d.wordHashes[w]
                    defer { start = Int(end) }
                    guard h % parts == part else { continue }
                    let id = words.insert(UnsafeBufferPointer(rebasing: bytes[start..<Int(end)]), hash: h)
                    pairs.append(UInt64(id) << 32 | Self.bits(count: w < d.wordCounts.count ? d.wordCounts[w] : 0) | doc)
                }
            }
        }
    }

    /// The pairs to make room for: with the number of documents to come, as many as they make at
    /// the rate so far and a tenth more (doubling left up to half the room unused, in the largest
    /// arrays of a build); never less than a quarter more than there was, nor than `needed`, so a
    /// growing table is not copied at every batch (reserving exactly was quadratic in the site's size).
    static func capacity(needed: Int, had: Int, documents: Int, expected: Int) -> Int {
        let projected = expected > documents ? (needed + needed / 10) * expected / max(1, documents) : had * 2
        return max(needed, had + had / 4, projected)
    }

    /// Replaces a document's words: its pairs go, its new words' pairs come (at the end, so
    /// the postings of the words touched are sorted again when rendered).
    func replace(document: Int32, with digest: SearchDigest, part: UInt64, parts: UInt64) {
        var kept = 0
        var removed: [UInt64] = []
        pairs.withUnsafeMutableBufferPointer { all in
            for k in all.indices {
                let p = all[k]
                if Self.document(p) == document {
                    removed.append(p >> 30)
                } else {
                    all[kept] = p
                    kept += 1
                }
            }
        }
        pairs.removeLast(pairs.count - kept)
        merge([digest], first: document, part: part, parts: parts)
        // Words the document kept, as often as before and in its lead or not as before, keep
        // their postings; only those it lost, gained or now holds otherwise change.
        let before = Set(removed)
        let after = Set(pairs[kept...].map { $0 >> 30 })
        dirty.formUnion(before.symmetricDifference(after).map { Int32($0 >> 2) })
    }

    /// Every word's documents, ascending: a counting sort of `pairs` by word; those holding it
    /// often, and those holding it in their lead.
    func postings() -> (all: [[Int32]], often: [[Int32]], lead: [[Int32]]) {
        var counts = [Int](repeating: 0, count: count)
        for p in pairs { counts[Int(p >> 32)] += 1 }
        var out = counts.map { n -> [Int32] in var a = [Int32](); a.reserveCapacity(n); return a }
        var often = [[Int32]](repeating: [], count: count), lead = often
        for p in pairs {
            out[Int(p >> 32)].append(Self.document(p))
            if p & Self.oftenBit != 0 { often[Int(p >> 32)].append(Self.document(p)) }
            if p & Self.leadBit != 0 { lead[Int(p >> 32)].append(Self.document(p)) }
        }
        return (out, often, lead)
    }

    /// The postings of some words, ascending, and of the documents holding each often, and in their lead.
    func postings(of words: Set<Int32>) -> [Int32: (all: [Int32], often: [Int32], lead: [Int32])] {
        var slot = [Int32](repeating: -1, count: count)
        var lists: [[Int32]] = [], often: [[Int32]] = [], lead: [[Int32]] = []
        for w in words { slot[Int(w)] = Int32(lists.count); lists.append([]); often.append([]); lead.append([]) }
        pairs.withUnsafeBufferPointer { all in
            slot.withUnsafeBufferPointer { slot in
                for p in all {
                    let s = slot[Int(p >> 32)]
                    guard s >= 0 else { continue }
                    lists[Int(s)].append(Self.document(p))
                    if p & Self.oftenBit != 0 { often[Int(s)].append(Self.document(p)) }
                    if p & Self.leadBit != 0 { lead[Int(s)].append(Self.document(p)) }
                }
            }
        }
        var out: [Int32: (all: [Int32], often: [Int32], lead: [Int32])] = [:]
        for w in words {
            let s = Int(slot[Int(w)])
            out[w] = (lists[s].sorted(), often[s].sorted(), lead[s].sorted())
        }
        return out
    }

    /// Brings a stored table to this build's documents: each changed document leaves the words
    /// it held and enters those it holds (its number kept).
    func apply(_ changes: [DocumentChange], part: UInt64, parts: UInt64) {
        guard var s = stored else { return }
        stored = nil
        var edit = StoredEdit(firstNew: count)
        for c in changes {
            let before = flags(c.before, part: part, parts: parts), after = flags(c.after, part: part, parts: parts)
            for w in before.keys where after[w] == nil { edit.set(document: c.document, flags: 0, in: w, &s) }
            for (w, f) in after where before[w] != f { edit.set(document: c.document, flags: f, in: w, &s) }
        }
        stored = s
        applied = edit
    }

    /// What `apply` did to a stored table, for the word table log (`WordTableLog`): the words
    /// it added (ids from `firstNew` on) and every entry it set, in order.
    struct StoredEdit {
        var firstNew: Int
        var sets: [(document: Int32, word: Int32, flags: UInt64)] = []

        mutating func set(document: Int32, flags: UInt64, in w: Int, _ s: inout StoredPostings) {
            s.set(document: document, flags: flags, in: w)
            sets.append((document, Int32(w), flags))
        }
    }

    /// This build's edit of the stored table, once `apply` has run.
    var applied: StoredEdit?

    /// A digest's words of this partition by id (added when new), each with its often and lead
    /// bits and `StoredPostings.presentBit`.
    private func flags(_ d: SearchDigest, part: UInt64, parts: UInt64) -> [Int: UInt64] {
        var out: [Int: UInt64] = [:]
        d.wordBytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for (w, end) in d.wordEnds.enumerated() {
                defer { start = Int(end) }
                let h = d.wordHashes[w]
                guard h % parts == part else { continue }
                let id = words.insert(UnsafeBufferPointer(rebasing: bytes[start..<Int(end)]), hash: h)
                out[id] = Self.bits(count: w < d.wordCounts.count ? d.wordCounts[w] : 0) | StoredPostings.presentBit
            }
        }
        return out
    }

    /// Empties a table of what the last build stored, for its documents to be merged afresh.
    func reset() {
        words = WordSet(slotCount: 1 << 12)
        stored = nil
        applied = nil
        pairs = []
    }

    /// Turns a stored table back into pairs, for a render that numbers documents otherwise.
    func unstore() {
        guard let s = stored else { return }
        stored = nil
        applied = nil
        pairs = []
        for w in 0..<count {
            for e in s.entries(of: w) { pairs.append(UInt64(w) << 32 | UInt64(e)) }
        }
    }
}
