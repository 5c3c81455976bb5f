import Foundation

/// One parsed HTTP/1.x request head; the preview server takes no request bodies.
struct HTTPRequest: Sendable {
    var method: String
    /// The request target exactly as sent (`/candies/?q=a`).
    var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    var headers: [(name: String, value: String)]

    /// The first header of that name, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the client wants the connection kept open after the response.
    var keepAlive: Bool {
        let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }
}

/// A response to write: status, headers and, unless it answers HEAD, the body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// HEAD: send the headers of the full response, Content-Length included, but no body.
    var omitBody = false
    /// A body sent from a file as it is read (`body` is then empty): its path and the bytes of it sent.
    var file: (path: String, bytes: Range<Int>)?

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text response, for errors.
    static func text(_ status: Int, _ text: String? = nil, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + extra,
                     body: Array(((text ?? HTTPResponse.reason(status)) + "\n").utf8))
    }

    /// The bytes on the wire: status line, headers, blank line, body (a file's is sent after them).
    func serialized(keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
        for h in headers { head += "\(h.name): \(h.value)\r\n" }
        if status != 304 { head += "Content-Length: \(file?.bytes.count ?? body.count)\r\n" }
        head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !omitBody && status != 304 { bytes += body }
        return bytes
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}

/// Reads request heads out of the bytes a connection has received so far.
enum HTTPParser {
    /// The longest request line accepted (414 beyond it).
    static let maxRequestLine = 8 * 1024
    /// The longest request head accepted, request line included (431 beyond it).
    static let maxHead = 64 * 1024

    enum Result {
        /// A request and how many bytes of the buffer its head took.
        case request(HTTPRequest, consumed: Int)
        case needMore
        /// Answer with this status and close the connection.
        case failure(Int)
    }

    static func parse(_ buffer: [UInt8]) -> Result {
        // Browsers may send a stray CRLF between requests (RFC 9112 §2.2): skip it.
        var start = 0
        while start + 1 < buffer.count, buffer[start] == 13, buffer[start + 1] == 10 { start += 2 }
        guard let lineEnd = find(crlf, in: buffer, from: start) else {
            if buffer.count - start > maxRequestLine { return .failure(414) }
            return .needMore
        }
        if lineEnd - start > maxRequestLine { return .failure(414) }
        guard let headEnd = find(crlfcrlf, in: buffer, from: lineEnd) else {
            return buffer.count - start > maxHead ? .failure(431) : .needMore
        }
        if headEnd - start > maxHead { return .failure(431) }
        guard let head = String(validating: buffer[start..<headEnd], as: UTF8.self) else { return .failure(400) }
        var lines = head.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "-") }),
              parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else { return .failure(400) }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .failure(400) }
            let name = line[..<colon]
            // No whitespace before the colon and no obsolete line folding (RFC 9112 §5).
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\0" }) else { return .failure(400) }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            if value.contains("\0") || value.contains("\r") || value.contains("\n") { return .failure(400) }
            headers.append((String(name), value))
        }
        let request = HTTPRequest(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers)
        if request.version == "HTTP/1.1" && request.header("Host") == nil { return .failure(400) }
        return .request(request, consumed: headEnd + 4)
    }

    private static let crlf: [UInt8] = [13, 10]
    private static let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    private static func find(_ needle: [UInt8], in buffer: [UInt8], from: Int) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= buffer.count {
            if buffer[i] == needle[0] {
                var j = 1
                while j < needle.count && buffer[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

/// Dates in the IMF-fixdate form HTTP uses (`Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var tm = tm()
        gmtime_r(&t, &tm)
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", days[Int(tm.tm_wday)], tm.tm_mday, months[Int(tm.tm_mon)],
                      Int(tm.tm_year) + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec)
    }

    /// Seconds since 1970 for an IMF-fixdate, nil for anything else.
    static func parse(_ text: String) -> Int? {
        let p = text.split(separator: " ")
        guard p.count == 6, p[5] == "GMT", let day = Int(p[1]), let month = months.firstIndex(of: String(p[2])), let year = Int(p[3]) else { return nil }
        let hms = p[4].split(separator: ":").compactMap { Int($0) }
        // Each field within its range: a year past Int32 trapped, and a request could stop the server.
        guard hms.count == 3, (0...9999).contains(year), (1...31).contains(day), (0...23).contains(hms[0]),
              (0...59).contains(hms[1]), (0...60).contains(hms[2]) else { return nil }
        var tm = tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hms[0])
        tm.tm_min = Int32(hms[1])
        tm.tm_sec = Int32(hms[2])
        return Int(timegm(&tm))
    }
}
