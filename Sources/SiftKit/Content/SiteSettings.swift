import Foundation

/// The settings of `Content/site.yml`, with docs/configuration.md's defaults for every key left out.
public struct SiteSettings: Sendable, Equatable {
    public var title = "Sift"
    /// `base_url` as written: a path such as `/docs/` or an absolute URL.
    public var baseURL = "/"
    public var language = "en"
    /// `markdown.unsafe`: keep raw HTML in Markdown.
    public var unsafeMarkdown = false
    /// `precompress`: write `.gz` and `.br` copies of every text file over 1 KB.
    public var precompress = false
    public var search = SearchSettings()
    /// `theme:` keys in order, each becoming a `--sift-<key>` CSS custom property.
    public var theme: [(key: String, value: String)] = []

    /// Settings with every default.
    public init() {}

    /// Reads site.yml's mapping; a mistyped value is an error at its position in the file
    /// (`positions`, by dotted key), a theme key that cannot name a CSS property at the key (`keys`).
    public init(fields: Fields, path: String, positions: [String: SourcePosition] = [:], keys: [String: SourcePosition] = [:]) throws {
        var errors: [SiftError] = []
        func at(_ key: String) -> SourcePosition { positions[key] ?? SourcePosition(path: path) }
        func text(_ key: String) -> String? { fields.text(key, at: at(key), errors: &errors) }
        if let v = text("title") { title = v }
        if let v = text("base_url") {
            if let problem = Self.baseURLProblem(v) { errors.append(SiftError(problem, at: at("base_url"))) } else { baseURL = v.isEmpty ? "/" : v }
        }
        // An empty language is the default's, not `lang=""` (which says the language is unknown).
        if let v = text("language"), !v.isEmpty { language = v }
        if let v = fields["precompress"] {
            if let b = v.boolValue { precompress = b } else { errors.append(SiftError("precompress must be true or false", at: at("precompress"))) }
        }
        if let md = fields["markdown"], md.fields == nil {
            errors.append(SiftError("markdown must be a mapping of settings, such as {unsafe: true}", at: at("markdown")))
        }
        if let md = fields["markdown"]?.fields, let unsafe = md["unsafe"] {
            if let b = unsafe.boolValue { unsafeMarkdown = b } else {
                errors.append(SiftError("markdown.unsafe must be true or false", at: at("markdown.unsafe")))
            }
        }
        if let s = fields["search"] {
            guard let searchFields = s.fields else {
                throw SiftError("search must be a mapping of settings", at: at("search"))
            }
            let inner = positions.filter { $0.key.hasPrefix("search.") }
            do { search = try SearchSettings(fields: searchFields, path: path, positions: Dictionary(uniqueKeysWithValues: inner.map { (String($0.key.dropFirst(7)), $0.value) })) } catch let e as SiftError { errors.append(e) }
        }
        if let t = fields["theme"] {
            guard let themeFields = t.fields else { throw SiftError("theme must be a mapping of settings", at: at("theme")) }
            for k in themeFields.keys {
                // Each a text (configuration.md): a list or a mapping made an empty property.
                guard let value = themeFields.text(k, at: at("theme.\(k)"), errors: &errors, name: "theme.\(k)") else { continue }
                // Neither may close the declaration or the rule they are written into, nor a
                // comment swallow the rest of it.
                if !Self.isThemeKey(k) {
                    errors.append(SiftError("theme key '\(k)' may only have letters, digits, - and _", at: keys["theme.\(k)"] ?? at("theme")))
                } else if value.contains(where: { ";{}<>\\\n\r".contains($0) }) || value.contains("/*") {
                    errors.append(SiftError("theme.\(k) may not contain ; { } < > \\ /* or a line break", at: at("theme.\(k)")))
                } else if let quote = Self.unclosedQuote(value) {
                    // A string left open runs to the end of the file: every theme key after it was lost.
                    errors.append(SiftError("theme.\(k) opens a string with \(quote) that it does not close", at: at("theme.\(k)")))
                } else {
                    theme.append((k, value))
                }
            }
        }
        if let e = SiftError.combined(byLine: errors) { throw e }
    }

    /// The quote of a CSS string a theme value opens and leaves open (`x" y`), if any: within a
    /// string the other quote is text (`"Gill Sans'"` is whole).
    static func unclosedQuote(_ value: String) -> Character? {
        var open: Character?
        for c in value where c == "\"" || c == "'" {
            if open == nil { open = c } else if open == c { open = nil }
        }
        return open
    }

    /// What is wrong with a `base_url` (or `--base-url`), if anything: it is a path (it starts with
    /// `/`; `//host/path` keeps its host) or an absolute http(s) URL with a host. `example.com/docs/`,
    /// `localhost:8000/` and `https//example.com/` became paths of the site (`/8000/`) without a word.
    /// A segment `.` or `..` (`%2e%2e` too, as browsers read it) would take links out of the folder,
    /// and a port past 65535 is none.
    static func baseURLProblem(_ value: String, named name: String = "base_url") -> String? {
        if value.isEmpty { return nil }
        let lower = value.lowercased()
        var path = SiteURLs.path(ofBase: value)
        if value.utf8.first != UInt8(ascii: "/") {
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URLComponents(string: value), let host = url.host, !host.isEmpty else {
                return "\(name) '\(value)' is neither a path starting with / nor an http(s) URL with a host: write it as /docs/ or https://example.com/docs/"
            }
            if let port = url.port, !(1...65535).contains(port) { return "\(name) '\(value)' has port \(port), past 65535" }
            path = url.percentEncodedPath
        }
        let dots = path.split(separator: "/").contains { segment in
            let s = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
            return s == "." || s == ".."
        }
        return dots ? "\(name) '\(value)' holds a . or .. segment, which a browser resolves away: write the folder's own path" : nil
    }

    /// Whether a `theme:` key makes a CSS custom property name as it is (`--sift-` then the key):
    /// ASCII letters, digits, `-` and `_`, at least one.
    static func isThemeKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { b in
            (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }
    }

    public static func == (a: SiteSettings, b: SiteSettings) -> Bool {
        a.title == b.title && a.baseURL == b.baseURL && a.language == b.language
            && a.unsafeMarkdown == b.unsafeMarkdown && a.precompress == b.precompress && a.search == b.search
            && a.theme.map { "\($0.key)=\($0.value)" } == b.theme.map { "\($0.key)=\($0.value)" }
    }

    /// Whether `language` is written right to left (Arabic, Hebrew, Persian, Urdu, …): pages get `dir="rtl"`.
    public var isRightToLeft: Bool {
        let primary = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        return Self.rightToLeftLanguages.contains(primary)
    }

    private static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "ps", "sd", "syr", "ug", "ur", "yi"]

    /// The path part of `base_url`, always starting and ending with `/`.
    public var basePath: String { SearchIndexBuilder.normalizedBase(baseURL) }

    /// The absolute site URL ending in `/`, or "" when `base_url` is only a path.
    public var absoluteBase: String {
        guard let url = URL(string: baseURL), let scheme = url.scheme, let host = url.host else { return "" }
        let port = url.port.map { ":\($0)" } ?? ""
        // An IPv6 address, which `host` gives without the brackets a URL needs around it.
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(shown)\(port)\(basePath)"
    }
}

/// The `search:` settings of site.yml: how the search bar looks and behaves.
public struct SearchSettings: Sendable, Equatable {
    /// The bar's look.
    public enum Style: String, Sendable, CaseIterable { case prominent, minimal, centered }
    /// When the scope bar shows.
    public enum ScopeBar: String, Sendable, CaseIterable { case active, always }

    public var placeholder = "Search"
    public var instant = true
    public var dimBackground = false
    public var hideNavigation = true
    public var style = Style.prominent
    public var cancelText = "Cancel"
    public var scopeBar = ScopeBar.active

    /// Settings with every default.
    public init() {}

    /// Reads the `search:` mapping; positions are keyed by the names inside it.
    public init(fields: Fields, path: String, positions: [String: SourcePosition] = [:]) throws {
        var errors: [SiftError] = []
        func at(_ key: String) -> SourcePosition { positions[key] ?? SourcePosition(path: path) }
        func flag(_ key: String, _ target: inout Bool) {
            guard let v = fields[key] else { return }
            if let b = v.boolValue { target = b } else { errors.append(SiftError("search.\(key) must be true or false", at: at(key))) }
        }
        // Text, and not blank: the field is named by its placeholder, and a blank Cancel is a button with no name.
        func name(_ key: String, of control: String, _ target: inout String) {
            guard let v = fields.text(key, at: at(key), errors: &errors, name: "search." + key) else { return }
            if v.allSatisfy(\.isWhitespace) {
                errors.append(SiftError("search.\(key) must not be empty: it names the \(control) for screen readers", at: at(key)))
            } else {
                target = v
            }
        }
        name("placeholder", of: "search field", &placeholder)
        name("cancel_text", of: "Cancel button", &cancelText)
        flag("instant", &instant)
        flag("dim_background", &dimBackground)
        flag("hide_navigation", &hideNavigation)
        if let v = fields["style"] {
            if let s = Style(rawValue: v.text) { style = s } else {
                errors.append(SiftError("search.style must be one of prominent, minimal, centered (found '\(v.text)')", at: at("style")))
            }
        }
        if let v = fields["scope_bar"] {
            if let s = ScopeBar(rawValue: v.text) { scopeBar = s } else {
                errors.append(SiftError("search.scope_bar must be active or always (found '\(v.text)')", at: at("scope_bar")))
            }
        }
        if let e = SiftError.combined(byLine: errors) { throw e }
    }
}
