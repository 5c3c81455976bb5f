import Testing
@testable import SiftKit

@Test func foldDropsAccents() { #expect(Fold.fold("Côte d'Ivoire") == "cote d'ivoire") }
@Test func foldDecomposedAccent() { #expect(Fold.fold("Cafe\u{301}") == "cafe") }
@Test func foldTurkishDottedI() { #expect(Fold.fold("İstanbul") == "istanbul") }
@Test func foldFinalSigma() { #expect(Fold.fold("ΟΔΟΣ") == "οδοσ") }
@Test func foldLigature() { #expect(Fold.fold("ﬁle") == "file") }
@Test func foldKeepsSharpS() { #expect(Fold.fold("Straße") == "straße") }
@Test func foldFullWidth() { #expect(Fold.fold("ＡＢＣ") == "abc") }
