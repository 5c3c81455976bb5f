import Testing
@testable import SiftKit

@Suite struct FrontMatterTests {
    /// The fields as a `Value` so expectations can be written as literals.
    private func split(_ text: String) throws -> (fields: Value, body: String, bodyLine: Int) {
        let parts = try FrontMatter.split(text, path: "Content/candies/fudge.md")
        return (.map(parts.fields), parts.body, parts.bodyLine)
    }

    private func failure(_ text: String) -> String {
        do {
            _ = try split(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func noFrontMatter() throws {
        #expect(try split("# Fudge\n\nSweet.\n") == (.map(Fields()), "# Fudge\n\nSweet.\n", 1))
    }

    @Test func fieldsBodyAndBodyLine() throws {
        #expect(try split("---\ntitle: Fudge\ndraft: true\n---\n# Fudge\n")
            == (["title": "Fudge", "draft": true], "# Fudge\n", 5))
    }

    @Test func emptyFrontMatter() throws {
        #expect(try split("---\n---\nBody") == (.map(Fields()), "Body", 3))
    }

    @Test func commentOnlyFrontMatter() throws {
        #expect(try split("---\n# nothing yet\n---\nBody") == (.map(Fields()), "Body", 4))
    }

    @Test func crlfLineEndings() throws {
        #expect(try split("---\r\ntitle: Fudge\r\nweight: 2\r\n---\r\nBody\r\n")
            == (["title": "Fudge", "weight": 2], "Body\r\n", 5))
    }

    @Test func fencesMayHaveTrailingSpaces() throws {
        #expect(try split("---  \ntitle: x\n--- \t\nBody") == (["title": "x"], "Body", 4))
    }

    @Test func dotsCloseFrontMatter() throws {
        #expect(try split("---\ntitle: x\n...\nBody") == (["title": "x"], "Body", 4))
    }

    @Test func closingLineAtEndOfFile() throws {
        #expect(try split("---\ntitle: x\n---") == (["title": "x"], "", 4))
    }

    @Test func byteOrderMarkBeforeOpeningLine() throws {
        #expect(try split("\u{FEFF}---\ntitle: x\n---\nBody") == (["title": "x"], "Body", 4))
    }

    @Test func onlyTheFirstLineOpens() throws {
        #expect(try split("\n---\ntitle: x\n---\n") == (.map(Fields()), "\n---\ntitle: x\n---\n", 1))
    }

    @Test func openingLineMustBeExactlyThreeDashes() throws {
        #expect(try split("----\ntitle: x\n---\n") == (.map(Fields()), "----\ntitle: x\n---\n", 1))
    }

    @Test func thematicBreakInBodyIsKept() throws {
        #expect(try split("---\na: 1\n---\nOne\n\n---\n\nTwo\n") == (["a": 1], "One\n\n---\n\nTwo\n", 4))
    }

    @Test func unclosed() {
        #expect(failure("---\ntitle: x\n\nBody\n")
            == "Content/candies/fudge.md:1:1: error: front matter opened with --- is never closed")
    }

    @Test func openingLineAloneIsUnclosed() {
        #expect(failure("---") == "Content/candies/fudge.md:1:1: error: front matter opened with --- is never closed")
    }

    @Test func listIsNotAMapping() {
        #expect(failure("---\n- a\n- b\n---\n")
            == "Content/candies/fudge.md:2:1: error: front matter must be a mapping of keys to values")
    }

    @Test func scalarIsNotAMapping() {
        #expect(failure("---\n\njust text\n---\n")
            == "Content/candies/fudge.md:3:1: error: front matter must be a mapping of keys to values")
    }

    @Test func errorOnThirdLineOfFileReportsLineThree() {
        #expect(failure("---\ntitle: x\nslug: a: b\n---\n")
            == "Content/candies/fudge.md:3:8: error: mapping values are not allowed in this context")
    }

    @Test func keyPositionsCountFromTheFile() throws {
        let node = try FrontMatter.splitNode("---\ntitle: x\ndraft: maybe\n---\n", path: "p.md").node
        #expect(node?["draft"]?.position.description == "p.md:3:8")
    }
}
