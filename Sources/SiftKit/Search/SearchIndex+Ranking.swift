import Foundation

/// The matching and ordering steps of `SearchIndex.search`, as docs/search-index.md names them
/// ("Matching", "Partial matches", "Typos", "Ranking") and sift-core.js runs them.
extension SearchIndex {
    /// A term of the query with what the index says of it.
    struct SearchedTerm {
        var text: String
        var scalars: [Unicode.Scalar]
        /// The body candidates, each with its marks (`Score`); nil when the term does not search
        /// bodies.
        var body: [Int32: Int]?
        /// The term's rarity across the site's bodies.
        var idf: Double
        /// The edits a typo match may make (0: none).
        var typoEdits: Int
        /// Whether the term searches bodies on its own (3+ code points, or a CJK term of 2).
        var searchesAlone: Bool
        /// A loose term (`IndexFormat.isLoose`: `-rf`, `St.`): too short to narrow a body, it lets
        /// any body through, and holds no body for a partial match.
        var anyBody = false
    }

    /// Where a match goes in the order, first to last.
    enum Group: Int, Comparable {
        case exactTitle, titleStartsWithWords, titlePrefix, scored, partial, fuzzy
        static func < (a: Group, b: Group) -> Bool { a.rawValue < b.rawValue }
    }

    struct Hit {
        var doc: Int
        var match: SearchResult.Match
        var group: Group
        var distance = 0
        /// The typo terms a word of the title is within the edits of (fuzzy matches).
        var words = 0
        var score = 0.0
    }

    /// "Matching": each term with its body candidates. A term of 3+ code points, or a CJK term of
    /// 2, searches bodies on its own; a shorter one only beside such a term, as a whole word; a
    /// CJK word piece with marks, as that piece (`IndexFormat.bodyForm`); a loose term lets any
    /// body through (`IndexFormat.isLoose`).
    func searchedTerms(_ terms: [String], typos allowed: Bool = true) throws -> [SearchedTerm] {
        let searchesAlone = Self.searchesAlone
        let anyAlone = terms.contains(where: searchesAlone)
        return try terms.map { term in
            let scalars = Array(term.unicodeScalars)
            if IndexFormat.isLoose(term) {
                var searched = SearchedTerm(text: term, scalars: scalars, body: nil, idf: Score.idf(documents: docs.count, holding: docs.count),
                                            typoEdits: allowed ? Self.typoEdits(term) : 0, searchesAlone: false)
                searched.anyBody = true
                return searched
            }
            let alone = searchesAlone(term), looked = IndexFormat.bodyForm(term) ?? term
            let body = alone || anyAlone ? try bodyCandidates(looked, wholeWord: !searchesAlone(looked)) : nil
            return SearchedTerm(text: term, scalars: scalars, body: body,
                                idf: Score.idf(documents: docs.count, holding: body?.count ?? 0),
                                typoEdits: allowed ? Self.typoEdits(term) : 0, searchesAlone: alone)
        }
    }

    /// "Typos": the edits a term's typo matches may make: 1, or 2 for 8+ code points; 0 for a
    /// term of fewer than 4 code points or holding a CJK one.
    static func typoEdits(_ term: String) -> Int {
        let n = term.unicodeScalars.count
        return n < 4 || term.unicodeScalars.contains(where: IndexFormat.isCJKScalar) ? 0 : n >= 8 ? 2 : 1
    }

    private func inFields(_ folded: [String], _ term: SearchedTerm) -> Bool {
        folded.contains(where: { IndexFormat.contains($0, term.text) })
    }

    /// "Matching": every term in a field or in the body. `phrase`: the query's terms as typed,
    /// a repeated one too (`pago pago`), which the title is compared with; else the terms'.
    func fullMatch(_ d: Int, _ terms: [SearchedTerm], phrase typed: String? = nil) -> Hit? {
        let folded = docs[d].folded
        var allInFields = true
        for term in terms where !inFields(folded, term) {
            guard term.anyBody || term.body?[Int32(d)] != nil else { return nil }
            allInFields = false
        }
        let title = folded.first ?? "", phrase = typed ?? (terms.count == 1 ? terms[0].text : terms.map(\.text).joined(separator: " "))
        let group: Group = title.utf8.elementsEqual(phrase.utf8) ? .exactTitle
            : !title.utf8.starts(with: phrase.utf8) ? .scored
            : Self.endsAWord(title, at: phrase.unicodeScalars.count) ? .titleStartsWithWords : .titlePrefix
        return Hit(doc: d, match: allInFields ? .field : .body, group: group)
    }

    /// "Partial matches": every piece, or every piece but one, a piece that searches bodies on
    /// its own among those held.
    func partialMatch(_ d: Int, _ pieces: [SearchedTerm]) -> Hit? {
        let folded = docs[d].folded
        let found = pieces.map { inFields(folded, $0) || $0.anyBody || $0.body?[Int32(d)] != nil }
        let fits = found.filter { !$0 }.count <= 1 && zip(pieces, found).contains { $0.searchesAlone && $1 }
        return fits ? Hit(doc: d, match: .partial, group: .partial) : nil
    }

    /// "Partial matches": the query's pieces, its terms with each CJK term of 4 or more code points
    /// cut into pairs from its start (an odd last one alone), identical ones once; nil when no
    /// term is cut.
    static func pieces(_ terms: [String]) -> [String]? {
        guard terms.contains(where: { $0.unicodeScalars.count >= 4 && IndexFormat.isCJK($0) }) else { return nil }
        var seen = Set<[UInt8]>(), out: [String] = []
        for term in terms {
            let scalars = Array(term.unicodeScalars)
            let cut = scalars.count >= 4 && IndexFormat.isCJK(term)
                ? stride(from: 0, to: scalars.count, by: 2).map { String(String.UnicodeScalarView(scalars[$0..<min($0 + 2, scalars.count)])) }
                : [term]
            out += cut.filter { seen.insert(Array($0.utf8)).inserted }
        }
        return out
    }

    /// "Typos": every term in a field or within its edits of a substring of the title, one at
    /// least the second way; the edits made, summed, are the hit's distance, and its words the
    /// terms of the second way that a word of the title is within the edits of. In the ranked
    /// layout, within its edits of the start of a title word that begins with one of its typo
    /// keys (`typoKeys`, `titleWordDistance`), the words looked at those words only.
    func fuzzyMatch(_ d: Int, _ terms: [SearchedTerm]) -> Hit? {
        let folded = docs[d].folded
        var title: [Unicode.Scalar]?
        var distance = 0, words = 0, anyFuzzy = false
        for term in terms where !inFields(folded, term) {
            guard term.typoEdits > 0 else { return nil }
            title = title ?? Array((folded.first ?? "").unicodeScalars)
            var titleWords = title!.split(whereSeparator: { !IndexFormat.isWordScalar($0) })
            if isRanked {
                let keys = Self.typoKeys(term.scalars)
                titleWords = titleWords.filter { word in keys.contains { word.starts(with: $0) } }
            }
            let found = isRanked ? Self.titleWordDistance(term.scalars, titleWords, within: term.typoEdits)
                                 : Self.substringDistance(term.scalars, title!, within: term.typoEdits)
            guard let edits = found else { return nil }
            distance += edits
            anyFuzzy = true
            if edits > 0 && titleWords.contains(where: { Self.wordDistance(term.scalars, Array($0), within: term.typoEdits) }) { words += 1 }
        }
        return anyFuzzy ? Hit(doc: d, match: .fuzzy, group: .fuzzy, distance: distance, words: words) : nil
    }

    /// "Typos" in the ranked layout: the keys whose title words a term's typo matches are among,
    /// its first three code points, and its first two with its fourth (a swap of its third and
    /// fourth code points, or one too many third, leaves a word of that key).
    static func typoKeys(_ term: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        let key = Array(term.prefix(3))
        guard term.count > 3 else { return [key] }
        let other = [term[0], term[1], term[3]]
        return other == key ? [key] : [key, other]
    }

    /// "Typos" in the ranked layout: the fewest edits turning `pattern` into the start of one of
    /// `words` (`prefixDistance`), when at most k.
    static func titleWordDistance(_ pattern: [Unicode.Scalar], _ words: [ArraySlice<Unicode.Scalar>], within k: Int) -> Int? {
        words.compactMap { prefixDistance(pattern, Array($0), within: k) }.min()
    }

    /// "Ranking": each hit scored, then in order: group, edits, a title's length in the title
    /// groups, score, title length, list order.
    /// With `first`, only the first that many, kept as the hits go by instead of sorting them all
    /// (the order is total: the first k are those of the whole order).
    func order(_ hits: [Hit], _ terms: [SearchedTerm], phrase typed: String? = nil, first k: Int? = nil) -> [Hit] {
        let phrase = typed ?? terms.map(\.text).joined(separator: " ")
        return order(hits, first: k) { hit in score(docs[hit.doc].folded, bodyLength: docs[hit.doc].bodyLength, Int32(hit.doc), terms, phrase: phrase) }
    }

    /// `order` with each hit's score from `scoring`, which gives what `score` would.
    func order(_ hits: [Hit], first k: Int? = nil, scoring: (Hit) -> Double) -> [Hit] {
        let scored = hits.map { hit -> (Hit, Int) in
            var hit = hit
            hit.score = scoring(hit)
            return (hit, docs[hit.doc].folded.first?.utf16.count ?? 0)
        }
        let before = { (a: (Hit, Int), b: (Hit, Int)) -> Bool in
            let (x, xLength) = a, (y, yLength) = b
            if x.group != y.group { return x.group < y.group }
            if x.distance != y.distance { return x.distance < y.distance }
            if x.words != y.words { return x.words > y.words }
            if x.group < .scored && xLength != yLength { return xLength < yLength }
            if x.score != y.score { return x.score > y.score }
            if xLength != yLength { return xLength < yLength }
            // Two fields read, not two whole documents copied (their strings retained and released).
            let xCollection = docs[x.doc].collection, yCollection = docs[y.doc].collection
            return xCollection != yCollection ? xCollection < yCollection : docs[x.doc].position < docs[y.doc].position
        }
        guard let k, scored.count > k else { return scored.sorted(by: before).map(\.0) }
        var kept: [(Hit, Int)] = []
        kept.reserveCapacity(k + 1)
        for item in scored where kept.count < k || before(item, kept[k - 1]) {
            var low = 0, high = kept.count
            while low < high {
                let mid = (low + high) / 2
                if before(item, kept[mid]) { high = mid } else { low = mid + 1 }
            }
            kept.insert(item, at: low)
            if kept.count > k { kept.removeLast() }
        }
        return kept.map(\.0)
    }

    /// "Ranking", the score: per term found, its rarity times its weight in the title, the other
    /// fields (as one text, "\n" between them) and the body; and the phrase in a field, or else
    /// every term in the page's head (a field or the body's lead), one in the lead, lifts every term.
    func score(_ folded: [String], bodyLength: Double, _ d: Int32, _ terms: [SearchedTerm], phrase: String) -> Double {
        let title = folded.first ?? "", others = folded.count == 2 ? folded[1] : folded.dropFirst().joined(separator: "\n")
        var total = 0.0, rarity = 0.0, inFields = 0, inHead = 0, anyLead = false
        let anyAlone = terms.contains(where: \.searchesAlone)
        for term in terms {
            var weight = 0.0
            let inTitle = IndexFormat.contains(title, term.text), inOthers = IndexFormat.contains(others, term.text)
            // A short term beside a longer one weighs in the title and the body, not in the other
            // fields, which only count it held: the ranked layout knows how a title holds a short
            // term (its gram entries), not how every hit's other fields do.
            let weighs = term.searchesAlone || !anyAlone
            if inTitle {
                weight += Score.titleWeight * Score.place(Self.wordFit(title, term.text))
                    * Score.saturation(length: Double(title.utf16.count), average: averageTitleLength, count: 1)
            }
            if inOthers && weighs {
                weight += Score.fieldWeight * Score.place(Self.wordFit(others, term.text))
                    * Score.saturation(length: Double(others.utf16.count), average: averageTitleLength, count: 1)
            }
            if inTitle || inOthers { inFields += 1 }
            if let marks = term.body?[d] {
                weight += Score.bodyWeight * Score.place(marks) * Score.saturation(
                    length: bodyLength, average: averageBodyLength, count: marks & Score.often != 0 ? Double(Score.oftenCount) : 1)
            }
            let inLead = (term.body?[d] ?? 0) & Score.lead != 0
            if inTitle || inOthers || inLead { inHead += 1 }
            anyLead = anyLead || inLead
            if weight > 0 || inTitle || inOthers { rarity += term.idf }
            total += term.idf * weight
        }
        if terms.count > 1 && inFields == terms.count
            && IndexFormat.contains(Self.squeezed(title + "\n" + others), Self.squeezed(phrase)) {
            total += Score.phraseWeight * rarity
        } else if terms.count > 1 && inHead == terms.count && anyLead {
            total += Score.leadWeight * rarity
        }
        return total
    }

    /// `text` with each run of code points that are not word code points made one space: the
    /// terms stand together when only punctuation parts them (`git-commit` for "git commit").
    static func squeezed(_ text: String) -> String {
        var out = String.UnicodeScalarView(), inRun = false
        for scalar in text.unicodeScalars {
            if IndexFormat.isWordScalar(scalar) {
                out.append(scalar)
                inRun = false
            } else if !inRun {
                out.append(" ")
                inRun = true
            }
        }
        return String(out)
    }

    /// Whether the code point at `offset` is not a word code point, or the text ends there.
    static func endsAWord(_ value: String, at offset: Int) -> Bool {
        let t = value.unicodeScalars
        guard let i = t.index(t.startIndex, offsetBy: offset, limitedBy: t.endIndex), i < t.endIndex else { return true }
        return !IndexFormat.isWordScalar(t[i])
    }

    /// How `value` holds `term` at best, as `Score`'s marks: as a whole word (after and before a code
    /// point that is not a word code point, or the ends), at a word's start, or inside a word.
    static func wordFit(_ value: String, _ term: String) -> Int {
        var value = value, term = term
        return value.withUTF8 { t in
            term.withUTF8 { q in
                guard !q.isEmpty, q.count <= t.count else { return Score.insideWord }
                var best = Score.insideWord
                // Code points compared as UTF-8: an occurrence starts and ends on a code point's bounds.
                for i in 0...(t.count - q.count) where t[i] == q[0] && (i == 0 || !isWordScalar(endingAt: i, in: t)) {
                    var k = 1
                    while k < q.count && t[i + k] == q[k] { k += 1 }
                    guard k == q.count else { continue }
                    if i + q.count == t.count || !isWordScalar(startingAt: i + q.count, in: t) { return Score.wholeWord }
                    best = Score.wordStart
                }
                return best
            }
        }
    }

    /// Whether the code point of valid UTF-8 `text` that starts at byte `i`, or ends just before
    /// it, is a word code point.
    private static func isWordScalar(startingAt i: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        var decoder = UTF8()
        var bytes = text[i...].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return false }
        return IndexFormat.isWordScalar(scalar)
    }

    private static func isWordScalar(endingAt i: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = i - 1
        while start > 0 && text[start] & 0xC0 == 0x80 { start -= 1 }
        return isWordScalar(startingAt: start, in: text)
    }

    /// Whether `word` is within k edits of `pattern`, the whole of both (optimal string
    /// alignment: a swap of two adjacent code points is one edit).
    static func wordDistance(_ pattern: [Unicode.Scalar], _ word: [Unicode.Scalar], within k: Int) -> Bool {
        abs(pattern.count - word.count) <= k && alignment(pattern, word)[word.count] <= k
    }

    /// The fewest edits turning `pattern` into some start of `word` (its first j code points,
    /// any j), when at most k: the last row of the same table, its least.
    static func prefixDistance(_ pattern: [Unicode.Scalar], _ word: [Unicode.Scalar], within k: Int) -> Int? {
        let best = alignment(pattern, word).min()!
        return best <= k ? best : nil
    }

    /// The last row of the optimal string alignment table of `pattern` against `word`: entry j,
    /// the fewest edits (a swap of two adjacent code points one) turning `pattern` into the
    /// first j code points of `word`.
    private static func alignment(_ pattern: [Unicode.Scalar], _ word: [Unicode.Scalar]) -> [Int] {
        var beforeLast: [Int] = [], last = Array(0...word.count)
        for i in stride(from: 1, through: pattern.count, by: 1) {
            var row = [i] + [Int](repeating: 0, count: word.count)
            for j in stride(from: 1, through: word.count, by: 1) {
                row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + (pattern[i - 1] == word[j - 1] ? 0 : 1))
                if i > 1 && j > 1 && pattern[i - 1] == word[j - 2] && pattern[i - 2] == word[j - 1] {
                    row[j] = min(row[j], beforeLast[j - 2] + 1)
                }
            }
            (beforeLast, last) = (last, row)
        }
        return last
    }

    /// The fewest edits turning `pattern` into some substring of `text`, when at most k: Sellers'
    /// algorithm (the edit-distance table with a free start row) counting a swap of two adjacent
    /// code points as one edit (optimal string alignment), a column at a time.
    static func substringDistance(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar], within k: Int) -> Int? {
        let m = pattern.count
        var beforeLast = [Int](repeating: 0, count: m + 1)
        var last = Array(0...m)
        var column = [Int](repeating: 0, count: m + 1)
        var best = last[m]
        for (j, c) in text.enumerated() {
            column[0] = 0
            for i in 1...m {
                var cell = min(last[i - 1] + (pattern[i - 1] == c ? 0 : 1), last[i] + 1, column[i - 1] + 1)
                if i > 1 && j > 0 && pattern[i - 1] == text[j - 1] && pattern[i - 2] == c {
                    cell = min(cell, beforeLast[i - 2] + 1)
                }
                column[i] = cell
            }
            best = min(best, column[m])
            (beforeLast, last, column) = (last, column, beforeLast)
        }
        return best <= k ? best : nil
    }

}

/// The score's constants and formulas (docs/search-index.md, "Ranking"), written with + − × ÷
/// only, so that Swift and JavaScript compute the same doubles.
enum Score {
    static let titleWeight = 8.0
    static let fieldWeight = 4.0
    static let bodyWeight = 1.0
    static let phraseWeight = 1.5
    static let leadWeight = 1.0

    /// The marks of a body candidate (and a field's fit) say how a word holds the term: inside a
    /// word (1), at a word's start (3), a whole word (7); and in a body, whether often (8),
    /// whether in the body's lead (16).
    static let insideWord = 1, wordStart = 3, wholeWord = 7, often = 8, lead = 16
    /// The lead of a body: its first this many word pieces, one window where terms are near.
    static let leadWords = 24
    /// A body holding a word this many times holds it often.
    static let oftenCount = 3
    /// What a place counts, from its marks.
    static func place(_ marks: Int) -> Double { marks & 4 != 0 ? 1 : marks & 2 != 0 ? 0.75 : 0.5 }
    static let k1 = 1.2
    static let b = 0.5

    /// BM25's weight of `count` occurrences in a field of `length` where fields average `average`.
    static func saturation(length: Double, average: Double, count: Double) -> Double {
        (k1 + 1) * count / (count + k1 * (1 - b + b * length / average))
    }

    /// BM25's rarity, log2 taken piecewise linearly between powers of two.
    static func idf(documents: Int, holding: Int) -> Double {
        var x = 1 + (Double(documents - holding) + 0.5) / (Double(holding) + 0.5)
        var exponent = 0.0
        while x >= 2 {
            x /= 2
            exponent += 1
        }
        return exponent + x - 1
    }
}
