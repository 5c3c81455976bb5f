import Foundation
import Testing
@testable import SiftKit

// MARK: CommonMark

@Test func markdownHeading() { #expect(Markdown.render("# Hello").html == "<h1 id=\"hello\">Hello</h1>\n") }
@Test func markdownParagraph() { #expect(Markdown.render("Hello, world").html == "<p>Hello, world</p>\n") }
@Test func markdownTwoParagraphs() { #expect(Markdown.render("One\n\nTwo").html == "<p>One</p>\n<p>Two</p>\n") }
@Test func markdownEmphasis() {
    #expect(Markdown.render("*a* **b** `c`").html == "<p><em>a</em> <strong>b</strong> <code>c</code></p>\n")
}
@Test func markdownLink() {
    #expect(Markdown.render("[Sift](https://example.com/a?b=1&c=2 \"T\")").html
        == "<p><a href=\"https://example.com/a?b=1&amp;c=2\" title=\"T\">Sift</a></p>\n")
}
@Test func markdownImage() {
    #expect(Markdown.render("![A cat](cat.png)").html == "<p><img src=\"cat.png\" alt=\"A cat\" /></p>\n")
}
@Test func markdownList() {
    #expect(Markdown.render("- a\n- b").html == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n")
}
@Test func markdownCodeBlockEscapesHTML() {
    #expect(Markdown.render("```swift\nlet a = \"<b>\" && 1\n```").html
        == "<pre><code class=\"language-swift\">let a = &quot;&lt;b&gt;&quot; &amp;&amp; 1\n</code></pre>\n")
}
@Test func markdownTextEscapesHTMLLookalikes() {
    #expect(Markdown.render("a < b & \\<h2>").html == "<p>a &lt; b &amp; &lt;h2&gt;</p>\n")
}
@Test func markdownEmptySource() { #expect(Markdown.render("").html == "") }
@Test func markdownInvalidUTF8IsNotPossibleButNULIsReplaced() {
    #expect(Markdown.render("a\u{0}b").html == "<p>a\u{FFFD}b</p>\n")
}

// MARK: Raw HTML and URLs

@Test func markdownOmitsHTMLBlock() {
    #expect(Markdown.render("<script>alert(1)</script>").html == "<!-- raw HTML omitted -->\n")
}
@Test func markdownOmitsDivBlock() {
    #expect(Markdown.render("<div onclick=\"x()\">\nhi\n</div>").html == "<!-- raw HTML omitted -->\n")
}
@Test func markdownOmitsInlineHTML() {
    #expect(Markdown.render("a <script>alert(1)</script> b").html
        == "<p>a <!-- raw HTML omitted -->alert(1)<!-- raw HTML omitted --> b</p>\n")
}
@Test func markdownUnsafeKeepsHTMLBlock() {
    #expect(Markdown.render("<script>alert(1)</script>", unsafe: true).html == "<script>alert(1)</script>\n")
}
@Test func markdownUnsafeKeepsInlineHTML() {
    #expect(Markdown.render("a <b>c</b>", unsafe: true).html == "<p>a <b>c</b></p>\n")
}
@Test func markdownNeutralisesJavaScriptLink() {
    #expect(Markdown.render("[x](javascript:alert(1))").html == "<p><a href=\"\">x</a></p>\n")
}
@Test func markdownNeutralisesMixedCaseVBScriptLink() {
    #expect(Markdown.render("[x](VBScript:msgbox)").html == "<p><a href=\"\">x</a></p>\n")
}
@Test func markdownNeutralisesFileLink() {
    #expect(Markdown.render("[x](file:///etc/passwd)").html == "<p><a href=\"\">x</a></p>\n")
}
@Test func markdownNeutralisesDataHTMLImage() {
    #expect(Markdown.render("![x](data:text/html,hi)").html == "<p><img src=\"\" alt=\"x\" /></p>\n")
}
@Test func markdownKeepsDataPNGImage() {
    #expect(Markdown.render("![x](data:image/png;base64,AA)").html
        == "<p><img src=\"data:image/png;base64,AA\" alt=\"x\" /></p>\n")
}
@Test func markdownNeutralisesJavaScriptAutolink() {
    #expect(Markdown.render("<javascript:alert(1)>").html == "<p><a href=\"\">javascript:alert(1)</a></p>\n")
}
@Test func markdownUnsafeKeepsJavaScriptLink() {
    #expect(Markdown.render("[x](javascript:go)", unsafe: true).html == "<p><a href=\"javascript:go\">x</a></p>\n")
}
@Test func markdownHeadingOmitsInlineHTML() {
    #expect(Markdown.render("## A <b>bold</b> move").html
        == "<h2 id=\"a-bold-move\">A <!-- raw HTML omitted -->bold<!-- raw HTML omitted --> move</h2>\n")
}

// MARK: Heading ids

@Test func markdownHeadingKeepsInlineMarkup() {
    #expect(Markdown.render("## Getting *started*").html
        == "<h2 id=\"getting-started\">Getting <em>started</em></h2>\n")
}
@Test func markdownHeadingIdDropsAccents() {
    #expect(Markdown.render("## Côte d'Ivoire").headings == [Heading(level: 2, text: "Côte d'Ivoire", id: "cote-d-ivoire")])
}
@Test func markdownHeadingIdKeepsCJK() {
    #expect(Markdown.render("### 俄罗斯").html == "<h3 id=\"俄罗斯\">俄罗斯</h3>\n")
}

/// A heading whose id is one the layout, the home page or the search bar gives (`<main id="main">`)
/// gets the next free one: a search result's link to the heading "Main" scrolled to the page's top.
@Test func headingIDsLeaveTheTemplatesIDsAlone() {
    #expect(Markdown.render("## Main").html == "<h2 id=\"main-1\">Main</h2>\n")
    #expect(Markdown.render("## Main\n\n## Main").html == "<h2 id=\"main-1\">Main</h2>\n<h2 id=\"main-2\">Main</h2>\n")
    #expect(Markdown.render("## Group pages").html == "<h2 id=\"group-pages-1\">Group pages</h2>\n")
    #expect(Markdown.render("## Sift0 r").html == "<h2 id=\"sift0-r-1\">Sift0 r</h2>\n")
    #expect(Markdown.render("## Sift1 r12").html == "<h2 id=\"sift1-r12-1\">Sift1 r12</h2>\n")
    #expect(Markdown.render("## Sift1 rows").html == "<h2 id=\"sift1-rows\">Sift1 rows</h2>\n")
    #expect(Markdown.render("## Mainly").html == "<h2 id=\"mainly\">Mainly</h2>\n")
    #expect(Markdown.render("## Sifting").html == "<h2 id=\"sifting\">Sifting</h2>\n")
}
@Test func markdownEmptyHeadingIsSection() {
    #expect(Markdown.render("## ?!\n\n##").headings.map(\.id) == ["section", "section-1"])
}
@Test func markdownDuplicateHeadingIds() {
    #expect(Markdown.render("## A\n\n## A\n\n## A").headings.map(\.id) == ["a", "a-1", "a-2"])
}
@Test func markdownDuplicateHeadingIdsAvoidLiteralSuffix() {
    #expect(Markdown.render("## A-1\n\n## A\n\n## A").headings.map(\.id) == ["a-1", "a", "a-2"])
}
@Test func markdownSetextHeading() {
    #expect(Markdown.render("Intro\n=====\n\nMore\n----").headings
        == [Heading(level: 1, text: "Intro", id: "intro"), Heading(level: 2, text: "More", id: "more")])
}
@Test func markdownHeadingTextIsPlain() {
    #expect(Markdown.render("## Use `sift build` &amp; [go](x)").headings.map(\.text) == ["Use sift build & go"])
}
@Test func markdownHeadingInsideBlockQuote() {
    #expect(Markdown.render("> ## Quoted").html == "<blockquote>\n<h2 id=\"quoted\">Quoted</h2>\n</blockquote>\n")
}
@Test func markdownUnsafeRawHeadingDoesNotShiftIds() {
    #expect(Markdown.render("<h2>Raw</h2>\n\n## Real", unsafe: true).html
        == "<h2>Raw</h2>\n<h2 id=\"real\">Real</h2>\n")
}

// MARK: Title

@Test func markdownTitleFromLeadingH1() {
    let r = Markdown.render("# Welcome\n\nBody")
    #expect(r.title == "Welcome")
    #expect(r.htmlWithoutTitle == "<p>Body</p>\n")
}
/// Raw HTML at a heading's end is omitted and left its space in the title ("Title ").
@Test func markdownTitleLeavesNoSpaceWhereRawHTMLWas() {
    #expect(Markdown.render("# Title <img src=\"x.png\">\n\nBody").title == "Title")
    #expect(Markdown.render("# <b>Bold</b> title\n").title == "Bold title")
    #expect(Markdown.render("# Title <img src=\"x.png\">\n\nBody", unsafe: true).title == "Title")
}
@Test func markdownTitleFromLaterH1StaysInBody() {
    let r = Markdown.render("Intro\n\n# Later\n\n# Again")
    #expect(r.title == "Later")
    #expect(r.htmlWithoutTitle == r.html)
}
@Test func markdownNoTitleWithoutH1() {
    let r = Markdown.render("## Sub\n\nBody")
    #expect(r.title == nil)
    #expect(r.htmlWithoutTitle == r.html)
}
@Test func markdownTitleOnlyDocument() {
    #expect(Markdown.render("# Just").htmlWithoutTitle == "")
}
@Test func markdownTitleInBlockQuoteIsNotLeading() {
    let r = Markdown.render("> # Quoted")
    #expect(r.title == "Quoted")
    #expect(r.htmlWithoutTitle == r.html)
}
@Test func markdownTitleWithHTMLBlockFirstStaysInBody() {
    let r = Markdown.render("<div>x</div>\n\n# T")
    #expect(r.htmlWithoutTitle == r.html)
}

// MARK: Plain text

@Test func markdownPlainTextBlocks() {
    #expect(Markdown.render("# Title\n\nSome *em* and `code`.\nNext line.\n\n- one\n- two").plainText
        == "Title\nSome em and code. Next line.\none\ntwo")
}
@Test func markdownPlainTextKeepsCodeBlock() {
    #expect(Markdown.render("Run:\n\n```\nsift build\nsift serve\n```\n\nDone").plainText
        == "Run:\nsift build\nsift serve\nDone")
}
@Test func markdownPlainTextSkipsHTML() {
    #expect(Markdown.render("<div>hidden</div>\n\nA <b>bold</b> word", unsafe: true).plainText == "A bold word")
}
@Test func markdownPlainTextKeepsAltAndLinkText() {
    #expect(Markdown.render("![A cat](c.png) and [a dog](d.html)").plainText == "A cat and a dog")
}
@Test func markdownPlainTextHardBreakAndEntities() {
    #expect(Markdown.render("a\\\nb &amp; &copy;").plainText == "a\nb & ©")
}

// MARK: Concurrency

@Test func markdownRendersConcurrently() {
    let sources = (0..<200).map { i in
        "# Doc \(i)\n\n## Part\n\nText *\(i)* with [a link](/x/\(i)) and `code`.\n\n## Part\n\n- item \(i)\n\n```\n<b>\(i)</b>\n```\n"
    }
    let serial = sources.map { Markdown.render($0) }
    let results = Results(count: sources.count)
    DispatchQueue.concurrentPerform(iterations: sources.count) { i in
        results.set(i, Markdown.render(sources[i]))
    }
    #expect(results.all() == serial)
    #expect(serial[7].headings.map(\.id) == ["doc-7", "part", "part-1"])
}

/// A lock-protected array the concurrent test writes into.
private final class Results: @unchecked Sendable {
    private var values: [RenderedMarkdown?]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: RenderedMarkdown) { lock.withLock { values[i] = value } }
    func all() -> [RenderedMarkdown] { lock.withLock { values.compactMap { $0 } } }
}

// MARK: Memory (each thread's arena; malloc above 1 MB)

/// Bodies of every size class render whole and alike, one after another on one thread and
/// at once on many: small ones, ones whose buffers outgrow the arena's blocks, and ones
/// large enough to go to malloc.
@Test func markdownRendersAlikeAcrossArenaSizes() {
    func body(_ paragraphs: Int) -> String {
        (0..<paragraphs).map { "## Part \($0)\n\nWord \($0) *of* [text](/t/\($0)/) " + String(repeating: "filler ", count: 40) }
            .joined(separator: "\n\n")
    }
    for n in [1, 40, 400, 4_000] {
        let source = body(n)
        let html = Markdown.render(source).html
        #expect(html.hasPrefix("<h2 id=\"part-0\">Part 0</h2>\n<p>Word 0 <em>of</em> <a href=\"/t/0/\">text</a> filler"))
        #expect(html.contains("<h2 id=\"part-\(n - 1)\">Part \(n - 1)</h2>"))
        #expect(html.components(separatedBy: "<h2 ").count == n + 1)
        #expect(Markdown.render(source) == Markdown.render(source))
    }
    let sources = (0..<64).map { body(1 + $0 * 7) }
    let expected = sources.map { Markdown.render($0) }
    #expect(ParallelMap.map(sources) { Markdown.render($0) } == expected)
}

// MARK: Heading ids (safe mode adds them while copying the HTML out)

/// Safe mode puts ids in while copying cmark's HTML; `unsafe` re-renders each heading into
/// the tree instead. On bodies without raw HTML or scriptable links the two must agree on
/// every heading, id, title and byte: code that shows `<h2>`, entities, nested and setext
/// headings, a title that leads or does not, repeats.
@Test func markdownSafeHeadingIdsMatchTreeRewrite() {
    var rng = SeededRNG(state: 0x4EAD)
    let blocks = [
        "# Title", "# Title", "## Part", "### Part", "#### Déjà vu", "###### Six", "## `<h2>` tag",
        "Setext\n======", "Other\n------", "> ## Quoted", "- ## In a list", "Text with `<h1>x</h1>` code",
        "    <h2>indented code</h2>", "```\n<h3>fenced</h3>\n```", "&lt;h2&gt; entity", "## &lt;h4&gt;",
        "Plain *paragraph* with [a link](/x/) and ![img](/i.png)", "***", "## 俄罗斯", "##", "# ",
    ]
    for _ in 0..<400 {
        let body = (0..<Int.random(in: 1...8, using: &rng)).map { _ in blocks.randomElement(using: &rng)! }
            .joined(separator: "\n\n")
        let safe = Markdown.render(body), rewritten = Markdown.render(body, unsafe: true)
        #expect(safe == rewritten, "\(body)")
    }
}
