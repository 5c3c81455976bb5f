/// Reads a `.json` dataset: an array of objects, one record each.
public enum JSONDataset {
    /// The records of a JSON file.
    ///
    /// Objects keep their key order and nest as maps, so `fields.value(at: "a.b")` reaches
    /// into them; numbers keep their literal text. Each record's position is its opening
    /// brace. Anything but an array of objects is an error at the offending element.
    public static func records(from text: String, path: String) throws -> [Record] {
        var text = text
        return try text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes, path: path)
            parser.skipWhitespace()
            guard let first = parser.current else {
                throw parser.error("expected an array of objects, found an empty file", at: parser.offset)
            }
            guard first == UInt8(ascii: "[") else {
                throw parser.error("expected an array of objects, found \(kind(of: first) ?? parser.describeCharacter(at: parser.offset))", at: parser.offset)
            }
            // This reader walks the outer array itself, rather than parsing it whole, to check
            // each element and record where it starts.
            parser.skip(1)
            parser.skipWhitespace()
            var records: [Record] = []
            if parser.current == UInt8(ascii: "]") {
                parser.skip(1)
                try parser.expectEnd()
                return records
            }
            try readElements(&parser, into: &records)
            parser.skip(1)
            try parser.expectEnd()
            return records
        }
    }

    /// Reads the outer array's objects up to its closing bracket, which is left unread.
    private static func readElements(_ parser: inout JSONParser, into records: inout [Record]) throws {
        while true {
            parser.skipWhitespace()
            guard let byte = parser.current else {
                throw parser.error("unexpected end of input", at: parser.offset)
            }
            let start = parser.offset
            guard byte == UInt8(ascii: "{") else {
                throw parser.error("expected an object, found \(kind(of: byte) ?? parser.describeCharacter(at: start))", at: start)
            }
            let position = parser.position(of: start)
            guard case .map(let fields) = try parser.parseValue(depth: 1) else {
                preconditionFailure("a value starting with '{' is an object")
            }
            records.append(Record(fields: fields, position: position))
            parser.skipWhitespace()
            guard let next = parser.current else {
                throw parser.error("unexpected end of input", at: parser.offset)
            }
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else {
                throw parser.error("expected ',' or ']', found \(parser.describeCharacter(at: parser.offset))", at: parser.offset)
            }
            let comma = parser.offset
            parser.skip(1)
            parser.skipWhitespace()
            if parser.current == UInt8(ascii: "]") { throw parser.error("trailing comma", at: comma) }
        }
    }

    /// What a JSON value starting with this byte is, for messages.
    private static func kind(of byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return nil
        }
    }
}
