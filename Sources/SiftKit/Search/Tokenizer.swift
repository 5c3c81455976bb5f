/// Turns a document into its digest: the body folded and split into its distinct pieces, as
/// docs/search-index.md ("Tokens") describes and sift-core.js splits queries.
enum Tokenizer {
    /// Folds a document and extracts its body vocabulary; pure, so callers may run it in parallel.
    static func digest(_ doc: SearchDocument) -> SearchDigest {
        var set = WordSet()
        if !doc.body.isEmpty {
            let folded = foldedBody(doc.body)
            folded.withUnsafeBufferPointer { buf in
                set.reserve(buf.count / 6)
                tokenize(buf) { start, end, hash in
                    set.insert(UnsafeBufferPointer(rebasing: buf[start..<end]), hash: hash)
                }
            }
        }
        return SearchDigest(collection: doc.collection, slug: doc.slug, title: doc.title, url: doc.url,
                            scope: doc.scope, fieldNames: doc.fields.map(\.name),
                            fieldValues: doc.fields.map(\.value),
                            facetNames: doc.facets.map(\.name), facetValues: doc.facets.map(\.values),
                            sortNames: doc.sortValues.map(\.name), sortValues: doc.sortValues.map(\.value),
                            wordBytes: set.bytes, wordEnds: set.ends, wordHashes: set.hashes)
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

    /// Calls `piece` with the byte range and hash of every piece of folded UTF-8 text: white
    /// space separates tokens, each token splits into runs of word and of other code points.
    @inline(__always)
    static func tokenize(_ buf: UnsafeBufferPointer<UInt8>, _ piece: (Int, Int, UInt64) -> Void) {
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
                        if cls != 0 { piece(start, i, WordHash.finish(h)) }
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
                    if cls != 0 { piece(start, i, WordHash.finish(h)) }
                    start = i
                    cls = c
                    h = WordHash.seed
                }
                for k in i..<(i + len) { h = WordHash.adding(buf[k], to: h) }
                i += len
            }
        }
        if cls != 0 && start < n { piece(start, n, WordHash.finish(h)) }
    }
}
