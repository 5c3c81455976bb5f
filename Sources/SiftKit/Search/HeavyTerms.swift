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

    /// `positions`: per collection, its documents' places in its list, in index order (`Layout.positions`).
    init(words: WordList, holding: [[UInt8]: [Int32]], positions: [[Int]]) {
        self.words = words
        self.holding = holding
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

    /// A heavy term's body candidates by list number, with their marks (`Score`): each word
    /// holding it marks its documents whole, at a word's start or inside a word, and a word
    /// starting with it marks those holding it often and in their lead too.
    func bodyCandidates(_ term: [UInt8]) -> [Int32: Int] {
        var found: [Int32: Int] = [:]
        for g in holding[term] ?? [] {
            let word = words.word(Int(g)), postings = words.documents(Int(g))
            let starts = word.starts(with: term)
            let marks = word.elementsEqual(term) ? Score.wholeWord : starts ? Score.wordStart : Score.insideWord
            for d in postings.all { found[listNumber[Int(d)], default: 0] |= marks }
            guard starts else { continue }
            for d in postings.often { found[listNumber[Int(d)], default: 0] |= Score.often }
            for d in postings.lead { found[listNumber[Int(d)], default: 0] |= Score.lead }
        }
        return found
    }
}
