import Foundation
import Testing
@testable import SiftKit

/// Behaviour the docs describe that the build did otherwise, found by a review that ran each
/// documented rule (2026-12-06). Each test failed before its fix.
struct DocumentedBehaviourTests {
    /// templates.md: `item.fields` leaves out the title field, also the one the loader chose
    /// (`name`, or a dataset's first column) when collection.yml names none.
    @Test func aDetailPagesFieldsLeaveOutTheTitleFieldTheLoaderChose() throws {
        let site = try TestSite([
            "Content/people/people.csv": "name,city\nAda,London\n",
            "Content/codes/codes.csv": "Code,label\nX2,Second\n",
            "Content/people/collection.yml": "list_fields: [city]\n",
        ])
        #expect(site.build().status == 0)
        let ada = try #require(site.page("people/ada/index.html"))
        #expect(ada.contains("London") && !ada.contains("<dt>Name</dt>"), "\(ada)")
        let x2 = try #require(site.page("codes/x2/index.html"))
        #expect(x2.contains("Second") && !x2.contains("<dt>Code</dt>"), "\(x2)")
    }

    /// configuration.md `sort`: items without the field come last; a CSV's empty cell and a JSON
    /// null are no value, as `sift search --sort` takes them.
    @Test func aListSortedByAFieldPutsEmptyValuesLast() throws {
        let site = try TestSite([
            "Content/things/things.csv": "name,n\nBlank,\nTwo,2\nOne,1\n",
            "Content/things/collection.yml": "title_field: name\nsort: n\n",
            "Content/json/json.json": #"[{"title":"Null","n":null},{"title":"Bee","n":"b"},{"title":"Absent"},{"title":"Ay","n":"a"}]"#,
            "Content/json/collection.yml": "sort: n\n",
        ])
        #expect(site.build().status == 0)
        let order = { (page: String, titles: [String]) -> [Int] in
            let html = site.page(page) ?? ""
            return titles.map { html.range(of: ">\($0)<")?.lowerBound.utf16Offset(in: html) ?? -1 }
        }
        let things = order("things/index.html", ["One", "Two", "Blank"])
        #expect(!things.contains(-1) && things == things.sorted(), "\(things)")
        let json = order("json/index.html", ["Ay", "Bee", "Null", "Absent"])
        #expect(!json.contains(-1) && json == json.sorted(), "\(json)")
    }

    /// The list's order by a field is `sift search --sort`'s: numbers first (as numbers, `9`
    /// before `10`), then text; a list of numbers and text compared them as text ("10" < "9" < "A").
    @Test func aListSortedByAFieldIsInTheOrderSearchSortsBy() throws {
        let site = try TestSite([
            "Content/mixed/mixed.csv": "name,n\nTen,10\nBee,b\nNine,9\nSpace, \nAy,A\nNone,\nMinus,-1.5\n",
            "Content/mixed/collection.yml": "title_field: name\nsort: n\nsort_fields: [n]\n",
        ])
        #expect(site.build().status == 0)
        let html = site.page("mixed/index.html") ?? ""
        let listed = html.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: #"row-title">([^<]+)<"#, options: .regularExpression) else { return nil }
            return String(line[r].dropFirst(11).dropLast())
        }
        let json = SiftCLI.run(["search", "", "--collection", "mixed", "--sort", "n", "--json"], in: site.root).stdout
        let searched = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let titles = (searched?["results"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(listed == ["Minus", "Nine", "Ten", "Space", "Ay", "Bee", "None"], "\(listed)")
        #expect(listed == titles, "\(titles)")
    }

    /// cli.md: a folder that does not exist is a usage error, as for `sift serve`, and nothing is
    /// made there (the build's lock made `TYPO/.sift-cache/`, and `sift serve` then served it).
    @Test func buildingAFolderThatDoesNotExistMakesNothing() throws {
        let parent = temporaryFolder("sift-typo")
        for command in ["build", "check"] {
            let out = SiftCLI.run([command, "--site", "typo/site"], in: parent)
            #expect(out.status == 2 && out.stderr.contains("no site folder at typo/site"), "\(command): \(out)")
        }
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("typo").path))
    }

    /// An empty `--output` or `--site` (a shell variable unset) was taken for the current folder:
    /// `--output ''` failed as an output that would replace the site, exit 1. It is a usage error.
    @Test func anEmptyFolderNameIsAUsageError() throws {
        let site = try TestSite(["Content/c/c.txt": "A\n"])
        defer { site.delete() }
        for args in [["build", "--output", ""], ["build", "--site", ""], ["check", "--site", ""], ["search", "a", "--site", ""], ["serve", "--site", ""]] {
            let out = SiftCLI.run(args, in: site.root)
            #expect(out.status == 2 && out.stderr.contains("\(args[args.count - 2]) needs a folder, not an empty name"), "\(args): \(out)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.output.path))
    }

    /// cli.md: the table gives each result's match, "partial" and "fuzzy" whole.
    @Test func theSearchTableSpellsEveryMatchOut() throws {
        let site = try TestSite([
            "Content/countries/countries.csv": "name\nUnited States\nUnited Kingdom\nFrance\n",
        ])
        #expect(site.build().status == 0)
        let out = SiftCLI.run(["search", "untied states"], in: site.root).stdout
        #expect(out.contains("  partial  /countries/united-states/"), "\(out)")
    }

    /// configuration.md: a value of the wrong type is an error at its line and column; a theme
    /// value is a text, a collection.yml list holds field names (a list in it was the field '').
    @Test func listsAndMappingsWhereTextIsDueAreErrorsAtTheirPlace() throws {
        let site = try TestSite([
            "Content/site.yml": "title: T\ntheme:\n  bar_tint: [1, 2]\n  text_color: {a: 1}\n",
            "Content/things/things.csv": "name,kind\nOne,A\n",
            "Content/things/collection.yml": "title_field: name\nfacets: [kind, [x]]\n",
        ])
        let out = site.build()
        #expect(out.status == 1, "\(out)")
        #expect(out.stderr.contains("Content/site.yml:3:13: error: theme.bar_tint must be text, not a list"), "\(out.stderr)")
        #expect(out.stderr.contains("Content/site.yml:4:15: error: theme.text_color must be text, not a mapping"), "\(out.stderr)")
        #expect(out.stderr.contains("Content/things/collection.yml:2:9: error: facets must be a list of field names"), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("index.html").path))
    }

    /// content.md: a misspelt title_field is said at its key; with no slug column it was one
    /// "row has no 'nme'" error a row, and nothing at the key.
    @Test func aTitleFieldNoRowHasIsOneErrorAtItsKey() throws {
        let site = try TestSite([
            "Content/fr/fr.csv": "name,area\nParis,105\nLyon,48\nNice,72\n",
            "Content/fr/collection.yml": "title_field: nme\n",
        ])
        let out = site.build()
        #expect(out.status == 1)
        #expect(out.stderr.contains("Content/fr/collection.yml:1:14: error: title_field: no row of 'fr' has a field 'nme' to take titles and slugs from (the first row's fields: 'name', 'area')"), "\(out.stderr)")
        #expect(!out.stderr.contains("row has no"), "\(out.stderr)")
    }
}
