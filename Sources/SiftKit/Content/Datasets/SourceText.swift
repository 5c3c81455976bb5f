/// Turns the bytes of a source file into text, the first step for every file Sift reads.
public enum SourceText {
    /// Decodes UTF-8 bytes, dropping a leading byte order mark.
    ///
    /// Throws `invalid UTF-8 (byte 0xNN)` at the line and column of the first byte that does
    /// not begin a well-formed sequence. Null bytes are valid UTF-8 and pass through.
    public static func decode(_ bytes: [UInt8], path: String) throws -> String {
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        let body = bytes[(hasBOM ? 3 : 0)...]
        // The standard library's validation is the fast path for the valid files that almost
        // every build consists of; the slower scan below only runs to locate an error.
        if let text = String(validating: body, as: UTF8.self) {
            return text
        }
        // Excel's "Unicode Text" and Windows tools save UTF-16, which starts with its byte order mark.
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
            throw SiftError("this file is UTF-16 (it starts with UTF-16's byte order mark), and Sift reads UTF-8: save it as UTF-8",
                            at: SourcePosition(path: path, line: 1, column: 1))
        }
        throw body.withUnsafeBufferPointer { buffer in
            let offset = firstInvalidByte(in: buffer) ?? 0
            var counter = LineCounter(bytes: buffer, path: path)
            let hex = String(buffer[offset], radix: 16, uppercase: true)
            let message = "invalid UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex))"
            return SiftError(message, at: counter.position(of: offset))
        }
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence.
    ///
    /// Follows the table of well-formed sequences in the Unicode Standard (section 3.9), which
    /// is what the standard library enforces too: no overlong forms, no surrogates, nothing
    /// past U+10FFFF.
    static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else {
                return index
            }
            for next in index + 2 ..< index + length where bytes[next] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}
