import Foundation

/// Writes `FILE.gz` and `FILE.br` beside every text file of a build over 1 KB, for hosts that
/// serve precompressed files (nginx `gzip_static`, S3 with Content-Encoding) and for
/// `sift serve`. The same file always gives the same bytes (no time stamp in the gzip header),
/// and a file the build kept from the previous one keeps its compressed copies too.
struct Precompressor: Sendable {
    /// The endings of the files worth compressing: the ones browsers fetch as text.
    static let extensions: Set<String> = ["html", "css", "js", "mjs", "json", "xml", "svg", "txt", "map", "webmanifest"]
    /// Smaller files gain less than the headers a compressed answer adds.
    static let minimumSize = 1024
    /// The endings of the copies this writes.
    static let encodings = ["gz", "br"]

    /// Whether a path of the output is a copy this writes.
    static func isCompressedCopy(_ relative: String) -> Bool {
        encodings.contains { relative.hasSuffix("." + $0) }
    }

    /// What a copy adds to its file's name: `.gz` or `.br`.
    static let addedBytes = 3

    /// Whether a file of the output gets compressed copies (its size aside). A file whose name
    /// leaves no room for `.gz` (a file of Static/ named with 253 to 255 bytes) is served as it is.
    static func wantsCopies(_ relative: String) -> Bool {
        guard let dot = relative.lastIndex(of: "."), !relative[dot...].contains("/") else { return false }
        let name = relative[(relative.lastIndex(of: "/").map { relative.index(after: $0) } ?? relative.startIndex)...]
        guard name.utf8.count + addedBytes <= FileSystem.maximumNameBytes else { return false }
        return extensions.contains(relative[relative.index(after: dot)...].lowercased())
    }

    /// The two copies of `bytes`: gzip at level 9, brotli at quality 11 (smallest for files
    /// cached long) or 9 for pages, of which a large site has so many that 11 would slow its build.
    /// JSON is brotli'd in blocks of 64 KB at most: the manifest's parts (titles, codes, hashes)
    /// then each get a code of their own, 2 % smaller at 10k (docs/performance.md).
    static func copies(of bytes: [UInt8], relative: String) throws -> [(String, [UInt8])] {
        let quality: Int32 = relative.hasSuffix(".html") ? 9 : 11
        let blockBits: Int32? = relative.hasSuffix(".json") ? 16 : nil
        guard let gz = Gzip.compress(bytes, level: 9), let br = Brotli.compress(bytes, quality: quality, blockBits: blockBits) else {
            throw SiftError("cannot compress \(relative)", at: nil)
        }
        return [(relative + ".gz", gz), (relative + ".br", br)]
    }

    /// Compresses every file of `files` (paths relative to the output) that wants copies, on
    /// every core; a file kept from the previous build, under its name or another, links its
    /// previous copies instead. A copy among `authored` (a file of Static/, `app.js.gz` beside
    /// `app.js`) is the site's, written as it is: it is neither made nor linked.
    static func run(_ writer: OutputWriter, files: [String], authored: Set<String> = []) throws {
        let candidates = files.filter { rel in wantsCopies(rel) && !encodings.allSatisfy { authored.contains(rel + "." + $0) } }
        let failures = ParallelMap.map(candidates) { rel -> SiftError? in
            do {
                let wanted = encodings.filter { !authored.contains(rel + "." + $0) }
                // A file kept, or kept under a new name (the text files of a group whose hash changed), keeps its copies.
                if let old = writer.keptName(rel), wanted.allSatisfy({ writer.linkFromPrevious(old + "." + $0, as: rel + "." + $0) }) { return nil }
                let bytes = try writer.readBack(rel)
                guard bytes.count > minimumSize else { return nil }
                for (path, data) in try copies(of: bytes, relative: rel) where !authored.contains(path) { try writer.write(path, data) }
                return nil
            } catch let e as SiftError {
                return e
            } catch {
                return SiftError("cannot compress \(rel): \(error)", at: nil)
            }
        }
        if let e = SiftError.combined(failures.compactMap { $0 }) { throw e }
    }
}
