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
        #expect(index.allSatisfy { $0 == "search/manifest.json" || $0.contains(/^search\/immutable\/(shard|union|docs|text-[0-9]+)\.[0-9a-f]{12}\.json$/) })
        #expect(index.count > 10, "the site is sharded")
        // Every file the manifest names is there under the name of its bytes; text files under
        // their group's hash (docs/search-index.md, "Text files").
        let manifest = try #require(JSONSerialization.jsonObject(with: first["search/manifest.json"]!) as? [String: Any])
        let files = try #require(manifest["files"] as? [String: String])
        let perGroup = try #require(manifest["textGroup"] as? Int)
        let texts = index.filter { $0.contains("/text-") }
        for (name, hash) in files where !name.hasPrefix("texts-") {
            let bytes = try #require(first["search/" + IndexFileNames.path(name, hash: hash)], "\(name)")
            #expect(ContentHash.of(bytes) == hash)
        }
        #expect(texts.count > 1)
        #expect(perGroup * perGroup >= texts.count && (perGroup - 1) * (perGroup - 1) < texts.count, "about √T files a group")
        let groups = files.keys.filter { $0.hasPrefix("texts-") }
        #expect(groups.count == (texts.count + perGroup - 1) / perGroup)
        for m in 0..<groups.count {
            let members = (m * perGroup)..<min((m + 1) * perGroup, texts.count), group = try #require(files["texts-\(m)"])
            var h = StableHasher()
            h.combine(UInt64(members.count))
            for n in members {
                let bytes = try #require(first["search/" + IndexFileNames.textPath(n, group: group)], "text-\(n).json")
                h.combine(ContentHash.value(bytes))
            }
            #expect(ContentHash.hex(h.finalize()) == files["texts-\(m)"], "group \(m)'s hash is its files'")
        }
        #expect(Set(files.filter { !$0.key.hasPrefix("texts-") }.values).count + texts.count == index.count - 1)
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
        // And the text files of the group holding the page's text.
        let texts = try #require(manifest["texts"] as? Int), perGroup = try #require(manifest["textGroup"] as? Int)
        let group = 7 / texts / perGroup
        let groupFiles = ((group * perGroup)..<((group + 1) * perGroup)).map { "text-\($0).json" }
        let allowed = Set(shards.flatMap { ["shard-\($0).json", "union-\($0).json"] } + groupFiles)
        let files = try #require(manifest["files"] as? [String: String])
        var paths: [String: String] = [:]
        for (name, hash) in files where !name.hasPrefix("texts-") { paths["search/" + IndexFileNames.path(name, hash: hash)] = name }
        for file in after.keys {
            guard let match = file.firstMatch(of: /^search\/immutable\/text-([0-9]+)\.[0-9a-f]{12}\.json$/) else { continue }
            paths[file] = "text-\(match.1).json"
        }
        var renamedNames: Set<String> = []
        for file in renamed {
            let name = paths[file]
            #expect(name.map(allowed.contains) == true, "\(file) (\(name ?? "-")) renamed")
            if let name { renamedNames.insert(name) }
        }
        let textCount = after.keys.filter { $0.contains("/text-") }.count
        #expect(renamedNames.isSuperset(of: groupFiles.filter { Int($0.dropFirst(5).dropLast(5))! < textCount }))
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

    @Test func moreRulesThanCloudflarePagesReadsIsAWarningNamingTheAssetsFolder() throws {
        var files = ["Content/notes/notes.txt": "One\nTwo\n"]
        let site = try TestSite(files)
        defer { site.delete() }
        let few = SiftCLI.run(["build"], in: site.root)
        #expect(few.status == 0 && !few.stderr.contains("_headers"), "\(few.stderr)")
        for i in 0..<100 { files["Templates/assets/icons/icon-\(i).svg"] = "<svg id=\"\(i)\"/>\n" }
        for (path, text) in files { try site.write(path, text) }
        let many = SiftCLI.run(["build"], in: site.root)
        #expect(many.status == 0)
        let rules = String(decoding: try #require(site.snapshot()["_headers"]), as: UTF8.self).components(separatedBy: "Cache-Control:").count - 1
        #expect(rules > HeadersFile.cloudflareRuleLimit)
        #expect(many.stderr.contains("Templates/assets: warning: _headers has \(rules) rules, one for each immutable asset: Cloudflare Pages reads at most 100"), "\(many.stderr)")
        // Said again by a build with nothing to do, and failing --strict.
        #expect(SiftCLI.run(["build"], in: site.root).stderr.contains("Templates/assets: warning: _headers has \(rules) rules"))
        #expect(site.build(["--strict"]).status != 0)
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

    /// The replacement that renames the imports: every occurrence, at either end, side by side,
    /// and none in bytes shorter than what is replaced.
    @Test func importsAreReplacedWhereverTheyStand() {
        func replaced(_ text: String) -> String {
            String(decoding: SiteAssets.replacing(Array("\"./a.js\"".utf8), with: Array("\"./a.0123.js\"".utf8), in: Array(text.utf8)), as: UTF8.self)
        }
        #expect(replaced("\"./a.js\"") == "\"./a.0123.js\"")
        #expect(replaced("import{x}from\"./a.js\";\"./a.js\"\"./a.js\"") == "import{x}from\"./a.0123.js\";\"./a.0123.js\"\"./a.0123.js\"")
        #expect(replaced("\"./a.jsx\" \"./b.js\" ./a.js") == "\"./a.jsx\" \"./b.js\" ./a.js")
        #expect(replaced("\"./a") == "\"./a")
        #expect(replaced("") == "")
    }

    /// A name's hash is the first 12 of the 64-bit hash's 16 lowercase hex digits, leading zeros kept.
    @Test func aHashInANameIsItsFirstTwelveHexDigits() {
        #expect(ContentHash.hex(0) == "000000000000")
        #expect(ContentHash.hex(0x0123_4567_89AB_CDEF) == "0123456789ab")
        #expect(ContentHash.hex(UInt64.max) == "ffffffffffff")
        var g = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let value = UInt64.random(in: 0...UInt64.max, using: &g) >> UInt64.random(in: 0...63, using: &g)
            let digits = String(value, radix: 16)
            #expect(ContentHash.hex(value) == String((String(repeating: "0", count: 16 - digits.count) + digits).prefix(12)))
        }
    }
}
