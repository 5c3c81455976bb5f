/// A Markdown file at the top of Content/, published at `/<slug>/`.
public struct StandalonePage: Sendable {
    public var slug: String
    public var title: String
    public var fields: Fields
    public var page: MarkdownSource
    public var titleFromHeading = false
    public var weight: Double?
}

