import Testing
import SiftKit

/// The rows of a CSV text as maps, so one literal states both the values and the key order.
private func rows(_ text: String, separator: Character = ",") throws -> [Value] {
    try CSVDataset.records(from: text, path: "c.csv", separator: separator).map { .map($0.fields) }
}

/// The error line a throwing call prints, or "no error".
private func errorLine(_ text: String, separator: Character = ",") -> String {
    do {
        _ = try CSVDataset.records(from: text, path: "Content/candies/candies.csv", separator: separator)
        return "no error"
    } catch {
        return String(describing: error)
    }
}

struct CSVDatasetTests {
    @Test func readsHeaderAndRows() throws {
        #expect(try rows("name,kind\nMars,chocolate\nMentos,hard\n")
            == [["name": "Mars", "kind": "chocolate"], ["name": "Mentos", "kind": "hard"]])
    }

    @Test func keepsColumnOrder() throws {
        #expect(try CSVDataset.records(from: "z,a,m\n1,2,3", path: "c.csv").map(\.fields.keys) == [["z", "a", "m"]])
    }

    @Test func readsLastRowWithoutNewline() throws {
        #expect(try rows("a\n1\n2") == [["a": "1"], ["a": "2"]])
    }

    @Test func readsQuotedComma() throws {
        #expect(try rows("a,b\n\"x, y\",z\n") == [["a": "x, y", "b": "z"]])
    }

    @Test func readsDoubledQuote() throws {
        #expect(try rows("a\n\"say \"\"hi\"\"\"\n") == [["a": "say \"hi\""]])
    }

    @Test func readsQuoteOnlyField() throws {
        #expect(try rows("a,b\n\"\"\"\",x\n") == [["a": "\"", "b": "x"]])
    }

    @Test func readsNewlineInQuotes() throws {
        #expect(try rows("a,b\n\"one\ntwo\",3\n") == [["a": "one\ntwo", "b": "3"]])
    }

    @Test func keepsCRLFInsideQuotes() throws {
        #expect(try rows("a\r\n\"one\r\ntwo\"\r\n") == [["a": "one\r\ntwo"]])
    }

    @Test func readsCRLFLineEnds() throws {
        #expect(try rows("a,b\r\n1,2\r\n3,4\r\n") == [["a": "1", "b": "2"], ["a": "3", "b": "4"]])
    }

    @Test func readsCRLFWithoutFinalLineEnd() throws {
        #expect(try rows("a,b\r\n1,2") == [["a": "1", "b": "2"]])
    }

    @Test func readsFinalLoneCRAsLineEnd() throws {
        #expect(try rows("a\r\n1\r") == [["a": "1"]])
    }

    @Test func keepsLoneCRInsideAField() throws {
        #expect(try rows("a\nx\ry\n") == [["a": "x\ry"]])
    }

    @Test func readsEmptyFields() throws {
        #expect(try rows("a,b,c\n,,\n") == [["a": "", "b": "", "c": ""]])
    }

    @Test func readsEmptyQuotedField() throws {
        #expect(try rows("a,b\n\"\",x\n") == [["a": "", "b": "x"]])
    }

    @Test func readsTrailingEmptyField() throws {
        #expect(try rows("a,b\n1,\n") == [["a": "1", "b": ""]])
    }

    @Test func leavesMissingFieldsOut() throws {
        #expect(try rows("a,b,c\n1\n1,2\n") == [["a": "1"], ["a": "1", "b": "2"]])
    }

    @Test func skipsBlankLines() throws {
        #expect(try rows("\n\na\n\n1\r\n\r\n2\n\n") == [["a": "1"], ["a": "2"]])
    }

    @Test func keepsSpacesInValues() throws {
        #expect(try rows("a,b\n x , y\n") == [["a": " x ", "b": " y"]])
    }

    @Test func trimsHeaderNames() throws {
        #expect(try rows(" name ,\"price \"\nMars,1\n") == [["name": "Mars", "price": "1"]])
    }

    @Test func readsQuotedHeader() throws {
        #expect(try rows("\"a,b\"\n1\n") == [["a,b": "1"]])
    }

    @Test func keepsNumbersAsStrings() throws {
        #expect(try rows("price\n2.50\n") == [["price": .string("2.50")]])
    }

    @Test func readsUnicode() throws {
        #expect(try rows("näme,ü\n\"Côte d'Ivoire\",🍫\n") == [["näme": "Côte d'Ivoire", "ü": "🍫"]])
    }

    @Test func readsTSV() throws {
        #expect(try rows("name\tkind\nMars\tchocolate, milk\n\"a\tb\"\t\"c\"\n", separator: "\t")
            == [["name": "Mars", "kind": "chocolate, milk"], ["name": "a\tb", "kind": "c"]])
    }

    /// A TSV cell such as `5" screen`, as spreadsheets and databases export it unquoted, was an
    /// error ("quote in an unquoted field"); in a CSV it still is.
    @Test func aTSVFieldHoldsAQuoteInsideIt() throws {
        #expect(try rows("name\tsize\nTV\t5\" screen\nSign\t\"Open\"\n", separator: "\t")
            == [["name": "TV", "size": "5\" screen"], ["name": "Sign", "size": "Open"]])
        #expect(errorLine("name,size\nTV,5\" screen\n") == "Content/candies/candies.csv:2:5: error: quote in an unquoted field")
    }

    @Test func readsSemicolonSeparatedText() throws {
        #expect(try rows("a;b\n1,5;2\n", separator: ";") == [["a": "1,5", "b": "2"]])
    }

    @Test func readsByteOrderMarkStrippedBySourceText() throws {
        let text = try SourceText.decode([0xEF, 0xBB, 0xBF] + Array("name\nMars\n".utf8), path: "c.csv")
        #expect(try rows(text) == [["name": "Mars"]])
    }

    @Test func readsHeaderOnlyAsNoRows() throws {
        #expect(try rows("a,b\n") == [])
    }

    @Test func readsEmptyTextAsNoRows() throws {
        #expect(try rows("") == [])
    }

    @Test func recordsWhereEachRowStarts() throws {
        #expect(try CSVDataset.records(from: "a\n\"x\ny\"\n\nz\n", path: "c.csv").map(\.position.description)
            == ["c.csv:2:1", "c.csv:5:1"])
    }

    @Test func reportsUnterminatedQuotedFieldAtItsOpeningQuote() {
        #expect(errorLine("name,kind\nMars,\"choc\nolate\n")
            == "Content/candies/candies.csv:2:6: error: unterminated quoted field")
    }

    @Test func reportsQuoteInUnquotedField() {
        #expect(errorLine("a,b\n1,ab\"c\"\n") == "Content/candies/candies.csv:2:5: error: quote in an unquoted field")
    }

    @Test func reportsQuoteAfterLeadingSpace() {
        #expect(errorLine("a\n \"x\"\n") == "Content/candies/candies.csv:2:2: error: quote in an unquoted field")
    }

    @Test func reportsTextAfterClosingQuote() {
        #expect(errorLine("a,b\n\"a\"b,c\n") == "Content/candies/candies.csv:2:4: error: text after the closing quote")
    }

    @Test func reportsTextAfterClosingQuoteOnLaterLine() {
        #expect(errorLine("a\n\"x\ny\" z\n") == "Content/candies/candies.csv:3:3: error: text after the closing quote")
    }

    @Test func reportsExtraFieldAtItsStart() {
        #expect(errorLine("a,b\n1,2\nñ,2,3,4\n")
            == "Content/candies/candies.csv:3:5: error: row has more fields than the header's 2 columns")
    }

    /// Only the first long row was told, though the reader keeps its place past one (SPEC §2:
    /// every error, not just the first); a stray quote after them is told with them.
    @Test func reportsEveryRowWithExtraFields() {
        #expect(errorLine("name,color\nApple,red\nBanana,yellow,x\nCherry,red,y\nDate,brown\n")
            == "Content/candies/candies.csv:3:15: error: row has more fields than the header's 2 columns\n"
            + "Content/candies/candies.csv:4:12: error: row has more fields than the header's 2 columns")
        #expect(errorLine("a\n1,2\nx\"y\n")
            == "Content/candies/candies.csv:2:3: error: row has more fields than the header's 1 column\n"
            + "Content/candies/candies.csv:3:2: error: quote in an unquoted field")
    }

    @Test func reportsTrailingSeparatorAsExtraField() {
        #expect(errorLine("a\n1,\n") == "Content/candies/candies.csv:2:3: error: row has more fields than the header's 1 column")
    }

    @Test func reportsExtraFieldAfterMultilineQuotedField() {
        #expect(errorLine("a\n\"x\nyé\",z\n")
            == "Content/candies/candies.csv:3:5: error: row has more fields than the header's 1 column")
    }

    @Test func reportsEmptyHeaderName() {
        #expect(errorLine("a,  ,c\n") == "Content/candies/candies.csv:1:3: error: empty column name")
    }

    @Test func reportsTrailingSeparatorInHeaderAsEmptyName() {
        #expect(errorLine("a,b,\n1,2\n") == "Content/candies/candies.csv:1:5: error: empty column name")
    }

    @Test func reportsDuplicateHeaderName() {
        #expect(errorLine("name,kind, name\n") == "Content/candies/candies.csv:1:11: error: duplicate column name \"name\"")
    }

    @Test func reportsErrorsInTSVWithTabsAsOneColumn() {
        #expect(errorLine("a\tb\n1\t2\t3\n", separator: "\t")
            == "Content/candies/candies.csv:2:5: error: row has more fields than the header's 2 columns")
    }
}
