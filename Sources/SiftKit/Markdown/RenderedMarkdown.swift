/// A Markdown body rendered to HTML, with what the rest of the pipeline needs from it.
public struct RenderedMarkdown: Sendable, Hashable {
    /// The whole body as HTML, headings carrying `id` attributes.
    public var html: String
    /// The plain text of the first level-1 heading, if any.
    public var title: String?
    /// `html` without the title heading when that heading is the body's first block, else `html`.
    public var htmlWithoutTitle: String
    /// Every heading in document order.
    public var headings: [Heading]
    /// The text a reader sees, for the search index: no markup, code kept, blocks separated by "\n".
    public var plainText: String
    /// Every link's destination with its position in the source (1-based), for `sift check`.
    public var links: [MarkdownLink] = []
    /// Where each heading's text starts in `plainText`, in UTF-8 bytes, in the order of `headings`.
    public var headingOffsets: [Int] = []

    /// Creates a rendering from its parts.
    public init(html: String, title: String?, htmlWithoutTitle: String, headings: [Heading], plainText: String,
                links: [MarkdownLink] = [], headingOffsets: [Int] = []) {
        self.links = links
        self.headingOffsets = headingOffsets
        self.html = html
        self.title = title
        self.htmlWithoutTitle = htmlWithoutTitle
        self.headings = headings
        self.plainText = plainText
    }
}

extension RenderedMarkdown {
    /// The HTML to show: without the title heading when the page's title came from it.
    public func html(droppingTitle: Bool) -> String { droppingTitle ? htmlWithoutTitle : html }
}
