import Foundation
@testable import SiftKit

/// Any bytes as an item's body, through the tokenizer, checked against docs/search-index.md
/// ("Words and postings", "Matching") as written there, not as the tokenizer does it:
/// - for every term the folded body holds (a run of 3 or more code points without white space),
///   the body's words include those matching looks up for it, so that "body matches never miss
///   an item whose folded body holds the term" (docs/search.md);
/// - each code point and each adjacent pair of a CJK run is a word (CJK grams);
/// - 2 to 4 word pieces of a token, each apart from the next by one other code point and none
///   holding CJK, give their concatenation as a word (`e-mail` gives `email`).
/// One input in 16 (by its length) also goes through the index writer and the reader, sharded or
/// not: the files must read back, and each such term, pair and joined word must find the item,
/// as must a short word or single CJK code point beside a held term.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ParallelMap.jobs = 1
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let item = SearchDocument(collection: "c", slug: "item", title: "item", url: "c/item/", fields: [("title", "item")], body: body)
    let digest = SearchIndexBuilder.digest(item)
    let words = Set(zip([0] + digest.wordEnds.dropLast(), digest.wordEnds).map { start, end in
        String(decoding: digest.wordBytes[Int(start)..<Int(end)], as: UTF8.self)
    })
    let folded = Fold.fold(body)
    let terms = heldTerms(folded)
    for term in terms {
        precondition(bodyWordsFind(term, in: words), "“\(term)”: the body's words lack what matching looks up")
    }
    let grams = cjkGrams(folded), joined = joinedWords(folded)
    for word in grams + joined {
        precondition(words.contains(word), "“\(word)”: a CJK gram or joined word the body's words lack")
    }
    if size % 16 == 0 {
        let pairs = grams.filter { $0.unicodeScalars.count == 2 }
        let singles = grams.filter { $0.unicodeScalars.count == 1 }
        let short = (shortWords(folded).prefix(2) + singles.prefix(2)).compactMap { word in terms.first.map { $0 + " " + word } }
        let queries = terms + pairs.prefix(4) + joined.prefix(4).filter { $0.unicodeScalars.count >= 3 } + short
        roundTrip(digest, queries.filter { Fold.terms($0).joined(separator: " ") == $0 }, sharded: size % 32 == 0)
    }
    return 0
}

/// Each code point and each pair of adjacent ones of every maximal CJK run in a word piece.
func cjkGrams(_ folded: String) -> [String] {
    var grams: [String] = []
    for piece in IndexFormat.pieces(folded) where piece.isWord {
        var run: [Unicode.Scalar] = []
        for scalar in Array(piece.text.unicodeScalars) + ["a"] {
            if IndexFormat.isCJKScalar(scalar) { run.append(scalar); continue }
            for (n, first) in run.enumerated() {
                grams.append(String(first))
                if n + 1 < run.count { grams.append(String(first) + String(run[n + 1])) }
            }
            run = []
        }
    }
    return grams
}

/// The joined words of every token: chains of 2 to 4 word pieces without CJK, one other code
/// point between each and the next.
func joinedWords(_ folded: String) -> [String] {
    var joined: [String] = []
    for token in folded.unicodeScalars.split(whereSeparator: IndexFormat.isSpaceScalar) {
        var chain: [String] = []
        var afterSeparator = false
        func finish() {
            if (2...4).contains(chain.count) { joined.append(chain.joined()) }
            chain = []
            afterSeparator = false
        }
        for piece in IndexFormat.pieces(String(String.UnicodeScalarView(token))) {
            let cjk = piece.text.unicodeScalars.contains(where: IndexFormat.isCJKScalar)
            if piece.isWord && !cjk && (chain.isEmpty || afterSeparator) {
                chain.append(piece.text)
                afterSeparator = false
            } else if !piece.isWord && !chain.isEmpty && !afterSeparator && piece.text.unicodeScalars.count == 1 {
                afterSeparator = true
            } else {
                finish()
                if piece.isWord && !cjk { chain = [piece.text] }
            }
        }
        finish()
    }
    return joined
}

/// Word pieces of 1 or 2 code points outside CJK: whole words a short term of a longer query finds.
func shortWords(_ folded: String) -> [String] {
    IndexFormat.pieces(folded).filter { piece in
        piece.isWord && piece.text.unicodeScalars.count <= 2 && !piece.text.unicodeScalars.contains(where: IndexFormat.isCJKScalar)
    }.map(\.text)
}

/// Whether the words hold what a body match of `term` looks for: for a term of one piece, a word
/// containing it; else a word ending with the first piece and one starting with the last (each
/// when it has 3 or more code points), and each middle piece as a word.
func bodyWordsFind(_ term: String, in words: Set<String>) -> Bool {
    let pieces = IndexFormat.pieces(term).map(\.text)
    if pieces.count == 1 { return words.contains { IndexFormat.contains($0, pieces[0]) } }
    for (n, piece) in pieces.enumerated() {
        let long = piece.unicodeScalars.count >= 3
        if n == 0 {
            if long && !words.contains(where: { $0.utf8.reversed().starts(with: piece.utf8.reversed()) }) { return false }
        } else if n == pieces.count - 1 {
            if long && !words.contains(where: { $0.utf8.starts(with: piece.utf8) }) { return false }
        } else if !words.contains(piece) {
            return false
        }
    }
    return true
}

/// The item (its digest) and another through the writer and the reader: each query must find the item.
func roundTrip(_ item: SearchDigest, _ terms: [String], sharded: Bool) {
    var builder = SearchIndexBuilder(shardThreshold: sharded ? 0 : 192 * 1024, shardTarget: 200)
    builder.addCollection(SearchCollectionInfo(name: "c", title: "C"))
    builder.add(SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "other", title: "other", url: "c/other/",
                                                         fields: [("title", "other")], body: "the other body")))
    builder.add(item)
    var files: [String: Any] = [:]
    let rendered: [(String, [UInt8])]
    do { rendered = try builder.render(baseURL: "/") } catch { fatalError("the index of held documents failed to render: \(error)") }
    for (name, bytes) in rendered {
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes)) else { fatalError("\(name) is not JSON") }
        files[name] = value
    }
    let index: SearchIndex
    do { index = try SearchIndex(parsedFiles: files) } catch { fatalError("the index written does not read back: \(error)") }
    for term in terms {
        guard let answer = try? index.search(term) else { fatalError("“\(term)”: the search failed") }
        precondition(answer.results.contains { $0.slug == "item" }, "“\(term)” misses the body that holds it")
    }
}

/// Up to a dozen terms the folded body holds: tokens whole and cut at the start, the end and
/// inside, each as a query of its own folds to (fold is applied to queries again).
func heldTerms(_ folded: String) -> [String] {
    var terms: [String] = []
    let tokens = folded.unicodeScalars.split(whereSeparator: IndexFormat.isSpaceScalar)
    for token in tokens.prefix(6) where token.count >= 3 {
        let scalars = Array(token)
        for (start, length) in [(0, scalars.count), (0, 3), (scalars.count - 3, 3), (scalars.count / 3, min(4, scalars.count - scalars.count / 3))]
        where length >= 3 {
            let term = String(String.UnicodeScalarView(scalars[start..<(start + length)]))
            if Fold.terms(term) == [term] { terms.append(term) }
        }
    }
    return Array(terms.prefix(12))
}

// SwiftPM links executables with `main=FuzzTokenizer_main`: hand that entry point to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzTokenizer_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return runDriver(&argc, &argv, fuzz)
}
