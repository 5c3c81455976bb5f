import Foundation
import Testing
@testable import SiftKit

@Suite struct PrecompressorTests {
    let page = Array(String(repeating: "<li class=\"row\"><a href=\"/countries/chad/\">Chad</a></li>\n", count: 60).utf8)

    @Test func brotliRoundTrips() throws {
        let packed = try #require(Brotli.compress(page))
        #expect(packed.count < page.count / 10)
        #expect(Brotli.decompress(packed) == page)
    }

    @Test func copiesAreTheSameBytesEveryTime() throws {
        let first = try Precompressor.copies(of: page, relative: "index.html")
        let second = try Precompressor.copies(of: page, relative: "index.html")
        #expect(first.map(\.0) == ["index.html.gz", "index.html.br"])
        #expect(first.map(\.1) == second.map(\.1))
        #expect(Gzip.decompress(first[0].1) == page)
        #expect(Brotli.decompress(first[1].1) == page)
        // No modification time in the gzip header: bytes 4-7 are zero.
        #expect(Array(first[0].1[4..<8]) == [0, 0, 0, 0])
    }

    @Test func onlyTextFilesGetCopies() {
        #expect(Precompressor.wantsCopies("search/manifest.json"))
        #expect(Precompressor.wantsCopies("assets/sift.js"))
        #expect(Precompressor.wantsCopies("a/b/index.html"))
        #expect(!Precompressor.wantsCopies("assets/logo.png"))
        #expect(!Precompressor.wantsCopies("index.html.gz"))
        #expect(!Precompressor.wantsCopies("folder.d/README"))
    }
}
