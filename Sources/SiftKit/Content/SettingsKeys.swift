/// The keys a settings file knows, so that a misspelt one is reported instead of silently
/// ignored: `unknown key 'serch_fields' (did you mean 'search_fields'?)`, a warning at the key.
public struct SettingsKeys: Sendable {
    /// Dotted key paths (`search.instant`); a mapping key lists its own keys below it.
    public let known: Set<String>
    /// Mappings whose keys are free (site.yml's `theme:`: each key a CSS custom property).
    public let open: Set<String>

    /// site.yml's keys.
    public static let site = SettingsKeys(
        known: ["title", "base_url", "language", "markdown", "markdown.unsafe", "precompress", "search", "theme"]
            + ["placeholder", "instant", "dim_background", "hide_navigation", "style", "cancel_text", "scope_bar"].map { "search." + $0 },
        open: ["theme"])

    /// collection.yml's keys.
    public static let collection = SettingsKeys(
        known: ["title", "title_field", "slug_field", "scope_field", "scopes", "search_fields", "search_body",
                "list_fields", "sort", "per_page", "facets", "sort_fields", "list_separator"],
        open: [])

    init(known: [String], open: Set<String>) {
        self.known = Set(known)
        self.open = open
    }

    /// A warning for each key of `keys` (dotted path → the key's position) that is not known,
    /// in file order, naming the closest known key at the same level when one is near. The keys
    /// below an unknown key are not warned about again: `serch:` is one warning, not one per key
    /// of its mapping (nor a million for a mapping that aliases expand).
    public func warnings(_ keys: [String: SourcePosition]) -> [SiftError] {
        func isUnknown(_ path: Substring) -> Bool {
            !known.contains(String(path)) && !open.contains(where: { path.utf8.starts(with: ($0 + ".").utf8) })
        }
        func isBelowAnUnknownKey(_ path: String) -> Bool {
            path.utf8.indices.contains { i in
                path.utf8[i] == UInt8(ascii: ".") && keys[String(path[..<i])] != nil && isUnknown(path[..<i])
            }
        }
        return keys.filter { path, _ in isUnknown(path[...]) && !isBelowAnUnknownKey(path) }
            .sorted { ($0.value.line, $0.value.column) < ($1.value.line, $1.value.column) }
            .map { path, position in
                var message = "unknown key '\(path)'"
                if let near = suggestion(for: path) { message += " (did you mean '\(near)'?)" }
                return SiftError(message, at: position, severity: .warning)
            }
    }

    /// The known key at the same level within a third of the key's length in edits (at least one).
    func suggestion(for path: String) -> String? {
        let level = path.split(separator: ".").count
        let length = path.unicodeScalars.count
        let limit = max(1, length / 3)
        return known.filter { $0.split(separator: ".").count == level && abs($0.unicodeScalars.count - length) <= limit }
            .map { ($0, Self.distance(path, $0)) }
            .filter { $0.1 <= limit }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// Edits between two strings: insertions, deletions, substitutions and swaps of two
    /// neighbouring Unicode scalars (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        var current = row
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous[j - 2] + 1)
                }
            }
            (previous, row) = (row, current)
        }
        return row[b.count]
    }
}
