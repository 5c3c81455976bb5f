/// The index's immutable names (docs/search-index.md, "File names"): every file of the index but
/// the manifest is written as `immutable/KIND.HASH.EXT`, and the manifest's `files` maps each of
/// its names (`shard-3.json`, KIND `shard`) to its HASH. Readers resolve every name through
/// `files`, so a file the writer adds gets its immutable name without either side knowing it. The
/// name's number is left out of the path: a shard renumbered when one before it splits keeps its file.
enum IndexFileNames {
    /// The entry point, the one file of the index whose name stays.
    static let manifest = "manifest.json"

    /// A value too heavy for its entry, as a file of its own: its JSON and a newline, of `kind`
    /// (`post.json`, `frec.json`, `typo.json`), added to `outside`; what the entry holds in its
    /// place, `=HASH` (a file of the same bytes is written once: `SearchIndexBuilder.write`).
    static func outside(_ json: [UInt8], kind: String, into outside: inout [(String, [UInt8])]) -> String {
        let file = json + [0x0A]
        outside.append((kind, file))
        return "=" + ContentHash.of(file)
    }

    /// `outside` for a value that is a JSON string: `value` quoted, then filed.
    static func outside(quoting value: [UInt8], kind: String, into outside: inout [(String, [UInt8])]) -> String {
        var json: [UInt8] = []
        JSONWriter.string(value, into: &json)
        return Self.outside(json, kind: kind, into: &outside)
    }

    /// The folder, beside the manifest, of the files named by their hash.
    static let folder = "immutable/"

    /// The files of a render (names relative to search/) under their immutable names, the
    /// manifest first and holding `files`; a render of the manifest alone is left as it is.
    /// `hashes` are more entries of `files`, of no file (text files' groups).
    static func named(_ files: [(String, [UInt8])], hashes extra: [(String, String)] = []) -> [(String, [UInt8])] {
        guard let m = files.firstIndex(where: { $0.0 == manifest }) else { return files }
        let others = files.indices.filter { $0 != m }.map { files[$0] }
        guard !others.isEmpty || !extra.isEmpty else { return files }
        let hashes = ParallelMap.map(others) { ContentHash.of($0.1) }
        var entries: [UInt8] = Array(",\"files\":{".utf8)
        let named = zip(others.map(\.0), hashes) + extra
        for (k, entry) in named.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
            if k > 0 { entries.append(UInt8(ascii: ",")) }
            JSONWriter.string(entry.0.utf8, into: &entries)
            entries.append(UInt8(ascii: ":"))
            JSONWriter.string(entry.1.utf8, into: &entries)
        }
        entries.append(UInt8(ascii: "}"))
        var bytes = files[m].1
        // The manifest is one object and a newline: `files` goes in before its closing brace.
        guard bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: "}") else { return files }
        bytes.insert(contentsOf: entries, at: bytes.count - 2)
        // Files of the same bytes are one file, written once.
        var seen: Set<String> = []
        return [(manifest, bytes)] + zip(others, hashes).compactMap { file, hash in
            let path = path(file.0, hash: hash)
            return seen.insert(path).inserted ? (path, file.1) : nil
        }
    }

    /// Where text file `n` of the group of hash `group` is (docs/search-index.md, "Text files"):
    /// `immutable/text-N.GROUP.json`, its number kept, as its group's files share the hash.
    static func textPath(_ n: Int, group: String) -> String { folder + "text-\(n)." + group + ".json" }

    /// Where the file of `name` and `hash` is, relative to the manifest's folder:
    /// `shard-3.json` → `immutable/shard.HASH.json`.
    static func path(_ name: String, hash: String) -> String {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        var kind = name[..<dot]
        if let dash = kind.lastIndex(of: "-"), kind.index(after: dash) < kind.endIndex,
           kind[kind.index(after: dash)...].allSatisfy(\.isASCII), kind[kind.index(after: dash)...].allSatisfy(\.isNumber) {
            kind = kind[..<dash]
        }
        return folder + kind + "." + hash + name[dot...]
    }
}
