import Foundation
@testable import SiftKit

/// Reads the fuzzer's bytes as a sequence of choices; past the end every choice is 0.
struct FuzzChoices {
    private let bytes: [UInt8]
    private var next = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        guard next < bytes.count else { return 0 }
        defer { next += 1 }
        return bytes[next]
    }

    /// A number in `range`.
    mutating func number(_ range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        let raw = Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % span
    }

    /// True about once in `n` choices: where an index is made wrong on purpose.
    mutating func oneIn(_ n: Int) -> Bool { number(0...(n - 1)) == 0 }

    mutating func pick<T>(_ options: [T]) -> T { options[number(0...(options.count - 1))] }

    /// Text from words the engines treat specially (scripts, marks, punctuation, CJK, emoji), or
    /// raw bytes from the input.
    mutating func text() -> String {
        if oneIn(6) {
            let length = number(0...6)
            return String(decoding: (0..<length).map { _ in byte() }, as: UTF8.self)
        }
        return (0..<number(1...3)).map { _ in pick(Self.words) }.joined(separator: pick([" ", "", "-", " "]))
    }

    static let words = [
        "a", "ab", "choc", "Chocolate", "bar", "Barr", "harbor", "arbor", "Déjà", "vu", "Ελλάδα", "ς",
        "Москва", "俄罗斯", "東京", "文件", "ファイル", "한국", "e-mail", "Wi-Fi", "wifi", "😀", "’", "don't",
        "Ⅻ", "ﬁle", "ǅ", "İ", "\u{0301}", "\u{3099}", "", " ", "@", "!", "/", "-", "0", "1960",
    ]
}

/// A search index made of choices, already "parsed" (file name → JSON value): mostly what
/// `sift build` writes, with a wrong count, code, id, type or file here and there, so that the
/// decoders behind `SearchIndex` (tables, codes, postings, shards, unions) run on every input
/// without JSON text in between.
struct IndexGenerator {
    var choices: FuzzChoices
    var files: [String: Any] = [:]
    /// Titles and words put in the index, for the queries.
    var vocabulary: [String] = []
    var scopes: [String] = []
    var collectionNames: [String] = []
    /// Facet fields with a value each, and sort fields, for filtering and ordering.
    var filters: [(field: String, value: String)] = []
    var sortFields: [String] = []

    init(_ bytes: [UInt8]) { choices = FuzzChoices(bytes) }

    mutating func make() {
        var manifest: [String: Any] = ["version": choices.oneIn(32) ? choices.number(0...9) : IndexFormat.version]
        if !choices.oneIn(16) { manifest["base"] = choices.oneIn(8) ? choices.text() : "/" }
        let shards = choices.number(0...3)
        manifest["shards"] = choices.oneIn(32) ? -1 : shards
        var bounds = (0..<max(0, shards - 1)).map { _ in choices.number(0...IndexFormat.buckets) }.sorted()
        if choices.oneIn(16) { bounds.append(choices.number(0...5_000)) }
        if shards > 0 { manifest["bounds"] = bounds }
        var total = 0
        var collections: [Any] = []
        for number in 0..<choices.number(0...3) {
            collections.append(collection(number, firstDocument: total, total: &total))
        }
        manifest["collections"] = choices.oneIn(32) ? "none" : collections
        let words = wordEntries(documents: total)
        if shards == 0 {
            manifest["words"] = choices.oneIn(32) ? ["x": 1] as [String: Any] : words
        } else {
            shard(words, into: shards, bounds: bounds)
        }
        // The manifest's `files` (name → hash): an index read already parsed goes by the names
        // themselves, but the map is still checked.
        if choices.oneIn(4) {
            manifest["files"] = choices.oneIn(8) ? ["shard-0.json": 7] as [String: Any] : Dictionary(uniqueKeysWithValues: files.keys.map { ($0, "0123abcd") })
        }
        // Last, so that inputs made before text files map to the same index up to here (past its
        // end an input's choices are 0: no text files).
        if choices.number(0...2) > 0 { textFiles(documents: total, into: &manifest) }
        files["manifest.json"] = manifest
    }

    /// The excerpts' text files (docs/search-index.md, "Text files"): `texts` entries a file and
    /// `textGroup` files a group, each entry `[]` or a text and then an id, a title and a text per
    /// section; now and then a count, a shape or a type wrong, or a file missing.
    private mutating func textFiles(documents: Int, into manifest: inout [String: Any]) {
        let perFile = choices.oneIn(16) ? choices.pick([0, -1, 1 << 40]) : choices.number(1...3)
        manifest["texts"] = choices.oneIn(32) ? "3" as Any : perFile
        manifest["textGroup"] = choices.oneIn(16) ? choices.pick([0, -2, "x"] as [Any]) : choices.number(1...3)
        let fileCount = (1...3).contains(perFile) ? (documents + perFile - 1) / perFile : 1
        for n in 0..<min(fileCount + (choices.oneIn(8) ? 1 : 0), 8) where !choices.oneIn(16) {
            let count = (1...3).contains(perFile) ? min(perFile, documents - n * perFile) : 1
            let entries: [Any] = (0..<max(0, count + (choices.oneIn(12) ? 1 : 0))).map { _ in textEntry() }
            files[IndexFormat.textFileName(n)] = choices.oneIn(32) ? "none" as Any : entries
        }
    }

    /// One document's entry: its text before the first heading, then each section's id, title and text.
    private mutating func textEntry() -> Any {
        if choices.oneIn(4) { return [] as [String] }
        var entry: [Any] = [(0..<choices.number(0...4)).map { _ in word() }.joined(separator: " ")]
        for _ in 0..<choices.number(0...2) {
            entry += [choices.text(), word(), (0..<choices.number(0...6)).map { _ in word() }.joined(separator: choices.pick([" ", "\n", ". "]))]
        }
        if choices.oneIn(16) { entry.removeLast() }
        if choices.oneIn(32) { entry.append(7) }
        return entry
    }

    /// One collection, its table inline or in a `docs-C.json` file.
    private mutating func collection(_ number: Int, firstDocument: Int, total: inout Int) -> [String: Any] {
        let name = choices.oneIn(8) ? choices.text() : choices.pick(["candies", "countries", "pages", "ítems", "c"])
        collectionNames.append(name)
        let count = choices.number(0...6)
        total += count
        let own = (0..<choices.number(0...3)).map { _ in choices.pick(["Chocolate", "Hard", "Other", "Ü", "U\u{0308}", ""]) }
        scopes += own
        var c: [String: Any] = ["name": name, "title": choices.text(), "count": choices.oneIn(24) ? count + 1 : count]
        if !own.isEmpty || choices.oneIn(8) { c["scopes"] = choices.oneIn(32) ? [1, 2] as [Any] : own }
        let table = documentTable(count: count, scopes: own.count)
        if choices.oneIn(3) {
            let file = choices.oneIn(16) ? choices.text() : IndexFormat.facetFileName(number)
            c["facets"] = choices.oneIn(32) ? 3 as Any : file
            if !choices.oneIn(16) { files[file] = facetTable(count: count) }
        }
        if choices.oneIn(4) {
            let file = choices.oneIn(16) ? choices.pick(["../docs.json", "", ".", "docs-\(number).json/x"]) : "docs-\(number).json"
            c["docs"] = file
            if !choices.oneIn(16) { files[file] = table }
        } else {
            c["docs"] = table
        }
        return c
    }

    private mutating func documentTable(count: Int, scopes: Int) -> [String: Any] {
        var table: [String: Any] = [:]
        let titles = (0..<count).map { _ in choices.text() }
        vocabulary += titles
        table["slugs"] = (0..<(choices.oneIn(16) ? count + 1 : count)).map { _ in choices.oneIn(2) ? "" : choices.text() }
        if scopes > 0 || choices.oneIn(8) {
            table["scope"] = codes(count: count, below: scopes + 1)
        }
        if choices.oneIn(2) { table["lengths"] = codes(count: count, below: 64) }
        if choices.oneIn(4) { table["urls"] = ["\(choices.number(0...count))": choices.text()] }
        var fields: [Any] = [["name": "title", "values": choices.oneIn(16) ? Array(titles.dropLast()) : titles]]
        for _ in 0..<choices.number(0...2) {
            switch choices.number(0...2) {
            case 0:
                fields.append(["name": choices.text(), "values": (0..<count).map { _ in choices.text() }])
            case 1:
                let values = (0..<choices.number(1...3)).map { _ in choices.text() }
                vocabulary += values
                fields.append(["name": choices.text(), "values": values, "ids": codes(count: count, below: values.count)])
            default:
                fields.append(["name": "scope", "scope": true])
            }
        }
        if !choices.oneIn(32) { table["fields"] = fields }
        return table
    }

    /// A `facets-C.json`: facet fields with their values' postings (numbered within the
    /// collection) and sort fields with one place a document.
    private mutating func facetTable(count: Int) -> [String: Any] {
        var facets: [Any] = []
        for _ in 0..<choices.number(0...2) {
            let name = choices.pick(["region", "landlocked", "Région", choices.text()])
            let values = (0..<choices.number(0...3)).map { _ in choices.text() }
            filters += values.map { (name, $0) }
            let postings = values.map { _ in
                IndexFormat.encodePostings(Set((0..<choices.number(0...3)).map { _ in Int32(choices.number(0...max(0, count - (choices.oneIn(12) ? -5 : 1)))) }).sorted())
            }
            facets.append(["name": name, "values": values, "postings": choices.oneIn(16) ? Array(postings.dropLast()) : postings])
        }
        var sorts: [Any] = []
        for _ in 0..<choices.number(0...2) {
            let name = choices.pick(["area", "name", choices.text()])
            sortFields.append(name)
            sorts.append(["name": name, "order": codes(count: count, below: count + 1)])
        }
        var table: [String: Any] = ["facets": facets, "sorts": sorts]
        if choices.oneIn(16) { table[choices.pick(["facets", "sorts"])] = "none" }
        return table
    }

    /// A word the index holds, now and then, so that excerpts mark it; else any text.
    private mutating func word() -> String {
        choices.oneIn(2) && !vocabulary.isEmpty ? choices.pick(vocabulary) : choices.text()
    }

    /// `count` codes below `limit` as `IndexFormat` writes them, now and then one out of range,
    /// one digit short, or digits that are not base64.
    private mutating func codes(count: Int, below limit: Int) -> String {
        if choices.oneIn(12) { return choices.text() }
        var values = (0..<count).map { _ in choices.number(0...max(0, limit - 1)) }
        if !values.isEmpty && choices.oneIn(12) { values[0] = limit + choices.number(0...70) }
        let written = IndexFormat.codes(values, limit: max(limit, (values.max() ?? 0) + 1))
        return choices.oneIn(12) ? String(written.dropLast()) : written
    }

    /// Word entries: postings of documents below `documents` (now and then beyond it), bitmaps,
    /// "often" postings after a colon, `@`, union markers and text that is not postings.
    private mutating func wordEntries(documents: Int) -> [String: Any] {
        var words: [String: Any] = [:]
        for _ in 0..<choices.number(0...10) {
            let word = Fold.fold(choices.oneIn(3) && !vocabulary.isEmpty ? choices.pick(vocabulary) : choices.text())
            vocabulary.append(word)
            switch choices.number(0...9) {
            case 0: words[word] = "@"
            case 1: words[word] = choices.text()
            case 2: words[" " + word] = ""
            case 3: words[word] = choices.number(0...9)
            default:
                let limit = choices.oneIn(12) ? documents + 40 : documents
                let ids = Set((0..<choices.number(0...6)).map { _ in Int32(choices.number(0...max(0, limit - 1))) }).sorted()
                var postings = IndexFormat.encodePostings(limit == 0 ? [] : ids)
                if choices.oneIn(16) { postings = "!" + postings }
                // A primary entry's "often" postings: the documents holding the word 3 times or more.
                if choices.oneIn(3) { postings += ":" + (choices.oneIn(8) ? choices.text() : IndexFormat.encodePostings(Array(ids.prefix(choices.number(0...2))))) }
                words[word] = postings
            }
        }
        return words
    }

    /// Spreads the entries over shard files: mostly each in its word's primary shard, some in
    /// another; a shard file may be missing or hold a union file beside it.
    private mutating func shard(_ words: [String: Any], into shards: Int, bounds: [Int]) {
        var contents = [[String: Any]](repeating: [:], count: shards)
        for (word, postings) in words {
            let primary = IndexFormat.shard(ofBucket: IndexFormat.bucket(ofKey: IndexFormat.key(word.hasPrefix(" ") ? String(word.dropFirst()) : word)), bounds: bounds)
            let n = choices.oneIn(6) ? choices.number(0...(shards - 1)) : min(max(primary, 0), shards - 1)
            contents[n][word] = postings
            if word.hasPrefix(" ") {
                var union = files[IndexFormat.unionFileName(n)] as? [String: Any] ?? [:]
                union[String(word.dropFirst())] = choices.oneIn(8) ? choices.text() : IndexFormat.encodePostings([0])
                files[IndexFormat.unionFileName(n)] = union
            }
        }
        for n in 0..<shards where !choices.oneIn(16) {
            files[IndexFormat.shardFileName(n)] = choices.oneIn(32) ? [1] as [Any] : contents[n]
        }
    }

    /// Queries that reach what the index holds: its titles and words whole, cut, mistyped and
    /// joined, and a few of the fuzzer's own.
    mutating func queries() -> [String] {
        var out = ["", "a", "choc bar"]
        for _ in 0..<choices.number(1...4) {
            var query = vocabulary.isEmpty ? choices.text() : choices.pick(vocabulary)
            var scalars = Array(query.unicodeScalars)
            switch choices.number(0...4) {
            case 0 where scalars.count > 2: scalars.remove(at: choices.number(0...(scalars.count - 1)))
            case 1 where scalars.count > 3: scalars.swapAt(1, 2)
            case 2: scalars = Array(scalars.prefix(choices.number(1...4)))
            case 3: scalars += Array((" " + (vocabulary.last ?? "x")).unicodeScalars)
            default: break
            }
            query = String(String.UnicodeScalarView(scalars))
            out.append(choices.oneIn(6) ? choices.text() : query)
        }
        return out
    }
}
