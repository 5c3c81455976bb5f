import Testing
@testable import SiftKit

private func parse(_ text: String) throws -> Value {
    try JSONParser.parse(text, path: "a.json")
}

/// The error line parsing prints, or "no error".
private func errorLine(_ text: String) -> String {
    do {
        _ = try JSONParser.parse(text, path: "Content/a.json")
        return "no error"
    } catch {
        return String(describing: error)
    }
}

struct JSONParserTests {
    @Test func parsesLiterals() throws {
        #expect(try parse("[true, false, null]") == [true, false, nil])
    }

    @Test func keepsNumberLiteralText() throws {
        #expect(try parse("[0, -1, 2.50, 1e3, -0.5E-2, 10E+2]")
            == [.number("0"), .number("-1"), .number("2.50"), .number("1e3"), .number("-0.5E-2"), .number("10E+2")])
    }

    /// A key given twice in one object took the last value without a word, where YAML's is an error.
    @Test func aDuplicateKeyIsAnErrorAtItsSecondUse() throws {
        #expect(errorLine("[{\"name\": \"A\",\n  \"name\": \"B\"}]") == "Content/a.json:2:3: error: duplicate key 'name'")
        #expect(errorLine(#"[{"a": {"name": 1}, "name": 2}]"#) == "no error", "the same key in another object")
    }

    @Test func keepsKeyOrder() throws {
        #expect(try parse(#"{"z": 1, "a": 2, "m": 3}"#).fields?.keys == ["z", "a", "m"])
    }

    @Test func nestsObjectsAsMaps() throws {
        #expect(try parse(#"{"a": {"b": {"c": "deep"}}}"#).value(at: "a.b.c") == "deep")
    }

    @Test func parsesArraysAsLists() throws {
        #expect(try parse(#"{"tags": ["a", [], {}, [1]]}"#) == ["tags": ["a", [], .map(Fields()), [1]]])
    }

    @Test func parsesSimpleEscapes() throws {
        #expect(try parse(#"["\"\\\/\b\f\n\r\t"]"#) == ["\"\\/\u{8}\u{C}\n\r\t"])
    }

    @Test func parsesUnicodeEscape() throws {
        #expect(try parse(#"["caf\u00e9 \u00C9"]"#) == ["café É"])
    }

    @Test func parsesSurrogatePair() throws {
        #expect(try parse(#"["\uD83D\uDE00!"]"#) == ["😀!"])
    }

    @Test func replacesLoneHighSurrogate() throws {
        #expect(try parse(#"["a\uD83Db"]"#) == ["a\u{FFFD}b"])
    }

    @Test func replacesHighSurrogateFollowedByOtherEscape() throws {
        #expect(try parse(#"["\uD83D\u0041"]"#) == ["\u{FFFD}A"])
    }

    @Test func replacesLoneLowSurrogate() throws {
        #expect(try parse(#"["\uDE00"]"#) == ["\u{FFFD}"])
    }

    @Test func parsesEscapedNull() throws {
        #expect(try parse(#"["a\u0000b"]"#) == ["a\u{0}b"])
    }

    @Test func keepsRawUnicode() throws {
        #expect(try parse(#"["Côte d'Ivoire 🍫"]"#) == ["Côte d'Ivoire 🍫"])
    }

    @Test func parsesScalarAtTopLevel() throws {
        #expect(try parse(" \n 42 \r\n") == .number("42"))
    }

    @Test func acceptsNesting512Deep() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try parse(text) != nil)
    }

    @Test func rejectsNesting513Deep() {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(errorLine(text) == "Content/a.json:1:513: error: nesting deeper than 512 levels")
    }

    @Test func rejectsTenThousandArrays() {
        #expect(errorLine(String(repeating: "[", count: 10_000))
            == "Content/a.json:1:513: error: nesting deeper than 512 levels")
    }

    @Test func rejectsTenThousandObjects() {
        #expect(errorLine(String(repeating: #"{"a":"#, count: 10_000))
            == "Content/a.json:1:2561: error: nesting deeper than 512 levels")
    }

    @Test func reportsTrailingCommaInArray() {
        #expect(errorLine("[1, 2,\n]") == "Content/a.json:1:6: error: trailing comma")
    }

    @Test func reportsTrailingCommaInObject() {
        #expect(errorLine(#"{"a": 1,}"#) == "Content/a.json:1:8: error: trailing comma")
    }

    @Test func reportsUnterminatedString() {
        #expect(errorLine(#"["abc"#) == "Content/a.json:1:2: error: unterminated string")
    }

    @Test func reportsStringCutByLineBreakAsUnterminated() {
        #expect(errorLine("{\"a\": \"x,\n \"b\": 1}") == "Content/a.json:1:7: error: unterminated string")
    }

    @Test func reportsUnterminatedStringEndingInBackslash() {
        #expect(errorLine(#"["ab\"#) == "Content/a.json:1:2: error: unterminated string")
    }

    @Test func reportsBadEscape() {
        #expect(errorLine(#"["a\x"]"#) == #"Content/a.json:1:4: error: invalid escape '\x'"#)
    }

    @Test func reportsShortUnicodeEscape() {
        #expect(errorLine(#"["\u12G4"]"#) == #"Content/a.json:1:3: error: invalid \u escape"#)
    }

    @Test func reportsControlCharacterInString() {
        #expect(errorLine("[\"a\tb\"]") == "Content/a.json:1:4: error: control character U+0009 in string")
    }

    @Test func reportsTrailingGarbage() {
        #expect(errorLine("[1]\n  x") == "Content/a.json:2:3: error: unexpected text after the JSON value")
    }

    @Test func reportsUnexpectedEnd() {
        #expect(errorLine("{\"a\": [1,\n") == "Content/a.json:2:1: error: unexpected end of input")
    }

    @Test func reportsEmptyInput() {
        #expect(errorLine("") == "Content/a.json:1:1: error: unexpected end of input")
    }

    @Test func reportsMissingComma() {
        #expect(errorLine("[1 2]") == "Content/a.json:1:4: error: expected ',' or ']', found '2'")
    }

    @Test func reportsMissingColon() {
        #expect(errorLine(#"{"a" 1}"#) == "Content/a.json:1:6: error: expected ':' after the key, found '1'")
    }

    @Test func reportsUnquotedKey() {
        #expect(errorLine("{a: 1}") == "Content/a.json:1:2: error: expected a string key, found 'a'")
    }

    @Test func reportsSingleQuotes() {
        #expect(errorLine("['a']") == "Content/a.json:1:2: error: expected a value, found '''")
    }

    @Test func reportsNonASCIICharacterWithScalarColumn() {
        #expect(errorLine("[\"é\", ü]") == "Content/a.json:1:7: error: expected a value, found 'ü'")
    }

    @Test func reportsLeadingZero() {
        #expect(errorLine("[01]") == "Content/a.json:1:2: error: invalid number")
    }

    @Test func reportsFractionWithoutDigits() {
        #expect(errorLine("[1.]") == "Content/a.json:1:2: error: invalid number")
    }

    @Test func reportsExponentWithoutDigits() {
        #expect(errorLine("[1e+]") == "Content/a.json:1:2: error: invalid number")
    }

    @Test func reportsLoneMinus() {
        #expect(errorLine("[-]") == "Content/a.json:1:2: error: invalid number")
    }

    @Test func reportsPlusSign() {
        #expect(errorLine("[+1]") == "Content/a.json:1:2: error: expected a value, found '+'")
    }

    @Test func reportsMisspelledLiteral() {
        #expect(errorLine("[tru]") == "Content/a.json:1:2: error: invalid literal, expected 'true'")
    }

    @Test func reportsCapitalizedLiteral() {
        #expect(errorLine("[True]") == "Content/a.json:1:2: error: expected a value, found 'T'")
    }

    @Test func reportsNaN() {
        #expect(errorLine("[NaN]") == "Content/a.json:1:2: error: expected a value, found 'N'")
    }
}
