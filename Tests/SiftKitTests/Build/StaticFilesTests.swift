import Foundation
import Testing
@testable import SiftKit

/// Static/: files copied as they are to the top of the output, never over a file Sift writes.
struct StaticFilesTests {
    static let favicon: [UInt8] = [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 0xFF, 0xFE, 0x80, 0x0D, 0x0A]

    func site(_ files: [String: String]) throws -> TestSite {
        try TestSite(["Content/c/c.txt": "One\nTwo\n", "Content/about.md": "# About\n\nSee [robots](/robots.txt).\n"].merging(files) { $1 })
    }

    @Test func staticFilesAreCopiedAsTheyAreToTheTopOfTheOutput() throws {
        let site = try site(["Static/CNAME": "example.com\n", "Static/robots.txt": "User-agent: *\n",
                             "Static/.well-known/security.txt": "Contact: mailto:a@example.com\n",
                             "Static/c/one/photo.txt": "beside a page\n", "Elsewhere/shared/logo.svg": "<svg/>"])
        defer { site.delete() }
        try Data(Self.favicon).write(to: site.root.appendingPathComponent("Static/favicon.ico"))
        // A link to a folder is followed; a link back to a folder already walked is not entered again.
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("Static/shared").path, withDestinationPath: "../Elsewhere/shared")
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("Static/c/loop").path, withDestinationPath: "..")
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.hasPrefix("built 6 pages (2 c), 6 static files, search index "), "\(out.stderr)")
        #expect(site.page("CNAME") == "example.com\n")
        #expect(site.page("robots.txt") == "User-agent: *\n")
        #expect(site.page(".well-known/security.txt") == "Contact: mailto:a@example.com\n")
        #expect(site.page("c/one/photo.txt") == "beside a page\n")
        #expect(site.page("c/one/index.html") != nil)
        #expect(site.page("shared/logo.svg") == "<svg/>")
        #expect(try Array(Data(contentsOf: site.output.appendingPathComponent("favicon.ico"))) == Self.favicon)
        let check = SiftCLI.run(["check"], in: site.root)
        #expect(check.status == 0 && check.stderr == "", "the link to /robots.txt finds it: \(check.stderr)")
        #expect(check.stdout.hasPrefix("checked 6 pages (2 c), 6 static files in "), "\(check.stdout)")
    }

    /// A static file of several megabytes (copied a megabyte at a time, never held whole) comes
    /// out byte for byte, and again after a byte of it changed, in an incremental build.
    @Test func aLargeStaticFileIsCopiedByteForByte() throws {
        let site = try site([:])
        defer { site.delete() }
        var bytes = (0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let source = site.root.appendingPathComponent("Static/media/film.bin")
        try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: source)
        let copied = site.output.appendingPathComponent("media/film.bin")
        var out = site.build()
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try Array(Data(contentsOf: copied)) == bytes)
        bytes[(2 << 20) + 3] ^= 0xFF
        try Data(bytes).write(to: source)
        out = site.build()
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try Array(Data(contentsOf: copied)) == bytes)
    }

    /// The hash of a file read a piece at a time is the hash of its bytes read whole, wherever the pieces end.
    @Test func aStreamHashesAsTheBytesWhole() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        var whole = StableHasher()
        bytes.withUnsafeBytes { whole.combine(bytes: $0) }
        // The hashes the caches hold: what `combine(bytes:)` gave before it was written as a stream.
        #expect(whole.finalize() == 16_350_062_005_975_860_386)
        var text = StableHasher()
        text.combine("café, 咖啡")
        #expect(text.finalize() == 11_731_261_420_466_319_710)
        for cuts in [[], [8], [3], [1, 2, 3, 4, 5], [7, 9, 16, 999], [0, 500, 501]] {
            var stream = StableHasher.Stream()
            var start = 0
            for end in cuts + [bytes.count] {
                bytes[start..<end].withUnsafeBytes { stream.add($0) }
                start = end
            }
            #expect(stream.finish().finalize() == whole.finalize(), "cut at \(cuts)")
        }
    }

    /// Each path Sift writes, taken by a static file, is an error naming both, from `sift build`
    /// (which leaves the output as it was) and `sift check` alike.
    @Test func aStaticFileMayNotTakeAPathSiftWrites() throws {
        let site = try site([
            "Static/index.html": "x", "Static/404.html": "x", "Static/_headers": "x", "Static/sitemap.xml.gz": "x",
            "Static/sitemap-2.xml": "x", "Static/about/index.html": "x", "Static/c/index.html.br": "x", "Static/c/two/index.html": "x",
            "Static/assets/logo.png": "x", "Static/search/manifest.json": "x", "Static/c/one": "x",
        ])
        defer { site.delete() }
        let expected = """
            Static/404.html: error: static file '404.html' takes the path of the page for a missing page, which Sift writes: rename or move it
            Static/_headers: error: static file '_headers' takes the path of the hosts' headers file, which Sift writes: rename or move it
            Static/about/index.html: error: static file 'about/index.html' takes the path of the page of Content/about.md, which Sift writes: rename or move it
            Static/assets/logo.png: error: static file 'assets/logo.png' is inside assets/, where Sift writes the site's assets (yours go in Templates/assets/): rename or move it
            Static/c/index.html.br: error: static file 'c/index.html.br' takes the path of the .br copy (--precompress) of the list of the collection 'c', which Sift writes: rename or move it
            Static/c/one: error: static file 'c/one' is a file where Sift writes a folder, for the page of Content/c/c.txt:1:1: rename or move it
            Static/c/two/index.html: error: static file 'c/two/index.html' takes the path of the page of Content/c/c.txt:2:1, which Sift writes: rename or move it
            Static/index.html: error: static file 'index.html' takes the path of the home page, which Sift writes: rename or move it
            Static/search/manifest.json: error: static file 'search/manifest.json' is inside search/, where Sift writes the search index: rename or move it
            Static/sitemap-2.xml: error: static file 'sitemap-2.xml' takes the name of a part of the sitemap (sitemap-N.xml), which Sift writes: rename or move it
            Static/sitemap.xml.gz: error: static file 'sitemap.xml.gz' takes the path of the .gz copy (--precompress) of the sitemap, which Sift writes: rename or move it

            """
        let out = site.build()
        #expect(out.status == 1)
        #expect(out.stderr == expected)
        #expect(!FileManager.default.fileExists(atPath: site.output.path), "a failed build writes nothing")
        let check = SiftCLI.run(["check"], in: site.root)
        #expect(check.status == 1 && check.stderr == expected)
    }

    @Test func aStaticEntryThatIsNoFileIsAnError() throws {
        let site = try site(["Static/robots.txt": "x\n"])
        defer { site.delete() }
        #expect(mkfifo(site.root.appendingPathComponent("Static/pipe").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("Static/gone.txt").path, withDestinationPath: "nowhere.txt")
        let out = site.build()
        #expect(out.status == 1)
        #expect(out.stderr == """
            Static/gone.txt: error: cannot read file: No such file or directory
            Static/pipe: error: cannot read file: not a regular file but a named pipe

            """)
    }

    /// A link in Static/ to the output copied the last build's output into the next one, which
    /// grew by a copy of itself every build.
    @Test func aStaticLinkIntoTheOutputIsAnError() throws {
        let site = try site(["Static/robots.txt": "x\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: site.output.path).sorted()
        for (name, target) in [("mirror", "../public"), ("items", "../public/search")] {
            let link = site.root.appendingPathComponent("Static/\(name)").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let out = site.build()
            #expect(out.status == 1)
            #expect(out.stderr == "Static/\(name): error: this folder leads into the output folder, which a build would copy into itself: remove the link\n")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: site.output.path).sorted() == before, "the output is as it was")
            try FileManager.default.removeItem(atPath: link)
        }
    }

    /// Added, changed and removed static files, a hidden folder among them, are picked up by the
    /// next `sift build`, which writes what a clean build writes: in place and swapping alike, and
    /// when the build has nothing else to do (its stamps walk Static/ too).
    @Test(arguments: [0.0, 1.0])
    func staticEditsAreBuiltIncrementally(inPlaceShare: Double) throws {
        let site = try site(["Static/robots.txt": "one\n", "Static/.well-known/security.txt": "a\n", "Static/files/a.txt": "a\n"])
        defer { site.delete() }
        let clean = try TestSite([:])
        defer { clean.delete() }
        let edits: [(String, (TestSite) throws -> Void)] = [
            ("changed", { try $0.write("Static/robots.txt", "two, longer\n") }),
            ("added", { try $0.write("Static/files/b.txt", "b\n") }),
            ("hidden folder removed", { try $0.remove("Static/.well-known") }),
            ("folder removed", { try $0.remove("Static/files") }),
            ("hidden file added", { try $0.write("Static/.nojekyll", "") }),
            ("Static/ removed", { try $0.remove("Static") }),
        ]
        var options = SiteBuilder.Options(site: site.root)
        options.inPlaceShare = inPlaceShare
        try SiteBuilder(options: options).build()
        for (what, edit) in edits {
            try edit(site)
            try IncrementalBuildTests().backdate(site)
            try SiteBuilder(options: options).build()
            try ChainedBuildTests().mirror(site, into: clean)
            #expect(clean.build(["--clean"]).status == 0)
            #expect(site.snapshot() == clean.snapshot(), "\(what)")
            #expect(site.build().status == 0, "nothing to do")
            #expect(site.snapshot() == clean.snapshot(), "\(what), then nothing")
        }
    }

    /// A static text file over 1 KB gets its `.gz` and `.br` copies as every text file does; a
    /// copy Static/ holds itself is written as it is, and a binary file gets none.
    @Test func precompressCopiesStaticTextFilesButKeepsTheSitesOwnCopies() throws {
        let text = String(repeating: "Disallow: /private/\n", count: 100)
        let site = try site(["Static/robots.txt": text, "Static/app.js": "let a = 1;\n" + String(repeating: "// ok\n", count: 300),
                             "Static/app.js.gz": "mine", "Static/small.txt": "short\n"])
        defer { site.delete() }
        try Data(repeating: 7, count: 5000).write(to: site.root.appendingPathComponent("Static/blob.bin"))
        #expect(site.build(["--precompress"]).status == 0)
        let gz = try Data(contentsOf: site.output.appendingPathComponent("robots.txt.gz"))
        #expect(Gzip.decompress(Array(gz)) == Array(text.utf8))
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("robots.txt.br").path))
        #expect(site.page("app.js.gz") == "mine")
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("app.js.br").path))
        for absent in ["small.txt.gz", "blob.bin.gz", "blob.bin.br"] {
            #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent(absent).path), "\(absent)")
        }
        try site.write("Static/robots.txt", text + "Allow: /\n")
        #expect(site.build(["--precompress"]).status == 0)
        #expect(Gzip.decompress(Array(try Data(contentsOf: site.output.appendingPathComponent("robots.txt.gz")))) == Array((text + "Allow: /\n").utf8))
        #expect(site.page("app.js.gz") == "mine")
    }

    /// Hugo's and Zola's `static/` would be left out without a word.
    @Test func aLowercaseStaticFolderIsAWarning() throws {
        let site = try site(["static/robots.txt": "x\n"])
        defer { site.delete() }
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(out.status == 0)
        #expect(out.stderr.hasPrefix("static: warning: folder 'static' is not read: static files go in Static/\nbuilt 6 pages (2 c), search index"), "\(out.stderr)")
        #expect(site.page("robots.txt") == nil)
    }

    /// `sift serve`'s watcher sees Static/'s hidden files (`.well-known/`), which it ignores elsewhere.
    @Test func theWatcherSeesStaticsHiddenFiles() throws {
        let site = try site(["Static/.well-known/security.txt": "a\n", "Content/.notes.md": "x"])
        defer { site.delete() }
        let snapshot = SiteWatcher.snapshot(["Content", "Templates"].map(site.root.appendingPathComponent),
                                            withHidden: [site.root.appendingPathComponent("Static")])
        #expect(snapshot.keys.contains { $0.hasSuffix("Static/.well-known/security.txt") })
        #expect(!snapshot.keys.contains { $0.hasSuffix(".notes.md") })
    }
}
