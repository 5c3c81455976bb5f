/// A heading of a rendered Markdown body.
public struct Heading: Sendable, Hashable {
    /// 1 to 6, as in `<h1>`…`<h6>`.
    public var level: Int
    /// The heading's plain text.
    public var text: String
    /// The anchor id: the slug of the text, `section` when that is empty, `-1`, `-2`… on repeats.
    public var id: String

    /// Creates a heading.
    public init(level: Int, text: String, id: String) {
        self.level = level
        self.text = text
        self.id = id
    }
}
