import Testing
@testable import SiftKit

@Test func slugOfDiacritics() { #expect(Slug.make("Côte d'Ivoire") == "cote-d-ivoire") }
@Test func slugOfFileName() { #expect(Slug.make("cote-d-ivoire") == "cote-d-ivoire") }
@Test func slugKeepsHanzi() { #expect(Slug.make("俄罗斯") == "俄罗斯") }
@Test func slugTrimsDashes() { #expect(Slug.make("  --Chocolate Bar!-- ") == "chocolate-bar") }
@Test func slugOfPunctuationIsEmpty() { #expect(Slug.make("?!") == "") }
@Test func slugOfDotsCannotEscape() { #expect(Slug.make("../../etc/passwd") == "etc-passwd") }
@Test func slugKeepsHangulSyllables() { #expect(Slug.make("대한민국") == "대한민국") }
