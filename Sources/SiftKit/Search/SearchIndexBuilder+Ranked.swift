/// The ranked layout (docs/search-index.md, "Version 6: the ranked layout"): what a render adds
/// to the version-5 writer when the index takes it: the records, the cells, the field entries, and
/// the shards cut over fine buckets, split by key and named by the pre files.
extension SearchIndexBuilder {
    /// The ranked layout's shards (docs/search-index.md, "Version 6"): words and field entries
    /// cut at `shardTarget` over `IndexFormat.rankedBuckets`, whatever the site's size, the parts
    /// of the keys too heavy for one shard (`keyParts`), and the pre files that name them, each for
    /// its run of buckets: `{"shards":[[first bucket, shard hash, union hash], …],"keys":{key:[[path, hash], …]}}`
    /// (a union's hash only when the shard has unions). The manifest, finished by `collections`,
    /// comes first; its `files` name the pre files, not the shards. With `answering`, the heavy
    /// terms (`heavyTerms`) are listed in their pre files' `answers` and returned in `heavy`, each
    /// with the words holding it, for `AnswerFiles`.
    func rankedShards(_ words: WordList, _ fields: [ShardWriter.FieldEntry], grams: [(gram: [UInt8], docs: [Int32], fits: [UInt8])],
                      titles: [(key: [UInt8], words: [(word: [UInt8], docs: [Int32])])], manifest m: inout JSONWriter,
                      answering: Bool = false, heavy: inout [[UInt8]: [Int32]],
                      collections: (inout JSONWriter) -> Void) -> [(String, [UInt8])] {
        let ranked = ParallelMap.map(Array(0..<words.count)) { WordList.buckets(ofWord: words.word($0), ranked: true) }
        var bytes = [Int](repeating: 0, count: IndexFormat.rankedBuckets)
        for g in 0..<words.count {
            let weight = Self.entryBytes(words, g)
            bytes[Int(ranked[g].0)] += weight.primary
            for b in ranked[g].1 { bytes[Int(b)] += weight.secondary }
        }
        for f in fields {
            let weight = Self.entryBytes(f)
            bytes[Int(f.bucket)] += weight.primary
            for b in f.secondary { bytes[Int(b)] += weight.secondary }
        }
        // A bucket past the target is a key of many entries (`sta`, or `via` inside thousands of
        // words): its entries go to parts of their own, split by the code points after the key.
        var heavyBuckets = Set<Int32>()
        for b in bytes.indices where bytes[b] > shardTarget {
            heavyBuckets.insert(Int32(b))
            bytes[b] = 0
        }
        let parts = keyParts(words, fields, buckets: ranked, heavy: heavyBuckets)
        let answered = answering ? Self.heavyTerms(parts, words, fields, weighing: heavyTermBytes) : [:]
        let bounds = WordList.pack(bytes, target: shardTarget)
        let writer = ShardWriter(words: words, bounds: bounds, unionFanOut: unionFanOut, fields: fields,
                                 ranked: (ranked.map(\.0), ranked.map(\.1)))
        let shards = writer.files(parts: ShardWriter.Parts(buckets: heavyBuckets, words: parts.map(\.words), fields: parts.map(\.fields)))
        let starts = [0] + bounds, run = IndexFormat.rankedBuckets / IndexFormat.preFiles
        var pre = [[UInt8]](repeating: Array("{\"shards\":[".utf8), count: IndexFormat.preFiles)
        for (n, shard) in shards.shards.prefix(starts.count).enumerated() {
            var entry = Array("[\(starts[n]),".utf8)
            JSONWriter.string(ContentHash.of(shard.1).utf8, into: &entry)
            if !shards.unions[n].isEmpty {
                entry.append(UInt8(ascii: ","))
                JSONWriter.string(ContentHash.of(shards.unions[n]).utf8, into: &entry)
            }
            entry.append(UInt8(ascii: "]"))
            let last = n + 1 < starts.count ? starts[n + 1] - 1 : IndexFormat.rankedBuckets - 1
            for p in (starts[n] / run)...(last / run) {
                if pre[p].last != UInt8(ascii: "[") { pre[p].append(UInt8(ascii: ",")) }
                pre[p] += entry
            }
        }
        // Each split key's parts, in its bucket's pre file: `"keys":{"sta":[[["t","a"],hash],…]}`.
        var keys = [[(key: [UInt8], parts: [(path: [[UInt8]], hash: String)])]](repeating: [], count: IndexFormat.preFiles)
        for (k, part) in parts.enumerated() {
            let p = IndexFormat.preFile(ofBucket: IndexFormat.rankedBucket(ofKeyBytes: part.key))
            let entry = (path: part.path, hash: ContentHash.of(shards.shards[starts.count + k].1))
            if let i = keys[p].firstIndex(where: { $0.key == part.key }) { keys[p][i].parts.append(entry) } else { keys[p].append((part.key, [entry])) }
        }
        for p in pre.indices {
            pre[p] += Array("],\"keys\":{".utf8)
            for (i, key) in keys[p].sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).enumerated() {
                if i > 0 { pre[p].append(UInt8(ascii: ",")) }
                JSONWriter.string(key.key, into: &pre[p])
                pre[p] += Array(":[".utf8)
                for (j, part) in key.parts.enumerated() {
                    pre[p] += Array((j > 0 ? ",[[" : "[[").utf8)
                    for (c, step) in part.path.enumerated() {
                        if c > 0 { pre[p].append(UInt8(ascii: ",")) }
                        JSONWriter.string(step, into: &pre[p])
                    }
                    pre[p] += Array("],".utf8)
                    JSONWriter.string(part.hash.utf8, into: &pre[p])
                    pre[p].append(UInt8(ascii: "]"))
                }
                pre[p].append(UInt8(ascii: "]"))
            }
            pre[p].append(UInt8(ascii: "}"))
        }
        // The heavy terms that have answers, in the pre files of their keys' buckets: `"answers":["har","nort","sta"]`.
        var answersOf = [[[UInt8]]](repeating: [], count: IndexFormat.preFiles)
        for term in answered.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            answersOf[IndexFormat.preFile(ofBucket: IndexFormat.rankedBucket(ofKeyBytes: IndexFormat.key(String(decoding: term, as: UTF8.self)).utf8))].append(term)
        }
        for p in pre.indices where !answersOf[p].isEmpty {
            pre[p] += Array(",\"answers\":[".utf8)
            for (i, term) in answersOf[p].enumerated() {
                if i > 0 { pre[p].append(UInt8(ascii: ",")) }
                JSONWriter.string(term, into: &pre[p])
            }
            pre[p].append(UInt8(ascii: "]"))
        }
        heavy = answered
        // Each short term's documents, in its bucket's pre file: `"grams":{"l":"=HASH","xq":"AgU;AB;DB"}`.
        var outside: [(String, [UInt8])] = []
        Self.addObject("grams", grams.map { g in
            let entry = Self.gramEntry(g, words)
            var value: [UInt8] = []
            JSONWriter.string(entry, into: &value)
            return (g.gram, value, entry.count)
        }, kind: IndexFormat.postFileName, to: &pre, outside: &outside)
        // Each key's title words, in its bucket's pre file: `"titles":{"har":"=HASH","xqa":{"xqaro":"AgU;AB"}}`.
        Self.addObject("titles", titles.map { t in
            let value = Self.titleWordsEntry(t.words, words) { IndexFileNames.outside(quoting: $0, kind: IndexFormat.postFileName, into: &outside) }
            return (t.key, value, value.count)
        }, kind: IndexFormat.titleWordsFileName, to: &pre, outside: &outside)
        m.raw(",\"shards\":\(starts.count)")
        collections(&m)
        m.raw("}\n")
        var files: [(String, [UInt8])] = [("manifest.json", Array(m.out.utf8))]
        files += pre.enumerated().map { (IndexFormat.preFileName($0.offset), $0.element + Array("}\n".utf8)) }
        files += shards.shards
        for (n, union) in shards.unions.enumerated() where !union.isEmpty { files.append((IndexFormat.unionFileName(n), union)) }
        return files + shards.outside + outside
    }

    /// Adds `,"NAME":{key:value,…}` to each pre file, each entry in the pre file of its key's
    /// bucket, its value JSON already; an entry past `inlineGram` bytes (`size`: a gram entry's
    /// string, a key's title words' object) is a file of `kind` of its own, `"=HASH"` in its place.
    private static func addObject(_ name: String, _ entries: [(key: [UInt8], value: [UInt8], size: Int)], kind: String,
                                  to pre: inout [[UInt8]], outside: inout [(String, [UInt8])]) {
        var of = [[(key: [UInt8], value: [UInt8])]](repeating: [], count: pre.count)
        for e in entries {
            var value = e.value
            if e.size > inlineGram { value = Array("\"\(IndexFileNames.outside(value, kind: kind, into: &outside))\"".utf8) }
            of[IndexFormat.preFile(ofBucket: IndexFormat.rankedBucket(ofKeyBytes: e.key))].append((e.key, value))
        }
        for p in pre.indices {
            pre[p] += Array(",\"\(name)\":{".utf8)
            for (i, e) in of[p].enumerated() {
                if i > 0 { pre[p].append(UInt8(ascii: ",")) }
                JSONWriter.string(e.key, into: &pre[p])
                pre[p].append(UInt8(ascii: ":"))
                pre[p] += e.value
            }
            pre[p].append(UInt8(ascii: "}"))
        }
    }

    /// What a word's entries weigh in a shard of the ranked layout, as the shards are cut by: its
    /// primary entry (its postings, then about as many characters of cells, or a heavy entry's
    /// name: `IndexFormat.heavyEntry`), and a secondary one (inline postings, or `@`).
    private static func entryBytes(_ words: WordList, _ g: Int) -> (primary: Int, secondary: Int) {
        let length = words.word(g).count, encoded = words.encodedCount(g), value = valueBytes(words, g) + 1
        return (length + (value > IndexFormat.heavyEntry ? 14 : value) + 6, length + (encoded <= 8 ? 2 * encoded + 1 : 1) + 6)
    }

    /// What a word's primary entry holds, in bytes: its postings, then about as many characters of
    /// cells, then its often and lead postings.
    private static func valueBytes(_ words: WordList, _ g: Int) -> Int {
        2 * words.encodedCount(g) + words.suffixCount(g)
    }

    /// What a field word's entries weigh: its records (or a heavy entry's name), and `@`.
    private static func entryBytes(_ f: ShardWriter.FieldEntry) -> (primary: Int, secondary: Int) {
        (f.word.count + (f.records.count > IndexFormat.heavyEntry ? 16 : f.records.count) + 6, f.word.count + 9)
    }

    /// A heavy key's part in the ranked layout: the key, the code points after it that its entries
    /// share (each one's UTF-8, or empty where its words end), and its word and field entries.
    private struct KeyPart {
        var key: [UInt8]
        var path: [[UInt8]]
        var words: [(Int, Bool)] = []
        var fields: [(Int, Bool)] = []
    }

    /// The heavy terms (docs/search-index.md, "Answers"), each with the words holding it that are
    /// not bridges, which its body candidates come from (`SearchIndex.searchBodies`). A term is one
    /// word piece outside CJK text, and either a split key of three code points, which alone would
    /// read every part of its key, or the start of a word (three code points or more) held by words
    /// and field words whose entries weigh more than `heavyTermBytes` in all (`america`, `nort`,
    /// `port` inside `report`), which a client would fetch whole.
    private static func heavyTerms(_ parts: [KeyPart], _ words: WordList, _ fields: [ShardWriter.FieldEntry], weighing heavyTermBytes: Int) -> [[UInt8]: [Int32]] {
        var terms = Set<[UInt8]>()
        for part in parts {
            let key = String(decoding: part.key, as: UTF8.self)
            if key.unicodeScalars.count == 3, HeavyTerms.isPlain(part.key) { terms.insert(part.key) }
        }
        // What the words holding each term weigh, of the words that weigh something: a client
        // looking the term up fetches their entries.
        var weights: [[UInt8]: Int] = [:]
        var starts: [Int] = []
        func weigh(_ word: ArraySlice<UInt8>, _ bytes: Int) {
            guard bytes >= heavyTermBytes / 16, HeavyTerms.isPlain(word) else { return }
            WordList.codePointStarts(word, into: &starts)
            for i in starts.indices.dropLast(3) {
                for end in starts[(i + 3)..<min(starts.count, i + HeavyTerms.longest + 1)] { weights[Array(word[starts[i]..<end]), default: 0] += bytes }
            }
        }
        for g in 0..<words.count { weigh(words.word(g), valueBytes(words, g)) }
        for f in fields { weigh(f.word[...], f.records.count) }
        // Of those past the weight, the ones that start a word: what a visitor types on the way to one.
        let weighty = Set(weights.filter { $0.value > heavyTermBytes }.keys)
        for word in (0..<words.count).lazy.map({ words.word($0) }) + fields.lazy.map({ $0.word[...] }) {
            WordList.codePointStarts(word, into: &starts)
            for end in starts.dropFirst(3).prefix(HeavyTerms.longest - 2) {
                let start = Array(word[word.startIndex..<end])
                if weighty.contains(start) { terms.insert(start) }
            }
        }
        guard !terms.isEmpty else { return [:] }
        // Each word holding one: a run of words on every core, merged in order.
        let finder = HeavyTerms.Finder(terms)
        let step = max(4096, words.count / (ParallelMap.jobs * 4) + 1)
        let found = ParallelMap.map(Array(stride(from: 0, to: words.count, by: step))) { first -> [[UInt8]: [Int32]] in
            var holding: [[UInt8]: [Int32]] = [:]
            for g in first..<min(first + step, words.count) {
                let word = words.word(g)
                guard !word.withUnsafeBufferPointer({ IndexFormat.isBridge(utf8: $0) }) else { continue }
                finder.each(in: word) { term in
                    if holding[term]?.last != Int32(g) { holding[term, default: []].append(Int32(g)) }
                }
            }
            return holding
        }
        var holding = Dictionary(uniqueKeysWithValues: terms.map { ($0, [Int32]()) })
        for part in found { for (term, gs) in part { holding[term]! += gs } }
        return holding
    }

    /// The deepest a key is split: its key and five more code points.
    static let splitDepth = 5

    /// The parts of the keys in `heavy` buckets: each key's entries (words and field words filed
    /// under it, primary or secondary) split by the code point after the key, then the next, while
    /// a part passes `shardTarget`, at most `splitDepth` deep. A term of the key and more code
    /// points finds every word holding it in the one part its code points lead to. `buckets`: each
    /// word's, which pass over the words none of whose buckets is heavy.
    private func keyParts(_ words: WordList, _ fields: [ShardWriter.FieldEntry], buckets: [(Int32, [Int32])], heavy: Set<Int32>) -> [KeyPart] {
        struct Item { var field: Bool; var index: Int; var primary: Bool; var rest: [[UInt8]]; var bytes: Int }
        var byKey: [[UInt8]: [Item]] = [:]
        func add(_ word: ArraySlice<UInt8>, field: Bool, index: Int, primaryBytes: Int, secondaryBytes: Int) {
            var starts: [Int] = []
            WordList.codePointStarts(word, into: &starts)
            let length = starts.count - 1
            let cp = { (i: Int) in Array(word[starts[i]..<starts[i + 1]]) }
            let key = Array(word[starts[0]..<starts[min(3, length)]])
            if heavy.contains(Int32(IndexFormat.rankedBucket(ofKeyBytes: key))) {
                byKey[key, default: []].append(Item(field: field, index: index, primary: true,
                                                     rest: (min(3, length)..<min(length, 3 + Self.splitDepth)).map(cp), bytes: primaryBytes))
            }
            guard length >= 4 else { return }
            for o in 1...(length - 3) {
                let trigram = Array(word[starts[o]..<starts[o + 3]])
                // The word's own key again (`stabstar` holds `sta` twice): a secondary entry in the
                // part of `star`, which the primary one, in the part of `stab`, is not in.
                guard heavy.contains(Int32(IndexFormat.rankedBucket(ofKeyBytes: trigram))) else { continue }
                // A part holds a secondary entry whole, as its primary one.
                byKey[trigram, default: []].append(Item(field: field, index: index, primary: false,
                                                         rest: ((o + 3)..<min(length, o + 3 + Self.splitDepth)).map(cp), bytes: secondaryBytes))
            }
        }
        // A trigram that is the word's own key again has the key's bucket, so these cover every one.
        let touches = { (bucket: Int32, secondary: [Int32]) in heavy.contains(bucket) || secondary.contains(where: heavy.contains) }
        // A secondary entry in a part weighs as a primary one, or as a file's name past `IndexFormat.partEntry`.
        for g in 0..<words.count where touches(buckets[g].0, buckets[g].1) {
            let word = words.word(g), primary = Self.entryBytes(words, g).primary
            add(word, field: false, index: g, primaryBytes: primary, secondaryBytes: Self.valueBytes(words, g) + 1 > IndexFormat.partEntry ? word.count + 20 : primary)
        }
        for (i, f) in fields.enumerated() where touches(f.bucket, f.secondary) {
            let primary = Self.entryBytes(f).primary
            add(f.word[...], field: true, index: i, primaryBytes: primary, secondaryBytes: f.records.count > IndexFormat.partEntry ? f.word.count + 20 : primary)
        }
        var parts: [KeyPart] = []
        func split(_ key: [UInt8], _ items: [Item], path: [[UInt8]]) {
            let depth = path.count
            var groups: [[UInt8]: [Item]] = [:]
            for item in items { groups[depth < item.rest.count ? item.rest[depth] : [], default: []].append(item) }
            if items.reduce(0, { $0 + $1.bytes }) <= shardTarget || depth == Self.splitDepth || groups.keys.allSatisfy(\.isEmpty) {
                var part = KeyPart(key: key, path: path)
                var seen = Set<Int>()
                // A word once in a part: its primary entry, else one secondary entry.
                for item in items.sorted(by: { $0.primary && !$1.primary }) where seen.insert(item.index << 1 | (item.field ? 1 : 0)).inserted {
                    if item.field { part.fields.append((item.index, item.primary)) } else { part.words.append((item.index, item.primary)) }
                }
                parts.append(part)
                return
            }
            for step in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) { split(key, groups[step]!, path: path + [step]) }
        }
        for key in byKey.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) { split(key, byKey[key]!, path: []) }
        return parts
    }

    /// A collection's scopes as version 5 has them (its declared ones, then the others as its list
    /// meets them), from its documents in index order: so the answers' cells, worked out from the
    /// version-5 tables, are the manifest's, and the scope bar keeps its order when a body's length moves.
    static func listScopes(_ layout: Layout, _ c: Int, _ docs: [SearchDigest]) -> [String] {
        DocumentTable.scopes(layout.collections[c], layout.inListOrder(docs, c))
    }

    /// Each document's cell, by its number in the index, and how many cells there are: a
    /// collection's scopes in order, then its documents without one (docs/search-index.md, "Answers").
    static func cells(_ layout: Layout, _ docs: [[SearchDigest]]) -> (of: [Int32], count: Int) {
        var of: [Int32] = [], first = 0
        for c in layout.collections.indices {
            let scopes = listScopes(layout, c, docs[c])
            let number = Dictionary(scopes.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            of += docs[c].map { Int32(first + ($0.scope.flatMap { number[$0] } ?? scopes.count)) }
            first += scopes.count + 1
        }
        return (of, first)
    }

    /// The ranked layout's field entries (docs/search-index.md, "Version 6"): every word of some
    /// document's field values, filed as a body word is, with the records of the documents
    /// holding it (`records`, by document number, the number put first), in index order.
    static func fieldEntries(_ values: [[String]], records: [String]) -> [ShardWriter.FieldEntry] {
        let wordsOf = ParallelMap.map(Array(values.indices)) { d in Tokenizer.fieldWords(values[d]) }
        var holders: [[UInt8]: [Int32]] = [:]
        for (d, words) in wordsOf.enumerated() { for w in words { holders[w, default: []].append(Int32(d)) } }
        let sorted = holders.keys.sorted { $0.lexicographicallyPrecedes($1) }
        return ParallelMap.map(sorted) { word in
            let (bucket, secondary) = WordList.buckets(ofWord: word, ranked: true)
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (k, d) in holders[word]!.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                out += Array("[\(d),".utf8) + records[Int(d)].utf8.dropFirst()
            }
            out.append(UInt8(ascii: "]"))
            return ShardWriter.FieldEntry(word: word, bucket: bucket, secondary: secondary, records: out)
        }
    }

    /// The ranked layout's gram entries (docs/search-index.md, "Version 6"): every short term some
    /// document's folded fields hold (`AnswerFiles.shortTerms`) with those documents, ascending,
    /// in the order of the terms' bytes. A short term is in no word entry of its own.
    /// With each document, how its title holds the term (`titleFit`). Runs of documents on every
    /// core, each making its own table, merged in order (a list of grams per document took about
    /// 1.3 GB more at a million).
    static func gramEntries(_ values: [[String]]) -> [(gram: [UInt8], docs: [Int32], fits: [UInt8])] {
        let step = max(1024, values.count / (ParallelMap.jobs * 4) + 1)
        let parts = ParallelMap.map(Array(stride(from: 0, to: values.count, by: step))) { first in
            var holders: [[UInt8]: (docs: [Int32], fits: [UInt8])] = [:]
            var seen = Set<[UInt8]>()
            for d in first..<min(first + step, values.count) {
                seen.removeAll(keepingCapacity: true)
                let folded = values[d].map { Fold.fold($0) }
                AnswerFiles.shortTerms(of: folded, into: &seen)
                for g in seen {
                    holders[g, default: ([], [])].docs.append(Int32(d))
                    holders[g]!.fits.append(titleFit(folded[0], String(decoding: g, as: UTF8.self)))
                }
            }
            return holders
        }
        let holders = ParallelMap.merged(consume parts) { entry, later in
            entry.docs += later.docs
            entry.fits += later.fits
        }
        return holders.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, holders[$0]!.docs, holders[$0]!.fits) }
    }

    /// The ranked layout's title words (docs/search-index.md, "Version 6", and "Typos"): every
    /// word of three or more code points of some document's folded title, with the documents whose
    /// titles hold it, ascending; grouped by key (the word's first three code points), keys and
    /// words in the order of their bytes. Runs of documents on every core, merged in order.
    static func titleWords(_ values: [[String]]) -> [(key: [UInt8], words: [(word: [UInt8], docs: [Int32])])] {
        let step = max(1024, values.count / (ParallelMap.jobs * 4) + 1)
        let parts = ParallelMap.map(Array(stride(from: 0, to: values.count, by: step))) { first in
            var holders: [[UInt8]: [Int32]] = [:]
            var seen = Set<[UInt8]>()
            for d in first..<min(first + step, values.count) {
                seen.removeAll(keepingCapacity: true)
                let title = Fold.fold(values[d].first ?? "").unicodeScalars
                for word in title.split(whereSeparator: { !IndexFormat.isWordScalar($0) }) where word.count >= 3 {
                    let bytes = Array(String(String.UnicodeScalarView(word)).utf8)
                    if seen.insert(bytes).inserted { holders[bytes, default: []].append(Int32(d)) }
                }
            }
            return holders
        }
        // Merged in order: each word's documents ascending.
        let holders = ParallelMap.merged(consume parts) { $0 += $1 }
        var byKey: [[UInt8]: [[UInt8]]] = [:]
        for word in holders.keys { byKey[Array(IndexFormat.key(String(decoding: word, as: UTF8.self)).utf8), default: []].append(word) }
        return byKey.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { key in
            (key, byKey[key]!.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, holders[$0]!) })
        }
    }

    /// A key's title words as a pre file (or a one-file manifest) holds them: an object of each
    /// word's documents' postings, `;` and their cells: `{"harbor":"AgU;AB","harlow":"Q;C"}`. With
    /// `outside` (which files a value as a JSON string, and gives the `=HASH` that stands for it), a word's
    /// value past `IndexFormat.heavyEntry` bytes is a post file of its own: a typo reads the words
    /// within its edits, not every word of its key. Without it, every value is inline.
    static func titleWordsEntry(_ words: [(word: [UInt8], docs: [Int32])], _ list: WordList, outside: ((_ value: [UInt8]) -> String)? = nil) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, w) in words.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(w.word, into: &out)
            out.append(UInt8(ascii: ":"))
            var value = Array(IndexFormat.encodePostings(w.docs).utf8) + list.cellCodes(w.docs)
            if let outside, value.count > IndexFormat.heavyEntry { value = Array(outside(value).utf8) }
            JSONWriter.string(value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// How a folded title holds a term, as a gram entry says it: 0 not at all, 1 inside a word,
    /// 2 at a word's start, 3 as a whole word (`SearchIndex.wordFit`'s 1, 3, 7).
    static func titleFit(_ title: String, _ term: String) -> UInt8 {
        guard IndexFormat.contains(title, term) else { return 0 }
        switch SearchIndex.wordFit(title, term) {
        case Score.wholeWord: return 3
        case Score.wordStart: return 2
        default: return 1
        }
    }

    /// A gram entry: its documents' postings, `;` and their cells, `;` and how their titles hold
    /// it (`titleFit`, a base64 digit each).
    static func gramEntry(_ g: (gram: [UInt8], docs: [Int32], fits: [UInt8]), _ words: WordList) -> [UInt8] {
        Array(IndexFormat.encodePostings(g.docs).utf8) + words.cellCodes(g.docs) + [UInt8(ascii: ";")] + Array(IndexFormat.codes(g.fits.map(Int.init), limit: 4).utf8)
    }

    /// The most bytes of a gram entry a pre file holds; a larger one is a post file of its own.
    static let inlineGram = 64

    /// Every document's searched field values, in index order (`recordValues`): what its record,
    /// its field entries and its gram entries are made of.
    static func fieldValues(_ docs: [[SearchDigest]]) -> [[String]] {
        docs.flatMap { collection in
            let names = DocumentTable.fieldNames(collection)
            return collection.map { recordValues($0, names) }
        }
    }

    /// A document's searched field values in its collection's field order, the title first (`""` for one it has not).
    private static func recordValues(_ d: SearchDigest, _ fields: [String]) -> [String] {
        fields.enumerated().map { f, name in f == 0 ? d.title : d.fieldNames.firstIndex(of: name).map { d.fieldValues[$0] } ?? "" }
    }

    /// The ranked layout's records (docs/search-index.md, "Version 6"), one JSON array a document
    /// in index order: `[cell, position, [fields…]]`, then its slug when not the derived one
    /// (`""` when it is), then its URL when not `name/slug/`.
    static func records(_ layout: Layout, _ docs: [[SearchDigest]], values: [[String]]) -> [String] {
        var out: [String] = []
        var firstCell = 0
        for (c, info) in layout.collections.enumerated() {
            let scopes = listScopes(layout, c, docs[c]), first = out.count
            let scopeNumbers = Dictionary(scopes.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            out += ParallelMap.map(Array(docs[c].indices)) { i in
                let d = docs[c][i]
                var j = JSONWriter()
                j.raw("[\(firstCell + (d.scope.flatMap { scopeNumbers[$0] } ?? scopes.count)),\(layout.positions![c][i]),")
                j.strings(values[first + i])
                let ownURL = d.url != "\(info.name)/\(d.slug)/", ownSlug = IndexFormat.derivedSlug(d.title) != d.slug
                if ownSlug || ownURL { j.raw(","); j.string(ownSlug ? d.slug : "") }
                if ownURL { j.raw(","); j.string(d.url) }
                j.raw("]")
                return j.out
            }
            firstCell += scopes.count + 1
        }
        return out
    }
}
