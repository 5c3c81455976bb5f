import Foundation
import Testing

/// libcmark stays behind one file: every `cmark_` call and every `import CCmark` of SiftKit is in
/// Markdown/Markdown.swift, so no C pointer or allocator leaves it.
@Test func onlyMarkdownSwiftTouchesLibcmark() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/SiftKit")
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    #expect(files.count > 50)
    var touching: [String] = []
    for file in files {
        let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        if text.contains("cmark_") || text.contains("import CCmark") { touching.append(file) }
    }
    #expect(touching == ["Markdown/Markdown.swift"])
}
