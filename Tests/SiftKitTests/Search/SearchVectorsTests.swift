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
    var terms: [[String: Any]] { root["terms"] as! [[String: Any]] }
    var queries: [[String: Any]] { root["queries"] as! [[String: Any]] }

    /// Builds the vectors' collections into a fresh directory through the real writer.
    func build(shardThreshold: Int) throws -> URL {
        var builder = SearchIndexBuilder(shardThreshold: shardThreshold, shardTarget: 200)
        for c in root["collections"] as! [[String: Any]] {
            let name = c["name"] as! String
            builder.addCollection(SearchCollectionInfo(name: name, title: c["title"] as! String,
                                                       scopes: c["scopes"] as! [String]))
            for item in c["items"] as! [[String: Any]] {
                let slug = item["slug"] as! String
                let fields = (item["fields"] as! [[String]]).map { (name: $0[0], value: $0[1]) }
                let doc = SearchDocument(collection: name, slug: slug, title: item["title"] as! String,
                                         url: "\(name)/\(slug)/", scope: item["scope"] as? String,
                                         fields: fields, body: item["body"] as! String)
                builder.add(SearchIndexBuilder.digest(doc))
            }
        }
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("sift-vectors-\(UUID().uuidString)/search")
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

@Test func termVectors() throws {
    for v in try SearchVectors().terms {
        #expect(Fold.terms(v["query"] as! String) == v["terms"] as! [String])
    }
}

@Test(arguments: [1 << 30, 0])
func queryVectors(shardThreshold: Int) throws {
    let vectors = try SearchVectors()
    let index = try SearchIndex(directory: vectors.build(shardThreshold: shardThreshold))
    for v in vectors.queries {
        let query = v["query"] as! String
        let call = {
            try index.search(query, scope: v["scope"] as? String, collection: v["collection"] as? String,
                             limit: v["limit"] as? Int)
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
    }
}

/// The vectors' index as built, checked in under Tests/Fixtures/search-index/ (`small`: one
/// file; `sharded`: every shard path) so the node tests load real files. A change fails here
/// until re-recorded with `SIFT_RECORD=1 swift test`, never silently.
@Test(arguments: [("small", 1 << 30), ("sharded", 0)])
func vectorIndexSnapshot(name: String, shardThreshold: Int) throws {
    let built = try SearchVectors().build(shardThreshold: shardThreshold)
    let fm = FileManager.default
    let snapshot = Fixtures.url("search-index").appendingPathComponent(name)
    let files = try fm.contentsOfDirectory(atPath: built.path).sorted()
    if ProcessInfo.processInfo.environment["SIFT_RECORD"] == "1" {
        try? fm.removeItem(at: snapshot)
        try fm.createDirectory(at: snapshot, withIntermediateDirectories: true)
        for f in files { try fm.copyItem(at: built.appendingPathComponent(f), to: snapshot.appendingPathComponent(f)) }
        return
    }
    let recorded = (try? fm.contentsOfDirectory(atPath: snapshot.path).sorted()) ?? []
    #expect(recorded == files, "Tests/Fixtures/search-index/\(name) is out of date: SIFT_RECORD=1 swift test")
    for f in files where recorded.contains(f) {
        let same = try Data(contentsOf: built.appendingPathComponent(f)) == Data(contentsOf: snapshot.appendingPathComponent(f))
        #expect(same, "\(name)/\(f) differs from the build: SIFT_RECORD=1 swift test")
    }
}
