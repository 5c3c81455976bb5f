/// Turns template source into a node tree in four passes over UTF-8 bytes:
/// 1. tokenize into lines of text, newlines and tags (following delimiter changes, matching
///    sections): `MustacheTokenizer`;
/// 2. mark standalone lines (a line holding only whitespace and one non-variable tag, or only
///    inheritance tags), whose whitespace and newline disappear from the output;
/// 3. re-indent standalone blocks: strip the common indentation of their lines (spec "~inheritance");
/// 4. build the tree, with a `.lineStart` node where each remaining line begins.
///
/// Passes 2 and 3 are in MustacheTokens+Standalone.swift.
struct MustacheParser {
    private var tokenizer: MustacheTokenizer

    init(source: String, path: String) {
        tokenizer = MustacheTokenizer(source: source, path: path)
    }

    mutating func parse() throws -> [MustacheNode] {
        var tokens = try tokenizer.tokenize()
        tokens.markStandaloneLines()
        tokens.reindentBlocks()
        return buildTree(tokens)
    }

    // MARK: 4. Tree

    private struct Frame {
        var tag: Int
        var indent: String
        var nodes: [MustacheNode] = []
    }

    private func buildTree(_ tokens: MustacheTokens) -> [MustacheNode] {
        let (bytes, tags, lines) = (tokens.bytes, tokens.tags, tokens.lines)
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
            let isEmptyLine = line.pieces.count == 1 && line.pieces[0].isNewline
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
                        append(node(closing: frames.removeLast(), tokens))
                    }
                }
            }
        }
        flush()
        return root
    }

    /// The node a close tag makes of the section, parent or block it closes.
    private func node(closing frame: Frame, _ tokens: MustacheTokens) -> MustacheNode {
        let opener = tokens.tags[frame.tag]
        switch opener.kind {
        case .section:
            return .section(MustacheName(opener.name), frame.nodes, inverted: false, at: opener.position)
        case .inverted:
            return .section(MustacheName(opener.name), frame.nodes, inverted: true, at: opener.position)
        case .parent:
            var overrides: [String: MustacheBlock] = [:]
            for case .block(let block) in frame.nodes { overrides[block.name] = block }
            return .parent(opener.name, indent: frame.indent, overrides: overrides, at: opener.position)
        default:
            return .block(MustacheBlock(
                name: opener.name, content: frame.nodes,
                indent: tokens.blockIndent[frame.tag], position: opener.position))
        }
    }
}
