import Foundation
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

    /// Each word of a table with its entries (document, often and lead bits), by the word's bytes.
    func entries(_ t: WordTable) -> [String: [UInt32]] {
        var out: [String: [UInt32]] = [:]
        for p in t.pairs { out[String(decoding: t.word(Int(p >> 32)), as: UTF8.self), default: []].append(UInt32(truncatingIfNeeded: p)) }
        return out.mapValues { $0.sorted() }
    }

    /// A table written for the next build (`WordTableFile`) and read back holds the same words with
    /// the same documents, which `unstore` turns back into the pairs it was merged from.
    @Test func aStoredTableReadBackGivesBackItsPairs() throws {
        var rng = SeededRNG(state: 71)
        let words = IncrementalBuildTests.words + ShardReuseTests.vocabulary.prefix(40)
        var builder = SearchIndexBuilder()
        for n in 0..<40 {
            let body = (0..<Int.random(in: 0...60, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
            builder.add(SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "p\(n)", title: "P\(n)", url: "c/p\(n)/",
                                                                 fields: [(name: "name", value: "P\(n)")], body: body)))
        }
        builder.flush()
        let merged = builder.tables.map(entries)
        #expect(merged.contains { !$0.isEmpty })
        let list = WordList(tables: builder.tables, renumber: nil)
        let folder = temporaryFolder("word-tables")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let paths = builder.tables.indices.map { folder.appendingPathComponent("words-\($0).cache").path }
        let header = WordTableFile.Header(format: 1, version: "test", output: "out", fingerprint: 42, parts: builder.tables.count)
        try WordTableFile.write(list, tables: builder.tables, header: header, to: paths)
        var other = header
        other.fingerprint = 43
        #expect(WordTableFile.read(paths, header: other) == nil, "tables of other documents are not read")
        let read = try #require(WordTableFile.read(paths, header: header))
        for (p, r) in read.enumerated() {
            let t = WordTable()
            t.words = r.words
            t.stored = r.stored
            t.unstore()
            #expect(t.stored == nil)
            #expect(entries(t) == merged[p], "partition \(p)")
        }
    }
}
