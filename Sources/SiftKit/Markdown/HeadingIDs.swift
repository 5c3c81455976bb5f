/// The anchor ids of one document's headings: the slug of each heading's text, `section` when
/// that is empty, and `-1`, `-2`… after an id already given.
struct HeadingIDs {
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]

    /// The id of the next heading with this plain text. Slugs are letters, digits and `-` only,
    /// so the id needs no escaping in an attribute.
    mutating func id(for plain: String) -> String {
        let slug = Slug.make(plain)
        let base = slug.isEmpty ? "section" : slug
        var id = base
        if used.contains(id) {
            var n = nextSuffix[base, default: 1]
            repeat {
                id = "\(base)-\(n)"
                n += 1
            } while used.contains(id)
            nextSuffix[base] = n
        }
        used.insert(id)
        return id
    }
}
