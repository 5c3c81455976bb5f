/// Excerpts of a document's text around a query's terms, and the sections that hold them
/// (docs/search-index.md, "Excerpts"). sift-core.js cuts them alike: the same steps under the
/// same names (`markedTerms`, `wholeText`, `hits`, `marks`, `excerpt`, `sections`).
enum Excerpt {
    /// An excerpt's length, in code points of the text with its white space collapsed.
    static let span = 160
    /// Code points an excerpt shows before its best hit.
    static let lead = 40
    /// The reach of a hit: the distinct terms starting this close after it make its worth.
    static let reach = 80
    /// Sections shown under a result.
    static let sectionsShown = 3

    /// The terms an excerpt marks: those of 3+ code points, and those holding a code point
    /// outside ASCII (文件, 斯): a short ASCII term ("by") would mark every word holding it.
    static func markedTerms(_ terms: [String]) -> [String] {
        terms.filter { $0.unicodeScalars.count > 2 || $0.unicodeScalars.contains { !$0.isASCII } }
    }

    /// An entry's whole text: the text before its first heading, then each section's title and text.
    static func wholeText(_ entry: [String]) -> String {
        entry.enumerated().filter { $0.offset % 3 != 1 }.map(\.element).joined(separator: "\n")
    }

    /// Every occurrence of each term in the code points folded one by one, as the range of code
    /// points it covers (with the code points after it that fold to nothing, as a dropped
    /// accent), ordered by start, then term.
    static func hits(_ chars: [Unicode.Scalar], _ terms: [String]) -> [(start: Int, end: Int, term: Int)] {
        var folded: [Unicode.Scalar] = [], starts: [Int] = [], ends: [Int] = []
        // Each code point's fold once: a text repeats its letters, and folding one goes through Foundation.
        var folds: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        for (i, c) in chars.enumerated() {
            let v = c.value
            let f: [Unicode.Scalar]
            if v < 0x80 {
                f = [Unicode.Scalar(UInt8(v >= 0x41 && v <= 0x5A ? v + 32 : v))]
            } else if let known = folds[c] {
                f = known
            } else {
                f = Array(Fold.fold(String(c)).unicodeScalars)
                folds[c] = f
            }
            if f.isEmpty && !ends.isEmpty { ends[ends.count - 1] = i + 1 }
            folded += f
            starts += repeatElement(i, count: f.count)
            ends += repeatElement(i + 1, count: f.count)
        }
        // Joined words: a term also runs across a code point that joins two word code points.
        let (joined, units) = joinedText(folded)
        var out: [(start: Int, end: Int, term: Int)] = []
        for (t, term) in terms.enumerated() {
            let q = Array(term.unicodeScalars)
            guard !q.isEmpty, q.count <= folded.count else { continue }
            for at in 0...(folded.count - q.count) where folded[at] == q[0] && folded[at..<(at + q.count)].elementsEqual(q) {
                out.append((starts[at], ends[at + q.count - 1], t))
            }
            guard joined.count < folded.count, q.count <= joined.count else { continue }
            // Only occurrences across a left-out code point: the others were found above.
            for at in 0...(joined.count - q.count) where joined[at] == q[0] && units[at + q.count - 1] - units[at] != q.count - 1
                && joined[at..<(at + q.count)].elementsEqual(q) {
                out.append((starts[units[at]], ends[units[at + q.count - 1]], t))
            }
        }
        return out.sorted { ($0.start, $0.term) < ($1.start, $1.term) }
    }

    /// Joined words (docs/search-index.md) in folded text: the text without each code point that
    /// joins two word code points outside CJK text (`hardcrack` of `hard-crack`), and `units`,
    /// each of its code points' place in the text.
    static func joinedText(_ folded: [Unicode.Scalar]) -> (joined: [Unicode.Scalar], units: [Int]) {
        var joined: [Unicode.Scalar] = [], units: [Int] = []
        for (u, c) in folded.enumerated() {
            if u > 0, u + 1 < folded.count, isJoiner(c, between: folded[u - 1], and: folded[u + 1]) { continue }
            joined.append(c)
            units.append(u)
        }
        return (joined, units)
    }

    /// Whether a code point joins the word code points on either side of it (outside CJK text)
    /// into one word, as `-` in `e-mail` and `'` in `don't`: it is neither a word code point nor white space.
    static func isJoiner(_ c: Unicode.Scalar, between before: Unicode.Scalar, and after: Unicode.Scalar) -> Bool {
        !IndexFormat.isWordScalar(c) && !c.properties.isWhitespace
            && [before, after].allSatisfy { IndexFormat.isWordScalar($0) && !IndexFormat.isCJKScalar($0) }
    }

    /// Code points `from..<to` as strings whose odd-numbered ones are the hits (clipped to the
    /// range), one mark where hits overlap or meet.
    static func marks(_ chars: [Unicode.Scalar], _ hits: [(start: Int, end: Int, term: Int)], from: Int, to: Int) -> [String] {
        let slice = { (a: Int, b: Int) in String(String.UnicodeScalarView(chars[a..<b])) }
        var parts = [""], at = from
        for h in hits {
            let s = max(h.start, at), e = min(h.end, to)
            guard e > s else { continue }
            if s > at || parts.count == 1 {
                parts[parts.count - 1] += slice(at, s)
                parts += [slice(s, e), ""]
            } else {
                parts[parts.count - 2] += slice(at, e)
            }
            at = e
        }
        parts[parts.count - 1] += slice(at, to)
        return parts
    }

    /// About 25 words of `text` around its best hit, as strings whose odd-numbered ones (1, 3, …)
    /// are the marked terms; "…" where the text goes on.
    static func excerpt(_ text: String, _ terms: [String]) -> [String] {
        var chars: [Unicode.Scalar] = []
        for s in text.unicodeScalars {
            if !IndexFormat.isSpaceScalar(s) { chars.append(s) } else if chars.last.map({ $0 != " " }) ?? false { chars.append(" ") }
        }
        if chars.last == " " { chars.removeLast() }
        let hits = hits(chars, markedTerms(terms)), n = chars.count
        let best = bestHit(hits)
        let start = best?.start ?? 0, end = best?.end ?? 0
        var from = max(0, min(start - lead, n - span)), to = min(n, from + span)
        if from > 0, let space = chars[from..<max(from, start)].firstIndex(of: " ") { from = space + 1 }
        if to < n, let space = chars[min(max(end, from), to)..<to].lastIndex(of: " ") { to = space }
        var parts = marks(chars, hits, from: from, to: to)
        if from > 0 { parts[0] = "…" + parts[0] }
        if to < n { parts[parts.count - 1] += "…" }
        return parts
    }

    /// The hit with the most distinct terms starting within `reach` of it; the first on ties.
    private static func bestHit(_ hits: [(start: Int, end: Int, term: Int)]) -> (start: Int, end: Int, term: Int)? {
        var best: (start: Int, end: Int, term: Int)?, bestWorth = 0
        for (i, h) in hits.enumerated() {
            var terms = Set<Int>()
            for other in hits[i...] {
                if other.start >= h.start + reach { break }
                terms.insert(other.term)
            }
            if terms.count > bestWorth { best = h; bestWorth = terms.count }
        }
        return best
    }

    /// The first `sectionsShown` sections of an entry whose folded title and text hold a marked
    /// term, each with its excerpt.
    static func sections(_ entry: [String], _ terms: [String], url: String) -> [SearchSection] {
        let marked = markedTerms(terms)
        var out: [SearchSection] = []
        for at in stride(from: 1, to: entry.count - 2, by: 3) where out.count < sectionsShown {
            let folded = Fold.fold(entry[at + 1] + "\n" + entry[at + 2])
            if marked.contains(where: { IndexFormat.contains(folded, $0) }) {
                out.append(SearchSection(title: entry[at + 1], url: url + "#" + entry[at], excerpt: excerpt(entry[at + 2], terms)))
            }
        }
        return out
    }
}
