import Foundation
import Testing
@testable import SiftKit

/// `sift build` after a small edit updates the output in place (the changed files renamed over
/// the old ones, the rest untouched) instead of linking every file into a new folder; past a
/// share of changed files it swaps in a whole new folder. Either way the output is a clean build's.
struct InPlaceBuildTests {
    func inode(_ url: URL) throws -> UInt64? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64
    }

    func options(_ site: TestSite, share: Double, precompress: Bool) -> SiteBuilder.Options {
        var options = SiteBuilder.Options(site: site.root, baseURL: "/")
        options.inPlaceShare = share
        options.precompress = precompress
        return options
    }

    /// Random edits, each built incrementally in place (share 1) or always swapped (share 0),
    /// each output compared with a clean build's and its index's size in the report with the
    /// files'; precompressed, with bodies long enough that
    /// their text files get copies (kept, or linked under the new name of their group).
    @Test(arguments: [(7, 1.0, false), (8, 1.0, false), (9, 0.0, false), (10, 1.0, true), (11, 0.0, true)] as [(UInt64, Double, Bool)])
    func editSequencesMatchCleanBuilds(seed: UInt64, share: Double, precompress: Bool) throws {
        let edits = IncrementalBuildTests()
        var rng = SeededRNG(state: seed)
        var rows = (0..<8).map { "Thing \($0) \(IncrementalBuildTests.words[$0])" }
        let site = try edits.thingsSite(rows: rows, page: "Some *text* about harbors.\n")
        defer { site.delete() }
        let options = options(site, share: share, precompress: precompress)
        try SiteBuilder(options: options).build()
        var clean = SiteBuilder.Options(site: site.root, output: site.root.appendingPathComponent("clean"), baseURL: "/")
        clean.mode = .clean
        clean.precompress = precompress
        var log: [String] = []
        for step in 0..<10 {
            log.append(try edits.edit(site, &rng, rows: &rows))
            let page = "Content/things/\(Slug.make(rows[step % rows.count])).md"
            try site.write(page, "Body with zq\(step) and \(edits.randomText(&rng, words: precompress ? 300 : 3)).\n")
            let folder = try inode(site.output)
            // Settled, so that each build leaves its stamps and the next adds its change to their index size.
            try edits.backdate(site)
            let report = try SiteBuilder(options: options).build()
            #expect((try inode(site.output) == folder) == (share == 1), "in place keeps the folder, a swap replaces it")
            #expect(report.indexBytes == BuildCommand.treeSize(site.output.appendingPathComponent("search")), "the index's size after \(log)")
            let built = site.snapshot()
            // The clean build keeps its own cache: the next incremental build must find public/'s.
            let cache = DiskCache.folder(in: site.root), kept = site.root.appendingPathComponent("kept-cache")
            try FileManager.default.moveItem(at: cache, to: kept)
            try SiteBuilder(options: clean).build()
            try FileManager.default.removeItem(at: cache)
            try FileManager.default.moveItem(at: kept, to: cache)
            let expected = site.snapshot(of: site.root.appendingPathComponent("clean"))
            #expect(built.keys.sorted() == expected.keys.sorted(), "seed \(seed) after \(log)")
            for (path, bytes) in expected where built[path] != bytes {
                Issue.record("seed \(seed): \(path) differs after \(log)")
            }
        }
    }

    /// Forty rows, two of them with a page: an edit of one page changes a few of its files.
    func fortyThings() throws -> TestSite {
        let rows = (0..<40).map { "Thing \($0)" }
        return try TestSite(["Content/things/things.txt": rows.joined(separator: "\n") + "\n",
                             "Content/things/thing-3.md": "Body three.\n", "Content/things/thing-4.md": "Body four.\n"])
    }

    /// An unchanged page keeps its file (the same inode) and the output folder stays the same
    /// folder; only the edited page is written.
    @Test func aSmallEditTouchesOnlyWhatItChanges() throws {
        let site = try fortyThings()
        defer { site.delete() }
        #expect(site.build().status == 0)
        let folder = try inode(site.output), kept = try inode(site.output.appendingPathComponent("things/thing-4/index.html"))
        try site.write("Content/things/thing-3.md", "Body three, changed.\n")
        #expect(site.build().status == 0)
        #expect(try inode(site.output) == folder)
        #expect(try inode(site.output.appendingPathComponent("things/thing-4/index.html")) == kept)
        #expect(site.page("things/thing-3/index.html")?.contains("Body three, changed.") == true)
    }

    /// A file someone deleted from the output since the last build is written again, not
    /// assumed to be there.
    @Test func aFileDeletedFromTheOutputComesBack() throws {
        let site = try fortyThings()
        defer { site.delete() }
        #expect(site.build().status == 0)
        let expected = site.snapshot()
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("things/thing-4/index.html"))
        try site.write("Content/things/thing-3.md", "Body three.\n\nMore.\n")
        try site.write("Content/things/thing-3.md", "Body three.\n")
        #expect(site.build().status == 0)
        #expect(site.snapshot() == expected)
    }

    /// A folder of the output replaced by a link to a folder elsewhere: an in-place build renamed
    /// the edited page through the link, writing outside the output. It refuses, and writes nothing
    /// there; a clean build replaces the link with the folder it makes.
    @Test func anInPlaceBuildWritesNothingThroughALinkInTheOutput() throws {
        let site = try fortyThings()
        defer { site.delete() }
        #expect(site.build().status == 0)
        let outside = site.root.appendingPathComponent("outside")
        let linked = site.output.appendingPathComponent("things/thing-3")
        try FileManager.default.moveItem(at: linked, to: outside)
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: outside)
        let before = try String(contentsOf: outside.appendingPathComponent("index.html"), encoding: .utf8)
        let output = site.snapshot()
        try site.write("Content/things/thing-3.md", "Body three, edited.\n")
        let out = site.build()
        #expect(out.status == 1)
        #expect(site.snapshot() == output, "nothing of the output moved")
        #expect(out.stderr.contains("things/thing-3 is a link"), "\(out.stderr)")
        #expect(try String(contentsOf: outside.appendingPathComponent("index.html"), encoding: .utf8) == before)
        #expect(site.build(["--clean"]).status == 0)
        #expect(try String(contentsOf: outside.appendingPathComponent("index.html"), encoding: .utf8) == before)
        #expect(site.page("things/thing-3/index.html")?.contains("Body three, edited.") == true)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: linked.path)) == nil, "a folder now")
    }

    /// A file of the index someone deleted from the output since the last build (the output
    /// folder's own stamp unchanged) is written again, and the index's size in the summary is the
    /// files', then and after the next edit: not the last build's figure with the file counted twice.
    @Test func theIndexSizeHoldsWhenAnIndexFileWasDeleted() throws {
        let edits = IncrementalBuildTests()
        let rows = (0..<8).map { "Thing \($0) \(IncrementalBuildTests.words[$0])" }
        let site = try edits.thingsSite(rows: rows, page: "Some *text* about harbors.\n")
        defer { site.delete() }
        let options = options(site, share: 1, precompress: false)
        try edits.backdate(site)
        try SiteBuilder(options: options).build()
        let search = site.output.appendingPathComponent("search")
        let victim = try #require(FileManager.default.contentsOfDirectory(atPath: search.appendingPathComponent(IndexFileNames.folder).path)
            .sorted().first { $0.hasPrefix("facets") || $0.hasPrefix("shard") || $0.hasPrefix("docs") })
        try FileManager.default.removeItem(at: search.appendingPathComponent(IndexFileNames.folder + victim))
        for body in ["Another body about volcanoes.\n", "A third body about glaciers.\n"] {
            try site.write("Content/things/thing-0-harbor.md", body)
            try edits.backdate(site)
            let report = try SiteBuilder(options: options).build()
            #expect(report.indexBytes == BuildCommand.treeSize(search), "\(victim) deleted, then \(body)")
        }
    }

    /// An in-place commit removes the cache before it renames anything: a build killed while
    /// renaming leaves no cache, and the next build renders everything and swaps it in whole,
    /// whatever mix of files the killed one left.
    @Test func aBuildAfterAKilledInPlaceCommitMendsTheOutput() throws {
        let rows = (0..<40).map { "Thing \($0)" }
        let site = try TestSite(["Content/things/things.txt": rows.joined(separator: "\n") + "\n",
                                 "Content/things/thing-3.md": "Body three.\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let expected = site.snapshot()
        DiskCache.remove(site: site.root)
        try Data("half".utf8).write(to: site.output.appendingPathComponent("things/thing-3/index.html"))
        try Data("stale".utf8).write(to: site.output.appendingPathComponent("things/stale.html"))
        #expect(site.build().status == 0)
        #expect(site.snapshot() == expected)
    }
}
