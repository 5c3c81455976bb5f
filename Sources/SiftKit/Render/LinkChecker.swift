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
                let at = SourcePosition(path: source.displayPath, line: source.bodyLine + link.line - 1, column: link.column)
                if let meant = underBase(link.url) {
                    warnings.append(SiftError("link to \(link.url) leaves the base path \(urls.basePath) the site is served under: write \(meant)", at: at, severity: .warning))
                    continue
                }
                guard let target = resolve(link.url, from: page), !exists(target) else { continue }
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
            // Outside the base path: another site of the host's (`underBase` tells of a page of this one).
            guard path.utf8.starts(with: urls.basePath.utf8) || path + "/" == urls.basePath else { return nil }
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

    /// A link from the host's root that leaves the base path (`/f/a/` on a site served under
    /// /docs/) to where a page of the site is under it: that page's link (`/docs/f/a/`), which the
    /// author meant. The link as written opens the host's /f/a/, which `sift serve` (serving the
    /// site at /) hid.
    func underBase(_ url: String) -> String? {
        guard urls.basePath != "/", url.utf8.first == UInt8(ascii: "/"), !url.utf8.starts(with: "//".utf8),
              !url.utf8.starts(with: urls.basePath.utf8), url + "/" != urls.basePath else { return nil }
        let meant = urls.basePath + String(Substring(url.utf8.dropFirst()))
        guard let target = resolve(meant, from: ""), exists(target) else { return nil }
        return meant
    }

    func exists(_ relative: String) -> Bool {
        let path = output.appendingPathComponent(relative).path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        return !isDir.boolValue || FileManager.default.fileExists(atPath: path + "/index.html")
    }
}
