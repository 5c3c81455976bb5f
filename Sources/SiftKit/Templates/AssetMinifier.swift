/// Trims Sift's own JavaScript and CSS for the wire: every visitor downloads them, and their
/// comments and indentation are for the people who read the sources. Only what cannot change
/// meaning goes: whole-line `//` comments and the indentation of each line in JavaScript (its
/// sources have no multi-line template literals), `/* … */` comments and indentation in CSS
/// (its sources have no `/*` inside strings), and the blank lines left.
enum AssetMinifier {
    /// The asset without comments, indentation or blank lines; other files unchanged.
    static func minify(_ bytes: [UInt8], name: String) -> [UInt8] {
        if name.hasSuffix(".js") { return lines(bytes).filter { !$0.starts(with: Array("//".utf8)) }.joined(separator: [0x0A]) + [0x0A] }
        if name.hasSuffix(".css") { return lines(withoutBlockComments(bytes)).joined(separator: [0x0A]) + [0x0A] }
        return bytes
    }

    /// Non-empty lines, each without its leading spaces and tabs.
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A).map { $0.drop { $0 == 0x20 || $0 == 0x09 } }.filter { !$0.isEmpty }
    }

    private static func withoutBlockComments(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {
                i += 2
                while i + 1 < bytes.count, !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) { i += 1 }
                i += 2
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
