/// The anchor ids of one document's headings: the slug of each heading's text, `section` when
/// that is empty, and `-1`, `-2`… after an id already given or one the built-in templates and
/// the search bar give (`reserved`): a heading "Main" took `#main` from the page's `<main>`,
/// and a search result's link to it scrolled to the top.
struct HeadingIDs {
    /// The ids of the built-in templates (`layout`, `home`) and the search bar's (`sift0-l`,
    /// `sift0-r`, and `sift0-r12` for its rows: `siftN-l`, `siftN-r` and `siftN-rN`).
    static func isReserved(_ id: String) -> Bool {
        if id == "main" || id == "group-collections" || id == "group-pages" { return true }
        guard id.hasPrefix("sift") else { return false }
        let isDigit = { (c: Character) in c.isASCII && c.isNumber }
        let rest = id.dropFirst(4)
        let bar = rest.prefix(while: isDigit)
        let tail = rest.dropFirst(bar.count)
        guard !bar.isEmpty, tail.hasPrefix("-") else { return false }
        return tail == "-l" || (tail.hasPrefix("-r") && tail.dropFirst(2).allSatisfy(isDigit))
    }

    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]

    /// The id of the next heading with this plain text. Slugs are letters, digits and `-` only,
    /// so the id needs no escaping in an attribute.
    mutating func id(for plain: String) -> String {
        let slug = Slug.make(plain)
        let base = slug.isEmpty ? "section" : slug
        var id = base
        if used.contains(id) || Self.isReserved(id) {
            var n = nextSuffix[base, default: 1]
            repeat {
                id = "\(base)-\(n)"
                n += 1
            } while used.contains(id) || Self.isReserved(id)
            nextSuffix[base] = n
        }
        used.insert(id)
        return id
    }
}
