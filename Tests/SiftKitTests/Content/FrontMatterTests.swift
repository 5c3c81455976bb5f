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

// MARK: The fast path for `key: "text"` front matter

/// Front matter of `key: "text"` lines skips libyaml; whatever the text, the node (values and
/// every position) is the one libyaml gives, and anything else still goes to libyaml.
@Test func simpleFrontMatterMatchesLibyaml() throws {
    let values = ["Aaivuay Vakoutrarica", "North America", "Côte d'Ivoire", "俄罗斯", "a: b", "# not a comment", "  padded  ",
                  "x", "true", "12", "tab\there", "emoji 😀", "nbsp\u{A0}here", "line\u{2028}sep", "nel\u{85}x", "bom\u{FEFF}x",
                  "back\\slash", "it's", "'single'", "{a}", "[1]", "&anchor", "*alias", "!tag", "%", "@", "`"]
    let keys = ["title", "category", "Title_2", "a-b", "x"]
    var generator = SeededRNG(state: 7)
    var fast = 0
    for _ in 0..<400 {
        var used: [String] = []
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let key = keys.randomElement(using: &generator)!
            used.append(key)
            lines.append("\(key): \"\(values.randomElement(using: &generator)!)\"")
        }
        let yaml = lines.joined(separator: "\n") + "\n"
        let page = "---\n" + yaml + "---\nBody.\n"
        let simple = FrontMatter.simpleMapping(yaml[...], path: "p.md")
        let libyaml = try? YAML.parse(yaml, path: "p.md", firstLine: 2)
        if let simple {
            fast += 1
            #expect(simple == libyaml, "\(yaml)")
            #expect(try FrontMatter.splitNode(page, path: "p.md").node == libyaml)
        } else {
            // Refused: libyaml decides, exactly as before.
            if let libyaml { #expect(try FrontMatter.splitNode(page, path: "p.md").node == libyaml) }
        }
        if Set(used).count < used.count { #expect(simple == nil, "duplicate keys go to libyaml, which reports them") }
    }
    #expect(fast > 100, "the common shape takes the fast path")
    for odd in ["title: plain\n", "title:  \"two spaces\"\n", "title: \"x\" # c\n", "title: \"x\"\r\n", "- \"x\"\n", "a:\n  b: \"x\"\n"] {
        #expect(FrontMatter.simpleMapping(odd[...], path: "p.md") == nil, "\(odd)")
    }
}
