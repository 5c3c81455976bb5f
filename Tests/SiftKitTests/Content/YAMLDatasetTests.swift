import Testing
@testable import SiftKit

@Suite struct YAMLDatasetTests {
    private let path = "Content/candies/candies.yml"

    /// Fields from a literal mapping.
    private func fields(_ value: Value) -> Fields { value.fields ?? Fields() }

    private func failure(_ text: String) -> String {
        do {
            _ = try YAMLDataset.records(from: text, path: path)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func blockSequenceOfMappings() throws {
        let yaml = """
            - slug: fudge
              name: Fudge
              price: 2.50
            # a comment between items
            - slug: toffee
              name: Toffee
              tags: [hard, "sweet"]
            """
        #expect(try YAMLDataset.records(from: yaml, path: path) == [
            Record(fields: fields(["slug": "fudge", "name": "Fudge", "price": .number("2.50")]),
                   position: SourcePosition(path: path, line: 1, column: 3)),
            Record(fields: fields(["slug": "toffee", "name": "Toffee", "tags": ["hard", "sweet"]]),
                   position: SourcePosition(path: path, line: 5, column: 3)),
        ])
    }

    @Test func flowSequenceOfMappings() throws {
        #expect(try YAMLDataset.records(from: "[{slug: a}, {slug: b, n: 1}]", path: path) == [
            Record(fields: fields(["slug": "a"]), position: SourcePosition(path: path, line: 1, column: 2)),
            Record(fields: fields(["slug": "b", "n": 1]), position: SourcePosition(path: path, line: 1, column: 13)),
        ])
    }

    @Test func positionsAfterMultiLineValues() throws {
        let yaml = "- note: |\n    one\n    two\n- note: x\n"
        #expect(try YAMLDataset.records(from: yaml, path: path).map(\.position.description)
            == ["\(path):1:3", "\(path):4:3"])
    }

    @Test func sharedDefaultsThroughMergeKeys() throws {
        let yaml = "- &base {category: Chocolate, slug: a}\n- <<: *base\n  slug: b\n"
        #expect(try YAMLDataset.records(from: yaml, path: path).map { Value.map($0.fields) }
            == [["category": "Chocolate", "slug": "a"], ["category": "Chocolate", "slug": "b"]])
    }

    @Test func emptyFileHasNoRecords() throws {
        #expect(try YAMLDataset.records(from: "# no candies yet\n", path: path) == [])
    }

    @Test func emptySequenceHasNoRecords() throws {
        #expect(try YAMLDataset.records(from: "[]", path: path) == [])
    }

    @Test func scalarElementIsAnError() {
        #expect(failure("- slug: a\n- just text\n")
            == "\(path):2:3: error: each item of a YAML dataset must be a mapping of keys to values")
    }

    @Test func listElementIsAnError() {
        #expect(failure("- slug: a\n-\n  - b\n")
            == "\(path):3:3: error: each item of a YAML dataset must be a mapping of keys to values")
    }

    @Test func topLevelMappingIsAnError() {
        #expect(failure("slug: a\nname: A\n")
            == "\(path):1:1: error: a YAML dataset must be a sequence of mappings (one '- key: value' block per item)")
    }

    @Test func syntaxErrorNamesTheFile() {
        #expect(failure("- slug: a\n  name: b: c\n")
            == "\(path):2:10: error: mapping values are not allowed in this context")
    }
}
