/// Turns template source into a node tree in four passes over UTF-8 bytes:
/// 1. tokenize into lines of text, newlines and tags (following delimiter changes, matching sections);
/// 2. mark standalone lines (a line holding only whitespace and one non-variable tag, or only
///    inheritance tags), whose whitespace and newline disappear from the output;
/// 3. re-indent standalone blocks: strip the common indentation of their lines (spec "~inheritance");
/// 4. build the tree, with a `.lineStart` node where each remaining line begins.
struct MustacheParser {
    private enum Kind: Equatable {
        case variable(escaped: Bool), section, inverted, close, comment, partial, parent, block, delimiters
    }

    private struct Tag {
        var kind: Kind
        var name: String
        var position: SourcePosition
        /// For a close tag, the kind of tag it closes.
        var closes: Kind?
    }

    private enum Piece {
        case text(Int, Int)
        case newline(Int, Int)
        case tag(Int)
    }

    private struct Line {
        var pieces: [Piece] = []
        var standalone = false
        /// A `{{$b}}{{/b}}` line keeps its newline (spec "~inheritance", "Standalone block").
        var keepsNewline = false
        /// For a standalone line, the whitespace before its tags.
        var leading = ""
    }

    private let path: String
    private let bytes: [UInt8]
    private var tags: [Tag] = []
    private var tagLine: [Int] = []
    private var closeOf: [Int: Int] = [:]
    private var lines: [Line] = []
    private var blockIndent: [Int: String] = [:]

    init(source: String, path: String) {
        self.path = path
        self.bytes = Array(source.utf8)
    }

    mutating func parse() throws -> [MustacheNode] {
        try tokenize()
        markStandaloneLines()
        reindentBlocks()
        return buildTree()
    }

    // MARK: 1. Tokenize

    private mutating func tokenize() throws {
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

        if !openTags.isEmpty {
            let errors = openTags.map { tag in
                SiftError("unclosed section '\(tags[tag].name)' opened here", at: tags[tag].position)
            }
            throw SiftError.combined(errors)!
        }
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
                .split(whereSeparator: isWhitespace)
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
            if name.utf8.contains(where: isWhitespace) {
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

    // MARK: 2. Standalone lines

    private mutating func markStandaloneLines() {
        for li in lines.indices {
            var lineTags: [Int] = []
            var onlyWhitespace = true
            for piece in lines[li].pieces {
                switch piece {
                case .text(let a, let b):
                    if bytes[a..<b].contains(where: { !isBlank($0) }) { onlyWhitespace = false }
                case .newline:
                    break
                case .tag(let t):
                    lineTags.append(t)
                }
            }
            guard onlyWhitespace, let first = lineTags.first else { continue }
            if lineTags.count == 1 {
                if case .variable = tags[first].kind { continue }
            } else if !lineTags.allSatisfy(isInheritanceTag) {
                continue
            }
            lines[li].standalone = true
            if case .text(let a, let b)? = lines[li].pieces.first {
                lines[li].leading = String(decoding: bytes[a..<b], as: UTF8.self)
            }
            if lineTags.count == 2, tags[first].kind == .block, closeOf[first] == lineTags[1] {
                lines[li].keepsNewline = true
            }
        }
    }

    private func isInheritanceTag(_ t: Int) -> Bool {
        switch tags[t].kind {
        case .parent, .block: return true
        case .close: return tags[t].closes == .parent || tags[t].closes == .block
        default: return false
        }
    }

    // MARK: 3. Block indentation

    /// A standalone block's lines lose their common indentation, which becomes the block's
    /// indentation (or the tag's own, when the lines have none); whatever fills the block is
    /// indented by it. Outer blocks go first, so inner blocks measure what the outer left.
    private mutating func reindentBlocks() {
        for t in tags.indices where tags[t].kind == .block {
            let openLine = tagLine[t]
            guard lines[openLine].standalone, let closeTag = closeOf[t] else { continue }
            let closeLine = tagLine[closeTag]
            let last = lines[closeLine].standalone ? closeLine - 1 : closeLine
            let content = closeLine > openLine && last > openLine ? Array((openLine + 1)...last) : []

            var common: [UInt8]? = nil
            for li in content {
                guard let lead = leadingWhitespace(li) else { continue }
                if let c = common {
                    common = Array(zip(c, lead).prefix { $0 == $1 }.map(\.0))
                } else {
                    common = lead
                }
            }
            let strip = common ?? []
            if !strip.isEmpty {
                for li in content { removeLeading(strip.count, from: li) }
            }
            let ownIndent = isFirstTag(t, onLine: openLine) ? lines[openLine].leading : ""
            blockIndent[t] = strip.isEmpty ? ownIndent : String(decoding: strip, as: UTF8.self)
        }
    }

    /// The whitespace a line starts with; nil for a blank line, which sets no indentation.
    private func leadingWhitespace(_ li: Int) -> [UInt8]? {
        let line = lines[li]
        if line.standalone { return Array(line.leading.utf8) }
        switch line.pieces.first {
        case .text(let a, let b)?:
            var k = a
            while k < b, isBlank(bytes[k]) { k += 1 }
            if k == b, line.pieces.count <= 2, line.pieces.count == 1 || isNewline(line.pieces[1]) { return nil }
            return Array(bytes[a..<k])
        case .newline?, nil:
            return nil
        case .tag?:
            return []
        }
    }

    private mutating func removeLeading(_ count: Int, from li: Int) {
        if lines[li].standalone {
            lines[li].leading = String(decoding: lines[li].leading.utf8.dropFirst(count), as: UTF8.self)
        } else if case .text(let a, let b)? = lines[li].pieces.first {
            var k = a
            while k < b, k < a + count, isBlank(bytes[k]) { k += 1 }
            lines[li].pieces[0] = .text(k, b)
        }
    }

    private func isFirstTag(_ t: Int, onLine li: Int) -> Bool {
        for piece in lines[li].pieces {
            if case .tag(let first) = piece { return first == t }
        }
        return false
    }

    // MARK: 4. Tree

    private struct Frame {
        var tag: Int
        var indent: String
        var nodes: [MustacheNode] = []
    }

    private func buildTree() -> [MustacheNode] {
        var root: [MustacheNode] = []
        var frames: [Frame] = []
        var text: [UInt8] = []

        func append(_ node: MustacheNode) {
            if frames.isEmpty { root.append(node) } else { frames[frames.count - 1].nodes.append(node) }
        }
        func flush() {
            guard !text.isEmpty else { return }
            append(.text(String(decoding: text, as: UTF8.self)))
            text.removeAll(keepingCapacity: true)
        }

        for line in lines {
            let isEmptyLine = line.pieces.count == 1 && isNewline(line.pieces[0])
            if !line.standalone && !isEmptyLine {
                flush()
                append(.lineStart)
            }
            var firstTag = true
            for piece in line.pieces {
                switch piece {
                case .text(let a, let b):
                    if !line.standalone { text.append(contentsOf: bytes[a..<b]) }
                case .newline(let a, let b):
                    if !line.standalone || line.keepsNewline { text.append(contentsOf: bytes[a..<b]) }
                case .tag(let t):
                    flush()
                    let indent = line.standalone && firstTag ? line.leading : ""
                    firstTag = false
                    let tag = tags[t]
                    switch tag.kind {
                    case .variable(let escaped):
                        append(.variable(MustacheName(tag.name), escaped: escaped))
                    case .comment, .delimiters:
                        break
                    case .partial:
                        append(.partial(tag.name, indent: indent, at: tag.position))
                    case .section, .inverted, .parent, .block:
                        frames.append(Frame(tag: t, indent: indent))
                    case .close:
                        let frame = frames.removeLast()
                        let opener = tags[frame.tag]
                        switch opener.kind {
                        case .section:
                            append(.section(MustacheName(opener.name), frame.nodes, inverted: false))
                        case .inverted:
                            append(.section(MustacheName(opener.name), frame.nodes, inverted: true))
                        case .parent:
                            var overrides: [String: MustacheBlock] = [:]
                            for case .block(let block) in frame.nodes { overrides[block.name] = block }
                            append(.parent(opener.name, indent: frame.indent, overrides: overrides, at: opener.position))
                        default:
                            append(.block(MustacheBlock(
                                name: opener.name, content: frame.nodes,
                                indent: blockIndent[frame.tag], position: opener.position)))
                        }
                    }
                }
            }
        }
        flush()
        return root
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
        while a < b, isWhitespace(bytes[a]) { a += 1 }
        while b > a, isWhitespace(bytes[b - 1]) { b -= 1 }
        return String(decoding: bytes[a..<b], as: UTF8.self)
    }

    /// Columns count Unicode scalars, as SourcePosition does: skip UTF-8 continuation bytes.
    private func scalarCount(_ a: Int, _ b: Int) -> Int {
        var count = 0
        for k in a..<b where bytes[k] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    private func isNewline(_ piece: Piece) -> Bool {
        if case .newline = piece { return true }
        return false
    }
}

@inline(__always) private func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

@inline(__always) private func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
}
