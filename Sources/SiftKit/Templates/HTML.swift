/// HTML text helpers shared by the template engine and the page renderer.
public enum HTML {
    /// Escapes `&`, `<`, `>`, `"` and `'` so the text is safe in element content and quoted attributes;
    /// a NUL byte becomes U+FFFD, as an HTML parser would read it.
    public static func escape(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        append(escaping: s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 of `s`, escaped, to `out`. Runs between special bytes are copied whole.
    static func append(escaping s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            for i in 0..<bytes.count {
                let entity: StaticString
                switch bytes[i] {
                case 0x26: entity = "&amp;"
                case 0x3C: entity = "&lt;"
                case 0x3E: entity = "&gt;"
                case 0x22: entity = "&quot;"
                case 0x27: entity = "&#39;"
                case 0x00: entity = "\u{FFFD}"
                default: continue
                }
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                out.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
                runStart = i + 1
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
    }
}
