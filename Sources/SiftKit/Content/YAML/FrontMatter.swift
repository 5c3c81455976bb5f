/// Splits a Markdown page into its optional YAML front matter and its body.
///
/// Front matter is present only when the first line is exactly `---` (trailing spaces and CRLF
/// allowed); it ends at the next line that is `---` or `...`.
public enum FrontMatter {
    /// The keys with a meaning of their own (docs/configuration.md); every other key is a field.
    public static let knownKeys = ["title", "slug", "draft", "date", "weight", "search"]

    /// The known keys whose value has the wrong type (docs/configuration.md, "Front matter"),
    /// each an error at the value: `draft` and `search` are booleans, `weight` a number,
    /// `title`, `slug` and `date` text; an empty one is not set.
    public static func typeErrors(_ node: YAMLNode) -> [SiftError] {
        node.entries.compactMap { entry in
            let value = entry.node.value
            // A key left empty (`draft:` in a page's skeleton) is not set: its default.
            if case .null = value { return nil }
            let expected: String
            switch entry.key {
            case "draft", "search":
                guard value.boolValue == nil else { return nil }
                expected = "true or false"
            case "weight":
                guard !(value.doubleValue?.isFinite ?? false) else { return nil }
                expected = "a number"
            case "title", "slug", "date":
                switch value {
                case .list, .map: expected = "text"
                default: return nil
                }
            default: return nil
            }
            return SiftError("\(entry.key) must be \(expected) (found \(described(value)))", at: entry.node.position)
        }
    }

    /// A value as an error names what it found.
    private static func described(_ value: Value) -> String {
        switch value {
        case .list: return "a list"
        case .map: return "a mapping"
        default: return "'\(value.text)'"
        }
    }

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
                let yaml = text[opening.next..<lineStart]
                let node = try simpleMapping(yaml, path: path) ?? YAML.parse(String(yaml), path: path, firstLine: 2)
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

    /// The node libyaml would give for front matter made only of `key: "text"` lines (ASCII
    /// keys, text with no backslash, quote or character YAML treats as a break or refuses), the
    /// shape most pages have; nil for anything else, which goes to libyaml. Skips libyaml's
    /// setup and event stream for the common case, which would otherwise weigh on loading a large site.
    static func simpleMapping(_ yaml: Substring, path: String) -> YAMLNode? {
        var fields = Fields()
        var entries: [YAMLNode.Entry] = []
        var line = 2
        var bytes = yaml.utf8[...]
        while !bytes.isEmpty {
            guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let row = bytes[..<end]
            bytes = bytes[bytes.index(after: end)...]
            defer { line += 1 }
            guard let colon = row.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let key = row[..<colon]
            guard let first = key.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z"),
                  key.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
            else { return nil }
            var rest = row[row.index(after: colon)...]
            guard rest.starts(with: [UInt8(ascii: " "), UInt8(ascii: "\"")]), rest.count >= 3, rest.last == UInt8(ascii: "\"") else { return nil }
            rest = rest.dropFirst(2).dropLast()
            var previous: (UInt8, UInt8) = (0, 0)
            for b in rest {
                if b < 0x20 || b == 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return nil }
                // NEL and C1 controls (C2 80–9F), LS/PS (E2 80 A8/A9), BOM (EF BB BF), FFFE/FFFF (EF BF BE/BF).
                if previous.1 == 0xC2 && b < 0xA0 { return nil }
                if previous == (0xE2, 0x80) && (b == 0xA8 || b == 0xA9) { return nil }
                if previous == (0xEF, 0xBB) && b == 0xBF { return nil }
                if previous == (0xEF, 0xBF) && (b == 0xBE || b == 0xBF) { return nil }
                previous = (previous.1, b)
            }
            let name = String(decoding: key, as: UTF8.self)
            guard fields[name] == nil else { return nil }
            let value = String(decoding: rest, as: UTF8.self)
            let node = YAMLNode(value: .string(value), position: SourcePosition(path: path, line: line, column: key.count + 3))
            entries.append(YAMLNode.Entry(key: name, keyPosition: SourcePosition(path: path, line: line, column: 1), node: node))
            fields[name] = .string(value)
        }
        guard let first = entries.first else { return nil }
        return YAMLNode(value: .map(fields), position: first.keyPosition, entries: entries)
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
