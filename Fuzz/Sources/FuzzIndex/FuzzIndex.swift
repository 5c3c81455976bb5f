import Foundation
import SiftKit

/// Any bytes as a built search index: the input up to the first `\n--\n` is manifest.json, each
/// later part is shard-0.json, shard-1.json …; the index is opened and queried, as `sift search`
/// would, and must answer or throw a SiftError, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var parts: [ArraySlice<UInt8>] = []
    var start = 0, i = 0
    let sep: [UInt8] = Array("\n--\n".utf8)
    while i + sep.count <= bytes.count {
        if bytes[i..<i + sep.count].elementsEqual(sep) {
            parts.append(bytes[start..<i]); i += sep.count; start = i
        } else { i += 1 }
    }
    parts.append(bytes[start...])
    let fm = FileManager.default
    try? fm.removeItem(at: directory)
    try? fm.createDirectory(at: directory, withIntermediateDirectories: true)
    for (n, part) in parts.prefix(32).enumerated() {
        let name = n == 0 ? "manifest.json" : "shard-\(n - 1).json"
        fm.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data(part))
    }
    guard let index = try? SearchIndex(directory: directory) else { return 0 }
    for query in ["a", "choc", "chocolatte bar", "ελλ", "zz"] {
        _ = try? index.search(query)
        _ = try? index.search(query, scope: "Hard", limit: 3)
    }
    return 0
}

private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-fuzz-index-\(getpid())")

// SwiftPM links executables with `main=FuzzIndex_main`: hand that entry point to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzIndex_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return runDriver(&argc, &argv, fuzz)
}
