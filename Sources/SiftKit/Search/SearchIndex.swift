import Foundation

/// A built search index read from public/search, answering queries as sift-core.js does.
public struct SearchIndex {
    struct Collection {
        var name: String
        var title: String
        var scopes: [String]
        var first: Int
        var count: Int
    }

    struct Doc {
        var collection: Int
        var slug: String
        var title: String
        var url: String
        var scope: String?
        var folded: [String]
    }

    let directory: URL
    private let base: String
    private let shardCount: Int
    private var bounds: [Int] = []
    private var collections: [Collection] = []
    private var docs: [Doc] = []
    private let store: ShardStore

    /// The files read so far with their sizes, in order: what a browser would have fetched.
    public var filesRead: [(name: String, bytes: Int)] { store.read }

    /// Reads manifest.json and the document tables from a built public/search directory.
    public init(directory: URL) throws {
        self.directory = directory
        let store = ShardStore(directory: directory)
        self.store = store
        guard let manifest = try store.object("manifest.json") as? [String: Any] else {
            throw SiftError("search index manifest is not a JSON object", at: nil)
        }
        guard let version = manifest["version"] as? Int, version == IndexFormat.version else {
            throw SiftError("search index version \(manifest["version"] ?? "none") is not supported (expected \(IndexFormat.version))", at: nil)
        }
        base = manifest["base"] as? String ?? "/"
        shardCount = manifest["shards"] as? Int ?? 0
        if shardCount == 0 {
            store.inline = (manifest["words"] as? [String: String]) ?? [:]
        } else {
            bounds = manifest["bounds"] as? [Int] ?? []
            guard bounds.count == shardCount - 1 else {
                throw SiftError("search index manifest has \(bounds.count) bounds for \(shardCount) shards", at: nil)
            }
        }
        for c in manifest["collections"] as? [[String: Any]] ?? [] { try load(c) }
    }

    private mutating func load(_ c: [String: Any]) throws {
        let name = c["name"] as? String ?? ""
        let count = c["count"] as? Int ?? 0
        let scopes = c["scopes"] as? [String] ?? []
        var table = c["docs"] as? [String: Any]
        if let file = c["docs"] as? String { table = try store.object(file) as? [String: Any] }
        guard let table else { throw SiftError("search index collection \(name) has no document table", at: nil) }
        let scopeIDs = (table["scope"] as? String).map { IndexFormat.decodeCodes($0, count: count) } ?? []
        let scopeOf = { (i: Int) -> String? in
            i < scopeIDs.count && scopeIDs[i] < scopes.count ? scopes[scopeIDs[i]] : nil
        }
        let slugs = table["slugs"] as? [String] ?? []
        let urls = table["urls"] as? [String: String] ?? [:]
        var columns: [[String]] = []
        for f in table["fields"] as? [[String: Any]] ?? [] {
            if f["scope"] as? Bool == true {
                columns.append((0..<count).map { scopeOf($0) ?? "" })
            } else if let ids = f["ids"] as? String {
                let values = f["values"] as? [String] ?? []
                let decoded = IndexFormat.decodeCodes(ids, count: count)
                guard decoded.allSatisfy({ $0 < values.count }) else { columns.append([]); continue }
                columns.append(decoded.map { values[$0] })
            } else {
                columns.append(f["values"] as? [String] ?? [])
            }
        }
        guard slugs.count == count, !columns.isEmpty, columns.allSatisfy({ $0.count == count }) else {
            throw SiftError("search index collection \(name) is malformed", at: nil)
        }
        let ci = collections.count
        collections.append(Collection(name: name, title: c["title"] as? String ?? name, scopes: scopes,
                                      first: docs.count, count: count))
        for i in 0..<count {
            let title = columns[0][i]
            let slug = slugs[i].isEmpty ? (IndexFormat.derivedSlug(title) ?? "") : slugs[i]
            docs.append(Doc(collection: ci, slug: slug, title: title,
                            url: urls[String(i)] ?? "\(name)/\(slug)/", scope: scopeOf(i),
                            folded: columns.map { Fold.fold($0[i]) }))
        }
    }

    /// Answers a query: scope "All" or nil for every item, collection nil for every collection.
    public func search(_ query: String, scope: String? = nil, collection: String? = nil,
                       limit: Int? = nil) throws -> SearchResponse {
        var pool = Array(docs.indices)
        if let collection {
            guard let c = collections.firstIndex(where: { $0.name == collection }) else {
                let known = collections.map(\.name).joined(separator: ", ")
                throw SiftError("unknown collection “\(collection)” (collections: \(known))", at: nil)
            }
            pool = pool.filter { docs[$0].collection == c }
        }
        if let scope, scope != "All" {
            let offered = Set(collections.filter { c in collection == nil || c.name == collection }.flatMap(\.scopes))
            guard offered.contains(scope) else {
                let known = (["All"] + orderedScopes(collection)).joined(separator: ", ")
                throw SiftError("unknown scope “\(scope)” (scopes: \(known))", at: nil)
            }
            pool = pool.filter { docs[$0].scope == scope }
        }

        let terms = Array(NSOrderedSet(array: Fold.terms(query)).array as! [String])
        var hits: [(doc: Int, rank: Int, match: SearchResult.Match)] = []
        if terms.isEmpty {
            hits = pool.map { ($0, 3, .field) }
        } else {
            let phrase = terms.joined(separator: " ")
            var bodyOnly: [Set<Int32>?] = Array(repeating: nil, count: terms.count)
            var remaining = pool
            var viaBody: Set<Int> = []
            for (t, term) in terms.enumerated() {
                var kept: [Int] = []
                var needBody: [Int] = []
                for d in remaining {
                    if docs[d].folded.contains(where: { IndexFormat.contains($0, term) }) { kept.append(d) } else { needBody.append(d) }
                }
                if !needBody.isEmpty && term.unicodeScalars.count >= 3 {
                    if bodyOnly[t] == nil { bodyOnly[t] = try bodyCandidates(term) }
                    for d in needBody where bodyOnly[t]!.contains(Int32(d)) { kept.append(d); viaBody.insert(d) }
                    kept.sort()
                }
                remaining = kept
                if remaining.isEmpty { break }
            }
            for d in remaining {
                let title = docs[d].folded.first ?? ""
                let rank: Int
                if viaBody.contains(d) { rank = 4 }
                else if title.utf8.elementsEqual(phrase.utf8) { rank = 0 }
                else if title.utf8.starts(with: phrase.utf8) { rank = 1 }
                else if Self.hasWordStarting(title, with: terms[0]) { rank = 2 }
                else { rank = 3 }
                hits.append((d, rank, rank == 4 ? .body : .field))
            }
            hits.sort { ($0.rank, $0.doc) < ($1.rank, $1.doc) }
            if hits.count < 5 {
                let matched = Set(hits.map(\.doc))
                for d in pool where !matched.contains(d) && fuzzyMatches(docs[d], terms) {
                    hits.append((d, 5, .fuzzy))
                }
            }
        }
        let total = hits.count
        if let limit, limit >= 0, hits.count > limit { hits = Array(hits.prefix(limit)) }
        let results = hits.map { h -> SearchResult in
            let doc = docs[h.doc]
            return SearchResult(collection: collections[doc.collection].name, slug: doc.slug, title: doc.title,
                                url: base + doc.url, scope: doc.scope, match: h.match)
        }
        return SearchResponse(query: query, scope: scope ?? "All", total: total, results: results)
    }

    private func orderedScopes(_ collection: String?) -> [String] {
        var out: [String] = []
        for c in collections where collection == nil || c.name == collection {
            for s in c.scopes where !out.contains(s) { out.append(s) }
        }
        return out
    }

    /// True when `term` starts the title or follows a code point that is not a word code point.
    static func hasWordStarting(_ title: String, with term: String) -> Bool {
        let t = Array(title.unicodeScalars), q = Array(term.unicodeScalars)
        guard !q.isEmpty, q.count <= t.count else { return false }
        for i in 0...(t.count - q.count) where i == 0 || !IndexFormat.isWordScalar(t[i - 1]) {
            if Array(t[i..<(i + q.count)]) == q { return true }
        }
        return false
    }

    /// Every term either is in a field or, with 4+ code points, is within the allowed edit
    /// distance of some substring of the title (1; 2 for 8+ code points); at least one is fuzzy.
    private func fuzzyMatches(_ doc: Doc, _ terms: [String]) -> Bool {
        let title = Array((doc.folded.first ?? "").unicodeScalars)
        var anyFuzzy = false
        for term in terms {
            if doc.folded.contains(where: { IndexFormat.contains($0, term) }) { continue }
            let q = Array(term.unicodeScalars)
            guard q.count >= 4 else { return false }
            let k = q.count >= 8 ? 2 : 1
            guard title.count >= q.count - k, Self.substringDistance(q, title, within: k) else { return false }
            anyFuzzy = true
        }
        return anyFuzzy
    }

    /// Sellers' algorithm: is there a substring of `text` within Levenshtein distance k of `pattern`?
    static func substringDistance(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar], within k: Int) -> Bool {
        let m = pattern.count
        var col = Array(0...m)
        if col[m] <= k { return true }
        for c in text {
            var prevDiag = col[0]
            col[0] = 0
            for i in 1...m {
                let old = col[i]
                col[i] = min(prevDiag + (pattern[i - 1] == c ? 0 : 1), old + 1, col[i - 1] + 1)
                prevDiag = old
            }
            if col[m] <= k { return true }
        }
        return false
    }

    /// Documents whose body may contain the term (never missing one that does), from the word
    /// entries: see "Body candidates" in docs/search-index.md.
    private func bodyCandidates(_ term: String) throws -> Set<Int32> {
        let pieces = IndexFormat.pieces(term)
        var result: Set<Int32>?
        for (i, piece) in pieces.enumerated() {
            let n = piece.text.unicodeScalars.count
            let mode: (String) -> Bool
            if pieces.count == 1 {
                mode = { IndexFormat.contains($0, piece.text) }
            } else if i == 0 {
                guard n >= 3 else { continue }
                mode = { $0.utf8.reversed().starts(with: piece.text.utf8.reversed()) }
            } else if i == pieces.count - 1 {
                guard n >= 3 else { continue }
                mode = { $0.utf8.starts(with: piece.text.utf8) }
            } else {
                mode = { $0.utf8.elementsEqual(piece.text.utf8) }
            }
            var found = Set<Int32>()
            for (word, value) in try words(for: IndexFormat.key(piece.text)) where mode(word) {
                let postings = value == "@" ? try primaryPostings(word) : value
                found.formUnion(IndexFormat.decodePostings(postings))
            }
            result = result.map { $0.intersection(found) } ?? found
            if result!.isEmpty { break }
        }
        return result ?? Set(docs.indices.map { Int32($0) })
    }

    private func words(for key: String) throws -> [String: String] {
        if shardCount == 0 { return store.inline }
        return try store.shard(IndexFormat.shard(ofBucket: IndexFormat.bucket(ofKey: key), bounds: bounds))
    }

    private func primaryPostings(_ word: String) throws -> String {
        try words(for: IndexFormat.key(word))[word] ?? ""
    }
}

/// Loads index files on demand and remembers them, as a browser's fetches would.
final class ShardStore {
    let directory: URL
    var inline: [String: String] = [:]
    var shards: [Int: [String: String]] = [:]
    var read: [(name: String, bytes: Int)] = []

    init(directory: URL) { self.directory = directory }

    func object(_ name: String) throws -> Any {
        // Names come from the manifest: a file of this folder only, as a browser resolves them.
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != "..", name != "." else {
            throw SiftError("search index names a file outside its folder: \(name)", at: nil)
        }
        let url = directory.appendingPathComponent(name)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SiftError("cannot read search index file \(url.path): run `sift build` first", at: nil)
        }
        read.append((name, data.count))
        do { return try JSONSerialization.jsonObject(with: data) } catch {
            throw SiftError("search index file \(name) is not valid JSON", at: nil)
        }
    }

    func shard(_ n: Int) throws -> [String: String] {
        if let s = shards[n] { return s }
        let s = try object(IndexFormat.shardFileName(n)) as? [String: String] ?? [:]
        shards[n] = s
        return s
    }
}
