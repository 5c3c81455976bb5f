/// One piece of a parsed template. Standalone lines are already removed and block
/// indentation already normalised, so rendering only walks the tree.
indirect enum MustacheNode: Sendable {
    /// Literal text.
    case text(String)
    /// The start of a template line: where a standalone partial's indentation goes.
    case lineStart
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{& name}}` (raw).
    case variable(MustacheName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(MustacheName, [MustacheNode], inverted: Bool, at: SourcePosition)
    /// `{{> name}}`; `indent` is the whitespace before a standalone tag, else "".
    case partial(String, indent: String, at: SourcePosition)
    /// `{{< name}}…{{/name}}` with the blocks it overrides.
    case parent(String, indent: String, overrides: [String: MustacheBlock], at: SourcePosition)
    /// `{{$ name}}default{{/name}}`.
    case block(MustacheBlock)
}

/// A `{{$ name}}` block: its content, and how to indent what fills it.
struct MustacheBlock: Sendable {
    var name: String
    var content: [MustacheNode]
    /// Indentation added to each line of whatever fills the block; nil when the
    /// opening tag is not standalone (the content is then inline).
    var indent: String?
    var position: SourcePosition
}

/// A tag's name, split once at parse time.
struct MustacheName: Sendable {
    /// The name as written (`a.b.c`, or `.`).
    var full: String
    /// The part looked up on the context stack (`a`); nil for the implicit iterator `.`.
    var head: String?
    /// What follows the head (`b.c`), resolved only against the head's value; nil when undotted.
    var rest: String?

    init(_ full: String) {
        self.full = full
        if full == "." {
            head = nil
            rest = nil
        } else if let dot = full.utf8.firstIndex(of: UInt8(ascii: ".")) {
            head = String(full[..<dot])
            rest = String(full[full.utf8.index(after: dot)...])
        } else {
            head = full
            rest = nil
        }
    }
}
