/// Lays the words out into shard files, and writes each shard's union file
/// (docs/search-index.md, "Sharding" and "Unions").
struct ShardWriter {
    /// Above this many shards among its `@` words, a string's union is stored: fewer requests
    /// for a common substring, for a larger index (the trade measured in docs/search-bar.md).
    static let unionFanOut = 8

    /// A render's files: per shard its file, and its union file (empty when it has none); and the
    /// ranked layout's entries that are files of their own (`IndexFormat.heavyEntry`).
    struct Files {
        var shards: [(String, [UInt8])]
        var unions: [[UInt8]]
        var outside: [(String, [UInt8])] = []
    }

    /// The ranked layout's entry of a field word (docs/search-index.md, "Version 6"): the buckets
    /// it is filed under, as a body word's, and the records of the documents whose fields hold it.
    struct FieldEntry {
        var word: [UInt8]
        var bucket: Int32
        var secondary: [Int32]
        /// A JSON list of records, each `[document, cell, position, [fields…], slug, url]`.
        var records: [UInt8]
    }

    let words: WordList
    /// The first bucket of every shard but the first.
    let bounds: [Int]
    var unionFanOut = ShardWriter.unionFanOut
    /// The ranked layout's field entries, which each shard then holds beside its words; nil in version 5.
    var fields: [FieldEntry]? = nil
    /// The ranked layout's buckets of each word (`IndexFormat.rankedBucket`), which `bounds` and
    /// the field entries' buckets are then in; nil in version 5, whose words' buckets are the word list's.
    var ranked: (primary: [Int32], secondary: [[Int32]])? = nil

    private var shardCount: Int { bounds.count + 1 }

    /// How many buckets `bounds` cut.
    private var bucketCount: Int { ranked == nil ? IndexFormat.buckets : IndexFormat.rankedBuckets }

    /// A word's bucket, and the buckets of its other trigrams.
    private func buckets(of g: Int) -> (Int32, [Int32]) {
        ranked.map { ($0.primary[g], $0.secondary[g]) } ?? (words.bucket[g], words.secondary[g])
    }

    /// The bucket of a key given as UTF-8.
    private func bucket(ofKeyBytes key: ArraySlice<UInt8>) -> Int {
        ranked == nil ? IndexFormat.bucket(ofKeyBytes: key) : IndexFormat.rankedBucket(ofKeyBytes: key)
    }

    /// The ranked layout's parts of heavy keys (docs/search-index.md, "Version 6"): the buckets
    /// they take out of the shards, and each part's word and field entries, written after the
    /// shards as files of their own.
    struct Parts {
        var buckets: Set<Int32>
        var words: [[(Int, Bool)]]
        var fields: [[(Int, Bool)]]
    }

    /// Every word in the shard of its bucket, and as a secondary entry in the shards of its
    /// other trigrams. With `touching` and `previous` (the files of the last render, cut at the
    /// same bounds), only the shards of those buckets are written again. With `parts`, their
    /// buckets' entries are left to them, which follow the shards.
    func files(rank known: [Int]? = nil, touching: Set<Int32>? = nil, previous: Files? = nil, parts: Parts? = nil) -> Files {
        let shardCount = self.shardCount, count = shardCount + (parts?.words.count ?? 0)
        var shardOf = [Int32](repeating: 0, count: bucketCount)
        var next = 0
        for b in 0..<bucketCount {
            while next < bounds.count && bounds[next] <= b { next += 1 }
            shardOf[b] = Int32(next)
        }
        var redo = [Bool](repeating: true, count: count)
        if let touching, let previous, previous.shards.count == count, previous.unions.count == count { redo = laidOut(touching: touching) }
        // A global rank by bytes makes every shard's order a sort of integers; when most shards
        // are kept and no rank is known, the few laid out again are sorted by their bytes.
        var position: [Int32]?
        if known != nil || redo.allSatisfy({ $0 }) {
            var byRank = [Int32](repeating: 0, count: words.count)
            for (r, g) in (known ?? words.inByteOrder(Array(0..<words.count))).enumerated() { byRank[g] = Int32(r) }
            position = byRank
        }
        let lists = entries(shardOf: shardOf, leaving: parts?.buckets ?? [], for: redo) + (parts?.words ?? [])
        let fieldLists = fields.map { Self.fieldEntries($0, shardOf: shardOf, count: shardCount, leaving: parts?.buckets ?? []) + (parts?.fields ?? []) }
        let written = ParallelMap.map(Array(0..<count)) { s -> ((String, [UInt8]), [UInt8], [(String, [UInt8])]) in
            if s < redo.count, !redo[s], let previous { return (previous.shards[s], previous.unions[s], []) }
            let list = position.map { p in lists[s].sorted { p[$0.0] < p[$1.0] } } ?? lists[s].sorted { words.less($0.0, $1.0) }
            var outside: [(String, [UInt8])] = []
            // A part has no unions: a term of its key alone is looked for in every part.
            var (file, union) = shard(s, list, shardOf: shardOf, unions: s < shardCount, outside: &outside)
            if let fields, let fieldLists {
                // The ranked layout's shard: `{"words":{…},"fields":{…}}`.
                var bytes = Array("{\"words\":".utf8) + file.1.dropLast()
                bytes += Array(",\"fields\":".utf8)
                Self.writeFields(fields, fieldLists[s], into: &bytes, outside: &outside, whole: s >= shardCount)
                bytes += Array("}\n".utf8)
                file.1 = bytes
            }
            return (file, union, outside)
        }
        return Files(shards: written.map(\.0), unions: written.map(\.1), outside: written.flatMap(\.2))
    }

    /// Per shard, its field entries: (entry, true) where its bucket files it, (entry, false) where
    /// one of its other trigrams does; in the order of their words' bytes.
    static func fieldEntries(_ fields: [FieldEntry], shardOf: [Int32], count: Int, leaving parted: Set<Int32> = []) -> [[(Int, Bool)]] {
        var lists = [[(Int, Bool)]](repeating: [], count: count)
        for (i, f) in fields.enumerated() {
            // A primary entry in a part (-1) is in none of the shards.
            let primary = parted.contains(f.bucket) ? -1 : Int(shardOf[Int(f.bucket)])
            if primary >= 0 { lists[primary].append((i, true)) }
            var seen: [Int] = []
            for b in f.secondary where !parted.contains(b) {
                let s = Int(shardOf[Int(b)])
                if s != primary && !seen.contains(s) { seen.append(s); lists[s].append((i, false)) }
            }
        }
        return lists.map { $0.sorted { fields[$0.0].word.lexicographicallyPrecedes(fields[$1.0].word) } }
    }

    /// A JSON object of field entries: a word's records where it is filed, `"@"` where another
    /// trigram of it is (its records are in the shard of its first three code points), or with
    /// `whole` (a split key's part) its records there too, in a file past `IndexFormat.partEntry` bytes.
    /// Records past `IndexFormat.heavyEntry` bytes go to `outside`, a file of their own, and the entry is `"=HASH"`.
    static func writeFields(_ fields: [FieldEntry], _ list: [(Int, Bool)], into out: inout [UInt8], outside: inout [(String, [UInt8])], whole: Bool = false) {
        out.append(UInt8(ascii: "{"))
        for (k, (i, primary)) in list.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(fields[i].word, into: &out)
            out.append(UInt8(ascii: ":"))
            if !primary && !whole {
                out += Array("\"@\"".utf8)
            } else if fields[i].records.count > (primary ? IndexFormat.heavyEntry : IndexFormat.partEntry) {
                JSONWriter.string(IndexFileNames.outside(fields[i].records, kind: IndexFormat.fieldRecordsFileName, into: &outside).utf8, into: &out)
            } else {
                out += fields[i].records
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Per shard, whether a bucket of `touching` is in it: the shards `files(touching:previous:)` lays out again.
    func laidOut(touching: Set<Int32>) -> [Bool] {
        var redo = [Bool](repeating: false, count: shardCount)
        for b in touching { redo[IndexFormat.shard(ofBucket: Int(b), bounds: bounds)] = true }
        return redo
    }

    /// Per shard, its entries: (word, true) where the word's bucket files it, (word, false)
    /// where one of its other trigrams does; only for the shards `wanted` lays out (an edit's
    /// few), the others' left empty.
    private func entries(shardOf: [Int32], leaving parted: Set<Int32> = [], for wanted: [Bool]) -> [[(Int, Bool)]] {
        var lists = [[(Int, Bool)]](repeating: [], count: shardCount)
        let all = wanted.prefix(shardCount).allSatisfy { $0 }
        for g in 0..<words.count {
            let (bucket, secondary) = buckets(of: g)
            let primary = parted.contains(bucket) ? -1 : Int(shardOf[Int(bucket)])
            if primary >= 0 && (all || wanted[primary]) { lists[primary].append((g, true)) }
            var seen: [Int] = []
            for b in secondary where !parted.contains(b) {
                let s = Int(shardOf[Int(b)])
                if s != primary && (all || wanted[s]) && !seen.contains(s) { seen.append(s); lists[s].append((g, false)) }
            }
        }
        return lists
    }

    /// One shard's file and union file.
    private func shard(_ s: Int, _ list: [(Int, Bool)], shardOf: [Int32], unions withUnions: Bool = true,
                       outside: inout [(String, [UInt8])]) -> ((String, [UInt8]), [UInt8]) {
        let unions = withUnions ? self.unions(list, shard: Int32(s), shardOf: shardOf) : []
        var bytes: [UInt8] = []
        words.writeObject(list, markers: unions.map(\.gram), into: &bytes, outside: &outside, whole: !withUnions)
        bytes.append(0x0A)
        var unionFile: [UInt8] = []
        if !unions.isEmpty {
            unionFile.append(UInt8(ascii: "{"))
            for (k, entry) in unions.enumerated() {
                if k > 0 { unionFile.append(UInt8(ascii: ",")) }
                JSONWriter.string(entry.gram, into: &unionFile)
                unionFile.append(UInt8(ascii: ":"))
                JSONWriter.string(entry.postings.utf8, into: &unionFile)
            }
            unionFile += Array("}\n".utf8)
        }
        return ((IndexFormat.shardFileName(s), bytes), unionFile)
    }

    /// The unions of a shard: for each three- or four-code-point string of this shard (its
    /// first three code points file it here) found at offset 1 or later in words stored here
    /// as `@`, when those words' own shards are more than `unionFanOut`, the union of their
    /// postings; sorted by the string's bytes.
    func unions(_ list: [(Int, Bool)], shard s: Int32, shardOf: [Int32]) -> [(gram: [UInt8], postings: String)] {
        var out: [(gram: [UInt8], postings: String)] = []
        var decoded: [Int: [Int32]] = [:]
        for (gram, members) in containing(list, shard: s, shardOf: shardOf) {
            var homes = Set<Int32>()
            for g in members { homes.insert(shardOf[Int(buckets(of: g).0)]) }
            guard homes.count > unionFanOut else { continue }
            let postings = members.map { g -> [Int32] in
                if !words.ids[g].isEmpty { return words.ids[g] }
                let ids = decoded[g] ?? IndexFormat.decodePostings(String(decoding: words.encoded(g), as: UTF8.self))
                decoded[g] = ids
                return ids
            }
            let union = Self.union(postings)
            out.append((gram, IndexFormat.encodePostings(union) + String(decoding: words.cellCodes(union), as: UTF8.self)))
        }
        return out.sorted { $0.gram.lexicographicallyPrecedes($1.gram) }
    }

    /// The strings of this shard in its `@` words, each with the words containing it, for the
    /// strings found in more than `unionFanOut` words.
    private func containing(_ list: [(Int, Bool)], shard s: Int32, shardOf: [Int32]) -> [([UInt8], [Int])] {
        // Strings of up to 7 bytes (every ASCII one) are keyed by their bytes packed with their
        // length, which hashes far faster than an array; longer ones by their bytes.
        var packed: [UInt64: (gram: ArraySlice<UInt8>, members: [Int])] = [:]
        var long: [[UInt8]: [Int]] = [:]
        var starts: [Int] = []
        for (g, primary) in list where !primary && words.encodedCount(g) > 8 {
            let w = words.word(g)
            WordList.codePointStarts(w, into: &starts)
            let length = starts.count - 1
            guard length >= 4 else { continue }
            for o in 1...(length - 3) {
                guard shardOf[bucket(ofKeyBytes: w[starts[o]..<starts[o + 3]])] == s else { continue }
                for end in [o + 3, o + 4] where end <= length {
                    let gram = w[starts[o]..<starts[end]]
                    if gram.count <= 7 {
                        var key = UInt64(gram.count)
                        for b in gram { key = key << 8 | UInt64(b) }
                        Self.add(g, to: &packed[key, default: (gram, [])].members)
                    } else {
                        Self.add(g, to: &long[Array(gram), default: []])
                    }
                }
            }
        }
        var groups: [([UInt8], [Int])] = long.filter { $0.value.count > unionFanOut }.map { ($0.key, $0.value) }
        for entry in packed.values where entry.members.count > unionFanOut { groups.append((Array(entry.gram), entry.members)) }
        return groups
    }

    /// Adds word `g` to the words holding a string, once however often the word holds it.
    @inline(__always)
    private static func add(_ g: Int, to members: inout [Int]) {
        if members.last != g { members.append(g) }
    }

    /// The union of ascending document lists, ascending: a bit set over the documents.
    private static func union(_ lists: [[Int32]]) -> [Int32] {
        let highest = lists.reduce(-1) { max($0, Int($1.last ?? -1)) }
        guard highest >= 0 else { return [] }
        var bits = [UInt64](repeating: 0, count: highest >> 6 + 1)
        var count = 0
        bits.withUnsafeMutableBufferPointer { bits in
            for ids in lists {
                ids.withUnsafeBufferPointer { ids in
                    for d in ids { bits[Int(d) >> 6] |= 1 << UInt64(d & 63) }
                }
            }
            for word in bits { count += word.nonzeroBitCount }
        }
        return [Int32](unsafeUninitializedCapacity: count) { out, n in
            for k in bits.indices where bits[k] != 0 {
                var w = bits[k]
                while w != 0 {
                    out[n] = Int32(k << 6 + w.trailingZeroBitCount)
                    n += 1
                    w &= w - 1
                }
            }
        }
    }
}
