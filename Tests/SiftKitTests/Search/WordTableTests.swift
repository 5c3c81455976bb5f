import Testing
@testable import SiftKit

/// How a word table grows: room for the documents still to come when their number is known,
/// so a large build neither doubles past what it needs nor copies its pairs at every batch.
@Suite struct WordTableTests {
    @Test func roomIsMadeOnceForTheDocumentsToCome() {
        // 1,024 of 100,000 documents in, at 160 pairs each: room for all of them and a tenth more.
        let room = WordTable.capacity(needed: 163_840, had: 0, documents: 1_024, expected: 100_000)
        #expect(room >= 16_000_000 && room <= 17_700_000, "\(room)")
        // The next batches fit it: it is not grown again.
        #expect(WordTable.capacity(needed: 327_680, had: room, documents: 2_048, expected: 100_000) >= room)
    }

    @Test func withoutAKnownNumberOrPastItTheRoomDoubles() {
        #expect(WordTable.capacity(needed: 5_000, had: 4_096, documents: 100, expected: 0) == 8_192)
        #expect(WordTable.capacity(needed: 5_000, had: 4_096, documents: 100, expected: 50) == 8_192)
    }

    @Test func roomIsNeverLessThanNeededNorAQuarterMoreThanThereWas() {
        // Documents longer than the first ones: the projection falls short of what is needed now.
        #expect(WordTable.capacity(needed: 9_000, had: 8_000, documents: 1_000, expected: 1_001) == 10_000)
        #expect(WordTable.capacity(needed: 20_000, had: 8_000, documents: 1_000, expected: 1_001) >= 20_000)
    }
}
