import Foundation
import Testing
@testable import SiftKit

/// `sift build` with nothing to do: when every source has the stamp the last build recorded,
/// it reads nothing, writes nothing and swaps nothing; any edit, option or output change is
/// noticed, and whatever the edits the output is what a clean build writes.
struct BuildStampsTests {
    let edits = IncrementalBuildTests()

    func inode(_ url: URL) throws -> UInt64? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64
    }

    /// The stages a build reports with `--timings`.
    func stages(_ out: SiftCLI.Outcome) -> [String] {
        out.stderr.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 6 && parts[2] == "s" ? String(parts[0]) : nil
        }
    }

    @Test func aBuildWithNothingChangedOnlyComparesStamps() throws {
        let site = try TestSite(["Content/things/things.txt": "One\nTwo\n", "Content/things/one.md": "Body one.\n",
                                 "Content/site.yml": "title: T\nmisspelt: 1\n", "Templates/assets/x.css": "b{}\n"])
        defer { site.delete() }
        try edits.backdate(site)
        let first = SiftCLI.run(["build"], in: site.root)
        let output = try inode(site.output)
        let again = SiftCLI.run(["build", "--timings"], in: site.root)
        #expect(stages(again) == ["stamps"], "\(again.stderr)")
        #expect(try inode(site.output) == output, "the output is not swapped")
        let summary = { (o: SiftCLI.Outcome) in o.stderr.split(separator: "\n").prefix(2).map { $0.split(separator: " in ").first! } }
        #expect(summary(again) == summary(first), "the same warning and pages: \(again.stderr)")
        #expect(!stages(SiftCLI.run(["build", "--timings", "--drafts"], in: site.root)).contains("stamps"), "another option builds")
        #expect(!stages(SiftCLI.run(["build", "--timings"], in: site.root)).contains("stamps"), "and back")
    }

    /// A file removed from the output by hand, with no source changed since the last build: the
    /// build stopped at its unchanged stamps and left the output without it, and a search manifest
    /// removed so left a folder that no build, `--clean` included, would write again (it no
    /// longer looked like a site sift built). Each comes back; a file added to a folder of the
    /// output is noticed too, and the build after it has nothing to do again.
    @Test func aFileRemovedFromTheOutputComesBackWithNothingElseChanged() throws {
        let site = try TestSite(["Content/things/things.txt": (0..<40).map { "Thing \($0)" }.joined(separator: "\n") + "\n",
                                 "Content/things/thing-3.md": "Body three.\n", "Content/about.md": "About.\n"])
        defer { site.delete() }
        try edits.backdate(site)
        #expect(site.build().status == 0)
        let expected = site.snapshot()
        for removed in ["things/thing-4/index.html", "about/index.html", "search/manifest.json", "things/thing-5", "things"] {
            try FileManager.default.removeItem(at: site.output.appendingPathComponent(removed))
            let out = SiftCLI.run(["build", "--timings"], in: site.root)
            #expect(out.status == 0, "\(removed): \(out.stderr)")
            #expect(stages(out) != ["stamps"], "\(removed)")
            #expect(site.snapshot() == expected, "\(removed) is back")
            #expect(stages(SiftCLI.run(["build", "--timings"], in: site.root)) == ["stamps"], "then nothing to do (\(removed))")
        }
        // A page added: its folder is one the next build looks at.
        try site.write("Content/later.md", "Later.\n")
        try edits.backdate(site)
        #expect(site.build().status == 0)
        let withLater = site.snapshot()
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("later/index.html"))
        #expect(stages(SiftCLI.run(["build", "--timings"], in: site.root)) != ["stamps"], "a file of a new folder removed")
        #expect(site.snapshot() == withLater)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Content/later.md"))
        #expect(site.build().status == 0)
        #expect(site.snapshot() == expected)
        try "x".write(to: site.output.appendingPathComponent("things/thing-7/extra.txt"), atomically: false, encoding: .utf8)
        #expect(stages(SiftCLI.run(["build", "--timings"], in: site.root)) != ["stamps"], "a file added")
        // Without its manifest, the output is still the site's, for a clean build too.
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("search/manifest.json"))
        let clean = SiftCLI.run(["build", "--clean"], in: site.root)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(site.snapshot() == expected)
    }

    /// An edit renames index files but makes and removes no folder, and keeps the last build's
    /// list of folders; an edit that writes a page into a folder made by hand in the output
    /// lists that folder. A file removed from either afterwards comes back with nothing else changed.
    @Test func theFoldersAnEditLeavesAreTheOnesTheNextBuildLooksAt() throws {
        let site = try TestSite(["Content/things/things.txt": (0..<400).map { "Thing \($0)" }.joined(separator: "\n") + "\n",
                                 "Content/things/thing-3.md": "Body three.\n"])
        defer { site.delete() }
        try edits.backdate(site)
        #expect(site.build().status == 0)
        try site.write("Content/things/thing-3.md", "Body three, now about a harbour.\n")
        try edits.backdate(site)
        #expect(site.build().status == 0)
        let edited = site.snapshot()
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("things/thing-4/index.html"))
        #expect(stages(SiftCLI.run(["build", "--timings"], in: site.root)) != ["stamps"], "a file removed after an edit")
        #expect(site.snapshot() == edited)
        try FileManager.default.createDirectory(at: site.output.appendingPathComponent("things/thing-400"), withIntermediateDirectories: false)
        try site.write("Content/things/things.txt", (0..<401).map { "Thing \($0)" }.joined(separator: "\n") + "\n")
        try edits.backdate(site)
        let inPlace = try inode(site.output)
        #expect(site.build().status == 0)
        #expect(try inode(site.output) == inPlace, "the output is updated in place, not swapped")
        let added = site.snapshot()
        #expect(added["things/thing-400/index.html"] != nil)
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("things/thing-400/index.html"))
        #expect(stages(SiftCLI.run(["build", "--timings"], in: site.root)) != ["stamps"], "a file removed from a folder made by hand")
        #expect(site.snapshot() == added)
    }

    /// The index's limits (the environment's `SIFT_DOCS_PART` and `SIFT_ANSWERS_FROM`, which tests
    /// set) are options too: a build with other ones writes their index, not nothing.
    @Test func otherIndexLimitsBuildAgain() throws {
        let site = try TestSite(["Content/things/things.txt": (0..<40).map { "Thing \($0)" }.joined(separator: "\n") + "\n"])
        defer { site.delete() }
        try edits.backdate(site)
        func build(docsPart: Int, answersFrom: Int, clean: Bool = false) throws -> SiteBuilder.Report {
            var options = SiteBuilder.Options(site: site.root)
            options.mode = clean ? .clean : .incremental
            options.docsPart = docsPart
            options.answersFrom = answersFrom
            return try SiteBuilder(options: options).build()
        }
        _ = try build(docsPart: 1000, answersFrom: .max)
        for (part, from) in [(10, Int.max), (10, 0), (1000, Int.max)] {
            _ = try build(docsPart: part, answersFrom: from)
            let built = site.snapshot()
            _ = try build(docsPart: part, answersFrom: from, clean: true)
            #expect(built == site.snapshot(), "parts of \(part), answers from \(from)")
        }
    }

    /// The walk tells the build it has something to do as soon as it meets a source unlike
    /// the last build's (the build then reads its caches while the walk goes on), and never
    /// when nothing changed: a build with nothing to do reads nothing else.
    @Test func theWalkTellsOfTheFirstChangeAndOfNoneWhenNothingChanged() throws {
        let site = try TestSite(["Content/things/things.txt": "One\nTwo\n", "Content/things/one.md": "Body one.\n",
                                 "Content/things/two.md": "Body two.\n"])
        defer { site.delete() }
        try edits.backdate(site)
        #expect(SiftCLI.run(["build"], in: site.root).status == 0)
        var options = SiteBuilder.Options(site: site.root)
        options.version = SiftCLI.version
        func walk() -> (told: Int, unchanged: Bool) {
            var told = 0
            var stamps = BuildStamps(options, output: site.output.standardizedFileURL) { told += 1 }
            let unchanged = stamps.unchanged(site: site.root, output: site.output.standardizedFileURL, start: Date()) != nil
            stamps.finishWalk(output: site.output.standardizedFileURL)
            return (told, unchanged)
        }
        let nothing = walk()
        #expect(nothing.unchanged && nothing.told == 1, "told once, by finishWalk, after the walk found the stamps the same")
        var told = 0
        _ = BuildStamps(options, output: site.output.standardizedFileURL) { told += 1 }
        #expect(told == 0, "nothing changed: not told")
        try site.write("Content/things/one.md", "Body one, edited.\n")
        try edits.backdate(site)
        _ = BuildStamps(options, output: site.output.standardizedFileURL) { told += 1 }
        #expect(told == 1, "told during the walk, once")
        // A build whose sources were too fresh to trust leaves stamps no walk matches, and the
        // next walk says so at its first source, not at its end.
        try site.write("Content/things/two.md", "Body two, edited.\n")
        #expect(SiftCLI.run(["build"], in: site.root).status == 0)
        told = 0
        let fresh = BuildStamps(options, output: site.output.standardizedFileURL) { told += 1 }
        #expect(told == 1, "told during the walk")
        #expect(fresh.unchanged(site: site.root, output: site.output.standardizedFileURL, start: Date()) == nil)
    }

    @Test func anEditOfTheSameSizeOrARemovedOutputIsNoticed() throws {
        let site = try TestSite(["Content/things/things.txt": "One\nTwo\n", "Content/things/one.md": "Body one.\n"])
        defer { site.delete() }
        try edits.backdate(site)
        #expect(site.build().status == 0)
        try site.write("Content/things/one.md", "Body One.\n")
        try edits.backdate(site)
        #expect(site.build().status == 0)
        #expect(site.page("things/one/index.html")?.contains("Body One.") == true)
        try FileManager.default.removeItem(at: site.output)
        #expect(site.build().status == 0)
        #expect(site.page("things/one/index.html")?.contains("Body One.") == true)
    }

    /// A chain of `sift build`s, each after a random edit (most with their sources backdated, so
    /// the stamps are trusted) and each followed by one with nothing to do, a failed build among
    /// them, against a clean build of a copy of the sources.
    @Test(arguments: [7, 8, 9] as [UInt64])
    func buildEditSequencesMatchCleanBuilds(seed: UInt64) throws {
        var rng = SeededRNG(state: seed)
        var rows = (0..<8).map { "Thing \($0) \(IncrementalBuildTests.words[$0])" }
        let site = try edits.thingsSite(rows: rows, page: "Some <b>raw</b> *text* about harbors.\n")
        defer { site.delete() }
        try edits.backdate(site)
        #expect(site.build().status == 0)
        var log: [String] = []
        for step in 0..<12 {
            if step == 5 {
                let before = site.snapshot()
                let page = "Content/things/\(Slug.make(rows[0])).md"
                try site.write(page, "---\ntitle: [unclosed\n---\nBroken.\n")
                try edits.backdate(site)
                #expect(site.build().status == 1)
                #expect(site.build().status == 1, "a failed build leaves no stamps that pass for a good one")
                #expect(site.snapshot() == before, "seed \(seed): a failed build leaves the output as it was")
                try site.write(page, "Mended.\n")
                log.append("broken front matter, then mended")
            }
            log.append(try edits.edit(site, &rng, rows: &rows))
            if step % 4 != 3 { try edits.backdate(site) }
            #expect(site.build().status == 0)
            let built = site.snapshot()
            let again = site.build(["--timings"])
            #expect(again.status == 0)
            if step % 4 != 3 { #expect(stages(again) == ["stamps"], "seed \(seed): nothing to do after \(log)") }
            #expect(site.snapshot() == built, "seed \(seed): a build with nothing changed after \(log)")
            let copy = try TestSite([:])
            defer { copy.delete() }
            try FileManager.default.createDirectory(at: copy.root, withIntermediateDirectories: true)
            for folder in ["Content", "Templates"] where FileManager.default.fileExists(atPath: site.root.appendingPathComponent(folder).path) {
                try FileManager.default.copyItem(at: site.root.appendingPathComponent(folder), to: copy.root.appendingPathComponent(folder))
            }
            #expect(copy.build(["--clean"]).status == 0)
            let expected = copy.snapshot()
            #expect(built.keys.sorted() == expected.keys.sorted(), "seed \(seed) after \(log)")
            for (path, bytes) in expected where built[path] != bytes {
                Issue.record("seed \(seed): \(path) differs after \(log)")
            }
        }
    }
}

extension BuildStampsTests {
    /// Links that loop (`a/l1 -> .`, `a/l2 -> .`) once made the build's walk stat 2^24 paths, and
    /// the watcher's and the templates' recurse without end: each folder is walked once, however
    /// many links reach it.
    @Test func linksThatLoopEndTheWalk() throws {
        let site = try TestSite(["Content/a/a.txt": "A\n", "Content/about.md": "hi\n", "Templates/partials/p.mustache": "p\n"])
        defer { site.delete() }
        for folder in ["Content/a", "Templates/partials"] {
            for link in ["l1", "l2"] {
                try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("\(folder)/\(link)").path, withDestinationPath: ".")
            }
        }
        let checked = finishes(within: 60) { SiftCLI.run(["check"], in: site.root).status }
        #expect(checked == 0, "the check ends and succeeds")
        let built = finishes(within: 60) { SiftCLI.run(["build", "--quiet"], in: site.root).status }
        #expect(built == 0, "the build ends and succeeds")
        #expect(site.page("a/a/index.html") != nil && site.page("about/index.html") != nil)
        let watched = finishes(within: 60) { SiteWatcher.snapshot(["Content", "Templates"].map(site.root.appendingPathComponent)).count }
        #expect(watched != nil, "the watcher's walk ends")
    }

    /// A templates folder that is a link to another (`mags -> books`) gives its templates to the
    /// collection it is named after: a walk that entered each folder once gave mags the built-in ones.
    @Test func aLinkToATemplatesFolderGivesItsTemplates() throws {
        let site = try TestSite([
            "Content/books/books.txt": "Dune\n", "Content/mags/mags.txt": "Wired\n",
            "Templates/books/detail.mustache": "CUSTOM DETAIL {{page.title}}\n",
        ])
        defer { site.delete() }
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("Templates/mags").path, withDestinationPath: "books")
        #expect(site.build().status == 0)
        #expect(site.page("books/dune/index.html")?.contains("CUSTOM DETAIL") == true)
        #expect(site.page("mags/wired/index.html")?.contains("CUSTOM DETAIL") == true)
    }
}
