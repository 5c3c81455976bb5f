import Foundation

/// Finds links in Markdown that point into the site at nothing the build wrote, for `sift check`.
struct LinkChecker {
    let urls: SiteURLs
    /// The folder the build wrote.
    let output: URL

    /// A warning for every internal link whose target is missing.
    func check(_ pages: [(page: String, source: MarkdownSource, links: [MarkdownLink])]) -> [SiftError] {
        var warnings: [SiftError] = []
        for (page, source, links) in pages {
            for link in links {
                guard let target = resolve(link.url, from: page), !exists(target) else { continue }
                let at = SourcePosition(path: source.displayPath, line: source.bodyLine + link.line - 1, column: link.column)
                warnings.append(SiftError("link to \(link.url) points to no page of the site", at: at, severity: .warning))
            }
        }
        return warnings.sorted { ($0.position?.path ?? "", $0.position?.line ?? 0) < ($1.position?.path ?? "", $1.position?.line ?? 0) }
    }

    /// The target as a path relative to the site root, or nil for links that leave the site.
    func resolve(_ url: String, from page: String) -> String? {
        var path = url
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        if path.isEmpty || path.utf8.starts(with: "//".utf8) { return nil }
        if let colon = path.firstIndex(of: ":"), !path[..<colon].contains("/") { return nil }
        path = path.removingPercentEncoding ?? path
        var segments: [Substring]
        if path.utf8.first == UInt8(ascii: "/") {
            guard path.utf8.starts(with: urls.basePath.utf8) || path + "/" == urls.basePath else { return String(Substring(path.utf8.dropFirst())) }
            segments = Substring(path.utf8.dropFirst(urls.basePath.utf8.count)).split(separator: "/", omittingEmptySubsequences: false)
        } else {
            segments = page.split(separator: "/") + path.split(separator: "/", omittingEmptySubsequences: false)
        }
        var out: [Substring] = []
        for s in segments {
            if s == "." || s.isEmpty { continue }
            if s == ".." { _ = out.popLast() } else { out.append(s) }
        }
        return out.joined(separator: "/")
    }

    func exists(_ relative: String) -> Bool {
        let path = output.appendingPathComponent(relative).path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        return !isDir.boolValue || FileManager.default.fileExists(atPath: path + "/index.html")
    }
}
