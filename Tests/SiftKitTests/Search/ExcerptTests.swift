import Foundation
import Testing
@testable import SiftKit

// Excerpts and sections (docs/search-index.md, "Excerpts"): the window and its marks, the
// entries a build writes, the text files `sift search` reads, and the shared vectors that
// Tests/js/excerpt.test.mjs reads too.

@Test func excerptMarksTheTerm() {
    #expect(Excerpt.excerpt("Caramel starts with heat.", ["heat"]) == ["Caramel starts with ", "heat", "."])
}

@Test func excerptMarksFoldedWordsAsWritten() {
    #expect(Excerpt.excerpt("Crème Brûlée is a custard.", ["brulee"]) == ["Crème ", "Brûlée", " is a custard."])
}

@Test func excerptLeavesShortASCIITermsUnmarked() {
    #expect(Excerpt.excerpt("Find files by name.", ["by", "name"]) == ["Find files by ", "name", "."])
}

@Test func excerptMergesOverlappingMarks() {
    #expect(Excerpt.excerpt("The harbors.", ["harbor", "bor"]) == ["The ", "harbor", "s."])
}

@Test func excerptIsAWindowAroundTheBestHitCutAtSpaces() {
    let words = (1...100).map { "w\($0)" }
    let text = (words[..<60] + ["harbor"] + words[60...]).joined(separator: " ")
    let parts = Excerpt.excerpt(text, ["harbor"])
    #expect(parts.count == 3)
    #expect(parts[0].hasPrefix("…w5"))
    #expect(parts[1] == "harbor")
    #expect(parts[2].hasSuffix("…"))
    // The window: at most `span` code points and its two ellipses, starting and ending on a word.
    #expect(parts.joined().unicodeScalars.count <= Excerpt.span + 2)
    #expect(!parts[0].dropFirst().hasPrefix(" ") && !parts[2].dropLast().hasSuffix(" "))
}

@Test func entryOfAMarkdownBodyHasItsSections() {
    let md = Markdown.render("# Caramel\n\nIt starts with heat.\n\n## Firm ball\n\nCooked to 118 °C.\n\n### Cut\n\nInto squares.")
    #expect(ExcerptText.entry(md, droppingTitle: true)
        == ["It starts with heat.", "firm-ball", "Firm ball", "Cooked to 118 °C.", "cut", "Cut", "Into squares."])
    #expect(ExcerptText.entry(md, droppingTitle: false).prefix(4) == ["", "caramel", "Caramel", "It starts with heat."])
    #expect(ExcerptText.entry(Markdown.render(""), droppingTitle: false) == [])
}

@Test func sectionsHoldingATermAreShownInPageOrder() {
    let entry = ["", "a", "Sugar", "Only sugar.", "b", "Sauce", "Caramel sauce.", "c", "Milk", "None here.", "d", "Caramel", "More."]
    #expect(Excerpt.sections(entry, ["caramel", "sauce"], url: "/c/d/")
        == [SearchSection(title: "Sauce", url: "/c/d/#b", excerpt: ["", "Caramel", " ", "sauce", "."]),
            SearchSection(title: "Caramel", url: "/c/d/#d", excerpt: ["More."])])
}

/// A built site with one page of sections, its index and `sift search --json`'s answer.
@Test func siftSearchJSONCarriesExcerptAndSections() throws {
    let site = temporaryFolder("sift-excerpt")
    let files = [
        "Content/candies/collection.yml": "title: Candies\n",
        "Content/candies/caramel.md": "---\ntitle: Caramel\n---\n\nIt starts with heat.\n\n## Firm ball\n\nCooked to the firm-ball stage, then cut.\n",
        "Content/candies/fudge.md": "---\ntitle: Fudge\n---\n\nSoft and sweet.\n",
    ]
    for (path, text) in files {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    #expect(SiftCLI.run(["build", "--quiet"], in: site).status == 0)
    // The only text file, under the immutable name of its group (docs/search-index.md, "Text files").
    let immutable = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("public/search/immutable").path)
    let textPath = "public/search/immutable/" + (try #require(immutable.first { $0.contains(/^text-0\.[0-9a-f]{12}\.json$/) }))
    #expect(immutable.filter { $0.hasPrefix("text") }.count == 1, "the text file, and no table of names")
    let text = try String(contentsOf: site.appendingPathComponent(textPath), encoding: .utf8)
    // The candies, then the collection `pages`: the home page, without an intro.
    #expect(text == #"[["It starts with heat.","firm-ball","Firm ball","Cooked to the firm-ball stage, then cut."],["Soft and sweet."],[]]"# + "\n")
    let outcome = SiftCLI.run(["search", "stage", "--json"], in: site)
    #expect(outcome.stdout.contains(#""match":"body","excerpt":["It starts with heat. Firm ball Cooked to the firm-ball ","stage",", then cut."],"sections":[{"title":"Firm ball","url":"/candies/caramel/#firm-ball","excerpt":["Cooked to the firm-ball ","stage",", then cut."]}]"#))
    #expect(SiftCLI.run(["search", "caramel", "--json"], in: site).stdout.contains(#""match":"field","excerpt":null,"sections":[]"#))

    // A text file that is not what `sift build` writes: an error naming it.
    try Data(#"[["a","b"]]"#.utf8).write(to: site.appendingPathComponent(textPath))
    let broken = SiftCLI.run(["search", "stage", "--json"], in: site)
    #expect(broken.status == 1)
    #expect(broken.stderr == "\(textPath): error: expected a list of 3 entries, each a list of strings\n")
    try Data(#"[["a","b"],[],[]]"#.utf8).write(to: site.appendingPathComponent(textPath))
    #expect(SiftCLI.run(["search", "stage", "--json"], in: site).stderr
        == "\(textPath): error: entry 0: expected a text, then an id, a title and a text per section\n")
}

/// Tests/Fixtures/excerpt-vectors.json: what both engines must give.
@Test func excerptVectors() throws {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("excerpt-vectors.json"))) as! [String: Any]
    for v in root["excerpts"] as! [[String: Any]] {
        #expect(Excerpt.excerpt(v["text"] as! String, v["terms"] as! [String]) == v["excerpt"] as! [String], "\(v["note"]!)")
    }
    for v in root["sections"] as! [[String: Any]] {
        let entry = v["entry"] as! [String], terms = Fold.terms(v["query"] as! String)
        #expect(Excerpt.excerpt(Excerpt.wholeText(entry), terms) == v["excerpt"] as! [String], "\(v["note"]!)")
        let expected = (v["sections"] as! [[String: Any]]).map {
            SearchSection(title: $0["title"] as! String, url: $0["url"] as! String, excerpt: $0["excerpt"] as! [String])
        }
        #expect(Excerpt.sections(entry, terms, url: v["url"] as! String) == expected, "\(v["note"]!)")
    }
}

/// Pages of a few KB of text get a text file each: a first screen's excerpts read no
/// neighbour's text (at 8 KB a file, two such pages shared one, half of each read wasted).
@Test func pagesOfAFewKilobytesGetATextFileEach() throws {
    let page = String(repeating: "Harbor lights over the volcano. ", count: 120)
    let documents = (0..<6).map { n in
        SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "p\(n)", title: "P\(n)", url: "c/p\(n)/",
                                                 fields: [(name: "title", value: "P\(n)")], body: page))
    }.map { d -> SearchDigest in
        var d = d
        d.excerptText = [page]
        return d
    }
    let texts = try SearchIndexBuilder.textFiles(documents)
    #expect(page.utf8.count == 3_840)
    #expect(texts?.perFile == 1)
    #expect(texts?.files.filter { IndexFormat.isTextFileName($0.0) }.count == 6)
}

/// A text file's name is `text-N.json`, N digits; a hash is lowercase hex digits.
@Test func textFileNamesAndHashesAreReadExactly() {
    for (name, n) in [("text-0.json", 0), ("text-12.json", 12), ("text-4096.json", 4096)] { #expect(IndexFormat.textFileNumber(name) == n, "\(name)") }
    #expect(IndexFileNames.textPath(12, group: "9a41c0d2e3f4") == "immutable/text-12.9a41c0d2e3f4.json")
    for name in ["text-.json", "text-names-1.json", "text-1.json.gz", "xtext-1.json", "text-1a.json", "text-١.json", "shard-1.json", "text-\(String(repeating: "9", count: 40)).json"] {
        #expect(!IndexFormat.isTextFileName(name), "\(name)")
    }
    #expect(IndexFormat.isHexDigits("9a41c0d2e3f4"))
    for hash in ["", "9A41", "9a41-", "g1", "9a41\n"] { #expect(!IndexFormat.isHexDigits(hash), "\(hash)") }
}
