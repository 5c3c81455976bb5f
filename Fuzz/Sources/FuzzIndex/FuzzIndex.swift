import Foundation
@testable import SiftKit

/// Any bytes as a built search index, opened and queried as `sift search` would, excerpts
/// included: it must answer or throw a SiftError, never crash. An input starting with `{` is JSON text (manifest.json,
/// then `\n--\n`-separated shard-0.json, shard-1.json …, as the seeds and past crashes are);
/// any other input is read as choices that make an index already parsed (IndexGenerator), so
/// that each execution spends its time in the decoders, not in the JSON parser or on disk.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var queries = ["a", "choc", "chocolatte bar", "ελλ", "zz"]
    var scopes = ["Hard"]
    var collections: [String] = []
    var filters: [(field: String, value: String)] = []
    var sorts: [String] = []
    let files: [String: Any]
    if bytes.first == UInt8(ascii: "{") {
        files = jsonFiles(bytes)
    } else {
        var generator = IndexGenerator(bytes)
        generator.make()
        files = generator.files
        queries = generator.queries()
        scopes += generator.scopes
        collections = generator.collectionNames
        filters = generator.filters
        sorts = generator.sortFields
    }
    guard let index = try? SearchIndex(parsedFiles: files) else { return 0 }
    for (n, query) in queries.enumerated() {
        // Each answer's excerpts, as `sift search` prints them, read from the text files.
        if let answer = try? index.search(query) { _ = try? index.excerpts(answer) }
        _ = try? index.search(query, scope: scopes[n % scopes.count], collection: collections.isEmpty ? nil : collections[n % collections.count], limit: 3)
        _ = try? index.search(query, filters: Array(filters.prefix(n + 1)), sort: sorts.isEmpty ? nil : (n % 2 == 0 ? "" : "-") + sorts[n % sorts.count])
    }
    return 0
}

/// `manifest.json`, then shard files, each part parsed as JSON; a part that does not parse is left out.
func jsonFiles(_ bytes: [UInt8]) -> [String: Any] {
    var parts: [ArraySlice<UInt8>] = []
    var start = 0, at = 0
    let separator: [UInt8] = Array("\n--\n".utf8)
    while at + separator.count <= bytes.count {
        if bytes[at..<at + separator.count].elementsEqual(separator) {
            parts.append(bytes[start..<at]); at += separator.count; start = at
        } else { at += 1 }
    }
    parts.append(bytes[start...])
    var files: [String: Any] = [:]
    for (n, part) in parts.prefix(32).enumerated() {
        files[n == 0 ? "manifest.json" : IndexFormat.shardFileName(n - 1)] = try? JSONSerialization.jsonObject(with: Data(part))
    }
    return files
}

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
