import Foundation

/// URL slugs as docs/content.md ("Slugs") defines them: NFKD, combining marks dropped, lowercase, every run of
/// characters that are not letters or digits becomes `-`, trimmed of `-`. Letters of every
/// script stay, so `俄罗斯` stays `俄罗斯`; the result is recomposed (NFC) so Hangul stays syllables.
public enum Slug {
    /// The slug of a title or file name; may be empty, which callers report as an error.
    public static func make(_ s: String) -> String {
        makeASCII(s) ?? makeUnicode(s)
    }

    /// `make` through the Unicode properties, for any text.
    static func makeUnicode(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingDash = false
        let source = s.utf8.allSatisfy({ $0 < 0x80 }) ? s : s.decomposedStringWithCompatibilityMapping
        for scalar in source.unicodeScalars {
            let props = scalar.properties
            switch props.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                if scalar.value < 0x80 {
                    let v = scalar.value
                    out.append((v >= 0x41 && v <= 0x5A) ? Unicode.Scalar(UInt8(v + 32)) : scalar)
                } else {
                    out.append(contentsOf: props.lowercaseMapping.unicodeScalars)
                }
            default:
                pendingDash = true
            }
        }
        // Recomposing keeps Hangul syllables whole in URLs, and old jamo as they are (as `Fold`
        // does); the marks are already gone.
        return out.allSatisfy(\.isASCII) ? String(out) : String(Fold.composed(out))
    }

    /// `make` for ASCII text, where the letters and digits are [A-Za-z0-9]; nil for any other text.
    static func makeASCII(_ s: String) -> String? {
        var s = s
        return s.withUTF8 { bytes -> String? in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            var pendingDash = false
            for b in bytes {
                if b >= 0x80 { return nil }
                let lower = b | 0x20
                if (lower >= 0x61 && lower <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                    if pendingDash && !out.isEmpty { out.append(0x2D) }
                    pendingDash = false
                    out.append(b >= 0x41 && b <= 0x5A ? lower : b)
                } else {
                    pendingDash = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
