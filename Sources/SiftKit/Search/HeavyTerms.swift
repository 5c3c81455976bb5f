/// The ranked layout's heavy terms (docs/search-index.md, "Answers"): the split keys whose
/// answers `AnswerFiles` works out at build time, each with the words holding it, whose postings
/// give its body candidates as `SearchIndex.searchBodies` would find them in the parts, numbered
/// as the version-5 tables the answers are worked out from number documents (list order).
struct HeavyTerms {
    let words: WordList
    /// Each heavy term's UTF-8, with the words holding it (`WordList` numbers), not bridges.
    let holding: [[UInt8]: [Int32]]
    /// Each document's number in list order, by its number in index order.
    let listNumber: [Int32]
    /// Each document's number in index order, by its number in list order.
    let indexNumber: [Int32]

    /// What finds the heavy terms in a text.
    let finder: Finder

    /// `positions`: per collection, its documents' places in its list, in index order (`Layout.positions`).
    init(words: WordList, holding: [[UInt8]: [Int32]], positions: [[Int]]) {
        self.words = words
        self.holding = holding
        finder = Finder(Set(holding.keys))
        var list: [Int32] = [], first = 0
        for places in positions {
            list += places.map { Int32(first + $0) }
            first += places.count
        }
        var index = [Int32](repeating: 0, count: list.count)
        for (i, l) in list.enumerated() { index[Int(l)] = Int32(i) }
        listNumber = list
        indexNumber = index
    }

    /// A heavy term's body candidates by list number, ascending, with their marks (`Score`):
    /// each word holding it marks its documents whole, at a word's start or inside a word, and a
    /// word starting with it marks those holding it often and in their lead too. Gathered in a
    /// byte per document rather than a dictionary: a heavy term has tens of thousands, and the
    /// answers read them in document order.
    func bodyCandidates(_ term: [UInt8]) -> [(doc: Int32, marks: Int)] {
        var marks = [UInt8](repeating: 0, count: listNumber.count)
        marks.withUnsafeMutableBufferPointer { found in
            listNumber.withUnsafeBufferPointer { list in
                for g in holding[term] ?? [] {
                    let word = words.word(Int(g)), starts = word.starts(with: term)
                    let mark = UInt8(word.elementsEqual(term) ? Score.wholeWord : starts ? Score.wordStart : Score.insideWord)
                    // Most words hold a term inside: their often and lead postings, decoded from text, are not read.
                    guard starts else {
                        for d in words.allDocuments(Int(g)) { found[Int(list[Int(d)])] |= mark }
                        continue
                    }
                    let postings = words.allPostings(Int(g))
                    for d in postings.all { found[Int(list[Int(d)])] |= mark }
                    for d in postings.often { found[Int(list[Int(d)])] |= UInt8(Score.often) }
                    for d in postings.lead { found[Int(list[Int(d)])] |= UInt8(Score.lead) }
                }
            }
        }
        var candidates: [(doc: Int32, marks: Int)] = []
        for (d, m) in marks.enumerated() where m != 0 { candidates.append((Int32(d), Int(m))) }
        return candidates
    }

    /// The most code points of a heavy term: the substrings of a word are weighed up to this
    /// length (a 1,600-letter word's every substring took 800 MB).
    static let longest = 16

    /// Whether UTF-8 text is one word piece with no CJK code point in it: what a heavy term is.
    static func isPlain<C: Collection>(_ text: C) -> Bool where C.Element == UInt8 {
        let string = String(decoding: text, as: UTF8.self), pieces = IndexFormat.pieces(string)
        return pieces.count == 1 && pieces[0].isWord && !string.unicodeScalars.contains(where: IndexFormat.isCJKScalar)
    }

    /// Finds the heavy terms a text holds: from each code point on, it reads on while what it has
    /// read starts some term.
    struct Finder: Sendable {
        let terms: Set<[UInt8]>
        /// Every start of a term of three code points or more.
        let starts: Set<[UInt8]>

        init(_ terms: Set<[UInt8]>) {
            self.terms = terms
            var starts = Set<[UInt8]>(), bounds: [Int] = []
            for term in terms {
                WordList.codePointStarts(term, into: &bounds)
                for end in bounds.dropFirst(3) { starts.insert(Array(term[..<end])) }
            }
            self.starts = starts
        }

        /// Calls `found` with each term `text` (UTF-8) holds, once per place.
        func each<C: Collection>(in text: C, _ found: ([UInt8]) -> Void) where C.Element == UInt8, C.Index == Int {
            var bounds: [Int] = []
            WordList.codePointStarts(text, into: &bounds)
            for i in bounds.indices.dropLast(3) {
                for j in (i + 3)..<bounds.count {
                    let read = Array(text[bounds[i]..<bounds[j]])
                    guard starts.contains(read) else { break }
                    if terms.contains(read) { found(read) }
                }
            }
        }
    }
}
