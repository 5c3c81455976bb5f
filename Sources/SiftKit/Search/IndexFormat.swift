import Foundation

/// The pieces of the search index format shared by the writer and the reader; each mirrors a
/// rule in docs/search-index.md that sift-core.js implements too.
enum IndexFormat {
    /// Bumped whenever a client written for the old layout would misread the new one.
    static let version = 5
    /// The version of the ranked layout (docs/search-index.md, "Version 6: the ranked layout"):
    /// documents in index order, their records in the text files, no document tables.
    static let rankedVersion = 6

    // MARK: Character classes

    /// Word code points: letters, marks and numbers (`/[\p{L}\p{M}\p{N}]/u`).
    @inline(__always)
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 {
            return (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A)
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// CJK code points (Han, Hiragana, Katakana, Hangul): text without spaces between words,
    /// where a term of 2 code points is a word. Five blocks of folded text: Hangul Jamo, CJK
    /// symbols to Bopomofo and Katakana extensions, CJK ideographs, Hangul syllables and the
    /// supplementary ideographs (sift-core.js: `CJK_RANGES`).
    @inline(__always)
    static func isCJKScalar(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x1100 { return false }
        return v <= 0x11FF || (0x3005...0x31FF).contains(v) || (0x3400...0x9FFF).contains(v) || (0xA960...0xA97F).contains(v)
            || (0xAC00...0xD7FF).contains(v) || (0x1AFF0...0x1B16F).contains(v) || (0x20000...0x323AF).contains(v)
    }

    /// True when every code point of a term is a CJK word code point (`〜〜`, CJK punctuation, is
    /// no CJK term: no gram holds it, so as one it would miss the bodies that do).
    static func isCJK(_ term: String) -> Bool {
        !term.isEmpty && term.unicodeScalars.allSatisfy(isCJKWordScalar)
    }

    /// A CJK code point that is a word code point: a CJK term is made of these.
    @inline(__always)
    static func isCJKWordScalar(_ s: Unicode.Scalar) -> Bool {
        isCJKScalar(s) && isWordScalar(s)
    }

    @inline(__always)
    static func isSpaceScalar(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        return s.properties.isWhitespace
    }

    /// A run of one class inside a whitespace-free token, as terms and bodies are split.
    struct Piece: Equatable {
        var text: String
        var isWord: Bool
    }

    /// Splits folded text into pieces: white space separates tokens, and each token splits into
    /// maximal runs of word code points and of other code points.
    static func pieces(_ folded: String) -> [Piece] {
        var out: [Piece] = []
        var current = String.UnicodeScalarView()
        var currentIsWord = false
        for scalar in folded.unicodeScalars {
            if isSpaceScalar(scalar) {
                if !current.isEmpty { out.append(Piece(text: String(current), isWord: currentIsWord)) }
                current = String.UnicodeScalarView()
                continue
            }
            let w = isWordScalar(scalar)
            if !current.isEmpty && w != currentIsWord {
                out.append(Piece(text: String(current), isWord: currentIsWord))
                current = String.UnicodeScalarView()
            }
            currentIsWord = w
            current.append(scalar)
        }
        if !current.isEmpty { out.append(Piece(text: String(current), isWord: currentIsWord)) }
        return out
    }

    /// The word piece of a term that is one word piece with single marks at its start or end,
    /// which are never looked for (`st.`, `-rf`, `文件系统。`); nil for any other term (`c++` is
    /// looked for by its window).
    static func markedPiece(_ term: String) -> String? {
        let p = pieces(term), words = p.filter(\.isWord)
        guard p.count > 1, words.count == 1, windows(p).isEmpty else { return nil }
        return words[0].text
    }

    /// A CJK marked piece is what the body is searched for (`文件系统。` as `文件系统`: it found nothing).
    static func bodyForm(_ term: String) -> String? {
        markedPiece(term).flatMap { isCJK($0) ? $0 : nil }
    }

    /// A term of 3+ code points whose marked piece has one or two outside CJK (`-rf`, `St.`), too
    /// short to narrow a body: it lets any through, and holds none for a partial match (`St. Lucia`
    /// listed every page as a partial one). A shorter term (`'t`) is a short term.
    static func isLoose(_ term: String) -> Bool {
        term.unicodeScalars.count >= 3 && (markedPiece(term).map { !isCJK($0) && $0.unicodeScalars.count < 3 } ?? false)
    }

    /// The windows a term of several pieces is looked for by among the bridges
    /// (docs/search-index.md, "Bridges"): each run of other code points with the code point on
    /// either side of it, and a first or last run of two or more with the one after or before it.
    static func windows(_ pieces: [Piece]) -> [String] {
        guard pieces.count > 1 else { return [] }
        let before = { (i: Int) in String(pieces[i].text.unicodeScalars.last!) }
        let after = { (i: Int) in String(pieces[i].text.unicodeScalars.first!) }
        var out: [String] = []
        for i in pieces.indices where !pieces[i].isWord {
            if i > 0 && i + 1 < pieces.count {
                out.append(before(i - 1) + pieces[i].text + after(i + 1))
            } else if pieces[i].text.unicodeScalars.count >= 2 {
                out.append(i == 0 ? pieces[0].text + after(1) : before(i - 1) + pieces[i].text)
            }
        }
        return out
    }

    /// Whether a word is a bridge: it splits into more than one piece, as sift-core.js's
    /// `isBridge` says. Only windows look for bridges; a piece is found by the pieces a bridge is made of.
    static func isBridge(_ word: String) -> Bool {
        var word = word
        return word.withUTF8 { isBridge(utf8: $0) }
    }

    /// `isBridge` of a word's UTF-8 bytes.
    static func isBridge(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var pieces = 0
        Tokenizer.tokenize(bytes) { _, _, _, _ in pieces += 1 }
        return pieces > 1
    }

    /// 0 white space, 1 word, 2 other, for each ASCII byte.
    static let asciiClass: [UInt8] = (0..<128).map { v -> UInt8 in
        let s = Unicode.Scalar(UInt8(v))
        if isSpaceScalar(s) { return 0 }
        return isWordScalar(s) ? 1 : 2
    }

    /// Whether `needle` occurs in `hay` as a run of code points, compared as UTF-8 bytes (not
    /// as Characters, which would hide a code point inside a grapheme cluster, as JS never does).
    static func contains(_ hay: String, _ needle: String) -> Bool {
        var h = hay, n = needle
        return h.withUTF8 { hb in
            n.withUTF8 { nb in
                let m = nb.count
                if m == 0 { return true }
                if m > hb.count { return false }
                let first = nb[0]
                var i = 0
                while i <= hb.count - m {
                    if hb[i] == first {
                        var k = 1
                        while k < m && hb[i + k] == nb[k] { k += 1 }
                        if k == m { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    // MARK: Sharding

    /// Words hash into this many buckets; the manifest's `bounds` group buckets into shards.
    static let buckets = 4096

    /// The key a word is filed under: its first three code points (all of it when shorter).
    static func key(_ word: String) -> String {
        String(String.UnicodeScalarView(word.unicodeScalars.prefix(3)))
    }

    /// 32-bit FNV-1a over UTF-8 bytes.
    @inline(__always)
    static func fnv1a<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var h: UInt32 = 0x811C_9DC5
        for b in bytes {
            h ^= UInt32(b)
            h = h &* 0x0100_0193
        }
        return h
    }

    /// The ranked layout's buckets (docs/search-index.md, "Version 6"): fine enough for shards of
    /// about 12 KB at a million documents, grouped by `preFiles` files that name their shards.
    static let rankedBuckets = 1 << 20
    static let preFiles = 512

    /// A key's bucket in the ranked layout: FNV-1a of its UTF-8 modulo `rankedBuckets`.
    @inline(__always)
    static func rankedBucket<C: Collection>(ofKeyBytes key: C) -> Int where C.Element == UInt8 { Int(fnv1a(key) % UInt32(rankedBuckets)) }

    /// The pre file naming the shards of a ranked bucket: its run of `rankedBuckets / preFiles`.
    static func preFile(ofBucket b: Int) -> Int { b / (rankedBuckets / preFiles) }
    static func preFileName(_ n: Int) -> String { "pre-\(n).json" }
    /// Past this many bytes, a ranked layout's entry is a file of its own, `post.HASH.json` (a
    /// word's postings) or `frec.HASH.json` (a field word's records), and the shard says `=HASH`.
    static let heavyEntry = 2048
    /// Past this many bytes, a secondary entry in a split key's part is a file of its own too (the
    /// word's entry, as its primary one would be): a word is in the parts of every split key it
    /// holds, and its entry copied into each took 0.4 GB more at a million documents.
    static let partEntry = 256
    static let postFileName = "post.json", fieldRecordsFileName = "frec.json"
    /// A key's title words past `SearchIndexBuilder.inlineGram` bytes, `typo.HASH.json`, which its pre file names.
    static let titleWordsFileName = "typo.json"

    /// The bucket of a key: FNV-1a of its UTF-8 modulo `buckets`.
    static func bucket(ofKey key: String) -> Int { bucket(ofKeyBytes: key.utf8) }

    /// The bucket of a key given as UTF-8.
    @inline(__always)
    static func bucket<C: Collection>(ofKeyBytes key: C) -> Int where C.Element == UInt8 { Int(fnv1a(key) % UInt32(buckets)) }

    /// The shard holding a bucket: the number of bounds at or below it.
    static func shard(ofBucket bucket: Int, bounds: [Int]) -> Int {
        var lo = 0, hi = bounds.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if bounds[mid] <= bucket { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    static func shardFileName(_ n: Int) -> String { "shard-\(n).json" }
    static func unionFileName(_ n: Int) -> String { "union-\(n).json" }
    static func facetFileName(_ c: Int) -> String { "facets-\(c).json" }
    static func answerFileName(_ n: Int) -> String { "answers-\(n).json" }
    static func textFileName(_ n: Int) -> String { "text-\(n).json" }
    /// The key in the manifest's `files` of the hash of text files' group `m` (docs/search-index.md, "Text files").
    static func textGroupKey(_ m: Int) -> String { "texts-\(m)" }
    /// Whether the index calls a file by a text file's name, which its group's hash resolves, not `files`.
    static func isTextFileName(_ name: String) -> Bool { textFileNumber(name) != nil }

    /// N of `text-N.json`; nil for any other name.
    static func textFileNumber(_ name: String) -> Int? { number(in: name, prefix: "text-", suffix: ".json") }

    /// The decimal digits (ASCII only, one at least) between `prefix` and `suffix` that make up
    /// `name`, as a number: `shard-12.json` → 12. Byte by byte: a build asks for every file.
    static func number(in name: String, prefix: String, suffix: String) -> Int? {
        guard name.utf8.count > prefix.utf8.count + suffix.utf8.count, name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
        guard digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether `text` is lowercase hex digits, one at least: a content hash.
    static func isHexDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f")) }
    }

    // MARK: Postings

    /// Ascending document numbers as base64 (standard alphabet, no padding) of LEB128 varints of
    /// the gaps (first number as is, then each minus the previous minus one); or, when shorter,
    /// `!` and base64 of a bitmap (bit `n % 8` of byte `n / 8` set for document `n`).
    static func encodePostings(_ ids: [Int32]) -> String {
        var varints: [UInt8] = []
        varints.reserveCapacity(ids.count * 2)
        var prev: Int32 = -1
        for id in ids {
            var gap = UInt32(id - prev - 1)
            prev = id
            while gap >= 0x80 {
                varints.append(UInt8(gap & 0x7F) | 0x80)
                gap >>= 7
            }
            varints.append(UInt8(gap))
        }
        let bitmapBytes = ids.isEmpty ? 0 : Int(ids.last!) / 8 + 1
        if bitmapBytes < varints.count {
            var bitmap = [UInt8](repeating: 0, count: bitmapBytes)
            for id in ids { bitmap[Int(id) >> 3] |= 1 << UInt8(id & 7) }
            return "!" + base64(bitmap)
        }
        return base64(varints)
    }

    /// How many characters `encodePostings` gives for `ids`, without encoding them.
    static func encodedLength(_ ids: [Int32]) -> Int {
        guard let last = ids.last else { return 0 }
        var varints = 0
        var prev: Int32 = -1
        for id in ids {
            let gap = UInt32(id - prev - 1)
            prev = id
            varints += gap < 1 << 7 ? 1 : gap < 1 << 14 ? 2 : gap < 1 << 21 ? 3 : gap < 1 << 28 ? 4 : 5
        }
        let bitmapBytes = Int(last) / 8 + 1
        return bitmapBytes < varints ? 1 + (bitmapBytes * 4 + 2) / 3 : (varints * 4 + 2) / 3
    }

    /// Decodes postings this process wrote itself.
    static func decodePostings(_ s: String) -> [Int32] {
        decodePostings(s, below: Int(Int32.max)) ?? []
    }

    /// Decodes postings read from a file: nil unless every character is base64, the varints end
    /// and fit, and every document number is below `limit`.
    static func decodePostings(_ s: String, below limit: Int) -> [Int32]? {
        let bitmap = s.utf8.first == UInt8(ascii: "!")
        guard let bytes = unbase64(bitmap ? Substring(s.dropFirst()) : Substring(s)) else { return nil }
        var out: [Int32] = []
        if bitmap {
            // Bits only go up: the last byte that is not zero holds the largest number.
            guard let last = bytes.lastIndex(where: { $0 != 0 }) else { return out }
            guard last * 8 + 7 - bytes[last].leadingZeroBitCount < min(limit, Int(Int32.max)) else { return nil }
            for (i, byte) in bytes.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << UInt8(bit)) != 0 { out.append(Int32(i * 8 + bit)) }
            }
            return out
        }
        let limit = min(limit, Int(Int32.max))
        var prev = -1, value = 0, shift = 0
        for b in bytes {
            value |= Int(b & 0x7F) << shift
            if b & 0x80 != 0 {
                shift += 7
                if shift > 28 { return nil }
                continue
            }
            prev += value + 1
            if prev >= limit { return nil }
            out.append(Int32(prev))
            value = 0
            shift = 0
        }
        return shift == 0 ? out : nil
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let reverse: [UInt8] = {
        var r = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { r[Int(c)] = UInt8(i) }
        return r
    }()

    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64 without padding; nil for any other character, or a length no bytes can have.
    static func unbase64(_ s: Substring) -> [UInt8]? {
        guard s.utf8.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in s.utf8 {
            let v = reverse[Int(c)]
            if v == 0xFF { return nil }
            acc = acc << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(acc >> UInt32(bits) & 0xFF))
            }
        }
        return out
    }

    // MARK: Codes

    /// Small numbers as fixed-width base64 digits (most significant first), the width the
    /// fewest that holds `limit - 1`: a compact column of dictionary ids or scopes.
    static func codes(_ values: [Int], limit: Int) -> String {
        var width = 1
        while 1 << (6 * width) < limit { width += 1 }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * width)
        for v in values {
            for k in stride(from: width - 1, through: 0, by: -1) { out.append(alphabet[(v >> (6 * k)) & 63]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `count` codes, each below `limit`; nil when the string cannot hold them (its length
    /// not a multiple of `count`, a width over 5 digits, a character outside base64) or a value
    /// reaches `limit`.
    static func decodeCodes(_ s: String, count: Int, limit: Int) -> [Int]? {
        var s = s
        return s.withUTF8 { bytes -> [Int]? in
            guard count > 0 else { return count == 0 && bytes.isEmpty ? [] : nil }
            let width = bytes.count / count
            // Five digits (30 bits) hold any count an index can have, with no overflow.
            guard bytes.count % count == 0, (1...5).contains(width) else { return nil }
            var out = [Int](repeating: 0, count: count)
            var invalid: UInt8 = 0
            var largest = 0
            var p = 0
            for i in 0..<count {
                var v = 0
                for _ in 0..<width {
                    let d = reverse[Int(bytes[p])]
                    invalid |= d
                    v = v << 6 | Int(d & 63)
                    p += 1
                }
                out[i] = v
                largest = max(largest, v)
            }
            return invalid & 0xC0 == 0 && largest < limit ? out : nil
        }
    }

    // MARK: Body lengths

    /// The body length a code stands for: (4 + q % 4) · 2^(q / 4) / 4 words, a float with two
    /// bits of mantissa, so one base64 digit spans 1 to 57,344 words.
    static func bodyLength(code q: Int) -> Double {
        Double(4 + q % 4) * Double(1 << (q / 4)) / 4
    }

    /// The largest code whose length is at most `words` (at least 1).
    static func lengthCode(_ words: Int) -> Int {
        var q = 0
        while q < 63 && bodyLength(code: q + 1) <= Double(max(words, 1)) { q += 1 }
        return q
    }

    // MARK: Derivable values

    /// The slug a client derives from a title: when the folded title is pure ASCII, its runs
    /// of characters other than `a-z0-9` become `-`, trimmed; nil otherwise.
    static func derivedSlug(_ title: String) -> String? {
        let folded = Fold.fold(title)
        guard folded.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var out: [UInt8] = []
        var dash = false
        for b in folded.utf8 {
            if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                if dash && !out.isEmpty { out.append(0x2D) }
                dash = false
                out.append(b)
            } else {
                dash = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
