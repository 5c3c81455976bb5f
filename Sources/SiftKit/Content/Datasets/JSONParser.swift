/// A strict JSON (RFC 8259) parser that keeps key order and number literals and reports
/// errors at `line:column`, which Foundation's `JSONSerialization` does not.
///
/// It parses with an explicit stack instead of recursion: builds run on secondary threads
/// with small stacks, and a hostile file of ten thousand `[` must give an error, not a crash.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    /// The offset of the next byte to read.
    private(set) var offset = 0
    private var counter: LineCounter

    init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
        self.counter = LineCounter(bytes: bytes, path: path)
    }

    /// Parses a whole JSON text into a value.
    static func parse(_ text: String, path: String) throws -> Value {
        var text = text
        return try text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes, path: path)
            let value = try parser.parseValue()
            try parser.expectEnd()
            return value
        }
    }

    /// The byte at the current offset, nil at the end.
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Moves past bytes the caller has already checked.
    mutating func skip(_ count: Int) {
        offset += count
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// Requires that only whitespace is left.
    mutating func expectEnd() throws {
        skipWhitespace()
        if offset < bytes.count { throw error("unexpected text after the JSON value", at: offset) }
    }

    /// The position of a byte offset; cheap when offsets are asked for in increasing order.
    mutating func position(of offset: Int) -> SourcePosition {
        counter.position(of: offset)
    }

    mutating func error(_ message: String, at offset: Int) -> SiftError {
        SiftError(message, at: position(of: offset))
    }

    /// A short description of the character at an offset, for messages.
    func describeCharacter(at offset: Int) -> String {
        let lead = bytes[offset]
        if lead < 0x20 || lead == 0x7F {
            return "U+" + hex4(UInt32(lead))
        }
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let end = min(offset + length, bytes.count)
        return "'" + String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self) + "'"
    }

    /// An array or object still being read.
    private struct Frame {
        var isObject: Bool
        var items: [Value] = []
        var fields = Fields()
        var key = ""
    }

    /// Parses one value at the current offset; `depth` is how many containers already enclose it.
    mutating func parseValue(depth: Int = 0) throws -> Value {
        var stack: [Frame] = []
        readValues: while true {
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of input", at: offset) }
            var value: Value
            switch bytes[offset] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isObject = bytes[offset] == UInt8(ascii: "{")
                guard depth + stack.count < Self.maxDepth else {
                    throw error("nesting deeper than \(Self.maxDepth) levels", at: offset)
                }
                offset += 1
                skipWhitespace()
                if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    offset += 1
                    value = isObject ? .map(Fields()) : .list([])
                } else {
                    var frame = Frame(isObject: isObject)
                    if isObject { frame.key = try parseKey() }
                    stack.append(frame)
                    continue readValues
                }
            default:
                value = try parseScalar()
            }
            // A finished value goes into its container, which may finish in turn, and so on
            // up until a comma asks for the next value or the outermost value is done.
            while !stack.isEmpty {
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    let key = stack[top].key
                    stack[top].fields[key] = value
                } else {
                    stack[top].items.append(value)
                }
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input", at: offset) }
                if bytes[offset] == UInt8(ascii: ",") {
                    let comma = offset
                    offset += 1
                    skipWhitespace()
                    if current == closer { throw error("trailing comma", at: comma) }
                    if isObject {
                        // As a YAML mapping's: a key given twice is an error, not the last one's value.
                        let at = offset, key = try parseKey()
                        if stack[top].fields[key] != nil { throw error("duplicate key '\(key)'", at: at) }
                        stack[top].key = key
                    }
                    continue readValues
                }
                guard bytes[offset] == closer else {
                    let expected = isObject ? "',' or '}'" : "',' or ']'"
                    throw error("expected \(expected), found \(describeCharacter(at: offset))", at: offset)
                }
                offset += 1
                let frame = stack.removeLast()
                value = frame.isObject ? .map(frame.fields) : .list(frame.items)
            }
            return value
        }
    }

    /// A string, number, `true`, `false` or `null` at the current offset.
    private mutating func parseScalar() throws -> Value {
        switch bytes[offset] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw error("expected a value, found \(describeCharacter(at: offset))", at: offset)
        }
    }

    /// Reads `"key" :`, leaving the offset before the value.
    private mutating func parseKey() throws -> String {
        guard offset < bytes.count else { throw error("unexpected end of input", at: offset) }
        guard bytes[offset] == UInt8(ascii: "\"") else {
            throw error("expected a string key, found \(describeCharacter(at: offset))", at: offset)
        }
        let key = try parseString()
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input", at: offset) }
        guard bytes[offset] == UInt8(ascii: ":") else {
            throw error("expected ':' after the key, found \(describeCharacter(at: offset))", at: offset)
        }
        offset += 1
        return key
    }

    /// Reads a string starting at its opening quote.
    private mutating func parseString() throws -> String {
        let open = offset
        offset += 1
        var segment = offset
        // Only strings with escapes pay for a buffer; the rest are sliced straight out.
        var unescaped: [UInt8]? = nil
        while true {
            guard offset < bytes.count else { throw error("unterminated string", at: open) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let string: String
                if var buffer = unescaped {
                    buffer.append(contentsOf: bytes[segment..<offset])
                    string = String(decoding: buffer, as: UTF8.self)
                } else {
                    string = String(decoding: UnsafeBufferPointer(rebasing: bytes[segment..<offset]), as: UTF8.self)
                }
                offset += 1
                return string
            }
            if byte == UInt8(ascii: "\\") {
                var buffer = unescaped ?? []
                buffer.append(contentsOf: bytes[segment..<offset])
                try parseEscape(into: &buffer, stringStart: open)
                unescaped = buffer
                segment = offset
                continue
            }
            if byte < 0x20 {
                // A raw line break almost always means the closing quote is missing, so point
                // at the string rather than at the end of its line.
                if byte == 0x0A || byte == 0x0D { throw error("unterminated string", at: open) }
                throw error("control character U+\(hex4(UInt32(byte))) in string", at: offset)
            }
            offset += 1
        }
    }

    /// Reads one escape sequence starting at its backslash.
    private mutating func parseEscape(into buffer: inout [UInt8], stringStart: Int) throws {
        let backslash = offset
        guard offset + 1 < bytes.count else { throw error("unterminated string", at: stringStart) }
        let letter = bytes[offset + 1]
        offset += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hexQuad(at: offset) else { throw error("invalid \\u escape", at: backslash) }
            offset += 4
            var scalar = Unicode.Scalar(0xFFFD)!
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate only counts when a low one follows; otherwise it becomes
                // U+FFFD and whatever follows is read on its own.
                if offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u"),
                    let low = hexQuad(at: offset + 2), (0xDC00...0xDFFF).contains(low)
                {
                    scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                    offset += 6
                }
            } else if let plain = Unicode.Scalar(unit) {
                scalar = plain
            }
            Unicode.UTF8.encode(scalar) { buffer.append($0) }
        default:
            throw error("invalid escape '\\\(describeCharacter(at: backslash + 1).dropFirst().dropLast())'", at: backslash)
        }
    }

    /// The value of four hex digits at an offset, nil when they are not all there.
    private func hexQuad(at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in start..<start + 4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Reads a number and returns it exactly as written.
    private mutating func parseNumber() throws -> String {
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - first
        }
        if current == UInt8(ascii: "-") { offset += 1 }
        let leadingZero = current == UInt8(ascii: "0")
        let integerDigits = digits()
        var valid = integerDigits > 0 && !(leadingZero && integerDigits > 1)
        if valid, current == UInt8(ascii: ".") {
            offset += 1
            valid = digits() > 0
        }
        if valid, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            valid = digits() > 0
        }
        guard valid else { throw error("invalid number", at: start) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let length = literal.utf8CodeUnitCount
        let matches = offset + length <= bytes.count
            && (0..<length).allSatisfy { bytes[offset + $0] == literal.utf8Start[$0] }
        guard matches else { throw error("invalid literal, expected '\(literal)'", at: offset) }
        offset += length
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
