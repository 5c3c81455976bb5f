import Foundation

/// Collects digested documents and writes the search index described in docs/search-index.md.
public struct SearchIndexBuilder {
    private var digests: [SearchDigest] = []
    private var infos: [SearchCollectionInfo] = []
    /// Above this many bytes of word entries the postings split into shards; nil: the default.
    public var shardThreshold: Int
    /// The size a shard aims at, in raw bytes.
    public var shardTarget: Int

    /// Creates an empty builder with the default sharding threshold (192 KB of postings).
    public init() {
        self.init(shardThreshold: 192 * 1024)
    }

    /// Creates an empty builder that shards once the word entries pass `shardThreshold` bytes.
    public init(shardThreshold: Int, shardTarget: Int = 12 * 1024) {
        self.shardThreshold = shardThreshold
        self.shardTarget = max(1, shardTarget)
    }

    /// Folds a document and extracts its body vocabulary; pure, so callers may run it in parallel.
    public static func digest(_ doc: SearchDocument) -> SearchDigest {
        let words = doc.body.isEmpty ? [] : Array(IndexFormat.vocabulary(Fold.fold(doc.body)))
        return SearchDigest(collection: doc.collection, slug: doc.slug, title: doc.title, url: doc.url,
                            scope: doc.scope, fieldNames: doc.fields.map(\.name),
                            fieldValues: doc.fields.map(\.value), words: words)
    }

    /// Adds a digested document; documents of a collection come in list order.
    public mutating func add(_ digest: SearchDigest) {
        digests.append(digest)
    }

    /// Declares a collection: its heading and scope order. Collections keep the order declared.
    public mutating func addCollection(_ info: SearchCollectionInfo) {
        if let i = infos.firstIndex(where: { $0.name == info.name }) { infos[i] = info } else { infos.append(info) }
    }

    /// Writes manifest.json (and, when sharded, docs.json and shard-N.json) into the directory.
    public func write(to searchDirectory: URL, baseURL: String) throws {
        let files = render(baseURL: baseURL)
        let fm = FileManager.default
        try fm.createDirectory(at: searchDirectory, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: searchDirectory.appendingPathComponent(name))
        }
    }

    /// The index files by name, in a fixed order.
    func render(baseURL: String) -> [(String, String)] {
        // Collections: declared order, then undeclared ones as first seen.
        var order = infos
        var byName: [String: Int] = [:]
        for (i, info) in order.enumerated() { byName[info.name] = i }
        var members: [[Int]] = Array(repeating: [], count: order.count)
        for (i, d) in digests.enumerated() {
            if byName[d.collection] == nil {
                byName[d.collection] = order.count
                order.append(SearchCollectionInfo(name: d.collection, title: d.collection.capitalized))
                members.append([])
            }
            members[byName[d.collection]!].append(i)
        }

        var docsJSON = JSONWriter()
        docsJSON.raw("[")
        var postings: [String: [Int32]] = [:]
        var next: Int32 = 0
        for (c, info) in order.enumerated() {
            if c > 0 { docsJSON.raw(",") }
            writeCollection(info, members[c].map { digests[$0] }, into: &docsJSON)
            for m in members[c] {
                for w in digests[m].words { postings[w, default: []].append(next) }
                next += 1
            }
        }
        docsJSON.raw("]")

        var entries: [(word: String, postings: String)] = postings.map { ($0.key, IndexFormat.encodePostings($0.value)) }
        entries.sort { $0.word < $1.word }
        let total = entries.reduce(0) { $0 + $1.word.utf8.count + $1.postings.utf8.count + 6 }

        let base = normalizedBase(baseURL)
        if total <= shardThreshold {
            var m = JSONWriter()
            m.raw("{\"version\":\(IndexFormat.version),")
            m.key("base"); m.string(base)
            m.raw(",\"shards\":0,\"collections\":")
            m.raw(docsJSON.out)
            m.raw(",\"words\":")
            writeWords(entries.map { ($0.word, $0.postings) }, into: &m)
            m.raw("}\n")
            return [("manifest.json", m.out)]
        }

        let count = max(1, (total + shardTarget - 1) / shardTarget)
        var shards: [[(String, String)]] = Array(repeating: [], count: count)
        var secondary: [[String: String]] = Array(repeating: [:], count: count)
        for (word, posting) in entries {
            let scalars = Array(word.unicodeScalars)
            let primary = IndexFormat.shard(ofKey: IndexFormat.key(word), count: count)
            shards[primary].append((word, posting))
            guard scalars.count >= 4 else { continue }
            let reference = posting.utf8.count <= 8 ? posting : "@"
            for i in 1...(scalars.count - 3) {
                let tri = String(String.UnicodeScalarView(scalars[i..<(i + 3)]))
                let s = IndexFormat.shard(ofKey: tri, count: count)
                if s != primary { secondary[s][word] = reference }
            }
        }
        var files: [(String, String)] = []
        var m = JSONWriter()
        m.raw("{\"version\":\(IndexFormat.version),")
        m.key("base"); m.string(base)
        m.raw(",\"shards\":\(count),\"docs\":\"docs.json\"}\n")
        files.append(("manifest.json", m.out))
        files.append(("docs.json", "{\"collections\":" + docsJSON.out + "}\n"))
        for s in 0..<count {
            var list = shards[s]
            for (w, p) in secondary[s] { list.append((w, p)) }
            list.sort { $0.0 < $1.0 }
            var j = JSONWriter()
            writeWords(list, into: &j)
            j.raw("\n")
            files.append((IndexFormat.shardFileName(s), j.out))
        }
        return files
    }

    private func normalizedBase(_ baseURL: String) -> String {
        // Only the path of an absolute base URL matters to links inside the site.
        var path = baseURL
        if let url = URL(string: baseURL), url.scheme != nil { path = url.path }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }

    private func writeWords(_ list: [(String, String)], into j: inout JSONWriter) {
        j.raw("{")
        for (i, (w, p)) in list.enumerated() {
            if i > 0 { j.raw(",") }
            j.key(w)
            j.string(p)
        }
        j.raw("}")
    }

    private func writeCollection(_ info: SearchCollectionInfo, _ docs: [SearchDigest], into j: inout JSONWriter) {
        var scopes = info.scopes
        if scopes.isEmpty {
            for d in docs { if let s = d.scope, !scopes.contains(s) { scopes.append(s) } }
        }
        var fieldNames: [String] = []
        for d in docs { for n in d.fieldNames where !fieldNames.contains(n) { fieldNames.append(n) } }
        if fieldNames.isEmpty { fieldNames = ["title"] }

        j.raw("{")
        j.key("name"); j.string(info.name)
        j.raw(","); j.key("title"); j.string(info.title)
        j.raw(",\"count\":\(docs.count)")
        j.raw(","); j.key("scopes"); j.strings(scopes)
        if !scopes.isEmpty {
            let index = Dictionary(uniqueKeysWithValues: scopes.enumerated().map { ($1, $0) })
            let ids = docs.map { d in d.scope.flatMap { index[$0] } ?? -1 }
            j.raw(",\"scopeCounts\":")
            j.ints(scopes.indices.map { s in ids.filter { $0 == s }.count })
            j.raw(",\"scope\":")
            j.ints(ids)
        }
        j.raw(",\"slugs\":[")
        for (i, d) in docs.enumerated() {
            if i > 0 { j.raw(",") }
            j.string(IndexFormat.asciiSlug(d.title) == d.slug ? "" : d.slug)
        }
        j.raw("]")
        var urls: [(Int, String)] = []
        for (i, d) in docs.enumerated() where d.url != "\(info.name)/\(d.slug)/" { urls.append((i, d.url)) }
        if !urls.isEmpty {
            j.raw(",\"urls\":{")
            for (k, (i, u)) in urls.enumerated() {
                if k > 0 { j.raw(",") }
                j.key(String(i)); j.string(u)
            }
            j.raw("}")
        }
        j.raw(",\"fields\":[")
        for (f, name) in fieldNames.enumerated() {
            if f > 0 { j.raw(",") }
            let values = docs.map { d -> String in
                if f == 0 { return d.title }
                return d.fieldNames.firstIndex(of: name).map { d.fieldValues[$0] } ?? ""
            }
            writeColumn(name, values, into: &j)
        }
        j.raw("]}")
    }

    /// A field column: its values, dictionary-coded when few distinct values repeat, and the
    /// folded form of each value that is not pure ASCII.
    private func writeColumn(_ name: String, _ values: [String], into j: inout JSONWriter) {
        var distinct: [String] = []
        var index: [String: Int] = [:]
        for v in values where index[v] == nil { index[v] = distinct.count; distinct.append(v) }
        let coded = distinct.count * 4 <= values.count
        let table = coded ? distinct : values
        j.raw("{"); j.key("name"); j.string(name)
        j.raw(","); j.key("values"); j.strings(table)
        if coded { j.raw(",\"ids\":"); j.ints(values.map { index[$0]! }) }
        var folded: [(Int, String)] = []
        for (i, v) in table.enumerated() where IndexFormat.asciiFold(v) == nil { folded.append((i, Fold.fold(v))) }
        if !folded.isEmpty {
            j.raw(",\"folded\":{")
            for (k, (i, f)) in folded.enumerated() {
                if k > 0 { j.raw(",") }
                j.key(String(i)); j.string(f)
            }
            j.raw("}")
        }
        j.raw("}")
    }
}
