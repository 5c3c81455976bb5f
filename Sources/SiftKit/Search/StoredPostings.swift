/// A word table's postings as the last build left them (`WordTableFile`), with this build's
/// edits on top: what lets an incremental `sift build` take the documents it did not change
/// without merging their words again, and lay out only the shards its edits touch.
///
/// An entry is a document with `WordTable.oftenBit` and `leadBit`: the low half of a pair.
struct StoredPostings {
    /// Where each word's entries start in `entries`; one more than there are words.
    var starts: [UInt32]
    /// Per word its entries, by document ascending.
    var entries: [UInt32]
    /// Per word the characters its encoded postings take, and its primary entry's suffix.
    var encoded: [Int32]
    var suffix: [Int32]
    /// Per word its primary bucket and its other buckets (`WordList.buckets(ofWord:)`).
    var bucket: [Int32]
    var secondary: [[Int32]]
    /// The entries of the words this build's edits changed, and of words new in this build.
    var changed: [Int32: [UInt32]] = [:]

    /// How many words the last build stored.
    var storedCount: Int { encoded.count }

    /// A word's entries.
    func entries(of w: Int) -> [UInt32] {
        if let c = changed[Int32(w)] { return c }
        guard w < storedCount else { return [] }
        return Array(entries[Int(starts[w])..<Int(starts[w + 1])])
    }

    /// Words' entries one after the other, as `WordTableFile` stores them: a run of unchanged
    /// words whose entries lie back to back here (most of them, in a table stored in word
    /// order) is copied at once instead of word by word.
    struct Copy {
        private let postings: StoredPostings
        private let isChanged: [Bool]
        private var pending: Range<Int> = 0..<0
        private var entries: [UInt32] = []
        /// How many entries there are once the pending run is copied.
        var count: Int { entries.count + pending.count }

        init(_ postings: StoredPostings) {
            self.postings = postings
            var isChanged = [Bool](repeating: false, count: Int(postings.changed.keys.max() ?? -1) + 1)
            for w in postings.changed.keys { isChanged[Int(w)] = true }
            self.isChanged = isChanged
            entries.reserveCapacity(postings.entries.count + postings.changed.values.reduce(0) { $0 + $1.count })
        }

        /// Adds word `w`'s entries.
        mutating func add(_ w: Int) {
            if w < isChanged.count && isChanged[w] {
                flush()
                entries += postings.changed[Int32(w)]!
            } else if w < postings.storedCount {
                let r = Int(postings.starts[w])..<Int(postings.starts[w + 1])
                if r.lowerBound != pending.upperBound { flush(); pending = r.lowerBound..<r.lowerBound }
                pending = pending.lowerBound..<r.upperBound
            }
        }

        /// Every entry added.
        mutating func finish() -> [UInt32] {
            flush()
            return entries
        }

        private mutating func flush() {
            if !pending.isEmpty { entries += postings.entries[pending] }
            pending = pending.upperBound..<pending.upperBound
        }
    }

    /// A word's documents, those holding it often, and those holding it in their lead.
    func documents(of w: Int) -> (all: [Int32], often: [Int32], lead: [Int32]) {
        Self.split(entries(of: w))
    }

    /// Entries as the three lists of documents postings are encoded from.
    static func split(_ entries: [UInt32]) -> (all: [Int32], often: [Int32], lead: [Int32]) {
        var all: [Int32] = [], often: [Int32] = [], lead: [Int32] = []
        all.reserveCapacity(entries.count)
        for e in entries {
            let d = WordTable.document(UInt64(e))
            all.append(d)
            if UInt64(e) & WordTable.oftenBit != 0 { often.append(d) }
            if UInt64(e) & WordTable.leadBit != 0 { lead.append(d) }
        }
        return (all, often, lead)
    }

    /// Entries from the three lists (`often` and `lead` within `all`, each ascending).
    static func entries(all: [Int32], often: [Int32], lead: [Int32]) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: all.count)
        var o = 0, l = 0
        for (k, d) in all.enumerated() {
            var e = UInt64(UInt32(d))
            if o < often.count && often[o] == d { e |= WordTable.oftenBit; o += 1 }
            if l < lead.count && lead[l] == d { e |= WordTable.leadBit; l += 1 }
            out[k] = UInt32(e)
        }
        return out
    }

    /// Sets a document's entry in a word's postings: `flags` (`oftenBit`, `leadBit` and
    /// `presentBit` when it holds the word), or removes it when it no longer does.
    mutating func set(document: Int32, flags: UInt64, in w: Int) {
        var list = entries(of: w)
        let d = UInt32(document)
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if UInt32(WordTable.document(UInt64(list[mid]))) < d { lo = mid + 1 } else { hi = mid }
        }
        let here = lo < list.count && UInt32(WordTable.document(UInt64(list[lo]))) == d
        let entry = UInt32(UInt64(d) | (flags & (WordTable.oftenBit | WordTable.leadBit)))
        if flags & Self.presentBit == 0 {
            if here { list.remove(at: lo) }
        } else if here {
            list[lo] = entry
        } else {
            list.insert(entry, at: lo)
        }
        changed[Int32(w)] = list
    }

    /// Marks, in `set(document:flags:in:)`, a document that holds the word.
    static let presentBit: UInt64 = 1 << 32
}
