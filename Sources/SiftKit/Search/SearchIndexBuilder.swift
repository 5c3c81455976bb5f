import Foundation

/// Collects digested documents and writes the search index described in docs/search-index.md.
///
/// `digest` runs on every core while pages render. `add` buffers digests and merges them into
/// word tables partitioned by hash, one partition per core, so the serial part of a build only
/// hands out work; `write` encodes and writes the shards on every core too.
public struct SearchIndexBuilder {
    var docs: [SearchDigest] = []
    var pending: [SearchDigest] = []
    var infos: [SearchCollectionInfo] = []
    let tables: [WordTable]
    /// What `update` needs, kept once documents come with keys (`add(_:key:)`).
    var live: LiveIndexMemory?
    /// Each document's search key in add order, for documents added with one (`add(_:textKey:)`).
    var textKeys: [UInt64] = []
    /// Keeps the last build's text files of unchanged documents, which are then neither
    /// rendered nor saved.
    var textReuse: TextFileReuse?
    /// Keeps the last build's shards that no changed word is filed in (an incremental build's).
    var shardReuse: ShardFileReuse?
    /// Keeps the last build's document tables and facets files whose documents give the same key.
    var tableReuse: IndexTableReuse?
    /// The shard and union files this render keeps from the last build, by name, with their hashes.
    private var keptShards: [String: String] = [:]
    /// The document tables, facets files and answers this render made, for `tableReuse`.
    private var tablesMade: [String: IndexTableRecord] = [:]
    /// The hashes of the last render's groups of text files, which name them.
    private var textGroups: [UInt64] = []
    private var textsPerGroup = 1
    /// The ranked layout's answers are worked out from the version-5 files of the same documents
    /// (manifest, document tables, facets files), rendered in memory by `renderWords` and never written.
    private var answerInputs: [(String, [UInt8])]?
    /// The ranked layout's heavy terms, whose answers are worked out with the short terms'.
    private var heavyTerms: HeavyTerms?
    /// Above this many bytes of word entries the postings split into shards.
    public var shardThreshold: Int
    /// The size a shard aims at, in raw bytes.
    public var shardTarget: Int
    /// A three- or four-letter string whose `@` words span more shards than this gets its
    /// postings' union in a union file (docs/search-index.md, "Unions").
    public var unionFanOut = ShardWriter.unionFanOut
    /// Tables of every collection stay in manifest.json up to this many bytes in all.
    public var inlineDocsLimit = 512 * 1024
    /// The documents of a part of a collection's table: a larger collection's table comes in
    /// parts, which a client reads as they arrive (docs/search-index.md, "The document table").
    public var docsPart = SearchIndexBuilder.docsPartDefault
    public static let docsPartDefault = 65_536
    /// From this many documents on, the index carries the answers of short terms (`AnswerFiles`).
    public var answersFrom = SearchIndexBuilder.answersFromDefault
    /// Where a site's first keystrokes cost more than a small file: about 1 MB of document tables at 50,000.
    public static let answersFromDefault = 50_000
    /// From this many documents on, the index takes the ranked layout (version 6, docs/search-index.md):
    /// off by default until sift-core.js reads it (Benchmarks/ranked_index_plan.md, step 3).
    public var rankedFrom = SearchIndexBuilder.rankedFromDefault
    public static let rankedFromDefault = Int.max
    /// What the words holding a term weigh in the ranked layout, past which it is a heavy term
    /// with an answer (docs/search-index.md, "Answers"): about what a first query may fetch
    /// (issue 18: 150 KB gzip) in raw bytes.
    public var heavyTermBytes = SearchIndexBuilder.heavyTermBytesDefault
    public static let heavyTermBytesDefault = 64 * 1024
    /// How many documents will be added in all, when known (0: unknown): the word tables then
    /// make room for them once instead of doubling.
    var expectedDocuments = 0
    /// Where a render stores the word tables for the next build, one path per table, and the
    /// header that says which documents they hold (`WordTableFile`); nil: not stored.
    var wordTableStore: WordTableFile.Store?

    /// Creates an empty builder with the default sharding threshold (192 KB of word entries).
    public init() {
        self.init(shardThreshold: 192 * 1024)
    }

    /// Creates an empty builder that shards once the word entries pass `shardThreshold` bytes.
    public init(shardThreshold: Int, shardTarget: Int = 12 * 1024) {
        self.shardThreshold = shardThreshold
        self.shardTarget = max(1, shardTarget)
        self.tables = (0..<max(1, ParallelMap.jobs)).map { _ in WordTable() }
    }

    /// Folds a document and extracts its body vocabulary; pure, so callers may run it in parallel.
    public static func digest(_ doc: SearchDocument) -> SearchDigest {
        var digest = Tokenizer.digest(doc)
        digest.excerptText = doc.excerptText
        return digest
    }

    // MARK: Collect

    /// Adds a digested document; documents of a collection come in list order.
    public mutating func add(_ digest: SearchDigest) {
        pending.append(digest)
        if pending.count >= 1024 { flush() }
    }

    /// Adds a document with the key of its search inputs, keeping what `update` needs.
    mutating func add(_ digest: SearchDigest, key: UInt64) {
        if live == nil {
            live = LiveIndexMemory()
            for t in tables { t.keepsPairs = true }
        }
        live!.keys.append(key)
        add(digest)
    }

    /// Adds a digested document with the key of its search inputs, which lets text files of
    /// unchanged documents be kept (`textReuse`) without keeping what `update` needs.
    mutating func add(_ digest: SearchDigest, textKey: UInt64) {
        textKeys.append(textKey)
        add(digest)
    }

    /// Adds a document whose words the word tables already hold (`WordTable.stored`).
    mutating func add(unmerged digest: SearchDigest, textKey: UInt64) {
        textKeys.append(textKey)
        docs.append(digest.withoutWords)
    }

    /// Merges the words of documents numbered from `first` on into the word tables, each core
    /// taking the words of its partition.
    func mergeWords(_ batch: [SearchDigest], first: Int) {
        let tables = self.tables
        let parts = UInt64(tables.count), expected = expectedDocuments
        _ = ParallelMap.map(Array(tables.indices)) { p in
            tables[p].merge(batch, first: Int32(first), part: UInt64(p), parts: parts, expected: expected)
        }
    }

    /// Declares a collection: its heading and scope order. Collections keep the order declared.
    public mutating func addCollection(_ info: SearchCollectionInfo) {
        if let i = infos.firstIndex(where: { $0.name == info.name }) { infos[i] = info } else { infos.append(info) }
    }

    /// Merges the buffered digests into the word tables (`mergeWords`) and keeps only what the
    /// document table needs.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        mergeWords(pending, first: docs.count)
        docs += pending.map(\.withoutWords)
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: Write

    /// Writes manifest.json (and, when sharded, docs-N.json and shard-N.json) into the directory.
    public mutating func write(to searchDirectory: URL, baseURL: String) throws {
        try FileManager.default.createDirectory(at: searchDirectory.appendingPathComponent(IndexFileNames.folder), withIntermediateDirectories: true)
        try write(baseURL: baseURL) { name, bytes in try Data(bytes).write(to: searchDirectory.appendingPathComponent(name)) }
    }

    /// Renders the index files and hands each to `save` (path under search/, bytes) under its
    /// immutable name (`IndexFileNames`), on every core; the first error is thrown.
    mutating func write(baseURL: String, _ save: @Sendable (String, [UInt8]) throws -> Void) throws {
        // The text files are saved as soon as they are made, and let go: held, they lay under the
        // shards rendered next, where a version-6 build peaks. They are named by their group's
        // hash, not `files`: an entry each there would weigh on every first query
        // (docs/search-index.md, "Text files").
        let rendered = try withoutActuallyEscaping(save) { save in
            try render(baseURL: baseURL, savingTexts: { try Self.save($0, save) })
        }
        let groups = textGroups.enumerated().map { (IndexFormat.textGroupKey($0.offset), ContentHash.hex($0.element)) }
        let kept = keptShards.sorted { $0.key < $1.key }
        // The ranked layout's shards and unions are named by its pre files, not `files`.
        let ranked = isRanked
        let byPre = { (name: String) in
            ranked && (name.hasPrefix("shard-") || name.hasPrefix("union-") || name == IndexFormat.postFileName || name == IndexFormat.fieldRecordsFileName
                       || name == IndexFormat.titleWordsFileName)
        }
        // Files of the same bytes are one file, written once (`IndexFileNames.named`).
        var seen: Set<String> = []
        let shards = rendered.filter { byPre($0.0) }.map { (IndexFileNames.path($0.0, hash: ContentHash.of($0.1)), $0.1) }.filter { seen.insert($0.0).inserted }
        let files = IndexFileNames.named(rendered.filter { !IndexFormat.isTextFileName($0.0) && !byPre($0.0) }, hashes: groups + kept.map { ($0.key, $0.value) }) + shards
        // A kept file shares its path with any file of the same bytes this render wrote.
        let paths = Set(files.map(\.0))
        for path in Set(kept.map { IndexFileNames.path($0.key, hash: $0.value) }) where !paths.contains(path) {
            guard shardReuse?.link(path) == true else {
                throw SiftError("cannot keep search/\(path) of the last build: \(FileSystem.errorText())", at: nil)
            }
        }
        try Self.save(files, save)
    }

    /// Hands files to `save` on every core; the first error is thrown.
    private static func save(_ files: [(String, [UInt8])], _ save: @Sendable (String, [UInt8]) throws -> Void) throws {
        let failures = ErrorBox()
        _ = ParallelMap.map(files) { file in
            do { try save(file.0, file.1) } catch { failures.set(error) }
        }
        if let error = failures.error { throw error }
    }

    /// The collections in the index and their documents.
    struct Layout {
        /// Declared order, then undeclared ones as first seen.
        var collections: [SearchCollectionInfo]
        /// Per collection, its documents in add order.
        var members: [[Int]]
        /// Each document's number in the index (collection by collection), when that differs from add order.
        var renumber: [Int32]?
        /// The ranked layout's: per collection, its documents' places in its list, in index order,
        /// and its runs of documents of one length code and title length (`[q, t, n, …]`).
        var positions: [[Int]]?
        var groups: [[Int]]?

        /// A collection's documents, in index order; `docs` itself, not a copy of a million digests,
        /// when it holds them all in add order (the ranked layout's index order is another).
        func documents(_ c: Int, in docs: [SearchDigest]) -> [SearchDigest] {
            members[c].count == docs.count && renumber == nil ? docs : members[c].map { docs[$0] }
        }

        /// Collection `c`'s items, given in index order, in its list order (`positions`).
        func inListOrder<T>(_ items: [T], _ c: Int) -> [T] {
            guard let places = positions?[c] else { return items }
            var listed = items
            for (i, p) in places.enumerated() { listed[p] = items[i] }
            return listed
        }
    }

    private func layout() -> Layout {
        var order = infos
        var byName: [String: Int] = [:]
        for (i, info) in order.enumerated() { byName[info.name] = i }
        var members: [[Int]] = Array(repeating: [], count: order.count)
        // By index: binding each digest copied it (retaining a dozen arrays) to read one string.
        for i in docs.indices {
            let collection = docs[i].collection
            if byName[collection] == nil {
                byName[collection] = order.count
                order.append(SearchCollectionInfo(name: collection, title: collection.capitalized))
                members.append([])
            }
            members[byName[collection]!].append(i)
        }
        // The ranked layout's index order: in each collection by body length code, folded title
        // length, then list order, so that runs of equal codes and lengths (`groups`) give every
        // document's without a column per document.
        var positions: [[Int]]?, groups: [[Int]]?
        if isRanked {
            let codes = ParallelMap.map(Array(docs.indices)) { i in
                (IndexFormat.lengthCode(docs[i].bodyWords), Fold.fold(docs[i].title).utf16.count)
            }
            positions = members.map { m in
                Array(m.indices).sorted { a, b in
                    let x = codes[m[a]], y = codes[m[b]]
                    return x.0 != y.0 ? x.0 < y.0 : x.1 != y.1 ? x.1 < y.1 : a < b
                }
            }
            groups = []
            for (c, m) in members.enumerated() {
                var runs: [Int] = []
                for p in positions![c] {
                    let (q, t) = codes[m[p]]
                    if runs.count >= 3 && runs[runs.count - 3] == q && runs[runs.count - 2] == t { runs[runs.count - 1] += 1 } else { runs += [q, t, 1] }
                }
                groups!.append(runs)
                members[c] = positions![c].map { m[$0] }
            }
        }
        // Postings hold the order of `add`; documents are numbered collection by collection.
        var number = [Int32](repeating: 0, count: docs.count)
        var next: Int32 = 0
        for m in members { for i in m { number[i] = next; next += 1 } }
        let renumber = number.enumerated().contains { $0.offset != Int($0.element) }
        return Layout(collections: order, members: members, renumber: renumber ? number : nil, positions: positions, groups: groups)
    }

    /// Whether the index carries answers: `answersFrom` documents or more.
    var hasAnswers: Bool { docs.count >= answersFrom && !docs.isEmpty }

    /// Whether the index takes the ranked layout: `rankedFrom` documents or more.
    var isRanked: Bool { docs.count >= rankedFrom && !docs.isEmpty }

    /// The index files by name, in a fixed order, with the answers files from `answersFrom` documents on;
    /// with `savingTexts`, the text files go to it under their paths (`IndexFileNames.textPath`) instead.
    mutating func render(baseURL: String, savingTexts: (([(String, [UInt8])]) throws -> Void)? = nil) throws -> [(String, [UInt8])] {
        tablesMade = [:]
        var files = try renderWords(baseURL: baseURL, savingTexts: savingTexts)
        if hasAnswers { files = try withAnswers(files) }
        tableReuse?.wrote(tablesMade)
        return files
    }

    /// `files` with the answers files, and the manifest saying how many (`answers`): worked out by
    /// `SearchIndex` over the manifest and document tables just rendered, or the last render's
    /// (in memory, or recorded by the last build) when those give the same key: an edit of a body
    /// leaves them as they were (`answersKey`), and the tables are then not parsed. The key leaves
    /// the bodies' lengths out, which terms matched in fields only are not scored by: a line added
    /// to a page often moves its length code.
    private mutating func withAnswers(_ files: [(String, [UInt8])]) throws -> [(String, [UInt8])] {
        // The answers of the ranked layout are those of version 5: cells, places in the lists,
        // titles and counts, none of which the index order moves.
        let inputs = answerInputs ?? files, heavy = heavyTerms
        answerInputs = nil
        heavyTerms = nil
        var key = try Self.answersKey(inputs)
        if heavy != nil {
            // Heavy terms match bodies too: their answers move with any posting or length, which
            // the pre files (naming every shard by its hash) and the manifest (the groups) say.
            var hasher = StableHasher()
            hasher.combine(key)
            for (name, bytes) in files where name == IndexFileNames.manifest || name.hasPrefix("pre-") {
                hasher.combine(name)
                bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            }
            key = hasher.finalize()
        }
        let answers: [(String, [UInt8])]
        if let last = [live?.answers, tableReuse?.last["answers"]].lazy.compactMap({ $0 }).first(where: { $0.key == key }) {
            // Split as bytes: as characters, a 100k site's answers took 50 ms of a one-page edit.
            answers = last.json.utf8.split(separator: 0x0A).enumerated().map { (IndexFormat.answerFileName($0.offset), Array($0.element) + [0x0A]) }
        } else {
            answers = try AnswerFiles(index: Self.answersIndex(inputs), heavy: heavy).files()
        }
        // Each file is one line of JSON.
        let record = IndexTableRecord(key: key, json: answers.map { String(decoding: $0.1, as: UTF8.self) }.joined())
        tablesMade["answers"] = record
        if live != nil { live!.answers = record }
        return files.map { name, bytes in
            guard name == IndexFileNames.manifest, bytes.count >= 2 else { return (name, bytes) }
            var bytes = bytes
            bytes.insert(contentsOf: Array(",\"answers\":\(answers.count)".utf8), at: bytes.count - 2)
            return (name, bytes)
        } + answers
    }

    /// The key of what the answers are worked out from: the document tables and the manifest's
    /// collections, the bodies' lengths left out, and the facets files. Only the manifest is parsed.
    static func answersKey(_ files: [(String, [UInt8])]) throws -> UInt64 {
        var hasher = StableHasher()
        // What the answers hold: a change of it makes a cached set stale (the empty query's came in later).
        hasher.combine("answers \(AnswerFiles.rows), the empty query")
        for (name, bytes) in files where name.hasPrefix("facets-") {
            hasher.combine(name)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        for (name, bytes) in files where name.hasPrefix("docs-") {
            hasher.combine(name)
            let lengths = Self.lengthsColumn(bytes)
            bytes.withUnsafeBytes { all in
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[..<lengths.lowerBound]))
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[lengths.upperBound...]))
            }
        }
        if let (_, bytes) = files.first(where: { $0.0 == IndexFileNames.manifest }),
           let manifest = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            // Everything of the manifest the answers read is in its collections (inline tables' lengths aside).
            let collections = (manifest["collections"] as? [[String: Any]] ?? []).map { c -> [String: Any] in
                var c = c
                if var table = c["docs"] as? [String: Any] {
                    table["lengths"] = nil
                    c["docs"] = table
                }
                return c
            }
            let json = try JSONSerialization.data(withJSONObject: collections, options: .sortedKeys)
            json.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        return hasher.finalize()
    }

    /// The index the answers are worked out with: the manifest, document tables and facets files,
    /// parsed, the manifest without its words, which the answers do not read.
    static func answersIndex(_ files: [(String, [UInt8])]) throws -> SearchIndex {
        var parsed: [String: Any] = [:]
        for (name, bytes) in files where name == IndexFileNames.manifest || name.hasPrefix("docs-") || name.hasPrefix("facets-") {
            parsed[name] = try JSONSerialization.jsonObject(with: Data(bytes))
        }
        if var manifest = parsed[IndexFileNames.manifest] as? [String: Any] {
            manifest["shards"] = 0
            manifest["words"] = [String: String]()
            parsed[IndexFileNames.manifest] = manifest
        }
        return try SearchIndex(parsedFiles: parsed)
    }

    /// Where a document table's `lengths` value is in its JSON (`DocumentTable.json` writes it
    /// before the fields; in JSON text `"lengths":"` can only be that key, a string's quotes being
    /// escaped); an empty range at the start when it has none.
    static func lengthsColumn(_ table: [UInt8]) -> Range<Int> {
        let key = Array("\"lengths\":\"".utf8)
        guard let start = table.indices.first(where: { table[$0...].starts(with: key) }),
              let end = table[(start + key.count)...].firstIndex(of: UInt8(ascii: "\"")) else { return 0..<0 }
        return (start + key.count)..<end
    }

    private mutating func renderWords(baseURL: String, savingTexts: (([(String, [UInt8])]) throws -> Void)?) throws -> [(String, [UInt8])] {
        flush()
        keptShards = [:]
        let layout = layout()
        // The ranked layout renders every file again: its records and order move with other documents.
        let rankedLayout = layout.groups != nil
        let reusable = live != nil && layout.renumber == nil && !rankedLayout
        if layout.renumber != nil || rankedLayout { for t in tables { t.unstore() } }
        var words = WordList(tables: tables, renumber: layout.renumber)
        // Stored on other threads while the files are made: both only read the tables from here on.
        var storing: Background<Void>?
        if let store = wordTableStore, live == nil, layout.renumber == nil, !rankedLayout {
            let tables = tables
            storing = Background { [words] in WordTableFile.store(words, tables: tables, in: store) }
        }
        defer { storing?.take() }
        // The text files (kept ones linked) on another thread too, while the tables and shards are made.
        let order = Array(layout.members.joined())
        let keys = live.map(\.keys) ?? textKeys
        let inOrder = layout.renumber == nil
        let textDocs = inOrder ? docs : order.map { docs[$0] }
        let textDocKeys = keys.count == docs.count ? (inOrder ? keys : order.map { keys[$0] }) : nil
        let textReuse = rankedLayout ? nil : self.textReuse
        let collectionDocs = layout.collections.indices.map { layout.documents($0, in: docs) }
        let values = rankedLayout ? Self.fieldValues(collectionDocs) : []
        let records = rankedLayout ? Self.records(layout, collectionDocs, values: values) : nil
        var fieldEntries: [ShardWriter.FieldEntry]?
        var grams: [(gram: [UInt8], docs: [Int32], fits: [UInt8])] = []
        var titleWords: [(key: [UInt8], words: [(word: [UInt8], docs: [Int32])])] = []
        if rankedLayout {
            words.cells = Self.cells(layout, collectionDocs)
            fieldEntries = Self.fieldEntries(values, records: records!)
            grams = Self.gramEntries(values)
            titleWords = Self.titleWords(values)
            words.addEntryBytes(fieldEntries!.reduce(0) { $0 + $1.word.count + $1.records.count + 6 })
        }
        let making = Background { Result { try Self.textFiles(textDocs, keys: textDocKeys, reuse: textReuse, records: records) } }
        let ranked: [Int]? = reusable ? live!.rank(words, tables: tables) : nil
        var made: [String: IndexTableRecord] = [:]
        // The facets files' keys while the document tables' are worked out: an edit hashes every document for both.
        let facetKeys = Background { [collectionDocs] in collectionDocs.map { FacetTable.isNeeded($0) ? FacetTable.key($0) : nil } }
        let documentTables = rankedLayout ? [] : documentTables(layout, collectionDocs, reusable: reusable, made: &made)
        let facetKey = facetKeys.take()
        let facetTables = collectionDocs.indices.map { c -> String? in
            guard let key = facetKey[c] else { return nil }
            return IndexTableReuse.table("facets-\(c)", key: key, reuse: tableReuse, made: &made) {
                FacetTable.json(collectionDocs[c]) ?? ""
            }
        }
        tablesMade = made
        let tables = (docs: documentTables, facets: facetTables)
        answerInputs = rankedLayout && hasAnswers ? versionFiveFiles(layout) : nil
        var m = JSONWriter()
        m.raw("{\"version\":\(rankedLayout ? IndexFormat.rankedVersion : IndexFormat.version),")
        m.key("base"); m.string(Self.normalizedBase(baseURL))
        var texts = try making.take().get()
        textGroups = texts?.groups ?? []
        textsPerGroup = texts?.perGroup ?? 1
        if let saveTexts = savingTexts, let made = texts?.files {
            texts!.files = []
            try saveTexts(made.map { name, bytes in
                let n = IndexFormat.textFileNumber(name)!
                return (IndexFileNames.textPath(n, group: ContentHash.hex(textGroups[n / textsPerGroup])), bytes)
            })
        }
        if let texts { m.raw(",\"texts\":\(texts.perFile),\"textGroup\":\(texts.perGroup)") }
        if let groups = layout.groups {
            // What the score averages over every document, which a client of the ranked layout
            // never all reads: whole numbers, which every JSON reader reads exactly (Foundation's
            // JSONSerialization misreads the last digit of some fractions), the bodies' in quarter
            // words; summed over the groups, which hold every document's length code and title length.
            var titles = 0, bodies = 0
            for runs in groups {
                for k in stride(from: 0, to: runs.count, by: 3) {
                    let (q, t, n) = (runs[k], runs[k + 1], runs[k + 2])
                    titles += t * n
                    bodies += (4 + q % 4) << (q / 4) * n
                }
            }
            m.raw(",\"lengthSums\":{\"title\":\(titles),\"body\":\(bodies)}")
        }
        var files: [(String, [UInt8])] = texts?.files ?? []
        if words.entryBytes <= shardThreshold {
            m.raw(",\"shards\":0")
            writeCollections(layout, collectionDocs, tables, into: &m, files: &files)
            var bytes = Array(m.out.utf8)
            bytes += Array(",\"words\":".utf8)
            var outside: [(String, [UInt8])] = []
            words.writeObject((ranked ?? words.inByteOrder(Array(0..<words.count))).map { ($0, true) }, into: &bytes, outside: &outside)
            if let fieldEntries {
                bytes += Array(",\"fields\":".utf8)
                // Every entry primary, in the order of their words' bytes, as `fieldEntries` made them.
                ShardWriter.writeFields(fieldEntries, fieldEntries.indices.map { ($0, true) }, into: &bytes, outside: &outside)
                // The short terms' documents, every entry inline.
                bytes += Array(",\"grams\":{".utf8)
                for (i, g) in grams.enumerated() {
                    if i > 0 { bytes.append(UInt8(ascii: ",")) }
                    JSONWriter.string(g.gram, into: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    JSONWriter.string(Self.gramEntry(g, words), into: &bytes)
                }
                // Each key's title words, every entry inline.
                bytes += Array("},\"titles\":{".utf8)
                for (i, t) in titleWords.enumerated() {
                    if i > 0 { bytes.append(UInt8(ascii: ",")) }
                    JSONWriter.string(t.key, into: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    bytes += Self.titleWordsEntry(t.words, words)
                }
                bytes.append(UInt8(ascii: "}"))
            }
            bytes += Array("}\n".utf8)
            return [("manifest.json", bytes)] + files + outside
        }
        if let fieldEntries {
            var collectionFiles: [(String, [UInt8])] = []
            var heavy: [[UInt8]: [Int32]] = [:]
            let shards = rankedShards(words, fieldEntries, grams: grams, titles: titleWords, manifest: &m, answering: hasAnswers, heavy: &heavy) { m in
                writeCollections(layout, collectionDocs, tables, into: &m, files: &collectionFiles)
            }
            if !heavy.isEmpty, let positions = layout.positions { heavyTerms = HeavyTerms(words: words, holding: heavy, positions: positions) }
            return shards + files + collectionFiles
        }
        // Past about 1,024 shards the target doubles, in steps, so an edit leaves it alone.
        var target = shardTarget
        while target * 1024 < words.estimatedBytes { target *= 2 }
        let bounds = words.packBuckets(target: target)
        m.raw(",\"shards\":\(bounds.count + 1),\"bounds\":"); m.ints(bounds)
        writeCollections(layout, collectionDocs, tables, into: &m, files: &files)
        m.raw("}\n")
        files.insert(("manifest.json", Array(m.out.utf8)), at: 0)
        let writer = ShardWriter(words: words, bounds: bounds, unionFanOut: unionFanOut)
        let shards: ShardWriter.Files
        if reusable, let cache = live!.shards, cache.bounds == bounds, let touched = words.touchedBuckets {
            shards = writer.files(rank: ranked, touching: touched, previous: cache.files)
        } else if live == nil, let last = shardReuse?.last(bounds) {
            // A shard kept is linked, never read: what stands in for its bytes is left out below.
            let count = bounds.count + 1
            let stand = ShardWriter.Files(shards: (0..<count).map { (IndexFormat.shardFileName($0), []) }, unions: Array(repeating: [], count: count))
            shards = writer.files(touching: last.touching, previous: stand)
            for (s, laidOut) in writer.laidOut(touching: last.touching).enumerated() where !laidOut {
                for name in [IndexFormat.shardFileName(s), IndexFormat.unionFileName(s)] { keptShards[name] = last.hashes[name] }
            }
        } else {
            shards = writer.files(rank: ranked)
        }
        if live != nil { live!.shards = (bounds, shards) }
        files += shards.shards.filter { keptShards[$0.0] == nil }
        for (n, union) in shards.unions.enumerated() where !union.isEmpty { files.append((IndexFormat.unionFileName(n), union)) }
        return files
    }

    /// Each collection's document table as JSON; a live builder's from the last render while
    /// no document's fields changed, else the last build's when its documents give the same key.
    /// Each is one table, or its parts past `docsPart` documents.
    private mutating func documentTables(_ layout: Layout, _ docs: [[SearchDigest]], reusable: Bool,
                                         made: inout [String: IndexTableRecord]) -> [[String]] {
        if reusable, let cached = live!.tables, cached.count == layout.collections.count { return cached }
        let reuse = tableReuse
        let tables = layout.collections.indices.map { c in
            DocumentTable.tables(layout.collections[c], docs[c], part: docsPart) { part, key, make in
                IndexTableReuse.table(part.map { "docs-\(c)-\($0)" } ?? "docs-\(c)", key: key, reuse: reuse, made: &made, make)
            }
        }
        if live != nil { live!.tables = tables }
        return tables
    }

    /// The manifest, document tables and facets files version 5 would have of the ranked layout's
    /// documents, in list order, with no words: what its answers are worked out from.
    private func versionFiveFiles(_ layout: Layout) -> [(String, [UInt8])] {
        var listed = layout
        listed.groups = nil
        listed.renumber = nil
        listed.positions = nil
        listed.members = layout.members.indices.map { layout.inListOrder(layout.members[$0], $0) }
        let docs = listed.collections.indices.map { listed.documents($0, in: self.docs) }
        let tables = listed.collections.indices.map { c in
            DocumentTable.tables(listed.collections[c], docs[c], part: Int.max) { _, _, make in make() }
        }
        let facets = docs.map { FacetTable.isNeeded($0) ? FacetTable.json($0) : nil }
        var m = JSONWriter(), files: [(String, [UInt8])] = []
        m.raw("{\"version\":\(IndexFormat.version),\"shards\":0,\"words\":{}")
        writeCollections(listed, docs, (tables, facets), into: &m, files: &files)
        m.raw("}\n")
        return [(IndexFileNames.manifest, Array(m.out.utf8))] + files
    }

    /// The manifest's `collections`; a large document table goes to a file of its own unless
    /// all of them fit `inlineDocsLimit`, and a table in parts to a file a part.
    private func writeCollections(_ layout: Layout, _ docs: [[SearchDigest]], _ made: (docs: [[String]], facets: [String?]),
                                  into m: inout JSONWriter, files: inout [(String, [UInt8])]) {
        let tables = made.docs
        let inline = tables.joined().reduce(0) { $0 + $1.utf8.count } <= inlineDocsLimit
        m.raw(",\"collections\":[")
        for (c, info) in layout.collections.enumerated() {
            if c > 0 { m.raw(",") }
            m.raw("{"); m.key("name"); m.string(info.name)
            m.raw(","); m.key("title"); m.string(info.title)
            m.raw(",\"count\":\(layout.members[c].count),"); m.key("scopes")
            m.strings(Self.listScopes(layout, c, docs[c]))
            if let groups = layout.groups {
                // The ranked layout's documents are in the text files' records instead.
                m.raw(",\"fields\":"); m.strings(DocumentTable.fieldNames(docs[c]))
                m.raw(",\"groups\":"); m.ints(groups[c])
            } else if tables[c].count > 1 {
                let names = tables[c].indices.map { "docs-\(c)-\($0).json" }
                m.raw(",\"docs\":"); m.strings(names)
                for (name, table) in zip(names, tables[c]) { files.append((name, Array((table + "\n").utf8))) }
            } else if inline || tables[c][0].utf8.count < 16 * 1024 {
                m.raw(",\"docs\":"); m.raw(tables[c][0])
            } else {
                let name = "docs-\(c).json"
                m.raw(",\"docs\":"); m.string(name)
                files.append((name, Array((tables[c][0] + "\n").utf8)))
            }
            if let facets = made.facets[c] {
                let name = IndexFormat.facetFileName(c)
                m.raw(",\"facets\":"); m.string(name)
                if hasAnswers, let outline = Self.facetOutline(facets) { m.raw(",\"facetOutline\":"); m.raw(outline) }
                files.append((name, Array((facets + "\n").utf8)))
            }
            m.raw("}")
        }
        m.raw("]")
    }

    /// The most bytes of a collection's `facetOutline`: a facet of many values leaves it out.
    static let facetOutlineLimit = 8 * 1024

    /// A facets file's fields without their documents, `{"facets":[{"name":…,"values":[…]}],"sorts":[…]}`,
    /// for the manifest of an index with answers (docs/search-index.md, "Answers"): a facet bar
    /// and the answers' facet counts need no more. Nil past `facetOutlineLimit`.
    static func facetOutline(_ facetsJSON: String) -> String? {
        guard let file = try? JSONSerialization.jsonObject(with: Data(facetsJSON.utf8)) as? [String: Any] else { return nil }
        return facetOutline(file)
    }

    /// The outline of a facets file already parsed; the answers count by facet value only the
    /// collections that have one (`AnswerFiles`), so that a client knows their values.
    static func facetOutline(_ file: [String: Any]) -> String? {
        guard let facets = file["facets"] as? [[String: Any]], let sorts = file["sorts"] as? [[String: Any]] else { return nil }
        var out = JSONWriter()
        out.raw("{\"facets\":[")
        for (k, f) in facets.enumerated() {
            guard let name = f["name"] as? String, let values = f["values"] as? [String] else { return nil }
            out.raw(k == 0 ? "{" : ",{"); out.key("name"); out.string(name)
            out.raw(","); out.key("values"); out.strings(values)
            out.raw("}")
        }
        out.raw("],\"sorts\":")
        out.strings(sorts.compactMap { $0["name"] as? String })
        out.raw("}")
        return out.out.utf8.count <= facetOutlineLimit ? out.out : nil
    }

    /// The path of a base URL, starting and ending with `/`. Byte by byte: a String's hasPrefix
    /// reads "/" and a combining mark after it as one character, and would add a second "/".
    static func normalizedBase(_ baseURL: String) -> String {
        // Only the path of an absolute base URL matters to links inside the site.
        var path = baseURL
        // As written: `URL.path` decoded it, so `%2F` made two folders of one, unlike a bare path's.
        if let url = URLComponents(string: baseURL), url.scheme != nil { path = url.percentEncodedPath }
        // A protocol-relative base (`//cdn.example.com/docs/`) keeps its host: links then go to it.
        if path.hasPrefix("//"), let url = URL(string: "https:" + path), let host = url.host, !host.isEmpty {
            let rest = normalizedBase(url.path)
            return "//" + host + (url.port.map { ":\($0)" } ?? "") + rest
        }
        // One slash between segments (`/docs//` is another path to a host), each encoded as a link
        // holds it; split by code points ("/" and a combining mark after it are one Character).
        let segments = path.unicodeScalars.split(separator: "/").map { SiteURLs.encoded(String(String.UnicodeScalarView($0))) }
        return segments.isEmpty ? "/" : "/" + segments.joined(separator: "/") + "/"
    }
}
