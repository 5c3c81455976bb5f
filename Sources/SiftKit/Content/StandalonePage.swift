/// A Markdown file at the top of Content/, published at `/<slug>/`.
public struct StandalonePage: Sendable {
    public var slug: String
    public var title: String
    public var fields: Fields
    public var page: MarkdownSource
    public var titleFromHeading = false
    public var weight: Double?
    /// False when its front matter says `search: false`: the page is left out of the index.
    public var searchable = true
    /// Where each front matter key is written, for the warnings about unknown ones.
    public var keyPositions: [String: SourcePosition] = [:]
}

