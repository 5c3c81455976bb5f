/// A template's source cut into lines of text, newlines and tags: what `MustacheTokenizer`
/// makes, `markStandaloneLines` and `reindentBlocks` adjust, and `MustacheParser` builds into a tree.
struct MustacheTokens {
    enum Kind: Equatable {
        case variable(escaped: Bool), section, inverted, close, comment, partial, parent, block, delimiters
    }

    struct Tag {
        var kind: Kind
        var name: String
        var position: SourcePosition
        /// For a close tag, the kind of tag it closes.
        var closes: Kind?
    }

    /// A part of a line, by its byte range in the source (a tag by its index in `tags`).
    enum Piece {
        case text(Int, Int)
        case newline(Int, Int)
        case tag(Int)

        var isNewline: Bool {
            if case .newline = self { return true }
            return false
        }
    }

    struct Line {
        var pieces: [Piece] = []
        var standalone = false
        /// A `{{$b}}{{/b}}` line keeps its newline (spec "~inheritance", "Standalone block").
        var keepsNewline = false
        /// For a standalone line, the whitespace before its tags.
        var leading = ""
    }

    /// The template's UTF-8 bytes, which the pieces point into.
    let bytes: [UInt8]
    var tags: [Tag] = []
    /// The line each tag is on, by the tag's index.
    var tagLine: [Int] = []
    /// The close tag of each section, parent and block, by the opening tag's index.
    var closeOf: [Int: Int] = [:]
    var lines: [Line] = []
    /// The indentation of each standalone block's content, by the block tag's index.
    var blockIndent: [Int: String] = [:]

    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
