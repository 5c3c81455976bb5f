import Foundation
import Testing
@testable import SiftKit

/// The shared vectors in Tests/Fixtures/search-vectors.json, which the JavaScript tests read too.
struct SearchVectors {
    let root: [String: Any]

    init() throws {
        let data = try Data(contentsOf: Fixtures.url("search-vectors.json"))
        root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    var folds: [[String: Any]] { root["fold"] as! [[String: Any]] }
    var slugs: [[String: Any]] { root["slug"] as! [[String: Any]] }
    var derivedSlugs: [[String: Any]] { root["derivedSlug"] as! [[String: Any]] }
    var terms: [[String: Any]] { root["terms"] as! [[String: Any]] }
    var entropyCodes: [[String: Any]] { root["entropyCodes"] as! [[String: Any]] }
    var queries: [[String: Any]] { root["queries"] as! [[String: Any]] }

    /// Builds the vectors' collections into a fresh directory through the real writer.
    func build(shardThreshold: Int, unionFanOut: Int = ShardWriter.unionFanOut) throws -> URL {
        var builder = SearchIndexBuilder(shardThreshold: shardThreshold, shardTarget: 200)
        builder.unionFanOut = unionFanOut
        for c in root["collections"] as! [[String: Any]] {
            let name = c["name"] as! String
            builder.addCollection(SearchCollectionInfo(name: name, title: c["title"] as! String,
                                                       scopes: c["scopes"] as! [String]))
            for item in c["items"] as! [[String: Any]] {
                let slug = item["slug"] as! String
                let fields = (item["fields"] as! [[String]]).map { (name: $0[0], value: $0[1]) }
                var doc = SearchDocument(collection: name, slug: slug, title: item["title"] as! String,
                                         url: "\(name)/\(slug)/", scope: item["scope"] as? String,
                                         fields: fields, body: item["body"] as! String)
                doc.facets = (item["facets"] as? [[Any]] ?? []).map { (name: $0[0] as! String, values: $0[1] as! [String]) }
                doc.sortValues = (item["sort"] as? [[String]] ?? []).map { (name: $0[0], value: $0[1]) }
                if let sections = item["sections"] as? [[String]] { doc.excerptText = [""] + sections.joined() }
                builder.add(SearchIndexBuilder.digest(doc))
            }
        }
        let dir = temporaryFolder("sift-vectors").appendingPathComponent("search")
        try builder.write(to: dir, baseURL: "/")
        return dir
    }
}

@Test func foldVectors() throws {
    for v in try SearchVectors().folds {
        #expect(Fold.fold(v["in"] as! String) == v["out"] as! String, "fold \(v["in"]!)")
    }
}

@Test func slugVectors() throws {
    for v in try SearchVectors().slugs {
        #expect(Slug.make(v["in"] as! String) == v["out"] as! String)
    }
}

/// The slug a client derives where an index's `slugs` entry is empty; sift-core.js's `derivedSlug`
/// reads the same vectors (Tests/js/format.test.mjs).
@Test func derivedSlugVectors() throws {
    for v in try SearchVectors().derivedSlugs {
        #expect(IndexFormat.derivedSlug(v["title"] as! String) == v["slug"] as? String, "derived slug of \(v["title"]!)")
    }
}

/// Which terms are CJK terms (2 code points of them search bodies); sift-core.js's `isCJK` reads the same vectors.
@Test func cjkTermVectors() throws {
    for v in try SearchVectors().root["cjkTerms"] as! [[String: Any]] {
        #expect(IndexFormat.isCJK(v["term"] as! String) == v["cjk"] as! Bool, "\(v["term"]!)")
    }
}

/// Entropy-coded facet columns; sift-facets.js decodes the same codes (Tests/js/format.test.mjs).
@Test func entropyCodeVectors() throws {
    for v in try SearchVectors().entropyCodes {
        let frequencies = v["frequencies"] as! [Int], symbols = v["symbols"] as! [Int], code = v["code"] as! String
        #expect(EntropyCode.encode(symbols, frequencies: frequencies) == code, "\(v["note"]!)")
        #expect(EntropyCode.decode(code, frequencies: frequencies, count: symbols.count) == symbols, "\(v["note"]!)")
        #expect(EntropyCode.decode(code + "A", frequencies: frequencies, count: symbols.count) == nil, "\(v["note"]!)")
    }
    #expect(EntropyCode.frequencies([7000, 3000]) == [2867, 1229])
    #expect(EntropyCode.frequencies([9998, 1, 1]) == [4094, 1, 1])
}

@Test func termVectors() throws {
    for v in try SearchVectors().terms {
        #expect(Fold.terms(v["query"] as! String) == v["terms"] as! [String])
    }
}

@Test(arguments: [(1 << 30, ShardWriter.unionFanOut), (0, ShardWriter.unionFanOut), (0, 0)])
func queryVectors(shardThreshold: Int, unionFanOut: Int) throws {
    /// A vector's `filters` ({field: [values]}) as sift search --filter takes them, fields in order.
    func filters(_ v: [String: Any]) -> [(field: String, value: String)] {
        let selected = v["filters"] as? [String: [String]] ?? [:]
        return selected.keys.sorted().flatMap { f in selected[f]!.map { (field: f, value: $0) } }
    }
    let vectors = try SearchVectors()
    let index = try SearchIndex(directory: vectors.build(shardThreshold: shardThreshold, unionFanOut: unionFanOut))
    for v in vectors.queries {
        let query = v["query"] as! String
        let call = {
            try index.search(query, scope: v["scope"] as? String, collection: v["collection"] as? String,
                             filters: filters(v), sort: v["sort"] as? String, limit: v["limit"] as? Int)
        }
        if let error = v["error"] as? String {
            #expect(throws: SiftError.self, "\(query)") { try call() }
            do { _ = try call() } catch let e as SiftError { #expect(e.message.contains(error)) }
            continue
        }
        let response = try call()
        let expected = (v["results"] as! [[String: String]]).map { "\($0["slug"]!):\($0["match"]!)" }
        let got = response.results.map { "\($0.slug):\($0.match.rawValue)" }
        #expect(got == expected, "query \(query) (\(v["note"] ?? ""))")
        #expect(response.total == (v["total"] as? Int ?? expected.count), "total for \(query)")
        if let facets = v["facets"] as? [String: [String: Int]] {
            let got = Dictionary(uniqueKeysWithValues: response.facets.map { f in
                (f.field, Dictionary(uniqueKeysWithValues: f.values.map { ($0.value, $0.count) }))
            })
            #expect(got == facets, "facets for \(query) (\(v["note"] ?? ""))")
        }
    }
}

/// The vectors' index as built, checked in under Tests/Fixtures/search-index/ (`small`: one
/// file; `sharded`: every shard path; `unions`: sharded with every union written) so the node
/// tests load real files. A change fails here until re-recorded with `SIFT_RECORD=1 swift test`,
/// never silently.
@Test(arguments: [("small", 1 << 30, ShardWriter.unionFanOut), ("sharded", 0, ShardWriter.unionFanOut)])
func vectorIndexSnapshot(name: String, shardThreshold: Int, unionFanOut: Int) throws {
    try snapshot(name, SearchVectors().build(shardThreshold: shardThreshold, unionFanOut: unionFanOut))
}

/// A corpus whose frequent words hold common strings at many offsets, so its sharded index has
/// `@` entries whose own shards are many: `unions` is built with every union written,
/// `unions-off` with none; the node tests check both answer alike and count the fetches.
@Test(arguments: [("unions", 0), ("unions-off", Int.max)])
func unionIndexSnapshot(name: String, unionFanOut: Int) throws {
    try snapshot(name, UnionCorpus.build(unionFanOut: unionFanOut))
}

enum UnionCorpus {
    static let stems = ["harbor", "arbor", "corbel", "orbit", "torch", "porch", "chord", "anchor", "archive", "march"]

    static func documents(seed: UInt64 = 0x0A1B) -> [SearchDocument] {
        var rng = SeededRNG(state: seed)
        let affixes = ["", "b", "k", "st", "qu", "ze", "ly", "ing", "ed", "s", "ov", "ux", "ri"]
        return (0..<80).map { i in
            var words: [String] = []
            for _ in 0..<40 {
                let stem = stems.randomElement(using: &rng)!
                words.append(affixes.randomElement(using: &rng)! + stem + affixes.randomElement(using: &rng)!)
            }
            // C++'s names: bridges `x::h` of many first letters, each in a shard of its own, all holding `::h`.
            for _ in 0..<12 {
                words.append("\(Character(Unicode.Scalar(UInt8.random(in: 0x61...0x6C, using: &rng))))::\(stems.randomElement(using: &rng)!)")
            }
            return SearchDocument(collection: "places", slug: "place-\(i)", title: "Place \(i)", url: "places/place-\(i)/",
                                  scope: nil, fields: [(name: "title", value: "Place \(i)")], body: words.joined(separator: " "))
        }
    }

    static func builder(unionFanOut: Int) -> SearchIndexBuilder {
        var builder = SearchIndexBuilder(shardThreshold: 0, shardTarget: 1200)
        builder.unionFanOut = unionFanOut
        builder.addCollection(SearchCollectionInfo(name: "places", title: "Places", scopes: []))
        return builder
    }

    static func build(unionFanOut: Int) throws -> URL {
        var builder = self.builder(unionFanOut: unionFanOut)
        for doc in documents() { builder.add(SearchIndexBuilder.digest(doc)) }
        let dir = temporaryFolder("sift-unions").appendingPathComponent("search")
        try builder.write(to: dir, baseURL: "/")
        return dir
    }
}

/// Unions change which files a query reads, never its answer (the Swift reader ignores them).
@Test func unionsLeaveAnswersAlone() throws {
    let with = try SearchIndex(directory: UnionCorpus.build(unionFanOut: 0))
    let without = try SearchIndex(directory: UnionCorpus.build(unionFanOut: Int.max))
    let unionFiles = filesUnder(with.directory).filter { $0.hasPrefix("immutable/union.") }
    #expect(!unionFiles.isEmpty)
    for stem in UnionCorpus.stems {
        for n in 3...5 {
            for o in 0...(stem.count - n) {
                let q = String(stem.dropFirst(o).prefix(n))
                #expect(try with.search(q).results == without.search(q).results, "\(q)")
            }
        }
        for q in ["::" + stem, "e::" + stem, ":" + stem] {
            #expect(try with.search(q).results == without.search(q).results, "\(q)")
        }
    }
}

/// A live index (as `sift serve` keeps) rewrites only the shards an edit touches: its unions
/// must come out as a fresh build's, byte for byte, edit after edit.
@Test func unionsOfALiveIndexFollowEdits() throws {
    var docs = UnionCorpus.documents()
    let others = UnionCorpus.documents(seed: 0xE017)
    var live = UnionCorpus.builder(unionFanOut: 0)
    var keys = docs.indices.map { UInt64($0) }
    for (d, k) in zip(docs, keys) { live.add(SearchIndexBuilder.digest(d), key: k) }
    _ = try live.render(baseURL: "/")
    var rng = SeededRNG(state: 0x11FE)
    for step in 0..<6 {
        for _ in 0..<3 {
            let i = Int.random(in: 0..<docs.count, using: &rng)
            // One word swapped: the shard bounds hold, so only the touched shards are written again.
            var words = docs[i].body.split(separator: " ")
            words[Int.random(in: 0..<words.count, using: &rng)] = others[i].body.split(separator: " ")[step]
            docs[i].body = words.joined(separator: " ")
            keys[i] = UInt64(1_000 + step * 10 + i)
        }
        let records = zip(docs, keys).map { SearchRecord(item: "places/\($0.0.slug)", key: $0.1, digest: SearchIndexBuilder.digest($0.0)) }
        let updated = live.update(records, collections: [SearchCollectionInfo(name: "places", title: "Places", scopes: [])])
        #expect(updated)
        var fresh = UnionCorpus.builder(unionFanOut: 0)
        for d in docs { fresh.add(SearchIndexBuilder.digest(d)) }
        let got = try live.render(baseURL: "/"), want = try fresh.render(baseURL: "/")
        #expect(got.map(\.0) == want.map(\.0), "step \(step)")
        #expect(got.contains { $0.0.hasPrefix("union-") })
        for (a, b) in zip(got, want) where a.1 != b.1 { Issue.record("step \(step): \(a.0) differs from a fresh build") }
    }
}

func snapshot(_ name: String, _ built: URL) throws {
    let fm = FileManager.default
    let snapshot = Fixtures.url("search-index").appendingPathComponent(name)
    let files = filesUnder(built)
    if ProcessInfo.processInfo.environment["SIFT_RECORD"] == "1" {
        try? fm.removeItem(at: snapshot)
        for f in files {
            let target = snapshot.appendingPathComponent(f)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(at: built.appendingPathComponent(f), to: target)
        }
        return
    }
    let recorded = filesUnder(snapshot)
    #expect(recorded == files, "Tests/Fixtures/search-index/\(name) is out of date: SIFT_RECORD=1 swift test")
    for f in files where recorded.contains(f) {
        let same = try Data(contentsOf: built.appendingPathComponent(f)) == Data(contentsOf: snapshot.appendingPathComponent(f))
        #expect(same, "\(name)/\(f) differs from the build: SIFT_RECORD=1 swift test")
    }
}
