/// Builds the template context of each kind of page: the names SPEC.md's templates use.
struct PageContext: Sendable {
    let site: Site
    let urls: SiteURLs
    let hasTheme: Bool

    /// The part every page shares: site, page, nav, assets, search.
    func base(kind: String, title: String, url relative: String, collection: String = "") -> Fields {
        let s = site.settings
        var f = Fields()
        f["site"] = ["title": .string(s.title), "language": .string(s.language), "base": .string(urls.basePath), "url": .string(urls.absoluteBase)]
        var page: Fields = ["title": .string(title), "url": .string(urls.link(relative)), "kind": .string(kind),
                            "permalink": .string(urls.absoluteBase.isEmpty ? "" : urls.absoluteBase + relative)]
        for k in ["home", "list", "detail", "page", "404"] { page["is_\(k)"] = .bool(k == kind) }
        f["page"] = .map(page)
        var nav: [Value] = site.collections.map { c in
            ["title": .string(c.title), "url": .string(urls.link(SiteURLs.collection(c.name))), "current": .bool(c.name == collection)]
        }
        nav += site.pages.map { p in
            ["title": .string(p.title), "url": .string(urls.link("\(p.slug)/")), "current": .bool(relative == "\(p.slug)/")]
        }
        f["nav"] = .list(nav)
        f["assets"] = [
            "css": .string(urls.link("assets/site.css")),
            "sift_css": .string(urls.link("assets/sift.css")),
            "sift_js": .string(urls.link("assets/sift.js")),
            "theme_css": .string(hasTheme ? urls.link("assets/theme.css") : ""),
        ]
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

    /// A collection as list and detail pages show it; computed once per collection, it counts every item.
    func collectionValue(_ c: SiteCollection) -> Value {
        var counts: [String: Int] = [:]
        for item in c.items { if let s = c.scope(of: item) { counts[s, default: 0] += 1 } }
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
            guard let v = item.fields.value(at: name), !display(v).isEmpty else { return nil }
            return ["name": .string(name), "value": .string(display(v))]
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
            p["pages"] = .list((1...total).map { k in
                ["number": .number(String(k)), "url": .string(urls.link(SiteURLs.listPage(c.name, k))), "current": .bool(k == n)]
            })
            f["pagination"] = .map(p)
        }
        return .map(f)
    }

    func detail(_ c: SiteCollection, _ collectionValue: Value, index i: Int, contentHTML: String) -> Value {
        let item = c.items[i]
        var f = base(kind: "detail", title: item.title, url: SiteURLs.item(c.name, item.slug), collection: c.name)
        f["collection"] = collectionValue
        let hidden: Set<String> = [c.settings.titleField ?? "title", "title", "slug", c.settings.slugField ?? "slug"]
        let fields: [Value] = item.fields.compactMap { (name, value) in
            guard !hidden.contains(name), !display(value).isEmpty else { return nil }
            return ["name": .string(name), "label": .string(label(name)), "value": .string(display(value))]
        }
        var v: Fields = [
            "title": .string(item.title), "url": .string(urls.link(SiteURLs.item(c.name, item.slug))),
            "slug": .string(item.slug), "scope": .string(c.scope(of: item) ?? ""),
            "fields": .list(fields), "content": .string(contentHTML), "has_content": .bool(!contentHTML.isEmpty),
            "date": .string(item.date ?? ""),
        ]
        if i > 0 { v["prev"] = ["title": .string(c.items[i - 1].title), "url": .string(urls.link(SiteURLs.item(c.name, c.items[i - 1].slug)))] }
        if i + 1 < c.items.count { v["next"] = ["title": .string(c.items[i + 1].title), "url": .string(urls.link(SiteURLs.item(c.name, c.items[i + 1].slug)))] }
        f["item"] = .map(v)
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

    /// `list_price` → `List price`.
    func label(_ name: String) -> String {
        let spaced = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }
}

import Foundation
