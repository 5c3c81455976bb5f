/// Pass 1 of `MustacheParser`: cuts template source into lines of text, newlines and tags,
/// following delimiter changes and matching each section with its close tag.
struct MustacheTokenizer {
    typealias Kind = MustacheTokens.Kind
    typealias Tag = MustacheTokens.Tag
    typealias Line = MustacheTokens.Line

    private let path: String
    private let bytes: [UInt8]
    private var tags: [Tag] = []
    private var tagLine: [Int] = []
    private var closeOf: [Int: Int] = [:]
    private var lines: [Line] = []

    init(source: String, path: String) {
        self.path = path
        self.bytes = Array(source.utf8)
    }

    /// The tokens of the whole source; an unclosed or mismatched tag or section is an error at it.
    mutating func tokenize() throws -> MustacheTokens {
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
        var current = Line()
        var lineNumber = 1
        var lineStart = 0
        var openTags: [Int] = []
        var i = 0
        let n = bytes.count

        func appendText(_ from: Int, _ to: Int) {
            var start = from
            var k = from
            while k < to {
                if bytes[k] == 0x0A {
                    let newlineStart = (k > start && bytes[k - 1] == 0x0D) ? k - 1 : k
                    if newlineStart > start { current.pieces.append(.text(start, newlineStart)) }
                    current.pieces.append(.newline(newlineStart, k + 1))
                    lines.append(current)
                    current = Line()
                    lineNumber += 1
                    lineStart = k + 1
                    start = k + 1
                }
                k += 1
            }
            if to > start { current.pieces.append(.text(start, to)) }
        }

        while i < n {
            guard let tagStart = find(open, from: i) else {
                appendText(i, n)
                break
            }
            appendText(i, tagStart)
            let position = SourcePosition(path: path, line: lineNumber, column: scalarCount(lineStart, tagStart) + 1)
            let tag = try scanTag(at: tagStart, open: open, close: close, position: position)
            let name = try tagName(tag, at: tagStart, position: position, open: &open, close: &close)
            let index = tags.count
            tags.append(Tag(kind: tag.kind, name: name, position: position, closes: nil))
            tagLine.append(lines.count)
            current.pieces.append(.tag(index))
            try matchSections(index, openTags: &openTags)
            let tagEnd = tag.end

            // Comments may span lines; keep line numbers right for the tags after them.
            for k in tagStart..<tagEnd where bytes[k] == 0x0A {
                lineNumber += 1
                lineStart = k + 1
            }
            i = tagEnd
        }
        if !current.pieces.isEmpty { lines.append(current) }

        if let unclosed = SiftError.combined(openTags.map { SiftError("unclosed section '\(tags[$0].name)' opened here", at: tags[$0].position) }) {
            throw unclosed
        }
        var tokens = MustacheTokens(bytes: bytes)
        (tokens.tags, tokens.tagLine, tokens.closeOf, tokens.lines) = (tags, tagLine, closeOf, lines)
        return tokens
    }

    /// Where a tag's content lies and where the tag ends, and its kind from its sigil.
    private func scanTag(at tagStart: Int, open: [UInt8], close: [UInt8], position: SourcePosition) throws
        -> (kind: Kind, contentStart: Int, contentEnd: Int, end: Int) {
        let n = bytes.count
        let openText = String(decoding: open, as: UTF8.self)
        let closeText = String(decoding: close, as: UTF8.self)
        var contentStart = tagStart + open.count
        if contentStart < n, bytes[contentStart] == UInt8(ascii: "{") {
            guard let end = find([UInt8(ascii: "}")] + close, from: contentStart + 1) else {
                throw SiftError("unclosed tag: no '}\(closeText)' after '\(openText){'", at: position)
            }
            return (.variable(escaped: false), contentStart + 1, end, end + 1 + close.count)
        }
        guard let end = find(close, from: contentStart) else {
            throw SiftError("unclosed tag: no '\(closeText)' after '\(openText)'", at: position)
        }
        var kind = Kind.variable(escaped: true)
        if contentStart < end {
            switch bytes[contentStart] {
            case UInt8(ascii: "#"): kind = .section
            case UInt8(ascii: "^"): kind = .inverted
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "<"): kind = .parent
            case UInt8(ascii: "$"): kind = .block
            case UInt8(ascii: "&"): kind = .variable(escaped: false)
            case UInt8(ascii: "="): kind = .delimiters
            default: break
            }
            if kind != .variable(escaped: true) { contentStart += 1 }
        }
        return (kind, contentStart, end, end + close.count)
    }

    /// A tag's name ("" for comments and delimiter changes, which set the new delimiters).
    private func tagName(_ tag: (kind: Kind, contentStart: Int, contentEnd: Int, end: Int), at tagStart: Int, position: SourcePosition,
                         open: inout [UInt8], close: inout [UInt8]) throws -> String {
        let (contentStart, contentEnd) = (tag.contentStart, tag.contentEnd)
        switch tag.kind {
        case .comment:
            return ""
        case .delimiters:
            let raw = String(decoding: bytes[(contentStart - 1)..<contentEnd], as: UTF8.self)
            guard contentEnd > contentStart, bytes[contentEnd - 1] == UInt8(ascii: "=") else {
                throw SiftError("bad delimiter change '\(raw)': expected '=' at the end, as in {{=<% %>=}}", at: position)
            }
            let parts = bytes[contentStart..<(contentEnd - 1)]
                .split(whereSeparator: MustacheTokens.isWhitespace)
            guard parts.count == 2 else {
                throw SiftError("bad delimiter change '\(raw)': expected two delimiters separated by a space, as in {{=<% %>=}}", at: position)
            }
            open = Array(parts[0])
            close = Array(parts[1])
            return ""
        default:
            let name = trimmed(contentStart, contentEnd)
            if name.isEmpty {
                throw SiftError("empty tag '\(String(decoding: bytes[tagStart..<tag.end], as: UTF8.self))'", at: position)
            }
            if name.utf8.contains(where: MustacheTokens.isWhitespace) {
                throw SiftError("tag name '\(name)' contains whitespace", at: position)
            }
            return name
        }
    }

    /// Opens a section for an opening tag; matches a close tag with the section it closes.
    private mutating func matchSections(_ index: Int, openTags: inout [Int]) throws {
        let tag = tags[index]
        switch tag.kind {
        case .section, .inverted, .parent, .block:
            openTags.append(index)
        case .close:
            guard let opener = openTags.popLast() else {
                throw SiftError("'/\(tag.name)' closes nothing: no section is open", at: tag.position)
            }
            guard tags[opener].name == tag.name else {
                throw SiftError("'/\(tag.name)' closes '\(tags[opener].name)'", at: tag.position)
            }
            tags[index].closes = tags[opener].kind
            closeOf[opener] = index
        default:
            break
        }
    }

    // MARK: Bytes

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var i = start
        let limit = bytes.count - needle.count
        while i <= limit {
            if bytes[i] == first {
                var k = 1
                while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    private func trimmed(_ a: Int, _ b: Int) -> String {
        var a = a
        var b = b
        while a < b, MustacheTokens.isWhitespace(bytes[a]) { a += 1 }
        while b > a, MustacheTokens.isWhitespace(bytes[b - 1]) { b -= 1 }
        return String(decoding: bytes[a..<b], as: UTF8.self)
    }

    /// Columns count Unicode scalars, as SourcePosition does: skip UTF-8 continuation bytes.
    private func scalarCount(_ a: Int, _ b: Int) -> Int {
        var count = 0
        for k in a..<b where bytes[k] & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
