/// Where each page of a site lives, as output paths and as links that respect `base_url`.
public struct SiteURLs: Sendable {
    /// The base path, starting and ending with `/`.
    public var basePath: String
    /// The absolute base URL ending in `/`, or "" when only a path is known.
    public var absoluteBase: String

    /// Creates the URL scheme for a site.
    public init(settings: SiteSettings) {
        basePath = settings.basePath
        absoluteBase = settings.absoluteBase
    }

    /// A link to a path relative to the site root (`candies/` → `/docs/candies/`).
    public func link(_ relative: String) -> String { basePath + relative }

    /// An absolute URL where `base_url` is absolute, else the link; percent-encoded for sitemaps.
    public func absolute(_ relative: String) -> String {
        let encoded = relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
        return absoluteBase.isEmpty ? basePath + encoded : absoluteBase + encoded
    }

    /// The path of a base: a protocol-relative one's without its host (`//cdn.example.com/d/` →
    /// `/d/`, `//cdn.example.com` → `/`), any other as it is.
    static func path(ofBase base: String) -> String {
        guard base.hasPrefix("//") else { return base }
        return base.dropFirst(2).firstIndex(of: "/").map { String(base[$0...]) } ?? "/"
    }

    /// The folder of a collection, relative to the root: `candies/`.
    public static func collection(_ name: String) -> String { "\(name)/" }
    /// An item's page folder: `candies/chocolate-bar/`.
    public static func item(_ collection: String, _ slug: String) -> String { "\(collection)/\(slug)/" }
    /// Page `n` (1-based) of a paginated list: `candies/` or `candies/page/2/`.
    public static func listPage(_ collection: String, _ n: Int) -> String { n <= 1 ? "\(collection)/" : "\(collection)/page/\(n)/" }

    /// The first character of a name that a link cannot hold as it is: white space, a control
    /// character, or one of `" # % < > ? [ \ ] ^ ` { | }`. Links, the search index and `_headers`
    /// write names as they are, so a folder or file so named is refused (nil: none).
    public static func unsafeCharacter(in name: String) -> Unicode.Scalar? {
        name.unicodeScalars.first(where: isUnsafe)
    }

    /// A character `unsafeCharacter` found, as an error names it: white space or a control
    /// character by its code point, any other as it is.
    static func describe(_ c: Unicode.Scalar) -> String {
        c.properties.isWhitespace || c.value < 0x20 || c.value == 0x7F ? String(format: "U+%04X", c.value) : "'\(c)'"
    }

    private static func isUnsafe(_ c: Unicode.Scalar) -> Bool {
        c.properties.isWhitespace || c.value < 0x20 || c.value == 0x7F || "\"#%<>?[\\]^`{|}".unicodeScalars.contains(c)
    }

    /// A path with each character a link cannot hold as it is percent-encoded, a `%` that starts
    /// an escape (`%20`) kept (a path may come encoded already) and any other encoded (`50%off`
    /// is `50%25off`: servers refuse a bad escape): for `base_url`, which no file is named after.
    static func encoded(_ path: String) -> String {
        var out = ""
        let scalars = Array(path.unicodeScalars)
        func isHex(_ k: Int) -> Bool { k < scalars.count && scalars[k].properties.isASCIIHexDigit }
        for (k, c) in scalars.enumerated() {
            if isUnsafe(c) && !(c == "%" && isHex(k + 1) && isHex(k + 2)) {
                for byte in String(c).utf8 { out += String(format: "%%%02X", byte) }
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

import Foundation
