import Foundation
import Testing
@testable import SiftKit

/// Files a page or the index names carry their content's hash (docs/deploy.md, "Immutable
/// names"): the same content gets the same names, and an edit renames only what it changed.
struct ImmutableNamesTests {
    /// A site large enough to shard: 400 pages of 40 random six-letter words each.
    static func shardedSite() throws -> (TestSite, bodies: [[String]]) {
        var rng = SeededRNG(state: 17)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let bodies = (0..<400).map { _ in (0..<40).map { _ in String((0..<6).map { _ in letters.randomElement(using: &rng)! }) } }
        var files = ["Content/notes/notes.txt": (0..<400).map { "Note \($0)" }.joined(separator: "\n") + "\n",
                     "Templates/assets/extra.css": "body{margin:0}\n"]
        for (i, words) in bodies.enumerated() { files["Content/notes/note-\(i).md"] = words.joined(separator: " ") + "\n" }
        return (try TestSite(files), bodies)
    }

    func build(_ site: TestSite, into output: URL, _ extra: [String] = []) throws -> [String: Data] {
        let outcome = site.build(["--output", output.path] + extra)
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return site.snapshot(of: output)
    }

    @Test func twoCleanBuildsGiveTheSameNamesAndBytes() throws {
        let (site, _) = try Self.shardedSite()
        defer { site.delete() }
        let first = try build(site, into: site.root.appendingPathComponent("one"), ["--clean"])
        let second = try build(site, into: site.root.appendingPathComponent("two"), ["--clean"])
        #expect(first == second)
        let index = first.keys.filter { $0.hasPrefix("search/") }.sorted()
        #expect(index.allSatisfy { $0 == "search/manifest.json" || $0.contains(/^search\/immutable\/(shard|union|docs|text|text-names)\.[0-9a-f]{12}\.json$/) })
        #expect(index.count > 10, "the site is sharded")
        // Every file the manifest names is there under the name of its bytes; text files are
        // named by the tables it names (docs/search-index.md, "Text files").
        let manifest = try #require(JSONSerialization.jsonObject(with: first["search/manifest.json"]!) as? [String: Any])
        let files = try #require(manifest["files"] as? [String: String])
        var texts: [String: String] = [:]
        for (name, hash) in files {
            let bytes = try #require(first["search/" + IndexFileNames.path(name, hash: hash)], "\(name)")
            #expect(ContentHash.of(bytes) == hash)
            if name.hasPrefix("text-names-") { texts.merge(try #require(JSONSerialization.jsonObject(with: bytes) as? [String: String])) { $1 } }
        }
        let tables = files.keys.filter { $0.hasPrefix("text-names-") }
        let perTable = try #require(manifest["textNames"] as? Int)
        #expect(texts.count > 1 && texts.keys.allSatisfy { files[$0] == nil })
        #expect(perTable * perTable >= texts.count && (perTable - 1) * (perTable - 1) < texts.count, "about √T names a table")
        #expect(tables.count == (texts.count + perTable - 1) / perTable)
        for (name, hash) in texts {
            let bytes = try #require(first["search/" + IndexFileNames.path(name, hash: hash)], "\(name)")
            #expect(ContentHash.of(bytes) == hash)
        }
        #expect(Set(files.values).count + Set(texts.values).count == index.count - 1)
    }

    @Test func changingOnePageRenamesOnlyThePageItsShardsAndTheManifest() throws {
        let (site, bodies) = try Self.shardedSite()
        defer { site.delete() }
        let before = try build(site, into: site.output)
        var words = bodies[7]
        let removed = words[3]
        words[3] = "quokka"
        try site.write("Content/notes/note-7.md", words.joined(separator: " ") + "\n")
        let after = try build(site, into: site.output)

        let changed = Set(after.keys.filter { before[$0] != after[$0] })
        let renamed = Set(after.keys.filter { before[$0] == nil })
        let manifest = try #require(JSONSerialization.jsonObject(with: after["search/manifest.json"]!) as? [String: Any])
        let bounds = try #require(manifest["bounds"] as? [Int])
        let oldManifest = try #require(JSONSerialization.jsonObject(with: before["search/manifest.json"]!) as? [String: Any])
        #expect(oldManifest["bounds"] as? [Int] == bounds, "an edit of a few bytes cuts the shards where they were")
        // The shards of the words that came and went: their own and their trigrams'.
        var shards = Set<Int>()
        for word in [removed, "quokka"] {
            let points = Array(word.unicodeScalars).map(String.init)
            for offset in 0...max(0, points.count - 3) {
                let key = points[offset..<min(points.count, offset + 3)].joined()
                shards.insert(IndexFormat.shard(ofBucket: IndexFormat.bucket(ofKey: key), bounds: bounds))
            }
        }
        // And the text file holding the page's text, and the table naming it.
        let texts = try #require(manifest["texts"] as? Int), tables = try #require(manifest["textNames"] as? Int)
        let allowed = Set(shards.flatMap { ["shard-\($0).json", "union-\($0).json"] } + ["text-\(7 / texts).json", "text-names-\(7 / texts / tables).json"])
        var files = try #require(manifest["files"] as? [String: String])
        for (name, hash) in files where name.hasPrefix("text-names-") {
            let table = try #require(after["search/" + IndexFileNames.path(name, hash: hash)])
            files.merge(try #require(JSONSerialization.jsonObject(with: table) as? [String: String])) { $1 }
        }
        var renamedNames: Set<String> = []
        for file in renamed {
            let names = files.filter { "search/" + IndexFileNames.path($0.key, hash: $0.value) == file }.keys
            #expect(!names.isEmpty && names.allSatisfy(allowed.contains), "\(file) (\(names.sorted())) renamed")
            renamedNames.formUnion(names)
        }
        #expect(renamedNames.isSuperset(of: ["text-\(7 / texts).json", "text-names-\(7 / texts / tables).json"]))
        #expect(changed.subtracting(renamed) == ["search/manifest.json", "notes/note-7/index.html"])
    }

    @Test func anEditedAssetGetsANewNameThatEveryPageLinks() throws {
        let (site, _) = try Self.shardedSite()
        defer { site.delete() }
        let layout = "{{< layout}}{{$ head}}<link rel=\"stylesheet\" href=\"{{assets.extra_css}}\">{{/ head}}{{/ layout}}"
        try site.write("Templates/detail.mustache", layout.replacingOccurrences(of: "{{/ layout}}", with: "{{$ main}}{{item.title}}{{/ main}}{{/ layout}}"))
        let before = try build(site, into: site.output)
        let oldName = try #require(before.keys.first { $0.contains(/^assets\/extra\.[0-9a-f]{12}\.css$/) })
        try site.write("Templates/assets/extra.css", "body{margin:1px}\n")
        let after = try build(site, into: site.output)
        let newName = try #require(after.keys.first { $0.contains(/^assets\/extra\.[0-9a-f]{12}\.css$/) })
        #expect(newName != oldName)
        #expect(after[newName] == Data("body{margin:1px}\n".utf8))
        #expect(after["assets/extra.css"] == Data("body{margin:1px}\n".utf8), "the file keeps its own name too")
        let page = String(decoding: try #require(after["notes/note-3/index.html"]), as: UTF8.self)
        #expect(page.contains("href=\"/\(newName)\""))
        let headers = String(decoding: try #require(after["_headers"]), as: UTF8.self)
        #expect(headers.contains("/\(newName)\n  Cache-Control: public, max-age=31536000, immutable\n"))
        #expect(headers.contains("/search/immutable/*\n  Cache-Control: public, max-age=31536000, immutable\n"))
        #expect(headers.contains("/search/manifest.json\n  Cache-Control: public, max-age=0, must-revalidate\n"))
    }

    @Test func theImmutableModulesImportOneAnotherByTheirImmutableNames() throws {
        let (site, _) = try Self.shardedSite()
        defer { site.delete() }
        let built = try build(site, into: site.output)
        let script = try #require(built.keys.first { $0.contains(/^assets\/sift\.[0-9a-f]{12}\.js$/) })
        #expect(String(decoding: built["index.html"]!, as: UTF8.self).contains("src=\"/\(script)\""))
        let modules = built.keys.filter { $0.contains(/^assets\/sift[a-z-]*\.[0-9a-f]{12}\.js$/) }
        #expect(modules.count == SiteAssets.modules.count)
        for module in modules {
            let text = String(decoding: built[module]!, as: UTF8.self)
            let imports = text.matches(of: /"\.\/(sift[a-z-]*\.js)"/).map { String($0.output.1) }
            for name in imports {
                #expect(name.contains(/\.[0-9a-f]{12}\.js$/), "\(module) imports \(name)")
                #expect(built["assets/" + name] != nil, "\(module) imports \(name), which is not there")
            }
        }
        let core = try #require(modules.first { $0.hasPrefix("assets/sift-core.") })
        #expect(String(decoding: built[script]!, as: UTF8.self).contains("from\"./\(core.dropFirst("assets/".count))\""))
    }
}
