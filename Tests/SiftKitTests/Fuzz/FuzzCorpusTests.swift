import Foundation
import Testing
@testable import SiftKit

/// Every input of Fuzz/corpus/<target>/ (the seeds, and each crash `make fuzz` ever found, saved
/// there once fixed) through the same code its libFuzzer target drives: a regression test per input.
enum FuzzCorpus {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")

    /// FuzzMustache's output limit: a page's 256 MB (Tests/hardening: test_limits.py) takes a
    /// debug or ASan build longer than libFuzzer's 10 s timeout to write.
    static let mustacheOutput = 1 << 20

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
    for target in ["FuzzCSV", "FuzzFrontMatter", "FuzzMustache", "FuzzSlug", "FuzzIndex", "FuzzSettings", "FuzzHTTP", "FuzzTokenizer"] {
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
        _ = try? template.renderUTF8(context, partials: SelfPartials(template: template), stepLimit: MustacheRenderer.maxSteps, outputLimit: FuzzCorpus.mustacheOutput)
    }
}

@Test func fuzzCorpusSlug() {
    for (name, text) in FuzzCorpus.inputs("FuzzSlug") {
        let slug = Slug.make(text)
        #expect(Slug.make(slug) == slug, "\(name)")
        #expect(!slug.hasPrefix("-") && !slug.hasSuffix("-"), "\(name)")
    }
}

/// FuzzIndex's JSON inputs (manifest, then shards); its other inputs are choices for the
/// generator in Fuzz/Sources/FuzzIndex, so a crash found through one is kept here as the JSON
/// files it made.
@Test func fuzzCorpusIndex() throws {
    for (name, text) in FuzzCorpus.inputs("FuzzIndex") where text.hasPrefix("{") {
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

@Test func fuzzCorpusSettings() {
    for (name, text) in FuzzCorpus.inputs("FuzzSettings") {
        guard let decoded = try? SourceText.decode(Array(text.utf8), path: "Content/site.yml"),
              let (fields, positions, keys) = try? YAML.parseMapping(decoded, path: "Content/site.yml") else { continue }
        if let site = try? SiteSettings(fields: fields, path: "Content/site.yml", positions: positions) {
            #expect(site.basePath.utf8.first == UInt8(ascii: "/") && site.basePath.utf8.last == UInt8(ascii: "/"), "\(name)")
            _ = site.absoluteBase
        }
        _ = SettingsKeys.site.warnings(keys)
        _ = try? CollectionSettings(fields: fields, path: "Content/c/collection.yml", positions: positions)
        _ = SettingsKeys.collection.warnings(keys)
    }
}

@Test func fuzzCorpusHTTP() throws {
    let root = temporaryFolder("sift-fuzz-http")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("candies/caramel"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    for file in ["index.html", "404.html", "candies/index.html", "candies/caramel/index.html", "site.css"] {
        try Data("<!doctype html><title>x</title>".utf8).write(to: root.appendingPathComponent(file))
    }
    try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("outside").path, withDestinationPath: "/etc")
    let site = StaticSite(root: root, live: nil)
    let realRoot = try #require(StaticSite.realPath(root.path))
    for (name, text) in FuzzCorpus.inputs("FuzzHTTP") {
        var buffer = Array(text.utf8)
        for _ in 0..<16 {
            guard case .request(let request, let consumed) = HTTPParser.parse(buffer) else { break }
            #expect(consumed > 0 && consumed <= buffer.count, "\(name)")
            if case .file(let file) = site.resolve(String(request.target.prefix { $0 != "?" && $0 != "#" })) {
                #expect(StaticSite.isInside(file, realRoot), "\(name): \(request.target)")
            }
            if case .response(let response) = site.reply(to: request) { _ = response.serialized(keepAlive: request.keepAlive) }
            // As the target does: every header value as a date, an entity tag and an encoding list.
            for (_, value) in request.headers {
                _ = HTTPDate.parse(value)
                _ = StaticSite.etagMatches(value, "\"1f-5e\"")
                _ = StaticSite.accepts("gzip", value)
            }
            buffer.removeFirst(consumed)
        }
    }
}

/// FuzzTokenizer's inputs as bodies, written into an index and read back: every term of 3 or
/// more code points the folded body holds finds the item.
@Test func fuzzCorpusTokenizer() throws {
    for (name, body) in FuzzCorpus.inputs("FuzzTokenizer") {
        var builder = SearchIndexBuilder(shardThreshold: 0, shardTarget: 200)
        builder.addCollection(SearchCollectionInfo(name: "c", title: "C"))
        builder.add(SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "item", title: "item", url: "c/item/",
                                                             fields: [("title", "item")], body: body)))
        var files: [String: Any] = [:]
        for (file, bytes) in try builder.render(baseURL: "/") { files[file] = try JSONSerialization.jsonObject(with: Data(bytes)) }
        let index = try SearchIndex(parsedFiles: files)
        let tokens = Fold.fold(body).unicodeScalars.split(whereSeparator: IndexFormat.isSpaceScalar)
        for token in tokens where token.count >= 3 {
            let term = String(String.UnicodeScalarView(token))
            guard Fold.terms(term) == [term] else { continue }
            #expect(try index.search(term).results.map(\.slug) == ["item"], "\(name): “\(term)”")
        }
    }
}
