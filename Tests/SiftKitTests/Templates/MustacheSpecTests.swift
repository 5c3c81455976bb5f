import Foundation
import Testing
@testable import SiftKit

/// Runs the official Mustache spec (github.com/mustache/spec, `specs/*.json`, checked in
/// under Tests/Fixtures/mustache-spec). Lambdas and dynamic names are not supported.
@Suite struct MustacheSpecTests {
    @Test func interpolation() throws { try runSpec("interpolation") }
    @Test func sections() throws { try runSpec("sections") }
    @Test func inverted() throws { try runSpec("inverted") }
    @Test func comments() throws { try runSpec("comments") }
    @Test func partials() throws { try runSpec("partials") }
    @Test func delimiters() throws { try runSpec("delimiters") }
    @Test func inheritance() throws { try runSpec("~inheritance") }

    @Test func specJSONKeepsBooleansApartFromNumbers() throws {
        let value = try SpecJSON.value(from: Data(#"{"t": true, "f": false, "one": 1, "zero": 0, "x": 1.5, "s": "1"}"#.utf8))
        #expect(value.value(at: "t") == .bool(true))
        #expect(value.value(at: "f") == .bool(false))
        #expect(value.value(at: "one") == .number("1"))
        #expect(value.value(at: "zero") == .number("0"))
        #expect(value.value(at: "x") == .number("1.5"))
        #expect(value.value(at: "s") == .string("1"))
    }
}

/// The spec says a missing partial renders as ""; Sift's own resolvers make it an error,
/// so the spec runner supplies an empty template for unknown names.
private struct SpecPartials: PartialResolver {
    var templates: [String: MustacheTemplate]
    func template(named name: String) throws -> MustacheTemplate? {
        try templates[name] ?? MustacheTemplate(source: "", path: name)
    }
}

private struct SpecFile: Decodable {
    struct Case: Decodable {
        var name: String
        var template: String
        var expected: String
        var partials: [String: String]?
        var data: SpecJSON
    }
    var tests: [Case]
}

/// JSON as the spec writes it; decoding keeps `true` a Bool and `1` a number.
private enum SpecJSON: Decodable {
    case value(Value)

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var items: [Value] = []
            while !list.isAtEnd { items.append(try list.decode(SpecJSON.self).wrapped) }
            self = .value(.list(items))
            return
        }
        if let map = try? decoder.container(keyedBy: AnyKey.self) {
            var fields = Fields()
            for key in map.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                fields[key.stringValue] = try map.decode(SpecJSON.self, forKey: key).wrapped
            }
            self = .value(.map(fields))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .value(.null)
        } else if let b = try? single.decode(Bool.self) {
            self = .value(.bool(b))
        } else if let i = try? single.decode(Int.self) {
            self = .value(.number(String(i)))
        } else if let d = try? single.decode(Double.self) {
            self = .value(.number("\(d)"))
        } else {
            self = .value(.string(try single.decode(String.self)))
        }
    }

    var wrapped: Value {
        if case .value(let v) = self { return v }
        return .null
    }

    static func value(from data: Data) throws -> Value {
        try JSONDecoder().decode(SpecJSON.self, from: data).wrapped
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

private func runSpec(_ file: String) throws {
    let data = try Data(contentsOf: Fixtures.url("mustache-spec/\(file).json"))
    let spec = try JSONDecoder().decode(SpecFile.self, from: data)
    var passed = 0
    for test in spec.tests {
        do {
            var templates: [String: MustacheTemplate] = [:]
            for (name, source) in test.partials ?? [:] {
                templates[name] = try MustacheTemplate(source: source, path: name)
            }
            let template = try MustacheTemplate(source: test.template, path: "template")
            let actual = try template.render(test.data.wrapped, partials: SpecPartials(templates: templates))
            if actual == test.expected {
                passed += 1
            } else {
                Issue.record("""
                    \(file) — \(test.name)
                      template: \(test.template.debugDescription)
                      expected: \(test.expected.debugDescription)
                      actual:   \(actual.debugDescription)
                    """)
            }
        } catch {
            Issue.record("\(file) — \(test.name): threw \(error)")
        }
    }
    print("mustache spec \(file): \(passed)/\(spec.tests.count) passed")
}
