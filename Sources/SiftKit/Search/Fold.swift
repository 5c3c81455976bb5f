import Foundation

/// Search folding, shared bit for bit with `fold` in sift-core.js: Unicode NFKD, nonspacing
/// marks dropped, each code point lowercased on its own (no locale, no context), final sigma
/// as sigma.
public enum Fold {
    /// Folds a string for matching.
    public static func fold(_ s: String) -> String {
        if let ascii = asciiFold(s) { return ascii }
        let decomposed = s.decomposedStringWithCompatibilityMapping
        var out = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if scalar.value < 0x80 {
                out.append(asciiLower(scalar))
                continue
            }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                out.append(lower == "\u{03C2}" ? "\u{03C3}" : lower)
            }
        }
        return String(out)
    }

    /// Splits a folded query on white space into terms.
    public static func terms(_ query: String) -> [String] {
        fold(query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    private static func asciiLower(_ s: Unicode.Scalar) -> Unicode.Scalar {
        (s.value >= 0x41 && s.value <= 0x5A) ? Unicode.Scalar(UInt8(s.value + 32)) : s
    }

    /// The fast path for pure ASCII, which NFKD leaves alone.
    private static func asciiFold(_ s: String) -> String? {
        var bytes = [UInt8]()
        bytes.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if b >= 0x80 { return nil }
            bytes.append((b >= 0x41 && b <= 0x5A) ? b + 32 : b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
