import Testing
@testable import SiftKit

@Test func foldDropsAccents() { #expect(Fold.fold("Côte d'Ivoire") == "cote d'ivoire") }
@Test func foldDecomposedAccent() { #expect(Fold.fold("Cafe\u{301}") == "cafe") }
@Test func foldTurkishDottedI() { #expect(Fold.fold("İstanbul") == "istanbul") }
@Test func foldFinalSigma() { #expect(Fold.fold("ΟΔΟΣ") == "οδοσ") }
@Test func foldLigature() { #expect(Fold.fold("ﬁle") == "file") }
@Test func foldKeepsSharpS() { #expect(Fold.fold("Straße") == "straße") }
@Test func foldFullWidth() { #expect(Fold.fold("ＡＢＣ") == "abc") }

/// Jamo that Hangul composition does not take stay as they are, as in JavaScript's NFC:
/// Foundation's composition made U+1113 U+1168 one U+FFFD (the differential run, seed 20261316).
@Test func foldKeepsOldJamo() {
    #expect(Fold.fold("ᄓㅖㅴ") == "\u{1113}\u{1168}\u{1122}")
    #expect(Fold.fold("ᄀㅖ ᄀ\u{1176} 가\u{11C3} ꥠㅏ") == "계 \u{1100}\u{1176} 가\u{11C3} \u{A960}\u{1161}")
}

/// Code points U+0080–U+07FF fold one by one from a table. That equals folding the run through
/// NFKD because every code point there that NFKD could reorder (a nonzero combining class) is a
/// nonspacing mark, which folding drops; checked here, with random runs against NFKD itself.
@Test func twoByteTableFoldsLikeNFKD() {
    for v in 0x80..<0x800 {
        guard let scalar = Unicode.Scalar(v) else { continue }
        if scalar.properties.canonicalCombiningClass.rawValue != 0 {
            #expect(scalar.properties.generalCategory == .nonspacingMark, "U+\(String(v, radix: 16))")
        }
    }
    var rng = SeededRNG(state: 11)
    let pool: [Unicode.Scalar] = (0x80..<0x800).compactMap(Unicode.Scalar.init) + ["a", "Z", " ", "\u{301}", "ﬁ", "€", "中", "İ", "Σ"]
    for _ in 0..<3000 {
        let s = String(String.UnicodeScalarView((0..<Int.random(in: 1...12, using: &rng)).map { _ in pool.randomElement(using: &rng)! }))
        var reference: [UInt8] = []
        var text = s
        text.withUTF8 { buf in
            // The old way: every non-ASCII run through NFKD.
            var i = 0
            while i < buf.count {
                if buf[i] < 0x80 {
                    reference.append(buf[i] &- 0x41 < 26 ? buf[i] | 0x20 : buf[i])
                    i += 1
                    continue
                }
                var j = i
                while j < buf.count && buf[j] >= 0x80 { j += 1 }
                Fold.foldRun(UnsafeBufferPointer(rebasing: buf[i..<j]), into: &reference)
                i = j
            }
        }
        #expect(Fold.foldUTF8(s) == reference, "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}

/// A run of Han, kana, Hangul syllables and U+FFFD is kept as it is, without NFKD: that equals
/// folding it by the rules, for each such code point alone, and for random runs of them beside
/// the marks, jamo and compatibility forms that do change (which take the rules' path).
@Test func codePointsThatFoldToThemselvesFoldLikeTheRules() {
    func byRules(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        Fold.foldRunByUnicode(s, into: &out)
        return out
    }
    let kept = (0x3000..<0x10000).compactMap(Unicode.Scalar.init).filter(Fold.foldsToItself)
    #expect(kept.count == 86 + 90 + 6592 + 20992 + 11172 + 1)
    for scalar in kept {
        #expect(byRules(String(scalar)) == Array(String(scalar).utf8), "U+\(String(scalar.value, radix: 16))")
    }
    var rng = SeededRNG(state: 12)
    let others: [Unicode.Scalar] = ["\u{3099}", "\u{309A}", "\u{309B}", "\u{11A8}", "\u{1161}", "\u{301}", "\u{FF76}", "\u{F900}", "\u{30FF}", "\u{3000}", "é"]
    for _ in 0..<3000 {
        let run = (0..<Int.random(in: 1...8, using: &rng)).map { _ in
            Int.random(in: 0..<5, using: &rng) == 0 ? others.randomElement(using: &rng)! : kept.randomElement(using: &rng)!
        }
        let s = String(String.UnicodeScalarView(run))
        var folded: [UInt8] = []
        s.utf8.withContiguousStorageIfAvailable { Fold.foldRun($0, into: &folded) }
        #expect(folded == byRules(s), "\(run.map { String($0.value, radix: 16) })")
    }
}
