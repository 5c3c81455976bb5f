import Foundation
import Testing
@testable import SiftKit

/// `sift build` keeps the Markdown pages it read (`.sift-cache/loaded.cache`), and the next build
/// takes a page from there while its file keeps its stamp instead of reading and parsing it again.
struct LoadedPagesTests {
    /// Sets a file's modification time back, so a build trusts its stamp (a file changed within
    /// the last second is read again: `FileStamp.isSettled`).
    func settle(_ site: TestSite, _ paths: [String], secondsAgo: Double) throws {
        for path in paths {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)],
                                                  ofItemAtPath: site.root.appendingPathComponent(path).path)
        }
    }

    static let rich = """
        ---
        title: Crème brûlée
        tags: [dessert, "burnt sugar"]
        price: 2.50
        draft: false
        nested: {depth: 1, list: [true, null, 3]}
        date: 2024-01-02
        émoji: ✓
        ---
        # Not the title

        Custard under glass, with a *crust*.

        """

    /// A page as the last build saved it is the page as reading its file gives it: fields in
    /// order, the front matter, where each key is written, where the body starts and its hash.
    @Test func aSavedPageIsThePageAsRead() throws {
        let site = try TestSite(["Content/desserts/creme.md": Self.rich, "Content/desserts/plain.md": "# Plain\n\nNothing more.\n"])
        defer { site.delete() }
        try settle(site, ["Content/desserts/creme.md", "Content/desserts/plain.md"], secondsAgo: 30)
        #expect(site.build().status == 0)
        let memo = try #require(PageMemo.load(site: site.root, version: SiftCLI.version))
        let loader = SiteLoader(root: site.root, displayRoot: ".", includeDrafts: false, baseURLOverride: nil)
        for name in ["creme", "plain"] {
            let url = site.root.appendingPathComponent("Content/desserts/\(name).md")
            let stamp = try #require(FileStamp(url.path))
            let saved = try #require(memo.savedPage(url.path, stamp: stamp, display: "Content/desserts/\(name).md", unsafeHTML: false))
            let read = try loader.readPage(url, display: "Content/desserts/\(name).md", unsafe: false)
            #expect(saved.slug == read.slug && saved.title == read.title && saved.fileTitle == read.fileTitle)
            #expect(saved.titleFromHeading == read.titleFromHeading)
            #expect(saved.fields == read.fields && saved.frontMatter == read.frontMatter && saved.keyPositions == read.keyPositions)
            #expect(saved.page.url == read.page.url && saved.page.displayPath == read.page.displayPath)
            #expect(saved.page.bodyOffset == read.page.bodyOffset && saved.page.bodyLine == read.page.bodyLine)
            #expect(saved.page.bodyHash == read.page.bodyHash && saved.page.keptBody == nil)
        }
    }

    /// Edits of settled pages (front matter and body), a page added and one removed, and a damaged
    /// file of saved pages: each incremental build's output is a clean build's.
    @Test func settledPagesAndEditsMatchCleanBuilds() throws {
        var files = ["Content/notes/notes.txt": (0..<12).map { "Note \($0)" }.joined(separator: "\n") + "\n"]
        for i in 0..<6 { files["Content/notes/note-\(i).md"] = "---\nkind: k\(i % 2)\n---\nBody \(i) with harbor.\n" }
        let site = try TestSite(files)
        defer { site.delete() }
        try settle(site, Array(files.keys), secondsAgo: 60)
        #expect(site.build().status == 0)
        let steps: [(String, () throws -> Void)] = [
            ("front matter", { try site.write("Content/notes/note-2.md", "---\ntitle: Renamed two\nkind: k9\n---\nBody 2 with harbor.\n") }),
            ("body", { try site.write("Content/notes/note-4.md", "---\nkind: k0\n---\nA longer body for four, with a volcano.\n") }),
            ("page added", { try site.write("Content/notes/note-7.md", "---\nkind: k1\n---\nSeven.\n") }),
            ("page removed", { try site.remove("Content/notes/note-5.md") }),
            ("damaged file", {
                let url = PageMemo.file(in: site.root)
                let bytes = try Data(contentsOf: url)
                try bytes.prefix(bytes.count / 2).write(to: url)
                try site.write("Content/notes/note-0.md", "---\nkind: k1\n---\nZero again.\n")
            }),
        ]
        for (n, (what, step)) in steps.enumerated() {
            try step()
            let present = try FileManager.default.contentsOfDirectory(atPath: site.root.appendingPathComponent("Content/notes").path)
            try settle(site, present.map { "Content/notes/" + $0 }, secondsAgo: Double(50 - n))
            #expect(site.build().status == 0)
            let built = site.snapshot()
            #expect(site.build(["--clean"]).status == 0)
            let clean = site.snapshot()
            #expect(built.keys.sorted() == clean.keys.sorted(), "after \(what)")
            for (path, bytes) in clean where built[path] != bytes { Issue.record("\(path) differs after \(what)") }
        }
        #expect(site.page("notes/note-2/index.html")?.contains("Renamed two") == true)
        // Rewritten in place, its length and its modification time as they were (`touch -r`,
        // `cp -p`): the change time tells, and the page is read again.
        let path = site.root.appendingPathComponent("Content/notes/note-3.md").path
        var before = stat()
        #expect(stat(path, &before) == 0)
        let old = try String(contentsOfFile: path, encoding: .utf8), new = old.replacingOccurrences(of: "Body 3", with: "Toff 3")
        #expect(new != old && new.utf8.count == old.utf8.count)
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0 && new.withCString { write(fd, $0, strlen($0)) } == new.utf8.count && close(fd) == 0)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(site.build().status == 0)
        #expect(site.page("notes/note-3/index.html")?.contains("Toff 3") == true, "the page as rewritten")
        let saved = try #require(PageMemo.load(site: site.root, version: SiftCLI.version)).savedPaths.map { ($0 as NSString).lastPathComponent }
        #expect(saved.sorted() == ["note-0.md", "note-1.md", "note-2.md", "note-3.md", "note-4.md", "note-7.md"], "a removed page is not kept")
    }

    /// An edit appends the pages it read again and a new index to the file of saved pages, whose
    /// earlier bytes stay as they were; a file whose append was cut short (a killed build) is not
    /// taken; and once the pages its index names are less than half of it, it is written anew.
    @Test func editsAppendToTheSavedPages() throws {
        var files: [String: String] = [:]
        for i in 0..<20 { files["Content/notes/note-\(i).md"] = "---\nkind: k\(i % 3)\n---\nBody \(i), with enough words to weigh something.\n" }
        let site = try TestSite(files)
        defer { site.delete() }
        try settle(site, Array(files.keys), secondsAgo: 60)
        #expect(site.build().status == 0)
        let url = PageMemo.file(in: site.root)
        let first = try Data(contentsOf: url)
        try site.write("Content/notes/note-3.md", "---\nkind: k0\n---\nA new body for three.\n")
        try settle(site, ["Content/notes/note-3.md"], secondsAgo: 50)
        #expect(site.build().status == 0)
        let second = try Data(contentsOf: url)
        #expect(second.prefix(first.count) == first, "the last build's bytes are kept")
        #expect(second.count - first.count < first.count / 4, "only the page read again and an index are added")
        let memo = try #require(PageMemo.load(site: site.root, version: SiftCLI.version))
        #expect(memo.savedPaths.count == 20)
        let three = site.root.appendingPathComponent("Content/notes/note-3.md").path
        let stamp = try #require(FileStamp(three))
        let page = try #require(memo.savedPage(three, stamp: stamp, display: "Content/notes/note-3.md", unsafeHTML: false))
        #expect(page.page.bodyHash == MarkdownSource.hash("A new body for three.\n"))

        // A build killed while appending: what it wrote ends the file, and no index does.
        try (second + Data(repeating: 7, count: 100)).write(to: url)
        #expect(PageMemo.load(site: site.root, version: SiftCLI.version) == nil)
        try site.write("Content/notes/note-4.md", "---\nkind: k1\n---\nFour, changed.\n")
        try settle(site, ["Content/notes/note-4.md"], secondsAgo: 40)
        #expect(site.build().status == 0)
        let built = site.snapshot()
        #expect(site.build(["--clean"]).status == 0)
        #expect(built == site.snapshot())
        #expect(PageMemo.load(site: site.root, version: SiftCLI.version)?.savedPaths.count == 20)

        // Every page edited, round after round: the file is written anew before it passes about
        // twice the pages it names, instead of growing by every round.
        var sizes: [Int] = []
        for round in 0..<6 {
            for i in 0..<20 { try site.write("Content/notes/note-\(i).md", "---\nkind: k\(i % 3)\n---\nRound \(round) of \(i).\n") }
            try settle(site, Array(files.keys), secondsAgo: Double(30 - round))
            #expect(site.build().status == 0)
            sizes.append(try Data(contentsOf: url).count)
            #expect(PageMemo.load(site: site.root, version: SiftCLI.version)?.savedPaths.count == 20)
        }
        #expect(zip(sizes, sizes.dropFirst()).contains { $1 < $0 }, "written anew at least once: \(sizes)")
        #expect(sizes.max()! < 4 * first.count, "\(sizes), first \(first.count)")
    }

    /// One page edited build after build: each build appends an index, and the file is written
    /// anew once it holds `PageMemo.longestChain` of them, so a load never walks a longer chain.
    @Test func theChainOfIndexesIsBounded() throws {
        // Enough pages that the edits' appends stay under the pages' own bytes.
        var files = ["Content/notes/a.md": "A.\n"]
        for i in 0..<100 { files["Content/notes/b\(i).md"] = "B \(i).\n" }
        let site = try TestSite(files)
        defer { site.delete() }
        try settle(site, Array(files.keys), secondsAgo: 100)
        #expect(site.build().status == 0)
        var chains: [Int] = []
        for n in 0..<(PageMemo.longestChain + 3) {
            try site.write("Content/notes/a.md", "A, edit \(n).\n")
            try settle(site, ["Content/notes/a.md"], secondsAgo: Double(90 - n))
            #expect(site.build().status == 0)
            let memo = try #require(PageMemo.load(site: site.root, version: SiftCLI.version))
            #expect(memo.savedPaths.count == 101)
            chains.append(memo.chain)
        }
        #expect(chains.prefix(PageMemo.longestChain - 1) == ArraySlice(2...PageMemo.longestChain), "\(chains)")
        #expect(chains.max() == PageMemo.longestChain && chains.contains(1), "\(chains)")
        #expect(site.page("notes/a/index.html")?.contains("A, edit \(PageMemo.longestChain + 2).") == true)
    }
}
