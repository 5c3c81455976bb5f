import Foundation
import Testing
@testable import SiftKit

/// `sift build` after `sift build`, each reusing what the last one left (pages, digests, the
/// index's text files), never a clean build in between: after every edit, a failed build
/// included, the output is byte for byte what a clean build of the same sources writes.
struct ChainedBuildTests {
    let edits = IncrementalBuildTests()

    /// Enough rows with pages of enough text that the index has several text files.
    func makeSite(_ rng: inout SeededRNG) throws -> (TestSite, rows: [String]) {
        let rows = (0..<40).map { "Thing \($0) \(IncrementalBuildTests.words[$0 % 10])" }
        let site = try edits.thingsSite(rows: rows, page: "Some *text* about harbors.\n")
        for row in rows.dropFirst() where Bool.random(using: &rng) || row.hasSuffix("tide") {
            try site.write("Content/things/\(Slug.make(row)).md", edits.randomText(&rng, words: 120) + "\n")
        }
        return (site, rows)
    }

    /// The sources of `site` copied over `mirror`'s, for a clean build of the same site elsewhere
    /// (a clean build of the same folder would leave its cache for another output).
    func mirror(_ site: TestSite, into mirror: TestSite) throws {
        for folder in ["Content", "Templates", "Static"] {
            let to = mirror.root.appendingPathComponent(folder)
            try? FileManager.default.removeItem(at: to)
            let from = site.root.appendingPathComponent(folder)
            if FileManager.default.fileExists(atPath: from.path) { try FileManager.default.copyItem(at: from, to: to) }
        }
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func chainedBuildEditSequencesMatchCleanBuilds(seed: UInt64) throws {
        var rng = SeededRNG(state: seed), staticRNG = SeededRNG(state: seed &+ 1000)
        let (site, firstRows) = try makeSite(&rng)
        var rows = firstRows
        defer { site.delete() }
        let clean = try TestSite([:])
        defer { clean.delete() }
        #expect(site.build().status == 0)
        var log: [String] = []
        for step in 0..<14 {
            log.append(try edits.edit(site, &rng, rows: &rows))
            // Words that come and go, so text files and shards change and change back.
            let page = "Content/things/\(Slug.make(rows[(step * 7) % rows.count])).md"
            try site.write(page, "Body with zq\(step % 4) and \(edits.randomText(&rng, words: 40)).\n")
            log.append("zq\(step % 4) into \(page)")
            log.append(try edits.editStatic(site, &staticRNG))
            if step == 5 {
                let before = site.snapshot()
                try site.write(page, "---\ntitle: [unclosed\n---\nBroken.\n")
                #expect(site.build().status == 1)
                #expect(site.snapshot() == before, "a failed build left public/ as it was")
                try site.write(page, "Mended zq\(step).\n")
                log.append("broken front matter, then mended")
            }
            if step % 3 != 2 { try edits.backdate(site) }
            let built = site.build()
            #expect(built.status == 0, "\(built.stderr)")
            if step % 4 == 3 { #expect(site.build().status == 0, "nothing changed") }
            try mirror(site, into: clean)
            #expect(clean.build(["--clean"]).status == 0)
            let got = site.snapshot(), expected = clean.snapshot()
            #expect(got.keys.sorted() == expected.keys.sorted(), "seed \(seed) after \(log)")
            for (path, bytes) in expected where got[path] != bytes {
                Issue.record("seed \(seed): \(path) differs after \(log)")
            }
        }
    }

    /// The text files of unchanged pages are linked from the last build, not written again: in
    /// the edited page's group under the group's new name, in the other groups under their own.
    @Test func anEditLinksTheOtherPagesTextFiles() throws {
        var rng = SeededRNG(state: 11)
        let rows = (0..<6).map { "Thing \($0) \(IncrementalBuildTests.words[$0])" }
        let site = try edits.thingsSite(rows: rows, page: edits.randomText(&rng, words: 600) + "\n")
        defer { site.delete() }
        for row in rows.dropFirst() { try site.write("Content/things/\(Slug.make(row)).md", edits.randomText(&rng, words: 600) + "\n") }
        /// Each text file's number, name and inode.
        func textFiles() -> [Int: (name: String, inode: UInt64)] {
            let folder = site.output.appendingPathComponent("search/immutable").path
            var files: [Int: (String, UInt64)] = [:]
            for name in FileSystem.list(URL(fileURLWithPath: folder)) {
                guard let match = name.firstMatch(of: /^text-([0-9]+)\.[0-9a-f]{12}\.json$/), let n = Int(match.1) else { continue }
                var st = stat()
                if stat(folder + "/" + name, &st) == 0 { files[n] = (name, UInt64(st.st_ino)) }
            }
            return files
        }
        #expect(site.build().status == 0)
        let before = textFiles()
        #expect(before.count >= rows.count, "a text file a page")
        let manifest = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: site.output.appendingPathComponent("search/manifest.json"))) as? [String: Any])
        let perFile = try #require(manifest["texts"] as? Int), perGroup = try #require(manifest["textGroup"] as? Int)
        #expect(perFile == 1 && perGroup < before.count, "several groups")
        let edited = 3, group = edited / perGroup
        try site.write("Content/things/\(Slug.make(rows[edited])).md", edits.randomText(&rng, words: 600) + "\n")
        #expect(site.build().status == 0)
        let after = textFiles()
        #expect(Set(after.keys) == Set(before.keys))
        for (n, file) in after {
            let old = try #require(before[n])
            #expect((file.name != old.name) == (n / perGroup == group), "text-\(n).json: renamed with its group only")
            #expect((file.inode != old.inode) == (n == edited), "text-\(n).json: written only when its page changed, else linked")
        }
    }
}
