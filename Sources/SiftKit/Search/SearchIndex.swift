import Foundation

/// A built search index read from public/search, answering queries as sift-core.js does.
public struct SearchIndex {
    struct Collection {
        var name: String
        var title: String
        var scopes: [String]
        var first: Int
        var count: Int
        /// The facets-C.json holding its facets and sort orders, when it has any.
        var facetsFile: String?
    }

    struct Doc {
        var collection: Int
        var slug: String
        var title: String
        var url: String
        var scope: String?
        var folded: [String]
        /// The body's length in words, from its code ("Ranking").
        var bodyLength: Double
        /// Its place in its collection's list: ties go by it ("Ranking").
        var position: Int
    }

    let directory: URL
    let base: String
    private let shardCount: Int
    private var bounds: [Int] = []
    private(set) var collections: [Collection] = []
    private(set) var docs: [Doc] = []
    let store: ShardStore
    /// The mean folded title length (UTF-16 code units) and body length, for the score.
    private(set) var averageTitleLength = 1.0
    private(set) var averageBodyLength = 1.0
    /// Documents per text file (docs/search-index.md, "Excerpts"); 0 without text files.
    private(set) var textsPerFile = 0
    /// The documents in list order, collection by collection: the index's order but in the
    /// ranked layout (version 6), whose index order goes by length first.
    private(set) var listOrder: [Int] = []
    /// The ranked layout's: each document's cell, which every postings there come with, and how
    /// many cells there are (0 in version 5).
    private var cellOf: [Int] = []
    private var cellCount = 0
    /// Whether the index is in the ranked layout (version 6).
    private(set) var isRanked = false
    /// The ranked layout's keys split into parts: each key's parts' hashes.
    private var splitKeys: [String: [String]] = [:]

    /// The files read so far with their sizes, in order: what a browser would have fetched.
    public var filesRead: [(name: String, bytes: Int)] { store.read }

    /// Reads manifest.json and the document tables from a built public/search directory; errors
    /// name its files under `displayPath` (default: the directory's path). A file that is not
    /// what `sift build` writes throws a SiftError naming it.
    public init(directory: URL, displayPath: String? = nil) throws {
        try self.init(store: ShardStore(directory: directory, displayPath: displayPath))
    }

    /// An index from its files already parsed (file name → JSON value), checked as the files
    /// would be: how FuzzIndex reaches the decoders without the disk and the JSON parser.
    init(parsedFiles: [String: Any]) throws {
        try self.init(store: ShardStore(parsed: parsedFiles))
    }

    private init(store: ShardStore) throws {
        self.directory = store.directory
        self.store = store
        let file = "manifest.json"
        guard let manifest = try store.object(file) as? [String: Any] else {
            throw store.corrupt(file, "expected a JSON object")
        }
        guard let version = manifest["version"] as? Int, version == IndexFormat.version || version == IndexFormat.rankedVersion else {
            throw store.corrupt(file, "search index version \(manifest["version"] ?? "none") is not supported (expected \(IndexFormat.version) or \(IndexFormat.rankedVersion)): run `sift build` again")
        }
        guard let base = manifest["base"] as? String ?? (manifest["base"] == nil ? "/" : nil) else {
            throw store.corrupt(file, "base: expected a string")
        }
        self.base = base
        isRanked = version == IndexFormat.rankedVersion
        guard let files = manifest["files"] as? [String: String] ?? (manifest["files"] == nil ? [:] : nil),
              files.values.allSatisfy(IndexFormat.isHexDigits) else {
            throw store.corrupt(file, "files: expected an object of hashes")
        }
        store.files = files
        guard let shardCount = manifest["shards"] as? Int, shardCount >= 0 else {
            throw store.corrupt(file, "shards: expected a whole number")
        }
        self.shardCount = shardCount
        guard let texts = manifest["texts"] as? Int ?? (manifest["texts"] == nil ? 0 : nil), texts >= 0 else {
            throw store.corrupt(file, "texts: expected a whole number")
        }
        textsPerFile = texts
        guard let group = manifest["textGroup"] as? Int ?? (texts == 0 ? 0 : nil), group > 0 || texts == 0 else {
            throw store.corrupt(file, "textGroup: expected a whole number above 0")
        }
        store.textGroup = group
        if shardCount == 0 {
            guard let words = manifest["words"] as? [String: String] else {
                throw store.corrupt(file, "words: expected an object of strings")
            }
            store.inline = words
        } else if version == IndexFormat.rankedVersion {
            try loadPreFiles()
        } else {
            guard let bounds = manifest["bounds"] as? [Int], bounds.count == shardCount - 1 else {
                throw store.corrupt(file, "bounds: expected \(plural(shardCount - 1, "number")) for \(plural(shardCount, "shard"))")
            }
            guard zip(bounds, bounds.dropFirst()).allSatisfy({ $0 <= $1 }), bounds.allSatisfy({ (0...IndexFormat.buckets).contains($0) }) else {
                throw store.corrupt(file, "bounds: expected ascending bucket numbers")
            }
            self.bounds = bounds
        }
        guard let collections = manifest["collections"] as? [[String: Any]] else {
            throw store.corrupt(file, "collections: expected a list of objects")
        }
        if version == IndexFormat.rankedVersion {
            try loadRanked(collections, lengthSums: manifest["lengthSums"])
            listOrder = docs.indices.sorted { a, b in
                docs[a].collection != docs[b].collection ? docs[a].collection < docs[b].collection : docs[a].position < docs[b].position
            }
            return
        }
        for (i, c) in collections.enumerated() { try load(c, number: i) }
        if !docs.isEmpty {
            averageTitleLength = max(1, Double(docs.reduce(0) { $0 + ($1.folded.first?.utf16.count ?? 0) }) / Double(docs.count))
            averageBodyLength = docs.reduce(0) { $0 + $1.bodyLength } / Double(docs.count)
        }
        listOrder = Array(docs.indices)
    }

    /// Reads the ranked layout's pre files (docs/search-index.md, "Version 6"): the shards they
    /// name, in bucket order, become `bounds` and the shard and union files' names. Each pre file
    /// must name exactly the shards its run of buckets meets, as a client reads only one.
    private mutating func loadPreFiles() throws {
        let run = IndexFormat.rankedBuckets / IndexFormat.preFiles
        var shards: [Int: (shard: String, union: String?)] = [:]
        var named: [[Int]] = []
        for p in 0..<IndexFormat.preFiles {
            let name = IndexFormat.preFileName(p)
            guard let file = try store.object(name) as? [String: Any], let list = file["shards"] as? [[Any]], !list.isEmpty,
                  let keys = file["keys"] as? [String: [[Any]]] else {
                throw store.corrupt(name, "expected an object of shards and keys")
            }
            for (key, parts) in keys {
                guard IndexFormat.preFile(ofBucket: IndexFormat.rankedBucket(ofKeyBytes: key.utf8)) == p, !parts.isEmpty,
                      parts.allSatisfy({ $0.count == 2 && $0[0] is [String] && ($0[1] as? String).map(IndexFormat.isHexDigits) == true }) else {
                    throw store.corrupt(name, "keys: “\(key)”: expected parts, each a path and a hash, of a key of this pre file")
                }
                splitKeys[key] = parts.map { $0[1] as! String }
            }
            var starts: [Int] = []
            for entry in list {
                guard (2...3).contains(entry.count), let start = entry[0] as? Int, (0..<IndexFormat.rankedBuckets).contains(start),
                      let shard = entry[1] as? String, IndexFormat.isHexDigits(shard), entry.count == 2 || (entry[2] as? String).map(IndexFormat.isHexDigits) == true,
                      starts.last.map({ $0 < start }) ?? true else {
                    throw store.corrupt(name, "expected shards in bucket order, each its first bucket, its hash and its union's")
                }
                let union = entry.count == 3 ? entry[2] as? String : nil
                if let known = shards[start], known.shard != shard || known.union != union {
                    throw store.corrupt(name, "shard at bucket \(start): expected the hashes other pre files give it")
                }
                shards[start] = (shard, union)
                starts.append(start)
            }
            named.append(starts)
        }
        let starts = shards.keys.sorted()
        guard starts.first == 0, starts.count == shardCount else {
            throw store.corrupt("manifest.json", "shards: expected the \(starts.count) shards the pre files name, from bucket 0")
        }
        bounds = Array(starts.dropFirst())
        for (p, listed) in named.enumerated() {
            let first = IndexFormat.shard(ofBucket: p * run, bounds: bounds), last = IndexFormat.shard(ofBucket: p * run + run - 1, bounds: bounds)
            guard listed == Array(starts[first...last]) else {
                throw store.corrupt(IndexFormat.preFileName(p), "expected the \(last - first + 1) shards of buckets \(p * run) to \(p * run + run - 1)")
            }
        }
        for (n, start) in starts.enumerated() {
            store.files[IndexFormat.shardFileName(n)] = shards[start]!.shard
            if let union = shards[start]!.union { store.files[IndexFormat.unionFileName(n)] = union }
        }
    }

    /// A collection's name, count, scopes and facets file, as the manifest gives them.
    private func collectionHeader(_ c: [String: Any], number: Int) throws -> Collection {
        let manifest = "manifest.json"
        guard let name = c["name"] as? String else { throw store.corrupt(manifest, "collection \(number): name: expected a string") }
        let what = "collection “\(name)”"
        guard let count = c["count"] as? Int, count >= 0 else { throw store.corrupt(manifest, "\(what): count: expected a whole number") }
        guard let scopes = c["scopes"] as? [String] ?? (c["scopes"] == nil ? [] : nil) else {
            throw store.corrupt(manifest, "\(what): scopes: expected a list of strings")
        }
        let facetsFile = c["facets"] as? String
        guard c["facets"] == nil || facetsFile != nil else {
            throw store.corrupt(manifest, "\(what): facets: expected a file name")
        }
        return Collection(name: name, title: c["title"] as? String ?? name, scopes: scopes, first: docs.count, count: count, facetsFile: facetsFile)
    }

    /// Reads the ranked layout (docs/search-index.md, "Version 6"): each collection's fields and
    /// groups from the manifest, then every document's record from the text files, in index
    /// order; the averages from the sums the manifest gives. Every record is checked against its group.
    private mutating func loadRanked(_ manifestCollections: [[String: Any]], lengthSums: Any?) throws {
        let manifest = "manifest.json"
        guard let sums = lengthSums as? [String: Any], let titles = sums["title"] as? Int, let bodies = sums["body"] as? Int, titles >= 0, bodies >= 0 else {
            throw store.corrupt(manifest, "lengthSums: expected the whole numbers title and body")
        }
        // Each collection's groups, read as the text files come: nothing is built for a count
        // that no text file backs.
        var groupsOf: [[(q: Int, t: Int, n: Int)]] = [], total = 0
        var fieldCounts: [Int] = [], cells: [(collection: Int, scope: String?)] = []
        for (i, c) in manifestCollections.enumerated() {
            var collection = try collectionHeader(c, number: i)
            collection.first = total
            let what = "collection “\(collection.name)”"
            guard let fields = c["fields"] as? [String], !fields.isEmpty else { throw store.corrupt(manifest, "\(what): fields: expected a list of names") }
            var sum = 0, overflow = false
            if let groups = c["groups"] as? [Int], groups.count % 3 == 0 {
                for k in stride(from: 2, to: groups.count, by: 3) {
                    let (next, over) = sum.addingReportingOverflow(groups[k])
                    sum = next
                    overflow = overflow || over
                }
            }
            let (after, over) = total.addingReportingOverflow(collection.count)
            guard let groups = c["groups"] as? [Int], groups.count % 3 == 0, !overflow, !over, sum == collection.count,
                  stride(from: 0, to: groups.count, by: 3).allSatisfy({ (0..<64).contains(groups[$0]) && groups[$0 + 1] >= 0 && groups[$0 + 2] >= 1 }) else {
                throw store.corrupt(manifest, "\(what): groups: expected a length code below 64, a title length and a count of 1 or more per group, \(plural(collection.count, "document")) in all")
            }
            total = after
            groupsOf.append(stride(from: 0, to: groups.count, by: 3).map { (groups[$0], groups[$0 + 1], groups[$0 + 2]) })
            fieldCounts.append(fields.count)
            cells += collection.scopes.map { (i, $0) } + [(i, nil)]
            collections.append(collection)
        }
        guard total == 0 || textsPerFile > 0 else { throw store.corrupt(manifest, "texts: expected a whole number above 0") }
        // The group of the next document: collection, group, documents of it already read.
        var at = (c: 0, g: 0, read: 0)
        func nextRun() -> (collection: Int, q: Int, t: Int) {
            while at.g == groupsOf[at.c].count { at = (at.c + 1, 0, 0) }
            let group = groupsOf[at.c][at.g], run = (at.c, group.q, group.t)
            at.read += 1
            if at.read == group.n { at = (at.c, at.g + 1, 0) }
            return run
        }
        var placed = collections.map { _ in Set<Int>() }
        let fileCount = total == 0 ? 0 : total / textsPerFile + (total % textsPerFile > 0 ? 1 : 0)
        for n in 0..<fileCount {
            let name = IndexFormat.textFileName(n), count = min(textsPerFile, total - n * textsPerFile)
            guard let file = try store.object(name) as? [[Any]], file.count == count else {
                throw store.corrupt(name, "expected a list of \(count == 1 ? "1 entry" : "\(count) entries"), each a record and strings")
            }
            var entries: [[String]] = []
            entries.reserveCapacity(count)
            for (k, entry) in file.enumerated() {
                let run = nextRun(), c = collections[run.collection]
                guard let record = entry.first as? [Any], let texts = Array(entry.dropFirst()) as? [String], texts.isEmpty || texts.count % 3 == 1 else {
                    throw store.corrupt(name, "entry \(k): expected a record, then a text, an id, a title and a text per section")
                }
                guard (3...5).contains(record.count), let cell = record[0] as? Int, cells.indices.contains(cell), cells[cell].collection == run.collection,
                      let position = record[1] as? Int, (0..<c.count).contains(position), !placed[run.collection].contains(position),
                      let values = record[2] as? [String], values.count == fieldCounts[run.collection],
                      record.count < 4 || record[3] is String, record.count < 5 || record[4] is String else {
                    throw store.corrupt(name, "entry \(k): expected a record of collection “\(c.name)”: a cell, a place in its list not taken, \(plural(fieldCounts[run.collection], "field")), a slug and a URL")
                }
                let folded = values.map(Fold.fold)
                guard folded[0].utf16.count == run.t else {
                    throw store.corrupt(name, "entry \(k): expected a title of \(run.t) UTF-16 code units folded, as its group says")
                }
                placed[run.collection].insert(position)
                cellOf.append(cell)
                let given = record.count > 3 ? record[3] as! String : ""
                let slug = given.isEmpty ? (IndexFormat.derivedSlug(values[0]) ?? "") : given
                docs.append(Doc(collection: run.collection, slug: slug, title: values[0],
                                url: record.count > 4 ? record[4] as! String : "\(c.name)/\(slug)/", scope: cells[cell].scope,
                                folded: folded, bodyLength: IndexFormat.bodyLength(code: run.q), position: position))
                entries.append(texts)
            }
            store.texts[n] = entries
        }
        cellCount = cells.count
        let count = Double(max(1, docs.count))
        averageTitleLength = max(1, Double(titles) / count)
        averageBodyLength = Double(bodies) / 4 / count
    }

    /// Reads one collection and its document table (inline, in a file, or in parts, one file
    /// each), checking every count, code and length against the table's before anything of that
    /// size is built.
    private mutating func load(_ c: [String: Any], number: Int) throws {
        let manifest = "manifest.json"
        let header = try collectionHeader(c, number: number)
        let name = header.name, count = header.count, what = "collection “\(name)”"
        let tables: [(file: String, table: Any?)]
        if let parts = c["docs"] as? [String], !parts.isEmpty {
            // Each part holds a document at least, and is read once: a manifest naming one small
            // part again and again must not make a million documents of it.
            guard parts.count <= count, Set(parts).count == parts.count else {
                throw store.corrupt(manifest, "\(what): docs: expected at most \(plural(count, "part")), each named once")
            }
            tables = try parts.map { ($0, try store.object($0)) }
        } else if let file = c["docs"] as? String {
            tables = [(file, try store.object(file))]
        } else {
            tables = [(manifest, c["docs"])]
        }
        let ci = collections.count
        collections.append(header)
        for (n, (file, table)) in tables.enumerated() {
            guard let table = table as? [String: Any] else { throw store.corrupt(file, "\(what): docs: expected a document table") }
            // The documents still to come: those read so far are at most `count`, which may be any number.
            let left = count - (docs.count - collections[ci].first)
            // A whole table holds them all; a part, one at least.
            let sizes = tables.count == 1 ? count...count : 1...max(1, left)
            guard let slugs = table["slugs"] as? [String], sizes.contains(slugs.count) else {
                let expected = sizes.count == 1 ? plural(sizes.lowerBound, "string") : "1 to \(sizes.upperBound) strings"
                throw store.corrupt(file, "\(what): slugs: expected a list of \(expected)")
            }
            // Room for the collection once its first table's size is checked (its parts are alike in size).
            if n == 0 { docs.reserveCapacity(docs.count + min(count, slugs.count * tables.count)) }
            try load(table, slugs: slugs, from: file, collection: ci, what: what)
        }
        guard docs.count - collections[ci].first == count else {
            throw store.corrupt(tables.last!.file, "\(what): slugs: expected \(plural(count, "string")) in all its parts")
        }
    }

    /// Reads a document table (a collection's, or a part of it) into `docs`, a document a slug.
    /// One function over 60 lines: it reads the table's keys in docs/search-index.md's order, as
    /// sift-core.js's `read` does, each check beside the key it checks.
    private mutating func load(_ table: [String: Any], slugs: [String], from file: String, collection ci: Int, what: String) throws {
        let c = collections[ci], name = c.name, scopes = c.scopes
        let count = slugs.count
        var scopeIDs: [Int] = []
        if let codes = table["scope"] {
            guard let codes = codes as? String, let ids = IndexFormat.decodeCodes(codes, count: count, limit: scopes.count + 1) else {
                throw store.corrupt(file, "\(what): scope: expected \(plural(count, "code")) below \(scopes.count + 1)")
            }
            scopeIDs = ids
        }
        let scopeOf = { (i: Int) -> String? in
            i < scopeIDs.count && scopeIDs[i] < scopes.count ? scopes[scopeIDs[i]] : nil
        }
        var lengths = [Int](repeating: 0, count: count)
        if let codes = table["lengths"] {
            guard let codes = codes as? String, let decoded = IndexFormat.decodeCodes(codes, count: count, limit: 64) else {
                throw store.corrupt(file, "\(what): lengths: expected \(plural(count, "code")) below 64")
            }
            lengths = decoded
        }
        guard let urls = table["urls"] as? [String: String] ?? (table["urls"] == nil ? [:] : nil) else {
            throw store.corrupt(file, "\(what): urls: expected an object of strings")
        }
        guard let fields = table["fields"] as? [[String: Any]], !fields.isEmpty else {
            throw store.corrupt(file, "\(what): fields: expected a list of objects")
        }
        var columns: [[String]] = []
        for (k, f) in fields.enumerated() {
            let column = "\(what), field \((f["name"] as? String).map { "“\($0)”" } ?? String(k))"
            if f["scope"] as? Bool == true {
                columns.append((0..<count).map { scopeOf($0) ?? "" })
            } else if let ids = f["ids"] {
                guard let values = f["values"] as? [String] else { throw store.corrupt(file, "\(column): values: expected a list of strings") }
                guard let ids = ids as? String, let decoded = IndexFormat.decodeCodes(ids, count: count, limit: values.count) else {
                    throw store.corrupt(file, "\(column): ids: expected \(plural(count, "code")) below \(values.count)")
                }
                columns.append(decoded.map { values[$0] })
            } else {
                guard let values = f["values"] as? [String], values.count == count else {
                    throw store.corrupt(file, "\(column): values: expected a list of \(plural(count, "string"))")
                }
                columns.append(values)
            }
        }
        for i in 0..<count {
            let title = columns[0][i]
            let slug = slugs[i].isEmpty ? (IndexFormat.derivedSlug(title) ?? "") : slugs[i]
            docs.append(Doc(collection: ci, slug: slug, title: title,
                            url: urls[String(i)] ?? "\(name)/\(slug)/", scope: scopeOf(i),
                            folded: columns.map { Fold.fold($0[i]) },
                            bodyLength: IndexFormat.bodyLength(code: lengths[i]), position: docs.count - c.first))
        }
    }

    /// Answers a query: scope "All" or nil for every item, collection nil for every collection;
    /// `filters` (field, value) keep the items holding a selected value of every field named,
    /// `sort` (`area`, `-area`) orders them by a sort field instead of relevance. `typos: false`
    /// leaves typo matches out: a heavy term's answer holds its full matches only (`AnswerFiles`).
    public func search(_ query: String, scope: String? = nil, collection: String? = nil,
                       filters: [(field: String, value: String)] = [], sort: String? = nil,
                       limit: Int? = nil, typos: Bool = true) throws -> SearchResponse {
        let considered = collections.filter { c in collection.map { Self.same(c.name, $0) } ?? true }
        // Read once for each set of collections, as a browser fetches each facets file once.
        let facetsKey = considered.map(\.name).joined(separator: "\n")
        let facets = try store.facets[facetsKey] ?? Facets(considered, store: store)
        store.facets[facetsKey] = facets
        let selection = try facets.selection(filters)
        let pool = try consideredDocuments(scope: scope, collection: collection)
        let terms = Self.queryTerms(query)
        let searched = try searchedTerms(terms, typos: typos)
        // The title is compared with the query as typed: `pago pago` is Pago Pago's title, not Pago's.
        let phrase = Fold.terms(query).joined(separator: " ")
        var hits = terms.isEmpty ? pool.map { Hit(doc: $0, match: .field, group: .scored) } : pool.compactMap { fullMatch($0, searched, phrase: phrase) }
        let counts = facets.counts(hits.map(\.doc), selection)
        hits = hits.filter { facets.passes($0.doc, selection) }
        if !terms.isEmpty {
            var pieces = searched
            if hits.count < 5 {
                pieces = try Self.pieces(terms).map { try searchedTerms($0, typos: typos) } ?? searched
                let found = Set(hits.map(\.doc))
                let passing = pool.filter { !found.contains($0) && facets.passes($0, selection) }
                let partial = pieces.count > 1 ? passing.compactMap { partialMatch($0, pieces) } : []
                let listed = Set(partial.map(\.doc))
                hits += partial + passing.compactMap { listed.contains($0) ? nil : fuzzyMatch($0, searched) }
            }
            // Ranking orders the results only: a search for none (a count) skips it, as sift-core.js's does.
            // Partial matches are ranked by the pieces, the others by the terms.
            if limit != 0 {
                let ranked = order(hits.filter { $0.group != .partial }, searched, phrase: phrase)
                hits = ranked.filter { $0.group < .partial } + order(hits.filter { $0.group == .partial }, pieces) + ranked.filter { $0.group > .partial }
            }
        }
        if let sort {
            // Full matches, then partial ones, then typo ones, each in the sort field's order.
            let hitOf = Dictionary(uniqueKeysWithValues: hits.map { ($0.doc, $0) })
            let kinds: [(Hit) -> Bool] = [{ $0.group < .partial }, { $0.group == .partial }, { $0.group == .fuzzy }]
            hits = try kinds.flatMap { kind in try facets.sorted(hits.filter(kind).map(\.doc), by: sort).map { hitOf[$0]! } }
        }
        let total = hits.count
        if let limit, limit >= 0, hits.count > limit { hits = Array(hits.prefix(limit)) }
        let results = hits.map { h -> SearchResult in
            let doc = docs[h.doc]
            return SearchResult(collection: collections[doc.collection].name, slug: doc.slug, title: doc.title,
                                url: base + doc.url, scope: doc.scope, match: h.match)
        }
        return SearchResponse(query: query, scope: scope ?? "All", total: total, results: results, facets: counts)
    }

    /// "Matching": the documents of the collection asked for, then of the scope asked for.
    private func consideredDocuments(scope: String?, collection: String?) throws -> [Int] {
        var pool = listOrder
        if let collection {
            guard let c = collections.firstIndex(where: { Self.same($0.name, collection) }) else {
                let known = collections.map(\.name).joined(separator: ", ")
                throw SiftError("unknown collection “\(collection)” (collections: \(known))", at: nil)
            }
            pool = pool.filter { docs[$0].collection == c }
        }
        if let scope, scope != "All" {
            let offered = collections.filter { c in collection.map { Self.same(c.name, $0) } ?? true }.flatMap(\.scopes)
            guard offered.contains(where: { Self.same($0, scope) }) else {
                let known = (["All"] + orderedScopes(collection)).joined(separator: ", ")
                throw SiftError("unknown scope “\(scope)” (scopes: \(known))", at: nil)
            }
            pool = pool.filter { Self.same(docs[$0].scope, scope) }
        }
        return pool
    }

    /// "Folding and terms": the query's terms, identical ones (the same code points) once.
    static func queryTerms(_ query: String) -> [String] {
        var seen = Set<[UInt8]>()
        return Fold.terms(query).filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// "Matching": whether a term searches bodies on its own: 3+ code points, or a CJK term of 2.
    static func searchesAlone(_ term: String) -> Bool {
        let n = term.unicodeScalars.count
        return n >= 3 || (n == 2 && IndexFormat.isCJK(term))
    }

    /// "Matching": the scopes of the collections searched, each once, in order.
    func orderedScopes(_ collection: String?) -> [String] {
        var out: [String] = []
        for c in collections where collection.map({ Self.same(c.name, $0) }) ?? true {
            for s in c.scopes where !out.contains(s) { out.append(s) }
        }
        return out
    }

    /// Names and scopes are compared exactly, code point by code point, as in JavaScript: a
    /// String's == would take a decomposed "Ü" for a composed one.
    static func same(_ a: String?, _ b: String) -> Bool {
        a.map { $0.utf8.elementsEqual(b.utf8) } ?? false
    }

    /// "Matching", body candidates: the documents whose body may hold the term (never missing one
    /// that does), each with its marks (`Score`: how a body word holds it, whether often, whether in the lead).
    /// `wholeWord`: a short term, found as a word of its own (a CJK one as its gram). One search
    /// per term and index, as sift-core.js keeps each term's: `sift search --batch` asks again and again.
    func bodyCandidates(_ term: String, wholeWord: Bool) throws -> [Int32: Int] {
        let key = (wholeWord ? "w" : "p") + term
        if let found = store.bodyCandidates[key] { return found }
        let found = try searchBodies(term, wholeWord: wholeWord)
        store.bodyCandidates[key] = found
        return found
    }

    private func searchBodies(_ term: String, wholeWord: Bool) throws -> [Int32: Int] {
        let pieces = wholeWord ? [IndexFormat.Piece(text: term, isWord: true)] : IndexFormat.pieces(term)
        // Each piece, then each window among the bridges (docs/search-index.md, "Bridges").
        let windows = wholeWord ? [] : IndexFormat.windows(pieces)
        var result: [Int32: Int]?
        for (i, piece) in (pieces + windows.map { IndexFormat.Piece(text: $0, isWord: false) }).enumerated() {
            let n = piece.text.unicodeScalars.count
            let fits: (String) -> Bool
            if i >= pieces.count {
                fits = { IndexFormat.contains($0, piece.text) && IndexFormat.isBridge($0) }
            } else if wholeWord {
                fits = { $0.utf8.elementsEqual(piece.text.utf8) }
            } else if pieces.count == 1 {
                fits = { IndexFormat.contains($0, piece.text) && !IndexFormat.isBridge($0) }
            } else if i == 0 {
                guard n >= 3 else { continue }
                fits = { $0.utf8.reversed().starts(with: piece.text.utf8.reversed()) && !IndexFormat.isBridge($0) }
            } else if i == pieces.count - 1 {
                guard n >= 3 else { continue }
                fits = { $0.utf8.starts(with: piece.text.utf8) && !IndexFormat.isBridge($0) }
            } else {
                fits = { $0.utf8.elementsEqual(piece.text.utf8) }
            }
            // Only a one-piece term outside CJK text can be part of a word rather than all of one.
            let alwaysWhole = wholeWord || pieces.count > 1 || IndexFormat.isCJK(term)
            var found: [Int32: Int] = [:]
            let (file, words) = try words(for: IndexFormat.key(piece.text))
            for (word, value) in words where fits(word) {
                // A union marker (`" arb": ""`) holds no document, in either layout.
                if word.hasPrefix(" ") && value.isEmpty { continue }
                var (from, whole) = value == "@" ? try primaryPostings(word, from: file) : (file, value)
                // A heavy entry of the ranked layout is a file of its own.
                if isRanked, whole.hasPrefix("=") {
                    let hash = String(whole.dropFirst())
                    guard let postings = try store.outside(IndexFormat.postFileName, hash: hash) as? String else {
                        throw store.corrupt(from, "“\(word)”: expected its postings in post.\(hash).json")
                    }
                    whole = postings
                }
                // The ranked layout's postings come with their documents' cells, after a `;`.
                let cut = whole.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                let entry = cut[0]
                let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard let ids = IndexFormat.decodePostings(String(parts[0]), below: docs.count) else {
                    throw store.corrupt(from, "“\(word)”: expected postings of document numbers below \(docs.count)")
                }
                guard (cut.count == 2) == isRanked, cut.count == 1
                        || IndexFormat.decodeCodes(String(cut[1]), count: ids.count, limit: cellCount).map({ $0.elementsEqual(ids.lazy.map { self.cellOf[Int($0)] }) }) == true else {
                    throw store.corrupt(from, "“\(word)”: expected \(isRanked ? "the cells of its \(plural(ids.count, "document"))" : "no cells") after its postings")
                }
                let starts = word.utf8.starts(with: piece.text.utf8)
                let marks = alwaysWhole || word.utf8.elementsEqual(piece.text.utf8) ? Score.wholeWord
                    : starts ? Score.wordStart : Score.insideWord
                for id in ids { found[id, default: 0] |= marks }
                // Only a word starting with the piece is read from its own entry by every reader, unions or not.
                guard parts.count > 1, starts, pieces.count == 1 else { continue }
                for (part, mark) in zip(parts.dropFirst(), [Score.often, Score.lead]) {
                    guard let ids = IndexFormat.decodePostings(String(part), below: docs.count) else {
                        throw store.corrupt(from, "“\(word)”: expected postings of document numbers below \(docs.count)")
                    }
                    for id in ids { found[id, default: 0] |= mark }
                }
            }
            result = result.map { $0.filter { found[$0.key] != nil } } ?? found
            if result!.isEmpty { break }
        }
        return result ?? Dictionary(uniqueKeysWithValues: docs.indices.map { (Int32($0), Score.wholeWord) })
    }

    /// The file holding the words filed under `key`, and its entries.
    func words(for key: String) throws -> (file: String, words: [String: String]) {
        if shardCount == 0 { return ("manifest.json", store.inline) }
        if let parts = splitKeys[key] {
            if let words = store.splitWords[key] { return ("shard.\(parts[0]).json", words) }
            // Every part of a split key, its words' primary entries taken over their secondary ones.
            var words: [String: String] = [:]
            for (hash, part) in zip(parts, try shardFiles(for: key)) {
                guard let entries = (part as? [String: Any])?["words"] as? [String: String] else {
                    throw store.corrupt("shard.\(hash).json", "expected an object of strings")
                }
                words.merge(entries) { old, new in old == "@" ? new : old }
            }
            store.splitWords[key] = words
            return ("shard.\(parts[0]).json", words)
        }
        let n = shard(for: key)
        return (IndexFormat.shardFileName(n), try store.shard(n))
    }

    /// The parsed files a key's entries are in: its shard, or every part of a split key.
    func shardFiles(for key: String) throws -> [Any] {
        if let parts = splitKeys[key] { return try parts.map { try store.outside(IndexFormat.shardFileName(0), hash: $0) } }
        return [try store.object(IndexFormat.shardFileName(shard(for: key)))]
    }

    /// The number of the shard a key is filed in (a sharded index's).
    func shard(for key: String) -> Int {
        let bucket = isRanked ? IndexFormat.rankedBucket(ofKeyBytes: key.utf8) : IndexFormat.bucket(ofKey: key)
        return IndexFormat.shard(ofBucket: bucket, bounds: bounds)
    }

    /// The postings of a word whose entry in `file` says `@`: its entry in its primary shard.
    func primaryPostings(_ word: String, from file: String) throws -> (file: String, postings: String) {
        let (primary, words) = try words(for: IndexFormat.key(word))
        guard let postings = words[word], postings != "@" else {
            throw store.corrupt(file, "“\(word)”: expected its postings in \(primary)")
        }
        return (primary, postings)
    }
}

/// "1 code", "2 codes".
private func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
