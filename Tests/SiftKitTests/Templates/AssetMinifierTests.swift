import Testing
@testable import SiftKit

@Test func javaScriptLosesCommentLinesAndIndentationOnly() {
    let source = "// Header.\nimport { a } from \"./a.js\";\n\n  /// Doc.\n  const u = \"http://x\"; // kept: not a whole line\n\tif (a) {\n    b(`${u}`);\n  }\n"
    let out = String(decoding: AssetMinifier.minify(Array(source.utf8), name: "sift.js"), as: UTF8.self)
    #expect(out == "import { a } from \"./a.js\";\nconst u = \"http://x\"; // kept: not a whole line\nif (a) {\nb(`${u}`);\n}\n")
}

@Test func cssLosesBlockCommentsAndIndentation() {
    let source = "/* Theme\n   keys. */\n.a {\n  color: red; /* inline */\n  --m: url(\"data:image/svg+xml,%3Csvg/%3E\");\n}\n"
    let out = String(decoding: AssetMinifier.minify(Array(source.utf8), name: "sift.css"), as: UTF8.self)
    #expect(out == ".a {\ncolor: red; \n--m: url(\"data:image/svg+xml,%3Csvg/%3E\");\n}\n")
}

/// The shipped search bar is its sources minus comments and indentation: the same code lines, in order.
@Test func theShippedSearchBarKeepsEveryLineOfCode() {
    for (name, source) in [("sift.js", PackageResources.sift_js), ("sift-core.js", PackageResources.sift_core_js)] {
        let shipped = BuiltinResources.assets.first { $0.0 == name }!.1
        let code = String(decoding: source, as: UTF8.self).split(separator: "\n")
            .map { $0.drop { $0 == " " } }.filter { !$0.isEmpty && !$0.hasPrefix("//") }.map(String.init)
        #expect(String(decoding: shipped, as: UTF8.self).split(separator: "\n").map(String.init) == code)
        #expect(!code.contains { $0.contains("`") && $0.filter { $0 == "`" }.count % 2 == 1 }, "a template literal spans lines in \(name)")
    }
}
