import Foundation
import Testing
@testable import SiftKit

/// A digest file whose index (the offset it starts at, a record's offset or length) holds any
/// 64-bit number (a damaged .sift-cache) makes the cache unusable, and the build renders
/// everything again: it never traps converting the number.
@Test func aDamagedDigestIndexDropsTheCache() throws {
    let site = try TestSite(["Content/notes/a.md": "# A\n\nalpha\n"])
    defer { site.delete() }
    #expect(site.build().status == 0)
    let digests = DiskCache.digestsFile(in: site.root)
    let output = site.output.standardizedFileURL.path
    #expect(DiskCache.load(site: site.root, output: output, version: SiftCLI.version) != nil)
    let original = try Data(contentsOf: digests)
    let pages = DiskCache.pagesFile(in: site.root), originalPages = try Data(contentsOf: pages)
    func u64(_ data: Data, at offset: Int) -> UInt64 {
        data[offset..<offset + 8].enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
    let indexStart = Int(u64(original, at: original.count - 16))
    let firstName = Int(u64(original, at: indexStart + 8))
    // The index's start; the first record's offset; its length.
    let places = [original.count - 16, indexStart + 16 + firstName + 8, indexStart + 16 + firstName + 16]
    for place in places {
        for value: UInt64 in [.max, 1 << 63, UInt64(Int.max), UInt64(Int.max) - 7, 0, UInt64(original.count)] {
            var bytes = original
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(place..<place + 8, with: $0) }
            try FileManager.default.removeItem(at: digests)
            try bytes.write(to: digests)
            #expect(DiskCache.load(site: site.root, output: output, version: SiftCLI.version) == nil, "\(value) at \(place)")
            // An edit, so the build does not stop at its stamps and leave the damaged cache be.
            try site.write("Content/notes/a.md", "# A\n\nalpha \(value) \(place)\n")
            #expect(site.build().status == 0)
            #expect(site.page("notes/a/index.html")?.contains("alpha \(value) \(place)") == true)
            #expect(DiskCache.load(site: site.root, output: output, version: SiftCLI.version) != nil, "the build after it leaves a cache")
            try FileManager.default.removeItem(at: digests)
            try original.write(to: digests)
            try originalPages.write(to: pages)
        }
    }
}

/// Every item's digest in a site's cache, encoded with its excerpt entry, by item.
private func cachedDigests(_ site: TestSite) throws -> [String: [UInt8]] {
    let cache = try #require(DiskCache.load(site: site.root, output: site.output.standardizedFileURL.path, version: SiftCLI.version))
    var out: [String: [UInt8]] = [:]
    for (item, entry) in cache.digestIndex {
        var digest = try #require(cache.digest(item, key: entry.key))
        digest.excerptText = try digest.excerpt()
        var w = BinaryWriter()
        digest.write(to: &w)
        out[item] = w.bytes
    }
    return out
}

/// The forty-note site the digest file tests edit, five of them with pages.
private func notesSite() throws -> TestSite {
    var files = ["Content/notes/notes.txt": (0..<40).map { "Note \($0)" }.joined(separator: "\n") + "\n"]
    for i in [0, 7, 8, 20, 39] { files["Content/notes/note-\(i).md"] = "Body of note \(i) with harbor \(i).\n" }
    return try TestSite(files)
}

/// An incremental build appends the changed item's record and a new index to the last build's
/// digest file instead of copying it (at 100k items that copy was a gigabyte per edit): the
/// bytes already there stay as they are, and the cache holds the digests a clean build records.
@Test func anIncrementalBuildAppendsToTheLastDigestFile() throws {
    let site = try notesSite()
    defer { site.delete() }
    #expect(site.build().status == 0)
    let before = try Data(contentsOf: DiskCache.digestsFile(in: site.root))
    try site.write("Content/notes/note-8.md", "Body of note 8, now with a volcano.\n")
    #expect(site.build().status == 0)
    let after = try Data(contentsOf: DiskCache.digestsFile(in: site.root))
    #expect(after.prefix(before.count) == before)
    #expect(after.count - before.count < before.count / 2, "\(before.count) → \(after.count)")
    let incremental = try cachedDigests(site)
    #expect(site.build(["--clean"]).status == 0)
    let clean = try cachedDigests(site)
    #expect(incremental.count >= 40 && incremental == clean)
    #expect(site.page("notes/note-8/index.html")?.contains("volcano") == true)
}

/// What a killed build appended to the digest file lies past the length the last good build
/// recorded: the next build reads the cache as that build left it and cuts the rest off.
@Test func whatAKilledBuildAppendedIsCutOff() throws {
    let site = try notesSite()
    defer { site.delete() }
    #expect(site.build().status == 0)
    let url = DiskCache.digestsFile(in: site.root)
    let good = try Data(contentsOf: url)
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 5000))
    try handle.close()
    let cached = try cachedDigests(site)
    #expect(cached.count >= 40)
    try site.write("Content/notes/note-20.md", "Body of note 20, now with a lighthouse.\n")
    #expect(site.build().status == 0)
    let after = try Data(contentsOf: url)
    #expect(after.prefix(good.count) == good)
    #expect(!after.dropFirst(good.count).prefix(16).allSatisfy { $0 == 0xA5 })
    #expect(site.page("notes/note-20/index.html")?.contains("lighthouse") == true)
    #expect(try cachedDigests(site).filter { !$0.key.hasSuffix("note-20") } == cached.filter { !$0.key.hasSuffix("note-20") })
}

/// Edit after edit, the digest file stays within about twice the records it holds: past that, a
/// build copies the live records to a new file. Every build's output is still a clean build's.
@Test func theDigestFileIsCompactedAsItGrows() throws {
    let site = try notesSite()
    defer { site.delete() }
    #expect(site.build().status == 0)
    let clean = try Data(contentsOf: DiskCache.digestsFile(in: site.root)).count
    var largest = 0, shrank = false
    for edit in 0..<40 {
        try site.write("Content/notes/note-\([0, 7, 8, 20, 39][edit % 5]).md", "Body, edit \(edit), with harbor.\n")
        #expect(site.build().status == 0)
        let size = try Data(contentsOf: DiskCache.digestsFile(in: site.root)).count
        shrank = shrank || size < largest
        largest = max(largest, size)
    }
    #expect(shrank, "the file was never copied anew")
    #expect(largest < 3 * clean, "\(largest) bytes against \(clean) for a clean build")
    let incremental = try cachedDigests(site)
    #expect(site.build(["--clean"]).status == 0)
    #expect(try cachedDigests(site) == incremental)
}

/// A digest read from the last build's cache leaves its excerpt entry in the file: an incremental
/// build links the text files of unchanged documents, so holding every entry (most of a 100k
/// build's memory) bought nothing. Read when asked, it is the entry the build wrote; a file cut
/// short under it is an error, never a trap or an empty entry.
@Test func aCachedDigestReadsItsExcerptOnlyWhenAsked() throws {
    let site = try TestSite(["Content/notes/notes.txt": "Alpha\nBeta\n",
                             "Content/notes/alpha.md": "Before the heading.\n\n## Harbor\n\nAlpha's harbor text.\n"])
    defer { site.delete() }
    #expect(site.build().status == 0)
    let cache = try #require(DiskCache.load(site: site.root, output: site.output.standardizedFileURL.path, version: SiftCLI.version))
    let (item, entry) = try #require(cache.digestIndex.first { $0.key.hasSuffix("alpha") })
    let digest = try #require(cache.digest(item, key: entry.key))
    #expect(digest.excerptText.isEmpty && digest.storedExcerpt != nil)
    let excerpt = try digest.excerpt()
    #expect(excerpt.contains("Alpha's harbor text.") && excerpt.contains("Harbor"), "\(excerpt)")
    #expect(digest.excerptBytes == excerpt.reduce(0) { $0 + $1.utf8.count })
    // Cut in the middle of the entry's last string.
    let bytes = [UInt8](try Data(contentsOf: DiskCache.digestsFile(in: site.root)))
    let text = Array("Alpha's harbor text.".utf8)
    let at = try #require((entry.range.lowerBound..<entry.range.upperBound - text.count).first { bytes[$0..<$0 + text.count].elementsEqual(text) })
    let handle = try FileHandle(forWritingTo: DiskCache.digestsFile(in: site.root))
    try handle.truncate(atOffset: UInt64(at + 4))
    try handle.close()
    #expect(throws: CacheDamage.self) { try digest.excerpt() }
}

/// A digest recorded by this build comes back with its excerpt entry left in the file being
/// written: a clean build holds no document's text until its text file is written.
@Test func aRecordedDigestKeepsItsExcerptInTheFileBeingWritten() throws {
    let site = try TestSite([:])
    defer { site.delete() }
    let cache = DiskCache(output: "/out", version: "test")
    try cache.beginDigests(site: site.root)
    defer { cache.discard() }
    var documents = ["Harbor", "Volcano", "Café"].map { title in
        var d = SearchDocument(collection: "c", slug: title.lowercased(), title: title, url: "c/\(title)/", fields: [("title", title)], body: "Body of \(title).")
        d.excerptText = ["Lead of \(title).", "h", title, "Section of \(title) ✓"]
        return d
    }
    documents.append(SearchDocument(collection: "c", slug: "bare", title: "Bare", url: "c/bare/", fields: [("title", "Bare")]))
    let records = documents.enumerated().map { SearchRecord(item: "c/\($0.element.slug)", key: UInt64($0.offset), digest: SearchIndexBuilder.digest($0.element)) }
    let kept = try cache.appendDigests(Array(records[..<2])) + cache.appendDigests(Array(records[2...]))
    for (record, original) in zip(kept, documents) {
        #expect(record.digest.excerptText.isEmpty)
        #expect((record.digest.storedExcerpt == nil) == original.excerptText.isEmpty)
        #expect(try record.digest.excerpt() == original.excerptText)
        #expect(record.digest.excerptBytes == original.excerptText.reduce(0) { $0 + $1.utf8.count })
    }
}

/// A record keeps each word but not its hash, which the reader makes again: a digest read back
/// whole is the tokenizer's, hashes and all, CJK grams and joined words among them.
@Test func aDigestReadBackHasItsWordsHashesAgain() throws {
    var document = SearchDocument(collection: "notes", slug: "a", title: "A", url: "notes/a/", scope: nil, fields: [("title", "A")],
                                  body: "Harbor e-mail Wi-Fi 東京タワー harbor café naïve 123 ok")
    document.excerptText = ["", "Harbor e-mail", "Tides"]
    let digest = Tokenizer.digest(document)
    #expect(digest.wordHashes.count == digest.wordEnds.count && digest.wordHashes.count > 10)
    var w = BinaryWriter()
    digest.write(to: &w)
    var r = BinaryReader(bytes: w.bytes)
    var excerpt = (range: 0..<0, bytes: 0)
    let read = try #require(SearchDigest(readingAllButExcerpt: &r, excerpt: &excerpt))
    #expect(read.wordBytes == digest.wordBytes && read.wordEnds == digest.wordEnds && read.wordCounts == digest.wordCounts)
    #expect(read.wordHashes == digest.wordHashes)
    #expect(r.atEnd)
}

/// The cache files a build replaces are set aside and removed while the new output goes in:
/// nothing of them is left, and what a killed build left set aside goes with the next build.
@Test func noCacheFileABuildReplacedIsLeftBehind() throws {
    let site = try TestSite(["Content/notes/a.md": "# A\n\nalpha\n", "Content/notes/b.md": "# B\n\nbeta\n"])
    defer { site.delete() }
    let folder = DiskCache.folder(in: site.root)
    func names() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []) }
    #expect(site.build().status == 0)
    let first = names()
    #expect(first.contains("digests.cache"))
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("old-1"), withIntermediateDirectories: true)
    try Data("left".utf8).write(to: folder.appendingPathComponent("old-1/digests.cache"))
    try site.write("Content/notes/a.md", "# A\n\nalpha gamma\n")
    #expect(site.build().status == 0)
    // The edit's word tables as a log beside the last build's (`WordTableLog`).
    #expect(names() == first.union([WordTableLog.name]))
    #expect(site.build(["--clean"]).status == 0)
    #expect(names() == first)
    #expect(site.page("notes/a/index.html")?.contains("gamma") == true)
    let output = site.output.standardizedFileURL.path
    #expect(DiskCache.load(site: site.root, output: output, version: SiftCLI.version) != nil)
}
