/// Builds the template context of each kind of page: the names docs/templates.md lists.
struct PageContext: Sendable {
    let site: Site
    let urls: SiteURLs
    /// Each asset's template name and immutable URL (`SiteAssets.templateNames`).
    let assets: [String: String]
    /// The site, nav, assets and search parts, the same on every page of a collection ("" for
    /// pages of none), built once with their hash rather than for each of 100k pages.
    private let shared: [String: (fields: Fields, hash: UInt64)]

    init(site: Site, urls: SiteURLs, assets: [String: String]) {
        self.site = site
        self.urls = urls
        self.assets = assets
        var shared: [String: (Fields, UInt64)] = [:]
        for name in [""] + site.collections.map(\.name) {
            let f = Self.sharedFields(site: site, urls: urls, assets: assets, collection: name, relative: "")
            var h = StableHasher()
            h.combine(.map(f))
            shared[name] = (f, h.finalize())
        }
        self.shared = shared
    }

    static func sharedFields(site: Site, urls: SiteURLs, assets: [String: String], collection: String, relative: String) -> Fields {
        let s = site.settings
        var f = Fields()
        f["site"] = ["title": .string(s.title), "language": .string(s.language), "rtl": .bool(s.isRightToLeft), "base": .string(urls.basePath), "url": .string(urls.absoluteBase)]
        var nav: [Value] = site.collections.map { c in
            ["title": .string(c.title), "url": .string(urls.link(SiteURLs.collection(c.name))), "current": .bool(c.name == collection)]
        }
        nav += site.pages.map { p in
            ["title": .string(p.title), "url": .string(urls.link("\(p.slug)/")), "current": .bool(relative == "\(p.slug)/")]
        }
        f["nav"] = .list(nav)
        var assetFields = Fields()
        for name in assets.keys.sorted() { assetFields[name] = .string(urls.link(assets[name]!)) }
        f["assets"] = .map(assetFields)
        let search = s.search
        f["search"] = [
            "index": .string(urls.link("search/manifest.json")),
            "collection": .string(collection),
            "placeholder": .string(search.placeholder),
            "instant": .bool(search.instant),
            "dim_background": .bool(search.dimBackground),
            "hide_navigation": .bool(search.hideNavigation),
            "style": .string(search.style.rawValue),
            "cancel_text": .string(search.cancelText),
            "scope_bar": .string(search.scopeBar.rawValue),
        ]
        return f
    }

    static let kindFlags = ["home", "list", "detail", "page", "404"].map { ($0, "is_\($0)") }

    /// The part every page shares: site, page, nav, assets, search.
    func base(kind: String, title: String, url relative: String, collection: String = "") -> Fields {
        // A standalone page marks itself current in the nav, so it gets its own.
        var f = kind == "page"
            ? Self.sharedFields(site: site, urls: urls, assets: assets, collection: collection, relative: relative)
            : shared[collection]?.fields ?? Self.sharedFields(site: site, urls: urls, assets: assets, collection: collection, relative: relative)
        var page: Fields = ["title": .string(title), "url": .string(urls.link(relative)), "kind": .string(kind),
                            "permalink": .string(urls.absoluteBase.isEmpty ? "" : urls.absoluteBase + relative)]
        for (k, flag) in Self.kindFlags { page[flag] = .bool(k == kind) }
        f["page"] = .map(page)
        return f
    }

    /// A collection as list and detail pages show it; computed once per collection, it counts every item.
    func collectionValue(_ c: SiteCollection) -> Value {
        var counts: [String: Int] = [:]
        for i in c.items.indices { if let s = c.scope(at: i) { counts[s, default: 0] += 1 } }
        return [
            "name": .string(c.name), "title": .string(c.title),
            "url": .string(urls.link(SiteURLs.collection(c.name))),
            "count": .number(String(c.items.count)),
            "has_scopes": .bool(!c.settings.scopes.isEmpty),
            "scopes": .list(c.settings.scopes.map { ["name": .string($0), "count": .number(String(counts[$0] ?? 0))] }),
        ]
    }

    /// One row of a list page.
    func row(_ item: Item, in c: SiteCollection) -> Value {
        let details: [Value] = c.settings.listFields.compactMap { name in
            guard let v = item.fields.value(at: name) else { return nil }
            let shown = display(v, field: name, in: c)
            return shown.isEmpty ? nil : ["name": .string(name), "value": .string(shown)]
        }
        return [
            "title": .string(item.title), "url": .string(urls.link(SiteURLs.item(c.name, item.slug))),
            "slug": .string(item.slug), "scope": .string(c.scope(of: item) ?? ""),
            "detail": .string(details.map { $0.value(at: "value")?.text ?? "" }.joined(separator: " · ")),
            "details": .list(details),
        ]
    }

    func home(introHTML: String) -> Value {
        var f = base(kind: "home", title: site.settings.title, url: "")
        f["intro"] = .string(introHTML)
        f["collections"] = .list(site.collections.map { c in
            ["name": .string(c.name), "title": .string(c.title), "url": .string(urls.link(SiteURLs.collection(c.name))), "count": .number(String(c.items.count))]
        })
        f["pages"] = .list(site.pages.map { ["title": .string($0.title), "url": .string(urls.link("\($0.slug)/"))] })
        f["has_collections"] = .bool(!site.collections.isEmpty)
        f["has_pages"] = .bool(!site.pages.isEmpty)
        return .map(f)
    }

    func list(_ c: SiteCollection, _ collectionValue: Value, page n: Int, of total: Int, items: ArraySlice<Item>) -> Value {
        var f = base(kind: "list", title: c.title, url: SiteURLs.listPage(c.name, n), collection: c.name)
        f["collection"] = collectionValue
        f["items"] = .list(items.map { row($0, in: c) })
        if total > 1 {
            var p: Fields = ["current": .number(String(n)), "total": .number(String(total))]
            if n > 1 { p["prev_url"] = .string(urls.link(SiteURLs.listPage(c.name, n - 1))) }
            if n < total { p["next_url"] = .string(urls.link(SiteURLs.listPage(c.name, n + 1))) }
            var previous = 0
            p["pages"] = .list(Self.pageLinks(current: n, total: total).map { k in
                defer { previous = k }
                return ["number": .number(String(k)), "url": .string(urls.link(SiteURLs.listPage(c.name, k))),
                        "current": .bool(k == n), "gap_before": .bool(k > previous + 1)]
            })
            f["pagination"] = .map(p)
        }
        return .map(f)
    }

    /// The page numbers a list page links to: the first, the last and those within
    /// `pageLinkRadius` of the current one (a gap of one page filled), so that a list of N pages
    /// costs O(N) links in all, not one link to every page on every page.
    static func pageLinks(current: Int, total: Int) -> [Int] {
        var shown = Set([1, total])
        for k in max(1, current - pageLinkRadius)...min(total, current + pageLinkRadius) { shown.insert(k) }
        for k in shown where shown.contains(k + 2) && !shown.contains(k + 1) { shown.insert(k + 1) }
        return shown.sorted()
    }

    /// How many pages before and after the current one a list page links to.
    static let pageLinkRadius = 2

    /// The key of the parts every page of a collection shares.
    func sharedHash(_ collection: String) -> UInt64 { shared[collection]?.hash ?? 0 }

    /// A detail page's context without its rendered content, built only for a page rendered:
    /// its key comes from the context's inputs (`CollectionStage.pageKey`).
    func detail(_ c: SiteCollection, _ collectionValue: Value, index i: Int) -> Fields {
        let item = c.items[i]
        let rel = SiteURLs.item(c.name, item.slug)
        var f = base(kind: "detail", title: item.title, url: rel, collection: c.name)
        // The header's bar on a detail page searches the whole site, as on every page but a list
        // (docs/search-bar.md); `collection.name` still names the item's collection.
        if case .map(var search)? = f["search"] { search["collection"] = .string(""); f["search"] = .map(search) }
        f["collection"] = collectionValue
        let titleField = c.titleField, slugField = c.settings.slugField ?? "slug"
        let fields: [Value] = item.fields.compactMap { (name, value) in
            guard name != "title", name != "slug", name != titleField, name != slugField else { return nil }
            let shown = display(value, field: name, in: c)
            guard !shown.isEmpty else { return nil }
            return ["name": .string(name), "label": .string(label(name)), "value": .string(shown)]
        }
        var v: Fields = [
            "title": .string(item.title), "url": .string(urls.link(rel)),
            "slug": .string(item.slug), "scope": .string(c.scope(of: item) ?? ""),
            "fields": .list(fields), "date": .string(item.date ?? ""),
        ]
        if i > 0 { v["prev"] = ["title": .string(c.items[i - 1].title), "url": .string(urls.link(SiteURLs.item(c.name, c.items[i - 1].slug)))] }
        if i + 1 < c.items.count { v["next"] = ["title": .string(c.items[i + 1].title), "url": .string(urls.link(SiteURLs.item(c.name, c.items[i + 1].slug)))] }
        f["item"] = .map(v)
        return f
    }

    /// Puts the rendered Markdown into a detail context.
    func withContent(_ fields: Fields, _ html: String) -> Value {
        var f = fields
        guard case .map(var item)? = f["item"] else { return .map(f) }
        item["content"] = .string(html)
        item["has_content"] = .bool(!html.isEmpty)
        f["item"] = .map(item)
        return .map(f)
    }

    func page(_ p: StandalonePage, contentHTML: String) -> Value {
        var f = base(kind: "page", title: p.title, url: "\(p.slug)/")
        f["content"] = .string(contentHTML)
        for (k, v) in p.fields where f[k] == nil { f[k] = v }
        return .map(f)
    }

    func notFound() -> Value {
        .map(base(kind: "404", title: "Page not found", url: "404.html"))
    }

    /// A field as text on a page: lists joined with commas, maps left out.
    func display(_ v: Value) -> String {
        switch v {
        case .list(let l): return l.map(\.text).filter { !$0.isEmpty }.joined(separator: ", ")
        default: return v.text
        }
    }

    /// A field of an item of `c` as text on its pages: lists joined with commas, and so the
    /// values of a facet's text split on `list_separator` (the CSV cell `"Congo, Republic of
    /// the",Gabon` shows as `Congo, Republic of the, Gabon`).
    func display(_ v: Value, field name: String, in c: SiteCollection) -> String {
        if case .list = v { return display(v) }
        guard c.splitsText(of: name) else { return display(v) }
        return c.facetValues(v).joined(separator: ", ")
    }

    /// `list_price` → `List price`.
    func label(_ name: String) -> String {
        var bytes = Array(name.utf8)
        for i in bytes.indices where bytes[i] == 0x5F || bytes[i] == 0x2D { bytes[i] = 0x20 }
        if let first = bytes.first, first < 0x80 {
            if first &- 0x61 < 26 { bytes[0] = first - 0x20 }
            return String(decoding: bytes, as: UTF8.self)
        }
        let spaced = String(decoding: bytes, as: UTF8.self)
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }
}

import Foundation
