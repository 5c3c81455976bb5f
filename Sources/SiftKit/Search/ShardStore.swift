import Foundation

/// Loads index files on demand and remembers them, as a browser's fetches would.
final class ShardStore {
    let directory: URL
    /// The directory as errors print it.
    let displayPath: String
    var inline: [String: String] = [:]
    var shards: [Int: [String: String]] = [:]
    /// The ranked layout's split keys' words, every part of a key's merged, by key.
    var splitWords: [String: [String: String]] = [:]
    /// Text files read, by number, and each document by its URL (docs/search-index.md, "Excerpts").
    var texts: [Int: [[String]]] = [:]
    var documentsByURL: [String: Int] = [:]
    var read: [(name: String, bytes: Int)] = []
    /// The manifest's `files`: each name's hash, where the file is stored under its immutable name.
    var files: [String: String] = [:]
    /// Text files a group holds; each group's hash in `files` names its files (docs/search-index.md, "Text files").
    var textGroup = 0
    /// The facets read, by the names of the collections they were read for.
    var facets: [String: Facets] = [:]
    /// `SearchIndex.bodyCandidates` by term (and whether whole words only), searched once.
    var bodyCandidates: [String: [Int32: Int]] = [:]
    /// Files already parsed (name → JSON value), read instead of the directory's.
    private let parsed: [String: Any]?

    init(directory: URL, displayPath: String? = nil) {
        self.directory = directory
        self.displayPath = displayPath ?? directory.path
        parsed = nil
    }

    init(parsed: [String: Any]) {
        directory = URL(fileURLWithPath: "/")
        displayPath = "search"
        self.parsed = parsed
    }

    /// An error about one file of the index, printed as `public/search/shard-3.json: error: …`.
    func corrupt(_ name: String, _ message: String) -> SiftError {
        SiftError(message, at: SourcePosition(path: displayPath + "/" + path(name), line: 0))
    }

    /// Where the file the index calls `name` is, relative to its folder (docs/search-index.md,
    /// "File names"); files already parsed go by the names the index calls them.
    func path(_ name: String) -> String {
        guard parsed == nil else { return name }
        if textGroup > 0, let n = IndexFormat.textFileNumber(name) {
            return files[IndexFormat.textGroupKey(n / textGroup)].map { IndexFileNames.textPath(n, group: $0) } ?? name
        }
        // A heavy entry's file (`outside`): its kind's name, `=`, its hash.
        if let equals = name.firstIndex(of: "="), let hash = files[name] { return IndexFileNames.path(String(name[..<equals]), hash: hash) }
        return files[name].map { IndexFileNames.path(name, hash: $0) } ?? name
    }

    /// The ranked layout's file of one heavy entry (`IndexFormat.heavyEntry`), `name` its kind's
    /// (`post.json`) and `hash` what its entry says after `=`.
    func outside(_ name: String, hash: String) throws -> Any {
        guard IndexFormat.isHexDigits(hash) else { throw corrupt(name, "expected the hash of a file after “=”") }
        files[name + "=" + hash] = hash
        return try object(name + "=" + hash)
    }

    func object(_ name: String) throws -> Any {
        // Names come from the manifest: a file of this folder only, as a browser resolves them.
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != "..", name != "." else {
            throw corrupt("manifest.json", "the index names a file outside its folder: \(name)")
        }
        if let parsed {
            guard let value = parsed[name] else { throw corrupt(name, "cannot read the search index: run `sift build` again") }
            read.append((name, 0))
            return value
        }
        let url = directory.appendingPathComponent(path(name))
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw corrupt(name, "cannot read the search index: run `sift build` again")
        }
        read.append((path(name), data.count))
        // A heavy entry of the ranked layout is one JSON string (`outside`), which JSON allows at the top.
        do { return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) } catch {
            throw corrupt(name, "not valid JSON")
        }
    }

    func shard(_ n: Int) throws -> [String: String] {
        if let s = shards[n] { return s }
        let name = IndexFormat.shardFileName(n)
        let object = try object(name)
        // The ranked layout's shard holds its words beside its field entries, which `sift search` reads from the text files.
        guard let s = object as? [String: String] ?? (object as? [String: Any])?["words"] as? [String: String] else {
            throw corrupt(name, "expected an object of strings")
        }
        shards[n] = s
        return s
    }
}
