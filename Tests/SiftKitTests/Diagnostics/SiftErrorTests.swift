import Testing
@testable import SiftKit

@Test func errorPrintsPathLineColumn() {
    let e = SiftError("unterminated quoted field", at: SourcePosition(path: "Content/candies/candies.csv", line: 4, column: 17))
    #expect(e.description == "Content/candies/candies.csv:4:17: error: unterminated quoted field")
}

@Test func combinedErrorsPrintOneALine() {
    let a = SiftError("a", at: SourcePosition(path: "x", line: 1, column: 2))
    let b = SiftError("b", at: nil)
    #expect(SiftError.combined([a, b])?.description == "x:1:2: error: a\nerror: b")
    #expect(SiftError.combined([]) == nil)
}
