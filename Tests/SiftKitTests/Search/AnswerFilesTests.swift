import Foundation
import Testing
@testable import SiftKit

/// A site of two collections, one with scopes and one without, some titles sharing their
/// letters, one item at a URL of its own and one whose slug is not its title's.
private func answeredSite(seed: UInt64) throws -> URL {
    var rng = SeededRNG(state: seed)
    var builder = SearchIndexBuilder()
    builder.answersFrom = 0
    builder.addCollection(SearchCollectionInfo(name: "candies", title: "Candies", scopes: ["Chocolate", "Hard"]))
    builder.addCollection(SearchCollectionInfo(name: "places", title: "Places"))
    let words = ["Choco", "bar", "Hard", "drop", "Côte", "d'Ivoire", "ab", "a", "俄罗斯", "カナ", "x-ray", "Ωmega", "b"]
    for i in 0..<260 {
        let title = (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
        let candy = i % 3 != 0
        let collection = candy ? "candies" : "places"
        let slug = i == 7 ? "own-slug" : (IndexFormat.derivedSlug(title).map { $0 + "-\(i)" } ?? "p\(i)")
        let scope = candy ? ["Chocolate", "Hard", nil].randomElement(using: &rng)! : nil
        var document = SearchDocument(
            collection: collection, slug: slug, title: title, url: i == 11 ? "elsewhere/" : "\(collection)/\(slug)/", scope: scope,
            fields: [("title", title), ("note", words.randomElement(using: &rng)!)], body: "some body text \(i)")
        // The candies have facets: a flavour (some none) and a list of tags.
        if candy {
            let flavour = ["Sweet", "Sour", "Salty", nil].randomElement(using: &rng)!
            document.facets = [("flavour", flavour.map { [$0] } ?? []), ("tags", ["red", "round", "old", "new"].filter { _ in Bool.random(using: &rng) })]
        }
        builder.add(SearchIndexBuilder.digest(document))
    }
    let dir = temporaryFolder("sift-answers")
    try builder.write(to: dir, baseURL: "/base/")
    return dir
}

/// The answers files of an index, read as JSON: each term's counts per cell and hits.
private func answers(in dir: URL) throws -> [String: [String: Any]] {
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as! [String: Any]
    let files = manifest["files"] as! [String: String]
    var out: [String: [String: Any]] = [:]
    for n in 0..<(manifest["answers"] as! Int) {
        let name = IndexFormat.answerFileName(n)
        let data = try Data(contentsOf: dir.appendingPathComponent(IndexFileNames.path(name, hash: files[name]!)))
        for (term, answer) in try JSONSerialization.jsonObject(with: data) as! [String: [String: Any]] {
            let file = AnswerFiles.file(of: Array(term.utf8), count: manifest["answers"] as! Int)
            #expect(file == n, "“\(term)” in the wrong file")
            out[term] = answer
        }
    }
    return out
}

@Test(arguments: [UInt64(1), 2])
func answersAreTheSearchesFirstRows(seed: UInt64) throws {
    let dir = try answeredSite(seed: seed)
    let index = try SearchIndex(directory: dir)
    let all = try answers(in: dir)
    let held = ["a", "ab", "俄", "-r"].filter { all[$0] != nil }
    #expect(held.count == 4)
    // A pair of CJK code points searches bodies too; a term with white space is never one.
    let unheld = ["俄罗", "a ", " "].filter { all[$0] == nil }
    #expect(unheld.count == 3)
    let cells: [(collection: String, scope: String?)] = [("candies", "Chocolate"), ("candies", "Hard"), ("candies", nil), ("places", nil)]
    for (term, answer) in all {
        let counts = answer["counts"] as! [Int], hits = answer["hits"] as! [[Any]]
        #expect(counts.count == cells.count)
        for (collection, scopes) in [(nil, ["All", "Chocolate", "Hard"]), ("candies", ["All", "Chocolate", "Hard"]), ("places", ["All"])] as [(String?, [String])] {
            for scope in scopes {
                let wanted = try index.search(term, scope: scope, collection: collection, limit: AnswerFiles.rows)
                let inCell = { (cell: Int) in
                    (collection == nil || cells[cell].collection == collection) && (scope == "All" || cells[cell].scope == scope)
                }
                let total = counts.indices.filter(inCell).reduce(0) { $0 + counts[$1] }
                #expect(total == wanted.total, "“\(term)” \(scope)")
                let found = hits.filter { inCell($0[0] as! Int) }.prefix(AnswerFiles.rows).map { hit -> SearchResult in
                    let cell = cells[hit[0] as! Int], title = hit[2] as! String
                    let slug = (hit.count > 3 ? hit[3] as! String : "").isEmpty ? IndexFormat.derivedSlug(title) ?? "" : hit[3] as! String
                    let url = hit.count > 4 ? hit[4] as! String : "\(cell.collection)/\(slug)/"
                    return SearchResult(collection: cell.collection, slug: slug, title: title, url: "/base/" + url, scope: cell.scope, match: .field)
                }
                let same = Array(found) == wanted.results
                #expect(same, "“\(term)” in \(collection ?? "all") \(scope)")
            }
        }
    }
    // Each cell's counts by facet value, summed over the cells searched, are the search's facet counts.
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as! [String: Any]
    let candies = (manifest["collections"] as! [[String: Any]])[0], files = manifest["files"] as! [String: String]
    let facetsName = candies["facets"] as! String
    let facetsFile = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(IndexFileNames.path(facetsName, hash: files[facetsName]!)))) as! [String: Any]
    let places = (facetsFile["facets"] as! [[String: Any]]).flatMap { f in (f["values"] as! [String]).map { (field: f["name"] as! String, value: $0) } }
    #expect(places.count >= 6)
    // The manifest outlines the facets file: its fields, values and sort fields, no documents.
    let outline = candies["facetOutline"] as! [String: Any]
    let outlined = (outline["facets"] as! [[String: Any]]).flatMap { f in (f["values"] as! [String]).map { (field: f["name"] as! String, value: $0) } }
    #expect(outlined.map(\.field) == places.map(\.field) && outlined.map(\.value) == places.map(\.value))
    #expect(outline["sorts"] as? [String] == (facetsFile["sorts"] as! [[String: Any]]).map { $0["name"] as! String })
    var counted = 0
    for (term, answer) in all {
        let byCell = answer["facets"] as! [String: [Int]]
        for (collection, scope) in [(nil, "All"), ("candies", "All"), ("candies", "Hard"), ("places", "All")] as [(String?, String)] {
            let wanted = try index.search(term, scope: scope, collection: collection, limit: 0).facets
            var found: [String: [String: Int]] = [:]
            for (cell, counts) in byCell where (collection == nil || cells[Int(cell)!].collection == collection) && (scope == "All" || cells[Int(cell)!].scope == scope) {
                #expect(cells[Int(cell)!].collection == "candies" && counts.count == places.count)
                for (place, count) in zip(places, counts) { found[place.field, default: [:]][place.value, default: 0] += count }
            }
            for counts in wanted {
                for (value, count) in counts.values {
                    #expect(found[counts.field]?[value] ?? 0 == count, "“\(term)” \(collection ?? "all") \(scope): \(counts.field) \(value)")
                    counted += count
                }
            }
        }
    }
    #expect(counted > 100)
    // A short term no field holds has no answer, and no match.
    let none = try index.search("ж")
    #expect(all["ж"] == nil && none.total == 0)
}

/// A facet of many values is left out of the outline: the manifest comes with every first query.
@Test func facetOutlinesAreSmall() throws {
    let small = #"{"facets":[{"name":"hue","values":["Red","Blue"],"sets":[[0],[1]],"ids":"AB"}],"sorts":[{"name":"size","order":"BA"}]}"#
    #expect(SearchIndexBuilder.facetOutline(small) == #"{"facets":[{"name":"hue","values":["Red","Blue"]}],"sorts":["size"]}"#)
    let many = (0..<2000).map { "\"value \($0)\"" }.joined(separator: ",")
    #expect(SearchIndexBuilder.facetOutline(#"{"facets":[{"name":"tag","values":[\#(many)],"postings":[]}],"sorts":[]}"#) == nil)
}

/// A collection whose facets are too many to outline has no facet counts in the answers: a client
/// would not know their values, and every answer would carry thousands of counts.
@Test func answersCountOnlyOutlinedFacets() throws {
    var builder = SearchIndexBuilder()
    builder.answersFrom = 0
    builder.addCollection(SearchCollectionInfo(name: "tagged", title: "Tagged"))
    for i in 0..<600 {
        var document = SearchDocument(collection: "tagged", slug: "t\(i)", title: "Thing \(i)", url: "tagged/t\(i)/", scope: nil,
                                      fields: [("title", "Thing \(i)")], body: "")
        document.facets = [("tag", ["a tag long enough to fill an outline \(i)"])]
        builder.add(SearchIndexBuilder.digest(document))
    }
    let dir = temporaryFolder("sift-answers-untagged")
    try builder.write(to: dir, baseURL: "/")
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as! [String: Any]
    let tagged = (manifest["collections"] as! [[String: Any]])[0]
    #expect(tagged["facets"] != nil && tagged["facetOutline"] == nil)
    let all = try answers(in: dir)
    #expect(all["t"] != nil && all.values.allSatisfy { $0["facets"] == nil })
}

@Test func smallIndexesHaveNoAnswers() throws {
    var builder = SearchIndexBuilder()
    builder.add(SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "a", title: "A", url: "c/a/", scope: nil, fields: [("title", "A")], body: "")))
    let dir = temporaryFolder("sift-no-answers")
    try builder.write(to: dir, baseURL: "/")
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as! [String: Any]
    #expect(manifest["answers"] == nil)
}

/// The answers' key leaves the bodies' lengths out (a line added to a page moves its length code,
/// not its answers), and changes with a title.
@Test func answersKeyIgnoresBodyLengths() throws {
    func files(title: String, words: Int, inline: Bool) throws -> [(String, [UInt8])] {
        var builder = SearchIndexBuilder()
        builder.answersFrom = 0
        // A table of 16 KB or more is a file of its own once they do not all fit inline.
        if !inline { builder.inlineDocsLimit = 0 }
        for i in 0..<(inline ? 40 : 800) {
            let name = i == 3 ? title : "Page \(i) of a title long enough"
            builder.add(SearchIndexBuilder.digest(SearchDocument(
                collection: "c", slug: "p\(i)", title: name, url: "c/p\(i)/", scope: nil,
                fields: [("title", name)], body: Array(repeating: "word", count: i == 5 ? words : 10).joined(separator: " "))))
        }
        let out = try builder.render(baseURL: "/")
        #expect(out.contains { $0.0.hasPrefix("docs-") } == !inline)
        return out
    }
    for inline in [true, false] {
        let key = { (title: String, words: Int) in try SearchIndexBuilder.answersKey(files(title: title, words: words, inline: inline)) }
        #expect(try key("Harbor", 10) == key("Harbor", 300), "inline \(inline)")
        #expect(try key("Harbor", 10) != key("Harbour", 10), "inline \(inline)")
    }
}

/// A heavy term's answer orders only the body-only hits that score as high as a cell's
/// `rows`-th best (ties counted), which `AnswerFiles.best` finds.
@Test func theNthBestScoreCountsTies() {
    let scores: [Double] = [1, 5, 5, 2, 5, 4, 0.5]
    #expect(AnswerFiles.best(1, of: scores) == 5)
    #expect(AnswerFiles.best(3, of: scores) == 5)
    #expect(AnswerFiles.best(4, of: scores) == 4)
    #expect(AnswerFiles.best(6, of: scores) == 1)
    #expect(AnswerFiles.best(2, of: [3, 1, 2]) == 2)
}
