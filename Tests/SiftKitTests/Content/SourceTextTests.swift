import Testing
@testable import SiftKit

/// The error line a throwing call prints, or "no error".
private func errorLine(_ body: () throws -> Any) -> String {
    do {
        _ = try body()
        return "no error"
    } catch {
        return String(describing: error)
    }
}

struct SourceTextTests {
    @Test func decodesPlainUTF8() throws {
        #expect(try SourceText.decode(Array("Crème brûlée 🍮".utf8), path: "a.txt") == "Crème brûlée 🍮")
    }

    @Test func stripsByteOrderMark() throws {
        #expect(try SourceText.decode([0xEF, 0xBB, 0xBF] + Array("name\n".utf8), path: "a.csv") == "name\n")
    }

    @Test func keepsByteOrderMarkThatIsNotAtTheStart() throws {
        #expect(try SourceText.decode(Array("a\u{FEFF}".utf8), path: "a.txt") == "a\u{FEFF}")
    }

    @Test func decodesEmptyInput() throws {
        #expect(try SourceText.decode([], path: "a.txt") == "")
    }

    @Test func decodesOnlyByteOrderMark() throws {
        #expect(try SourceText.decode([0xEF, 0xBB, 0xBF], path: "a.txt") == "")
    }

    @Test func allowsNullBytes() throws {
        #expect(try SourceText.decode([0x61, 0x00, 0x62], path: "a.txt") == "a\u{0}b")
    }

    @Test func reportsInvalidByteWithLineAndScalarColumn() {
        let bytes = Array("first\nél".utf8) + [0xFF] + Array("x".utf8)
        #expect(errorLine { try SourceText.decode(bytes, path: "Content/a.txt") }
            == "Content/a.txt:2:3: error: invalid UTF-8 (byte 0xFF)")
    }

    @Test func reportsInvalidByteAfterByteOrderMarkAtColumnOne() {
        #expect(errorLine { try SourceText.decode([0xEF, 0xBB, 0xBF, 0x80], path: "a.txt") }
            == "a.txt:1:1: error: invalid UTF-8 (byte 0x80)")
    }

    /// A UTF-16 file (Excel's "Unicode Text") was said to be "invalid UTF-8 (byte 0xFF)", with no word of why.
    @Test func aUTF16FileIsSaidToBeUTF16() {
        let why = "error: this file is UTF-16 (it starts with UTF-16's byte order mark), and Sift reads UTF-8: save it as UTF-8"
        #expect(errorLine { try SourceText.decode([0xFF, 0xFE, 0x61, 0x00], path: "c.tsv") } == "c.tsv:1:1: " + why)
        #expect(errorLine { try SourceText.decode([0xFE, 0xFF, 0x00, 0x61], path: "c.tsv") } == "c.tsv:1:1: " + why)
    }

    @Test func reportsTruncatedSequenceAtItsLeadByte() {
        #expect(errorLine { try SourceText.decode([0x61, 0xE2, 0x82, 0x61], path: "a.txt") }
            == "a.txt:1:2: error: invalid UTF-8 (byte 0xE2)")
    }

    @Test func reportsSequenceCutOffByEndOfFile() {
        #expect(errorLine { try SourceText.decode([0x0A, 0xF0, 0x9F, 0x98], path: "a.txt") }
            == "a.txt:2:1: error: invalid UTF-8 (byte 0xF0)")
    }

    @Test func rejectsOverlongEncoding() {
        #expect(errorLine { try SourceText.decode([0xC0, 0xAF], path: "a.txt") }
            == "a.txt:1:1: error: invalid UTF-8 (byte 0xC0)")
    }

    @Test func rejectsEncodedSurrogate() {
        #expect(errorLine { try SourceText.decode([0x61, 0xED, 0xA0, 0x80], path: "a.txt") }
            == "a.txt:1:2: error: invalid UTF-8 (byte 0xED)")
    }

    @Test func rejectsScalarBeyondUnicode() {
        #expect(errorLine { try SourceText.decode([0xF4, 0x90, 0x80, 0x80], path: "a.txt") }
            == "a.txt:1:1: error: invalid UTF-8 (byte 0xF4)")
    }

    @Test func printsSingleDigitByteWithTwoHexDigits() {
        #expect(errorLine { try SourceText.decode([0xC3, 0x05], path: "a.txt") }
            == "a.txt:1:1: error: invalid UTF-8 (byte 0xC3)")
    }
}
