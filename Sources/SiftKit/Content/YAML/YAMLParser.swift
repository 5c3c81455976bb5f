import CYaml

/// Reads YAML with libyaml into plain Swift values; the only place in Sift that calls `yaml_*`.
///
/// Scalars resolve by the YAML 1.2 core schema (`yes` stays a string), anchors and aliases are
/// expanded (with `<<` merge keys), tags are ignored except `!!str` and `!`, which keep a plain
/// scalar a string.
public enum YAML {
    /// The deepest nesting of sequences and mappings accepted; deeper input is an error, not a crash.
    public static let maxDepth = 512
    /// The most nodes a document may expand to once aliases are counted in full.
    public static let maxNodes = 1_000_000
    /// The deepest key path `parseMapping` lists: settings are two levels deep (`search.instant`),
    /// and a third level is an unknown key below a known one; deeper keys are below an unknown
    /// key, already warned about, and aliases can expand them to a million paths.
    public static let settingsDepth = 3

    /// Parses one YAML document; an empty document gives `.null` at `firstLine`:1.
    ///
    /// - Parameters:
    ///   - text: the YAML source.
    ///   - path: the file path that errors and positions name.
    ///   - firstLine: the line of `path` on which `text` starts (2 for front matter).
    public static func parse(_ text: String, path: String, firstLine: Int = 1) throws -> YAMLNode {
        // libyaml wants a non-null buffer even for empty input; the extra 0 is never read.
        var bytes = Array(text.utf8)
        bytes.append(0)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw SiftError("out of memory starting the YAML parser", at: SourcePosition(path: path, line: firstLine))
        }
        defer { yaml_parser_delete(parser) }

        return try bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count - 1)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            var builder = TreeBuilder(path: path, firstLine: firstLine)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) == 1 else {
                    throw parserError(parser.pointee, bytes: buffer, path: path, firstLine: firstLine)
                }
                defer { yaml_event_delete(&event) }
                if let root = try builder.handle(event) { return root }
            }
        }
    }

    /// Parses a settings file that must be a mapping (an empty file gives no fields), with the
    /// position of every value and of every key by its dotted key path (`search.instant`), for
    /// pointed errors and warnings, down to `settingsDepth` levels.
    public static func parseMapping(_ text: String, path: String) throws
        -> (fields: Fields, positions: [String: SourcePosition], keys: [String: SourcePosition])
    {
        let root = try parse(text, path: path)
        if case .null = root.value { return (Fields(), [:], [:]) }
        guard case .map(let fields) = root.value else {
            throw SiftError("expected a mapping of keys to values", at: root.position)
        }
        var positions: [String: SourcePosition] = [:]
        var keys: [String: SourcePosition] = [:]
        var pending: [(prefix: String, level: Int, node: YAMLNode)] = [("", 1, root)]
        while let (prefix, level, node) = pending.popLast() {
            for entry in node.entries {
                let key = prefix + entry.key
                positions[key] = entry.node.position
                keys[key] = entry.keyPosition
                if level < settingsDepth, !entry.node.entries.isEmpty { pending.append((key + ".", level + 1, entry.node)) }
            }
        }
        return (fields, positions, keys)
    }
}

// MARK: - libyaml events to nodes

/// Builds the tree from the event stream with an explicit stack, so nesting depth costs heap,
/// not the (small, secondary-thread) call stack.
fileprivate struct TreeBuilder {
    private enum Frame {
        case sequence(SequenceFrame)
        case mapping(MappingFrame)
    }

    private struct SequenceFrame {
        var anchor: String?
        var position: SourcePosition
        var nodesBefore: Int
        var elements: [YAMLNode] = []
    }

    private struct MappingFrame {
        var anchor: String?
        var position: SourcePosition
        var nodesBefore: Int
        var entries: [YAMLNode.Entry] = []
        var fields = Fields()
        var pendingKey: (text: String, position: SourcePosition, isMerge: Bool)?
        /// Keys that came in through `<<`: an explicit key may override them once.
        var merged: Set<String> = []
    }

    let path: String
    let firstLine: Int
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var nodes = 0
    private var documents = 0
    private var root: YAMLNode?

    init(path: String, firstLine: Int) {
        self.path = path
        self.firstLine = firstLine
    }

    /// Feeds one event; returns the finished root at the end of the stream.
    mutating func handle(_ event: yaml_event_t) throws -> YAMLNode? {
        let position = self.position(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw SiftError("a YAML file holds one document, but a second one starts here", at: position)
            }
        case YAML_STREAM_END_EVENT:
            return root ?? YAMLNode(value: .null, position: SourcePosition(path: path, line: firstLine))
        case YAML_ALIAS_EVENT:
            let name = String(cString: event.data.alias.anchor)
            guard let (target, size) = anchors[name] else {
                throw SiftError("unknown alias *\(name)", at: position)
            }
            try count(size, at: position)
            var node = target
            node.position = position
            let key: String?
            switch target.value {
            case .list, .map: key = nil
            default: key = target.value.text
            }
            try deliver(node, keyText: key, plainKey: false)
        case YAML_SCALAR_EVENT:
            try count(1, at: position)
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let tag = scalar.tag.map { String(cString: $0) }
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            let forcedString = tag == "!" || tag == "tag:yaml.org,2002:str"
            let node = YAMLNode(value: plain && !forcedString ? resolve(text) : .string(text), position: position)
            finish(node, anchor: scalar.anchor.map { String(cString: $0) }, size: 1)
            try deliver(node, keyText: text, plainKey: plain && tag == nil)
        case YAML_SEQUENCE_START_EVENT:
            try open(at: position)
            stack.append(.sequence(SequenceFrame(
                anchor: event.data.sequence_start.anchor.map { String(cString: $0) },
                position: position, nodesBefore: nodes - 1)))
        case YAML_MAPPING_START_EVENT:
            try open(at: position)
            stack.append(.mapping(MappingFrame(
                anchor: event.data.mapping_start.anchor.map { String(cString: $0) },
                position: position, nodesBefore: nodes - 1)))
        case YAML_SEQUENCE_END_EVENT:
            guard case .sequence(let sequence)? = stack.popLast() else { break }
            let node = YAMLNode(value: .list(sequence.elements.map(\.value)), position: sequence.position,
                                elements: sequence.elements)
            finish(node, anchor: sequence.anchor, size: nodes - sequence.nodesBefore)
            try deliver(node, keyText: nil, plainKey: false)
        case YAML_MAPPING_END_EVENT:
            guard case .mapping(let mapping)? = stack.popLast() else { break }
            let node = YAMLNode(value: .map(mapping.fields), position: mapping.position, entries: mapping.entries)
            finish(node, anchor: mapping.anchor, size: nodes - mapping.nodesBefore)
            try deliver(node, keyText: nil, plainKey: false)
        default:
            break
        }
        return nil
    }

    private func position(_ mark: yaml_mark_t) -> SourcePosition {
        SourcePosition(path: path, line: Int(mark.line) + firstLine, column: Int(mark.column) + 1)
    }

    private mutating func count(_ added: Int, at position: SourcePosition) throws {
        nodes += added
        if nodes > YAML.maxNodes {
            throw SiftError("YAML expands to more than 1,000,000 nodes (alias bomb?)", at: position)
        }
    }

    private mutating func open(at position: SourcePosition) throws {
        if case .mapping(let mapping)? = stack.last, mapping.pendingKey == nil {
            throw SiftError("a mapping key must be a single value, not a list or mapping", at: position)
        }
        if stack.count >= YAML.maxDepth {
            throw SiftError("YAML nests more than \(YAML.maxDepth) levels deep", at: position)
        }
        try count(1, at: position)
    }

    private mutating func finish(_ node: YAMLNode, anchor: String?, size: Int) {
        if let anchor { anchors[anchor] = (node, size) }
    }

    /// Hands a finished node to the collection that holds it, or makes it the root.
    private mutating func deliver(_ node: YAMLNode, keyText: String?, plainKey: Bool) throws {
        switch stack.popLast() {
        case nil:
            root = node
        case .sequence(var sequence)?:
            sequence.elements.append(node)
            stack.append(.sequence(sequence))
        case .mapping(var mapping)?:
            if let key = mapping.pendingKey {
                mapping.pendingKey = nil
                if key.isMerge {
                    try merge(node, into: &mapping)
                } else {
                    let entry = YAMLNode.Entry(key: key.text, keyPosition: key.position, node: node)
                    if mapping.fields[key.text] == nil {
                        mapping.entries.append(entry)
                    } else if mapping.merged.remove(key.text) != nil,
                              let index = mapping.entries.firstIndex(where: { $0.key == key.text }) {
                        mapping.entries[index] = entry
                    } else {
                        throw SiftError("duplicate key '\(key.text)'", at: key.position)
                    }
                    mapping.fields[key.text] = node.value
                }
            } else {
                guard let keyText else {
                    throw SiftError("a mapping key must be a single value, not a list or mapping", at: node.position)
                }
                mapping.pendingKey = (keyText, node.position, plainKey && keyText == "<<")
            }
            stack.append(.mapping(mapping))
        }
    }

    /// Applies a `<<` merge key: keys already present win, and among several merged maps the first wins.
    private func merge(_ node: YAMLNode, into mapping: inout MappingFrame) throws {
        let sources = node.entries.isEmpty && !node.elements.isEmpty ? node.elements : [node]
        for source in sources {
            guard case .map = source.value else {
                throw SiftError("a merge key (<<) takes a mapping or a list of mappings", at: source.position)
            }
            for entry in source.entries where mapping.fields[entry.key] == nil {
                mapping.entries.append(entry)
                mapping.fields[entry.key] = entry.node.value
                mapping.merged.insert(entry.key)
            }
        }
    }
}

// MARK: - Scalars and errors

/// Resolves a plain scalar by the YAML 1.2 core schema; numbers keep the text as written.
fileprivate func resolve(_ text: String) -> Value {
    switch text {
    case "", "~", "null", "Null", "NULL": return .null
    case "true", "True", "TRUE": return .bool(true)
    case "false", "False", "FALSE": return .bool(false)
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
         ".nan", ".NaN", ".NAN":
        return .number(text)
    default:
        return isCoreNumber(Array(text.utf8)) ? .number(text) : .string(text)
    }
}

/// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`, or `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fileprivate func isCoreNumber(_ s: [UInt8]) -> Bool {
    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    if s.count > 2, s[0] == UInt8(ascii: "0") {
        let rest = s[2...]
        if s[1] == UInt8(ascii: "o") { return rest.allSatisfy { $0 >= 0x30 && $0 <= 0x37 } }
        if s[1] == UInt8(ascii: "x") {
            return rest.allSatisfy { isDigit($0) || (0x61...0x66).contains($0 | 0x20) }
        }
    }
    var i = 0
    if i < s.count, s[i] == UInt8(ascii: "-") || s[i] == UInt8(ascii: "+") { i += 1 }
    let intStart = i
    while i < s.count, isDigit(s[i]) { i += 1 }
    var digits = i - intStart
    if i < s.count, s[i] == UInt8(ascii: ".") {
        i += 1
        let fractionStart = i
        while i < s.count, isDigit(s[i]) { i += 1 }
        digits += i - fractionStart
    }
    guard digits > 0 else { return false }
    if i < s.count, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
        i += 1
        if i < s.count, s[i] == UInt8(ascii: "-") || s[i] == UInt8(ascii: "+") { i += 1 }
        let exponentStart = i
        while i < s.count, isDigit(s[i]) { i += 1 }
        guard i > exponentStart else { return false }
    }
    return i == s.count
}

/// Turns libyaml's error state into a `SiftError` at the problem's 1-based line and column.
fileprivate func parserError(_ parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>, path: String,
                             firstLine: Int) -> SiftError
{
    let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
    let context = parser.context.map { String(cString: $0) }
    let message = [problem, context].compactMap { $0 }.joined(separator: " ")
    switch parser.error {
    case YAML_MEMORY_ERROR:
        return SiftError("out of memory parsing YAML", at: SourcePosition(path: path, line: firstLine))
    case YAML_READER_ERROR:
        // The reader reports a byte offset, not a mark: count lines and scalars up to it.
        var line = 0, column = 0
        for byte in bytes.prefix(min(parser.problem_offset, bytes.count - 1)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SiftError(message, at: SourcePosition(path: path, line: line + firstLine, column: column + 1))
    default:
        // A quote, bracket or brace never closed: libyaml finds out at the end of the file, and
        // names where the scalar or collection started, which is where the fix goes.
        // A flow collection's error on a later line than its bracket is the bracket left open; one
        // on its own line (`[a, "b"c]`) is where libyaml says.
        let flowLeftOpen = context?.hasPrefix("while parsing a flow") == true && problem.hasPrefix("did not find expected")
            && parser.problem_mark.line > parser.context_mark.line
        if let context, problem.contains("end of stream") || flowLeftOpen {
            let what = context.replacingOccurrences(of: "while scanning ", with: "").replacingOccurrences(of: "while parsing ", with: "")
            return SiftError("\(what) that starts here never ends (\(problem))",
                             at: SourcePosition(path: path, line: Int(parser.context_mark.line) + firstLine, column: Int(parser.context_mark.column) + 1))
        }
        let mark = parser.problem_mark
        // libyaml's words for a tab in indentation are cryptic; it is the usual cause.
        let tab = mark.index < bytes.count - 1 && bytes[Int(mark.index)] == UInt8(ascii: "\t")
        let message = tab && problem.hasPrefix("found character that cannot start any token")
            ? "tabs are not allowed in YAML indentation; use spaces" : message
        return SiftError(message, at: SourcePosition(path: path, line: Int(mark.line) + firstLine,
                                                     column: Int(mark.column) + 1))
    }
}
