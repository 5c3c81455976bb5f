import Foundation
import Testing
@testable import SiftKit

/// docs/templates.md names every variable each template gets: each top-level name of a page's
/// context and each name one level below it (`site.title`, `items[].scope`) appears in the
/// template's section or in "Every page", written out (`site.title`) or in the row of its parent.
@Suite struct TemplateReferenceTests {
    static let reference = ReferenceDoc(name: "templates.md")

    /// A site with every kind of page, scopes, list fields, pagination and a theme.
    static func contexts() throws -> [(template: String, context: Value)] {
        let site = try TestSite([
            "Content/site.yml": "title: T\nbase_url: https://example.org/docs/\ntheme:\n  bar_tint: \"#000\"\n",
            "Content/index.md": "Hello.\n",
            "Content/about.md": "---\ntitle: About\n---\nText.\n",
            "Content/candies/candies.csv": "name,category,price\nBar,Chocolate,2\nCane,Hard,1\nFudge,Other,3\n",
            "Content/candies/collection.yml": "title_field: name\nscope_field: category\nscopes: [Chocolate, Hard, Other]\nlist_fields: [category, price]\nper_page: 2\n",
            "Content/candies/bar.md": "---\ndate: 2026-02-14\n---\nA bar.\n",
        ])
        let loaded = try SiteLoader(root: site.root, displayRoot: ".").load()
        let assets = try SiteAssets(site: loaded, siteFolder: site.root)
        let context = PageContext(site: loaded, urls: SiteURLs(settings: loaded.settings), assets: assets.templateNames())
        let candies = try #require(loaded.collections.first)
        let collection = context.collectionValue(candies)
        let detail = context.detail(candies, collection, index: 1)
        return [
            ("home.mustache", context.home(introHTML: "<p>Hello.</p>")),
            ("list.mustache", context.list(candies, collection, page: 1, of: 2, items: candies.items.prefix(2))),
            ("detail.mustache", context.withContent(detail, "<p>A bar.</p>")),
            ("page.mustache", context.page(try #require(loaded.pages.first), contentHTML: "<p>Text.</p>")),
            ("404.mustache", context.notFound()),
        ]
    }

    /// `name` and `name.key` (`name[].key` for a list of maps) of every name in the context.
    static func paths(_ context: Value) -> [(parent: String, key: String?)] {
        guard case .map(let fields) = context else { return [] }
        var out: [(String, String?)] = []
        for (name, value) in fields {
            out.append((name, nil))
            switch value {
            case .map(let inner):
                for (key, _) in inner { out.append((name, key)) }
            case .list(let items):
                var keys: [String] = []
                for case .map(let inner) in items { for (key, _) in inner where !keys.contains(key) { keys.append(key) } }
                out += keys.map { (name, $0) }
            default:
                break
            }
        }
        return out
    }

    /// Whether the text documents `parent.key`: written out, or `key` as a word on a line that
    /// names `parent`.
    static func documents(_ text: String, _ parent: String, _ key: String?) -> Bool {
        guard let key else { return text.contains("`\(parent)`") || text.contains("`\(parent).") || text.contains("`\(parent)[]") }
        if text.contains("`\(parent).\(key)`") || text.contains("`\(parent)[].\(key)`") { return true }
        let word = try! NSRegularExpression(pattern: "(^|[^a-z_])\(NSRegularExpression.escapedPattern(for: key))([^a-z_]|$)")
        return text.split(separator: "\n").contains { line in
            (line.contains("`\(parent)`") || line.contains("`\(parent)[]")) && word.firstMatch(in: String(line), range: NSRange(line.startIndex..., in: line)) != nil
        }
    }

    @Test func everyVariableOfEveryTemplateIsDocumented() throws {
        let everyPage = try Self.reference.section("The context").components(separatedBy: "\n### ")
        let shared = everyPage.first { $0.hasPrefix("Every page") } ?? ""
        for (template, context) in try Self.contexts() {
            let own = everyPage.first { $0.hasPrefix(template) } ?? ""
            #expect(!own.isEmpty, "docs/templates.md has no section '### \(template)'")
            for (parent, key) in Self.paths(context) where !Self.documents(own, parent, key) && !Self.documents(shared, parent, key) {
                Issue.record("docs/templates.md, \(template): `\(parent)\(key.map { "." + $0 } ?? "")` is not documented")
            }
        }
    }
}
