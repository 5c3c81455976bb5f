import Foundation

/// One item found by a search.
public struct SearchResult: Sendable, Equatable {
    /// How an item matched: every term in a searched field, some term only in the body, every
    /// term but one, or by typo tolerance on the title.
    public enum Match: String, Sendable { case field, body, partial, fuzzy }

    public var collection: String
    public var slug: String
    public var title: String
    /// The item's URL with the site's base path, e.g. "/candies/chocolate-bar/".
    public var url: String
    public var scope: String?
    public var match: Match
    /// A body match's excerpt: strings whose odd-numbered ones (1, 3, …) are marked terms; nil
    /// for other matches or when not asked for (docs/search-index.md, "Excerpts").
    public var excerpt: [String]? = nil
    /// The sections that hold the terms, best first; nil when excerpts were not asked for.
    public var sections: [SearchSection]? = nil
}

/// A section of a result's page that holds the query's terms: its heading and its anchor.
public struct SearchSection: Sendable, Equatable {
    public var title: String
    /// The result's URL and the heading's anchor, e.g. "/candies/caramel/#firm-ball".
    public var url: String
    /// The section's own excerpt, as `SearchResult.excerpt`.
    public var excerpt: [String]
}

/// The answer to a query: the matches in rank order, `total` counted before any limit.
public struct SearchResponse: Sendable, Equatable {
    public var query: String
    public var scope: String
    public var total: Int
    public var results: [SearchResult]
    /// Each facet's values with their counts (docs/search.md), in the index’s order.
    public var facets: [FacetCounts] = []

    /// One facet field's values and how many matches each would leave.
    public struct FacetCounts: Sendable, Equatable {
        public var field: String
        public var values: [(value: String, count: Int)]

        public static func == (a: FacetCounts, b: FacetCounts) -> Bool {
            a.field == b.field && a.values.map(\.value) == b.values.map(\.value) && a.values.map(\.count) == b.values.map(\.count)
        }
    }

    /// The JSON that `sift search --json` prints (docs/cli.md), without a trailing newline.
    public func json() -> String {
        var j = JSONWriter()
        j.raw("{"); j.key("query"); j.string(query)
        j.raw(","); j.key("scope"); j.string(scope)
        j.raw(",\"total\":\(total),\"facets\":{")
        for (i, f) in facets.enumerated() {
            if i > 0 { j.raw(",") }
            j.key(f.field); j.raw("{")
            for (k, v) in f.values.enumerated() {
                if k > 0 { j.raw(",") }
                j.key(v.value); j.raw(String(v.count))
            }
            j.raw("}")
        }
        j.raw("},\"results\":[")
        for (i, r) in results.enumerated() {
            if i > 0 { j.raw(",") }
            j.raw("{"); j.key("collection"); j.string(r.collection)
            j.raw(","); j.key("slug"); j.string(r.slug)
            j.raw(","); j.key("title"); j.string(r.title)
            j.raw(","); j.key("url"); j.string(r.url)
            j.raw(","); j.key("scope"); j.optionalString(r.scope)
            j.raw(","); j.key("match"); j.string(r.match.rawValue)
            if let sections = r.sections {
                j.raw(","); j.key("excerpt")
                if let excerpt = r.excerpt { j.strings(excerpt) } else { j.raw("null") }
                j.raw(",\"sections\":[")
                for (k, s) in sections.enumerated() {
                    j.raw(k > 0 ? ",{" : "{"); j.key("title"); j.string(s.title)
                    j.raw(","); j.key("url"); j.string(s.url)
                    j.raw(","); j.key("excerpt"); j.strings(s.excerpt); j.raw("}")
                }
                j.raw("]")
            }
            j.raw("}")
        }
        j.raw("]}")
        return j.out
    }

    /// A readable table: a count line, then one row per result (title, match, URL).
    public func table() -> String {
        let shown = results.count < total ? "\(results.count) of \(total)" : "\(total)"
        var lines = [total == 0 ? "No results for “\(query)”" : "\(shown) result\(total == 1 ? "" : "s") for “\(query)”"
            + (scope == "All" ? "" : " in \(scope)")]
        let width = min(40, results.map { $0.title.count }.max() ?? 0)
        for r in results {
            let title = r.title.count > width ? String(r.title.prefix(width - 1)) + "…" : r.title
            let pad = String(repeating: " ", count: max(0, width - title.count))
            lines.append("  \(title)\(pad)  \(r.match.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(r.url)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
