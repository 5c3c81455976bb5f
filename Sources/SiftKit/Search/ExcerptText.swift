/// A detail page's text as excerpts are cut from it (docs/search-index.md, "Excerpts"): its
/// *entry*, the text before its first heading, then each heading's id, title and text.
enum ExcerptText {
    /// The entry of a rendered body; `droppingTitle`: the first heading is the page's title and
    /// not on the page, so it is no section and its text is left out. [] for a body without text.
    static func entry(_ md: RenderedMarkdown, droppingTitle: Bool) -> [String] {
        let text = Array(md.plainText.utf8)
        guard md.headingOffsets.count == md.headings.count else { return [md.plainText] }
        // Blocks end with "\n": a part is trimmed of the newlines around it.
        func part(_ from: Int, _ to: Int) -> String {
            var a = min(from, text.count), b = min(max(to, a), text.count)
            while a < b && text[a] == 0x0A { a += 1 }
            while b > a && text[b - 1] == 0x0A { b -= 1 }
            return String(decoding: text[a..<b], as: UTF8.self)
        }
        var entry = [""], start = 0
        for (i, heading) in md.headings.enumerated() {
            let at = md.headingOffsets[i]
            if i > 0 || !droppingTitle {
                entry[entry.count - 1] = part(start, at)
                entry += [heading.id, heading.text, ""]
            }
            start = at + heading.text.utf8.count
        }
        entry[entry.count - 1] = part(start, text.count)
        return entry == [""] ? [] : entry
    }
}
