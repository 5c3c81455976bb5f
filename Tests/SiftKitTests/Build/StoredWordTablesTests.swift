import Foundation
import Testing
@testable import SiftKit

/// An incremental `sift build` takes the word tables the last build stored in .sift-cache and
/// applies its edits to them, instead of merging every document's words again; whether it can
/// or not, its output is byte for byte a clean build's.
struct StoredWordTablesTests {
    let shards = ShardReuseTests()
    let chained = ChainedBuildTests()

    func expectClean(_ site: TestSite, _ comment: String) throws {
        let clean = try TestSite([:])
        defer { clean.delete() }
        try chained.mirror(site, into: clean)
        try shards.build(clean, clean: true)
        let got = site.snapshot(), expected = clean.snapshot()
        #expect(Set(expected.keys).subtracting(got.keys).sorted() == [], "\(comment): missing")
        #expect(Set(got.keys).subtracting(expected.keys).sorted() == [], "\(comment): not in a clean build")
        for (path, bytes) in expected where got[path] != bytes { Issue.record("\(comment): \(path) differs from a clean build's") }
    }

    /// An incremental build of the edits made, then its output against a clean build's.
    func buildAndCompare(_ site: TestSite, _ comment: String) throws {
        try edits.backdate(site)
        try shards.build(site)
        try expectClean(site, comment)
    }

    func wordTableFiles(_ site: TestSite) -> [String] {
        FileSystem.list(DiskCache.folder(in: site.root)).filter { $0.hasPrefix("words-") }.sorted()
    }

    func append(_ site: TestSite, _ page: String, _ text: String) throws {
        let old = String(decoding: try Data(contentsOf: site.root.appendingPathComponent(page)), as: UTF8.self)
        try site.write(page, old + "\n" + text + "\n")
    }

    @Test func aBuildStoresItsWordTablesAndTheNextTakesThem() throws {
        var rng = SeededRNG(state: 51)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        let files = wordTableFiles(site)
        #expect(files.count == ParallelMap.jobs, "one file a partition: \(files)")
        #expect(!files.contains { $0.contains(".tmp-") })
        // New words, and words other pages hold, in two pages: then one of them taken out again.
        try append(site, "Content/things/\(Slug.make(rows[3])).md", "zqnew " + shards.prose(&rng, words: 4))
        try append(site, "Content/things/\(Slug.make(rows[9])).md", "zqnew zqother")
        try buildAndCompare(site, "two pages edited")
        try site.write("Content/things/\(Slug.make(rows[3])).md", shards.prose(&rng, words: 20) + "\n")
        try buildAndCompare(site, "a page's words replaced")
        #expect(wordTableFiles(site) == files)
    }

    let edits = IncrementalBuildTests()

    /// Each table file's inode and bytes, to tell a file left as it was from one written again.
    func tableFiles(_ site: TestSite) throws -> [String: (inode: UInt64, bytes: Data)] {
        var out: [String: (inode: UInt64, bytes: Data)] = [:]
        for name in wordTableFiles(site) {
            let url = DiskCache.folder(in: site.root).appendingPathComponent(name)
            var st = stat()
            #expect(stat(url.path, &st) == 0)
            out[name] = (UInt64(st.st_ino), try Data(contentsOf: url))
        }
        return out
    }

    var logFile: String { WordTableLog.name }

    func logSize(_ site: TestSite) -> Int? {
        FileSystem.fileSize(DiskCache.wordLogFile(in: site.root).path)
    }

    /// An edit that takes the stored tables stores its changes as a log (`WordTableLog`) and
    /// leaves the tables' files as they are; each later edit adds to the log, and every build
    /// reads the tables with the log replayed: word for word what a clean build stores, and an
    /// output byte for byte a clean build's.
    @Test func editsAreStoredAsALogBesideTheTablesTheyEdit() throws {
        var rng = SeededRNG(state: 61)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        let tables = try tableFiles(site)
        #expect(tables.count == ParallelMap.jobs)
        #expect(logSize(site) == nil, "a clean build writes the tables whole")
        var sizes: [Int] = []
        for step in 0..<4 {
            // New words, words other pages hold, words taken out again, and a page's words all replaced.
            try append(site, "Content/things/\(Slug.make(rows[step * 3])).md", "zqlog\(step) zqshared " + shards.prose(&rng, words: 5))
            if step == 2 { try site.write("Content/things/\(Slug.make(rows[0])).md", shards.prose(&rng, words: 40) + "\n") }
            try buildAndCompare(site, "edit \(step)")
            let now = try tableFiles(site)
            #expect(now.keys.sorted() == tables.keys.sorted())
            for (name, file) in tables {
                #expect(now[name]?.inode == file.inode && now[name]?.bytes == file.bytes, "edit \(step): \(name) left as it was")
            }
            sizes.append(try #require(logSize(site), "edit \(step): the log is written"))
            let clean = try TestSite([:])
            defer { clean.delete() }
            try chained.mirror(site, into: clean)
            try shards.build(clean, clean: true)
            let incremental = try storedWords(site), expected = try storedWords(clean)
            #expect(incremental.count == expected.count && incremental.count > 100)
            for (word, entries) in expected where incremental[word] != entries {
                Issue.record("edit \(step): \(String(decoding: word, as: UTF8.self)): \(incremental[word] ?? []) stored, \(entries) in a clean build")
            }
        }
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 < $1 }, "each edit adds to the log: \(sizes)")
        #expect(!FileSystem.list(DiskCache.folder(in: site.root)).contains { $0.contains(".tmp-") })
    }

    /// A log that would pass its limit (a thirty-second of the tables, at least 64 KB) is
    /// dropped: the tables are written whole again, and the next edit starts a new log.
    @Test func aLogPastItsLimitHasTheTablesWrittenWhole() throws {
        var rng = SeededRNG(state: 62)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        try append(site, "Content/things/\(Slug.make(rows[1])).md", "zqsmall")
        try buildAndCompare(site, "a small edit")
        #expect(logSize(site) != nil)
        let tables = try tableFiles(site)
        // 4,000 new words of 8 letters: about 190 KB of log (each word, and the entry it sets).
        func letters(_ n: Int) -> String {
            var n = n, out = ""
            for _ in 0..<6 { out.append(Character(UnicodeScalar(UInt8(97 + n % 26)))); n /= 26 }
            return out
        }
        let many = (0..<4000).map { "zq" + letters($0 * 7919) }
        try append(site, "Content/things/\(Slug.make(rows[2])).md", many.joined(separator: " "))
        try buildAndCompare(site, "an edit of 4,000 new words")
        #expect(logSize(site) == nil, "the log is dropped")
        let rewritten = try tableFiles(site)
        #expect(tables.contains { rewritten[$0.key]?.bytes != $0.value.bytes }, "the tables are written again")
        try append(site, "Content/things/\(Slug.make(rows[3])).md", "zqafter")
        try buildAndCompare(site, "an edit after")
        #expect(logSize(site) != nil, "a new log")
    }

    /// A damaged log is not replayed: the build merges every document again, as with no stored
    /// tables, and its output is a clean build's; so is a log left from other tables.
    @Test func aDamagedLogIsNotRead() throws {
        var rng = SeededRNG(state: 63)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        for (step, damage) in ["a byte flipped", "cut short", "another log"].enumerated() {
            try append(site, "Content/things/\(Slug.make(rows[step])).md", "zqfirst\(step) " + shards.prose(&rng, words: 3))
            try buildAndCompare(site, "before the log is \(damage)")
            let url = DiskCache.wordLogFile(in: site.root)
            var bytes = [UInt8](try Data(contentsOf: url))
            switch damage {
            case "a byte flipped": bytes[bytes.count / 2] ^= 0x10
            case "cut short": bytes.removeLast(9)
            default:
                // A log whose hash is whole but whose last batch does not fit the tables.
                var log = try #require(WordTableLog.read(url.path, header: WordTableFile.Header(format: DiskCache.format, version: "", output: site.output.standardizedFileURL.path, fingerprint: 0, parts: ParallelMap.jobs), baseBytes: 0))
                let table = WordTable()
                table.applied = WordTable.StoredEdit(firstNew: 0, sets: [(0, 1_000_000, StoredPostings.presentBit)])
                let appended = log.append(Array(repeating: table, count: ParallelMap.jobs), fingerprint: log.end)
                #expect(appended)
                try log.write(to: url.path)
                bytes = [UInt8](try Data(contentsOf: url))
            }
            try Data(bytes).write(to: url)
            try append(site, "Content/things/\(Slug.make(rows[step + 5])).md", "zqsecond\(step) " + shards.prose(&rng, words: 3))
            try buildAndCompare(site, "after the log was \(damage)")
        }
    }

    /// Every word a site's cache stores with its entries (words no document holds left out).
    func storedWords(_ site: TestSite) throws -> [[UInt8]: [UInt32]] {
        let cache = try #require(DiskCache.load(site: site.root, output: site.output.standardizedFileURL.path, version: ""))
        let tables = try #require(cache.storedWordTables(site: site.root, parts: ParallelMap.jobs), "the stored tables are taken")
        var out: [[UInt8]: [UInt32]] = [:]
        for t in tables {
            for w in 0..<t.words.count where !t.stored.entries(of: w).isEmpty {
                out[Array(t.words.bytes[t.words.range(of: w)])] = t.stored.entries(of: w)
            }
        }
        return out
    }

    /// The tables an edit stores (the last build's with its changes, copied in runs of unchanged
    /// words) hold, word for word, what a clean build of the same pages stores; and the build's
    /// report gives the index's size as it lies in the output.
    @Test func theTablesAnEditStoresAreACleanBuildsWordForWord() throws {
        var rng = SeededRNG(state: 59)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        // New words, words other pages hold, and a page's words all replaced: runs broken in many places.
        try append(site, "Content/things/\(Slug.make(rows[4])).md", "zqrun " + shards.prose(&rng, words: 6))
        try append(site, "Content/things/\(Slug.make(rows[17])).md", "zqrun zqsecond")
        try site.write("Content/things/\(Slug.make(rows[23])).md", shards.prose(&rng, words: 30) + "\n")
        try edits.backdate(site)
        let report = try shards.build(site)
        #expect(report.indexBytes == BuildCommand.treeSize(site.output.appendingPathComponent("search")))
        let incremental = try storedWords(site)
        let clean = try TestSite([:])
        defer { clean.delete() }
        try chained.mirror(site, into: clean)
        try shards.build(clean, clean: true)
        let expected = try storedWords(clean)
        #expect(incremental.count == expected.count && incremental.count > 100)
        for (word, entries) in expected where incremental[word] != entries {
            Issue.record("\(String(decoding: word, as: UTF8.self)): \(incremental[word] ?? []) stored, \(entries) in a clean build")
        }
    }

    /// A collection folder named `pages` would share the search index's collection of the
    /// standalone pages (and, in a build's cache, their keys): it is an error naming the folder.
    @Test func aCollectionFolderNamedPagesIsAnError() throws {
        let site = try TestSite(["Content/pages/pages.csv": "name,kind\nAbout,x\nOther,y\n",
                                 "Content/pages/collection.yml": "title: My Pages\nscope_field: kind\nscopes: [x, y]\n",
                                 "Content/about.md": "About us.\n"])
        defer { site.delete() }
        let out = site.build()
        #expect(out.status != 0)
        #expect(out.stderr.contains("Content/pages: error: collection folder 'pages' is the search index's name for the standalone pages"), "\(out.stderr)")
    }

    /// An item's excerpt entry leaves out the body's first heading when that heading is its
    /// title; a page that starts saying `title: ""` (its row's name, the heading, unchanged)
    /// changes that alone, and the next build's index is a clean build's.
    @Test func anItemWhoseTitleComesToBeItsHeadingIsIndexedAgain() throws {
        let site = try TestSite(["Content/candies/candies.csv": "name,kind\nCaramel,soft\nToffee,hard\n",
                                 "Content/candies/caramel.md": "---\ntexture: chewy\n---\n# Caramel\n\nCaramel starts as sugar.\n"])
        defer { site.delete() }
        try shards.build(site)
        try site.write("Content/candies/caramel.md", "---\ntexture: chewy\ntitle: \"\"\n---\n# Caramel\n\nCaramel starts as sugar.\n")
        try buildAndCompare(site, "title: \"\" added")
    }

    @Test func aDamagedWordTableFileIsNotRead() throws {
        var rng = SeededRNG(state: 52)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        // Each file cut short, then with a count that says more than the file holds, then with
        // bytes of its entries flipped, its lengths whole (such a file once crashed every build,
        // an entry out of order, until .sift-cache/ was removed); an edit built after each.
        for damage in ["cut short", "a count too large", "entries flipped"] {
            for name in wordTableFiles(site) {
                let url = DiskCache.folder(in: site.root).appendingPathComponent(name)
                var damaged = [UInt8](try Data(contentsOf: url))
                switch damage {
                case "cut short": damaged.removeLast(5)
                case "a count too large": damaged.replaceSubrange(damaged.count - 20..<damaged.count - 12, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
                default:
                    // Past the header (format, version, output, fingerprint, partitions, this one) and
                    // the words, their ends, hashes and entry starts: every other entry's second byte.
                    var r = BinaryReader(bytes: damaged)
                    _ = r.u64(); _ = r.string(); _ = r.string(); _ = r.u64(); _ = r.u64(); _ = r.u64()
                    _ = r.raw(UInt8.self); _ = r.raw(UInt32.self); _ = r.raw(UInt64.self); _ = r.raw(UInt32.self)
                    let at = r.offset, count = r.count() ?? 0
                    #expect(count > 0)
                    for e in stride(from: 0, to: count, by: 2) { damaged[at + 8 + 4 * e + 1] ^= 0x40 }
                }
                try Data(damaged).write(to: url)
            }
            try append(site, "Content/things/\(Slug.make(rows[5])).md", "zqdamaged " + shards.prose(&rng, words: 4))
            try buildAndCompare(site, "after word tables \(damage)")
        }
    }

    /// 600 rows (more than a chunk of rendered items, 512): pages for the first ten and for rows 300 and on.
    func longSite(_ rng: inout SeededRNG) throws -> (TestSite, rows: [String], pages: [Int]) {
        let rows = (0..<600).map { "Thing \($0) \(IncrementalBuildTests.words[$0 % 10])" }
        let site = try edits.thingsSite(rows: rows, page: shards.prose(&rng, words: 12) + "\n")
        let pages = Array(0..<10) + Array(300..<600)
        for i in pages.dropFirst() { try site.write("Content/things/\(Slug.make(rows[i])).md", shards.prose(&rng, words: 12) + "\n") }
        try shards.build(site)
        return (site, rows, pages)
    }

    /// Past `ShardReuse.maxChanged` changed documents (here in the second chunk of items) the
    /// build stops applying edits, and merges the documents so far, edited ones included, and
    /// every later one, as a clean build does.
    @Test func moreChangedDocumentsThanAreAppliedAreMergedAfresh() throws {
        var rng = SeededRNG(state: 53)
        let (site, rows, pages) = try longSite(&rng)
        defer { site.delete() }
        for i in pages { try append(site, "Content/things/\(Slug.make(rows[i])).md", "zqall " + shards.prose(&rng, words: 2)) }
        try buildAndCompare(site, "every page edited")
        // The tables that build stored hold its documents: the next edit takes them.
        try append(site, "Content/things/\(Slug.make(rows[7])).md", "zqafter")
        try buildAndCompare(site, "one page edited after")
    }

    /// A row renamed after pages were edited: from there the documents are not the last build's.
    @Test func aRowRenamedAfterEditedPagesMergesThemAfresh() throws {
        var rng = SeededRNG(state: 54)
        var (site, rows, _) = try longSite(&rng)
        defer { site.delete() }
        for i in 0..<10 { try append(site, "Content/things/\(Slug.make(rows[i])).md", "zqsome " + shards.prose(&rng, words: 2)) }
        rows[590] = "Renamed \(rows[590])"
        try edits.writeRows(site, rows)
        try buildAndCompare(site, "ten pages edited, row 590 renamed")
    }

    /// An index file of the last output deleted by hand comes back, though the build reads the
    /// index's folder once instead of looking each kept file up (`OutputWriter.stillThere`).
    @Test func anIndexFileDeletedFromTheOutputComesBack() throws {
        var rng = SeededRNG(state: 55)
        let (site, rows, pages) = try longSite(&rng)
        defer { site.delete() }
        for i in pages { try append(site, "Content/things/\(Slug.make(rows[i])).md", shards.prose(&rng, words: 150)) }
        try shards.build(site, clean: true)
        let folder = site.output.appendingPathComponent("search/immutable")
        let names = FileSystem.list(folder)
        #expect(names.count > 200, "\(names.count) files")
        for kind in ["shard.", "text-"] {
            let name = try #require(names.last { $0.hasPrefix(kind) })
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        try append(site, "Content/things/\(Slug.make(rows[2])).md", "zqdeleted")
        try buildAndCompare(site, "after index files were deleted from the output")
    }

    /// A collection named `pages` beside standalone pages: the index's `pages` collection then
    /// holds documents added at two places, and numbers them otherwise than in add order.
    @Test func aCollectionBesideStandalonePagesOfTheSameSlugs() throws {
        var rng = SeededRNG(state: 56)
        let site = try TestSite(["Content/notes/notes.csv": "name\nAlpha\nAbout\nGamma\n",
                                 "Content/notes/alpha.md": shards.prose(&rng, words: 30) + "\n",
                                 "Content/about.md": shards.prose(&rng, words: 30) + "\n",
                                 "Content/things/things.csv": "name\nOne\nTwo\n",
                                 "Content/things/one.md": shards.prose(&rng, words: 30) + "\n"])
        defer { site.delete() }
        try shards.build(site)
        for step in 0..<3 {
            try append(site, ["Content/about.md", "Content/notes/alpha.md", "Content/things/one.md"][step], "zqpages\(step) " + shards.prose(&rng, words: 3))
            try buildAndCompare(site, "step \(step)")
        }
    }

    /// A kept document is read from the last build's digests without its words, by the first
    /// kilobyte of its record; one whose title alone is longer is read whole, and the index is
    /// still a clean build's.
    @Test func aKeptDocumentLongerThanTheFirstReadIsReadWhole() throws {
        var rng = SeededRNG(state: 56)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        let long = "Zqlong " + (0..<300).map { "word\($0)" }.joined(separator: " ")
        try site.write("Content/things/\(Slug.make(rows[5])).md", "---\ntitle: \(long)\n---\n" + shards.prose(&rng, words: 10) + "\n")
        try shards.build(site)
        try append(site, "Content/things/\(Slug.make(rows[6])).md", "zqnext")
        try buildAndCompare(site, "a page beside a long-titled one edited")
        #expect(site.page("things/\(Slug.make(rows[5]))/index.html")?.contains("word299") == true)
    }

    /// A kept item's record is read by its head while the index takes the stored tables; when
    /// the documents then change (an item added) the index needs every record's words, and one
    /// damaged there is found only then: the build starts again without the cache, and its
    /// output is a clean build's (it failed, and so did every build after it, until `--clean`).
    @Test func aRecordDamagedInItsWordsFoundLateRebuildsWithoutTheCache() throws {
        var rng = SeededRNG(state: 57)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        let output = site.output.standardizedFileURL.path
        let cache = try #require(DiskCache.load(site: site.root, output: output, version: ""))
        let item = "things/\(Slug.make(rows[1]))"
        let entry = try #require(cache.digestIndex[item])
        let digest = try #require(cache.digest(item, key: entry.key))
        // The count of the words' ends, from the record's end: counts and ends follow it.
        let at = entry.range.upperBound - (8 + digest.wordCounts.count) - (8 + 4 * digest.wordEnds.count)
        let handle = try FileHandle(forWritingTo: DiskCache.digestsFile(in: site.root))
        try handle.seek(toOffset: UInt64(at))
        handle.write(Data(repeating: 0xFF, count: 8))
        try handle.close()
        #expect(cache.digest(item, key: entry.key) == nil, "read whole, the record is refused")
        #expect(cache.digest(item, key: entry.key, words: false) != nil, "its head alone reads")
        try append(site, "Content/things/\(Slug.make(rows[3])).md", "zqlate " + shards.prose(&rng, words: 3))
        try site.write("Content/things/zq-added.md", "---\ntitle: Zq added\n---\n" + shards.prose(&rng, words: 12) + "\n")
        try buildAndCompare(site, "an item added after a damaged record")
    }

    /// The bytes of text a record says its excerpt holds cut the index's text files; a damaged
    /// count (here near 2⁶²: it trapped summing them) has the record refused, the item digested
    /// again, and the index is a clean build's.
    @Test func aRecordWhoseExcerptLengthIsDamagedIsRefused() throws {
        var rng = SeededRNG(state: 58)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        let cache = try #require(DiskCache.load(site: site.root, output: site.output.standardizedFileURL.path, version: ""))
        let item = "things/\(Slug.make(rows[2]))"
        let entry = try #require(cache.digestIndex[item])
        let digest = try #require(cache.digest(item, key: entry.key))
        let text = try digest.excerpt()
        #expect(!text.isEmpty)
        let words = (8 + digest.wordCounts.count) + (8 + 4 * digest.wordEnds.count) + (8 + digest.wordBytes.count)
        let excerpt = text.reduce(8) { $0 + 8 + $1.utf8.count }
        // The text's bytes, then the entry's length, then the entry.
        let at = entry.range.upperBound - words - excerpt - 16
        let handle = try FileHandle(forWritingTo: DiskCache.digestsFile(in: site.root))
        try handle.seek(toOffset: UInt64(at))
        handle.write(withUnsafeBytes(of: (UInt64(1) << 62).littleEndian) { Data($0) })
        try handle.close()
        #expect(cache.digest(item, key: entry.key) == nil)
        try append(site, "Content/things/\(Slug.make(rows[5])).md", "zqtext " + shards.prose(&rng, words: 3))
        try buildAndCompare(site, "an edit beside a record with a damaged excerpt length")
    }

    /// The index that ends the digest file holds each record's head, which a build reads instead
    /// of the record: a head damaged there has the record read instead, and a record damaged in
    /// both places has the item digested again; either way the index is a clean build's.
    @Test func aHeadDamagedInTheDigestIndexIsReadFromItsRecord() throws {
        var rng = SeededRNG(state: 59)
        let (site, rows) = try shards.makeSite(&rng)
        defer { site.delete() }
        try shards.build(site)
        let file = DiskCache.digestsFile(in: site.root)
        let cache = try #require(DiskCache.load(site: site.root, output: site.output.standardizedFileURL.path, version: ""))
        let item = "things/\(Slug.make(rows[2]))"
        let entry = try #require(cache.digestIndex[item])
        let whole = try #require(cache.digest(item, key: entry.key, words: false))
        // The head's copy in the index is its last: its excerpt's text length, 16 bytes from its end, made huge.
        let bytes = try Data(contentsOf: file)
        let head = bytes[entry.range.lowerBound..<entry.range.lowerBound + entry.head.count]
        let copy = try #require(bytes.range(of: head, options: .backwards))
        #expect(copy.lowerBound > entry.range.upperBound, "the head's copy is in the index")
        let damage = { (at: Int) in
            let handle = try FileHandle(forWritingTo: file)
            try handle.seek(toOffset: UInt64(at))
            handle.write(withUnsafeBytes(of: (UInt64(1) << 62).littleEndian) { Data($0) })
            try handle.close()
        }
        try damage(copy.upperBound - 16)
        let damaged = try #require(DiskCache.load(site: site.root, output: site.output.standardizedFileURL.path, version: ""))
        let read = try #require(damaged.digest(item, key: entry.key, words: false), "read from the record")
        #expect(read.title == whole.title && read.fieldValues == whole.fieldValues && read.excerptBytes == whole.excerptBytes)
        #expect(try read.excerpt() == whole.excerpt())
        try damage(entry.range.lowerBound + entry.head.count - 16)
        #expect(damaged.digest(item, key: entry.key, words: false) == nil, "damaged in both")
        try append(site, "Content/things/\(Slug.make(rows[5])).md", "zqhead " + shards.prose(&rng, words: 3))
        try buildAndCompare(site, "an edit beside a record whose head is damaged")
    }
}
