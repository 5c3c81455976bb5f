import Foundation
@testable import SiftKit

/// Any bytes as an item's body, through the tokenizer: for every term the folded body holds (a
/// run of 3 or more code points without white space), the body's words must include those that
/// docs/search-index.md's "Matching" looks up for it, so that "body matches never miss an item
/// whose folded body holds the term" (docs/search.md). One input in 16 (by its length) also goes
/// through the index writer and the reader, sharded or not: the files must read back, and each
/// such term must find the item.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ParallelMap.jobs = 1
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let item = SearchDocument(collection: "c", slug: "item", title: "item", url: "c/item/", fields: [("title", "item")], body: body)
    let digest = SearchIndexBuilder.digest(item)
    let words = Set(zip([0] + digest.wordEnds.dropLast(), digest.wordEnds).map { start, end in
        String(decoding: digest.wordBytes[Int(start)..<Int(end)], as: UTF8.self)
    })
    let terms = heldTerms(body)
    for term in terms {
        precondition(bodyWordsFind(term, in: words), "“\(term)”: the body's words lack what matching looks up")
    }
    if size % 16 == 0 { roundTrip(item, terms, sharded: size % 32 == 0) }
    return 0
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

/// The item and another through the writer and the reader: each term must find the item.
func roundTrip(_ item: SearchDocument, _ terms: [String], sharded: Bool) {
    var builder = SearchIndexBuilder(shardThreshold: sharded ? 0 : 192 * 1024, shardTarget: 200)
    builder.addCollection(SearchCollectionInfo(name: "c", title: "C"))
    builder.add(SearchIndexBuilder.digest(SearchDocument(collection: "c", slug: "other", title: "other", url: "c/other/",
                                                         fields: [("title", "other")], body: "the other body")))
    builder.add(SearchIndexBuilder.digest(item))
    var files: [String: Any] = [:]
    for (name, bytes) in builder.render(baseURL: "/") {
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
func heldTerms(_ body: String) -> [String] {
    var terms: [String] = []
    let tokens = Fold.fold(body).unicodeScalars.split(whereSeparator: IndexFormat.isSpaceScalar)
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
