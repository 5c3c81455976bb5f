import Foundation

/// A folder of Content/: its settings, its dataset rows and pages joined into items, in list order.
public struct SiteCollection: Sendable {
    /// The folder name, which is also the URL segment.
    public var name: String
    public var settings: CollectionSettings
    public var items: [Item]
    /// Where each key of its collection.yml is, for what is said of a value once the items are in
    /// (apart from `settings`, which page keys and a session compare: a moved line changes no page).
    public var positions: [String: SourcePosition] = [:]
    /// The field the items' titles come from: `title_field`, else the one the loader chose
    /// (`title`, `name` or the dataset's first column).
    public var titleField: String

    /// The list page heading.
    public var title: String {
        settings.title ?? (name.prefix(1).uppercased() + name.dropFirst())
    }

    /// Creates a collection.
    public init(name: String, settings: CollectionSettings, items: [Item]) {
        self.name = name
        self.settings = settings
        self.items = items
        titleField = settings.titleField ?? "title"
    }

    /// The scope of an item, when the collection has a scope field.
    public func scope(of item: Item) -> String? { scope(in: item.fields) }

    /// The scope of item `i`, read in place: a loop over every item that passes each to
    /// `scope(of:)` copies it, a dozen strings retained and released.
    func scope(at i: Int) -> String? { scope(in: items[i].fields) }

    private func scope(in fields: Fields) -> String? {
        guard let field = settings.scopeField else { return nil }
        return fields.value(at: field)?.text
    }

    /// An item's values of each facet field: a list's texts, a text split on `list_separator`
    /// (a quoted part may hold the separator), each trimmed, empty ones left out.
    public func facetValues(of item: Item) -> [(name: String, values: [String])] {
        settings.facets.map { name in
            let value = name == "title" ? Value.string(item.title) : item.fields.value(at: name)
            let values = value.map(facetValues) ?? []
            var seen = Set<String>()
            return (name, values.filter { seen.insert($0).inserted })
        }
    }

    /// The values of a facet field's value: a list's texts, a text split on `list_separator`,
    /// or its one text; each trimmed, empty ones left out.
    func facetValues(_ value: Value) -> [String] {
        let values: [String]
        switch value {
        case .list(let l): values = l.map(\.text)
        default: values = settings.listSeparator.map { Self.split(value.text, on: $0) } ?? [value.text]
        }
        return values.map(Self.trimmed).filter { !$0.isEmpty }
    }

    /// Whether a field's text holds several values: it is a facet and `list_separator` is set.
    func splitsText(of field: String) -> Bool {
        settings.listSeparator != nil && settings.facets.contains(field)
    }

    /// An item's value of each sort field as text, "" without one.
    public func sortValues(of item: Item) -> [(name: String, value: String)] {
        settings.sortFields.map { name in (name, name == "title" ? item.title : item.fields.value(at: name)?.text ?? "") }
    }

    /// A value without the white space (`.whitespaces`) at its ends; Foundation is asked only
    /// when there is some, as it is for few values, and slow for all of a large site's.
    static func trimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              isWhitespace(first) || isWhitespace(last) else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// `CharacterSet.whitespaces`' members: the tab and the space separators (category Zs).
    private static func isWhitespace(_ u: Unicode.Scalar) -> Bool {
        u.isASCII ? u == " " || u == "\t" : u.properties.generalCategory == .spaceSeparator
    }

    /// Splits on `separator` outside double quotes; `""` inside quotes is one quote.
    static func split(_ text: String, on separator: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: "\"")) else {
            // ASCII in both: a byte is a character, and Foundation's search (slow at a value a row) finds what bytes do.
            guard text.utf8.allSatisfy({ $0 < 0x80 }), !separator.isEmpty, separator.utf8.allSatisfy({ $0 < 0x80 }) else {
                return text.components(separatedBy: separator)
            }
            let bytes = Array(text.utf8), sep = Array(separator.utf8)
            var parts: [String] = [], start = 0, i = 0
            while i + sep.count <= bytes.count {
                if bytes[i] == sep[0] && bytes[i..<i + sep.count].elementsEqual(sep) {
                    parts.append(String(decoding: bytes[start..<i], as: UTF8.self))
                    i += sep.count
                    start = i
                } else {
                    i += 1
                }
            }
            return parts + [String(decoding: bytes[start...], as: UTF8.self)]
        }
        var parts: [String] = [], current = "", quoted = false
        var rest = Substring(text)
        while let c = rest.first {
            if c == "\"" {
                if quoted && rest.dropFirst().first == "\"" { current.append("\""); rest = rest.dropFirst(2); continue }
                quoted.toggle()
            } else if !quoted && rest.hasPrefix(separator) {
                parts.append(current); current = ""
                rest = rest.dropFirst(separator.count)
                continue
            } else {
                current.append(c)
            }
            rest = rest.dropFirst()
        }
        return parts + [current]
    }
}
