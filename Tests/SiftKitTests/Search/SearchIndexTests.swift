import Foundation
import Testing
@testable import SiftKit

/// A small seeded generator (SplitMix64), so failures reproduce.
struct SeededRNG: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private let syllables = ["cho", "co", "la", "te", "Ba", "ré", "Côte", "d'I", "voi", "ße", "İs", "tan", "ΣΟΦ", "ία",
                         "俄", "罗", "斯", "日本", "한", "국", "カ", "ナ", "😀", "ﬁ", "Ａ", "ñ", "ö", "-", "x", "q"]

private func randomText(_ rng: inout SeededRNG, words: Int) -> String {
    (0..<words).map { _ in
        (0..<Int.random(in: 1...3, using: &rng)).map { _ in syllables.randomElement(using: &rng)! }.joined()
    }.joined(separator: Bool.random(using: &rng) ? " " : "  ")
}

/// Alters case and accents of a query cut from a title, as a visitor might type it.
private func mangle(_ s: String, _ rng: inout SeededRNG) -> String {
    var out = ""
    for ch in s {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: out += ch.uppercased()
        case 1: out += String(ch).decomposedStringWithCanonicalMapping
        case 2 where ch == "o": out += "ô"
        default: out.append(ch)
        }
    }
    return out
}

private func buildRandomSite(seed: UInt64, count: Int, shardThreshold: Int)
    throws -> (SearchIndex, [SearchDocument])
{
    var rng = SeededRNG(state: seed)
    var docs: [SearchDocument] = []
    var builder = SearchIndexBuilder(shardThreshold: shardThreshold, shardTarget: 512)
    builder.addCollection(SearchCollectionInfo(name: "things", title: "Things", scopes: ["One", "Two"]))
    for i in 0..<count {
        let title = randomText(&rng, words: Int.random(in: 1...4, using: &rng))
        let doc = SearchDocument(collection: "things", slug: "t\(i)", title: title, url: "things/t\(i)/",
                                 scope: Bool.random(using: &rng) ? "One" : "Two",
                                 fields: [("title", title), ("tag", randomText(&rng, words: 1))],
                                 body: randomText(&rng, words: Int.random(in: 0...30, using: &rng)))
        docs.append(doc)
        builder.add(SearchIndexBuilder.digest(doc))
    }
    let dir = temporaryFolder("sift-prop")
    try builder.write(to: dir, baseURL: "/")
    return (try SearchIndex(directory: dir), docs)
}

@Test(arguments: [(UInt64(1), 1 << 30), (UInt64(2), 0), (UInt64(3), 0), (UInt64(4), 1 << 30)])
func matchesEqualLinearFilter(seed: UInt64, shardThreshold: Int) throws {
    let (index, docs) = try buildRandomSite(seed: seed, count: 150, shardThreshold: shardThreshold)
    var rng = SeededRNG(state: seed &* 7919)
    let foldedFields = docs.map { $0.fields.map { Fold.fold($0.value) } }
    let foldedBodies = docs.map { Fold.fold($0.body) }
    for _ in 0..<120 {
        // A query cut from a title or a body, with case and accents changed.
        let source = Bool.random(using: &rng) ? docs.randomElement(using: &rng)!.title
                                                : docs.randomElement(using: &rng)!.body
        let scalars = Array(source.unicodeScalars)
        guard !scalars.isEmpty else { continue }
        let start = Int.random(in: 0..<scalars.count, using: &rng)
        let end = min(scalars.count, start + Int.random(in: 1...8, using: &rng))
        let query = mangle(String(String.UnicodeScalarView(scalars[start..<end])), &rng)
        let terms = Fold.terms(query)
        guard !terms.isEmpty else { continue }

        let response = try index.search(query)
        let field = Set(response.results.filter { $0.match == .field }.map(\.slug))
        let found = Set(response.results.filter { $0.match != .fuzzy }.map(\.slug))
        let expectedField = Set(docs.indices.filter { d in
            terms.allSatisfy { t in foldedFields[d].contains { IndexFormat.contains($0, t) } }
        }.map { docs[$0].slug })
        #expect(field == expectedField, "field matches for \(query)")
        for d in docs.indices {
            let holds = terms.allSatisfy { t in
                foldedFields[d].contains { IndexFormat.contains($0, t) } || (t.unicodeScalars.count >= 3 && IndexFormat.contains(foldedBodies[d], t))
            }
            if holds { #expect(found.contains(docs[d].slug), "missed \(docs[d].slug) for \(query)") }
        }
    }
}

@Test func writesIdenticalBytesTwice() throws {
    func build() throws -> [String: Data] {
        var rng = SeededRNG(state: 42)
        var builder = SearchIndexBuilder(shardThreshold: 0, shardTarget: 300)
        for i in 0..<80 {
            let title = randomText(&rng, words: 2)
            builder.add(SearchIndexBuilder.digest(SearchDocument(
                collection: "c", slug: "s\(i)", title: title, url: "c/s\(i)/", fields: [("title", title)],
                body: randomText(&rng, words: 20))))
        }
        let dir = temporaryFolder("sift-det")
        try builder.write(to: dir, baseURL: "/docs/")
        var out: [String: Data] = [:]
        for name in filesUnder(dir) {
            out[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return out
    }
    let a = try build(), b = try build()
    #expect(a.count > 2)
    #expect(a == b)
}

@Test func invalidQueriesNeverCrash() throws {
    let (index, docs) = try buildRandomSite(seed: 9, count: 40, shardThreshold: 0)
    #expect(try index.search("").total == docs.count)
    #expect(try index.search(" \t\n ").total == docs.count)
    #expect(try index.search("\u{FFFD}\u{FFFD}x").results.allSatisfy { _ in true })
    let long = String(repeating: "chocolate ", count: 1000)
    #expect(try index.search(long).total >= 0)
    #expect(try index.search(String(repeating: "x", count: 10_000)).total == 0)
    #expect(throws: SiftError.self) { try index.search("a", scope: "Three") }
    #expect(throws: SiftError.self) { try index.search("a", collection: "nope") }
}

@Test func unknownScopeMessage() throws {
    let (index, _) = try buildRandomSite(seed: 5, count: 5, shardThreshold: 1 << 30)
    do {
        _ = try index.search("a", scope: "Soft")
        Issue.record("expected an error")
    } catch let e as SiftError {
        #expect(e.line == "error: unknown scope “Soft” (scopes: All, One, Two)")
    }
}

@Test func jsonShape() throws {
    let r = SearchResponse(query: "a\"b", scope: "All", total: 2, results: [
        SearchResult(collection: "candies", slug: "caramel", title: "Caramel", url: "/candies/caramel/",
                     scope: nil, match: .body)])
    #expect(r.json() == #"{"query":"a\"b","scope":"All","total":2,"facets":{},"results":[{"collection":"candies","slug":"caramel","title":"Caramel","url":"/candies/caramel/","scope":null,"match":"body"}]}"#)
}

@Test func postingsRoundTrip() {
    for ids: [Int32] in [[], [0], [5, 6, 7, 300, 100_000], Array(0..<64), [1, 3, 5, 7, 9, 11, 13, 15, 17]] {
        #expect(IndexFormat.decodePostings(IndexFormat.encodePostings(ids)) == ids)
    }
}

/// The length a shard's cut counts for postings not yet encoded (`WordList` encodes only the
/// shards an edit lays out) is the length they take once encoded, varints or bitmap.
@Test func postingsLengthWithoutEncoding() {
    var rng = SeededRNG(state: 20)
    var lists: [[Int32]] = [[], [0], [127], [128], [16_383], [16_384], [2_097_152], [268_435_456], Array(0..<64), [5, 6, 7, 300, 100_000]]
    for _ in 0..<300 {
        let density = Double.random(in: 0.001...0.9, using: &rng), span = Int.random(in: 1...40_000, using: &rng)
        lists.append((0..<span).filter { _ in Double.random(in: 0..<1, using: &rng) < density }.map { Int32($0) })
    }
    for ids in lists { #expect(IndexFormat.encodedLength(ids) == IndexFormat.encodePostings(ids).utf8.count, "\(ids.prefix(8))… of \(ids.count)") }
}

@Test func baseURLPathIsKept() throws {
    var builder = SearchIndexBuilder()
    builder.add(SearchIndexBuilder.digest(SearchDocument(
        collection: "candies", slug: "caramel", title: "Caramel", url: "candies/caramel/",
        fields: [("name", "Caramel")])))
    let dir = temporaryFolder("sift-base")
    try builder.write(to: dir, baseURL: "https://example.org/shop")
    let r = try SearchIndex(directory: dir).search("caramel")
    #expect(r.results.map(\.url) == ["/shop/candies/caramel/"])
}

@Test func anIndexCannotNameAFileOutsideItsFolder() throws {
    let dir = temporaryFolder("sift-index")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("search"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("{\"secret\":1}".utf8).write(to: dir.appendingPathComponent("secret.json"))
    let store = ShardStore(directory: dir.appendingPathComponent("search"))
    #expect(throws: SiftError.self) { try store.object("../secret.json") }
    #expect(store.read.isEmpty)
}

/// Found by the differential test (issue 19): "№7 №7" ranked otherwise than in sift-core.js. Both
/// now compare titles with the query as typed, "no7 no7" (SPEC §3: `pago pago` is Pago Pago's
/// title, not Pago's): no title starts with it, so the two rank by their scores, alike in both.
@Test func identicalTermsCountOnce() throws {
    var builder = SearchIndexBuilder()
    for (slug, title) in [("a", "n1 №7"), ("b", "№7™ n369")] {
        builder.add(SearchIndexBuilder.digest(SearchDocument(
            collection: "c", slug: slug, title: title, url: "c/\(slug)/", fields: [("name", title)])))
    }
    let dir = temporaryFolder("sift-terms")
    try builder.write(to: dir, baseURL: "/")
    let index = try SearchIndex(directory: dir)
    #expect(try index.search("№7 №7").results.map(\.slug) == ["a", "b"])
    #expect(try index.search("No7 no7 NO7").results.map(\.slug) == ["a", "b"])
}

/// Found by the differential test (issue 19): an index of few words but large document tables
/// named docs-0.json in its manifest without writing it, so neither engine could open it.
@Test func tablesOutsideAnUnshardedManifestAreWritten() throws {
    var builder = SearchIndexBuilder()
    builder.inlineDocsLimit = 100
    for i in 0..<500 {
        builder.add(SearchIndexBuilder.digest(SearchDocument(
            collection: "c", slug: "d\(i)", title: "Document number \(i) of a long table", url: "c/d\(i)/",
            fields: [("name", "Document number \(i) of a long table")], body: "short")))
    }
    let dir = temporaryFolder("sift-tables")
    try builder.write(to: dir, baseURL: "/")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("immutable").path)
    #expect(files.contains { $0.hasPrefix("docs.") })
    #expect(!files.contains { $0.hasPrefix("shard.") })
    #expect(try SearchIndex(directory: dir).search("Document number 7 of a long table").results.first?.slug == "d7")
}

/// A collection of more documents than `docsPart` has its table in parts, a file each, which
/// answer as the whole table does: scopes, URLs that are not the usual one, slugs, fields of few values.
@Test func tablesInPartsAnswerAsOneTable() throws {
    func built(part: Int) throws -> URL {
        var builder = SearchIndexBuilder()
        builder.docsPart = part
        builder.addCollection(SearchCollectionInfo(name: "c", title: "C", scopes: ["Even", "Odd"]))
        for i in 0..<450 {
            builder.add(SearchIndexBuilder.digest(SearchDocument(
                collection: "c", slug: i % 7 == 0 ? "x\(i)" : "document-\(i)", title: "Document \(i)", url: i % 11 == 0 ? "elsewhere/\(i)/" : "c/\(i % 7 == 0 ? "x\(i)" : "document-\(i)")/",
                scope: i % 5 == 0 ? nil : ["Even", "Odd"][i % 2], fields: [("name", "Document \(i)"), ("kind", ["red", "blue"][i % 2])],
                body: i % 3 == 0 ? "a harbour of \(i)" : "")))
        }
        let dir = temporaryFolder("sift-parts")
        try builder.write(to: dir, baseURL: "/")
        return dir
    }
    let parts = try built(part: 100), whole = try built(part: 1000)
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: parts.appendingPathComponent("manifest.json"))) as! [String: Any]
    let docs = (manifest["collections"] as! [[String: Any]])[0]["docs"]
    #expect(docs as? [String] == (0..<5).map { "docs-0-\($0).json" })
    let (a, b) = (try SearchIndex(directory: parts), try SearchIndex(directory: whole))
    for (query, scope) in [("document 1", "All"), ("harb", "Odd"), ("", "Even"), ("red", "All"), ("4", "All")] {
        #expect(try a.search(query, scope: scope) == b.search(query, scope: scope), "\(query) \(scope)")
    }
    #expect(try a.search("document 44").results.first?.url == "/elsewhere/44/")
}

/// Found by the differential test (issue 19): `--scope` with a decomposed "Ü" found the items of
/// the composed scope (Swift's == is canonical equivalence), where sift-core.js, comparing code
/// points as docs/search.md says ("equals it exactly"), refused an unknown scope.
@Test func scopesAndCollectionsAreComparedExactly() throws {
    var builder = SearchIndexBuilder()
    builder.addCollection(SearchCollectionInfo(name: "bücher", title: "Bücher", scopes: ["Über"]))
    builder.add(SearchIndexBuilder.digest(SearchDocument(
        collection: "bücher", slug: "a", title: "A", url: "b/a/", scope: "Über", fields: [("name", "A")])))
    let dir = temporaryFolder("sift-exact")
    try builder.write(to: dir, baseURL: "/")
    let index = try SearchIndex(directory: dir)
    #expect(try index.search("a", scope: "Über", collection: "bücher").total == 1)
    #expect(throws: SiftError.self) { try index.search("a", scope: "Über".decomposedStringWithCanonicalMapping) }
    #expect(throws: SiftError.self) { try index.search("a", collection: "bücher".decomposedStringWithCanonicalMapping) }
}

/// A primary entry's suffix: `:` and the often postings, then `:` and the postings of the
/// documents holding the word in their body's lead, its first `Score.leadWords` word pieces
/// (docs/search-index.md, "Words and postings"); a joined word is in the lead when its first piece is.
@Test func primaryEntriesHoldTheLeadPostings() throws {
    let filler = Array(repeating: "calm", count: Score.leadWords - 1).joined(separator: " ")
    var builder = SearchIndexBuilder()
    var far = SearchDocument(collection: "c", slug: "far", title: "Far", url: "c/far/", fields: [("name", "Far")],
                             body: "ferry \(filler) harbour e-mail.")
    far.excerptText = [far.body]
    var near = SearchDocument(collection: "c", slug: "near", title: "Near", url: "c/near/", fields: [("name", "Near")],
                              body: "\(filler) e-mail harbour ferry")
    near.excerptText = ["", "ferries", "Ferry", near.body]
    builder.add(SearchIndexBuilder.digest(far))
    builder.add(SearchIndexBuilder.digest(near))
    let dir = temporaryFolder("sift-lead")
    try builder.write(to: dir, baseURL: "/")
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as! [String: Any]
    let words = manifest["words"] as! [String: String]
    let postings = { (ids: [Int32]) in IndexFormat.encodePostings(ids) }
    // In far's lead only; in near's heading (often), past its lead.
    #expect(words["ferry"] == postings([0, 1]) + ":" + postings([1]) + ":" + postings([0]))
    #expect(words["calm"] == postings([0, 1]) + ":" + postings([0, 1]) + ":" + postings([0, 1]))
    // The joined word starts on near's last piece of its lead.
    #expect(words["email"] == postings([0, 1]) + "::" + postings([1]))
    #expect(words["harbour"] == postings([0, 1]))
}

/// The manifest of an index of one document with this body (small: its words inline).
private func manifestOfOneBody(_ body: String) throws -> String {
    var builder = SearchIndexBuilder()
    builder.add(SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "a", title: "A", url: "c/a/", fields: [("name", "A")], body: body)))
    let dir = temporaryFolder("sift-one-body")
    defer { try? FileManager.default.removeItem(at: dir) }
    try builder.write(to: dir, baseURL: "/")
    return try String(contentsOf: dir.appendingPathComponent("manifest.json"), encoding: .utf8)
}

/// A body's bridges: each run of other code points with the code point on either side, and a run
/// of two or more at a token's edge with its one neighbour; a one-code-point run at an edge makes none.
@Test func bridgesAreTheRunsOfOtherCodePointsWithTheirNeighbours() throws {
    let manifest = try manifestOfOneBody("Use C++, Node.js and gcc-3.5 (see --help). Harbor. 文件，权限 ++")
    let words = (try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as! [String: Any])["words"] as! [String: String]
    let bridges = Set(words.keys.filter(IndexFormat.isBridge))
    #expect(bridges == ["c++,", "e.j", "c-3", "3.5", "--h", "p).", "件,权"])
    #expect(IndexFormat.windows(IndexFormat.pieces("gcc-3.5")) == ["c-3", "3.5"])
    #expect(IndexFormat.windows(IndexFormat.pieces("--help.")) == ["--h"])
    #expect(IndexFormat.windows(IndexFormat.pieces("c++")) == ["c++"])
    #expect(IndexFormat.windows(IndexFormat.pieces("harbor")) == [])
}


/// The words of the index are in byte order; sorted by their first 8 bytes first, words that
/// share those (or are shorter than 8, or hold bytes past 0x7F) still fall into place.
@Test func wordsAreInByteOrder() throws {
    let manifest = try manifestOfOneBody("abcdefghij abcdefgh abcdefghi abcdefgz abcdefg abc ab\u{e9}cdefgh abcdefgh\u{e9} \u{4e2d}\u{6587}\u{5b57} \u{4e2d}\u{6587} zz9 abcdefgha")
    let words = manifest[manifest.range(of: "\"words\":")!.upperBound...]
    let keys = words.split(separator: "\"").enumerated().filter { $0.offset % 4 == 1 }.map { String($0.element) }
    #expect(keys.count == 16, "\(keys)")
    #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
}
