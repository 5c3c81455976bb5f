import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a handler does with a request: answer it, or keep the connection for a stream.
enum HTTPReply: Sendable {
    case response(HTTPResponse)
    /// A long-lived response (Server-Sent Events): `head` is sent without a length, then
    /// `body` writes until it returns, and the connection closes.
    case stream(head: HTTPResponse, body: @Sendable (HTTPConnectionWriter) -> Void)
}

/// Writes to one client connection; false once the client is gone or the server stops.
final class HTTPConnectionWriter: @unchecked Sendable {
    fileprivate let fd: Int32
    fileprivate init(fd: Int32) { self.fd = fd }

    func write(_ bytes: [UInt8]) -> Bool { HTTPServer.send(fd, bytes) }
}

/// A small HTTP/1.1 server on POSIX sockets: one thread per connection up to a cap, keep-alive,
/// and timeouts so that idle or slow clients cannot hold a thread for long.
final class HTTPServer: @unchecked Sendable {
    let limits: HTTPServerLimits
    /// The port bound, the real one when 0 was asked for.
    private(set) var port = 0
    private let handler: @Sendable (HTTPRequest) -> HTTPReply
    private let listenFD: Int32
    private let lock = NSLock()
    private var open: Set<Int32> = []
    /// Connections waiting for bytes: since when, and whether a request is yet to be completed
    /// (a fresh connection, or a head half sent) rather than kept alive after one.
    private var waiting: [Int32: (since: Date, partial: Bool)] = [:]
    private var stopped = false
    private let acceptDone = DispatchSemaphore(value: 0)

    /// Binds and listens on host:port (port 0 picks a free port); does not accept until `start()`.
    init(host: String, port: Int, limits: HTTPServerLimits = HTTPServerLimits(), handler: @escaping @Sendable (HTTPRequest) -> HTTPReply) throws {
        self.limits = limits
        self.handler = handler
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw SiftError("cannot use host '\(host)': \(String(cString: gai_strerror(rc)))", at: nil)
        }
        defer { freeaddrinfo(list) }
        var fd: Int32 = -1
        var lastError = ""
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            if s < 0 { continue }
            var one: Int32 = 1
            setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if bind(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 && listen(s, 256) == 0 {
                fd = s
                break
            }
            lastError = String(cString: strerror(errno))
            close(s)
        }
        guard fd >= 0 else { throw SiftError("cannot listen on \(host):\(port): \(lastError)", at: nil) }
        listenFD = fd
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &len) }
        }
        let family = Int32(storage.ss_family)
        self.port = withUnsafePointer(to: &storage) { p -> Int in
            if family == AF_INET6 {
                return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Starts accepting on a thread of its own.
    func start() {
        let t = Thread { [self] in acceptLoop() }
        t.name = "sift-accept"
        t.start()
    }

    /// Stops accepting, drops every open connection and waits for the accept loop to end.
    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        // shutdown, not close: each connection's thread closes its own descriptor, so no
        // number is reused while a thread still holds it.
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        lock.unlock()
        if !already { _ = acceptDone.wait(timeout: .now() + 2) }
    }

    var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        defer {
            close(listenFD)
            acceptDone.signal()
        }
        var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
        while !isStopped {
            pfd.revents = 0
            let n = poll(&pfd, 1, 200)
            if n <= 0 { continue }
            let client = accept(listenFD, nil, nil)
            if client < 0 { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var tv = timeval(tv_sec: Int(limits.writeTimeout), tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            lock.lock()
            var full = open.count >= limits.maxConnections || stopped
            if full && !stopped, let victim = evictable() {
                // At the cap, an idle keep-alive connection (else the slowest half-sent head)
                // makes room: its thread sees the shutdown and ends. One that has not sent a
                // whole request is told why, as at its own timeout.
                if waiting[victim]?.partial == true {
                    _ = HTTPServer.send(victim, HTTPResponse.text(408).serialized(keepAlive: false))
                }
                waiting[victim] = nil
                shutdown(victim, Int32(SHUT_RDWR))
                full = false
            }
            if !full { open.insert(client) }
            lock.unlock()
            if full {
                _ = HTTPServer.send(client, HTTPResponse.text(503, "too many connections").serialized(keepAlive: false))
                close(client)
                continue
            }
            let t = Thread { [self] in
                serve(client)
                lock.lock()
                open.remove(client)
                lock.unlock()
                close(client)
            }
            t.stackSize = 512 * 1024
            t.start()
        }
    }

    /// The connection to close for a newcomer: the longest idle between requests, else one
    /// that has waited over a second for a whole request. Called with the lock held.
    private func evictable() -> Int32? {
        if let idle = waiting.filter({ !$0.value.partial }).min(by: { $0.value.since < $1.value.since }) { return idle.key }
        let slow = waiting.filter { $0.value.partial && Date().timeIntervalSince($0.value.since) > 1 }
        return slow.min(by: { $0.value.since < $1.value.since })?.key
    }

    private func setWaiting(_ fd: Int32, _ state: (since: Date, partial: Bool)?) {
        lock.lock(); waiting[fd] = state; lock.unlock()
    }

    /// Answers requests on one connection until it closes, times out or asks to close.
    private func serve(_ fd: Int32) {
        defer { setWaiting(fd, nil) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var deadline: Date?
        var idleStart: Date?
        var served = 0
        while !isStopped {
            switch HTTPParser.parse(buffer) {
            case .failure(let status):
                _ = HTTPServer.send(fd, HTTPResponse.text(status).serialized(keepAlive: false))
                return
            case .request(let request, let consumed):
                buffer.removeFirst(consumed)
                deadline = nil
                idleStart = nil
                guard answer(request, on: fd, buffer: &buffer) else { return }
                served += 1
            case .needMore:
                let now = Date()
                let limit: Date
                if buffer.isEmpty {
                    if idleStart == nil { idleStart = now }
                    limit = idleStart!.addingTimeInterval(limits.idleTimeout)
                } else {
                    if deadline == nil { deadline = now.addingTimeInterval(limits.requestTimeout) }
                    limit = deadline!
                }
                let wait = limit.timeIntervalSince(now)
                if wait <= 0 {
                    // An idle kept-alive connection just closes; a half-sent head is told why.
                    if !buffer.isEmpty { _ = HTTPServer.send(fd, HTTPResponse.text(408).serialized(keepAlive: false)) }
                    return
                }
                setWaiting(fd, (buffer.isEmpty ? idleStart! : deadline!.addingTimeInterval(-limits.requestTimeout), served == 0 || !buffer.isEmpty))
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pfd, 1, Int32(min(wait, 0.5) * 1000) + 1)
                if ready < 0 && errno != EINTR { return }
                if ready <= 0 { continue }
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                setWaiting(fd, nil)
                if n <= 0 { return }
                idleStart = nil
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }

    /// Answers one request; false when the connection is to close after it.
    private func answer(_ request: HTTPRequest, on fd: Int32, buffer: inout [UInt8]) -> Bool {
        var keepAlive = request.keepAlive
        if request.header("Transfer-Encoding") != nil {
            _ = HTTPServer.send(fd, HTTPResponse.text(400, "request bodies are not accepted").serialized(keepAlive: false))
            return false
        }
        if let length = request.header("Content-Length") {
            guard let n = Int(length), n >= 0 else {
                _ = HTTPServer.send(fd, HTTPResponse.text(400).serialized(keepAlive: false))
                return false
            }
            // A GET with a body is odd but legal: drop the body if it already arrived, else close after answering.
            if n <= buffer.count { buffer.removeFirst(n) } else { keepAlive = false }
        }
        let reply: HTTPReply = request.method == "GET" || request.method == "HEAD"
            ? handler(request)
            : .response(HTTPResponse.text(405, extra: [("Allow", "GET, HEAD")]))
        switch reply {
        case .response(var response):
            response.omitBody = request.method == "HEAD"
            // After a malformed request nothing later on the connection can be trusted.
            if response.status == 400 { keepAlive = false }
            guard HTTPServer.send(fd, response.serialized(keepAlive: keepAlive)) else { return false }
            if let file = response.file, !response.omitBody, response.status != 304 {
                guard HTTPServer.send(fd, file: file.path, bytes: file.bytes) else { return false }
            }
            return keepAlive
        case .stream(let head, let body):
            var text = "HTTP/1.1 \(head.status) \(HTTPResponse.reason(head.status))\r\n"
            for h in head.headers { text += "\(h.name): \(h.value)\r\n" }
            text += "Connection: close\r\n\r\n"
            guard HTTPServer.send(fd, Array(text.utf8)) else { return false }
            if request.method == "GET" { body(HTTPConnectionWriter(fd: fd)) }
            return false
        }
    }

    /// Sends bytes `bytes` of a file as they are read, by the kernel (`sendfile`), or returns
    /// false (the file is gone, or shorter than it was when its length was sent).
    static func send(_ fd: Int32, file path: String, bytes: Range<Int>) -> Bool {
        let file = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { Glibc.close(file) }
        var offset = off_t(bytes.lowerBound)
        while offset < bytes.upperBound {
            let n = sendfile(fd, file, &offset, min(bytes.upperBound - Int(offset), 1 << 20))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
        }
        return true
    }

    /// Sends every byte, or returns false; never raises SIGPIPE.
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            sent += n
        }
        return true
    }
}
