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

    /// cli.md: a folder that does not exist is a usage error, as for `sift serve`, and nothing is
    /// made there (the build's lock made `TYPO/.sift-cache/`, and `sift serve` then served it).
    @Test func buildingAFolderThatDoesNotExistMakesNothing() throws {
        let parent = temporaryFolder("sift-typo")
        let out = SiftCLI.run(["build", "--site", "typo/site"], in: parent)
        #expect(out.status == 2 && out.stderr.contains("no site folder at typo/site"), "\(out)")
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("typo").path))
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
}
