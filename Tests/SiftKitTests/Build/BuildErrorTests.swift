import Foundation
import Testing
@testable import SiftKit

/// Every kind of bad input, with the exact line a user sees.
struct BuildErrorTests {
    func errors(_ files: [String: String], _ extra: [String] = []) throws -> SiftCLI.Outcome {
        let site = try TestSite(files)
        defer { site.delete() }
        return site.build(extra)
    }

    @Test func settingErrorsPointAtTheirKey() throws {
        let out = try errors([
            "Content/site.yml": "title: X\nsearch:\n  instant: sometimes\n  style: fancy\n",
            "Content/a/a.txt": "A\n",
        ])
        #expect(out.status == 1)
        #expect(out.stderr == """
            Content/site.yml:3:12: error: search.instant must be true or false
            Content/site.yml:4:10: error: search.style must be one of prominent, minimal, centered (found 'fancy')

            """)
    }

    /// The search field is named by its placeholder and Cancel by its text: a list, a mapping or
    /// nothing there built without a word, and left an unnamed field and a Cancel button 0 px wide.
    @Test func theBarsPlaceholderAndCancelTextMustBeTextThatIsNotEmpty() throws {
        let out = try errors([
            "Content/site.yml": "search:\n  placeholder: [Find, things]\n  cancel_text: {x: 1}\n",
            "Content/a/a.txt": "A\n",
        ])
        #expect(out.status == 1)
        #expect(out.stderr.contains("Content/site.yml:2:16: error: search.placeholder must be text, not a list"), "\(out.stderr)")
        #expect(out.stderr.contains("Content/site.yml:3:16: error: search.cancel_text must be text, not a mapping"), "\(out.stderr)")
        for blank in ["\"\"", "~", "\"  \""] {
            let empty = try errors(["Content/site.yml": "search:\n  placeholder: \(blank)\n  cancel_text: \(blank)\n", "Content/a/a.txt": "A\n"])
            #expect(empty.status == 1, "\(blank)")
            #expect(empty.stderr.contains("Content/site.yml:2:16: error: search.placeholder must not be empty: it names the search field for screen readers"), "\(empty.stderr)")
            #expect(empty.stderr.contains("Content/site.yml:3:16: error: search.cancel_text must not be empty: it names the Cancel button for screen readers"), "\(empty.stderr)")
        }
        #expect(try errors(["Content/site.yml": "search:\n  placeholder: Find a candy\n  cancel_text: Done\n", "Content/a/a.txt": "A\n"]).status == 0)
    }

    /// A name that is not valid UTF-8 was read with its bytes replaced: a collection folder of such a
    /// name was skipped without a word, and a page or a Static/ file was said not to be there
    /// ("cannot read file: No such file or directory"). Each is an error that says what is wrong.
    @Test func aNameThatIsNotUTF8IsAnError() throws {
        let site = try TestSite(["Content/things/things.txt": "One\n", "Static/ok.txt": "ok\n"])
        defer { site.delete() }
        // Made from bytes: a Swift string cannot hold them.
        func make(_ rel: String, _ bad: UInt8, _ suffix: String, folder: Bool) {
            var bytes = Array((site.root.path + "/" + rel).utf8).map { CChar(bitPattern: $0) } + [CChar(bitPattern: bad)] + Array(suffix.utf8).map { CChar(bitPattern: $0) }
            bytes.append(0)
            if folder { #expect(mkdir(bytes, 0o755) == 0) } else { let fd = open(bytes, O_WRONLY | O_CREAT, 0o644); #expect(fd >= 0); write(fd, "# P\n", 4); close(fd) }
        }
        make("Content/c", 0xFF, "", folder: true)
        make("Content/p", 0xE9, ".md", folder: false)
        make("Content/things/q", 0xE9, ".md", folder: false)
        make("Static/s", 0xFF, ".txt", folder: false)
        let out = site.build()
        #expect(out.status == 1)
        #expect(out.stderr == """
            Content/c\u{FFFD}: error: its name is not valid UTF-8, which no link can hold: rename it
            Content/p\u{FFFD}.md: error: its name is not valid UTF-8, which no link can hold: rename it
            Content/things/q\u{FFFD}.md: error: its name is not valid UTF-8, which no link can hold: rename it
            Static/s\u{FFFD}.txt: error: its name is not valid UTF-8, which no link can hold: rename it

            """, "\(out.stderr)")
    }

    /// A base URL's `.` or `..` segment (`%2e%2e` too, which browsers read as one) took the site's
    /// links out of its folder, and a port past 65535 was taken; an absolute base's path was
    /// decoded (`a%2Fb` made two folders of one) where a bare path's is kept as written; and a
    /// protocol-relative base put its host into `_headers`, whose rules hosts match on paths.
    @Test func aBaseURLsPathIsKeptAsWrittenAndMayNotClimb() throws {
        for bad in ["/docs/../x/", "https://example.com/%2e%2e/", "//cdn.example.com/./d/"] {
            let out = try errors(["Content/site.yml": "title: X\nbase_url: \"\(bad)\"\n", "Content/a/a.txt": "A\n"])
            #expect(out.stderr == "Content/site.yml:2:11: error: base_url '\(bad)' holds a . or .. segment, which a browser resolves away: write the folder's own path\n", "\(bad)")
        }
        let port = try errors(["Content/a/a.txt": "A\n"], ["--base-url", "https://example.com:99999/"])
        #expect(port.status == 2 && port.stderr.contains("has port 99999, past 65535"), "\(port.stderr)")
        let site = try TestSite(["Content/site.yml": "base_url: https://example.com/a%2Fb/\n", "Content/things/things.txt": "One\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("index.html")?.contains("href=\"/a%2Fb/things/\"") == true)
        try site.write("Content/site.yml", "base_url: //cdn.example.com/d/\n")
        #expect(site.build().status == 0)
        let headers = try #require(site.page("_headers"))
        #expect(headers.contains("/d/search/immutable/*") && !headers.contains("cdn.example.com"), "\(headers)")
    }

    /// A base URL that is neither a path nor an http(s) URL with a host became a path of the site
    /// without a word (`localhost:8000/docs/` gave links under /8000/docs/); an empty language
    /// wrote `lang=""`.
    @Test func aBaseURLThatIsNoPathNorURLIsAnErrorAndAnEmptyLanguageIsTheDefault() throws {
        for bad in ["localhost:8000/docs/", "https//example.com/", "example.com/docs/", "javascript:alert(1)", "https:///docs/"] {
            let out = try errors(["Content/site.yml": "title: X\nbase_url: \"\(bad)\"\n", "Content/a/a.txt": "A\n"])
            #expect(out.status == 1, "\(bad)")
            #expect(out.stderr.hasPrefix("Content/site.yml:2:11: error: base_url '\(bad)' is neither a path starting with / nor an http(s) URL with a host"), "\(out.stderr)")
            let flag = try errors(["Content/a/a.txt": "A\n"], ["--base-url", bad])
            #expect(flag.status == 2 && flag.stderr.contains("--base-url '\(bad)' is neither"), "\(flag.stderr)")
        }
        for good in ["/docs/", "//cdn.example.com/docs/", "https://example.com/docs/", "HTTP://example.com", ""] {
            #expect(try errors(["Content/site.yml": "base_url: \"\(good)\"\nlanguage: \"\"\n", "Content/a/a.txt": "A\n"]).status == 0, "\(good)")
        }
        let site = try TestSite(["Content/site.yml": "language: \"\"\n", "Content/a/a.txt": "A\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("index.html")?.contains("<html lang=\"en\"") == true)
    }

    /// Lines ending in CR alone (Excel for Mac's old CSV) made no item of a CSV file, and one item
    /// of a whole text file, without a word.
    @Test func linesEndingInACarriageReturnAloneAreAnError() throws {
        for (file, text) in [("a.csv", "name,x\rA,1\rB,2\r"), ("a.txt", "alpha\rbeta\rgamma\r")] {
            let out = try errors(["Content/a/\(file)": text])
            #expect(out.status == 1)
            #expect(out.stderr.hasPrefix("Content/a/\(file):1:\(file == "a.csv" ? 7 : 6): error: this line ends in a carriage return alone"), "\(out.stderr)")
        }
        #expect(try errors(["Content/a/a.csv": "name,x\r\nA,1\r\n"]).status == 0, "CRLF")
        #expect(try errors(["Content/a/a.csv": "name,x\n\"A\rB\",1\n"]).status == 0, "a CR in a quoted value of a file of LF lines")
    }

    /// `scopes: [x, x, ""]` made two buttons that did the same and one with no name.
    @Test func aScopeListedTwiceOrBlankIsAnError() throws {
        let out = try errors([
            "Content/a/collection.yml": "scope_field: kind\nscopes: [x, x, \" \"]\n",
            "Content/a/a.csv": "name,kind\nOne,x\n",
        ])
        #expect(out.status == 1)
        #expect(out.stderr == """
            Content/a/collection.yml:2:9: error: scopes may not hold an empty name
            Content/a/collection.yml:2:9: error: scope 'x' is listed twice in scopes

            """)
    }

    /// A scope named `All` could never be chosen alone: the bar's own "All" (every item) came first,
    /// and the search for it returned every item; the bar showed two buttons of that name.
    @Test func aScopeNamedAllIsAnError() throws {
        let out = try errors([
            "Content/a/collection.yml": "scope_field: kind\nscopes: [All, red]\n",
            "Content/a/a.csv": "name,kind\nOne,All\nTwo,red\n",
        ])
        #expect(out.status == 1)
        #expect(out.stderr == "Content/a/collection.yml:2:9: error: scope 'All' is the scope bar's own first button (every item): give this scope another name\n")
    }

    /// A theme key or value that could end the `:root` rule it is written into is an error at it:
    /// the key `a}body{display:none` wrote `:root{--sift-a}body{display:none:red}`, hiding every page.
    @Test func themeKeysAndValuesThatCouldEndTheRuleAreErrors() throws {
        let out = try errors([
            "Content/site.yml": "title: X\ntheme:\n  \"a}body{display:none\": red\n  bar_tint: \"#000 /* x\"\n  \"\": red\n",
            "Content/a/a.txt": "A\n",
        ])
        #expect(out.status == 1)
        #expect(out.stderr == """
            Content/site.yml:3:3: error: theme key 'a}body{display:none' may only have letters, digits, - and _
            Content/site.yml:4:13: error: theme.bar_tint may not contain ; { } < > \\ /* or a line break
            Content/site.yml:5:3: error: theme key '' may only have letters, digits, - and _

            """)
        // A string left open ran to the end of theme.css: every key after it was lost.
        let open = try errors(["Content/site.yml": "title: X\ntheme:\n  font: 'x\" y'\n  text_color: red\n", "Content/a/a.txt": "A\n"])
        #expect(open.stderr == "Content/site.yml:3:9: error: theme.font opens a string with \" that it does not close\n")
        let site = try TestSite(["Content/site.yml": "theme:\n  Text_color-2: \"#f60\"\n  font: \"Futura, 'Gill Sans\\\"', sans-serif\"\n", "Content/a/a.txt": "A\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("assets/theme.css") == ":root{--sift-Text-color-2:#f60;--sift-font:Futura, 'Gill Sans\"', sans-serif}\n")
    }

    @Test func collectionSettingErrorsPointAtTheirKey() throws {
        let out = try errors(["Content/a/collection.yml": "title: A\nper_page: many\n", "Content/a/a.txt": "A\n"])
        #expect(out.stderr == "Content/a/collection.yml:2:11: error: per_page must be a whole number, 0 for one page (found 'many')\n")
        // A number too large for a page was said to be no whole number.
        let large = try errors(["Content/a/collection.yml": "per_page: 99999999999999999999999\n", "Content/a/a.txt": "A\n"])
        #expect(large.stderr == "Content/a/collection.yml:1:11: error: per_page 99999999999999999999999 is too large: a page of all the items is per_page: 0\n")
    }

    /// A value quoted in an error keeps its control characters written out: a `.txt` row of a NUL
    /// alone printed the NUL itself, which a terminal shows as nothing and grep takes for binary.
    @Test func aControlCharacterInAnErrorIsWrittenOut() throws {
        let out = try errors(["Content/a/a.txt": "A\n\u{0}\n"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("'\\u{0}'") && !out.stderr.contains("\u{0}"), "\(out.stderr)")
    }

    @Test func yamlSyntaxErrorInSettings() throws {
        let out = try errors(["Content/site.yml": "title: X\n  bad: indent\n", "Content/a/a.txt": "A\n"])
        #expect(out.status == 1)
        #expect(out.stderr.hasPrefix("Content/site.yml:2:6: error: "))
    }

    @Test func frontMatterErrorHasTheFileLine() throws {
        let out = try errors(["Content/a/x.md": "---\ntitle: ok\ntags: [a, b\n---\nBody\n"])
        #expect(out.status == 1)
        // At the bracket never closed, on the file's third line (its front matter's second).
        #expect(out.stderr.hasPrefix("Content/a/x.md:3:7: error: a flow sequence that starts here never ends"), "\(out.stderr)")
    }

    @Test func unknownPartialNamesTheTemplateLine() throws {
        let out = try errors(["Content/a/a.txt": "A\n", "Templates/page.mustache": "ok\n{{> sidebar}}\n", "Content/about.md": "Hi\n"])
        #expect(out.status == 1)
        #expect(out.stderr == "Templates/page.mustache:2:1: error: no template named 'sidebar'\n")
    }

    /// One template's mistake met by every page it renders was printed once a page (258 times
    /// on the example site): it is printed once, with how many pages met it.
    @Test func aTemplateErrorEveryPageMeetsIsReportedOnce() throws {
        let site = try TestSite(["Content/a/a.txt": "A\nB\nC\n", "Content/about.md": "Hi\n",
                                 "Templates/partials/loop.mustache": "{{> loop}}",
                                 "Templates/detail.mustache": "{{< layout}}{{$ main}}{{> loop}}{{/ main}}{{/ layout}}"])
        defer { site.delete() }
        for command in ["build", "check"] {
            let out = SiftCLI.run([command], in: site.root)
            #expect(out.status == 1)
            #expect(out.stderr.hasPrefix("Templates/partials/loop.mustache:1:1: error: ") && out.stderr.hasSuffix(" (in 3 pages)\n"), "\(command): \(out.stderr)")
            #expect(out.stderr.components(separatedBy: "\n").count == 2, "once: \(out.stderr)")
        }
    }

    /// A partial no template has, named where no page went yet (a section no item enters), was
    /// no error until the first page that entered it: the build that added that page failed.
    @Test func aMissingPartialIsAnErrorBeforeAnyPageRendersIt() throws {
        let site = try TestSite(["Content/a/a.txt": "A\nB\n",
                                 "Templates/detail.mustache": "{{< layout}}{{$ main}}{{#item.has_content}}{{> body-partial}}{{/item.has_content}}{{/ main}}{{/ layout}}"])
        defer { site.delete() }
        for command in ["build", "check"] {
            let out = SiftCLI.run([command], in: site.root)
            #expect(out.status == 1, "\(command)")
            #expect(out.stderr == "Templates/detail.mustache:1:44: error: no template named 'body-partial'\n", "\(command): \(out.stderr)")
        }
    }

    @Test func templateSyntaxErrorNamesTheTemplateLine() throws {
        let out = try errors(["Content/a/a.txt": "A\n", "Templates/list.mustache": "{{#items}}\n{{title}}\n"])
        #expect(out.stderr == "Templates/list.mustache:1:1: error: unclosed section 'items' opened here\n")
    }

    @Test func invalidUTF8NamesTheByte() throws {
        let site = try TestSite(["Content/a/a.txt": "A\n"])
        defer { site.delete() }
        try Data([0x4F, 0x6B, 0x0A, 0x42, 0xFF, 0x0A]).write(to: site.root.appendingPathComponent("Content/a/a.txt"))
        let out = site.build()
        #expect(out.stderr == "Content/a/a.txt:2:2: error: invalid UTF-8 (byte 0xFF)\n")
    }

    @Test func unreadableFileIsAnError() throws {
        let site = try TestSite(["Content/a/a.txt": "A\n", "Content/a/b.md": "x"])
        defer { site.delete() }
        // A folder where a page should be a file cannot be read as one.
        try site.remove("Content/a/b.md")
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("Content/a/b.md"), withIntermediateDirectories: true)
        let out = site.build()
        #expect(out.status == 1)
        #expect(out.stderr.hasPrefix("Content/a/b.md: error: cannot read file"), "\(out.stderr)")
    }

    /// A named pipe opened for reading waits for a writer: build and check waited forever.
    @Test func aNamedPipeWhereASourceShouldBeIsAnError() throws {
        let site = try TestSite(["Content/a/a.txt": "A\n"])
        defer { site.delete() }
        #expect(mkfifo(site.root.appendingPathComponent("Content/about.md").path, 0o644) == 0)
        for command in ["build", "check"] {
            let out = finishes(within: 60) { SiftCLI.run([command], in: site.root) }
            #expect(out?.status == 1, "\(command) ends")
            #expect(out?.stderr == "Content/about.md: error: cannot read file: not a regular file but a named pipe\n")
        }
    }

    @Test func emptySlugIsAnError() throws {
        let out = try errors(["Content/a/a.csv": "name\nOK\n\"?!\"\n"])
        #expect(out.stderr == "Content/a/a.csv:3:1: error: the slug of '?!' is empty: give the row a slug\n")
    }

    @Test func aSlugFieldCannotEscapeTheOutput() throws {
        let site = try TestSite(["Content/a/a.csv": "name,slug\nEvil,../../../etc\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("a/etc/index.html") != nil)
    }

    @Test func reservedCollectionNamesAreRefused() throws {
        let out = try errors(["Content/assets/a.txt": "A\n"])
        #expect(out.status == 1)
        #expect(out.stderr.hasPrefix("Content/assets: error: collection folder 'assets' is reserved"))
    }

    /// An asset whose name leaves no room for its hash and a `.gz` or `.br` copy failed the build
    /// writing it ("File name too long"), naming a staging folder that was gone, not the asset.
    @Test func anAssetNameTooLongForItsCopiesIsAnErrorAtTheAsset() throws {
        let long = String(repeating: "a", count: 241) + ".css", fits = String(repeating: "b", count: 235) + ".css"
        let out = try errors(["Content/a/a.txt": "A\n", "Templates/assets/\(long)": "body {}\n"])
        #expect(out.status == 1)
        #expect(out.stderr == "Templates/assets/\(long): error: asset '\(long)' has a name of 245 bytes: with the 16 its hashed and compressed copies add, it passes the 255 a file name may have; shorten it\n", "\(out.stderr)")
        let site = try TestSite(["Content/a/a.txt": "A\n", "Templates/assets/\(fits)": "body {}\n"])
        defer { site.delete() }
        #expect(SiftCLI.run(["build", "--precompress"], in: site.root).status == 0, "255 bytes with its copies: it fits")
    }

    /// Names that differ only in case were two folders of the output on Linux and one on macOS
    /// and Windows, where one page overwrote the other; `Search/` put pages among the index's
    /// files, which a CDN keeps a year.
    @Test func topLevelNamesThatDifferOnlyInCaseAreRefused() throws {
        var out = try errors(["Content/About/a.txt": "X\n", "Content/about.md": "---\ntitle: About page\n---\nhi\n"])
        #expect(out.status == 1)
        #expect(out.stderr == "Content/about.md:1:1: error: page slug 'about' differs from Content/About only in case, and macOS and Windows take the two for one folder: rename one\n", "\(out.stderr)")
        out = try errors(["Content/Things/a.txt": "X\n", "Content/things/b.txt": "Y\n"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("error: collection folder 'things' differs from Content/Things only in case"), "\(out.stderr)")
        out = try errors(["Content/Search/a.txt": "X\n"])
        #expect(out.status == 1)
        #expect(out.stderr.hasPrefix("Content/Search: error: collection folder 'Search' is reserved for Sift's own output"), "\(out.stderr)")
    }

    /// A folder named like a file Sift writes at the top of the output failed the build with
    /// "cannot write …/.public.sift-staging-N/_headers: File exists", naming no source.
    @Test func foldersNamedLikeSiftsOwnFilesAreRefused() throws {
        for name in ["_headers", "index.html", "index.html.gz", "404.html.br", "sitemap-2.xml.gz"] {
            let out = try errors(["Content/\(name)/a.txt": "A\n", "Content/about.md": "Hi\n"], ["--precompress"])
            #expect(out.status == 1)
            #expect(out.stderr == "Content/\(name): error: collection folder '\(name)' is reserved for Sift's own output "
                + "(404.html, _headers, assets, index.html, page, search, sitemap.xml, sitemap-N.xml, and their .gz and .br copies)\n")
        }
        #expect(try errors(["Content/assets.gz/a.txt": "A\n"]).status == 0, "assets is a folder: it has no copies")
    }

    @Test func twoCollectionFoldersOfOneNameComposedOtherwiseAreAnError() throws {
        // café composed (U+00E9) and decomposed (e, U+0301): two folders on disk, equal Strings;
        // the build failed writing one of them ("No such file or directory"), naming no source.
        let out = try errors(["Content/caf\u{e9}/a.txt": "A\n", "Content/cafe\u{301}/b.txt": "B\n"])
        #expect(out.status == 1)
        #expect(out.stderr == "Content/caf\u{e9}: error: collection folder 'caf\u{e9}' has the name of Content/cafe\u{301}, its letters composed otherwise: rename one\n")
    }

    /// Runs `sift check` on a site and checks it wrote nothing.
    func checked(_ files: [String: String]) throws -> SiftCLI.Outcome {
        let site = try TestSite(files)
        defer { site.delete() }
        let out = SiftCLI.run(["check"], in: site.root)
        #expect(!FileManager.default.fileExists(atPath: site.output.path), "check writes nothing")
        return out
    }

    @Test func scopesNotListedAreWarnings() throws {
        let out = try checked([
            "Content/c/c.csv": "name,kind\nA,x\nB,y\n",
            "Content/c/collection.yml": "scope_field: kind\nscopes: [x]\n",
        ])
        #expect(out.status == 0)
        #expect(out.stderr == "Content/c/c.csv:3:1: warning: kind 'y' is not one of the scopes x in collection.yml\n")
    }

    /// A template named otherwise than a page kind or a collection's folder (`lst.mustache`,
    /// `C/list.mustache` for `c`) was left out without a word; a partial that a template includes is used.
    @Test func templatesNoPageUsesAreWarnings() throws {
        let out = try checked([
            "Content/c/c.csv": "name\nA\n",
            "Templates/c/lst.mustache": "x", "Templates/C/list.mustache": "x", "Templates/nope/list.mustache": "x",
            "Templates/c/detail.mustache": "{{> c/row}}", "Templates/c/row.mustache": "{{> shared}}", "Templates/partials/shared.mustache": "s",
            "Templates/layout.mustache": "{{$body}}{{/body}}",
        ])
        #expect(out.status == 0)
        let why = "no page is rendered with this template and no template includes it (a collection's own are Templates/COLLECTION/list.mustache and detail.mustache)"
        #expect(out.stderr == """
            Templates/C/list.mustache: warning: \(why)
            Templates/c/lst.mustache: warning: \(why)
            Templates/nope/list.mustache: warning: \(why)

            """)
    }

    /// `facets:` or `scopes:` left empty was an error (`sort:` left empty was not), and `scopes: 3`
    /// was said to need "a list of field names".
    @Test func listsLeftEmptyNameNothing() throws {
        let out = try checked([
            "Content/c/c.csv": "name,kind\nA,x\n",
            "Content/c/collection.yml": "scope_field: kind\nsort: ~\nfacets: ~\nscopes:\nlist_fields:\n",
        ])
        #expect(out.status == 0 && out.stderr == "", "\(out.stderr)")
        let wrong = try checked(["Content/c/c.csv": "name,kind\nA,x\n", "Content/c/collection.yml": "scope_field: kind\nscopes: 3\n"])
        #expect(wrong.stderr == "Content/c/collection.yml:2:9: error: scopes must be a list of scope names\n")
    }

    /// A settings file's errors came in the order its reader checks keys: `scopes` at line 3
    /// before `facets` at line 2.
    @Test func aSettingsFilesErrorsComeInLineOrder() throws {
        let out = try errors(["Content/c/c.txt": "A\n", "Content/c/collection.yml": "scope_field: kind\nfacets: 3\nscopes: 4\n"])
        #expect(out.stderr == """
            Content/c/collection.yml:2:9: error: facets must be a list of field names
            Content/c/collection.yml:3:9: error: scopes must be a list of scope names

            """)
    }

    /// `weight: 0x10` was read as 16 (Swift's Double(_:) reads hexadecimal), though a weight is a decimal number.
    @Test func aHexadecimalWeightIsAnError() throws {
        let out = try errors(["Content/hex.md": "---\nweight: 0x10\n---\nHi\n", "Content/fine.md": "---\nweight: -1.5e1\n---\nHi\n"])
        #expect(out.status == 1)
        #expect(out.stderr == "Content/hex.md:2:9: error: weight must be a number (found '0x10')\n")
    }

    /// A scope field holding a list or a map left the item in no scope without a word.
    @Test func aScopeThatIsAListOrAMapIsAWarning() throws {
        let out = try checked([
            "Content/c/c.yml": "- {title: Apple, cat: [Veg, Fruit]}\n- {title: Pear, cat: Fruit}\n- {title: Leek, cat: {a: 1}}\n",
            "Content/c/collection.yml": "scope_field: cat\nscopes: [Veg, Fruit]\n",
        ])
        #expect(out.status == 0)
        #expect(out.stderr == """
            Content/c/c.yml:1:3: warning: cat holds a list, and an item is in one scope: this one is in none; give it one value
            Content/c/c.yml:3:3: warning: cat holds a map, and an item is in one scope: this one is in none; give it one value

            """)
    }

    /// A misspelt field name in collection.yml fails nothing, so it is said: every item without a
    /// scope, a facet without values, a sort that sorts nothing.
    @Test func fieldsNoItemHasAreWarnings() throws {
        let out = try checked([
            "Content/c/c.csv": "name,kind,price\nA,x,1\nB,y,2\n",
            "Content/c/collection.yml": "scope_field: knid\nfacets: [kind, colour]\nsort_fields: [prcie, title]\nsort: -price\n",
        ])
        #expect(out.status == 0)
        let fields = "(the first item's fields: 'name', 'kind', 'price')"
        #expect(out.stderr == """
            Content/c/collection.yml:1:14: warning: scope_field: no item of 'c' has a field 'knid' \(fields)
            Content/c/collection.yml:2:9: warning: facets: no item of 'c' has a field 'colour' \(fields)
            Content/c/collection.yml:3:14: warning: sort_fields: no item of 'c' has a field 'prcie' \(fields)

            """)
    }

    /// site.yml's text keys are text and `markdown` a mapping: `title: [a, b]` gave every page
    /// `<title>about · </title>`, `language: {x: 1}` `lang=""`, and `markdown: true` was let go.
    @Test func siteTextKeysMustBeText() throws {
        let out = try errors(["Content/site.yml": "markdown: true\ntitle: [a, b]\nlanguage: {x: 1}\n", "Content/about.md": "hi\n"])
        #expect(out.stderr == """
            Content/site.yml:1:11: error: markdown must be a mapping of settings, such as {unsafe: true}
            Content/site.yml:2:8: error: title must be text, not a list
            Content/site.yml:3:11: error: language must be text, not a mapping

            """)
    }

    /// A name or a title in collection.yml is text: a list or a mapping was taken as "".
    @Test func collectionTextKeysMustBeText() throws {
        let out = try errors(["Content/a/collection.yml": "title: [x]\ntitle_field: {a: 1}\n", "Content/a/a.txt": "A\n"])
        #expect(out.stderr == """
            Content/a/collection.yml:1:8: error: title must be text, not a list
            Content/a/collection.yml:2:14: error: title_field must be text, not a mapping

            """)
    }

    /// An asset named with a character a link cannot hold (`q#x.css` was linked as
    /// `/assets/q#x.HASH.css`, a fragment), or two assets of one template name, fail the build.
    @Test func assetNamesALinkCannotHoldAreErrors() throws {
        let out = try errors([
            "Content/a/a.txt": "A\n",
            "Templates/assets/q#x.css": "p{}", "Templates/assets/sp ace.css": "p{}",
            "Templates/assets/a-b.css": "p{}", "Templates/assets/a_b.css": "p{}",
        ])
        #expect(out.status == 1)
        #expect(out.stderr == """
            Templates/assets/q#x.css: error: asset 'q#x.css' has '#' in its name, which a link cannot hold as it is: rename it (letters, digits, '-', '_' and '.' are safe)
            Templates/assets/sp ace.css: error: asset 'sp ace.css' has U+0020 in its name, which a link cannot hold as it is: rename it (letters, digits, '-', '_' and '.' are safe)
            Templates/assets/a_b.css: error: assets 'a-b.css' and 'a_b.css' have one template name, assets.a_b_css: rename one

            """)
    }

    /// A collection folder named with a character a link cannot hold was linked as `/q?x#y/alpha/`,
    /// a query and a fragment, which no host answers; a name outside ASCII is a link's to hold.
    @Test func collectionNamesALinkCannotHoldAreErrors() throws {
        let out = try errors(["Content/q?x#y/list.txt": "Alpha\n", "Content/日本/list.txt": "Tokyo\n"])
        #expect(out.status == 1)
        #expect(out.stderr == "Content/q?x#y: error: collection folder 'q?x#y' has '?' in its name, which a link cannot hold as it is: rename it (letters, digits, '-' and '_' are safe)\n")
    }

    /// A site's settings in `Site.yml` or `site.json` were left out without a word, and their
    /// `base_url` with them.
    @Test func settingsFilesNamedOtherwiseAreSaid() throws {
        let out = try checked(["Content/a/a.txt": "A\n", "Content/Site.yml": "title: X\n", "Content/site.json": "{}\n", "Content/notes.yml": "a: 1\n"])
        #expect(out.status == 0)
        #expect(out.stderr == """
            Content/Site.yml: warning: 'Site.yml' is ignored: the site's settings are read from site.yml (or site.yaml), named so exactly
            Content/site.json: warning: 'site.json' is ignored: the site's settings are read from site.yml (or site.yaml), named so exactly

            """)
    }

    /// Files named as pages are but for `.md`, and folders inside a collection, were left out
    /// without a word; a second settings file was read over the first, or never.
    @Test func filesSiftLeavesOutAreSaid() throws {
        let out = try checked([
            "Content/a/a.txt": "A\n", "Content/a/sub/x.md": "hi\n", "Content/a/b.markdown": "hi\n", "Content/a/c.MD": "hi\n",
            "Content/top.markdown": "hi\n", "Content/a/photo.png": "",
        ])
        #expect(out.status == 0)
        #expect(out.stderr == """
            Content/a/b.markdown: warning: 'b.markdown' is ignored: a page's name ends in .md
            Content/a/c.MD: warning: 'c.MD' is ignored: a page's name ends in .md
            Content/a/sub: warning: folder 'sub' is ignored: a collection's pages and dataset are at the top of its folder
            Content/top.markdown: warning: 'top.markdown' is ignored: a page's name ends in .md

            """)
        let two = try errors(["Content/a/a.txt": "A\n", "Content/a/collection.yml": "title: A\n", "Content/a/collection.yaml": "title: B\n",
                              "Content/site.yml": "title: X\n", "Content/site.yaml": "title: Y\n"])
        #expect(two.stderr == """
            Content/site.yaml: error: a site has one settings file, found site.yml and site.yaml
            Content/a/collection.yaml: error: a collection has one settings file, found collection.yml and collection.yaml

            """)
    }

    /// site.yaml is read as site.yml is (collection.yaml was, site.yaml was ignored).
    @Test func siteYamlIsRead() throws {
        let site = try TestSite(["Content/site.yaml": "title: Yaml Site\n", "Content/a/a.txt": "A\n"])
        defer { site.delete() }
        #expect(site.build().status == 0)
        #expect(site.page("index.html")?.contains("Yaml Site") == true)
    }

    @Test func wrongUsageExitsTwo() {
        #expect(SiftCLI.run(["bild"]).status == 2)
        #expect(SiftCLI.run(["build", "--nope"]).stderr == "error: unknown option '--nope' for sift build\nRun 'sift help' for usage.\n")
        #expect(SiftCLI.run(["build", "--jobs", "0"]).status == 2)
        #expect(SiftCLI.run(["search"]).status == 2)
        #expect(SiftCLI.run([]).status == 2)
        #expect(SiftCLI.run(["--version"]).stdout == "sift \(SiftCLI.version)\n")
        #expect(SiftCLI.run(["help", "build"]).stdout.hasPrefix("Usage: sift build"))
    }
}

extension BuildErrorTests {
    @Test func aPageAndACollectionCannotShareAName() throws {
        // At the page's `slug:` key; at the file's start when its name gave the slug.
        let out = try errors(["Content/a.md": "---\ntitle: A\nslug: things\n---\nHi\n", "Content/things/t.txt": "A\n"])
        #expect(out.stderr == "Content/a.md:3:1: error: page slug 'things' is also used by Content/things\n")
        let named = try errors(["Content/things.md": "Hi\n", "Content/things/t.txt": "A\n"])
        #expect(named.stderr == "Content/things.md:1:1: error: page slug 'things' is also used by Content/things\n")
        let reserved = try errors(["Content/a.md": "---\ntitle: A\nslug: search\n---\nHi\n"])
        #expect(reserved.stderr.hasPrefix("Content/a.md:3:1: error: page slug 'search' "), "\(reserved.stderr)")
    }
}

extension BuildErrorTests {
    /// `sift check` renders into a scratch folder of its own: checks running at once in one
    /// process (a test runner, an editor plugin) never share or delete each other's.
    @Test func checksAtOnceEachHaveTheirOwnScratchFolder() throws {
        let sites = try (0..<8).map { i in try TestSite(["Content/c/c.csv": "name\nAlpha \(i)\nBeta\n", "Content/about.md": "Hi \(i).\n"]) }
        defer { sites.forEach { $0.delete() } }
        for _ in 0..<3 {
            let outcomes = Locked<[Int32]>([])
            DispatchQueue.concurrentPerform(iterations: sites.count) { i in
                let out = SiftCLI.run(["check"], in: sites[i].root)
                outcomes.withLock { $0.append(out.status) }
            }
            #expect(outcomes.withLock { $0 } == Array(repeating: 0, count: sites.count))
        }
    }

    @Test func checkWarnsAboutProbableMistakes() throws {
        let out = try checked([
            "Content/c/c.csv": "name\nAlpha\n",
            "Content/c/alpha.md": "See [beta](../beta/) and [home](/), [gamma](/c/gamma/) and [the web](https://example.org/).\n",
            "Content/c/stray.md": "---\ntitle: Stray\n---\nLinks to [about](/about/).\n",
            "Content/about.md": "Back [home](../).\n",
        ])
        #expect(out.status == 0)
        #expect(out.stderr == """
            Content/c/stray.md:1:1: warning: page slug 'stray' matches no row of c.csv: it becomes an item of its own
            Content/c/alpha.md:1:5: warning: link to ../beta/ points to no page of the site
            Content/c/alpha.md:1:37: warning: link to /c/gamma/ points to no page of the site

            """)
    }
}

extension BuildErrorTests {
    /// Under `base_url: /docs/` a Markdown link `/f/a/` opens the host's /f/a/, not the site's page:
    /// `sift check` took it for the page and said nothing. It names the link the author meant.
    @Test func checkTellsOfALinkFromTheHostsRootThatLeavesTheBasePath() throws {
        let out = try checked([
            "Content/site.yml": "base_url: /docs/\n",
            "Content/f/f.txt": "A\n",
            "Content/about.md": "[a](/f/a/) [b](/docs/f/a/) [c](/docs/f/zzz/) [blog](/blog/) [d](../f/a/#x)\n",
        ])
        #expect(out.status == 0)
        #expect(out.stderr == """
            Content/about.md:1:1: warning: link to /f/a/ leaves the base path /docs/ the site is served under: write /docs/f/a/
            Content/about.md:1:28: warning: link to /docs/f/zzz/ points to no page of the site

            """)
    }

    /// A known front matter key's value of the wrong type is an error at the value, on a
    /// standalone page and a collection's page alike: a misspelt `draft: ture` published the draft.
    @Test func knownFrontMatterKeysOfTheWrongTypeAreErrorsAtTheirValue() throws {
        let site = try TestSite([
            "Content/secret.md": "---\ndraft: ture\n---\nsecret plans\n",
            "Content/one.md": "---\ndraft: 1\nsearch: nope\n---\nHi\n",
            "Content/two.md": "---\ntitle: [a, b]\nweight: heavy\n---\nHi\n",
            "Content/three.md": "---\ntitle: Three\nslug:\n  - x\n---\nHi\n",
            "Content/four.md": "---\ntitle: Four\nslug: \"?!\"\n---\nHi\n",
            "Content/fine.md": "---\ntitle: 1984\ndraft: no\nsearch: \"off\"\nweight: \"2\"\ndate: 2026-02-14\n---\nHi\n",
            // A skeleton's keys left empty are not set.
            "Content/empty.md": "---\ntitle: Empty\ndraft:\nsearch:\nweight:\n---\nHi\n",
            "Content/things/things.txt": "Alpha\n",
            "Content/things/alpha.md": "---\ndraft: \"ture\"\n---\nHi\n",
            "Content/things/beta.md": "---\nweight: heavy\nslug: {a: b}\ndate: [1, 2]\n---\nHi\n",
        ])
        defer { site.delete() }
        for command in ["build", "check"] {
            let out = SiftCLI.run([command], in: site.root)
            #expect(out.status == 1)
            #expect(out.stderr == """
                Content/four.md:3:7: error: the slug of '?!' is empty: set `slug:` in the front matter
                Content/one.md:2:8: error: draft must be true or false (found '1')
                Content/one.md:3:9: error: search must be true or false (found 'nope')
                Content/secret.md:2:8: error: draft must be true or false (found 'ture')
                Content/things/alpha.md:2:8: error: draft must be true or false (found 'ture')
                Content/things/beta.md:2:9: error: weight must be a number (found 'heavy')
                Content/things/beta.md:3:7: error: slug must be text (found a mapping)
                Content/things/beta.md:4:7: error: date must be text (found a list)
                Content/three.md:4:3: error: slug must be text (found a list)
                Content/two.md:2:8: error: title must be text (found a list)
                Content/two.md:3:9: error: weight must be a number (found 'heavy')

                """, "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.output.path), "nothing is published")
    }
}
