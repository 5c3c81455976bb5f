import Foundation

/// The files of public/assets/: the built-in ones, the theme's variables and Templates/assets,
/// each under its own name and under its immutable name (docs/deploy.md, "Immutable names"),
/// which is the one templates get as `assets.NAME`.
struct SiteAssets: Sendable {
    /// Every file by its path under assets/, in the order written: a site's own replaces a built-in one.
    let files: [(path: String, bytes: [UInt8])]
    /// Each file's immutable path under assets/.
    let hashed: [String: String]

    /// Reads Templates/assets (links skipped, so nothing outside the site is read) over the
    /// built-in assets; an error names a file by `display` of its path under the site.
    init(site: Site, siteFolder: URL, display: (String) -> String = { $0 }) throws {
        var files = BuiltinResources.assets.map { (path: $0.0, bytes: $0.1) }
        if !site.settings.theme.isEmpty {
            let vars = site.settings.theme.map { "--sift-\($0.key.replacingOccurrences(of: "_", with: "-")):\($0.value)" }
            files.append(("theme.css", Array(":root{\(vars.joined(separator: ";"))}\n".utf8)))
        }
        var errors: [SiftError] = []
        for (path, bytes) in try Self.tree(siteFolder.appendingPathComponent("Templates/assets"), relative: "", display: display) {
            if let c = SiteURLs.unsafeCharacter(in: path) {
                errors.append(SiftError("asset '\(path)' has \(SiteURLs.describe(c)) in its name, which a link cannot hold as it is: rename it (letters, digits, '-', '_' and '.' are safe)",
                                        at: SourcePosition(path: display("Templates/assets/\(path)"), line: 0)))
            }
            // Its immutable copy adds `.HASH` (13 bytes) to the name, and `--precompress` `.gz` or `.br`:
            // past 255 bytes the build failed writing it, naming a staging folder, not the asset.
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if name.utf8.count + Self.addedBytes > FileSystem.maximumNameBytes {
                errors.append(SiftError("asset '\(path)' has a name of \(name.utf8.count) bytes: with the \(Self.addedBytes) its hashed and compressed copies add, it passes the \(FileSystem.maximumNameBytes) a file name may have; shorten it",
                                        at: SourcePosition(path: display("Templates/assets/\(path)"), line: 0)))
            }
            if let i = files.firstIndex(where: { $0.path == path }) { files[i].bytes = bytes } else { files.append((path, bytes)) }
        }
        // Two files one template name (`a-b.css`, `a_b.css`: assets.a_b_css) would leave one unreachable.
        var named: [String: String] = [:]
        for (path, _) in files {
            let name = Self.templateName(path)
            if let other = named[name], other != path {
                errors.append(SiftError("assets '\(other)' and '\(path)' have one template name, assets.\(name): rename one",
                                        at: SourcePosition(path: display("Templates/assets/\(path)"), line: 0)))
            }
            named[name] = path
        }
        if let e = SiftError.combined(errors) { throw e }
        self.files = files
        self.hashed = Self.immutableNames(files)
    }

    /// What an asset's longest copy adds to its name: `.` and a 12-digit hash, then `.gz` or `.br`.
    static let addedBytes = 13 + Precompressor.addedBytes

    /// A path's template name: each run of characters other than letters and digits as `_`.
    static func templateName(_ path: String) -> String {
        path.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).joined(separator: "_")
    }

    /// The search bar's modules import one another (`"./sift-core.js"`, and back from
    /// sift-facets.js): their immutable copies import the immutable names instead, so each name
    /// hashes the bytes of every module together, a cycle needing no order.
    static let modules = Set(BuiltinResources.assets.map(\.0).filter { $0.hasSuffix(".js") })

    private static func immutableNames(_ files: [(path: String, bytes: [UInt8])]) -> [String: String] {
        var together: [UInt8] = []
        for (path, bytes) in files where modules.contains(path) { together += Array(path.utf8) + [0] + bytes }
        var hashed: [String: String] = [:]
        for (path, bytes) in files {
            hashed[path] = ContentHash.name(path, for: modules.contains(path) ? bytes + [0] + together : bytes)
        }
        return hashed
    }

    /// The bytes of a file's immutable copy: a module's imports of the others by their immutable names.
    private static func immutableBytes(_ path: String, _ bytes: [UInt8], _ hashed: [String: String]) -> [UInt8] {
        guard modules.contains(path) else { return bytes }
        var out = bytes
        for module in modules.sorted() { out = replacing(Array("\"./\(module)\"".utf8), with: Array("\"./\(hashed[module]!)\"".utf8), in: out) }
        return out
    }

    /// `bytes` with every occurrence of `needle` replaced, left to right (Foundation's
    /// `replacingOccurrences` took 30 ms of every build on the modules' 60 KB).
    static func replacing(_ needle: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard let first = needle.first, needle.count <= bytes.count else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0, copied = 0
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first && bytes[i..<i + needle.count].elementsEqual(needle) {
                out += bytes[copied..<i]
                out += replacement
                i += needle.count
                copied = i
            } else {
                i += 1
            }
        }
        out += bytes[copied...]
        return out
    }

    /// The template names of the assets: every path with each run of characters other than
    /// letters and digits as `_` (`sift.js` → `sift_js`, `img/logo.png` → `img_logo_png`), each
    /// the file's immutable path under the output, and `css` for site.css.
    func templateNames() -> [String: String] {
        var names: [String: String] = [:]
        for (path, _) in files {
            names[Self.templateName(path)] = "assets/" + hashed[path]!
        }
        names["css"] = names["site_css"]
        return names
    }

    /// Writes every file under both names.
    func write(to writer: OutputWriter) throws {
        for (path, bytes) in files {
            try writer.write("assets/\(path)", bytes)
            try writer.write("assets/" + hashed[path]!, Self.immutableBytes(path, bytes, hashed))
        }
    }

    /// The files of a folder by their path under it.
    private static func tree(_ folder: URL, relative: String, display: (String) -> String) throws -> [(String, [UInt8])] {
        guard FileSystem.isDirectory(folder) else { return [] }
        var out: [(String, [UInt8])] = []
        func shown(_ path: String) -> String { display("Templates/assets" + (path.isEmpty ? "" : "/" + path)) }
        for name in try FileSystem.sourceList(folder, display: shown(relative)).sorted() where !FileSystem.isHidden(name) {
            let url = folder.appendingPathComponent(name)
            let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
            if type == .typeSymbolicLink { continue }
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            if type == .typeDirectory { out += try tree(url, relative: path, display: display) } else { out.append((path, try FileSystem.read(url, displayPath: shown(path)))) }
        }
        return out
    }
}
