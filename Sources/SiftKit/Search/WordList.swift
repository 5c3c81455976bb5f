/// A word by its table and its id there.
struct WordRef {
    var table: Int32
    var id: Int32
}

/// Every word of every partition, numbered, with its postings and the buckets it is filed under
/// (docs/search-index.md, "Words and postings").
///
/// A table that is not live keeps each word's documents and encodes them only when a shard
/// holding the word is laid out (`encoded`, `suffix`): an incremental build lays out a few
/// shards and keeps the others, and only the lengths of the rest are needed, to cut the shards.
struct WordList {
    /// Per word: its table and id in that table.
    private var table: [Int32] = []
    private var id: [Int32] = []
    /// Per word its encoded postings, and what its primary entry holds after them (`suffix`);
    /// empty where computed when asked, from `ids`, `oftenIDs` and `leadIDs`.
    private var encodedStore: [[UInt8]] = []
    private var suffixStore: [[UInt8]] = []
    /// The length of each word's encoded postings, and of what its primary entry holds after them.
    private var encodedLength: [Int32] = []
    private var suffixLength: [Int32] = []
    /// Per table, whether its words' documents are read from what the last build stored (`WordTable.stored`).
    private var fromStore: [Bool] = []
    /// Where each table's words start in this list, then where the last ends.
    private var tableStarts: [Int] = []
    /// The documents of each word holding it often and in their lead, for words encoded when asked.
    private var oftenIDs: [[Int32]] = []
    private var leadIDs: [[Int32]] = []
    private(set) var bucket: [Int32] = []
    /// Buckets of the trigrams at code point offsets 1 … length−3, other than `bucket`.
    private(set) var secondary: [[Int32]] = []
    /// The documents of each word: of every word encoded when asked, else of those whose
    /// postings go by reference (`@`) elsewhere when this render computed them (else empty:
    /// decoded when a union needs them).
    private(set) var ids: [[Int32]] = []
    private let tables: [WordTable]
    private(set) var entryBytes = 0
    private(set) var estimatedBytes = 0
    /// Buckets of the words whose postings changed since a live table's last render (gone
    /// words included); nil when every word was computed afresh.
    private(set) var touchedBuckets: Set<Int32>?
    private var bucketBytes = [Int](repeating: 0, count: IndexFormat.buckets)

    var count: Int { table.count }

    /// The ranked layout's (docs/search-index.md, "Version 6"): each document's cell, by its
    /// number, and how many cells there are; every postings of an entry or union are then
    /// followed by `;` and their documents' cells, a code each. Nil in version 5.
    var cells: (of: [Int32], count: Int)?

    /// Counts the bytes of entries that are not words' (the ranked layout's field entries), which
    /// decide, with the words', whether the index is sharded.
    mutating func addEntryBytes(_ bytes: Int) {
        entryBytes += bytes
    }

    /// `;` and the cells of `ids` as codes, in the ranked layout; nothing in version 5.
    func cellCodes(_ ids: [Int32]) -> [UInt8] {
        guard let cells else { return [] }
        return [UInt8(ascii: ";")] + Array(IndexFormat.codes(ids.map { Int(cells.of[Int($0)]) }, limit: cells.count).utf8)
    }

    /// Every document of a word, decoded from its postings when this render did not keep them.
    func allDocuments(_ g: Int) -> [Int32] {
        let all = documents(g).all
        return all.isEmpty ? IndexFormat.decodePostings(String(decoding: encoded(g), as: UTF8.self)) : all
    }

    /// Every document of a word, those holding it often and those holding it in their lead,
    /// whatever its table kept (a live builder's keeps neither the short postings nor often and
    /// lead): from its entry where not kept.
    func allPostings(_ g: Int) -> (all: [Int32], often: [Int32], lead: [Int32]) {
        let rest = suffix(g).split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).dropFirst()
        let decoded = rest.map { IndexFormat.decodePostings(String(decoding: $0, as: UTF8.self)) }
        return (allDocuments(g), decoded.first ?? [], decoded.dropFirst().first ?? [])
    }

    /// One table's words as this render computed them.
    private struct Part {
        var encoded: [[UInt8]] = []
        var often: [[UInt8]] = []
        var bucket: [Int32] = []
        var secondary: [[Int32]] = []
        var ids: [Int: [Int32]] = [:]
        var touched: Set<Int32>?
        /// For a table encoded when asked: each word's encoded length, suffix length and documents
        /// (none for a stored table, whose documents are read from it when asked).
        var lazy: (encoded: [Int32], suffix: [Int32], all: [[Int32]], often: [[Int32]], lead: [[Int32]])?
        var stored = false
    }

    /// Numbers the words of every table, each table on a core of its own; `renumber` maps the
    /// documents' add order to their numbers in the index when the two differ.
    init(tables: [WordTable], renumber: [Int32]?) {
        self.tables = tables
        let parts = ParallelMap.map(Array(tables.indices)) { p -> Part in
            let t = tables[p]
            let part = t.stored != nil ? Self.fromStore(t) : renumber == nil && t.memo != nil ? Self.update(t)
                : t.keepsPairs ? Self.encode(t, renumber: renumber) : Self.lengths(t, renumber: renumber)
            if t.keepsPairs && renumber == nil {
                t.memo = (part.encoded, part.bucket, part.secondary, part.often)
            } else {
                // A live table renumbered keeps its pairs, which `SearchIndexBuilder.update` edits
                // (the ranked layout's index order); only its encodings, in other numbers, go.
                if !t.keepsPairs { t.pairs = [] }
                t.memo = nil
            }
            t.dirty = []
            return part
        }
        if parts.allSatisfy({ $0.touched != nil }) {
            touchedBuckets = parts.reduce(into: Set<Int32>()) { $0.formUnion($1.touched!) }
        }
        fromStore = parts.map(\.stored)
        for (p, part) in parts.enumerated() {
            tableStarts.append(table.count)
            for w in 0..<part.bucket.count {
                let length = part.lazy.map { Int($0.encoded[w]) } ?? part.encoded[w].count
                guard length > 0 else { continue }
                table.append(Int32(p)); id.append(Int32(w))
                let wordLength = tables[p].word(w).count
                let suffix = part.lazy.map { Int($0.suffix[w]) } ?? part.often[w].count
                suffixLength.append(Int32(suffix))
                let entry = wordLength + length + suffix + 6
                entryBytes += entry
                bucketBytes[Int(part.bucket[w])] += entry
                let reference = wordLength + (length <= 8 ? length : 1) + 6
                for b in part.secondary[w] { bucketBytes[Int(b)] += reference }
                encodedLength.append(Int32(length))
                if let lazy = part.lazy {
                    encodedStore.append([]); suffixStore.append([])
                    if part.stored {
                        // Read from the table when asked (`documents`).
                        ids.append([]); oftenIDs.append([]); leadIDs.append([])
                    } else {
                        ids.append(lazy.all[w]); oftenIDs.append(lazy.often[w]); leadIDs.append(lazy.lead[w])
                    }
                } else {
                    encodedStore.append(part.encoded[w]); suffixStore.append(part.often[w])
                    ids.append(part.ids[w] ?? []); oftenIDs.append([]); leadIDs.append([])
                }
                bucket.append(part.bucket[w])
                secondary.append(part.secondary[w])
            }
        }
        tableStarts.append(table.count)
        estimatedBytes = bucketBytes.reduce(0, +)
    }

    /// The words of table `p`: those numbered in this range, in the order of their ids there.
    func range(ofTable p: Int) -> Range<Int> { tableStarts[p]..<tableStarts[p + 1] }

    /// A word's encoded postings (docs/search-index.md, "Words and postings").
    func encoded(_ g: Int) -> [UInt8] {
        encodedStore[g].isEmpty && encodedLength[g] > 0 ? Array(IndexFormat.encodePostings(documents(g).all).utf8) : encodedStore[g]
    }

    /// What a word's primary entry holds after its postings (`suffix(often:lead:)`).
    func suffix(_ g: Int) -> [UInt8] {
        guard suffixStore[g].isEmpty && suffixLength[g] > 0 else { return suffixStore[g] }
        let d = documents(g)
        return Self.suffix(often: d.often, lead: d.lead)
    }

    /// A word's documents, those holding it often and those holding it in their lead, of a
    /// table encoded when asked.
    func documents(_ g: Int) -> (all: [Int32], often: [Int32], lead: [Int32]) {
        fromStore[Int(table[g])] ? tables[Int(table[g])].stored!.documents(of: Int(id[g])) : (ids[g], oftenIDs[g], leadIDs[g])
    }

    /// What a word's entry adds after its postings, in characters.
    func suffixCount(_ g: Int) -> Int { Int(suffixLength[g]) }

    /// How many characters a word's encoded postings take.
    func encodedCount(_ g: Int) -> Int { Int(encodedLength[g]) }

    /// Every word of a table that is not kept: its documents, and the lengths its postings and
    /// suffix will take once encoded, which is all cutting the shards needs.
    private static func lengths(_ t: WordTable, renumber: [Int32]?) -> Part {
        var part = Part()
        var (all, often, lead) = t.postings()
        t.pairs = []
        var encoded = [Int32](repeating: 0, count: t.count), suffix = encoded
        part.bucket.reserveCapacity(t.count)
        part.secondary.reserveCapacity(t.count)
        for w in 0..<t.count {
            if let renumber {
                renumbered(&all[w], renumber)
                renumbered(&often[w], renumber)
                renumbered(&lead[w], renumber)
            }
            encoded[w] = Int32(IndexFormat.encodedLength(all[w]))
            suffix[w] = suffixLength(often: often[w], lead: lead[w])
            let (b, sec) = buckets(t, w)
            part.bucket.append(b)
            part.secondary.append(sec)
        }
        part.lazy = (encoded, suffix, all, often, lead)
        return part
    }

    /// `ids` numbered by `renumber` and sorted, through a pointer: written as `all[w][k]`, each
    /// element's write checked both arrays unshared.
    private static func renumbered(_ ids: inout [Int32], _ renumber: [Int32]) {
        ids.withUnsafeMutableBufferPointer { ids in
            for k in ids.indices { ids[k] = renumber[Int(ids[k])] }
            ids.sort()
        }
    }

    /// The characters `suffix(often:lead:)` takes.
    private static func suffixLength(often: [Int32], lead: [Int32]) -> Int32 {
        guard !often.isEmpty || !lead.isEmpty else { return 0 }
        return Int32(1 + IndexFormat.encodedLength(often) + (lead.isEmpty ? 0 : 1 + IndexFormat.encodedLength(lead)))
    }

    /// A table the last build stored: lengths and buckets as it stored them, computed again only
    /// for the words this build's edits changed and those it added.
    private static func fromStore(_ t: WordTable) -> Part {
        let s = t.stored!
        var part = Part(bucket: s.bucket, secondary: s.secondary)
        var encoded = s.encoded, suffix = s.suffix
        for w in s.storedCount..<t.count {
            let (b, sec) = buckets(t, w)
            part.bucket.append(b); part.secondary.append(sec)
            encoded.append(0); suffix.append(0)
        }
        for (w, entries) in s.changed {
            let (all, often, lead) = StoredPostings.split(entries)
            encoded[Int(w)] = Int32(IndexFormat.encodedLength(all))
            suffix[Int(w)] = suffixLength(often: often, lead: lead)
        }
        part.lazy = (encoded, suffix, [], [], [])
        part.stored = true
        return part
    }

    /// Every word of a table computed afresh.
    private static func encode(_ t: WordTable, renumber: [Int32]?) -> Part {
        var part = Part()
        part.encoded.reserveCapacity(t.count)
        let postings = t.postings()
        // What a table that is not kept needs from here on is in `postings`; a live one keeps its
        // pairs, in add order, for the next render's `update`, renumbered or not.
        if !t.keepsPairs { t.pairs = [] }
        for w in 0..<t.count {
            var ids = postings.all[w], often = postings.often[w], lead = postings.lead[w]
            if let renumber {
                for k in ids.indices { ids[k] = renumber[Int(ids[k])] }
                for k in often.indices { often[k] = renumber[Int(often[k])] }
                for k in lead.indices { lead[k] = renumber[Int(lead[k])] }
                ids.sort()
                often.sort()
                lead.sort()
            }
            part.encoded.append(Array(IndexFormat.encodePostings(ids).utf8))
            part.often.append(Self.suffix(often: often, lead: lead))
            if part.encoded[w].count > 8 { part.ids[w] = ids }
            let (b, sec) = buckets(t, w)
            part.bucket.append(b)
            part.secondary.append(sec)
        }
        return part
    }

    /// A live table: only the words touched since the last render, and new ones, are computed.
    private static func update(_ t: WordTable) -> Part {
        let memo = t.memo!
        var part = Part(encoded: memo.encoded, often: memo.often, bucket: memo.bucket, secondary: memo.secondary)
        var touched = t.dirty
        for w in part.encoded.count..<t.count { touched.insert(Int32(w)) }
        let postings = t.postings(of: touched)
        for w in part.encoded.count..<t.count {
            let (b, sec) = buckets(t, w)
            part.encoded.append([]); part.often.append([]); part.bucket.append(b); part.secondary.append(sec)
        }
        var buckets: Set<Int32> = []
        for (w, lists) in postings {
            part.encoded[Int(w)] = lists.all.isEmpty ? [] : Array(IndexFormat.encodePostings(lists.all).utf8)
            part.often[Int(w)] = Self.suffix(often: lists.often, lead: lists.lead)
            buckets.insert(part.bucket[Int(w)])
            buckets.formUnion(part.secondary[Int(w)])
        }
        part.touched = buckets
        return part
    }

    /// `:` and the postings of the documents holding a word often, then `:` and those holding it
    /// in their lead; the empty end left off.
    private static func suffix(often: [Int32], lead: [Int32]) -> [UInt8] {
        let lead = lead.isEmpty ? "" : ":" + IndexFormat.encodePostings(lead)
        return often.isEmpty && lead.isEmpty ? [] : Array((":" + IndexFormat.encodePostings(often) + lead).utf8)
    }

    /// A word's primary bucket (of its key) and the other buckets of its trigrams at code
    /// point offsets 1 … length−3.
    private static func buckets(_ t: WordTable, _ w: Int) -> (Int32, [Int32]) {
        t.words.bytes.withUnsafeBufferPointer { all in buckets(ofWord: UnsafeBufferPointer(rebasing: all[t.words.range(of: w)])) }
    }

    /// The primary bucket of a word's UTF-8 (of its key) and the other buckets of its trigrams
    /// at code point offsets 1 … length−3; `ranked`: in the ranked layout's buckets
    /// (`IndexFormat.rankedBucket`) instead of version 5's.
    static func buckets<C: Collection>(ofWord word: C, ranked: Bool = false) -> (Int32, [Int32]) where C.Element == UInt8, C.Index == Int {
        var starts: [Int] = []
        codePointStarts(word, into: &starts)
        let bucket = { (key: C.SubSequence) in Int32(ranked ? IndexFormat.rankedBucket(ofKeyBytes: key) : IndexFormat.bucket(ofKeyBytes: key)) }
        let primary = bucket(word[starts[0]..<starts[min(3, starts.count - 1)]])
        var sec: [Int32] = []
        if starts.count - 1 >= 4 {
            for i in 1...(starts.count - 4) {
                let b = bucket(word[starts[i]..<starts[i + 3]])
                if b != primary && !sec.contains(b) { sec.append(b) }
            }
        }
        return (primary, sec)
    }

    /// The indices where the code points of a UTF-8 word start, then its end index.
    static func codePointStarts<C: Collection>(_ word: C, into starts: inout [Int]) where C.Element == UInt8, C.Index == Int {
        starts.removeAll(keepingCapacity: true)
        for i in word.indices where word[i] & 0xC0 != 0x80 { starts.append(i) }
        starts.append(word.endIndex)
    }

    /// Which table and id a word has.
    func ref(_ g: Int) -> WordRef { WordRef(table: table[g], id: id[g]) }

    func word(_ g: Int) -> ArraySlice<UInt8> { tables[Int(table[g])].word(Int(id[g])) }

    /// Byte order of the words' UTF-8, which is code point order.
    func less(_ a: Int, _ b: Int) -> Bool {
        word(a).lexicographicallyPrecedes(word(b))
    }

    /// `words` in byte order (`less`), compared by their first 8 bytes as one integer and only
    /// on a tie byte by byte: a site of millions of words (CJK pairs) spent most of its sort in `less`.
    func inByteOrder(_ words: [Int]) -> [Int] {
        let heads = words.map { g in
            var head: UInt64 = 0, shift: UInt64 = 56
            for byte in word(g).prefix(8) { head |= UInt64(byte) << shift; shift &-= 8 }
            return head
        }
        return Array(0..<words.count).sorted { a, b in
            heads[a] != heads[b] ? heads[a] < heads[b] : less(words[a], words[b])
        }.map { words[$0] }
    }

    /// Contiguous runs of buckets of about `target` bytes each: the first bucket of every
    /// shard but the first. A shard starts at bucket b when b comes first in a fixed pseudo-random
    /// order (`landmark`) among the buckets starting within `target / 2` bytes of it, so bounds
    /// are at least that far apart and `target` on average, and whether b starts one depends only
    /// on the buckets near it: an edit moves no bound away from the buckets it changed, and the
    /// shards between keep their bytes and names (docs/search-index.md, "Sharding"). A shard that
    /// would pass 1.5 × `target` ends there instead, so no first query pays for a heavy shard.
    func packBuckets(target: Int) -> [Int] { Self.pack(bucketBytes, target: target) }

    /// `packBuckets` over any number of buckets, given the bytes of each.
    static func pack(_ bucketBytes: [Int], target: Int) -> [Int] {
        let buckets = bucketBytes.count
        let reach = max(1, target / 2)
        var starts = [Int](repeating: 0, count: buckets + 1) // bytes before bucket b
        for b in 0..<buckets { starts[b + 1] = starts[b] + bucketBytes[b] }
        let total = starts[buckets]
        var bounds: [Int] = []
        var low = 0 // the first bucket within reach of b
        for b in 1..<max(1, buckets) where starts[b] >= reach && total - starts[b] >= reach {
            while starts[low] < starts[b] - reach { low += 1 }
            var first = true
            var c = low
            while first && c < buckets && starts[c] <= starts[b] + reach {
                if c != b && landmark(c) < landmark(b) { first = false }
                c += 1
            }
            if first || starts[b] - starts[bounds.last ?? 0] + bucketBytes[b] > target * 3 / 2 { bounds.append(b) }
        }
        return bounds
    }

    /// A fixed pseudo-random order of the buckets, the same in every build.
    private static func landmark(_ b: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: b) &* 0x9E37_79B1
        h ^= h >> 15
        h = h &* 0x85EB_CA77
        return h ^ (h >> 13)
    }

    /// `{"word":"postings",…}` for the given words, each with its postings (primary) or as a
    /// secondary entry (postings when they take at most 8 characters, else `@`), after the
    /// union markers (`" gram":""`).
    ///
    /// In the ranked layout (`cells`), a primary entry past `IndexFormat.heavyEntry` bytes goes to
    /// `outside` as a file of its own (its value as a JSON string) and the entry is `=` and its hash.
    /// `whole: true` writes every secondary entry as its primary one (a split key's parts, which
    /// have no unions: a term of the key and more code points reads the parts its code points lead
    /// to, and an `@` there sent it to the primary entries of dozens of other keys), in a file of
    /// its own past `IndexFormat.partEntry` bytes.
    func writeObject(_ list: [(Int, Bool)], markers: [[UInt8]] = [], into out: inout [UInt8], outside: inout [(String, [UInt8])], whole: Bool = false) {
        out.append(UInt8(ascii: "{"))
        for (k, gram) in markers.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string([0x20] + gram, into: &out)
            out += Array(":\"\"".utf8)
        }
        for (k, (g, primary)) in list.enumerated() {
            if k > 0 || !markers.isEmpty { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(word(g), into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(UInt8(ascii: "\""))
            if primary || whole || encodedLength[g] <= 8 {
                var value = encoded(g)
                if primary || whole { value += suffix(g) }
                if cells != nil { value += cellCodes(allDocuments(g)) }
                if cells != nil, primary ? value.count > IndexFormat.heavyEntry : whole && value.count > IndexFormat.partEntry {
                    value = Array(IndexFileNames.outside(quoting: value, kind: IndexFormat.postFileName, into: &outside).utf8)
                }
                out += value
            } else {
                out.append(UInt8(ascii: "@"))
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
    }
}
