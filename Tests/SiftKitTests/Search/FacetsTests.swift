import Foundation
import Testing
@testable import SiftKit

/// Facets, sort fields and the collection `pages`, from a site folder to `sift search`'s answer.
struct FacetsTests {
    static func answer(_ site: TestSite, _ query: String = "", collection: String? = "langs",
                       filters: [(field: String, value: String)] = [], sort: String? = nil) throws -> SearchResponse {
        let index = try SearchIndex(directory: site.output.appendingPathComponent("search"))
        return try index.search(query, collection: collection, filters: filters, sort: sort)
    }

    static func counts(_ r: SearchResponse, _ field: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (r.facets.first { $0.field == field }?.values ?? []).map { ($0.value, $0.count) })
    }

    @Test func aCSVCellSplitsOnTheListSeparatorAndAQuotedPartKeepsItsComma() throws {
        let site = try TestSite([
            "Content/langs/collection.yml": "facets: [languages]\nlist_separator: \",\"\n",
            "Content/langs/langs.csv": "name,languages\nCanada,\"English, French\"\nCongo,\"\"\"Lingala, Kikongo\"\",French\"\nChile,Spanish\nNauru,\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let all = try Self.answer(site)
        #expect(Self.counts(all, "languages") == ["English": 1, "French": 2, "Lingala, Kikongo": 1, "Spanish": 1])
        #expect(all.facets.first?.values.map(\.value) == ["English", "French", "Lingala, Kikongo", "Spanish"])
        let french = try Self.answer(site, filters: [("languages", "French")])
        #expect(french.results.map(\.slug) == ["canada", "congo"])
        let either = try Self.answer(site, filters: [("languages", "Spanish"), ("languages", "Lingala, Kikongo")])
        #expect(either.results.map(\.slug) == ["congo", "chile"])
    }

    /// A field of many values counted over many matches and over few: each value's documents
    /// looked up among the passing ones, or the passing among them, as the definition counts.
    @Test func aFieldOfManyValuesCountsAsItsDefinition() throws {
        let author = { (i: Int) in "author \(i % 600)" }, colour = { (i: Int) in ["red", "green", "blue"][(i / 7) % 3] }
        let site = try TestSite([
            "Content/langs/collection.yml": "facets: [author, colour]\n",
            "Content/langs/langs.csv": "name,author,colour\n" + (0..<3000).map { "Item \($0),\(author($0)),\(colour($0))\n" }.joined(),
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        // The counts by their definition: each value, over the items holding every other field's selection.
        func expected(authors: Set<String>, colours: Set<String>) -> (author: [String: Int], colour: [String: Int]) {
            var a: [String: Int] = [:], c: [String: Int] = [:]
            for i in 0..<3000 {
                a[author(i), default: 0] += colours.isEmpty || colours.contains(colour(i)) ? 1 : 0
                c[colour(i), default: 0] += authors.isEmpty || authors.contains(author(i)) ? 1 : 0
            }
            return (a, c)
        }
        for (authors, colours) in [(Set<String>(), Set<String>()), ([], ["blue"]), (["author 7", "author 8"], ["red"]), (Set((0..<400).map { "author \($0)" }), ["green", "red"])] {
            let filters = authors.map { ("author", $0) } + colours.map { ("colour", $0) }
            let r = try Self.answer(site, filters: filters)
            let want = expected(authors: authors, colours: colours)
            #expect(Self.counts(r, "author") == want.author, "\(colours)")
            #expect(Self.counts(r, "colour") == want.colour, "\(authors.count) authors")
            #expect(r.total == (0..<3000).filter { (authors.isEmpty || authors.contains(author($0))) && (colours.isEmpty || colours.contains(colour($0))) }.count)
        }
    }

    /// A field listed twice in `facets` is one facet, its values counted once (as the answers of a
    /// large site count them, by each field of the facets file).
    @Test func aFacetListedTwiceIsOneFacet() throws {
        let site = try TestSite([
            "Content/langs/collection.yml": "facets: [languages, languages]\nsort_fields: [languages, languages]\n",
            "Content/langs/langs.csv": "name,languages\nCanada,English\nChile,Spanish\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let all = try Self.answer(site)
        #expect(all.facets.map(\.field) == ["languages"])
        #expect(Self.counts(all, "languages") == ["English": 1, "Spanish": 1])
        let manifest = try String(contentsOf: site.output.appendingPathComponent("search/manifest.json"), encoding: .utf8)
        let name = try #require(manifest.firstMatch(of: /"facets":"([^"]+)"/)?.1)
        let files = try #require(try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])["files"] as? [String: String]
        let path = files?[String(name)].map { IndexFileNames.path(String(name), hash: $0) } ?? String(name)
        let file = try String(contentsOf: site.output.appendingPathComponent("search/" + path), encoding: .utf8)
        #expect(file.components(separatedBy: "\"name\":\"languages\"").count == 3, "once among the facets, once among the sorts: \(file)")
    }

    /// The split and trim of facet values take a shortcut for ASCII and for values without white
    /// space at their ends: what they give must be Foundation's, which they stand in for.
    @Test func facetValuesSplitAndTrimAsFoundationDoes() {
        var rng = SeededRNG(state: 7)
        let pieces = ["a", "b", ",", ", ", ";", " ", "\t", "ab", ",,", "é", "e\u{301}", "\u{3000}", "語", "-"]
        for separator in [",", ", ", ";", ",,", "e", "é", "語"] {
            for _ in 0..<60 {
                let text = (0..<Int.random(in: 0..<8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
                #expect(SiteCollection.split(text, on: separator) == text.components(separatedBy: separator), "\(text) on \(separator)")
                #expect(SiteCollection.trimmed(text) == text.trimmingCharacters(in: .whitespaces), "\(text)")
            }
        }
    }

    @Test func yamlListsHoldSeveralValuesAndAcrossFieldsEveryFieldMustHold() throws {
        let site = try TestSite([
            "Content/langs/collection.yml": "facets: [region, languages]\nsort_fields: [area]\n",
            "Content/langs/langs.yml": """
                - {name: Canada, region: Americas, languages: [English, French], area: 9984670}
                - {name: Chile, region: Americas, languages: [Spanish], area: 756102}
                - {name: France, region: Europe, languages: [French], area: 643801}
                - {name: Malta, region: Europe, languages: [Maltese, English], area: 316}
                - {name: Nowhere}

                """,
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let r = try Self.answer(site, filters: [("region", "Europe"), ("languages", "English")])
        #expect(r.results.map(\.slug) == ["malta"])
        #expect(Self.counts(r, "region") == ["Americas": 1, "Europe": 1])
        #expect(Self.counts(r, "languages") == ["English": 1, "French": 1, "Maltese": 1, "Spanish": 0])
        #expect(try Self.answer(site, sort: "-area").results.map(\.slug) == ["canada", "chile", "france", "malta", "nowhere"])
        #expect(try Self.answer(site, sort: "area").results.map(\.slug) == ["malta", "france", "chile", "canada", "nowhere"])
        #expect(throws: SiftError.self) { try Self.answer(site, filters: [("colour", "red")]) }
        #expect(throws: SiftError.self) { try Self.answer(site, sort: "name") }
    }

    @Test func numbersSortAsNumbersAndTextByFoldedText() throws {
        #expect(FacetTable.sortedAscending(["10", "9", "-2", "1e3", "Émile", "apple", "Zed", "2.5"])
            == ["-2", "2.5", "9", "10", "1e3", "apple", "Émile", "Zed"])
    }

    @Test func standalonePagesAndTheIntroAreTheCollectionPagesUnlessSearchIsFalse() throws {
        let site = try TestSite([
            "Content/site.yml": "title: Atlas\n",
            "Content/index.md": "Welcome to the atlas of rivers.\n",
            // A longer body than the intro's: the score puts the intro first, as list order does.
            "Content/about.md": "---\ntitle: About\n---\n## Who\nWe map the rivers of the world, one by one, and their banks.\n",
            "Content/secret.md": "---\ntitle: Secret\nsearch: false\n---\nRivers nobody maps.\n",
            "Content/things/things.txt": "Alpha\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let r = try Self.answer(site, "rivers", collection: nil)
        #expect(r.results.map(\.url) == ["/", "/about/"])
        #expect(r.results.map(\.collection) == ["pages", "pages"])
        #expect(try Self.answer(site, "about", collection: "pages").results.first?.title == "About")
    }

    /// Every kind of page: a row's detail page, a page that is an item of its own, a standalone page, the intro.
    static let hiddenSite = [
        "Content/index.md": "---\nsearch: false\n---\nWelcome to the quarry.\n",
        "Content/secret.md": "---\ntitle: Secret\nsearch: false\n---\nThe quarry nobody maps.\n",
        "Content/sites/collection.yml": "facets: [kind]\nsort_fields: [depth]\n",
        "Content/sites/sites.csv": "name,kind,depth\nOpen Quarry,pit,40\nHidden Quarry,pit,90\nShaft,mine,300\n",
        "Content/sites/hidden-quarry.md": "---\nsearch: false\n---\nA quarry under the hill.\n",
        "Content/sites/lost-quarry.md": "---\ntitle: Lost Quarry\nkind: pit\ndepth: 10\nsearch: false\n---\nA quarry of its own.\n",
    ]

    @Test func searchFalseLeavesEveryKindOfPageOutOfTheIndexButBuildsItsPage() throws {
        let site = try TestSite(Self.hiddenSite)
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(try Self.answer(site, "quarry", collection: nil).results.map(\.url) == ["/sites/open-quarry/"])
        // Filters and sorting alone list only the items in the index, and count only them.
        let pits = try Self.answer(site, collection: "sites", filters: [("kind", "pit")])
        #expect(pits.results.map(\.slug) == ["open-quarry"])
        #expect(Self.counts(pits, "kind") == ["pit": 1, "mine": 1])
        #expect(try Self.answer(site, collection: "sites", sort: "-depth").results.map(\.slug) == ["shaft", "open-quarry"])
        for page in ["index.html", "secret/index.html", "sites/hidden-quarry/index.html", "sites/lost-quarry/index.html"] {
            #expect(site.page(page)?.contains("quarry") == true, "\(page)")
        }
        #expect(site.page("sites/index.html")?.contains("Hidden Quarry") == true)
    }

    @Test func aServeRebuildTakesAPageInAndOutOfTheIndexAsACleanBuildDoes() throws {
        let site = try TestSite(Self.hiddenSite)
        defer { site.delete() }
        var options = SiteBuilder.Options(site: site.root, baseURL: "/")
        options.mode = .serve(BuildSession())
        try SiteBuilder(options: options).build()
        try site.write("Content/sites/hidden-quarry.md", "A quarry under the hill.\n")
        try SiteBuilder(options: options).build()
        #expect(try Self.answer(site, "quarry", collection: nil).results.map(\.url) == ["/sites/hidden-quarry/", "/sites/open-quarry/"])
        try site.write("Content/sites/open-quarry.md", "---\nsearch: false\n---\nNow hidden.\n")
        try SiteBuilder(options: options).build()
        #expect(try Self.answer(site, "quarry", collection: nil).results.map(\.url) == ["/sites/hidden-quarry/"])
    }

    /// Many items of few, skewed, unordered values: the column is entropy-coded, and reads back whole.
    @Test func aLongColumnOfSkewedValuesIsEntropyCodedAndReadsBack() throws {
        var state: UInt64 = 16
        let climates = ["Arid", "Polar", "Temperate", "Tropical"]
        let rows = (0..<600).map { i -> (String, String) in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let draw = Int(state >> 33) % 100
            return ("Place \(i)", climates[draw < 50 ? 2 : draw < 80 ? 3 : draw < 95 ? 0 : 1])
        }
        let site = try TestSite([
            "Content/langs/collection.yml": "facets: [climate]\n",
            "Content/langs/langs.csv": "name,climate\n" + rows.map { "\($0.0),\($0.1)" }.joined(separator: "\n") + "\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: site.output.appendingPathComponent("search/immutable").path)
        let file = try #require(files.first { $0.hasPrefix("facets") })
        #expect(site.page("search/immutable/" + file)?.contains("\"rans\":") == true)
        let expected = Dictionary(grouping: rows, by: \.1).mapValues(\.count)
        #expect(Self.counts(try Self.answer(site), "climate") == expected)
        let polar = try Self.answer(site, filters: [("climate", "Polar")])
        #expect(polar.results.map(\.title) == rows.filter { $0.1 == "Polar" }.map(\.0))
    }
}
