import Foundation
import Testing
@testable import SiftKit

/// sitemap.xml lists at most 50,000 URLs a file, as sitemaps.org asks: a million items' build
/// wrote one file of 1,010,002, which search engines refuse.
@Suite struct SitemapTests {
    static func locs(_ text: String) -> [String] {
        text.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func fiftyThousandURLsAreOneFile() {
        let urls = (1...50_000).map { "https://example.org/n/\($0)/" }
        let files = Sitemap.files(urls) { "https://example.org/" + $0 }
        #expect(files.map(\.name) == ["sitemap.xml"])
        #expect(files[0].text.contains("<urlset") && Self.locs(files[0].text) == urls)
    }

    @Test func moreAreAnIndexOfPartsOfFiftyThousand() {
        let urls = (1...120_001).map { "https://example.org/n/\($0)/" }
        let files = Sitemap.files(urls) { "https://example.org/" + $0 }
        #expect(files.map(\.name) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        #expect(files[0].text.contains("<sitemapindex"))
        #expect(Self.locs(files[0].text) == ["https://example.org/sitemap-1.xml", "https://example.org/sitemap-2.xml", "https://example.org/sitemap-3.xml"])
        #expect(files.dropFirst().map { Self.locs($0.text).count } == [50_000, 50_000, 20_001])
        #expect(files.dropFirst().flatMap { Self.locs($0.text) } == urls)
    }

    @Test func aCollectionMayNotTakeAPartsName() throws {
        let site = try TestSite(["Content/sitemap-2.xml/a.txt": "A\n"])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("sitemap-N.xml"))
    }
}
