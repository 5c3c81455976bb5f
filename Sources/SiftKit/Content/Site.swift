/// Everything a build reads from a site folder.
public struct Site: Sendable {
    public var settings: SiteSettings
    public var collections: [SiteCollection]
    public var pages: [StandalonePage]
    /// Content/index.md, shown on the home page.
    public var intro: MarkdownSource?
    /// False when index.md's front matter says `search: false`.
    public var introSearchable = true
    /// Things that build but are probably wrong.
    public var warnings: [SiftError] = []
}
