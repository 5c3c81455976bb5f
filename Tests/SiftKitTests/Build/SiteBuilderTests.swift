import Foundation
import Testing
@testable import SiftKit

/// The path of links under a site.yml's `base_url`.
private func basePath(_ baseURL: String) -> String {
    var settings = SiteSettings()
    settings.baseURL = baseURL
    return settings.basePath
}

struct SiteBuilderTests {
    @Test func aSingleCSVBuildsACompleteSite() throws {
        let site = try TestSite(["Content/things/things.csv": "name,colour\nRed Ball,red\nBlue Cube,blue\n"])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for path in ["index.html", "404.html", "sitemap.xml", "things/index.html", "things/red-ball/index.html",
                     "things/blue-cube/index.html", "assets/site.css", "assets/sift.js", "search/manifest.json"] {
            #expect(site.page(path) != nil, "missing \(path)")
        }
        let list = try #require(site.page("things/index.html"))
        #expect(list.contains("Red Ball") && list.contains("Blue Cube"))
        #expect(list.contains("href=\"/things/red-ball/\""))
        #expect(site.page("things/blue-cube/index.html")?.contains("blue") == true)
    }

    @Test func detailPagesLabelFieldsInSentenceCase() throws {
        let site = try TestSite(["Content/things/things.csv": "name,list_price,shelf-life,élan,café_count\nRed Ball,3,2 years,high,4\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let page = try #require(site.page("things/red-ball/index.html"))
        for label in ["List price", "Shelf life", "Élan", "Café count"] { #expect(page.contains(">\(label)<"), "\(label)") }
    }

    @Test func baseURLWithAPathPrefixesEveryLink() throws {
        let site = try TestSite([
            "Content/site.yml": "title: Docs\nbase_url: https://example.org/docs/\n",
            "Content/things/things.txt": "Alpha\nBeta\n",
            "Content/about.md": "---\ntitle: About\n---\nHello.\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let home = try #require(site.page("index.html"))
        #expect(home.contains("href=\"/docs/things/\""))
        #expect(home.contains(/"\/docs\/assets\/site\.[0-9a-f]{12}\.css"/))
        #expect(!home.contains("href=\"/things/"))
        let detail = try #require(site.page("things/alpha/index.html"))
        #expect(detail.contains("href=\"/docs/things/\""))
        #expect(site.page("sitemap.xml")?.contains("<loc>https://example.org/docs/things/alpha/</loc>") == true)
        #expect(site.page("about/index.html")?.contains("Hello.") == true)
    }

    /// `/docs//` was written into every link, `_headers` rule and the index as it was (another path
    /// to a host), and a space as a space (a `_headers` rule split at it).
    @Test func aBaseURLHasOneSlashBetweenSegmentsAndEncodesWhatALinkCannotHold() throws {
        #expect(basePath("/docs//") == "/docs/")
        #expect(basePath("/docs///v2") == "/docs/v2/")
        #expect(basePath("") == "/" && basePath("//") == "/")
        #expect(basePath("/a b/") == "/a%20b/")
        #expect(basePath("/a%20b/") == "/a%20b/")
        #expect(basePath("/日本/") == "/日本/")
        #expect(basePath("//cdn.example.com/docs//") == "//cdn.example.com/docs/", "a protocol-relative base keeps its host")
        let site = try TestSite(["Content/site.yml": "title: Docs\nbase_url: /docs//\n", "Content/things/things.txt": "Alpha\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("index.html")?.contains("href=\"/docs/things/\"") == true)
        #expect(site.page("_headers")?.contains("//") == false)
    }

    /// A `%` that starts no escape (`/50%off/`) was written as it was into every link, which
    /// nginx refuses (400): the page came without its styles and search bar.
    @Test func aPercentSignThatStartsNoEscapeIsEncoded() throws {
        #expect(basePath("/50%off/") == "/50%25off/")
        #expect(basePath("/100%/") == "/100%25/")
        #expect(basePath("/a%2/") == "/a%252/")
        #expect(basePath("/a%2fb%20c/") == "/a%2fb%20c/", "escapes are kept")
        let site = try TestSite(["Content/site.yml": "title: Sale\nbase_url: /50%off/\n", "Content/things/things.txt": "Alpha\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let home = try #require(site.page("index.html"))
        #expect(home.contains("href=\"/50%25off/things/\""))
        #expect(!home.contains("/50%off/"))
    }

    /// An IPv6 host lost its brackets (`https://::1:8080/d/`) in the sitemap, `site.url` and permalinks.
    @Test func anIPv6HostKeepsItsBrackets() throws {
        let site = try TestSite(["Content/site.yml": "title: Local\nbase_url: \"http://[2001:db8::1]:8080/docs/\"\n", "Content/things/things.txt": "Alpha\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let sitemap = try #require(site.page("sitemap.xml"))
        #expect(sitemap.contains("<loc>http://[2001:db8::1]:8080/docs/things/alpha/</loc>"), "\(sitemap)")
    }

    @Test func aBaseURLWhosePathStartsWithACombiningMarkGetsOneSlash() throws {
        // "/" and the mark after it are one Character: a String's hasPrefix("/") said no, and
        // every link began "//" (another host's, to a browser). FuzzSettings found it.
        #expect(basePath("\u{301}docs") == "/\u{301}docs/")
        #expect(basePath("/\u{301}docs") == "/\u{301}docs/")
        #expect(basePath("docs/\u{301}") == "/docs/\u{301}/")
        let site = try TestSite([
            "Content/site.yml": "title: Docs\nbase_url: \"/\u{301}docs\"\n",
            "Content/things/things.txt": "Alpha\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let home = try #require(site.page("index.html"))
        #expect(home.contains("href=\"/\u{301}docs/things/\""))
        #expect(!home.contains("href=\"//"))
    }

    @Test func anOutputFolderHoldingASiteWhoseNameStartsWithACombiningMarkIsRefused() throws {
        // "/" and the accent after it were one Character, so the site did not seem to lie in
        // the output folder, which the build would have replaced with the site inside it.
        let folder = "\u{301}site"
        let site = try TestSite(["\(folder)/Content/things/things.txt": "Alpha\n"])
        defer { site.delete() }
        let out = SiftCLI.run(["build", "--site", folder, "--output", "."], in: site.root)
        #expect(out.status != 0)
        #expect(out.stderr.contains("would replace the site's own files"))
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("\(folder)/Content/things/things.txt").path))
        #expect(!StaticSite.isInside("/srv/cafe\u{301}/secret", "/srv/caf\u{e9}"), "another folder on disk")
        #expect(StaticSite.isInside("/srv/x/\u{301}a", "/srv/x"))
    }

    /// An output inside the build's cache published the cache's files and wiped the cache.
    @Test func anOutputInsideTheCacheIsRefused() throws {
        let site = try TestSite(["Content/things/things.txt": "Alpha\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let out = SiftCLI.run(["build", "--output", ".sift-cache/out"], in: site.root)
        #expect(out.status != 0)
        #expect(out.stderr.contains("would replace the site's own files"))
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent(".sift-cache/out").path))
    }

    /// A build swaps a whole new folder in: `--output` naming a folder of other files (a home
    /// folder, a project's docs/) deleted them without a word. It is refused, and nothing moves.
    @Test func anOutputFolderOfOtherFilesIsRefusedAndKept() throws {
        let site = try TestSite(["Content/things/things.txt": "Alpha\n", "docs/notes.txt": "precious\n", "docs/more/a.txt": "a\n", "afile": "hi\n"])
        defer { site.delete() }
        let out = SiftCLI.run(["build", "--output", "docs"], in: site.root)
        #expect(out.status == 1)
        #expect(out.stderr.contains("error: the output folder \(site.root.appendingPathComponent("docs").path) holds files sift did not write (more, notes.txt)"))
        #expect(try String(contentsOf: site.root.appendingPathComponent("docs/notes.txt"), encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.appendingPathComponent("docs").path).sorted() == ["more", "notes.txt"])
        let file = SiftCLI.run(["build", "--output", "afile"], in: site.root)
        #expect(file.status == 1)
        #expect(file.stderr.contains("is a file, not a folder"))
        #expect(try String(contentsOf: site.root.appendingPathComponent("afile"), encoding: .utf8) == "hi\n")
    }

    /// A folder holding hidden entries alone (a fresh `git init`), an empty one, and a site sift
    /// built are outputs a build may replace; the hidden entries are carried over, moved rather
    /// than copied: they keep their inodes, and a named pipe among them no longer blocks the build.
    @Test func anEmptyOrHiddenOnlyOrSiftBuiltOutputIsTaken() throws {
        let site = try TestSite(["Content/things/things.txt": "Alpha\n", "site/.git/HEAD": "ref\n"])
        defer { site.delete() }
        let head = site.root.appendingPathComponent("site/.git/HEAD")
        let inode = { try FileManager.default.attributesOfItem(atPath: head.path)[.systemFileNumber] as? UInt64 }
        let before = try inode()
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for output in ["site", "empty"] {
            let out = SiftCLI.run(["build", "--output", output], in: site.root)
            #expect(out.status == 0, "\(output): \(out.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: head.path))
        #expect(mkfifo(site.root.appendingPathComponent("site/.pipe").path, 0o644) == 0)
        #expect(SiftCLI.run(["build", "--output", "site", "--clean"], in: site.root).status == 0)
        #expect(try inode() == before, "moved, not copied")
        var st = stat()
        #expect(lstat(site.root.appendingPathComponent("site/.pipe").path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
        #expect(SiftCLI.run(["build"], in: site.root).status == 0)
        #expect(SiftCLI.run(["build", "--clean"], in: site.root).status == 0)
    }

    /// A home folder holds hidden entries alone, and `--output ~` was taken: the folder was
    /// replaced by the site, its dotfiles copied in without their owners, times and links. Hidden
    /// entries other than a published folder's are refused like any other file, untouched.
    @Test func aFolderOfDotfilesIsRefused() throws {
        let site = try TestSite(["Content/things/things.txt": "Alpha\n", "home/.bashrc": "alias x=y\n", "home/.ssh/id": "key\n",
                                 "pages/.git/HEAD": "ref\n", "pages/.nojekyll": ""])
        defer { site.delete() }
        let out = SiftCLI.run(["build", "--output", "home"], in: site.root)
        #expect(out.status == 1)
        #expect(out.stderr.contains("error: the output folder \(site.root.appendingPathComponent("home").path) holds files sift did not write (.bashrc, .ssh)"), "\(out.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.appendingPathComponent("home").path).sorted() == [".bashrc", ".ssh"])
        #expect(SiftCLI.run(["build", "--output", "pages"], in: site.root).status == 0, "a Git checkout's entries are a published folder's")
    }

    /// public/ as a link to the folder a server serves: the build replaced the link with a folder
    /// of its own and the served folder never changed. It builds into the folder the link leads to,
    /// and a link that leads nowhere is an error.
    @Test func aLinkedOutputIsBuiltThroughItsLink() throws {
        let site = try TestSite(["Content/things/things.txt": "Alpha\n"])
        defer { site.delete() }
        let served = site.root.appendingPathComponent("served"), link = site.root.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: served)
        let isLink = { () -> Bool in var st = stat(); return lstat(link.path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK }
        for (rows, options) in [("Alpha\n", []), ("Alpha\nBeta\n", []), ("Alpha\nBeta\nGamma\n", ["--clean"])] {
            try site.write("Content/things/things.txt", rows)
            let out = SiftCLI.run(["build"] + options, in: site.root)
            #expect(out.status == 0, "\(out.stderr)")
            #expect(isLink(), "the link stays")
            let last = rows.split(separator: "\n").last!.lowercased()
            #expect(FileManager.default.fileExists(atPath: served.appendingPathComponent("things/\(last)/index.html").path), "\(rows)")
        }
        try FileManager.default.removeItem(at: served)
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(out.status == 1)
        #expect(out.stderr.contains("is a link to a folder that does not exist"), "\(out.stderr)")
        #expect(isLink())
    }

    /// The bar in a detail page's header searches the whole site, as docs/search-bar.md says of
    /// every page but a list: it searched the item's collection alone (a country's page found no
    /// candy) and showed that collection's scopes and facets in the site header.
    @Test func aDetailPagesBarSearchesTheWholeSite() throws {
        let site = try TestSite(["Content/things/things.csv": "name,kind\nAlpha,A\n", "Content/things/collection.yml": "title_field: name\nscope_field: kind\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(try #require(site.page("things/index.html")).contains("data-collection=\"things\""))
        let detail = try #require(site.page("things/alpha/index.html"))
        #expect(detail.contains("data-collection=\"\""))
        #expect(detail.contains("<a href=\"/things/\" aria-current=\"page\">"), "the nav still marks the collection")
    }

    /// An item with an empty or blank title built without a word, its `<h1>` and list link empty.
    /// It is warned of at its row; one whose page gives a heading is not.
    @Test func anItemWithoutATitleIsWarnedOf() throws {
        let site = try TestSite([
            "Content/c/c.json": "[{\"slug\":\"one\"},\n {\"slug\":\"two\"},\n {\"slug\":\"three\",\"title\":\"  \"}]\n",
            "Content/c/collection.yml": "title_field: title\n",
            "Content/c/one.md": "# Heading\n\nBody.\n",
        ])
        defer { site.delete() }
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(out.status == 0)
        #expect(out.stderr.contains("Content/c/c.json:2:2: warning: 'two' has no title"))
        #expect(out.stderr.contains("Content/c/c.json:3:2: warning: 'three' has no title"))
        #expect(!out.stderr.contains("'one' has no title"))
    }

    @Test func aFailedBuildLeavesThePreviousOutputByteForByte() throws {
        let site = try TestSite(["Content/things/things.csv": "name\nOne\nTwo\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let before = site.snapshot()
        try site.write("Content/things/things.csv", "name\n\"One\nTwo\n")
        let failed = site.build()
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Content/things/things.csv:2:1: error:"))
        #expect(site.snapshot() == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains(".sift-staging-") || $0.contains(".sift-old-") }
        #expect(leftovers.isEmpty)
    }

    @Test func twoBuildsAreByteIdentical() throws {
        let site = try TestSite([
            "Content/things/things.csv": "name,kind\nOne,a\nTwo,b\nThree,a\n",
            "Content/things/two.md": "---\nkind: c\n---\n# Heading\n\nBody *text*.\n",
            "Content/things/collection.yml": "scope_field: kind\nscopes: [a, b, c]\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let first = site.snapshot()
        #expect(site.build().status == 0)
        #expect(site.snapshot() == first)
    }

    @Test func thePublicFoldersHiddenFilesSurviveABuild() throws {
        let site = try TestSite(["Content/things/things.txt": "One\n", "public/.gitkeep": ""])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent(".gitkeep").path))
    }

    @Test func aHiddenFileWhoseNameHasACombiningMarkAfterTheDotSurvivesABuild() throws {
        // "." and the mark after it are one Character, so hasPrefix(".") said the file was not
        // hidden: the build did not carry it over, and it was gone.
        let site = try TestSite(["Content/things/things.txt": "One\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        try site.write("public/.\u{301}keep", "mine")
        #expect(SiftCLI.run(["build", "--clean"], in: site.root).status == 0)
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent(".\u{301}keep").path))
    }

    @Test func aBuildLeavesTheLeftoversOfAnOutputNamedTheSameComposedOtherwise() throws {
        // "café" composed and decomposed are two folders on disk but equal Strings: a build of
        // one removed the other's staging and swapped-out folders as its own.
        let site = try TestSite(["Content/things/things.txt": "One\n"])
        defer { site.delete() }
        let other = site.root.appendingPathComponent(".cafe\u{301}.sift-old-1")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let out = SiftCLI.run(["build", "--output", "caf\u{e9}"], in: site.root)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(FileManager.default.fileExists(atPath: other.path))
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("caf\u{e9}/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("cafe\u{301}").path))
    }

    @Test func pagesJoinRowsBySlugAndOverrideFields() throws {
        let site = try TestSite([
            "Content/candies/candies.csv": "name,category\nChocolate Bar,Chocolate\nLollipop,Hard\n",
            "Content/candies/collection.yml": "title_field: name\nlist_fields: [category]\n",
            "Content/candies/chocolate-bar.md": "---\ncategory: Dark\norigin: Belgium\n---\nMade of **cocoa**.\n",
            "Content/candies/fudge.md": "# Fudge\n\nSoft and sweet.\n",
        ])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let bar = try #require(site.page("candies/chocolate-bar/index.html"))
        #expect(bar.contains("Dark") && bar.contains("Belgium") && bar.contains("<strong>cocoa</strong>"))
        let fudge = try #require(site.page("candies/fudge/index.html"))
        #expect(fudge.contains("Soft and sweet."))
        #expect(!fudge.contains("<h1 id=\"fudge\">"), "the heading became the title, so the body leaves it out")
        let list = try #require(site.page("candies/index.html"))
        let order = ["Chocolate Bar", "Lollipop", "Fudge"].map { list.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!)
        #expect(site.page("candies/lollipop/index.html")?.contains("Hard") == true)
    }

    /// A facet's CSV cell split on `list_separator` showed as its raw text in the list's rows and
    /// on its page (`"Congo, Republic of the",Gabon`, quotes and all); a YAML list is joined with ", ".
    @Test func listFieldsShowListValuesJoinedWithCommas() throws {
        let site = try TestSite([
            "Content/c/c.csv": "name,langs,note\nOne,\"English,French\",\"a,b\"\nTwo,\"\"\"Congo, Republic of the\"\",<Gabon>\",\n",
            "Content/c/collection.yml": "list_fields: [langs, tags, note]\nfacets: [langs]\nlist_separator: \",\"\n",
            "Content/c/one.md": "---\ntags: [x, \"<y>\"]\n---\nOne.\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let list = try #require(site.page("c/index.html"))
        #expect(list.contains("<span class=\"row-detail\">English, French · x, &lt;y&gt; · a,b</span>"), "\(list)")
        #expect(list.contains("<span class=\"row-detail\">Congo, Republic of the, &lt;Gabon&gt;</span>"), "\(list)")
        #expect(site.page("c/two/index.html")?.contains("<dd>Congo, Republic of the, &lt;Gabon&gt;</dd>") == true)
        #expect(site.page("c/one/index.html")?.contains("<dd>a,b</dd>") == true, "a field that is no facet is one value")
    }

    @Test func draftsAreSkippedUnlessAskedFor() throws {
        let site = try TestSite([
            "Content/notes/a.md": "---\ntitle: Published\n---\nA\n",
            "Content/notes/b.md": "---\ntitle: Secret\ndraft: true\n---\nB\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("notes/b/index.html") == nil)
        #expect(site.page("notes/index.html")?.contains("Secret") == false)
        #expect(site.build(["--drafts"]).status == 0)
        #expect(site.page("notes/b/index.html") != nil)
    }

    /// A draft Content/index.md was published on the home page, and found by search.
    @Test func aDraftHomeTextIsLeftOutUnlessAskedFor() throws {
        let site = try TestSite([
            "Content/index.md": "---\ndraft: true\n---\nSecret draft intro\n",
            "Content/notes/a.md": "---\ntitle: Published\n---\nA\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("index.html")?.contains("Secret draft intro") == false)
        #expect(SiftCLI.run(["search", "secret", "--json"], in: site.root).stdout.contains("\"total\":0"))
        #expect(site.build(["--drafts"]).status == 0)
        #expect(site.page("index.html")?.contains("Secret draft intro") == true)
    }

    /// A page's `title:` of spaces gave it an empty heading and `<title>`, with no warning; it is
    /// no title given, as an empty one is: the first heading's, else the file's name.
    @Test func aBlankTitleIsNoTitleGiven() throws {
        let site = try TestSite([
            "Content/about.md": "---\ntitle: \"   \"\n---\nBody\n",
            "Content/intro.md": "---\ntitle: \" \"\n---\n# Welcome\n\nBody\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("about/index.html")?.contains("<title>about · ") == true)
        #expect(site.page("intro/index.html")?.contains("<h1 class=\"large-title\">Welcome</h1>") == true)
    }

    /// A blank slug cell, or a null slug, was an error ("the slug of '' is empty") rather than no slug given.
    @Test func aBlankSlugIsTheTitlesSlug() throws {
        for (file, text) in [("c.csv", "title,slug\nApple Pie,\nBanana,  \nCherry,red\n"),
                             ("c.json", #"[{"title":"Apple Pie","slug":null},{"title":"Banana","slug":""},{"title":"Cherry","slug":"red"}]"#)] {
            let site = try TestSite(["Content/c/\(file)": text])
            defer { site.delete() }
            let outcome = site.build()
            #expect(outcome.status == 0, "\(file): \(outcome.stderr)")
            #expect(site.page("c/apple-pie/index.html") != nil, "\(file)")
            #expect(site.page("c/banana/index.html") != nil, "\(file)")
            #expect(site.page("c/red/index.html") != nil, "\(file)")
        }
    }

    @Test func duplicateSlugsNameBothSources() throws {
        let site = try TestSite(["Content/c/c.csv": "name\nCôte d'Ivoire\ncote d ivoire\n"])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "Content/c/c.csv:3:1: error: duplicate slug 'cote-d-ivoire': also used by Content/c/c.csv:2:1\n")
    }

    /// Two pages with one `slug:` were reported at 1:1 of the second, not at the key that gave it.
    @Test func aDuplicateFrontMatterSlugIsReportedAtItsKey() throws {
        let site = try TestSite([
            "Content/c/a.md": "---\ntitle: A\nslug: same\n---\nA\n",
            "Content/c/b.md": "---\ntitle: B\n# a comment\n\nslug: same\n---\nB\n",
        ])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "Content/c/b.md:5:1: error: duplicate slug 'same': also used by Content/c/a.md\n")
    }

    /// A CSV or TSV file with a header and no row built an empty collection without a word.
    @Test func aHeaderWithNoRowIsAWarningAtTheHeader() throws {
        for (file, text, line) in [("c.csv", "name,kind\n", 1), ("c.tsv", "\nname\tkind\n\n", 2)] {
            let site = try TestSite(["Content/c/\(file)": text])
            defer { site.delete() }
            let outcome = SiftCLI.run(["build"], in: site.root)
            #expect(outcome.status == 0)
            #expect(outcome.stderr.hasPrefix("Content/c/\(file):\(line):1: warning: the header names the columns, but no row follows it: this dataset makes no item\n"), "\(outcome.stderr)")
            let check = SiftCLI.run(["check", "--strict"], in: site.root)
            #expect(check.status == 1 && check.stderr.contains("Content/c/\(file):\(line):1: warning: the header names"), "\(check.stderr)")
        }
        let rows = try TestSite(["Content/c/c.csv": "name\nA\n"])
        defer { rows.delete() }
        #expect(SiftCLI.run(["build"], in: rows.root).stderr.hasPrefix("built "), "a file with rows says nothing")
    }

    @Test func twoDatasetsInOneCollectionAreAnError() throws {
        let site = try TestSite(["Content/c/a.csv": "name\nA\n", "Content/c/b.txt": "B\n"])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "Content/c/b.txt: error: a collection has one dataset, found 2: a.csv, b.txt\n")
    }

    @Test func everyErrorIsReportedInOneRun() throws {
        let site = try TestSite([
            "Content/a/a.csv": "name\n\"open\n",
            "Content/b/b.json": "[{\"name\": 1,}]",
            "Content/c/x.md": "---\ntitle: [unclosed\n---\n",
        ])
        defer { site.delete() }
        let outcome = site.build()
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(outcome.stderr)")
        #expect(lines.contains { $0.hasPrefix("Content/a/a.csv:2:1: error:") })
        #expect(lines.contains { $0.hasPrefix("Content/b/b.json:1:") })
        #expect(lines.contains { $0.hasPrefix("Content/c/x.md:") })
    }

    @Test func templateOverridesApplyPerCollection() throws {
        let site = try TestSite([
            "Content/a/a.txt": "One\n",
            "Content/b/b.txt": "Two\n",
            "Templates/a/list.mustache": "A-LIST {{#items}}[{{title}}]{{/items}}",
            "Templates/assets/extra.css": "body{}",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("a/index.html") == "A-LIST [One]")
        #expect(site.page("b/index.html")?.contains("Two") == true)
        #expect(site.page("assets/extra.css") == "body{}")
    }

    @Test func templateValuesAreEscaped() throws {
        let site = try TestSite(["Content/x/x.csv": "name\n\"<script>alert(1)</script>\"\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        let list = try #require(site.page("x/index.html"))
        #expect(!list.contains("<script>alert"))
        #expect(list.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test func paginationSplitsTheList() throws {
        let site = try TestSite([
            "Content/n/n.txt": (1...5).map { "Item \($0)" }.joined(separator: "\n"),
            "Content/n/collection.yml": "per_page: 2\n",
        ])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("n/index.html")?.contains("Item 2") == true)
        #expect(site.page("n/page/2/index.html")?.contains("Item 3") == true)
        #expect(site.page("n/page/3/index.html")?.contains("Item 5") == true)
        #expect(site.page("n/page/3/index.html")?.contains("Item 1<") == false)
    }

    @Test func anOutputFolderHoldingTheSiteIsRefused() throws {
        let site = try TestSite(["Content/x/x.txt": "A\n"])
        defer { site.delete() }
        let outcome = site.build(["--output", "."])
        #expect(outcome.status == 1)
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Content/x/x.txt").path))
    }
}
