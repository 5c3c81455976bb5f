import Foundation
import Testing
@testable import SiftKit

@Suite struct PrecompressorTests {
    let page = Array(String(repeating: "<li class=\"row\"><a href=\"/countries/chad/\">Chad</a></li>\n", count: 60).utf8)

    @Test func brotliRoundTrips() throws {
        let packed = try #require(Brotli.compress(page))
        #expect(packed.count < page.count / 10)
        #expect(Brotli.decompress(packed) == page)
        // In blocks of 64 KB (JSON's copies), and a megabyte of them.
        let big = Array(String(repeating: #"{"values":["Chad","Côte d'Ivoire"],"files":{"shard-0.json":"0123456789ab"}}"#, count: 14_000).utf8)
        #expect(Brotli.decompress(try #require(Brotli.compress(big, blockBits: 16))) == big)
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
        // A name with no room left for ".gz": Linux allows 255 bytes.
        #expect(Precompressor.wantsCopies("a/" + String(repeating: "x", count: 248) + ".txt"))
        #expect(!Precompressor.wantsCopies("a/" + String(repeating: "x", count: 249) + ".txt"))
    }
}

@Suite struct PrecompressedBuildTests {
    static let files = [
        "Content/fruits/fruits.csv": "name,kind\nLemon,Citrus\nCherry,Stone\nPlum,Stone\n",
        "Content/fruits/collection.yml": "title_field: name\nscope_field: kind\nscopes: [Citrus, Stone]\n",
        "Content/fruits/lemon.md": String(repeating: "Lemons are sour and yellow. ", count: 100) + "\n",
        "Content/fruits/plum.md": String(repeating: "Plums are sweet and purple. ", count: 100) + "\n",
    ]

    func compressedCopies(_ site: TestSite) -> [String: Data] {
        site.snapshot().filter { Precompressor.isCompressedCopy($0.key) }
    }

    @Test func everyTextFileOverOneKilobyteGetsBothCopiesThatDecompressToIt() throws {
        let site = try TestSite(Self.files)
        defer { site.delete() }
        #expect(site.build(["--precompress"]).status == 0)
        let all = site.snapshot()
        for (path, bytes) in all where Precompressor.wantsCopies(path) {
            if bytes.count > Precompressor.minimumSize {
                #expect(Gzip.decompress(Array(all[path + ".gz"] ?? Data())) == Array(bytes), "\(path).gz")
                #expect(Brotli.decompress(Array(all[path + ".br"] ?? Data())) == Array(bytes), "\(path).br")
            } else {
                #expect(all[path + ".gz"] == nil && all[path + ".br"] == nil, "\(path) is small")
            }
        }
        #expect(all["fruits/lemon/index.html.br"] != nil)
        #expect(all["assets/sift.js.br"] != nil)
        #expect(all["assets/sift.js.gz"] != nil)
    }

    @Test func aStaticFileWhoseNameLeavesNoRoomForGzIsCopiedAsItIs() throws {
        let name = String(repeating: "n", count: 251) + ".txt"
        let site = try TestSite(Self.files.merging(["Static/" + name: String(repeating: "long text ", count: 200)]) { $1 })
        defer { site.delete() }
        let result = site.build(["--precompress"])
        #expect(result.status == 0, "\(result.stderr)")
        let all = site.snapshot()
        #expect(all[name]?.count == 2000)
        #expect(all[name + ".gz"] == nil && all[name + ".br"] == nil)
        #expect(all["fruits/lemon/index.html.br"] != nil)
    }

    @Test func twoCleanBuildsWriteTheSameCopies() throws {
        let site = try TestSite(Self.files.merging(["Content/site.yml": "precompress: true\n"]) { $1 })
        defer { site.delete() }
        #expect(site.build(["--clean"]).status == 0)
        let first = compressedCopies(site)
        #expect(!first.isEmpty)
        #expect(site.build(["--clean"]).status == 0)
        #expect(compressedCopies(site) == first)
    }

    @Test func anIncrementalBuildRecompressesWhatChangedAndKeepsTheRest() throws {
        let site = try TestSite(Self.files)
        defer { site.delete() }
        #expect(site.build(["--precompress"]).status == 0)
        let plum = try FileManager.default.attributesOfItem(atPath: site.output.appendingPathComponent("fruits/plum/index.html.br").path)
        try site.write("Content/fruits/lemon.md", String(repeating: "Lemons are sharp and bright. ", count: 100) + "\n")
        #expect(site.build(["--precompress"]).status == 0)
        let lemon = try #require(site.page("fruits/lemon/index.html"))
        let lemonBr = Array(try Data(contentsOf: site.output.appendingPathComponent("fruits/lemon/index.html.br")))
        #expect(Brotli.decompress(lemonBr) == Array(lemon.utf8))
        let plumAfter = try FileManager.default.attributesOfItem(atPath: site.output.appendingPathComponent("fruits/plum/index.html.br").path)
        #expect(plumAfter[.systemFileNumber] as? Int == plum[.systemFileNumber] as? Int, "the unchanged page's copy is the same file")
        // And the same bytes as a clean build's.
        let incremental = compressedCopies(site)
        #expect(site.build(["--clean", "--precompress"]).status == 0)
        #expect(compressedCopies(site) == incremental)
    }

    @Test func withoutPrecompressThereAreNoCopies() throws {
        let site = try TestSite(Self.files)
        defer { site.delete() }
        #expect(site.build(["--precompress"]).status == 0)
        #expect(site.build().status == 0)
        #expect(compressedCopies(site).isEmpty)
    }
}
