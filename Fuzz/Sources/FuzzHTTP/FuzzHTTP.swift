import Foundation
@testable import SiftKit

/// Any bytes as what a connection to `sift serve` sends: request heads parsed one after another
/// as the server reads them (pipelining), each answered from a small site on disk. Parsing must
/// answer, ask for more or refuse; a path must never resolve to a file outside the site.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var buffer = Array(UnsafeBufferPointer(start: data, count: size))
    for _ in 0..<16 {
        guard case .request(let request, let consumed) = HTTPParser.parse(buffer) else { return 0 }
        precondition(consumed > 0 && consumed <= buffer.count, "consumed \(consumed) of \(buffer.count) bytes")
        answer(request)
        buffer.removeFirst(consumed)
    }
    return 0
}

/// Replies as the server would, checking where the request's path led.
func answer(_ request: HTTPRequest) {
    let path = String(request.target.prefix { $0 != "?" && $0 != "#" })
    if case .file(let file) = fuzzSite.site.resolve(path) {
        precondition(StaticSite.isInside(file, fuzzSite.realRoot), "\(request.target) resolved to \(file)")
    }
    if case .response(let response) = fuzzSite.site.reply(to: request) {
        _ = response.serialized(keepAlive: request.keepAlive)
    }
    for (_, value) in request.headers {
        _ = HTTPDate.parse(value)
        _ = StaticSite.etagMatches(value, "\"1f-5e\"")
        _ = StaticSite.accepts("gzip", value)
    }
}

/// A small output folder: pages, a folder, a 404 page, a precompressed copy, and links that point
/// outside it and at themselves.
let fuzzSite: (site: StaticSite, realRoot: String) = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sift-fuzz-http-\(getpid())/public")
    let fm = FileManager.default
    try? fm.removeItem(at: root.deletingLastPathComponent())
    try? fm.createDirectory(at: root.appendingPathComponent("candies/caramel"), withIntermediateDirectories: true)
    let page = Data("<!doctype html><title>x</title><body>\(String(repeating: "text ", count: 80))</body>".utf8)
    for file in ["index.html", "404.html", "candies/index.html", "candies/caramel/index.html", "site.css", "search.json"] {
        fm.createFile(atPath: root.appendingPathComponent(file).path, contents: page)
    }
    fm.createFile(atPath: root.appendingPathComponent("site.css.gz").path, contents: Data([0x1f, 0x8b]))
    try? fm.createSymbolicLink(atPath: root.appendingPathComponent("outside").path, withDestinationPath: "/etc")
    try? fm.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: "loop")
    return (StaticSite(root: root, live: nil), StaticSite.realPath(root.path) ?? root.path)
}()

// SwiftPM links executables with `main=FuzzHTTP_main`: hand that entry point to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzHTTP_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return runDriver(&argc, &argv, fuzz)
}
