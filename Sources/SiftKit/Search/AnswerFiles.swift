import Foundation

/// The answers of short terms, worked out at build time (docs/search-index.md, "Answers"): for
/// every term of one or two code points that matches fields only and that some document's folded
/// field holds, and for the empty query, its matches counted per cell (a collection's scope, or its documents without one)
/// and the first `rows` of every cell in rank order. A client answers the first keystrokes from one
/// small file instead of the document tables. The answers come from `SearchIndex` itself, run over
/// the index as rendered, so they are what a client computing them would find.
struct AnswerFiles {
    /// The rows an answer holds of each cell: the search bar's first screen of a list.
    static let rows = 50
    /// The raw bytes an answer file aims at.
    static let fileTarget = 24 * 1024

    let index: SearchIndex
    let cellCount: Int
    /// Each document's cell: its collection's cells come one per scope, then one for its documents without one.
    let cells: [Int]
    /// Each cell's collection.
    let cellCollections: [Int]
    /// Per collection with facets and an outline of them (`SearchIndexBuilder.facetOutline`: a
    /// facet of thousands of values would weigh on every answer), its facet values in its facets
    /// file's order (fields in order, each field's values in order): how many, and each
    /// document's, as places in that order: document d's are `facetPlaces[facetStarts[d]..<facetStarts[d + 1]]`
    /// (one array for all: an answer counts tens of thousands of documents').
    let facetWidths: [Int]
    let facetStarts: [Int32]
    let facetPlaces: [Int32]
    /// Each document's body length as a number below `lengthClasses` (equal lengths, equal numbers):
    /// what a body-only hit's score depends on, with its marks.
    let lengthClass: [Int32]
    let lengthClasses: Int
    /// The ranked layout's heavy terms, answered with the short terms: their body candidates.
    let heavy: HeavyTerms?
    /// The title words of the keys of heavy terms of 4+ code points (docs/search-index.md,
    /// "Typos", version 6), each with the documents whose titles hold it: their typo matches.
    let typoWords: [[Unicode.Scalar]: [(word: [Unicode.Scalar], docs: [Int32])]]

    init(index: SearchIndex, heavy: HeavyTerms? = nil) throws {
        self.index = index
        self.heavy = heavy
        var next = 0
        let firstCells = index.collections.map { c in
            defer { next += c.scopes.count + 1 }
            return next
        }
        cellCount = next
        cellCollections = index.collections.indices.flatMap { c in Array(repeating: c, count: index.collections[c].scopes.count + 1) }
        var places = [[Int32]](repeating: [], count: index.docs.count)
        facetWidths = try index.collections.map { c in
            guard let file = c.facetsFile else { return 0 }
            guard let table = try index.store.object(file) as? [String: Any], let facets = table["facets"] as? [[String: Any]] else {
                throw index.store.corrupt(file, "collection “\(c.name)”: expected an object of facets and sorts")
            }
            guard SearchIndexBuilder.facetOutline(table) != nil else { return 0 }
            var width = 0
            for f in facets {
                guard let values = f["values"] as? [String] else { throw index.store.corrupt(file, "collection “\(c.name)”: a facet: expected values") }
                let holders = try Facets.holders(f, values: values, count: c.count, corrupt: { index.store.corrupt(file, $0) })
                for (v, docs) in holders.enumerated() {
                    for d in docs { places[c.first + Int(d)].append(Int32(width + v)) }
                }
                width += values.count
            }
            return width
        }
        var starts: [Int32] = [0]
        starts.reserveCapacity(places.count + 1)
        for p in places { starts.append(starts.last! + Int32(p.count)) }
        facetStarts = starts
        facetPlaces = Array(places.joined())
        var classes: [UInt64: Int32] = [:]
        lengthClass = index.docs.map { doc in
            let bits = doc.bodyLength.bitPattern
            if let known = classes[bits] { return known }
            classes[bits] = Int32(classes.count)
            return Int32(classes.count - 1)
        }
        lengthClasses = classes.count
        typoWords = Self.titleWords(index, keys: Set((heavy?.holding.keys ?? [:].keys).flatMap { term in
            let text = String(decoding: term, as: UTF8.self)
            return SearchIndex.typoEdits(text) > 0 ? SearchIndex.typoKeys(Array(text.unicodeScalars)) : []
        }))
        // A scope by its code points (a String's == would take a decomposed "Ü" for a composed one).
        let scopeNumbers = index.collections.map { collection in
            Dictionary(collection.scopes.enumerated().map { (Array($1.utf8), $0) }, uniquingKeysWith: { first, _ in first })
        }
        cells = index.docs.map { doc in
            let c = doc.collection
            return firstCells[c] + (doc.scope.flatMap { scopeNumbers[c][Array($0.utf8)] } ?? index.collections[c].scopes.count)
        }
    }

    /// The answers files by name (`answers-N.json`), N = FNV-1a of the term's UTF-8 modulo their
    /// count, which is the length of the list.
    func files() throws -> [(String, [UInt8])] {
        var holders = Self.termsInFields(index, heavy: heavy?.finder)
        for term in (heavy?.holding ?? [:]).keys where holders[term] == nil { holders[term] = [] }
        // The empty query: a search bar's on focus, or a scope or facet value chosen with no text.
        holders[[]] = index.docs.indices.map { Int32($0) }
        let terms = holders.keys.sorted { $0.lexicographicallyPrecedes($1) }
        let answers = try ParallelMap.map(terms) { term in
            Result { try answer(String(decoding: term, as: UTF8.self), holders[term]!) }
        }.map { try $0.get() }
        let bytes = answers.reduce(0) { $0 + $1.count }
        let count = max(1, min(IndexFormat.buckets, (bytes + Self.fileTarget - 1) / Self.fileTarget))
        var objects = [[UInt8]](repeating: [UInt8(ascii: "{")], count: count)
        for (term, answer) in zip(terms, answers) {
            let n = Self.file(of: term, count: count)
            if objects[n].count > 1 { objects[n].append(UInt8(ascii: ",")) }
            JSONWriter.string(term, into: &objects[n])
            objects[n].append(UInt8(ascii: ":"))
            objects[n] += answer
        }
        return objects.enumerated().map { n, object in (IndexFormat.answerFileName(n), object + Array("}\n".utf8)) }
    }

    /// The file of `count` holding a term's answer (its UTF-8).
    static func file(of term: [UInt8], count: Int) -> Int { Int(IndexFormat.fnv1a(term) % UInt32(count)) }

    /// One term's answer: `{"hits":[…],"counts":[…]}`, each hit `[cell, position, title]`, then its
    /// slug when not the derived one, then its URL when not the usual one; then, when some
    /// collection's facets are outlined, `"facets":{"cell":[…]}`, each cell's matches counted by
    /// facet value (`facetPlaces`). A heavy term's body matches are listed after the hits,
    /// `"body":[[k, document], …]`: the k-th hit, and its document's number in index order (for its
    /// excerpt). `holders`: the documents whose fields hold the term.
    func answer(_ term: String, _ holders: [Int32]) throws -> [UInt8] {
        if let heavy, heavy.holding[Array(term.utf8)] != nil { return heavyAnswer(term, holders, heavy) }
        let searched = try index.searchedTerms(term.isEmpty ? [] : [term])
        var byCell = [[SearchIndex.Hit]](repeating: [], count: cellCount)
        for d in holders {
            // No term: every document, in list order (`SearchIndex.search` ranks nothing).
            let hit = term.isEmpty ? SearchIndex.Hit(doc: Int(d), match: .field, group: .scored) : index.fullMatch(Int(d), searched)
            if let hit { byCell[cells[hit.doc]].append(hit) }
        }
        // Each cell's first rows, then those of every cell in one order.
        let ranked = term.isEmpty ? byCell.flatMap { $0.prefix(Self.rows) }.sorted { $0.doc < $1.doc }
            : index.order(byCell.flatMap { index.order($0, searched, first: Self.rows) }, searched)
        return json(ranked, byCell)
    }

    /// A heavy term's answer, its body candidates from its words (`HeavyTerms`), not read from
    /// shards. Tens of thousands of documents hold one, most in their bodies alone. Such a hit is
    /// in no title group, and its score is that of its marks and body length, a few hundred pairs,
    /// which `SearchIndex.score` works out once each; so only the body-only hits that score as
    /// high as a cell's `rows`-th best of them can be among its first rows, and only they are
    /// ordered. The candidates are read in document order, each scored once: in hash order, every
    /// read of a document's length missed the cache, and that was most of a large site's answers.
    private func heavyAnswer(_ term: String, _ inFields: [Int32], _ heavy: HeavyTerms) -> [UInt8] {
        let candidates = heavy.bodyCandidates(Array(term.utf8))
        var body: [Int32: Int] = [:]
        body.reserveCapacity(candidates.count)
        for c in candidates { body[c.doc] = c.marks }
        let searched = [SearchIndex.SearchedTerm(text: term, scalars: Array(term.unicodeScalars), body: body,
                                                 idf: Score.idf(documents: index.docs.count, holding: body.count), typoEdits: 0, searchesAlone: true)]
        var byCell = [[SearchIndex.Hit]](repeating: [], count: cellCount)
        for d in inFields { byCell[cells[Int(d)]].append(index.fullMatch(Int(d), searched)!) }
        let fieldHits = byCell.map(\.count)
        let score = { (d: Int) in index.score(index.docs[d].folded, bodyLength: index.docs[d].bodyLength, Int32(d), searched, phrase: term) }
        // Each pair of marks and length scored once, NaN until then (marks are below twice the highest).
        var byMarks = [Double](repeating: .nan, count: (Score.lead << 1) * lengthClasses)
        let bodyScore = { (d: Int, marks: Int) -> Double in
            let k = marks * lengthClasses + Int(lengthClass[d])
            if byMarks[k].isNaN { byMarks[k] = score(d) }
            return byMarks[k]
        }
        // Each cell's body-only hits with their scores; `inFields` is ascending, as the candidates are.
        var bodyOnly = [[(doc: Int, score: Double)]](repeating: [], count: cellCount)
        var f = 0
        for (d, marks) in candidates {
            while f < inFields.count && inFields[f] < d { f += 1 }
            if f < inFields.count && inFields[f] == d { continue }
            let cell = cells[Int(d)]
            byCell[cell].append(SearchIndex.Hit(doc: Int(d), match: .body, group: .scored))
            bodyOnly[cell].append((Int(d), bodyScore(Int(d), marks)))
        }
        let scoring = { (hit: SearchIndex.Hit) in hit.match == .body ? bodyScore(hit.doc, body[Int32(hit.doc)]!) : score(hit.doc) }
        let firstRows = byCell.indices.flatMap { cell -> [SearchIndex.Hit] in
            var hits = Array(byCell[cell][..<fieldHits[cell]])
            let least = bodyOnly[cell].count > Self.rows ? Self.best(Self.rows, of: bodyOnly[cell].lazy.map(\.score)) : -Double.infinity
            for (d, s) in bodyOnly[cell] where s >= least { hits.append(SearchIndex.Hit(doc: d, match: .body, group: .scored)) }
            return index.order(hits, first: Self.rows, scoring: scoring)
        }
        let ranked = index.order(firstRows, first: nil, scoring: scoring)
        return json(ranked, byCell, typos: typoMatches(searched[0], byCell))
    }

    /// The `n`-th highest of `scores` (ties counted), given more than `n`.
    static func best<S: Sequence>(_ n: Int, of scores: S) -> Double where S.Element == Double {
        // The `n` highest so far, ascending: most scores are below the lowest and cost one comparison.
        var top: [Double] = []
        top.reserveCapacity(n + 1)
        for s in scores where top.count < n || s > top[0] {
            var low = 0, high = top.count
            while low < high {
                let mid = (low + high) / 2
                if top[mid] < s { low = mid + 1 } else { high = mid }
            }
            top.insert(s, at: low)
            if top.count > n { top.removeFirst() }
        }
        return top[0]
    }

    /// Every title word of 3+ code points (`SearchIndexBuilder.titleWords`) whose key is one of
    /// `keys`, with the documents whose titles hold it, ascending.
    static func titleWords(_ index: SearchIndex, keys: Set<[Unicode.Scalar]>) -> [[Unicode.Scalar]: [(word: [Unicode.Scalar], docs: [Int32])]] {
        guard !keys.isEmpty else { return [:] }
        var holders: [[Unicode.Scalar]: [Int32]] = [:]
        for (d, doc) in index.docs.enumerated() {
            var seen = Set<[Unicode.Scalar]>()
            for word in (doc.folded.first ?? "").unicodeScalars.split(whereSeparator: { !IndexFormat.isWordScalar($0) }) where word.count >= 3 {
                let scalars = Array(word)
                if keys.contains(Array(scalars.prefix(3))) && seen.insert(scalars).inserted { holders[scalars, default: []].append(Int32(d)) }
            }
        }
        var out: [[Unicode.Scalar]: [(word: [Unicode.Scalar], docs: [Int32])]] = [:]
        for (word, docs) in holders { out[Array(word.prefix(3)), default: []].append((word, docs)) }
        return out
    }

    /// "Typos" (version 6) of a heavy term's answer: in each cell of fewer than 5 full matches
    /// (`byCell`), the documents whose title words of the term's typo keys make them typo matches, each
    /// cell's first rows in one order, and every such cell's. A client adds them where the scope
    /// searched (or every collection searched) has fewer than 5 full matches.
    private func typoMatches(_ term: SearchIndex.SearchedTerm, _ byCell: [[SearchIndex.Hit]]) -> (ranked: [SearchIndex.Hit], byCell: [[SearchIndex.Hit]])? {
        let k = SearchIndex.typoEdits(term.text), pattern = term.scalars
        guard k > 0 else { return nil }
        var found: [Int: (distance: Int, whole: Bool)] = [:]
        for (word, docs) in SearchIndex.typoKeys(pattern).flatMap({ typoWords[$0] ?? [] }) {
            guard let distance = SearchIndex.prefixDistance(pattern, word, within: k) else { continue }
            let whole = SearchIndex.wordDistance(pattern, word, within: k)
            for d in docs where byCell[cells[Int(d)]].count < 5 {
                let known = found[Int(d)]
                found[Int(d)] = (min(distance, known?.distance ?? distance), whole || known?.whole == true)
            }
        }
        let full = Set(byCell.filter { $0.count < 5 }.joined().map(\.doc))
        var typos = [[SearchIndex.Hit]](repeating: [], count: cellCount)
        for (d, fit) in found.sorted(by: { $0.key < $1.key }) where !full.contains(d) && fit.distance > 0 {
            typos[cells[d]].append(SearchIndex.Hit(doc: d, match: .fuzzy, group: .fuzzy, distance: fit.distance, words: fit.whole ? 1 : 0))
        }
        var searched = [term]
        searched[0].typoEdits = k
        return (index.order(typos.flatMap { index.order($0, searched, first: Self.rows) }, searched), typos)
    }

    /// An answer's JSON: its hits in order, each cell's `byCell`; a heavy term's typo matches
    /// (`typoMatches`), when it has some: `"typos":[…]` in order, as `hits`, and `"typoCounts":[…]` by cell.
    private func json(_ ranked: [SearchIndex.Hit], _ byCell: [[SearchIndex.Hit]], typos: (ranked: [SearchIndex.Hit], byCell: [[SearchIndex.Hit]])? = nil) -> [UInt8] {
        var out = JSONWriter()
        out.raw("{\"hits\":")
        rows(ranked, into: &out)
        if let heavy, ranked.contains(where: { $0.match == .body }) {
            let body = ranked.enumerated().filter { $0.element.match == .body }
            out.raw(",\"body\":[" + body.map { "[\($0.offset),\(heavy.indexNumber[$0.element.doc])]" }.joined(separator: ",") + "]")
        }
        out.raw(",\"counts\":")
        out.ints(byCell.map(\.count))
        if let typos, !typos.ranked.isEmpty {
            out.raw(",\"typos\":")
            rows(typos.ranked, into: &out)
            out.raw(",\"typoCounts\":")
            out.ints(typos.byCell.map(\.count))
        }
        if facetWidths.contains(where: { $0 > 0 }) {
            // Each cell's matches counted by facet value, for the cells with matches and facets.
            out.raw(",\"facets\":{")
            var firstCell = true
            for (cell, hits) in byCell.enumerated() where !hits.isEmpty && facetWidths[cellCollections[cell]] > 0 {
                var counts = [Int](repeating: 0, count: facetWidths[cellCollections[cell]])
                for hit in hits {
                    for k in Int(facetStarts[hit.doc])..<Int(facetStarts[hit.doc + 1]) { counts[Int(facetPlaces[k])] += 1 }
                }
                out.raw(firstCell ? "\"\(cell)\":" : ",\"\(cell)\":")
                firstCell = false
                out.ints(counts)
            }
            out.raw("}")
        }
        out.raw("}")
        return Array(out.out.utf8)
    }

    /// Hits as an answer lists them: `[[cell, position, title], …]`, each with its slug when not
    /// the derived one, then its URL when not the usual one.
    private func rows(_ hits: [SearchIndex.Hit], into out: inout JSONWriter) {
        out.raw("[")
        var first = true
        for hit in hits {
            let cell = cells[hit.doc]
            let doc = index.docs[hit.doc], c = index.collections[doc.collection]
            out.raw(first ? "[" : ",[")
            first = false
            out.raw("\(cell),\(doc.position),")
            out.string(doc.title)
            let derived = IndexFormat.derivedSlug(doc.title) ?? ""
            let usual = doc.url.utf8.elementsEqual("\(c.name)/\(doc.slug)/".utf8)
            if !usual || !doc.slug.utf8.elementsEqual(derived.utf8) {
                out.raw(",")
                out.string(doc.slug.utf8.elementsEqual(derived.utf8) ? "" : doc.slug)
            }
            if !usual {
                out.raw(",")
                out.string(doc.url)
            }
            out.raw("]")
        }
        out.raw("]")
    }

    /// Every term with an answer (its UTF-8: code points compared, not characters), with the
    /// documents whose fields hold it, ascending: each substring of one or two code points of a
    /// folded field value that holds no white space and is not a pair of CJK word code points (a CJK term, which
    /// searches bodies too).
    /// With `heavy` terms (`HeavyTerms`), those the fields hold too.
    static func termsInFields(_ index: SearchIndex, heavy: HeavyTerms.Finder? = nil) -> [[UInt8]: [Int32]] {
        // Runs of documents on every core, merged in order: each term's documents stay ascending.
        let step = max(1024, index.docs.count / (ParallelMap.jobs * 4) + 1)
        let parts = ParallelMap.map(Array(stride(from: 0, to: index.docs.count, by: step))) { first in
            termsInFields(index, first..<min(first + step, index.docs.count), heavy: heavy)
        }
        return ParallelMap.merged(consume parts) { $0 += $1 }
    }

    private static func termsInFields(_ index: SearchIndex, _ range: Range<Int>, heavy: HeavyTerms.Finder?) -> [[UInt8]: [Int32]] {
        var holders: [[UInt8]: [Int32]] = [:]
        var seen = Set<[UInt8]>()
        for d in range {
            seen.removeAll(keepingCapacity: true)
            shortTerms(of: index.docs[d].folded, into: &seen)
            if let heavy {
                for value in index.docs[d].folded { heavy.each(in: Array(value.utf8)) { seen.insert($0) } }
            }
            for term in seen { holders[term, default: []].append(Int32(d)) }
        }
        return holders
    }

    /// The short terms folded field values hold (their UTF-8): each substring of one or two code
    /// points with no white space in it that is not a pair of CJK word code points.
    static func shortTerms(of folded: [String], into seen: inout Set<[UInt8]>) {
        for value in folded {
            let scalars = Array(value.unicodeScalars)
            for (i, s) in scalars.enumerated() where !s.properties.isWhitespace {
                let one = Array(UTF8.encode(s)!)
                seen.insert(one)
                guard i + 1 < scalars.count else { continue }
                let next = scalars[i + 1]
                guard !next.properties.isWhitespace, !(IndexFormat.isCJKWordScalar(s) && IndexFormat.isCJKWordScalar(next)) else { continue }
                seen.insert(one + UTF8.encode(next)!)
            }
        }
    }
}
