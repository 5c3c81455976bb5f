import Testing
@testable import SiftKit

@Test func escapesTheFiveHTMLCharacters() {
    #expect(HTML.escape(#"<a href="x">Tom & Jerry's</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
}

@Test func leavesPlainTextAlone() {
    #expect(HTML.escape("Plain text, no entities") == "Plain text, no entities")
}

@Test func keepsNonASCIITextAroundEscapes() {
    #expect(HTML.escape("Crème brûlée <b>🍮</b>") == "Crème brûlée &lt;b&gt;🍮&lt;/b&gt;")
}

@Test func escapesAnEmptyString() {
    #expect(HTML.escape("") == "")
}
