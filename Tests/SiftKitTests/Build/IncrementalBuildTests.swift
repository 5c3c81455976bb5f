import Foundation
import Testing
@testable import SiftKit

/// Incremental builds reuse unchanged pages; whatever the edits, the result must be byte for
/// byte what a clean build of the same sources writes.
struct IncrementalBuildTests {
    static let words = ["harbor", "Côte", "volcano", "lantern", "月光", "quartz", "meadow", "ember", "Ångström", "tide"]

    func randomText(_ rng: inout SeededRNG, words n: Int) -> String {
        (0..<n).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
    }

    /// Applies one random edit of the kinds authors make; returns what it did, for the failure message.
    func edit(_ site: TestSite, _ rng: inout SeededRNG, rows: inout [String]) throws -> String {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
            let i = Int.random(in: 0..<rows.count, using: &rng)
            try site.write("Content/things/\(Slug.make(rows[i])).md", "---\nkind: b\n---\n## \(randomText(&rng, words: 2))\n\n\(randomText(&rng, words: 12))\n")
            return "page body of \(rows[i])"
        case 1:
            let i = Int.random(in: 0..<rows.count, using: &rng)
            rows[i] = "Thing \(Int.random(in: 100..<999, using: &rng)) \(Self.words.randomElement(using: &rng)!)"
            if Set(rows.map(Slug.make)).count != rows.count { rows[i] += " \(i)" }
            try writeRows(site, rows)
            return "row \(i) renamed"
        case 2:
            rows.append("New \(rows.count) \(Self.words.randomElement(using: &rng)!)")
            try writeRows(site, rows)
            return "row added"
        case 3:
            try site.write("Templates/detail.mustache", "{{< layout}}{{$ main}}<h1>\(Int.random(in: 0..<5, using: &rng)) {{item.title}}</h1>{{{item.content}}}{{/ main}}{{/ layout}}")
            return "detail template"
        case 4:
            let scopes = Bool.random(using: &rng) ? "[a, b]" : "[b, a]", perPage = [0, 3].randomElement(using: &rng)!
            try site.write("Content/things/collection.yml", "title_field: name\nscope_field: kind\nscopes: \(scopes)\nlist_fields: [kind]\nfacets: [kind]\nsort_fields: [name]\nper_page: \(perPage)\n")
            return "collection.yml scopes \(scopes), per_page \(perPage)"
        case 5:
            try site.write("Content/site.yml", "title: Site \(Int.random(in: 0..<3, using: &rng))\nmarkdown: {unsafe: \(Bool.random(using: &rng))}\n")
            return "site.yml"
        default:
            if rows.count > 2 {
                let removed = rows.remove(at: Int.random(in: 0..<rows.count, using: &rng))
                try writeRows(site, rows)
                return "row \(removed) removed"
            }
            return "nothing"
        }
    }

    /// One edit of Static/: a file written or removed, a hidden one and a whole folder among them,
    /// drawn from a generator of its own so that the other edits' sequences stay as they were.
    func editStatic(_ site: TestSite, _ rng: inout SeededRNG) throws -> String {
        let files = ["robots.txt", ".well-known/security.txt", "files/notes.txt", "files/deep/data.json", "CNAME"]
        let file = files.randomElement(using: &rng)!
        if Int.random(in: 0..<6, using: &rng) == 0 {
            let folder = ["files", ".well-known"].randomElement(using: &rng)!
            try? site.remove("Static/" + folder)
            return "Static/\(folder)/ removed"
        }
        if FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Static/" + file).path) && Bool.random(using: &rng) {
            try site.remove("Static/" + file)
            return "Static/\(file) removed"
        }
        try site.write("Static/" + file, randomText(&rng, words: Int.random(in: 1..<300, using: &rng)) + "\n")
        return "Static/\(file) written"
    }

    /// The site both edit-sequence tests start from: eight rows, scopes a and b (also a facet),
    /// sorted by name, and a page for the first row with the given text; the caller deletes it.
    func thingsSite(rows: [String], page: String) throws -> TestSite {
        let site = try TestSite(["Content/things/collection.yml": "title_field: name\nscope_field: kind\nscopes: [a, b]\nfacets: [kind]\nsort_fields: [name]\n"])
        do {
            try writeRows(site, rows)
            try site.write("Content/things/thing-0-harbor.md", page)
        } catch {
            site.delete()
            throw error
        }
        return site
    }

    func writeRows(_ site: TestSite, _ rows: [String]) throws {
        let kinds = ["a", "b"]
        try site.write("Content/things/things.csv", "name,kind\n" + rows.enumerated().map { "\"\($1)\",\(kinds[$0 % 2])" }.joined(separator: "\n") + "\n")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomEditSequencesMatchCleanBuilds(seed: UInt64) throws {
        var rng = SeededRNG(state: seed), staticRNG = SeededRNG(state: seed &+ 1000)
        var rows = (0..<8).map { "Thing \($0) \(Self.words[$0])" }
        let site = try thingsSite(rows: rows, page: "Some <b>raw</b> *text* about harbors.\n")
        defer { site.delete() }
        #expect(site.build().status == 0)
        var log: [String] = []
        for _ in 0..<12 {
            log.append(try edit(site, &rng, rows: &rows))
            log.append(try editStatic(site, &staticRNG))
            let incremental = site.build()
            #expect(incremental.status == 0, "\(incremental.stderr)")
            let built = site.snapshot()
            let clean = site.build(["--clean"])
            #expect(clean.status == 0)
            let expected = site.snapshot()
            #expect(built.keys.sorted() == expected.keys.sorted(), "seed \(seed) after \(log)")
            for (path, bytes) in expected where built[path] != bytes {
                Issue.record("seed \(seed): \(path) differs after \(log)")
            }
        }
    }

    /// `sift serve` keeps its last build in memory and updates the output in place; after any
    /// edit, a failed build included, the output is what a clean build writes. The third
    /// sequence's index carries answers (docs/search-index.md, "Answers"), which the session keeps;
    /// the fourth's takes the ranked layout (version 6), which the session renders whole; the
    /// fifth's both, the ranked layout's answers worked out from version 5's tables kept in memory.
    @Test(arguments: [(4, false, false), (5, false, false), (6, true, false), (7, false, true), (8, true, true)] as [(UInt64, Bool, Bool)])
    func serveSessionEditSequencesMatchCleanBuilds(seed: UInt64, answers: Bool, ranked: Bool) throws {
        var rng = SeededRNG(state: seed), staticRNG = SeededRNG(state: seed &+ 1000)
        var rows = (0..<8).map { "Thing \($0) \(Self.words[$0])" }
        let site = try thingsSite(rows: rows, page: "Some *text* about harbors.\n")
        defer { site.delete() }
        var options = SiteBuilder.Options(site: site.root, baseURL: "/")
        options.mode = .serve(BuildSession())
        options.answersFrom = answers ? 0 : .max
        options.rankedFrom = ranked ? 0 : .max
        try SiteBuilder(options: options).build()
        var clean = SiteBuilder.Options(site: site.root, output: site.root.appendingPathComponent("clean"), baseURL: "/")
        clean.mode = .clean
        clean.answersFrom = options.answersFrom
        clean.rankedFrom = options.rankedFrom
        var log: [String] = []
        for step in 0..<14 {
            log.append(try edit(site, &rng, rows: &rows))
            // Words that come and go, so the index gains words and loses them.
            let page = "Content/things/\(Slug.make(rows[step % rows.count])).md"
            try site.write(page, "Body with zq\(step) and \(randomText(&rng, words: 3)).\n")
            log.append("zq\(step) into \(page)")
            log.append(try editStatic(site, &staticRNG))
            if step == 5 {
                try site.write(page, "---\ntitle: [unclosed\n---\nBroken.\n")
                #expect(throws: SiftError.self) { try SiteBuilder(options: options).build() }
                try site.write(page, "Mended zq\(step).\n")
                log.append("broken front matter, then mended")
            }
            if step % 3 != 2 { try backdate(site) }
            try SiteBuilder(options: options).build()
            let built = site.snapshot()
            try SiteBuilder(options: clean).build()
            let expected = site.snapshot(of: site.root.appendingPathComponent("clean"))
            #expect(built.keys.contains { $0.contains("search/immutable/answers.") } == answers, "seed \(seed)")
            #expect(built.keys.sorted() == expected.keys.sorted(), "seed \(seed) after \(log)")
            for (path, bytes) in expected where built[path] != bytes {
                Issue.record("seed \(seed): \(path) differs after \(log)")
            }
        }
    }

    /// Moves every source's modification time (Content/, Templates/, Static/) ten seconds back, each to a
    /// time of its own, so `sift serve` trusts what it remembers of them and `sift build` its
    /// stamps (both read again files changed within the last second, whose stamp could hide a
    /// second change).
    func backdate(_ site: TestSite) throws {
        for folder in ["Content", "Templates", "Static"] {
            let root = site.root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let rel as String in walk {
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                var times = [timespec(tv_sec: now.tv_sec - 10, tv_nsec: now.tv_nsec), timespec(tv_sec: now.tv_sec - 10, tv_nsec: now.tv_nsec)]
                #expect(utimensat(AT_FDCWD, root.appendingPathComponent(rel).path, &times, 0) == 0)
            }
        }
    }

    @Test func aServeRebuildTouchesOnlyTheFilesAnEditChanges() throws {
        let site = try TestSite(["Content/things/things.txt": "One\nTwo\nThree\n", "Content/things/one.md": "Body one.\n",
                                 "Content/things/three.md": "Body three.\n"])
        defer { site.delete() }
        var options = SiteBuilder.Options(site: site.root, baseURL: "/")
        options.mode = .serve(BuildSession())
        try SiteBuilder(options: options).build()
        func inode(_ path: String) throws -> UInt64? {
            try FileManager.default.attributesOfItem(atPath: site.output.appendingPathComponent(path).path)[.systemFileNumber] as? UInt64
        }
        let before = try ["things/one/index.html", "things/index.html", "sitemap.xml", "index.html"].map(inode)
        try site.write("Content/things/three.md", "Body three, changed.\n")
        try backdate(site)
        try SiteBuilder(options: options).build()
        let after = try ["things/one/index.html", "things/index.html", "sitemap.xml", "index.html"].map(inode)
        #expect(before == after, "unchanged files keep their inode: not written again")
        #expect(site.page("things/three/index.html")?.contains("Body three, changed.") == true)
        try site.remove("Content/things/three.md")
        try site.write("Content/things/things.txt", "One\nTwo\n")
        try SiteBuilder(options: options).build()
        #expect(site.page("things/three/index.html") == nil, "a page gone from the site is gone from the output")
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("things/three").path))
    }

    /// Files removed from the output by hand while `sift serve` runs: its rebuilds trusted what
    /// they remembered of the output, and a page, a collection's folder and the search manifest
    /// stayed missing, edit after edit. The rebuild after such a change checks each file it keeps,
    /// and its output is a clean build's again; the one after it trusts its memory again.
    @Test func aServeRebuildPutsBackWhatWasRemovedFromTheOutput() throws {
        let site = try TestSite(["Content/things/things.txt": "One\nTwo\nThree\n", "Content/things/one.md": "Body one.\n",
                                 "Content/about.md": "About.\n", "Content/notes/n1.md": "Note.\n"])
        defer { site.delete() }
        var options = SiteBuilder.Options(site: site.root, baseURL: "/")
        options.mode = .serve(BuildSession())
        try SiteBuilder(options: options).build()
        var clean = SiteBuilder.Options(site: site.root, output: site.root.appendingPathComponent("clean"), baseURL: "/")
        clean.mode = .clean
        for (step, removed) in ["about/index.html", "things", "search/manifest.json", "things/two/index.html"].enumerated() {
            // A hand comes later than a tick of the clock the kernel stamps changes with (4 ms) after a rebuild.
            usleep(10_000)
            try FileManager.default.removeItem(at: site.output.appendingPathComponent(removed))
            try site.write("Content/notes/n1.md", "Note, edit \(step).\n")
            try backdate(site)
            try SiteBuilder(options: options).build()
            try SiteBuilder(options: clean).build()
            #expect(site.snapshot() == site.snapshot(of: site.root.appendingPathComponent("clean")), "\(removed) put back")
        }
    }

    /// `sift build` run while `sift serve` runs (to publish, with the site's own base URL) rewrote
    /// the output under the session, whose next rebuild wrote only what its edit changed: the
    /// other pages kept the published base, and the preview's links broke. The session's next
    /// build writes the output whole, as a session's first.
    @Test func aServeRebuildAfterASiftBuildWritesTheOutputWhole() throws {
        let site = try TestSite(["Content/site.yml": "base_url: /repo/\n", "Content/things/things.txt": "One\nTwo\n", "Content/about.md": "About.\n"])
        defer { site.delete() }
        var serve = SiteBuilder.Options(site: site.root, baseURL: "/")
        serve.mode = .serve(BuildSession())
        try SiteBuilder(options: serve).build()
        #expect(site.build().status == 0)
        #expect(site.page("index.html")?.contains("href=\"/repo/") == true)
        try site.write("Content/about.md", "About, edited.\n")
        try backdate(site)
        try SiteBuilder(options: serve).build()
        let served = site.snapshot()
        var fresh = SiteBuilder.Options(site: site.root, output: site.root.appendingPathComponent("fresh"), baseURL: "/")
        fresh.mode = .serve(BuildSession())
        try SiteBuilder(options: fresh).build()
        #expect(served == site.snapshot(of: site.root.appendingPathComponent("fresh")))
    }

    /// A page whose folder has a one-letter name, removed during `sift serve`, takes its
    /// folder with it (the rebuild used to crash in Foundation's path code).
    @Test func aServeRebuildRemovesAOneLetterFolder() throws {
        let site = try TestSite(["Content/x.md": "# X\n\nA page.\n", "Content/c/c.txt": "One\n"])
        defer { site.delete() }
        var options = SiteBuilder.Options(site: site.root, baseURL: "/")
        options.mode = .serve(BuildSession())
        try SiteBuilder(options: options).build()
        #expect(site.page("x/index.html") != nil)
        try site.remove("Content/x.md")
        try SiteBuilder(options: options).build()
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("x").path))
        try site.remove("Content/c")
        try SiteBuilder(options: options).build()
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("c").path))
    }

    /// A page's key describes its collection's settings: positions of collection.yml's keys in
    /// them (a Dictionary, ordered anew by every process) made every key differ from the last
    /// build's, and every page of such a collection was rendered again after a one-row edit.
    @Test func collectionSettingsHoldNothingOfTheFilesLayout() throws {
        let yml = "title: Items\nscope_field: kind\nscopes: [A, B]\nsearch_fields: [name]\nsearch_body: true\n"
        func settings(_ text: String) throws -> (CollectionSettings, [String: SourcePosition]) {
            let site = try TestSite(["Content/items/items.csv": "name,kind\nOne,A\nTwo,B\n", "Content/items/collection.yml": text])
            defer { site.delete() }
            let c = try SiteLoader(root: site.root, displayRoot: ".").load().collections[0]
            return (c.settings, c.positions)
        }
        let (plain, at) = try settings(yml), (moved, movedAt) = try settings("# the items\n\n" + yml)
        #expect(plain == moved && String(describing: plain) == String(describing: moved))
        #expect(at["scope_field"]?.line == 2 && movedAt["scope_field"]?.line == 4, "the positions, for messages, kept apart")
    }

    @Test func anUnchangedPageIsLinkedNotRewritten() throws {
        let site = try TestSite(["Content/things/things.txt": "One\nTwo\n", "Content/things/one.md": "Body one.\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let before = try FileManager.default.attributesOfItem(atPath: site.output.appendingPathComponent("things/one/index.html").path)
        try site.write("Content/things/two.md", "Body two changed.\n")
        #expect(site.build().status == 0)
        let after = try FileManager.default.attributesOfItem(atPath: site.output.appendingPathComponent("things/one/index.html").path)
        #expect(before[.systemFileNumber] as? UInt64 == after[.systemFileNumber] as? UInt64, "the same inode: reused, not rendered again")
        #expect(site.page("things/two/index.html")?.contains("Body two changed.") == true)
    }
}
