import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SiftKit

/// `sift serve` in-process on a free port, fetched over real sockets.
@Suite struct PreviewServerTests {
    static let files = [
        "Content/site.yml": "title: Served\nbase_url: /docs/\n",
        "Content/about.md": "---\ntitle: About\n---\n\nFirst version of the about page.\n",
        "Content/fruits/fruits.csv": "name,kind\nLemon,Citrus\nCherry,Stone\n",
        "Content/fruits/collection.yml": "title_field: name\nscope_field: kind\nscopes: [Citrus, Stone]\n",
        "Content/fruits/lemon.md": String(repeating: "Lemons are sour and yellow. ", count: 400) + "\n",
    ]

    /// A started server on a fresh site; stopped and deleted by `done()`.
    struct Running {
        let site: TestSite
        let server: PreviewServer
        var port: Int { server.port }
        func done() {
            server.stop()
            site.delete()
        }
    }

    func start(watch: Bool = true) throws -> Running {
        let site = try TestSite(Self.files)
        let server = PreviewServer(options: PreviewServer.Options(build: SiteBuilder.Options(site: site.root), port: 0, watch: watch))
        try server.start()
        return Running(site: site, server: server)
    }

    /// Polls `check` every 50 ms until it holds or `seconds` pass.
    func eventually(_ seconds: Double = 2, _ check: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try check() { return true }
            usleep(50_000)
        }
        return try check()
    }

    /// The cache headers of the build's `_headers`, as Netlify and Cloudflare Pages send them.
    @Test func sendsTheCacheHeadersOfTheBuildsHeadersFile() throws {
        let s = try start()
        defer { s.done() }
        let home = try RawHTTP.get(s.port, "/")
        let script = try #require(home.text.firstMatch(of: /src="(\/assets\/sift\.[0-9a-f]{12}\.js)"/)?.output.1)
        #expect(try RawHTTP.get(s.port, String(script)).headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(try RawHTTP.get(s.port, "/assets/sift.js").headers["cache-control"] == "public, max-age=0, must-revalidate")
        #expect(try RawHTTP.get(s.port, "/search/manifest.json").headers["cache-control"] == "public, max-age=0, must-revalidate")
        #expect(home.headers["cache-control"] == "public, max-age=0, must-revalidate")
        #expect(try RawHTTP.get(s.port, "/_headers").status == 404)
    }

    @Test func servesPagesFoldersAndTypes() throws {
        let s = try start()
        defer { s.done() }
        let home = try RawHTTP.get(s.port, "/")
        #expect(home.status == 200)
        #expect(home.headers["content-type"] == "text/html; charset=utf-8")
        #expect(home.text.contains("<title>Served</title>"))
        #expect(home.text.contains(/href="\/assets\/site\.[0-9a-f]{12}\.css"/), "serve overrides base_url with /")
        #expect(try RawHTTP.get(s.port, "/assets/site.css").headers["content-type"] == "text/css; charset=utf-8")
        #expect(try RawHTTP.get(s.port, "/assets/sift.js").headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try RawHTTP.get(s.port, "/sitemap.xml").headers["content-type"] == "application/xml")
        #expect(try RawHTTP.get(s.port, "/search/manifest.json").headers["content-type"] == "application/json")
        let folder = try RawHTTP.get(s.port, "/fruits?x=1")
        #expect(folder.status == 301)
        #expect(folder.headers["location"] == "/fruits/?x=1")
        #expect(try RawHTTP.get(s.port, "/fruits/lemon/").text.contains("Lemons are sour"))
        let missing = try RawHTTP.get(s.port, "/no/such/page/")
        #expect(missing.status == 404)
        #expect(missing.text == s.site.page("404.html").map { StaticSite.inject(s.server.liveTag, into: Array($0.utf8)) }.map { String(decoding: $0, as: UTF8.self) })
    }

    /// A file of Static/ (a video) is sent from disk as it is read, whole or in the range a
    /// `Range` header asks for, as a video element seeking asks; on a connection kept alive.
    @Test func sendsFilesWholeOrInRanges() throws {
        let clip = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let site = try TestSite(Self.files)
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("Static/media"), withIntermediateDirectories: true)
        try Data(clip).write(to: site.root.appendingPathComponent("Static/media/clip.mp4"))
        let server = PreviewServer(options: PreviewServer.Options(build: SiteBuilder.Options(site: site.root), port: 0, watch: false))
        try server.start()
        defer { server.stop(); site.delete() }
        let port = server.port
        let whole = try RawHTTP.get(port, "/media/clip.mp4")
        #expect(whole.status == 200 && whole.body == clip)
        #expect(whole.headers["accept-ranges"] == "bytes" && whole.headers["content-type"] == "video/mp4")
        let part = try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=1000-1999"])
        #expect(part.status == 206 && part.body == Array(clip[1000..<2000]))
        #expect(part.headers["content-range"] == "bytes 1000-1999/300000" && part.headers["content-length"] == "1000")
        let open = try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=299990-"])
        #expect(open.status == 206 && open.body == Array(clip[299_990...]))
        let last = try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=-7"])
        #expect(last.status == 206 && last.body == Array(clip[(300_000 - 7)...]))
        let past = try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=300000-"])
        #expect(past.status == 416 && past.headers["content-range"] == "bytes */300000")
        // Several ranges, or a range of another version (If-Range), get the whole file.
        #expect(try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=0-1,5-6"]).body == clip)
        let other = try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=0-9", "If-Range": "\"another\""])
        #expect(other.status == 200 && other.body == clip)
        let same = try RawHTTP.get(port, "/media/clip.mp4", headers: ["Range": "bytes=0-9", "If-Range": whole.headers["etag"] ?? ""])
        #expect(same.status == 206 && same.body == Array(clip[0..<10]))
        let head = try RawHTTP.get(port, "/media/clip.mp4", method: "HEAD", headers: ["Range": "bytes=0-9"])
        #expect(head.status == 206 && head.headers["content-length"] == "10" && head.body.isEmpty)
        // Two requests on one connection: the first's body ends where its length says.
        let c = try RawHTTP(port: port)
        defer { c.close() }
        c.send("GET /media/clip.mp4 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-2\r\n\r\nGET /media/clip.mp4 HTTP/1.1\r\nHost: x\r\nRange: bytes=3-5\r\nConnection: close\r\n\r\n")
        let both = c.read()
        let text = String(decoding: both, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 206").count == 3, "\(text.prefix(400))")
        #expect(both.suffix(3) == clip[3..<6])
    }

    @Test func readsByteRanges() {
        #expect(StaticSite.byteRange("bytes=0-0", size: 10) == .part(0..<1))
        #expect(StaticSite.byteRange("bytes=5-", size: 10) == .part(5..<10))
        #expect(StaticSite.byteRange("bytes=5-99", size: 10) == .part(5..<10))
        #expect(StaticSite.byteRange("bytes=-3", size: 10) == .part(7..<10))
        #expect(StaticSite.byteRange("bytes=-30", size: 10) == .part(0..<10))
        #expect(StaticSite.byteRange("bytes=10-", size: 10) == .unsatisfiable)
        #expect(StaticSite.byteRange("bytes=-0", size: 10) == .unsatisfiable)
        #expect(StaticSite.byteRange("bytes=0-", size: 0) == .unsatisfiable)
        #expect(StaticSite.byteRange("bytes=5-2", size: 10) == .whole)
        #expect(StaticSite.byteRange("bytes=1-2,4-5", size: 10) == .whole)
        #expect(StaticSite.byteRange("items=1-2", size: 10) == .whole)
        #expect(StaticSite.byteRange("bytes=a-2", size: 10) == .whole)
        #expect(StaticSite.byteRange("bytes=99999999999999999999-", size: 10) == .unsatisfiable)
    }

    @Test func headSendsTheHeadersOnly() throws {
        let s = try start()
        defer { s.done() }
        let get = try RawHTTP.get(s.port, "/about/")
        let head = try RawHTTP.get(s.port, "/about/", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(head.headers["etag"] == get.headers["etag"])
    }

    @Test func conditionalRequestsGet304() throws {
        let s = try start()
        defer { s.done() }
        let first = try RawHTTP.get(s.port, "/assets/site.css")
        let etag = try #require(first.headers["etag"])
        let byTag = try RawHTTP.get(s.port, "/assets/site.css", headers: ["If-None-Match": etag])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        #expect(byTag.headers["etag"] == etag)
        #expect(try RawHTTP.get(s.port, "/assets/site.css", headers: ["If-None-Match": "\"other\""]).status == 200)
        let since = try #require(first.headers["last-modified"])
        #expect(try RawHTTP.get(s.port, "/assets/site.css", headers: ["If-Modified-Since": since]).status == 304)
        #expect(try RawHTTP.get(s.port, "/assets/site.css", headers: ["If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"]).status == 200)
    }

    @Test func gzipWhenTheClientAcceptsIt() throws {
        let s = try start()
        defer { s.done() }
        let plain = try RawHTTP.get(s.port, "/fruits/lemon/")
        let zipped = try RawHTTP.get(s.port, "/fruits/lemon/", headers: ["Accept-Encoding": "br, gzip"])
        #expect(plain.headers["content-encoding"] == nil)
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(zipped.headers["vary"] == "Accept-Encoding")
        #expect(zipped.body.count < plain.body.count / 4)
        #expect(Gzip.decompress(zipped.body) == plain.body)
        #expect(zipped.headers["etag"] != plain.headers["etag"])
        #expect(try RawHTTP.get(s.port, "/fruits/lemon/", headers: ["Accept-Encoding": "gzip;q=0"]).headers["content-encoding"] == nil)
    }

    @Test func aPrecompressedSiteIsAnsweredWithItsOwnCopies() throws {
        let site = try TestSite(Self.files.merging(["Content/site.yml": "title: Served\nprecompress: true\n"]) { $1 })
        let server = PreviewServer(options: PreviewServer.Options(build: SiteBuilder.Options(site: site.root), port: 0, watch: false))
        try server.start()
        defer { server.stop(); site.delete() }
        let plain = try RawHTTP.get(server.port, "/fruits/lemon/")
        let br = try RawHTTP.get(server.port, "/fruits/lemon/", headers: ["Accept-Encoding": "gzip, br"])
        #expect(br.headers["content-encoding"] == "br")
        #expect(Brotli.decompress(br.body) == plain.body)
        #expect(br.body == Array(try Data(contentsOf: site.output.appendingPathComponent("fruits/lemon/index.html.br"))))
        let gz = try RawHTTP.get(server.port, "/assets/sift.js", headers: ["Accept-Encoding": "gzip"])
        #expect(gz.headers["content-encoding"] == "gzip")
        #expect(gz.body == Array(try Data(contentsOf: site.output.appendingPathComponent("assets/sift.js.gz"))))
        #expect(try RawHTTP.get(server.port, "/fruits/lemon/", headers: ["Accept-Encoding": "br;q=0"]).headers["content-encoding"] == nil)
    }

    @Test func traversalGets404WithoutLeakingAByte() throws {
        let s = try start()
        defer { s.done() }
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        let outside = s.site.root.appendingPathComponent("secret.txt")
        try Data(secret.utf8).write(to: outside)
        try s.site.write("Content/secret.txt", secret)
        let public_ = s.site.output.path
        #expect(symlink(outside.path, public_ + "/leak.txt") == 0)
        #expect(symlink(s.site.root.path, public_ + "/up") == 0)
        let depth = String(repeating: "../", count: 12)
        let targets = [
            "/../secret.txt", "/../Content/secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/secret.txt", "/..%2fsecret.txt",
            "/fruits/..%2f..%2fsecret.txt", "/" + depth + "etc/passwd", "//etc/passwd", "/%2f%2fetc/passwd",
            "http://127.0.0.1/etc/passwd", "/leak.txt", "/up/secret.txt", "/up/Content/secret.txt", "/%2e/secret.txt",
            "/..\\secret.txt", "/%5c..%5csecret.txt", "/about/%00", "/about%00/index.html", "/.%2e/secret.txt",
        ]
        for t in targets {
            let r = try RawHTTP.get(s.port, t)
            #expect(r.status == 404 || r.status == 400, "\(t) gave \(r.status)")
            #expect(!r.text.contains(secret) && !r.text.contains("root:x:0"), "\(t) leaked")
        }
    }

    @Test func malformedRequestsAreRefused() throws {
        let s = try start()
        defer { s.done() }
        #expect(try RawHTTP.exchange(s.port, "GARBAGE\r\n\r\n")?.status == 400)
        #expect(try RawHTTP.exchange(s.port, "GET / HTTP/1.1\r\n\r\n")?.status == 400, "HTTP/1.1 needs Host")
        #expect(try RawHTTP.exchange(s.port, "GET / HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n")?.status == 400)
        #expect(try RawHTTP.exchange(s.port, "GET / HTTP/2.0\r\nHost: a\r\n\r\n")?.status == 400)
        #expect(try RawHTTP.exchange(s.port, "GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n")?.status == 400)
        let post = try RawHTTP.exchange(s.port, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
        #expect(post?.status == 405)
        #expect(post?.headers["allow"] == "GET, HEAD")
        #expect(try RawHTTP.exchange(s.port, "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: a\r\n\r\n")?.status == 414)
        let big = (0..<700).map { "X-Filler-\($0): \(String(repeating: "b", count: 100))\r\n" }.joined()
        #expect(try RawHTTP.exchange(s.port, "GET / HTTP/1.1\r\nHost: a\r\n\(big)\r\n")?.status == 431)
    }

    @Test func keepAliveAnswersSeveralRequestsOnOneConnection() throws {
        let s = try start()
        defer { s.done() }
        let c = try RawHTTP(port: s.port)
        defer { c.close() }
        for path in ["/", "/about/", "/assets/site.css"] {
            c.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 200)
            #expect(r.headers["connection"] == "keep-alive")
        }
        // Two pipelined requests in one write.
        c.send("HEAD / HTTP/1.1\r\nHost: a\r\n\r\nHEAD /about/ HTTP/1.1\r\nHost: a\r\n\r\n")
        let both = String(decoding: c.read(until: { String(decoding: $0, as: UTF8.self).components(separatedBy: "HTTP/1.1 200").count == 3 }), as: UTF8.self)
        #expect(both.components(separatedBy: "HTTP/1.1 200").count == 3)
    }

    @Test func fiftyConcurrentClientsAllSucceed() throws {
        let s = try start()
        defer { s.done() }
        let expected = try RawHTTP.get(s.port, "/fruits/lemon/").body
        let ok = Counter()
        let group = DispatchGroup()
        for _ in 0..<50 {
            group.enter()
            let t = Thread {
                defer { group.leave() }
                // Each client keeps its connection open for several requests, so all 50 are open at once.
                guard let c = try? RawHTTP(port: s.port) else { return }
                defer { c.close() }
                for _ in 0..<4 {
                    c.send("GET /fruits/lemon/ HTTP/1.1\r\nHost: a\r\n\r\n")
                    if let r = c.readResponse(), r.status == 200, r.body == expected { ok.add() }
                }
            }
            t.start()
        }
        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(ok.value == 200)
    }

    @Test func editsReloadPagesAndErrorsKeepTheLastGoodSite() throws {
        let s = try start()
        defer { s.done() }
        let page = try RawHTTP.get(s.port, "/about/")
        #expect(page.text.contains("<script src=\"/__sift/live.js?v=1\"></script></body>"))
        #expect(!(s.site.page("about/index.html") ?? "").contains("__sift"), "the script is added when serving, never written")
        let script = try RawHTTP.get(s.port, "/__sift/live.js")
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(script.text.contains("textContent") && !script.text.contains("innerHTML"))

        let events = try RawHTTP(port: s.port, timeout: 0.2)
        defer { events.close() }
        events.send("GET /__sift/events HTTP/1.1\r\nHost: a\r\nAccept: text/event-stream\r\n\r\n")
        var stream = ""
        func received(_ needle: String) -> Bool {
            stream += String(decoding: events.read(until: { !$0.isEmpty }, limit: 0.2), as: UTF8.self)
            return stream.contains(needle)
        }
        #expect(eventually { received("event: hello\ndata: 1\n") })
        #expect(stream.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"))

        try s.site.write("Content/about.md", "---\ntitle: About\n---\n\nSecond version.\n")
        #expect(try eventually { try RawHTTP.get(s.port, "/about/").text.contains("Second version.") })
        #expect(eventually { received("event: reload\ndata: 2\n") })

        try s.site.write("Content/about.md", "---\ntitle: [About\n---\n\nBroken version.\n")
        #expect(eventually { received("event: build-error\ndata: Content/about.md:") })
        let stale = try RawHTTP.get(s.port, "/about/")
        #expect(stale.status == 200)
        #expect(stale.text.contains("Second version."))
        #expect(!stale.text.contains("Broken version."))
        // A page opened now learns of the error as soon as it connects.
        let late = try RawHTTP(port: s.port, timeout: 0.5)
        defer { late.close() }
        late.send("GET /__sift/events HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(String(decoding: late.read(until: { String(decoding: $0, as: UTF8.self).contains("build-error") }), as: UTF8.self).contains("event: build-error\ndata: Content/about.md:"))

        try s.site.write("Content/about.md", "---\ntitle: About\n---\n\nThird version.\n")
        #expect(try eventually { try RawHTTP.get(s.port, "/about/").text.contains("Third version.") })
        #expect(eventually { received("event: reload\ndata: 3\n") })
    }

    @Test func saveBurstsRebuildOnce() throws {
        let site = try TestSite(Self.files)
        defer { site.delete() }
        let log = Lines()
        let server = PreviewServer(options: PreviewServer.Options(build: SiteBuilder.Options(site: site.root), port: 0)) { line, _ in log.add(line) }
        try server.start()
        defer { server.stop() }
        // Saves a few milliseconds apart: 20 ms apart, a loaded machine could stretch the burst past
        // a poll and the debounce (0.25 + 0.15 s), and the watcher rightly rebuilt twice.
        for i in 0..<5 {
            try site.write("Content/about.md", "Burst \(i)\n")
            usleep(2_000)
        }
        #expect(try eventually { try RawHTTP.get(server.port, "/about/").text.contains("Burst 4") })
        usleep(700_000)
        #expect(log.all.filter { $0.hasPrefix("rebuilt") }.count == 1, "\(log.all)")
    }

    @Test func noWatchServesWithoutTheScript() throws {
        let s = try start(watch: false)
        defer { s.done() }
        let page = try RawHTTP.get(s.port, "/about/")
        #expect(page.status == 200)
        #expect(!page.text.contains("__sift"))
        #expect(try RawHTTP.get(s.port, "/__sift/live.js").status == 404)
    }

    @Test func serveUsageErrors() {
        #expect(SiftCLI.run(["serve", "--port", "x"]).status == 2)
        #expect(SiftCLI.run(["serve", "--nope"]).stderr == "error: unknown option '--nope' for sift serve\nRun 'sift help' for usage.\n")
        #expect(SiftCLI.run(["serve", "--help"]).stdout.hasPrefix("Usage: sift serve"))
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
