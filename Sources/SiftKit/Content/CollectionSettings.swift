/// The settings of a collection's `collection.yml`.
public struct CollectionSettings: Sendable, Equatable {
    /// The list page heading; nil means the folder name, capitalised.
    public var title: String?
    public var titleField: String?
    public var slugField: String?
    public var scopeField: String?
    public var scopes: [String] = []
    public var searchFields: [String]?
    public var searchBody = true
    public var listFields: [String] = []
    /// A field to sort by; `descending` when written as `-name`.
    public var sortField: String?
    public var sortDescending = false
    /// `per_page`: items a list page shows, 0 for one page; nil when unset (`pageSize(items:)`).
    public var perPage: Int?
    /// Fields a visitor filters by, each value with its count (docs/content.md, "Facets and sorting").
    public var facets: [String] = []
    /// Fields a visitor may order results by instead of relevance.
    public var sortFields: [String] = []
    /// Splits a text value of a facet field into several values (`"English,French"`), when set.
    public var listSeparator: String?

    /// Settings with every default.
    public init() {}

    /// Reads collection.yml's mapping, reporting every wrong value.
    public init(fields: Fields, path: String, positions: [String: SourcePosition] = [:]) throws {
        var errors: [SiftError] = []
        func at(_ key: String) -> SourcePosition { positions[key] ?? SourcePosition(path: path) }
        func text(_ key: String) -> String? { fields.text(key, at: at(key), errors: &errors) }
        func list(_ key: String) -> [String]? {
            // Left empty (`facets:`), a list names nothing, as an empty `sort:` sorts by nothing.
            guard let v = fields[key], v != .null else { return nil }
            guard let l = v.stringList else {
                errors.append(SiftError("\(key) must be a list of \(key == "scopes" ? "scope" : "field") names", at: at(key)))
                return nil
            }
            return l
        }
        title = text("title")
        titleField = text("title_field")
        slugField = text("slug_field")
        scopeField = text("scope_field")
        scopes = list("scopes") ?? []
        searchFields = list("search_fields")
        listFields = list("list_fields") ?? []
        // A field listed twice is one facet (one sort field): its values are counted once.
        facets = Self.once(list("facets") ?? [])
        sortFields = Self.once(list("sort_fields") ?? [])
        if let v = fields["list_separator"] {
            if case .string(let sep) = v, !sep.isEmpty { listSeparator = sep } else {
                errors.append(SiftError("list_separator must be a non-empty string, such as \",\"", at: at("list_separator")))
            }
        }
        if let v = fields["search_body"] {
            if let b = v.boolValue { searchBody = b } else { errors.append(SiftError("search_body must be true or false", at: at("search_body"))) }
        }
        if let v = text("sort"), !v.isEmpty {
            sortDescending = v.hasPrefix("-")
            sortField = sortDescending ? String(v.dropFirst()) : v
        }
        if let v = fields["per_page"] {
            if let n = Int(v.text), n >= 0 { perPage = n } else if !v.text.isEmpty, v.text.allSatisfy(\.isASCII), v.text.allSatisfy(\.isNumber) {
                errors.append(SiftError("per_page \(v.text) is too large: a page of all the items is per_page: 0", at: at("per_page")))
            } else {
                errors.append(SiftError("per_page must be a whole number, 0 for one page (found '\(v.text)')", at: at("per_page")))
            }
        }
        if scopeField == nil && !scopes.isEmpty {
            errors.append(SiftError("scopes are set but scope_field is not", at: at("scopes")))
        }
        // Each scope is a button of the scope bar: a blank one would be a button with no name, and
        // one listed twice two buttons that do the same.
        if scopes.contains(where: { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) }) {
            errors.append(SiftError("scopes may not hold an empty name", at: at("scopes")))
        }
        // "All" is the bar's own first button, every scope: one of the same name could never be chosen alone.
        if scopes.contains("All") {
            errors.append(SiftError("scope 'All' is the scope bar's own first button (every item): give this scope another name", at: at("scopes")))
        }
        var seen = Set<String>()
        if let twice = scopes.first(where: { !seen.insert($0).inserted }) {
            errors.append(SiftError("scope '\(twice)' is listed twice in scopes", at: at("scopes")))
        }
        if let e = SiftError.combined(byLine: errors) { throw e }
    }

    /// A list of more items than this is paginated when `per_page` is not set.
    public static let longList = 2_000
    /// The items a page of such a list shows.
    public static let longListPageSize = 1_000

    /// The items a list page shows for a collection of `count` items: `per_page`, the whole list
    /// for `per_page: 0` or a list of up to `longList` items, else `longListPageSize`; at least 1.
    public func pageSize(items count: Int) -> Int {
        switch perPage {
        case let n? where n > 0: return n
        case nil where count > Self.longList: return Self.longListPageSize
        default: return max(count, 1)
        }
    }

    /// Whether a list of `count` items is paginated for its length alone (`per_page` unset).
    public func paginatesForLength(items count: Int) -> Bool {
        perPage == nil && count > Self.longList
    }

    /// Each field this collection.yml names (`title_field`, `slug_field`, `scope_field`,
    /// `search_fields`, `list_fields`, `facets`, `sort_fields`, `sort`) with its key.
    public var namedFields: [(key: String, field: String)] {
        let one: [(String, String?)] = [("title_field", titleField), ("slug_field", slugField), ("scope_field", scopeField), ("sort", sortField)]
        let lists: [(String, [String])] = [("search_fields", searchFields ?? []), ("list_fields", listFields), ("facets", facets), ("sort_fields", sortFields)]
        return one.compactMap { key, field in field.map { (key, $0) } } + lists.flatMap { key, fields in fields.map { (key, $0) } }
    }

    /// The names in order, each once (by code points, as the facets file and a browser key them).
    static func once(_ names: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return names.filter { seen.insert(Array($0.utf8)).inserted }
    }
}
