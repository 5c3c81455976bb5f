import Foundation
import Testing
@testable import SiftKit

/// Every input of Fuzz/corpus/<target>/ (the seeds, and each crash `make fuzz` ever found, saved
/// there once fixed) through the same code its libFuzzer target drives: a regression test per input.
enum FuzzCorpus {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")

    static func inputs(_ target: String) -> [(name: String, text: String)] {
        let folder = root.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
                .map { (name, String(decoding: $0, as: UTF8.self)) }
        }
    }
}

@Test func fuzzCorpusIsCheckedIn() {
    for target in ["FuzzCSV", "FuzzFrontMatter", "FuzzMustache", "FuzzSlug", "FuzzIndex"] {
        #expect(!FuzzCorpus.inputs(target).isEmpty, "Fuzz/corpus/\(target) is empty")
    }
}

@Test func fuzzCorpusCSV() {
    for (_, text) in FuzzCorpus.inputs("FuzzCSV") {
        _ = try? CSVDataset.records(from: text, path: "fuzz.csv")
        _ = try? CSVDataset.records(from: text, path: "fuzz.tsv", separator: "\t")
    }
}

@Test func fuzzCorpusFrontMatter() {
    for (_, text) in FuzzCorpus.inputs("FuzzFrontMatter") {
        _ = try? FrontMatter.split(text, path: "fuzz.md")
        _ = try? YAML.parse(text, path: "fuzz.yml")
    }
}

private struct SelfPartials: PartialResolver {
    let template: MustacheTemplate
    func template(named name: String) throws -> MustacheTemplate? { name.isEmpty ? nil : template }
}

@Test func fuzzCorpusMustache() {
    let inner = Fields([("a", .string("<b>x</b>"))])
    let context = Value.map(Fields([("a", .string("<b>x</b>")), ("list", .list([.string("1"), .map(inner), .bool(true)]))]))
    for (_, text) in FuzzCorpus.inputs("FuzzMustache") {
        guard let template = try? MustacheTemplate(source: text, path: "fuzz.mustache") else { continue }
        _ = try? template.render(context, partials: SelfPartials(template: template))
    }
}

@Test func fuzzCorpusSlug() {
    for (name, text) in FuzzCorpus.inputs("FuzzSlug") {
        let slug = Slug.make(text)
        #expect(Slug.make(slug) == slug, "\(name)")
        #expect(!slug.hasPrefix("-") && !slug.hasSuffix("-"), "\(name)")
    }
}

@Test func fuzzCorpusIndex() throws {
    for (name, text) in FuzzCorpus.inputs("FuzzIndex") {
        let dir = temporaryFolder("sift-fuzz-corpus")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, part) in text.components(separatedBy: "\n--\n").prefix(32).enumerated() {
            try Data(part.utf8).write(to: dir.appendingPathComponent(n == 0 ? "manifest.json" : "shard-\(n - 1).json"))
        }
        guard let index = try? SearchIndex(directory: dir) else { continue }
        for query in ["a", "choc", "chocolatte bar", "ελλ", "zz"] {
            _ = try? index.search(query)
            _ = try? index.search(query, scope: "Hard", limit: 3)
        }
        _ = name
    }
}
