import Testing
@testable import SiftKit

@Suite struct HTTPParserTests {
    @Test func parsesARequestHead() throws {
        guard case .request(let r, let consumed) = HTTPParser.parse(Array("GET /a?b HTTP/1.1\r\nHost: x\r\nAccept-Encoding:  gzip \r\n\r\nrest".utf8)) else {
            Issue.record("not parsed"); return
        }
        #expect(r.method == "GET")
        #expect(r.target == "/a?b")
        #expect(r.header("accept-encoding") == "gzip")
        #expect(consumed == 55)
        #expect(r.keepAlive)
    }

    @Test func waitsForTheWholeHead() {
        guard case .needMore = HTTPParser.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) else { Issue.record("should wait"); return }
    }

    @Test func http10ClosesUnlessAsked() throws {
        guard case .request(let r, _) = HTTPParser.parse(Array("GET / HTTP/1.0\r\n\r\n".utf8)) else { Issue.record("not parsed"); return }
        #expect(!r.keepAlive)
    }

    @Test func percentDecodesOnce() {
        #expect(StaticSite.percentDecode("/%252e%2e") == Array("/%2e.".utf8))
        #expect(StaticSite.percentDecode("/%2") == nil)
    }

    @Test func injectsBeforeTheLastBodyEnd() {
        #expect(String(decoding: StaticSite.inject("<s>", into: Array("<p></body></BODY>".utf8)), as: UTF8.self) == "<p></body><s></BODY>")
        #expect(String(decoding: StaticSite.inject("<s>", into: Array("<p>".utf8)), as: UTF8.self) == "<p><s>")
    }

    @Test func acceptEncoding() {
        #expect(StaticSite.acceptsGzip("gzip, deflate, br"))
        #expect(!StaticSite.acceptsGzip("gzip;q=0"))
        #expect(StaticSite.acceptsGzip("*"))
        #expect(!StaticSite.acceptsGzip("br"))
        #expect(!StaticSite.acceptsGzip(nil))
    }

    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784111777)
    }

    /// FuzzHTTP's crash: an If-Modified-Since year past Int32 trapped, and stopped `sift serve`.
    @Test func httpDatesOutOfRangeAreNoDates() {
        #expect(HTTPDate.parse("Sun, 03 Nov +1997777777774 08:50:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 03 Nov 1997 08:50:99999999999 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 99999999999 Nov 1997 08:50:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1997 24:50:37 GMT") == nil)
    }

    @Test func gzipRoundTrips() {
        let text = Array(String(repeating: "sift ", count: 1000).utf8)
        let z = Gzip.compress(text)!
        #expect(z.count < 100)
        #expect(Array(z.prefix(2)) == [0x1f, 0x8b])
        #expect(Gzip.decompress(z) == text)
    }
}
