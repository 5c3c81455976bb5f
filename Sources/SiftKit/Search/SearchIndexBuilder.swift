import Dispatch
import Foundation

/// Collects digested documents and writes the search index described in docs/search-index.md.
///
/// `digest` runs on every core while pages render. `add` buffers digests and merges them into
/// word tables partitioned by hash, one partition per core, so the serial part of a build only
/// hands out work; `write` encodes and writes the shards on every core too.
public struct SearchIndexBuilder {
    private var docs: [SearchDigest] = []
    /// Each document's key as the caller gave it to `add(_:key:)`, for `update`.
    private var keys: [UInt64] = []
    /// Kept for `update`: the word tables keep their pairs and per-word encodings between renders.
    private var live = false
    /// The words in byte order as the last render of a live builder laid them out.
    private var wordOrder: [WordRef] = []
    /// A live builder's document tables (JSON, per collection) while no document's fields change.
    private var tableCache: [String]?
    /// A live builder's shard files and the bounds they were cut at.
    private var shardCache: (bounds: [Int], files: [(String, [UInt8])], unions: [[UInt8]])?
    private var pending: [SearchDigest] = []
    private var infos: [SearchCollectionInfo] = []
    private let tables: [WordTable]
    /// Above this many bytes of word entries the postings split into shards.
    public var shardThreshold: Int
    /// The size a shard aims at, in raw bytes.
    public var shardTarget: Int
    /// A three- or four-letter string whose `@` words span more shards than this gets its
    /// postings' union in a union file (docs/search-index.md, "Unions").
    public var unionFanOut = WordList.unionFanOut
    /// Tables of every collection stay in manifest.json up to this many bytes in all.
    public var inlineDocsLimit = 512 * 1024

    /// Creates an empty builder with the default sharding threshold (192 KB of word entries).
    public init() {
        self.init(shardThreshold: 192 * 1024)
    }

    /// Creates an empty builder that shards once the word entries pass `shardThreshold` bytes.
    public init(shardThreshold: Int, shardTarget: Int = 24 * 1024) {
        self.shardThreshold = shardThreshold
        self.shardTarget = max(1, shardTarget)
        self.tables = (0..<max(1, ParallelMap.jobs)).map { _ in WordTable() }
    }

    // MARK: Digest

    /// Folds a document and extracts its body vocabulary; pure, so callers may run it in parallel.
    public static func digest(_ doc: SearchDocument) -> SearchDigest {
        var set = LocalWordSet()
        if !doc.body.isEmpty {
            var body = doc.body
            // Most bodies are ASCII, where folding is lowercasing A-Z: done in one vectorisable
            // pass instead of Fold's general loop.
            let folded: [UInt8] = body.withUTF8 { raw in
                var any: UInt8 = 0
                for b in raw { any |= b }
                guard any < 0x80 else { return Fold.foldUTF8(doc.body) }
                return [UInt8](unsafeUninitializedCapacity: raw.count) { out, n in
                    for i in 0..<raw.count {
                        let b = raw[i]
                        out[i] = b &- 0x41 < 26 ? b | 0x20 : b
                    }
                    n = raw.count
                }
            }
            folded.withUnsafeBufferPointer { buf in
                set.reserve(buf.count / 6)
                tokenize(buf) { start, end, hash in set.insert(buf, start, end, hash) }
            }
        }
        return SearchDigest(collection: doc.collection, slug: doc.slug, title: doc.title, url: doc.url,
                            scope: doc.scope, fieldNames: doc.fields.map(\.name),
                            fieldValues: doc.fields.map(\.value),
                            wordBytes: set.bytes, wordEnds: set.ends, wordHashes: set.hashes)
    }

    /// Calls `piece` with the byte range and hash of every piece of folded UTF-8 text: white
    /// space separates tokens, each token splits into runs of word and of other code points.
    @inline(__always)
    static func tokenize(_ buf: UnsafeBufferPointer<UInt8>, _ piece: (Int, Int, UInt64) -> Void) {
        var start = 0
        var cls: UInt8 = 0  // 0 space, 1 word, 2 other
        var h: UInt64 = wordHashSeed
        var i = 0
        let n = buf.count
        IndexFormat.asciiClass.withUnsafeBufferPointer { classes in
            while i < n {
                let b = buf[i]
                if b < 0x80 {
                    let c = classes[Int(b)]
                    if c != cls {
                        if cls != 0 { piece(start, i, finishWordHash(h)) }
                        start = i
                        cls = c
                        h = wordHashSeed
                    }
                    h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3
                    i += 1
                    continue
                }
                var v: UInt32
                var len: Int
                if b >= 0xF0 { len = 4; v = UInt32(b & 0x07) }
                else if b >= 0xE0 { len = 3; v = UInt32(b & 0x0F) }
                else { len = 2; v = UInt32(b & 0x1F) }
                len = min(len, n - i)
                for k in 1..<max(len, 1) { v = v << 6 | UInt32(buf[i + k] & 0x3F) }
                let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                let c: UInt8 = IndexFormat.isSpaceScalar(scalar) ? 0 : (IndexFormat.isWordScalar(scalar) ? 1 : 2)
                if c != cls {
                    if cls != 0 { piece(start, i, finishWordHash(h)) }
                    start = i
                    cls = c
                    h = wordHashSeed
                }
                for k in i..<(i + len) { h = (h ^ UInt64(buf[k])) &* 0x0000_0100_0000_01B3 }
                i += len
            }
        }
        if cls != 0 && start < n { piece(start, n, finishWordHash(h)) }
    }

    // MARK: Collect

    /// Adds a digested document; documents of a collection come in list order.
    public mutating func add(_ digest: SearchDigest) {
        pending.append(digest)
        if pending.count >= 1024 { flush() }
    }

    /// Adds a document with the key of its search inputs, keeping what `update` needs.
    mutating func add(_ digest: SearchDigest, key: UInt64) {
        if !live {
            live = true
            for t in tables { t.keepsPairs = true }
        }
        keys.append(key)
        add(digest)
    }

    /// Brings a live builder to the given documents when only some of them changed (same
    /// collections, same items in the same order; changed ones have a new key). False, with
    /// nothing changed, when the list differs otherwise or too much changed: build afresh.
    mutating func update(_ records: [(item: String, key: UInt64, digest: SearchDigest)], collections: [SearchCollectionInfo]) -> Bool {
        flush()
        guard live, records.count == docs.count, collections.map(\.name) == infos.map(\.name) else { return false }
        var changed: [Int] = []
        for (i, r) in records.enumerated() {
            guard r.digest.collection == docs[i].collection, r.digest.slug == docs[i].slug else { return false }
            if r.key != keys[i] {
                changed.append(i)
                if changed.count > 256 { return false }
            }
        }
        if collections.map(\.title) != infos.map(\.title) || collections.map(\.scopes) != infos.map(\.scopes) { tableCache = nil }
        infos = collections
        for i in changed {
            let digest = records[i].digest
            let old = docs[i]
            if old.title != digest.title || old.url != digest.url || old.scope != digest.scope
                || old.fieldNames != digest.fieldNames || old.fieldValues != digest.fieldValues { tableCache = nil }
            Self.parallel(tables.count) { p in
                tables[p].replace(document: Int32(i), with: digest, part: UInt64(p), parts: UInt64(tables.count))
            }
            docs[i] = digest.withoutWords
            keys[i] = records[i].key
        }
        return true
    }

    /// Declares a collection: its heading and scope order. Collections keep the order declared.
    public mutating func addCollection(_ info: SearchCollectionInfo) {
        if let i = infos.firstIndex(where: { $0.name == info.name }) { infos[i] = info } else { infos.append(info) }
    }

    /// Merges the buffered digests into the word tables, each core taking the words of its
    /// partition, and keeps only what the document table needs.
    private mutating func flush() {
        guard !pending.isEmpty else { return }
        let first = Int32(docs.count)
        let batch = pending
        let tables = self.tables
        let parts = UInt64(tables.count)
        Self.parallel(tables.count) { p in
            tables[p].merge(batch, first: first, part: UInt64(p), parts: parts)
        }
        docs += pending.map(\.withoutWords)
        pending.removeAll(keepingCapacity: true)
    }

    static func parallel(_ count: Int, _ body: (Int) -> Void) {
        if count == 1 { body(0); return }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: count) { box.value($0) }
        }
    }

    // MARK: Write

    /// Writes manifest.json (and, when sharded, docs-N.json and shard-N.json) into the directory.
    public mutating func write(to searchDirectory: URL, baseURL: String) throws {
        try FileManager.default.createDirectory(at: searchDirectory, withIntermediateDirectories: true)
        try write(baseURL: baseURL) { name, bytes in try Data(bytes).write(to: searchDirectory.appendingPathComponent(name)) }
    }

    /// Renders the index files and hands each to `save` (name, bytes), on every core; the
    /// first error is thrown.
    mutating func write(baseURL: String, _ save: @Sendable (String, [UInt8]) throws -> Void) throws {
        let files = render(baseURL: baseURL)
        let failures = ErrorBox()
        _ = ParallelMap.map(files) { file in
            do { try save(file.0, file.1) } catch { failures.set(error) }
        }
        if let error = failures.error { throw error }
    }

    /// The index files by name, in a fixed order.
    mutating func render(baseURL: String) -> [(String, [UInt8])] {
        flush()
        // Collections: declared order, then undeclared ones as first seen.
        var order = infos
        var byName: [String: Int] = [:]
        for (i, info) in order.enumerated() { byName[info.name] = i }
        var members: [[Int]] = Array(repeating: [], count: order.count)
        for (i, d) in docs.enumerated() {
            if byName[d.collection] == nil {
                byName[d.collection] = order.count
                order.append(SearchCollectionInfo(name: d.collection, title: d.collection.capitalized))
                members.append([])
            }
            members[byName[d.collection]!].append(i)
        }
        // Postings hold the order of `add`; documents are numbered collection by collection.
        var number = [Int32](repeating: 0, count: docs.count)
        var next: Int32 = 0
        for m in members { for i in m { number[i] = next; next += 1 } }
        let renumber = number.enumerated().contains { $0.offset != Int($0.element) }

        let words = WordList(tables: tables, renumber: renumber ? number : nil)
        let ranked: [Int]? = live && !renumber ? rankLive(words) : nil
        let base = Self.normalizedBase(baseURL)
        var tablesJSON: [String] = []
        if live, !renumber, let cached = tableCache, cached.count == order.count {
            tablesJSON = cached
        } else {
            for (c, info) in order.enumerated() {
                tablesJSON.append(Self.table(info, members[c].map { docs[$0] }))
            }
            if live { tableCache = tablesJSON }
        }
        let inline = tablesJSON.reduce(0) { $0 + $1.utf8.count } <= inlineDocsLimit
        var files: [(String, [UInt8])] = []
        func collections(_ m: inout JSONWriter) {
            m.raw(",\"collections\":[")
            for (c, info) in order.enumerated() {
                if c > 0 { m.raw(",") }
                m.raw("{"); m.key("name"); m.string(info.name)
                m.raw(","); m.key("title"); m.string(info.title)
                m.raw(",\"count\":\(members[c].count),"); m.key("scopes"); m.strings(scopes(info, c))
                m.raw(",\"docs\":")
                if inline || tablesJSON[c].utf8.count < 16 * 1024 {
                    m.raw(tablesJSON[c])
                } else {
                    let name = "docs-\(c).json"
                    m.string(name)
                    files.append((name, Array((tablesJSON[c] + "\n").utf8)))
                }
                m.raw("}")
            }
            m.raw("]")
        }
        func scopes(_ info: SearchCollectionInfo, _ c: Int) -> [String] {
            Self.scopes(info, members[c].map { docs[$0] })
        }

        var m = JSONWriter()
        m.raw("{\"version\":\(IndexFormat.version),")
        m.key("base"); m.string(base)
        if words.entryBytes <= shardThreshold {
            m.raw(",\"shards\":0")
            collections(&m)
            var bytes = Array(m.out.utf8)
            bytes += Array(",\"words\":".utf8)
            words.writeObject((ranked ?? Array(0..<words.count).sorted(by: words.less)).map { ($0, true) }, into: &bytes)
            bytes += Array("}\n".utf8)
            return [("manifest.json", bytes)]
        }

        let target = max(shardTarget, words.estimatedBytes / 1024)
        let bounds = words.packBuckets(target: target)
        m.raw(",\"shards\":\(bounds.count + 1),\"bounds\":"); m.ints(bounds)
        collections(&m)
        m.raw("}\n")
        files.insert(("manifest.json", Array(m.out.utf8)), at: 0)
        let shards: (files: [(String, [UInt8])], unions: [[UInt8]])
        if live, let cache = shardCache, cache.bounds == bounds, let touched = words.touchedBuckets, !renumber {
            shards = words.shards(bounds: bounds, rank: ranked, unionFanOut: unionFanOut, touching: touched, previous: (cache.files, cache.unions))
        } else {
            shards = words.shards(bounds: bounds, rank: ranked, unionFanOut: unionFanOut)
        }
        if live { shardCache = (bounds, shards.files, shards.unions) }
        files += shards.files
        for (n, union) in shards.unions.enumerated() where !union.isEmpty { files.append((IndexFormat.unionFileName(n), union)) }
        return files
    }

    /// The words in byte order, from the last render's order: words gone are dropped, new
    /// ones merged in, so a rebuild after an edit sorts only the words it added.
    private mutating func rankLive(_ words: WordList) -> [Int] {
        var global: [[Int32]] = tables.map { [Int32](repeating: -1, count: $0.count) }
        for g in 0..<words.count { let r = words.ref(g); global[Int(r.table)][Int(r.id)] = Int32(g) }
        var kept: [Int] = []
        kept.reserveCapacity(words.count)
        var placed = [Bool](repeating: false, count: words.count)
        for r in wordOrder where Int(r.id) < global[Int(r.table)].count {
            let g = Int(global[Int(r.table)][Int(r.id)])
            if g >= 0 { kept.append(g); placed[g] = true }
        }
        let added = (0..<words.count).filter { !placed[$0] }.sorted(by: words.less)
        var rank: [Int] = []
        rank.reserveCapacity(words.count)
        var a = 0, b = 0
        while a < kept.count || b < added.count {
            if b == added.count || (a < kept.count && words.less(kept[a], added[b])) { rank.append(kept[a]); a += 1 }
            else { rank.append(added[b]); b += 1 }
        }
        wordOrder = rank.map(words.ref)
        return rank
    }

    static func normalizedBase(_ baseURL: String) -> String {
        // Only the path of an absolute base URL matters to links inside the site.
        var path = baseURL
        if let url = URL(string: baseURL), url.scheme != nil { path = url.path }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }

    static func scopes(_ info: SearchCollectionInfo, _ docs: [SearchDigest]) -> [String] {
        var scopes = info.scopes
        if scopes.isEmpty {
            for d in docs { if let s = d.scope, !scopes.contains(s) { scopes.append(s) } }
        }
        return scopes
    }

    /// A collection's document table: scopes, slugs, URL exceptions and searched fields.
    static func table(_ info: SearchCollectionInfo, _ docs: [SearchDigest]) -> String {
        let scopes = Self.scopes(info, docs)
        var fieldNames: [String] = []
        for d in docs { for n in d.fieldNames where !fieldNames.contains(n) { fieldNames.append(n) } }
        if fieldNames.isEmpty { fieldNames = ["title"] }

        var j = JSONWriter()
        j.raw("{")
        var scopeValues: [String]?
        if !scopes.isEmpty {
            let index = Dictionary(scopes.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let ids = docs.map { d in d.scope.flatMap { index[$0] } ?? scopes.count }
            j.raw("\"scope\":"); j.string(IndexFormat.codes(ids, limit: scopes.count + 1)); j.raw(",")
            scopeValues = ids.map { $0 < scopes.count ? scopes[$0] : "" }
        }
        j.raw("\"slugs\":[")
        let derived = ParallelMap.map(docs) { IndexFormat.derivedSlug($0.title) == $0.slug }
        for (i, d) in docs.enumerated() {
            if i > 0 { j.raw(",") }
            j.string(derived[i] ? "" : d.slug)
        }
        j.raw("]")
        var urls: [(Int, String)] = []
        for (i, d) in docs.enumerated() where d.url != "\(info.name)/\(d.slug)/" { urls.append((i, d.url)) }
        if !urls.isEmpty {
            j.raw(",\"urls\":{")
            for (k, (i, u)) in urls.enumerated() {
                if k > 0 { j.raw(",") }
                j.key(String(i)); j.string(u)
            }
            j.raw("}")
        }
        j.raw(",\"fields\":[")
        for (f, name) in fieldNames.enumerated() {
            if f > 0 { j.raw(",") }
            let values = docs.map { d -> String in
                if f == 0 { return d.title }
                return d.fieldNames.firstIndex(of: name).map { d.fieldValues[$0] } ?? ""
            }
            writeColumn(name, values, scopes: f > 0 ? scopeValues : nil, into: &j)
        }
        j.raw("]}")
        return j.out
    }

    /// A field column: the scope itself when it always equals it, else its values,
    /// dictionary-coded when few distinct values repeat.
    private static func writeColumn(_ name: String, _ values: [String], scopes: [String]?, into j: inout JSONWriter) {
        j.raw("{"); j.key("name"); j.string(name)
        if let scopes, scopes == values {
            j.raw(",\"scope\":true}")
            return
        }
        var distinct: [String] = []
        var index: [String: Int] = [:]
        for v in values where index[v] == nil { index[v] = distinct.count; distinct.append(v) }
        let coded = distinct.count * 4 <= values.count
        j.raw(","); j.key("values"); j.strings(coded ? distinct : values)
        if coded {
            j.raw(",\"ids\":")
            j.string(IndexFormat.codes(values.map { index[$0]! }, limit: distinct.count))
        }
        j.raw("}")
    }
}

/// The first error any worker met.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var error: Error?
    func set(_ e: Error) { lock.lock(); if error == nil { error = e }; lock.unlock() }
}

// MARK: - Word tables

/// A word's 64-bit hash: FNV-1a, then a finalizer so that high and low bits both mix.
let wordHashSeed: UInt64 = 0xCBF2_9CE4_8422_2325

@inline(__always)
func finishWordHash(_ fnv: UInt64) -> UInt64 {
    var h = fnv
    h ^= h >> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    return h
}

@inline(__always)
private func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    // Words are short: a byte loop beats a call to memcmp.
    if n > 24 { return memcmp(a, b, n) == 0 }
    for i in 0..<n where a[i] != b[i] { return false }
    return true
}

/// One document's distinct words: an open-addressing set over the words' bytes.
struct LocalWordSet {
    var bytes: [UInt8] = []
    var ends: [UInt32] = []
    var hashes: [UInt64] = []
    private var slots: [Int32] = []

    mutating func reserve(_ n: Int) {
        var cap = 64
        while cap < n * 2 { cap <<= 1 }
        slots = [Int32](repeating: -1, count: cap)
        bytes.reserveCapacity(n * 4)
        ends.reserveCapacity(n / 2)
        hashes.reserveCapacity(n / 2)
    }

    @inline(__always)
    mutating func insert(_ buf: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ h: UInt64) {
        let word = UnsafeBufferPointer(rebasing: buf[start..<end])
        let len = end - start
        var mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h >> 32) & mask
        while true {
            let id = Int(slots[i])
            if id < 0 { break }
            if hashes[id] == h {
                let s = id == 0 ? 0 : Int(ends[id - 1]), e = Int(ends[id])
                if e - s == len && bytes.withUnsafeBufferPointer({ sameBytes($0.baseAddress! + s, word.baseAddress!, len) }) { return }
            }
            i = (i + 1) & mask
        }
        slots[i] = Int32(hashes.count)
        bytes.append(contentsOf: word)
        ends.append(UInt32(bytes.count))
        hashes.append(h)
        if hashes.count * 2 > slots.count { growSlots(&slots, &mask, hashes) }
    }
}

/// The words of one partition with their postings (add order), touched by one thread at a time.
final class WordTable: @unchecked Sendable {
    var bytes: [UInt8] = []
    var ends: [UInt32] = []
    var hashes: [UInt64] = []
    /// (word id << 32 | document) for every word of every document, in add order.
    var pairs: [UInt64] = []
    private var slots = [Int32](repeating: -1, count: 1 << 12)
    /// A live table keeps its pairs after a render, and per word what the render computed.
    var keepsPairs = false
    /// Per word: encoded postings ("" once it has none), primary bucket, secondary buckets.
    var memo: (encoded: [[UInt8]], bucket: [Int32], secondary: [[Int32]])?
    /// Words whose postings changed since the last render.
    var dirty: Set<Int32> = []

    /// Replaces a document's words: its pairs go, its new words' pairs come (at the end, so
    /// the postings of the words touched are sorted again when rendered).
    func replace(document: Int32, with digest: SearchDigest, part: UInt64, parts: UInt64) {
        var kept = 0
        var removed: [Int32] = []
        pairs.withUnsafeMutableBufferPointer { all in
            for k in all.indices {
                let p = all[k]
                if Int32(truncatingIfNeeded: p) == document {
                    removed.append(Int32(p >> 32))
                } else {
                    all[kept] = p
                    kept += 1
                }
            }
        }
        pairs.removeLast(pairs.count - kept)
        merge([digest], first: document, part: part, parts: parts)
        // Words the document kept keep their postings; only those it lost or gained change.
        let before = Set(removed)
        let after = Set(pairs[kept...].map { Int32($0 >> 32) })
        dirty.formUnion(before.symmetricDifference(after))
    }

    /// The postings of some words, ascending.
    func postings(of words: Set<Int32>) -> [Int32: [Int32]] {
        var slot = [Int32](repeating: -1, count: count)
        var lists: [[Int32]] = []
        for w in words { slot[Int(w)] = Int32(lists.count); lists.append([]) }
        pairs.withUnsafeBufferPointer { all in
            slot.withUnsafeBufferPointer { slot in
                for p in all {
                    let s = slot[Int(p >> 32)]
                    if s >= 0 { lists[Int(s)].append(Int32(truncatingIfNeeded: p)) }
                }
            }
        }
        var out: [Int32: [Int32]] = [:]
        for w in words { out[w] = lists[Int(slot[Int(w)])].sorted() }
        return out
    }

    var count: Int { ends.count }

    /// Every word's documents, ascending: a counting sort of `pairs` by word.
    func postings() -> [[Int32]] {
        var counts = [Int](repeating: 0, count: count)
        for p in pairs { counts[Int(p >> 32)] += 1 }
        var out = counts.map { n -> [Int32] in var a = [Int32](); a.reserveCapacity(n); return a }
        for p in pairs { out[Int(p >> 32)].append(Int32(truncatingIfNeeded: p)) }
        return out
    }

    func word(_ id: Int) -> ArraySlice<UInt8> {
        bytes[(id == 0 ? 0 : Int(ends[id - 1]))..<Int(ends[id])]
    }

    /// Adds the words of `batch` whose hash falls in `part`; document numbers start at `first`.
    func merge(_ batch: [SearchDigest], first: Int32, part: UInt64, parts: UInt64) {
        // Locals, moved out of the object, skip exclusivity checks and copy-on-write tests.
        var bytes: [UInt8] = [], ends: [UInt32] = [], hashes: [UInt64] = [], pairs: [UInt64] = []
        var slots: [Int32] = []
        swap(&bytes, &self.bytes); swap(&ends, &self.ends); swap(&hashes, &self.hashes)
        swap(&pairs, &self.pairs); swap(&slots, &self.slots)
        defer {
            swap(&bytes, &self.bytes); swap(&ends, &self.ends); swap(&hashes, &self.hashes)
            swap(&pairs, &self.pairs); swap(&slots, &self.slots)
        }
        // Doubling, not the exact size: reserving exactly reallocated and copied every pair
        // at every flush, quadratic in the site's size.
        let needed = pairs.count + batch.reduce(0) { $0 + $1.wordEnds.count } / Int(parts) + 1024
        if pairs.capacity < needed { pairs.reserveCapacity(max(needed, pairs.capacity * 2)) }
        var mask = slots.count - 1
        for (k, d) in batch.enumerated() {
            let doc = first + Int32(k)
            d.wordBytes.withUnsafeBufferPointer { words in
                var start = 0
                for (w, end) in d.wordEnds.enumerated() {
                    let h = d.wordHashes[w]
                    defer { start = Int(end) }
                    guard h % parts == part else { continue }
                    let len = Int(end) - start
                    var i = Int(truncatingIfNeeded: h >> 32) & mask
                    var found = -1
                    while true {
                        let id = Int(slots[i])
                        if id < 0 { break }
                        if hashes[id] == h {
                            let s = id == 0 ? 0 : Int(ends[id - 1])
                            if Int(ends[id]) - s == len
                                && bytes.withUnsafeBufferPointer({ sameBytes($0.baseAddress! + s, words.baseAddress! + start, len) }) {
                                found = id
                                break
                            }
                        }
                        i = (i + 1) & mask
                    }
                    if found >= 0 { pairs.append(UInt64(found) << 32 | UInt64(UInt32(doc))); continue }
                    pairs.append(UInt64(hashes.count) << 32 | UInt64(UInt32(doc)))
                    slots[i] = Int32(hashes.count)
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: words[start..<Int(end)]))
                    ends.append(UInt32(bytes.count))
                    hashes.append(h)
                    if hashes.count * 2 > slots.count { growSlots(&slots, &mask, hashes) }
                }
            }
        }
    }
}

/// A word by its table and its id there.
struct WordRef {
    var table: Int32
    var id: Int32
}

/// Every word of every partition, numbered, with its encoded postings and the buckets it is
/// filed under; lays the words out into shards.
struct WordList {
    /// Per word: its table and id in that table.
    private var table: [Int32] = []
    private var id: [Int32] = []
    private var encoded: [[UInt8]] = []
    private var bucket: [Int32] = []
    /// Buckets of the trigrams at code point offsets 1 … length−3, other than `bucket`.
    private var secondary: [[Int32]] = []
    /// The documents of each word whose postings go by reference (`@`) elsewhere, when this
    /// render computed them (else empty: decoded when a union needs them).
    private var ids: [[Int32]] = []
    private let tables: [WordTable]
    private(set) var entryBytes = 0
    private(set) var estimatedBytes = 0
    /// Buckets of the words whose postings changed since a live table's last render (gone
    /// words included); nil when every word was computed afresh.
    private(set) var touchedBuckets: Set<Int32>?
    private var bucketBytes = [Int](repeating: 0, count: IndexFormat.buckets)

    var count: Int { table.count }

    init(tables: [WordTable], renumber: [Int32]?) {
        self.tables = tables
        struct Part { var encoded: [[UInt8]] = []; var bucket: [Int32] = []; var secondary: [[Int32]] = []; var ids: [Int: [Int32]] = [:]; var touched: Set<Int32>? }
        let parts = UnsafeMutableBufferPointer<Part>.allocate(capacity: tables.count)
        parts.initialize(repeating: Part())
        defer { parts.deinitialize(); parts.deallocate() }
        let box = UncheckedBox(parts)
        SearchIndexBuilder.parallel(tables.count) { p in
            let t = tables[p]
            var part = Part()
            if renumber == nil, let memo = t.memo {
                // A live table: only the words touched since the last render, and new ones, are computed.
                part = Part(encoded: memo.encoded, bucket: memo.bucket, secondary: memo.secondary)
                var touched = t.dirty
                for w in part.encoded.count..<t.count { touched.insert(Int32(w)) }
                let postings = t.postings(of: touched)
                for w in part.encoded.count..<t.count {
                    let (b, sec) = Self.buckets(t, w)
                    part.encoded.append([]); part.bucket.append(b); part.secondary.append(sec)
                }
                var buckets: Set<Int32> = []
                for (w, ids) in postings {
                    part.encoded[Int(w)] = ids.isEmpty ? [] : Array(IndexFormat.encodePostings(ids).utf8)
                    buckets.insert(part.bucket[Int(w)])
                    buckets.formUnion(part.secondary[Int(w)])
                }
                part.touched = buckets
            } else {
                part.encoded.reserveCapacity(t.count)
                let postings = t.postings()
                for w in 0..<t.count {
                    var ids = postings[w]
                    if let renumber {
                        for k in ids.indices { ids[k] = renumber[Int(ids[k])] }
                        ids.sort()
                    }
                    part.encoded.append(Array(IndexFormat.encodePostings(ids).utf8))
                    if part.encoded[w].count > 8 { part.ids[w] = ids }
                    let (b, sec) = Self.buckets(t, w)
                    part.bucket.append(b)
                    part.secondary.append(sec)
                }
            }
            if t.keepsPairs && renumber == nil {
                t.memo = (part.encoded, part.bucket, part.secondary)
            } else {
                t.pairs = []
                t.memo = nil
            }
            t.dirty = []
            box.value[p] = part
        }
        if parts.allSatisfy({ $0.touched != nil }) {
            touchedBuckets = parts.reduce(into: Set<Int32>()) { $0.formUnion($1.touched!) }
        }
        for (p, part) in parts.enumerated() {
            for w in 0..<part.encoded.count where !part.encoded[w].isEmpty {
                table.append(Int32(p)); id.append(Int32(w))
                let wordLength = tables[p].word(w).count
                let entry = wordLength + part.encoded[w].count + 6
                entryBytes += entry
                bucketBytes[Int(part.bucket[w])] += entry
                let reference = wordLength + (part.encoded[w].count <= 8 ? part.encoded[w].count : 1) + 6
                for b in part.secondary[w] { bucketBytes[Int(b)] += reference }
                encoded.append(part.encoded[w])
                bucket.append(part.bucket[w])
                secondary.append(part.secondary[w])
                ids.append(part.ids[w] ?? [])
            }
        }
        estimatedBytes = bucketBytes.reduce(0, +)
    }

    /// A word's primary bucket (of its key) and the other buckets of its trigrams at code
    /// point offsets 1 … length−3.
    private static func buckets(_ t: WordTable, _ w: Int) -> (Int32, [Int32]) {
        t.bytes.withUnsafeBufferPointer { all in
            let s = w == 0 ? 0 : Int(t.ends[w - 1])
            let word = UnsafeBufferPointer(rebasing: all[s..<Int(t.ends[w])])
            var starts: [Int] = []
            codePointStarts(word, into: &starts)
            let primary = Int32(IndexFormat.bucket(ofKeyBytes: word[0..<starts[min(3, starts.count - 1)]]))
            var sec: [Int32] = []
            if starts.count - 1 >= 4 {
                for i in 1...(starts.count - 4) {
                    let b = Int32(IndexFormat.bucket(ofKeyBytes: word[starts[i]..<starts[i + 3]]))
                    if b != primary && !sec.contains(b) { sec.append(b) }
                }
            }
            return (primary, sec)
        }
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

    /// Contiguous runs of buckets of about `target` bytes each: the first bucket of every
    /// shard but the first.
    func packBuckets(target: Int) -> [Int] {
        var bounds: [Int] = []
        var size = 0
        for b in 0..<IndexFormat.buckets {
            if size > 0 && size + bucketBytes[b] / 2 > target {
                bounds.append(b)
                size = 0
            }
            size += bucketBytes[b]
        }
        return bounds
    }

    /// `{"word":"postings",…}` for the given words, each with its postings (primary) or as a
    /// secondary entry (postings when they take at most 8 characters, else `@`).
    func writeObject(_ list: [(Int, Bool)], markers: [[UInt8]] = [], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (k, gram) in markers.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            Self.jsonString([0x20] + gram, into: &out)
            out += Array(":\"\"".utf8)
        }
        for (k, (g, primary)) in list.enumerated() {
            if k > 0 || !markers.isEmpty { out.append(UInt8(ascii: ",")) }
            Self.jsonString(word(g), into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(UInt8(ascii: "\""))
            if primary || encoded[g].count <= 8 { out += encoded[g] } else { out.append(UInt8(ascii: "@")) }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
    }

    static func jsonString(_ s: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Above this many shards among its `@` words, a string's union is stored: at 100k items 8
    /// (not 32) took `roux` from 33 requests and 3.3 MB gzip to 4 and 0.94 MB, for an index of 118
    /// MB instead of 84 (docs/search-index.md, "Unions").
    static let unionFanOut = 8

    /// The shard files: every word in the shard of its bucket, and as a secondary entry in the
    /// shards of its other trigrams; and per shard its union file (empty when it has none).
    /// With `touching` and `previous` (the files of the last render, cut at the same bounds),
    /// only the shards of those buckets are written again.
    func shards(bounds: [Int], rank known: [Int]? = nil, unionFanOut: Int = WordList.unionFanOut, touching: Set<Int32>? = nil,
                previous: (files: [(String, [UInt8])], unions: [[UInt8]])? = nil) -> (files: [(String, [UInt8])], unions: [[UInt8]]) {
        let count = bounds.count + 1
        var shardOf = [Int32](repeating: 0, count: IndexFormat.buckets)
        for b in 0..<IndexFormat.buckets { shardOf[b] = Int32(IndexFormat.shard(ofBucket: b, bounds: bounds)) }
        var redo = [Bool](repeating: true, count: count)
        if let touching, let previous, previous.files.count == count, previous.unions.count == count {
            redo = [Bool](repeating: false, count: count)
            for b in touching { redo[Int(shardOf[Int(b)])] = true }
        }
        // A global rank by bytes makes every shard's order a sort of integers.
        let rank = known ?? Array(0..<self.count).sorted(by: less)
        var position = [Int32](repeating: 0, count: self.count)
        for (r, g) in rank.enumerated() { position[g] = Int32(r) }
        var lists = [[(Int, Bool)]](repeating: [], count: count)
        for g in 0..<self.count {
            let primary = Int(shardOf[Int(bucket[g])])
            lists[primary].append((g, true))
            var seen: [Int] = []
            for b in secondary[g] {
                let s = Int(shardOf[Int(b)])
                if s != primary && !seen.contains(s) { seen.append(s); lists[s].append((g, false)) }
            }
        }
        let out = UnsafeMutableBufferPointer<(String, [UInt8])>.allocate(capacity: count)
        out.initialize(repeating: ("", []))
        defer { out.deinitialize(); out.deallocate() }
        let unionOut = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: count)
        unionOut.initialize(repeating: [])
        defer { unionOut.deinitialize(); unionOut.deallocate() }
        let box = UncheckedBox((out, unionOut, lists, position, shardOf))
        let workers = max(1, ParallelMap.jobs)
        SearchIndexBuilder.parallel(min(workers, count)) { w in
            let (out, unionOut, lists, position, shardOf) = box.value
            for s in stride(from: w, to: count, by: workers) {
                if !redo[s], let previous {
                    out[s] = previous.files[s]
                    unionOut[s] = previous.unions[s]
                    continue
                }
                let list = lists[s].sorted { position[$0.0] < position[$1.0] }
                let unions = self.unions(list, shard: Int32(s), shardOf: shardOf, fanOut: unionFanOut)
                var bytes: [UInt8] = []
                writeObject(list, markers: unions.map(\.gram), into: &bytes)
                bytes.append(0x0A)
                out[s] = (IndexFormat.shardFileName(s), bytes)
                if !unions.isEmpty {
                    var u: [UInt8] = [UInt8(ascii: "{")]
                    for (k, entry) in unions.enumerated() {
                        if k > 0 { u.append(UInt8(ascii: ",")) }
                        Self.jsonString(entry.gram[...], into: &u)
                        u.append(UInt8(ascii: ":"))
                        Self.jsonString(Array(entry.postings.utf8)[...], into: &u)
                    }
                    u += Array("}\n".utf8)
                    unionOut[s] = u
                }
            }
        }
        return (Array(out), Array(unionOut))
    }

    /// The unions of a shard: for each three- or four-code-point string of this shard (its
    /// first three code points file it here) found at offset 1 or later in words stored here
    /// as `@`, when those words' own shards are more than `fanOut`, the union of their
    /// postings; sorted by the string's bytes.
    func unions(_ list: [(Int, Bool)], shard s: Int32, shardOf: [Int32], fanOut: Int) -> [(gram: [UInt8], postings: String)] {
        // Strings of up to 7 bytes (every ASCII one) are keyed by their bytes packed with their
        // length, which hashes far faster than an array; longer ones by their bytes.
        var packed: [UInt64: (gram: ArraySlice<UInt8>, members: [Int])] = [:]
        var long: [[UInt8]: [Int]] = [:]
        var starts: [Int] = []
        for (g, primary) in list where !primary && encoded[g].count > 8 {
            let w = word(g)
            Self.codePointStarts(w, into: &starts)
            let length = starts.count - 1
            guard length >= 4 else { continue }
            for o in 1...(length - 3) {
                guard shardOf[IndexFormat.bucket(ofKeyBytes: w[starts[o]..<starts[o + 3]])] == s else { continue }
                for end in [o + 3, o + 4] where end <= length {
                    let gram = w[starts[o]..<starts[end]]
                    if gram.count <= 7 {
                        var key = UInt64(gram.count)
                        for b in gram { key = key << 8 | UInt64(b) }
                        if packed[key] == nil { packed[key] = (gram, [g]) }
                        else if packed[key]!.members.last != g { packed[key]!.members.append(g) }
                    } else if long[Array(gram)]?.last != g {
                        long[Array(gram), default: []].append(g)
                    }
                }
            }
        }
        var groups: [([UInt8], [Int])] = long.filter { $0.value.count > fanOut }.map { ($0.key, $0.value) }
        for entry in packed.values where entry.members.count > fanOut { groups.append((Array(entry.gram), entry.members)) }
        var out: [(gram: [UInt8], postings: String)] = []
        var decoded: [Int: [Int32]] = [:]
        var bits: [UInt64] = []
        for (gram, members) in groups {
            var homes = Set<Int32>()
            for g in members { homes.insert(shardOf[Int(bucket[g])]) }
            guard homes.count > fanOut else { continue }
            bits.removeAll(keepingCapacity: true)
            for g in members {
                let ids = !self.ids[g].isEmpty ? self.ids[g] : decoded[g] ?? IndexFormat.decodePostings(String(decoding: encoded[g], as: UTF8.self))
                if self.ids[g].isEmpty { decoded[g] = ids }
                if let last = ids.last, Int(last) >> 6 >= bits.count { bits += [UInt64](repeating: 0, count: Int(last) >> 6 - bits.count + 1) }
                for d in ids { bits[Int(d) >> 6] |= 1 << UInt64(d & 63) }
            }
            var union: [Int32] = []
            for (k, word) in bits.enumerated() where word != 0 {
                var w = word
                while w != 0 {
                    union.append(Int32(k << 6 + w.trailingZeroBitCount))
                    w &= w - 1
                }
            }
            out.append((gram, IndexFormat.encodePostings(union)))
        }
        return out.sorted { $0.gram.lexicographicallyPrecedes($1.gram) }
    }
}

/// Doubles an open-addressing table of word ids and places every word again by its hash;
/// both word tables grow this way when half full.
@inline(__always)
fileprivate func growSlots(_ slots: inout [Int32], _ mask: inout Int, _ hashes: [UInt64]) {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    mask = slots.count - 1
    for (id, h) in hashes.enumerated() {
        var k = Int(truncatingIfNeeded: h >> 32) & mask
        while slots[k] >= 0 { k = (k + 1) & mask }
        slots[k] = Int32(id)
    }
}
