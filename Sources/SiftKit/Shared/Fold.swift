import Foundation

/// Search folding, shared bit for bit with `fold` in sift-core.js: Unicode NFKD, nonspacing
/// marks dropped except the kana voicing marks, composed again (NFC), each code point
/// lowercased on its own (no locale, no context), final sigma as sigma.
public enum Fold {
    /// Folds a string for matching.
    public static func fold(_ s: String) -> String {
        if let ascii = asciiFold(s) { return ascii }
        return String(decoding: foldUTF8(s), as: UTF8.self)
    }

    /// Folds a string into UTF-8 bytes, sparing the index builder a String per body.
    static func foldUTF8(_ s: String) -> [UInt8] {
        // An ASCII character is a normalization boundary (a starter that never composes under
        // NFKD), so only the runs of non-ASCII characters need Foundation's decomposition.
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var text = s
        text.withUTF8 { buf in
            var i = 0
            let n = buf.count
            while i < n {
                let b = buf[i]
                if b < 0x80 {
                    var j = i + 1
                    while j < n && buf[j] < 0x80 { j += 1 }
                    let start = out.count
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<j]))
                    out.withUnsafeMutableBufferPointer { o in
                        for k in start..<o.count where o[k] &- 0x41 < 26 { o[k] |= 0x20 }
                    }
                    i = j
                    continue
                }
                var j = i
                var twoByte = true
                while j < n && buf[j] >= 0x80 {
                    if buf[j] >= 0xE0 { twoByte = false }
                    j += 1
                }
                if twoByte {
                    // U+0080–U+07FF: each code point folds alone (the marks NFKD would reorder
                    // there are all nonspacing, and dropped), from a table built once.
                    var k = i
                    while k + 1 < j {
                        let v = Int(buf[k] & 0x1F) << 6 | Int(buf[k + 1] & 0x3F)
                        out.append(contentsOf: twoByteFolds[v - 0x80])
                        k += 2
                    }
                } else {
                    foldRun(UnsafeBufferPointer(rebasing: buf[i..<j]), into: &out)
                }
                i = j
            }
        }
        return out
    }

    /// Folds a run of non-ASCII UTF-8: NFKD, marks dropped (the kana voicing marks kept), NFC,
    /// then each code point lowercased.
    static func foldRun(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let run = String(decoding: bytes, as: UTF8.self)
        if run.unicodeScalars.allSatisfy(foldsToItself) { return out.append(contentsOf: run.utf8) }
        foldRunByUnicode(run, into: &out)
    }

    /// Code points that fold to themselves wherever they stand among others of them: they have no
    /// decomposition, are no mark, compose with none of the others and have no case. Most of a
    /// Chinese, Japanese or Korean text (Han, kana, Hangul syllables), and U+FFFD, which stands
    /// for bytes that are not UTF-8. A run of them alone skips Foundation's normalization.
    static func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFFFD: true
        default: false
        }
    }

    /// `foldRun` by the rules themselves, for any run.
    static func foldRunByUnicode(_ run: String, into out: inout [UInt8]) {
        var kept = String.UnicodeScalarView()
        for scalar in run.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.value >= 0x80 && scalar.properties.generalCategory == .nonspacingMark
                && !isVoicingMark(scalar) { continue }
            kept.append(scalar)
        }
        lowercase(composed(kept), into: &out)
    }

    /// NFC, as Unicode defines it where Foundation's is wrong: Foundation turns an old leading jamo
    /// and a vowel jamo (U+1113 U+1168) into U+FFFD and composes old jamo into syllables (U+1107
    /// U+1176 into 빠). Jamo outside Hangul composition compose with nothing, so NFC may stop at
    /// each: the stretches between them are composed, they are kept as they are.
    static func composed(_ scalars: String.UnicodeScalarView) -> String.UnicodeScalarView {
        guard scalars.contains(where: isUncomposedJamo) else { return String(scalars).precomposedStringWithCanonicalMapping.unicodeScalars }
        var out = String.UnicodeScalarView(), stretch = String.UnicodeScalarView()
        for scalar in scalars {
            guard isUncomposedJamo(scalar) else { stretch.append(scalar); continue }
            out.append(contentsOf: String(stretch).precomposedStringWithCanonicalMapping.unicodeScalars)
            stretch = String.UnicodeScalarView()
            out.append(scalar)
        }
        out.append(contentsOf: String(stretch).precomposedStringWithCanonicalMapping.unicodeScalars)
        return out
    }

    /// Each code point lowercased on its own, as UTF-8.
    private static func lowercase(_ scalars: String.UnicodeScalarView, into out: inout [UInt8]) {
        for scalar in scalars {
            if scalar.value < 0x80 { out.append(UInt8(asciiLower(scalar).value)); continue }
            let props = scalar.properties
            if props.changesWhenLowercased {
                for lower in props.lowercaseMapping.unicodeScalars { append(lower, to: &out) }
            } else {
                append(scalar, to: &out)
            }
        }
    }

    /// A conjoining jamo that Hangul composition never takes (it takes leading U+1100–U+1112,
    /// vowels U+1161–U+1175 and trailing U+11A8–U+11C2): old jamo, fillers, the extended blocks.
    static func isUncomposedJamo(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1113...0x1160, 0x1176...0x11A7, 0x11C3...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    /// U+3099 and U+309A, which tell ガ from カ: kept, unlike every other nonspacing mark.
    @inline(__always)
    static func isVoicingMark(_ s: Unicode.Scalar) -> Bool { s.value == 0x3099 || s.value == 0x309A }

    /// The fold of each code point from U+0080 to U+07FF on its own.
    static let twoByteFolds: [[UInt8]] = (0x80..<0x800).map { v in
        var out: [UInt8] = []
        let bytes: [UInt8] = [UInt8(0xC0 | (v >> 6)), UInt8(0x80 | (v & 0x3F))]
        bytes.withUnsafeBufferPointer { foldRun($0, into: &out) }
        return out
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let s = scalar == "\u{03C2}" ? "\u{03C3}" : scalar
        out.append(contentsOf: UTF8.encode(s)!)
    }

    /// Splits a folded query into terms on code points with the Unicode White_Space property
    /// (JavaScript: `/\p{White_Space}+/u`), so both sides split on the same characters.
    public static func terms(_ query: String) -> [String] {
        var terms: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in fold(query).unicodeScalars {
            if scalar.properties.isWhitespace {
                if !current.isEmpty { terms.append(String(current)); current = String.UnicodeScalarView() }
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { terms.append(String(current)) }
        return terms
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
