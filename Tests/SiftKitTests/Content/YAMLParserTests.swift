import Foundation
import Testing
@testable import SiftKit

@Suite struct YAMLParserTests {
    private func value(_ yaml: String) throws -> Value {
        try YAML.parse(yaml, path: "x.yml").value
    }

    private func failure(_ yaml: String, path: String = "Content/site.yml", firstLine: Int = 1) -> String {
        do {
            _ = try YAML.parse(yaml, path: path, firstLine: firstLine)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    // MARK: Structure

    @Test func blockMapping() throws {
        #expect(try value("title: Candies\ncount: 3\n") == ["title": "Candies", "count": 3])
    }

    @Test func mappingKeepsKeyOrder() throws {
        #expect(try value("z: 1\na: 2\nm: 3").fields?.keys == ["z", "a", "m"])
    }

    @Test func blockSequence() throws {
        #expect(try value("- a\n- b\n") == ["a", "b"])
    }

    @Test func flowStyle() throws {
        #expect(try value("{a: 1, b: [x, 'y', \"z\"], c: {}}") == ["a": 1, "b": ["x", "y", "z"], "c": .map(Fields())])
    }

    @Test func nestedMapsAndLists() throws {
        let yaml = """
            search:
              placeholder: "Search here..."
              instant: true
            markdown: {unsafe: false}
            scopes: [Chocolate, Hard]
            people:
              - name: Ann
                tags: [a, b]
              -
                name: Bo
            """
        #expect(try value(yaml) == [
            "search": ["placeholder": "Search here...", "instant": true],
            "markdown": ["unsafe": false],
            "scopes": ["Chocolate", "Hard"],
            "people": [["name": "Ann", "tags": ["a", "b"]], ["name": "Bo"]],
        ])
    }

    @Test func emptyDocumentIsNull() throws {
        #expect(try value("") == .null)
    }

    @Test func commentsOnlyIsNull() throws {
        #expect(try value("# nothing here\n\n") == .null)
    }

    @Test func explicitSingleDocument() throws {
        #expect(try value("---\na: 1\n...\n") == ["a": 1])
    }

    // MARK: Scalars (YAML 1.2 core schema)

    @Test func quotedNumberStaysString() throws {
        #expect(try value("a: \"3\"\nb: '3'\nc: 3") == ["a": "3", "b": "3", "c": .number("3")])
    }

    @Test func yesStaysStringIn12() throws {
        #expect(try value("[yes, no, on, off, y, n]") == ["yes", "no", "on", "off", "y", "n"])
    }

    @Test func nulls() throws {
        #expect(try value("[~, null, Null, NULL, nULL, '', \"null\"]") == [nil, nil, nil, nil, "nULL", "", "null"])
    }

    @Test func emptyValueIsNull() throws {
        #expect(try value("a:\nb: 1") == ["a": nil, "b": 1])
    }

    @Test func booleans() throws {
        #expect(try value("[true, True, TRUE, false, False, FALSE, tRUE, 'true']")
            == [true, true, true, false, false, false, "tRUE", "true"])
    }

    @Test func integersKeepTheirText() throws {
        #expect(try value("[0, -12, +7, 007, 0x1F, 0o17, 0x, 0o8, 1_000]")
            == [.number("0"), .number("-12"), .number("+7"), .number("007"), .number("0x1F"), .number("0o17"),
                "0x", "0o8", "1_000"])
    }

    @Test func floatsKeepTheirText() throws {
        #expect(try value("[2.50, .5, 1., -1.5e3, 6E-2, .inf, -.Inf, +.INF, .nan, .NaN, 1e, ., 1.2.3, inf]")
            == [.number("2.50"), .number(".5"), .number("1."), .number("-1.5e3"), .number("6E-2"),
                .number(".inf"), .number("-.Inf"), .number("+.INF"), .number(".nan"), .number(".NaN"),
                "1e", ".", "1.2.3", "inf"])
    }

    @Test func strTagForcesString() throws {
        #expect(try value("[!!str 3, !!str true, ! 4, !!int 5, !custom 6]")
            == ["3", "true", "4", .number("5"), .number("6")])
    }

    @Test func literalBlockKeepsNewlines() throws {
        #expect(try value("text: |\n  line one\n  line two\nnext: 1") == ["text": "line one\nline two\n", "next": 1])
    }

    @Test func foldedBlockJoinsLines() throws {
        #expect(try value("text: >-\n  line one\n  line two\n\n  para\n") == ["text": "line one line two\npara"])
    }

    @Test func multiLinePlainAndQuoted() throws {
        #expect(try value("a: one\n  two\nb: \"x\n  y\\tz\"") == ["a": "one two", "b": "x y\tz"])
    }

    @Test func unicodeScalars() throws {
        #expect(try value("name: Côte d'Ivoire 🍫") == ["name": "Côte d'Ivoire 🍫"])
    }

    @Test func numericKeysAreText() throws {
        #expect(try value("1: a\ntrue: b\n~: c").fields?.keys == ["1", "true", "~"])
    }

    // MARK: Anchors and aliases

    @Test func aliasesExpand() throws {
        #expect(try value("base: &b {size: 3, tags: [x]}\ncopy: *b\nname: &n Ann\nwho: *n")
            == ["base": ["size": 3, "tags": ["x"]], "copy": ["size": 3, "tags": ["x"]], "name": "Ann", "who": "Ann"])
    }

    @Test func mergeKeyExplicitKeysWin() throws {
        #expect(try value("- &d {kind: candy, price: 1}\n- <<: *d\n  price: 2\n  name: x")
            == [["kind": "candy", "price": 1], ["kind": "candy", "price": 2, "name": "x"]])
    }

    @Test func unknownAlias() {
        #expect(failure("a: 1\nb: *nope") == "Content/site.yml:2:4: error: unknown alias *nope")
    }

    @Test func aliasInsideItsOwnAnchorIsUnknown() {
        #expect(failure("&a [1, *a]") == "Content/site.yml:1:8: error: unknown alias *a")
    }

    @Test func billionLaughsFailsFast() {
        var yaml = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            let refs = Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
            yaml += "\(name): &\(name) [\(refs)]\n"
        }
        let clock = ContinuousClock()
        var message = ""
        let elapsed = clock.measure { message = failure(yaml, path: "x.yml") }
        #expect(message == "x.yml:7:8: error: YAML expands to more than 1,000,000 nodes (alias bomb?)"
            && elapsed < .seconds(2))
    }

    // MARK: Limits

    /// Sift builds on secondary threads; run where a recursive parser would overflow.
    private func onSmallStack(_ body: @escaping @Sendable () -> String) async -> String {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    @Test func deepFlowNestingIsAnError() async {
        let yaml = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(await onSmallStack { self.failure(yaml) }
            == "Content/site.yml:1:513: error: YAML nests more than 512 levels deep")
    }

    @Test func deepBlockNestingIsAnError() async {
        let yaml = String(repeating: "- ", count: 10_000) + "x"
        #expect(await onSmallStack { self.failure(yaml) }
            == "Content/site.yml:1:1025: error: YAML nests more than 512 levels deep")
    }

    @Test func nestingAtTheLimitParses() async {
        let yaml = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        #expect(await onSmallStack { self.failure(yaml) } == "no error")
    }

    // MARK: Errors

    @Test func mappingValueInPlainScalar() {
        #expect(failure("title: x\nbase_url: /\nsearch: a: b")
            == "Content/site.yml:3:10: error: mapping values are not allowed in this context")
    }

    @Test func badIndentation() {
        #expect(failure("a:\n  b: 1\n c: 2")
            == "Content/site.yml:3:2: error: did not find expected key while parsing a block mapping")
    }

    /// A quote, bracket or brace never closed is named where it opens, where the fix goes: libyaml
    /// finds out at the end of the file (or of the next line), which pointed far from it.
    @Test func unclosedQuote() {
        #expect(failure("a: \"open\nb: 2")
            == "Content/site.yml:1:4: error: a quoted scalar that starts here never ends (found unexpected end of stream)")
        #expect(failure("x: 1\na: 'open\nb: 2\n\nc: 3")
            == "Content/site.yml:2:4: error: a quoted scalar that starts here never ends (found unexpected end of stream)")
    }

    @Test func unclosedFlowSequence() {
        #expect(failure("a: [1, 2\nb: 3")
            == "Content/site.yml:1:4: error: a flow sequence that starts here never ends (did not find expected ',' or ']')")
        #expect(failure("a: {b: 1\nc: 3")
            == "Content/site.yml:1:4: error: a flow mapping that starts here never ends (did not find expected ',' or '}')")
        // Closed, with a fault inside on the bracket's own line: said where libyaml finds it.
        #expect(failure("scopes: [a, \"b\"c, d]")
            == "Content/site.yml:1:16: error: did not find expected ',' or ']' while parsing a flow sequence")
    }

    @Test func tabIndentation() {
        #expect(failure("a:\n\t- b") == "Content/site.yml:2:1: error: tabs are not allowed in YAML indentation; use spaces")
    }

    @Test func controlCharacter() {
        #expect(failure("a: 1\nb\u{1}: 2") == "Content/site.yml:2:2: error: control characters are not allowed")
    }

    @Test func errorColumnCountsScalarsNotBytes() {
        #expect(failure("é🍫: x: y") == "Content/site.yml:1:6: error: mapping values are not allowed in this context")
    }

    @Test func firstLineOffsetsErrors() {
        #expect(failure("a: 1\nb: c: d", path: "Content/page.md", firstLine: 2)
            == "Content/page.md:3:5: error: mapping values are not allowed in this context")
    }

    @Test func secondDocumentIsAnError() {
        #expect(failure("a: 1\n---\nb: 2")
            == "Content/site.yml:2:1: error: a YAML file holds one document, but a second one starts here")
    }

    @Test func collectionKeyIsAnError() {
        #expect(failure("? [a, b]\n: c")
            == "Content/site.yml:1:3: error: a mapping key must be a single value, not a list or mapping")
    }

    @Test func flowMappingKeyIsAnError() {
        #expect(failure("{a: 1}: 2")
            == "Content/site.yml:1:1: error: a mapping key must be a single value, not a list or mapping")
    }

    @Test func duplicateKeyIsAnError() {
        #expect(failure("a: 1\nb: 2\na: 3") == "Content/site.yml:3:1: error: duplicate key 'a'")
    }

    @Test func mergeKeyNeedsMappings() {
        #expect(failure("a: 1\nb:\n  <<: [1]")
            == "Content/site.yml:3:8: error: a merge key (<<) takes a mapping or a list of mappings")
    }

    // MARK: Positions

    @Test func nodePositions() throws {
        let node = try YAML.parse("title: x\nitems:\n  - a\n  - {b: 1}\n", path: "s.yml", firstLine: 5)
        #expect(node.entries.map { "\($0.keyPosition) \($0.key) \($0.node.position)" }
            + (node["items"]?.elements.map(\.position.description) ?? [])
            == ["s.yml:5:1 title s.yml:5:8", "s.yml:6:1 items s.yml:7:3", "s.yml:7:5", "s.yml:8:5"])
    }

    @Test func aliasNodeTakesTheAliasPosition() throws {
        let node = try YAML.parse("a: &x 1\nb: *x", path: "s.yml")
        #expect(node["b"]?.position.description == "s.yml:2:4")
    }

    @Test func emptyDocumentPositionIsFirstLine() throws {
        #expect(try YAML.parse("", path: "p.md", firstLine: 2).position.description == "p.md:2:1")
    }

    @Test func nodeAtDottedPath() throws {
        let node = try YAML.parse("search:\n  style: minimal", path: "site.yml")
        #expect(node.node(at: "search.style")?.value == "minimal")
    }

    // MARK: Settings helper

    @Test func parseMappingGivesValuePositionsByDottedPath() throws {
        let parsed = try YAML.parseMapping("title: Sift\nsearch:\n  instant: true\n", path: "site.yml")
        #expect(parsed.positions.mapValues(\.description)
            == ["title": "site.yml:1:8", "search": "site.yml:3:3", "search.instant": "site.yml:3:12"])
    }

    @Test func parseMappingListsKeysThreeLevelsDeep() throws {
        let parsed = try YAML.parseMapping("search:\n  instant:\n    x:\n      y:\n        z: 1\n", path: "site.yml")
        #expect(parsed.keys.keys.sorted() == ["search", "search.instant", "search.instant.x"])
        #expect(SettingsKeys.site.warnings(parsed.keys).map(\.line) == ["site.yml:3:5: warning: unknown key 'search.instant.x'"])
    }

    @Test func parseMappingOfEmptyFile() throws {
        #expect(try YAML.parseMapping("# only a comment\n", path: "site.yml").fields == Fields())
    }

    @Test func parseMappingRejectsAList() {
        var message = ""
        do { _ = try YAML.parseMapping("- a", path: "site.yml") } catch { message = "\(error)" }
        #expect(message == "site.yml:1:1: error: expected a mapping of keys to values")
    }
}
