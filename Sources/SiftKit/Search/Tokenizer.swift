/// Turns a document into its digest: the body folded and split into its distinct pieces, as
/// docs/search-index.md ("Tokens") describes and sift-core.js splits queries.
enum Tokenizer {
    /// Folds a document and extracts its body vocabulary; pure, so callers may run it in parallel.
    static func digest(_ doc: SearchDocument) -> SearchDigest {
        var set = CountedWords()
        var bodyWords = 0
        if !doc.body.isEmpty {
            bodyWords = addWords(of: doc.body, to: &set)
            // The title of each section (the entry's every third string from the third).
            for heading in stride(from: 2, to: doc.excerptText.count, by: 3) {
                var words = CountedWords()
                addWords(of: doc.excerptText[heading], to: &words)
                set.holdOften(words.words)
            }
        }
        return SearchDigest(collection: doc.collection, slug: doc.slug, title: doc.title, url: doc.url,
                            scope: doc.scope, fieldNames: doc.fields.map(\.name),
                            fieldValues: doc.fields.map(\.value),
                            facetNames: doc.facets.map(\.name), facetValues: doc.facets.map(\.values),
                            sortNames: doc.sortValues.map(\.name), sortValues: doc.sortValues.map(\.value),
                            wordBytes: set.words.bytes, wordEnds: set.words.ends, wordHashes: set.words.hashes,
                            wordCounts: set.counts, bodyWords: bodyWords)
    }

    /// The distinct words of a document's field values, made as a body's are (pieces, CJK grams,
    /// joined words, bridges): what the ranked layout files its records under (docs/search-index.md, "Version 6").
    static func fieldWords(_ values: [String]) -> [[UInt8]] {
        var set = CountedWords()
        // A line apart: white space, which no word crosses.
        addWords(of: values.joined(separator: "\n"), to: &set)
        let words = set.words
        var out: [[UInt8]] = [], start = 0
        out.reserveCapacity(words.count)
        for end in words.ends {
            out.append(Array(words.bytes[start..<Int(end)]))
            start = Int(end)
        }
        return out
    }

    /// Adds the words of `text` (folded: pieces, CJK grams, joined words) to `set`; returns its
    /// number of word pieces.
    @discardableResult
    private static func addWords(of text: String, to set: inout CountedWords) -> Int {
        var count = 0
        foldedBody(text).withUnsafeBufferPointer { buf in
            set.words.reserve(buf.count / 6)
            var joined = JoinedWord()
            var bridge = Bridge()
            tokenize(buf) { start, end, isWord, hash in
                let piece = UnsafeBufferPointer(rebasing: buf[start..<end])
                set.leads = count < Score.leadWords
                set.add(piece, hash: hash, counted: isWord)
                bridge.add(start, end, isWord: isWord, in: buf, into: &set)
                if isWord { count += 1 }
                let cjk = isWord && end - start > 2 && piece.contains { $0 >= 0xE1 } && insertGrams(piece, into: &set)
                joined.add(start, end, isWord: isWord, isCJK: cjk, in: buf, into: &set)
            }
            bridge.finish(buf, into: &set)
            joined.finish(buf, into: &set)
        }
        set.leads = false
        return count
    }

    /// The CJK runs of a word piece as their single code points and pairs (docs/search-index.md,
    /// "Words and postings"); true when the piece holds CJK.
    static func insertGrams(_ piece: UnsafeBufferPointer<UInt8>, into set: inout CountedWords) -> Bool {
        var starts: [Int] = []  // byte offsets of the code points of the current CJK run, then its end
        var any = false
        func flush(_ end: Int) {
            guard !starts.isEmpty else { return }
            starts.append(end)
            for k in 0..<(starts.count - 1) {
                set.add(UnsafeBufferPointer(rebasing: piece[starts[k]..<starts[k + 1]]))
                if k + 2 < starts.count { set.add(UnsafeBufferPointer(rebasing: piece[starts[k]..<starts[k + 2]])) }
            }
            starts.removeAll(keepingCapacity: true)
        }
        for (offset, scalar) in String(decoding: piece, as: UTF8.self).unicodeScalars.enumeratedOffsets() {
            if IndexFormat.isCJKScalar(scalar) {
                starts.append(offset)
                any = true
            } else {
                flush(offset)
            }
        }
        flush(piece.count)
        return any
    }

    /// The body folded, as UTF-8.
    private static func foldedBody(_ body: String) -> [UInt8] {
        var text = body
        // Most bodies are ASCII, where folding is lowercasing A-Z: done in one vectorisable
        // pass instead of Fold's general loop.
        return text.withUTF8 { raw in
            var any: UInt8 = 0
            for b in raw { any |= b }
            guard any < 0x80 else { return Fold.foldUTF8(body) }
            return [UInt8](unsafeUninitializedCapacity: raw.count) { out, n in
                for i in 0..<raw.count {
                    let b = raw[i]
                    out[i] = b &- 0x41 < 26 ? b | 0x20 : b
                }
                n = raw.count
            }
        }
    }

    /// Calls `piece` with the byte range, class (word or other) and hash of every piece of folded
    /// UTF-8 text: white space separates tokens, each token splits into runs of word and of other
    /// code points.
    @inline(__always)
    static func tokenize(_ buf: UnsafeBufferPointer<UInt8>, _ piece: (Int, Int, Bool, UInt64) -> Void) {
        var start = 0
        var cls: UInt8 = 0  // 0 space, 1 word, 2 other
        var h = WordHash.seed
        var i = 0
        let n = buf.count
        IndexFormat.asciiClass.withUnsafeBufferPointer { classes in
            while i < n {
                let b = buf[i]
                if b < 0x80 {
                    let c = classes[Int(b)]
                    if c != cls {
                        if cls != 0 { piece(start, i, cls == 1, WordHash.finish(h)) }
                        start = i
                        cls = c
                        h = WordHash.seed
                    }
                    h = WordHash.adding(b, to: h)
                    i += 1
                    continue
                }
                var v: UInt32
                var len: Int
                if b >= 0xF0 { len = 4; v = UInt32(b & 0x07) }
                else if b >= 0xE0 { len = 3; v = UInt32(b & 0x0F) }
                else { len = 2; v = UInt32(b & 0x1F) }
                len = min(len, n - i)
                for k in 1..<max(len, 1) { v = v << 6 | UInt32(buf[i + k] & 0x3F) }
                let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                let c: UInt8 = IndexFormat.isSpaceScalar(scalar) ? 0 : (IndexFormat.isWordScalar(scalar) ? 1 : 2)
                if c != cls {
                    if cls != 0 { piece(start, i, cls == 1, WordHash.finish(h)) }
                    start = i
                    cls = c
                    h = WordHash.seed
                }
                for k in i..<(i + len) { h = WordHash.adding(buf[k], to: h) }
                i += len
            }
        }
        if cls != 0 && start < n { piece(start, n, cls == 1, WordHash.finish(h)) }
    }
}

/// A document's distinct words with how often each occurs (up to 127; punctuation and
/// symbols count once), `CountedWords.lead` added when one occurrence is in the body's lead.
struct CountedWords {
    var words = WordSet()
    var counts: [UInt8] = []
    /// Whether the words added now are in the lead: the body's first `Score.leadWords` word
    /// pieces, and the CJK grams and joined words their pieces start.
    var leads = false

    static let lead: UInt8 = 0x80

    @inline(__always)
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, counted: Bool = true) {
        let id = words.insert(bytes, hash: hash)
        if id == counts.count { counts.append(1) } else if counted && counts[id] & 0x7F < 0x7F { counts[id] += 1 }
        if leads { counts[id] |= Self.lead }
    }

    /// Counts each word of `heading` (word code points only) `Score.oftenCount` times at least:
    /// a section's title says what the section is about (docs/search-index.md, "Words and postings").
    mutating func holdOften(_ heading: WordSet) {
        heading.bytes.withUnsafeBufferPointer { all in
            for w in 0..<heading.count {
                let word = UnsafeBufferPointer(rebasing: all[heading.range(of: w)])
                guard let first = String(decoding: word, as: UTF8.self).unicodeScalars.first, IndexFormat.isWordScalar(first) else { continue }
                let id = words.insert(word, hash: heading.hashes[w])
                if id == counts.count { counts.append(0) }
                // A bridge is never often: only windows look for bridges, and they read no marks.
                let often = IndexFormat.isBridge(utf8: word) ? 1 : UInt8(Score.oftenCount)
                counts[id] = max(counts[id] & 0x7F, often) | counts[id] & Self.lead
            }
        }
    }

    /// Adds a word that is not a piece of the text (a joined word, a CJK gram, a bridge: not `counted`).
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, counted: Bool = true) {
        var h = WordHash.seed
        for b in bytes { h = WordHash.adding(b, to: h) }
        add(bytes, hash: WordHash.finish(h), counted: counted)
    }
}

/// Words joined across inner punctuation: `e-mail` also gives `email`, `Wi-Fi` `wifi`. A chain is
/// 2 to 4 word pieces of one token, each pair apart by one code point that is not a word one.
struct JoinedWord {
    private var pieces: [Range<Int>] = []
    /// The chain's bytes, kept between chains: a document makes thousands.
    private var joined: [UInt8] = []
    private var afterSeparator = false
    private var lastEnd = -1
    /// Whether the chain's first piece is in the body's lead.
    private var leads = false

    static let longest = 4

    mutating func add(_ start: Int, _ end: Int, isWord: Bool, isCJK: Bool, in buf: UnsafeBufferPointer<UInt8>, into set: inout CountedWords) {
        if start != lastEnd { finish(buf, into: &set) }
        lastEnd = end
        if isCJK {
            finish(buf, into: &set)
        } else if isWord {
            if !pieces.isEmpty && !afterSeparator { finish(buf, into: &set) }
            if pieces.isEmpty { leads = set.leads }
            pieces.append(start..<end)
            afterSeparator = false
        } else if !pieces.isEmpty && !afterSeparator && Self.isOneScalar(buf[start..<end]) {
            afterSeparator = true
        } else {
            finish(buf, into: &set)
        }
    }

    /// Adds the chain so far as one word, and starts again.
    mutating func finish(_ buf: UnsafeBufferPointer<UInt8>, into set: inout CountedWords) {
        if pieces.count >= 2 && pieces.count <= Self.longest {
            joined.removeAll(keepingCapacity: true)
            for r in pieces { joined.append(contentsOf: UnsafeBufferPointer(rebasing: buf[r])) }
            let current = set.leads
            set.leads = leads
            joined.withUnsafeBufferPointer { set.add($0) }
            set.leads = current
        }
        pieces.removeAll(keepingCapacity: true)
        afterSeparator = false
    }

    /// Whether a run (never empty) is one code point.
    static func isOneScalar(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = bytes.first else { return false }
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
        return bytes.count == length
    }
}

/// The runs of other code points of a token with the code point on either side, as words: `3.5`,
/// `e.j` of `node.js`; a run of two or more at the token's start or end with the one beside it:
/// `c++`, `--h` of `--help`. A term holding other code points is found by them
/// (docs/search-index.md, "Bridges"), where its pieces alone admitted every body holding a `.` or a `+`.
/// One code point a side, not the pieces: whole pieces made a bridge of each clause of Chinese,
/// written without spaces, and grew the index of Debian's manual pages by 35 % (English) to 125 %
/// (Chinese); one code point by about 1 %, and a term's first and last pieces still constrain the
/// rest (docs/performance.md, 2026-12-06).
struct Bridge {
    /// The token's last two pieces: the word before the current other run, and that run.
    private var word: Range<Int>?
    private var other: Range<Int>?
    private var lastEnd = -1

    mutating func add(_ start: Int, _ end: Int, isWord: Bool, in buf: UnsafeBufferPointer<UInt8>, into set: inout CountedWords) {
        if start != lastEnd { finish(buf, into: &set) }
        lastEnd = end
        if isWord {
            if let other, word != nil || !JoinedWord.isOneScalar(buf[other]) {
                let from = word.map { Self.lastCodePoint(buf, $0) } ?? other.lowerBound
                emit(from..<Self.firstCodePointEnd(buf, start..<end), buf, &set)
            }
            word = start..<end
            other = nil
        } else {
            other = start..<end
        }
    }

    /// Ends the token: a run of two or more other code points that ends it makes a bridge with the word before.
    mutating func finish(_ buf: UnsafeBufferPointer<UInt8>, into set: inout CountedWords) {
        if let word, let other, !JoinedWord.isOneScalar(buf[other]) { emit(Self.lastCodePoint(buf, word)..<other.upperBound, buf, &set) }
        word = nil
        other = nil
    }

    /// A bridge is counted once and in no lead: only windows look for it, and they read no marks.
    private func emit(_ range: Range<Int>, _ buf: UnsafeBufferPointer<UInt8>, _ set: inout CountedWords) {
        let current = set.leads
        set.leads = false
        set.add(UnsafeBufferPointer(rebasing: buf[range]), counted: false)
        set.leads = current
    }

    /// Where the last code point of a piece starts.
    private static func lastCodePoint(_ buf: UnsafeBufferPointer<UInt8>, _ piece: Range<Int>) -> Int {
        var i = piece.upperBound - 1
        while i > piece.lowerBound && buf[i] & 0xC0 == 0x80 { i -= 1 }
        return i
    }

    /// Where the first code point of a piece ends.
    private static func firstCodePointEnd(_ buf: UnsafeBufferPointer<UInt8>, _ piece: Range<Int>) -> Int {
        var i = piece.lowerBound + 1
        while i < piece.upperBound && buf[i] & 0xC0 == 0x80 { i += 1 }
        return i
    }
}

private extension String.UnicodeScalarView {
    /// Each code point with its byte offset in the UTF-8.
    func enumeratedOffsets() -> [(Int, Unicode.Scalar)] {
        var out: [(Int, Unicode.Scalar)] = []
        var offset = 0
        for scalar in self {
            out.append((offset, scalar))
            offset += UTF8.width(scalar)
        }
        return out
    }
}
