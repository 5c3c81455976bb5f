import Foundation

/// URL slugs as SPEC.md defines them: NFKD, combining marks dropped, lowercase, every run of
/// characters that are not letters or digits becomes `-`, trimmed of `-`. Letters of every
/// script stay, so `俄罗斯` stays `俄罗斯`; the result is recomposed (NFC) so Hangul stays syllables.
public enum Slug {
    /// The slug of a title or file name; may be empty, which callers report as an error.
    public static func make(_ s: String) -> String {
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
        // Recomposing keeps Hangul syllables whole in URLs; the marks are already gone.
        let result = String(out)
        return result.utf8.allSatisfy({ $0 < 0x80 }) ? result : result.precomposedStringWithCanonicalMapping
    }
}
