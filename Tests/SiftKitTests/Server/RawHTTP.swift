import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import SiftKit

/// A tiny blocking HTTP client on raw sockets, so tests can send exactly the bytes they mean
/// (URLSession would normalise `/../` away). Every read has a timeout: no test can hang.
struct RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        /// Everything received, head included, for "nothing leaked" checks.
        var raw: [UInt8]
    }

    let fd: Int32

    init(port: Int, timeout: Double = 3) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else {
            Glibc.close(fd)
            throw SiftError("connect failed: \(String(cString: strerror(errno)))", at: nil)
        }
    }

    func close() { _ = Glibc.close(fd) }

    func send(_ text: String) { _ = HTTPServer.send(fd, Array(text.utf8)) }

    /// Reads until `done` says the bytes so far are enough, the peer closes, or a read times out.
    func read(until done: ([UInt8]) -> Bool = { _ in false }, limit: Double = 3) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let end = Date().addingTimeInterval(limit)
        while Date() < end && !done(out) {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// Reads one response with a Content-Length (or up to close), for keep-alive tests.
    func readResponse(head: Bool = false) -> Response? {
        let bytes = read(until: { b in
            guard let r = RawHTTP.parse(b) else { return false }
            let length = head || r.status == 304 ? 0 : Int(r.headers["content-length"] ?? "") ?? Int.max
            return r.body.count >= length
        })
        return RawHTTP.parse(bytes)
    }

    static func parse(_ bytes: [UInt8]) -> Response? {
        let sep: [UInt8] = [13, 10, 13, 10]
        guard let i = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == sep }) else { return nil }
        let head = String(decoding: bytes[..<i], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let c = line.firstIndex(of: ":") else { continue }
            headers[line[..<c].lowercased()] = line[line.index(after: c)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(bytes[(i + 4)...]), raw: bytes)
    }

    /// One request on a fresh connection, closed afterwards.
    static func get(_ port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:]) throws -> Response {
        let c = try RawHTTP(port: port)
        defer { c.close() }
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        c.send(text + "\r\n")
        let bytes = c.read()
        guard let r = parse(bytes) else { throw SiftError("no response to \(target): \(bytes.count) bytes", at: nil) }
        return r
    }

    /// Raw bytes in, raw response out.
    static func exchange(_ port: Int, _ text: String) throws -> Response? {
        let c = try RawHTTP(port: port)
        defer { c.close() }
        c.send(text)
        return c.readResponse()
    }
}
