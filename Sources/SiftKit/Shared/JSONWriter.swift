/// A minimal deterministic JSON writer: keys in the order given, no spaces, `/` unescaped,
/// non-ASCII written as UTF-8.
struct JSONWriter {
    var out = ""

    mutating func raw(_ s: String) { out += s }

    mutating func string(_ s: String) {
        if !s.utf8.contains(where: Self.needsEscape) {
            out.append("\"")
            out += s
            out.append("\"")
        } else {
            var bytes: [UInt8] = []
            Self.string(s.utf8, into: &bytes)
            out += String(decoding: bytes, as: UTF8.self)
        }
    }

    mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { out += "null" }
    }

    mutating func key(_ k: String) {
        string(k)
        out.append(":")
    }

    mutating func strings(_ list: [String]) {
        out.append("[")
        for (i, s) in list.enumerated() {
            if i > 0 { out.append(",") }
            string(s)
        }
        out.append("]")
    }

    mutating func ints(_ list: [Int]) {
        out.append("[")
        out += list.map(String.init).joined(separator: ",")
        out.append("]")
    }

    /// Appends UTF-8 text as a JSON string: the one escaping rule for every file Sift writes.
    static func string<C: Collection<UInt8>>(_ utf8: C, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if utf8.withContiguousStorageIfAvailable({ escape($0, into: &out) }) == nil {
            for b in utf8 { escape(b, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The runs of bytes that need no escape copied whole, each other byte escaped.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var start = 0
        for i in bytes.indices where needsEscape(bytes[i]) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            escape(bytes[i], into: &out)
            start = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// A control character, `"` or a backslash.
    private static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }

    private static func escape(_ b: UInt8, into out: inout [UInt8]) {
        switch b {
        case 0x22: out.append(0x5C); out.append(0x22)
        case 0x5C: out.append(0x5C); out.append(0x5C)
        case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
        case ..<0x20: out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(b >> 4)], hexDigits[Int(b & 15)]]
        default: out.append(b)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
