import Foundation
import Testing
@testable import SiftKit

/// An incremental `sift build` of a sharded index keeps the last build's shard and union files
/// that an edit leaves alone (linked, not written again), and its output stays byte for byte a
/// clean build's. The sites are small, their index cut into shards of a few hundred bytes.
struct ShardReuseTests {
    let edits = IncrementalBuildTests()
    let chained = ChainedBuildTests()

    /// Words enough that a page's words fall in many shards, each word in several pages.
    static let vocabulary: [String] = {
        var rng = SeededRNG(state: 30)
        let syllables = ["ka", "lo", "mi", "ren", "tu", "sho", "vi", "ar", "nel", "qu", "zo", "bri"]
        return (0..<300).map { _ in (0..<Int.random(in: 2...4, using: &rng)).map { _ in syllables.randomElement(using: &rng)! }.joined() }
    }()

    func prose(_ rng: inout SeededRNG, words n: Int) -> String {
        (0..<n).map { _ in Self.vocabulary.randomElement(using: &rng)! }.joined(separator: " ")
    }

    /// With `answers`, the index carries the answers of short terms (docs/search-index.md, "Answers").
    @discardableResult
    func build(_ site: TestSite, clean: Bool = false, answers: Bool = false, ranked: Bool = false) throws -> SiteBuilder.Report {
        var options = SiteBuilder.Options(site: site.root)
        options.mode = clean ? .clean : .incremental
        options.indexSharding = (threshold: 0, target: 600, heavy: SearchIndexBuilder.heavyTermBytesDefault)
        options.answersFrom = answers ? 0 : .max
        options.rankedFrom = ranked ? 0 : .max
        return try SiteBuilder(options: options).build()
    }

    /// The index's files of a kind (`shard`, `union`) by name, with their inodes.
    func files(_ site: TestSite, kind: String) -> [String: UInt64] {
        let folder = site.output.appendingPathComponent("search/immutable").path
        var out: [String: UInt64] = [:]
        for name in FileSystem.list(URL(fileURLWithPath: folder)) where name.hasPrefix(kind + ".") {
            var st = stat()
            if stat(folder + "/" + name, &st) == 0 { out[name] = UInt64(st.st_ino) }
        }
        return out
    }

    func makeSite(_ rng: inout SeededRNG) throws -> (TestSite, rows: [String]) {
        let rows = (0..<30).map { "Thing \($0) \(IncrementalBuildTests.words[$0 % 10])" }
        let site = try edits.thingsSite(rows: rows, page: prose(&rng, words: 80) + "\n")
        for row in rows.dropFirst() { try site.write("Content/things/\(Slug.make(row)).md", prose(&rng, words: 80) + "\n") }
        return (site, rows)
    }

    @Test func aOnePageEditLinksTheShardsItLeavesAlone() throws {
        var rng = SeededRNG(state: 31)
        let (site, rows) = try makeSite(&rng)
        defer { site.delete() }
        try build(site)
        let shards = files(site, kind: "shard"), unions = files(site, kind: "union")
        #expect(shards.count > 20, "the index is cut into many shards")
        // A line of words other pages hold too: their postings change, the shards' bounds stay.
        let page = "Content/things/\(Slug.make(rows[4])).md"
        try site.write(page, String(decoding: try Data(contentsOf: site.root.appendingPathComponent(page)), as: UTF8.self) + "\n" + prose(&rng, words: 3) + "\n")
        try edits.backdate(site)
        try build(site)
        let after = files(site, kind: "shard")
        let linked = after.filter { shards[$0.key] == $0.value }.count
        #expect(linked > 0 && linked < after.count, "\(linked) of \(after.count) shards linked")
        #expect(linked >= shards.count / 2, "most shards untouched by one page: \(linked) of \(shards.count) linked")
        for (name, inode) in files(site, kind: "union") where unions[name] != nil {
            #expect(inode == unions[name], "\(name): an unchanged union file is linked")
        }
        let clean = try TestSite([:])
        defer { clean.delete() }
        try chained.mirror(site, into: clean)
        try build(clean, clean: true)
        #expect(site.snapshot() == clean.snapshot(), "the edited build is the clean build")
    }

    /// The last manifest's bounds and file names are read without decoding its document
    /// tables: what a JSON decoder reads, whatever the titles and fields hold.
    @Test func theLastManifestsBoundsAndFilesAreThoseItHolds() throws {
        var rng = SeededRNG(state: 32)
        let (site, rows) = try makeSite(&rng)
        defer { site.delete() }
        try site.write("Content/things/\(Slug.make(rows[2])).md",
                       "---\ntitle: 'A \"bounds\":[1,2] and \"files\":{\"shard-0.json\":\"x\"} title'\nfiles: '\"files\":{}'\n---\n" + prose(&rng, words: 40) + "\n")
        try build(site)
        let bytes = [UInt8](try Data(contentsOf: site.output.appendingPathComponent("search/manifest.json")))
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let read = try #require(ShardReuse.boundsAndFiles(bytes))
        #expect(read.bounds == manifest["bounds"] as? [Int] && !read.bounds.isEmpty)
        #expect(read.files == manifest["files"] as? [String: String] && !read.files.isEmpty)
        #expect(String(decoding: bytes, as: UTF8.self).contains("bounds\\\":[1,2]"), "the title is in the manifest")
        for damaged in ["{\"bounds\":[1,x],\"files\":{}}", "{\"bounds\":[1,2],\"files\":{\"a\":\"b\"", "{\"files\":{}}", ""] {
            #expect(ShardReuse.boundsAndFiles(Array(damaged.utf8)) == nil, "\(damaged)")
        }
        #expect(ShardReuse.boundsAndFiles(Array("{\"bounds\":[],\"files\":{}}".utf8))?.bounds == [])
    }

    /// The third sequence's index carries answers, which a build keeps while no title or field
    /// changes; the fourth's takes the ranked layout (version 6), whose every file is made again;
    /// the fifth's both, its answers kept by the same key from version 5's tables.
    @Test(arguments: [(41, false, false), (42, false, false), (43, true, false), (44, false, true), (45, true, true)] as [(UInt64, Bool, Bool)])
    func editSequencesOfAShardedIndexMatchCleanBuilds(seed: UInt64, answers: Bool, ranked: Bool) throws {
        var rng = SeededRNG(state: seed)
        var (site, rows) = try makeSite(&rng)
        defer { site.delete() }
        let clean = try TestSite([:])
        defer { clean.delete() }
        try build(site, answers: answers, ranked: ranked)
        var log: [String] = []
        for step in 0..<10 {
            if step % 2 == 0 { log.append(try edits.edit(site, &rng, rows: &rows)) }
            // Words that come and go, in one page or two, so shards change and change back.
            for k in 0..<(step % 3 == 0 ? 2 : 1) {
                let page = "Content/things/\(Slug.make(rows[(step * 7 + k * 3) % rows.count])).md"
                if step % 2 == 0 {
                    try site.write(page, prose(&rng, words: 60) + " zq\(step % 4) zqextra\n")
                    log.append("prose into \(page)")
                } else {
                    // A few words more: most shards are kept.
                    let text = String(decoding: try Data(contentsOf: site.root.appendingPathComponent(page)), as: UTF8.self)
                    try site.write(page, text + "\n" + prose(&rng, words: 2) + " zq\(step % 4)\n")
                    log.append("two words into \(page)")
                }
            }
            try edits.backdate(site)
            try build(site, answers: answers, ranked: ranked)
            try chained.mirror(site, into: clean)
            try build(clean, clean: true, answers: answers, ranked: ranked)
            let got = site.snapshot(), expected = clean.snapshot()
            #expect(!ranked || got.keys.contains { $0.contains("search/immutable/text-") }, "seed \(seed): the ranked layout's records")
            #expect(!answers || got.keys.contains { $0.contains("search/immutable/answers.") }, "seed \(seed): answers written")
            #expect(got.keys.sorted() == expected.keys.sorted(), "seed \(seed) after \(log)")
            for (path, bytes) in expected where got[path] != bytes {
                Issue.record("seed \(seed): \(path) differs after \(log)")
            }
        }
    }
}
