import Testing
@testable import SiftKit

@Test func slugOfDiacritics() { #expect(Slug.make("Côte d'Ivoire") == "cote-d-ivoire") }
@Test func slugOfFileName() { #expect(Slug.make("cote-d-ivoire") == "cote-d-ivoire") }
@Test func slugKeepsHanzi() { #expect(Slug.make("俄罗斯") == "俄罗斯") }
@Test func slugTrimsDashes() { #expect(Slug.make("  --Chocolate Bar!-- ") == "chocolate-bar") }
@Test func slugOfPunctuationIsEmpty() { #expect(Slug.make("?!") == "") }
@Test func slugOfDotsCannotEscape() { #expect(Slug.make("../../etc/passwd") == "etc-passwd") }
@Test func slugKeepsHangulSyllables() { #expect(Slug.make("대한민국") == "대한민국") }

/// The ASCII fast path gives what the Unicode path gives, on every ASCII byte and on random text.
@Test func slugASCIIPathMatchesUnicodePath() {
    var rng = SeededRNG(state: 0x5106)
    var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) + "a" + String(UnicodeScalar(UInt8($0))) + "Z9" }
    for _ in 0..<2_000 {
        samples.append(String(decoding: (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0..<128, using: &rng) }, as: UTF8.self))
    }
    for s in samples { #expect(Slug.makeASCII(s) == Slug.makeUnicode(s), "\(Array(s.utf8))") }
    #expect(Slug.makeASCII("Café") == nil)
}

/// Old jamo stay as they are in a slug, as they do in a fold: Foundation's NFC turned an old
/// leading jamo and a vowel (U+1113 U+1168) into U+FFFD and composed a modern leading jamo with an
/// old vowel (U+1107 U+1176) into 빠, so two titles got one slug.
@Test func slugKeepsOldJamo() {
    #expect(Slug.make("ᄓㅖ") == "\u{1113}\u{1168}")
    #expect(Slug.make("\u{1107}\u{1176}") == "\u{1107}\u{1176}")
    #expect(Slug.make("\u{1107}\u{1176}") != Slug.make("빠"))
    #expect(Slug.make("ᄀㅖ 가\u{11C3}") == "계-가\u{11C3}")
}
