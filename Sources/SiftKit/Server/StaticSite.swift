import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Answers GET and HEAD from the output folder, and nothing outside it, plus the
/// live-reload endpoints under `/__sift/` when `live` is set.
final class StaticSite: @unchecked Sendable {
    let root: URL
    let live: LiveReload?
    private let lock = NSLock()
    private var gzipCache: [String: [UInt8]] = [:]

    init(root: URL, live: LiveReload?) {
        self.root = root
        self.live = live
    }

    /// Where a request path leads.
    enum Resolution: Equatable {
        case file(String)
        /// A folder asked for without its trailing slash.
        case redirect
        case notFound
        case badRequest
    }

    func reply(to request: HTTPRequest) -> HTTPReply {
        var target = Substring(request.target)
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        let path: Substring
        let query: Substring?
        if let q = target.firstIndex(of: "?") {
            path = target[..<q]
            query = target[target.index(after: q)...]
        } else {
            path = target
            query = nil
        }
        if let live {
            if path == "/__sift/live.js" {
                return .response(HTTPResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-store")],
                                              body: Array(LiveReload.script.utf8)))
            }
            if path == "/__sift/events" { return live.events() }
        }
        // What a host does with it: read, never served.
        if path == "/" + HeadersFile.name { return .response(notFound(request)) }
        switch resolve(String(path)) {
        case .file(let file): return .response(serve(file, request: request, status: 200, cacheControl: cacheControl(for: String(path))))
        case .redirect:
            // path starts with one "/" only (resolve refused "//"), so this never leaves the site.
            let location = path + "/" + (query.map { "?" + $0 } ?? "")
            return .response(HTTPResponse.text(301, "moved to \(location)", extra: [("Location", String(location))]))
        case .badRequest: return .response(HTTPResponse.text(400))
        case .notFound: return .response(notFound(request))
        }
    }

    /// Maps a request path to a regular file inside the output's real path: escapes are decoded
    /// once; `.`/`..` segments, empty segments, NUL and backslashes are refused; symbolic links
    /// are followed and must land inside the output too.
    func resolve(_ rawPath: String) -> Resolution {
        // Bytes, not characters: "/" and a combining mark after it are one character.
        guard rawPath.utf8.first == UInt8(ascii: "/"), !rawPath.utf8.starts(with: "//".utf8) else { return .notFound }
        guard let bytes = StaticSite.percentDecode(rawPath) else { return .badRequest }
        if bytes.contains(0) || bytes.contains(UInt8(ascii: "\\")) { return .notFound }
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        for (i, s) in segments.enumerated() {
            if s.elementsEqual(".".utf8) || s.elementsEqual("..".utf8) { return .notFound }
            if s.isEmpty && i != segments.count - 1 { return .notFound }
        }
        guard let rootReal = StaticSite.realPath(root.path) else { return .notFound }
        let relative = String(decoding: Array(segments.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)
        guard let real = StaticSite.realPath(rootReal + "/" + relative), StaticSite.isInside(real, rootReal) else { return .notFound }
        var st = stat()
        guard stat(real, &st) == 0 else { return .notFound }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            guard bytes.last == UInt8(ascii: "/") else { return .redirect }
            guard let index = StaticSite.realPath(real + "/index.html"), StaticSite.isInside(index, rootReal),
                  stat(index, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return .notFound }
            return .file(index)
        }
        return (st.st_mode & S_IFMT) == S_IFREG ? .file(real) : .notFound
    }

    /// The site's 404.html with status 404, or a small page of our own.
    private func notFound(_ request: HTTPRequest) -> HTTPResponse {
        if let rootReal = StaticSite.realPath(root.path), let page = StaticSite.realPath(rootReal + "/404.html"), StaticSite.isInside(page, rootReal) {
            return serve(page, request: request, status: 404)
        }
        var body = Array("<!doctype html>\n<meta charset=\"utf-8\">\n<title>Not found</title>\n<body>\n<h1>Not found</h1>\n</body>\n".utf8)
        if let live { body = StaticSite.inject(live.scriptTag(), into: body) }
        return HTTPResponse(status: 404, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: body)
    }

    /// The Cache-Control the build's `_headers` gives a path, as Netlify and Cloudflare Pages send it.
    private func cacheControl(for path: String) -> String {
        let rules = (try? String(contentsOfFile: root.path + "/" + HeadersFile.name, encoding: .utf8)).map(HeadersFile.init(parsing:))
        return rules?.cacheControl(for: path) ?? HeadersFile.revalidate
    }

    private func serve(_ file: String, request: HTTPRequest, status: Int, cacheControl: String = "no-cache") -> HTTPResponse {
        var st = stat()
        guard stat(file, &st) == 0, access(file, R_OK) == 0 else { return HTTPResponse.text(404) }
        let type = StaticSite.contentType(file)
        let isHTML = type.hasPrefix("text/html")
        let mtime = Int(st.st_mtim.tv_sec)
        let tag = live.map { $0.scriptTag() }
        var etag = String(st.st_size, radix: 16) + "-" + String(mtime, radix: 16) + String(st.st_mtim.tv_nsec, radix: 16)
        if isHTML, let live { etag += "-l\(live.builds)" }
        let compressible = StaticSite.isCompressible(type)
        let accepted = request.header("Accept-Encoding")
        // A build's own compressed copy (`--precompress`) where one is there, fresh, and the
        // page needs no live-reload tag; else gzip made here.
        let copy = compressible && !(isHTML && tag != nil) ? StaticSite.precompressed(file, modified: st.st_mtim, accepted: accepted) : nil
        let gzip = copy == nil && compressible && st.st_size >= 256 && StaticSite.accepts("gzip", accepted)
        if let copy { etag += "-" + copy.coding } else if gzip { etag += "-gz" }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type), ("ETag", "\"\(etag)\""), ("Last-Modified", HTTPDate.format(mtime)),
            ("Cache-Control", cacheControl), ("X-Content-Type-Options", "nosniff"),
        ]
        if compressible { headers.append(("Vary", "Accept-Encoding")) }
        if status == 200 {
            if let match = request.header("If-None-Match") {
                if StaticSite.etagMatches(match, etag) { return HTTPResponse(status: 304, headers: headers) }
            } else if let since = request.header("If-Modified-Since").flatMap(HTTPDate.parse), mtime <= since {
                return HTTPResponse(status: 304, headers: headers)
            }
        }
        if let copy {
            headers.append(("Content-Encoding", copy.coding))
            return HTTPResponse(status: status, headers: headers, body: copy.body)
        }
        if !gzip && !(isHTML && tag != nil) {
            // Sent as it is: from the file as it is read (a film is never held in memory), and
            // in part when a range is asked for, as a video element seeking does (Safari plays
            // none without).
            return StaticSite.fromFile(file, size: Int(st.st_size), request: request, status: status, etag: etag, headers: headers)
        }
        guard let data = FileManager.default.contents(atPath: file) else { return HTTPResponse.text(404) }
        var body = [UInt8](data)
        if isHTML, let tag { body = StaticSite.inject(tag, into: body) }
        if gzip {
            let key = file + "\u{0}" + etag
            lock.lock()
            let cached = gzipCache[key]
            lock.unlock()
            if let compressed = cached ?? Gzip.compress(body) {
                if cached == nil {
                    lock.lock()
                    if gzipCache.count > 512 { gzipCache.removeAll() }
                    gzipCache[key] = compressed
                    lock.unlock()
                }
                body = compressed
                headers.append(("Content-Encoding", "gzip"))
            }
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A file's bytes as the response's body, read as they are sent: all of them, or the range
    /// a `Range` header asks for (206), unless an `If-Range` names another version (then all);
    /// a range past the end is refused (416).
    static func fromFile(_ file: String, size: Int, request: HTTPRequest, status: Int, etag: String, headers: [(name: String, value: String)]) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers + [("Accept-Ranges", "bytes")])
        response.file = (file, 0..<size)
        guard status == 200, let asked = request.header("Range"),
              request.header("If-Range").map({ etagMatches($0, etag) }) ?? true else { return response }
        switch byteRange(asked, size: size) {
        case .whole:
            return response
        case .part(let bytes):
            response.status = 206
            response.headers.append(("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)"))
            response.file = (file, bytes)
            return response
        case .unsatisfiable:
            return HTTPResponse.text(416, extra: [("Content-Range", "bytes */\(size)")])
        }
    }

    /// What a `Range` header asks of a file of `size` bytes.
    enum ByteRange: Equatable {
        /// Nothing this server sends in part: another unit, several ranges, or a header it cannot read (RFC 9110 lets it send all).
        case whole
        case part(Range<Int>)
        /// A range that starts past the end, or the last 0 bytes.
        case unsatisfiable
    }

    /// Reads `bytes=first-last`, `bytes=first-` and `bytes=-suffix` (RFC 9110, 14.1.2).
    static func byteRange(_ header: String, size: Int) -> ByteRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        let digits = { (s: Substring) in !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } }
        if first.isEmpty {
            guard digits(last) else { return .whole }
            guard let suffix = Int(last) else { return size > 0 ? .part(0..<size) : .unsatisfiable }
            return suffix == 0 || size == 0 ? .unsatisfiable : .part(max(0, size - suffix)..<size)
        }
        guard digits(first), last.isEmpty || digits(last) else { return .whole }
        guard let start = Int(first), start < size else { return .unsatisfiable }
        let end = last.isEmpty ? size - 1 : min(Int(last) ?? size - 1, size - 1)
        return end < start ? .whole : .part(start..<end + 1)
    }

    /// Puts `tag` before the last `</body>` (any case), or at the end when there is none.
    static func inject(_ tag: String, into html: [UInt8]) -> [UInt8] {
        let needle = Array("</body".utf8)
        var i = html.count - needle.count
        while i >= 0 {
            var j = 0
            while j < needle.count && (html[i + j] | 0x20) == (needle[j] | 0x20) { j += 1 }
            if j == needle.count { return Array(html[..<i]) + Array(tag.utf8) + Array(html[i...]) }
            i -= 1
        }
        return html + Array(tag.utf8)
    }

    /// Percent-decodes once; nil for a broken escape.
    static func percentDecode(_ s: String) -> [UInt8]? {
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Byte by byte: a String's == and hasPrefix take `é` and `e` with a combining accent, two
    /// folders on disk, for one, and `/` with a combining mark after it for no `/`.
    static func isInside(_ path: String, _ root: String) -> Bool {
        path.utf8.elementsEqual(root.utf8) || path.utf8.starts(with: (root == "/" ? "/" : root + "/").utf8)
    }

    static func etagMatches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains {
            var t = $0.trimmingCharacters(in: .whitespaces)
            if t == "*" { return true }
            if t.hasPrefix("W/") { t.removeFirst(2) }
            return t == "\"\(etag)\""
        }
    }

    /// Whether Accept-Encoding allows gzip (`gzip;q=0` refuses it).
    static func acceptsGzip(_ header: String?) -> Bool { accepts("gzip", header) }

    /// Whether Accept-Encoding allows a content coding (`br;q=0` refuses it; `x-gzip` is gzip).
    static func accepts(_ coding: String, _ header: String?) -> Bool {
        guard let header else { return false }
        var star = false
        for part in header.lowercased().split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = fields.first else { continue }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if name == coding || coding == "gzip" && name == "x-gzip" { return q > 0 }
            if name == "*" { star = q > 0 }
        }
        return star
    }

    /// The bytes of `file.br` or `file.gz`, brotli first, when the request accepts its coding
    /// and the copy is no older than the file (a copy left from before an edit is not used).
    static func precompressed(_ file: String, modified: timespec, accepted: String?) -> (coding: String, body: [UInt8])? {
        for (coding, suffix) in [("br", ".br"), ("gzip", ".gz")] where accepts(coding, accepted) {
            var st = stat()
            guard stat(file + suffix, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                  (st.st_mtim.tv_sec, st.st_mtim.tv_nsec) >= (modified.tv_sec, modified.tv_nsec),
                  let data = FileManager.default.contents(atPath: file + suffix) else { continue }
            return (coding, [UInt8](data))
        }
        return nil
    }

    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "map": "application/json", "xml": "application/xml", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif",
        "avif": "image/avif", "ico": "image/x-icon", "woff2": "font/woff2", "woff": "font/woff",
        "txt": "text/plain; charset=utf-8", "md": "text/plain; charset=utf-8", "wasm": "application/wasm", "pdf": "application/pdf",
        // What Static/ holds beside pages: media a video or audio element plays (Safari plays
        // none served as octet-stream), its captions (a track element refuses any type but
        // text/vtt), fonts, data and downloads.
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "ogv": "video/ogg", "mov": "video/quicktime",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "wav": "audio/wav", "flac": "audio/flac",
        "vtt": "text/vtt; charset=utf-8", "ttf": "font/ttf", "otf": "font/otf", "csv": "text/csv; charset=utf-8",
        "webmanifest": "application/manifest+json", "zip": "application/zip",
    ]

    static func contentType(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    static func isCompressible(_ type: String) -> Bool {
        type.hasPrefix("text/") || type.hasPrefix("application/json") || type == "application/xml" || type == "image/svg+xml" || type == "application/manifest+json"
            || type == "application/wasm" || type == "application/octet-stream"
    }
}
