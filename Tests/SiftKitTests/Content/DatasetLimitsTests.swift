import Foundation
import Testing
@testable import SiftKit

/// A CSV of 1,000,000 short names loads into a million records in bounded time (docs/limits.md;
/// the full build of it is in `make limits`).
@Test func csvOfAMillionRowsLoads() throws {
    var text = "name\n"
    text.reserveCapacity(10_000_000)
    for i in 0..<1_000_000 { text += "n\(i)\n" }
    let start = Date()
    let records = try CSVDataset.records(from: text, path: "names.csv")
    #expect(records.count == 1_000_000)
    #expect(records.last?.fields["name"]?.text == "n999999")
    #expect(Date().timeIntervalSince(start) < 30)
}
