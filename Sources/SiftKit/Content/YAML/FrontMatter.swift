/// Splits a Markdown page into its optional YAML front matter and its body.
///
/// Front matter is present only when the first line is exactly `---` (trailing spaces and CRLF
/// allowed); it ends at the next line that is `---` or `...`.
public enum FrontMatter {
    /// The front matter's fields, the body after it, and the 1-based line the body starts on;
    /// a page without front matter gives no fields, the whole text and line 1.
    public static func split(_ text: String, path: String) throws -> (fields: Fields, body: String, bodyLine: Int) {
        let parsed = try splitNode(text, path: path)
        return (parsed.node?.value.fields ?? Fields(), parsed.body, parsed.bodyLine)
    }

    /// As `split`, but keeps the parsed node (nil without front matter; `.null` when empty) so
    /// callers can point errors at a key's line.
    public static func splitNode(_ text: String, path: String) throws -> (node: YAMLNode?, body: String, bodyLine: Int) {
        var start = text.startIndex
        if text.unicodeScalars.first == "\u{FEFF}" { start = text.unicodeScalars.index(after: start) }
        let opening = line(in: text, from: start)
        guard isFence(text[start..<opening.contentEnd], "---") else { return (nil, text, 1) }

        var lineStart = opening.next
        var lineNumber = 2
        while lineStart < text.endIndex {
            let current = line(in: text, from: lineStart)
            let content = text[lineStart..<current.contentEnd]
            if isFence(content, "---") || isFence(content, "...") {
                let node = try YAML.parse(String(text[opening.next..<lineStart]), path: path, firstLine: 2)
                switch node.value {
                case .map, .null: break
                default: throw SiftError("front matter must be a mapping of keys to values", at: node.position)
                }
                return (node, String(text[current.next...]), lineNumber + 1)
            }
            lineStart = current.next
            lineNumber += 1
        }
        throw SiftError("front matter opened with --- is never closed", at: SourcePosition(path: path, line: 1, column: 1))
    }

    /// The end of the line starting at `start` (before any `\r\n` or `\n`) and the start of the next.
    private static func line(in text: String, from start: String.Index) -> (contentEnd: String.Index, next: String.Index) {
        let utf8 = text.utf8
        guard let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            return (text.endIndex, text.endIndex)
        }
        var end = newline
        if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
        return (end, utf8.index(after: newline))
    }

    private static func isFence(_ line: Substring, _ marker: String) -> Bool {
        var trimmed = line.utf8[...]
        while let last = trimmed.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            trimmed = trimmed.dropLast()
        }
        return trimmed.elementsEqual(marker.utf8)
    }
}
