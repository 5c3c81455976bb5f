import Foundation

/// The `_headers` file `sift build` writes at the top of the output, in the format Netlify and
/// Cloudflare Pages read (docs/deploy.md, "Cache headers"): files named by their content's hash
/// may be cached for a year, the index's entry point is revalidated. `sift serve` answers with
/// the same rules, read back from the file.
struct HeadersFile {
    static let name = "_headers"
    /// For a file that never changes under its name.
    static let immutable = "public, max-age=31536000, immutable"
    /// For every other file: kept, but asked about again each time.
    static let revalidate = "public, max-age=0, must-revalidate"

    /// Each rule's path (exact, or ending in `*` for every path starting so) and Cache-Control.
    var rules: [(path: String, cacheControl: String)] = []

    /// The rules of a build: the index's immutable folder and each asset's immutable copy, with
    /// paths under the base path. No rule covers everything: both hosts would join its value with
    /// another rule's, and both revalidate what no rule names.
    init(basePath base: String, hashedAssets: some Sequence<String>) {
        // A protocol-relative base (`//cdn.example.com/d/`) is matched by its path: hosts match rules on paths alone.
        let basePath = SiteURLs.path(ofBase: base)
        rules.append((basePath + "search/" + IndexFileNames.folder + "*", Self.immutable))
        for path in hashedAssets.sorted() { rules.append((basePath + "assets/" + path, Self.immutable)) }
        rules.append((basePath + "search/" + IndexFileNames.manifest, Self.revalidate))
    }

    /// Reads a `_headers` file's Cache-Control rules; other headers and malformed lines are left out.
    init(parsing text: String) {
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") { continue }
            if !line.hasPrefix(" ") && !line.hasPrefix("\t") { path = line.trimmingCharacters(in: .whitespaces); continue }
            let field = line.split(separator: ":", maxSplits: 1)
            guard let path, field.count == 2, field[0].trimmingCharacters(in: .whitespaces).lowercased() == "cache-control" else { continue }
            rules.append((path, field[1].trimmingCharacters(in: .whitespaces)))
        }
    }

    /// The most rules Cloudflare Pages reads from a project's `_headers`.
    static let cloudflareRuleLimit = 100

    /// A warning when the rules pass Cloudflare Pages' limit: one rule an asset, so a site with
    /// many files in Templates/assets (`folder`, as displayed) has its immutable copies revalidated there.
    func ruleLimitWarning(folder: String) -> SiftError? {
        guard rules.count > Self.cloudflareRuleLimit else { return nil }
        return SiftError("_headers has \(rules.count) rules, one for each immutable asset: Cloudflare Pages reads at most \(Self.cloudflareRuleLimit) a project; "
                         + "keep fewer files in Templates/assets there, or give the host the rules of docs/deploy.md, \"Cache headers\", by hand",
                         at: SourcePosition(path: folder, line: 0), severity: .warning)
    }

    /// The file's text.
    var text: String {
        var out = "# Written by sift build: files named by their content's hash never change (docs/deploy.md).\n"
        for rule in rules { out += "\(rule.path)\n  Cache-Control: \(rule.cacheControl)\n" }
        return out
    }

    /// The Cache-Control of the first rule matching a request path; nil when none does.
    func cacheControl(for path: String) -> String? {
        rules.first { $0.path.hasSuffix("*") ? path.hasPrefix($0.path.dropLast()) : path == $0.path }?.cacheControl
    }
}
