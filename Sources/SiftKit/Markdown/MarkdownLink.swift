/// A link of a Markdown body: where it points and where it is written (1-based, in the body).
public struct MarkdownLink: Sendable, Hashable {
    public var url: String
    public var line: Int
    public var column: Int
}
