import Foundation
import Testing
@testable import SiftKit

/// A list of more than 2,000 items is paginated unless `per_page` says otherwise, with a note.
@Suite struct LongListTests {
    static func site(items: Int, settings: String? = nil) throws -> TestSite {
        var files = ["Content/n/n.txt": (1...items).map { "Item \($0)" }.joined(separator: "\n") + "\n"]
        if let settings { files["Content/n/collection.yml"] = settings }
        return try TestSite(files)
    }

    static func rows(_ html: String?) -> Int { (html ?? "").components(separatedBy: "data-sift-item=").count - 1 }

    static let note = "Content/n/collection.yml: note: the list of 2001 items is paginated, 1000 a page (/n/ to /n/page/3/), "
        + "as every list of more than 2000 is: per_page: 0 keeps one page, per_page: N sets the size\n"

    @Test func aListOfMoreThan2000ItemsIsPaginated1000APage() throws {
        let site = try Self.site(items: 2001)
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(Self.rows(site.page("n/index.html")) == 1000)
        #expect(Self.rows(site.page("n/page/2/index.html")) == 1000)
        #expect(Self.rows(site.page("n/page/3/index.html")) == 1)
        #expect(site.page("n/page/3/index.html")?.contains(">Item 2001<") == true)
        #expect(site.page("n/page/4/index.html") == nil)
        #expect(site.page("n/index.html")?.contains("href=\"/n/page/3/\"") == true)
    }

    /// 2,000 items stay on one page as they are; `per_page: 0` keeps 2,001 there. No note either way.
    @Test(arguments: [(2000, nil), (2001, "per_page: 0\n")] as [(Int, String?)])
    func aListStaysOnOnePageWithoutANote(items: Int, settings: String?) throws {
        let site = try Self.site(items: items, settings: settings)
        defer { site.delete() }
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(out.status == 0)
        #expect(Self.rows(site.page("n/index.html")) == items)
        #expect(site.page("n/page/2/index.html") == nil)
        #expect(!out.stderr.contains("note:"))
    }

    @Test func perPageSetsTheSizeOfALongListWithoutANote() throws {
        let site = try Self.site(items: 2001, settings: "per_page: 700\n")
        defer { site.delete() }
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(Self.rows(site.page("n/index.html")) == 700)
        #expect(Self.rows(site.page("n/page/3/index.html")) == 601)
        #expect(!out.stderr.contains("note:"))
    }

    @Test func checkAndTheBuildSummarySayTheListIsPaginated() throws {
        let site = try Self.site(items: 2001)
        defer { site.delete() }
        let check = SiftCLI.run(["check"], in: site.root)
        #expect(check.status == 0)
        #expect(check.stderr == Self.note)
        // A note is no warning: --strict passes, --quiet leaves it out.
        #expect(SiftCLI.run(["check", "--strict"], in: site.root).status == 0)
        #expect(SiftCLI.run(["check", "--strict", "--quiet"], in: site.root).stderr == "")
        try IncrementalBuildTests().backdate(site)
        let build = SiftCLI.run(["build"], in: site.root)
        #expect(build.status == 0)
        #expect(build.stderr.hasPrefix(Self.note + "built 2006 pages (2001 n), "))
        // A build with nothing to do says it again, a note still.
        let again = SiftCLI.run(["build", "--timings"], in: site.root)
        #expect(again.stderr.hasPrefix(Self.note + "built 2006 pages (2001 n), "))
        #expect(again.stderr.contains("\nstamps "), "the stamps' report: \(again.stderr)")
    }

    /// The page numbers a list page links to, in order, "…" where some are left out.
    static func pageLinks(_ html: String?) -> [String] {
        guard let html, let nav = html.range(of: "<ol>"), let end = html.range(of: "</ol>", range: nav.upperBound..<html.endIndex) else { return [] }
        return html[nav.upperBound..<end.lowerBound].components(separatedBy: "<li").dropFirst().map { li in
            if li.contains("pagination-gap") { return "…" }
            let number = li.drop { !$0.isNumber }.prefix { $0.isNumber }
            return li.contains("aria-current") ? "[\(number)]" : String(number)
        }
    }

    /// A list of many pages links each page to the first, the last and its neighbours, not to
    /// every page: 10,000 list pages each linking to all 10,000 were 4.6 GB of a million items' build.
    @Test func aListPageLinksToItsNeighboursTheFirstAndTheLast() throws {
        let site = try Self.site(items: 200, settings: "per_page: 2\n")
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(Self.pageLinks(site.page("n/index.html")) == ["[1]", "2", "3", "…", "100"])
        #expect(Self.pageLinks(site.page("n/page/4/index.html")) == ["1", "2", "3", "[4]", "5", "6", "…", "100"])
        #expect(Self.pageLinks(site.page("n/page/50/index.html")) == ["1", "…", "48", "49", "[50]", "51", "52", "…", "100"])
        #expect(Self.pageLinks(site.page("n/page/100/index.html")) == ["1", "…", "98", "99", "[100]"])
        let page50 = try #require(site.page("n/page/50/index.html"))
        #expect(page50.contains("href=\"/n/page/49/\" rel=\"prev\"") && page50.contains("href=\"/n/page/51/\" rel=\"next\""))
    }

    @Test func aFewPagesAreAllLinked() throws {
        let site = try Self.site(items: 10, settings: "per_page: 2\n")
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(Self.pageLinks(site.page("n/page/3/index.html")) == ["1", "2", "[3]", "4", "5"])
        #expect(Self.pageLinks(site.page("n/index.html")) == ["[1]", "2", "3", "4", "5"])
    }

    @Test func anItemSluggedPageStaysInAListPaginatedForItsLength() throws {
        let site = try TestSite(["Content/n/n.txt": (["Page"] + (1...2001).map { "Item \($0)" }).joined(separator: "\n") + "\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("n/page/index.html")?.contains("Page") == true)
        #expect(Self.rows(site.page("n/page/2/index.html")) == 1000)
    }
}
