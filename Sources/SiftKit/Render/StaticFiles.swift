import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files of Static/, beside Content/ and Templates/, copied as they are to the top of the
/// output (CNAME, robots.txt, favicon.ico, .well-known/…), as Hugo's and Zola's static/ are.
/// None may take a path Sift writes (`collisions`).
struct StaticFiles: Sendable {
    /// The folder's name in the site.
    static let folder = "Static"

    /// A file found under Static/.
    struct File: Sendable {
        /// Its path under Static/, which is its path under the output.
        var path: String
        /// Its path on disk (through the links that lead to it).
        var source: String
        var stamp: FileStamp
    }

    /// Every file, by its path's bytes.
    let files: [File]

    /// Finds the files of Static/ (hidden ones too, `.well-known/`), following links; a folder
    /// reached again through a link is not entered again. An entry that is neither a file nor
    /// a folder (a named pipe, a socket, a device, a broken link) is an error naming it, and so
    /// is every error together.
    /// A link that leads into `output` (the output folder) is an error: the build would copy
    /// the last build's output into the next, which grows by a copy of itself every build.
    init(siteFolder: URL, output: URL? = nil, display: (String) -> String) throws {
        let root = siteFolder.appendingPathComponent(Self.folder).path
        var files: [File] = [], errors: [SiftError] = []
        var walked: Set<FolderIdentity> = []
        if let id = FolderIdentity(root) { walked.insert(id) }
        let outputReal = output.flatMap { StaticSite.realPath($0.path) }
        Self.walk(root, relative: "", display: display, output: outputReal, files: &files, errors: &errors, walked: &walked)
        if let e = SiftError.combined(errors) { throw e }
        self.files = files
    }

    private static func walk(_ path: String, relative: String, display: (String) -> String, output: String?,
                             files: inout [File], errors: inout [SiftError], walked: inout Set<FolderIdentity>) {
        let names = FileSystem.sourceList(URL(fileURLWithPath: path, isDirectory: true), display: display(relative.isEmpty ? folder : "\(folder)/\(relative)"), errors: &errors)
        for name in names {
            let source = path + "/" + name, rel = relative.isEmpty ? name : relative + "/" + name
            if FileSystem.undecodable(name, in: path) {
                errors.append(SiftError(FileSystem.undecodableName, at: SourcePosition(path: display("\(folder)/\(rel)"), line: 0)))
                continue
            }
            var st = stat()
            guard stat(source, &st) == 0 else {
                errors.append(SiftError("cannot read file: \(FileSystem.errorText())", at: SourcePosition(path: display("\(folder)/\(rel)"), line: 0)))
                continue
            }
            if st.st_mode & S_IFMT == S_IFDIR {
                if let output, let real = StaticSite.realPath(source), StaticSite.isInside(real, output) {
                    errors.append(SiftError("this folder leads into the output folder, which a build would copy into itself: remove the link",
                                            at: SourcePosition(path: display("\(folder)/\(rel)"), line: 0)))
                    continue
                }
                if walked.insert(FolderIdentity(st)).inserted { walk(source, relative: rel, display: display, output: output, files: &files, errors: &errors, walked: &walked) }
            } else if let kind = FileSystem.notRegular(st) {
                errors.append(SiftError("cannot read file: not a regular file but \(kind)", at: SourcePosition(path: display("\(folder)/\(rel)"), line: 0)))
            } else {
                files.append(File(path: rel, source: source, stamp: FileStamp(st)))
            }
        }
    }

    /// A warning when the site holds `static/` and no `Static/` (Hugo's and Zola's name, which
    /// Sift would leave out without a word).
    static func misnamedFolder(siteFolder: URL, display: (String) -> String) -> SiftError? {
        let names = FileSystem.list(siteFolder)
        guard let name = names.first(where: { $0 != folder && $0.lowercased() == folder.lowercased() }), !names.contains(folder),
              FileSystem.isDirectory(siteFolder.appendingPathComponent(name)) else { return nil }
        return SiftError("folder '\(name)' is not read: static files go in \(folder)/", at: SourcePosition(path: display(name), line: 0), severity: .warning)
    }

    // MARK: Collisions

    /// An error for each file that takes a path Sift writes, naming both: a page (its
    /// `index.html`), `index.html`, `404.html`, `_headers`, a sitemap, anything under `assets/`
    /// or `search/`, the `.gz` and `.br` copies `--precompress` writes of those (whether or not
    /// the build precompresses), a folder Sift writes a page into, or a path under one of its files.
    func collisions(with site: Site, display: (String) -> String) -> [SiftError] {
        guard !files.isEmpty else { return [] }
        // Only the collections and pages a static file's first folder names: a build of a million
        // items with a robots.txt does not list a million paths.
        let pages = Self.written(by: site, under: Set(files.map { String($0.path.split(separator: "/", maxSplits: 1)[0]) }))
        // Each folder Sift writes, for the file it writes there: its own index.html, else the first.
        var folders: [String: String] = [:]
        for path in pages.keys.sorted() {
            var dir = FileSystem.parent(of: path)
            if let d = dir { folders[d] = pages[d + "/index.html"] ?? folders[d] ?? pages[path] }
            dir = dir.flatMap(FileSystem.parent(of:))
            while let d = dir, folders[d] == nil { folders[d] = pages[d + "/index.html"] ?? pages[path]; dir = FileSystem.parent(of: d) }
        }
        var written = pages
        for (path, what) in pages where Precompressor.wantsCopies(path) {
            for encoding in Precompressor.encodings { written[path + "." + encoding] = "the .\(encoding) copy (--precompress) of \(what)" }
        }
        return files.compactMap { file in
            guard let problem = Self.collision(file.path, written: written, folders: folders) else { return nil }
            return SiftError("static file '\(file.path)' \(problem): rename or move it",
                             at: SourcePosition(path: display("\(Self.folder)/\(file.path)"), line: 0))
        }
    }

    /// How a path of the output collides with what Sift writes; nil when it does not.
    private static func collision(_ path: String, written: [String: String], folders: [String: String]) -> String? {
        let top = path.split(separator: "/", maxSplits: 1)[0]
        if let folder = ownedFolders[String(top)] { return "is inside \(top)/, where Sift writes \(folder)" }
        if let what = written[path] { return "takes the path of \(what), which Sift writes" }
        if SiteLoader.isSitemapPart(String(top)) || isCompressedSitemapPart(String(top)) {
            return "takes the name of a part of the sitemap (sitemap-N.xml), which Sift writes"
        }
        if let what = folders[path] { return "is a file where Sift writes a folder, for \(what)" }
        var dir = FileSystem.parent(of: path)
        while let d = dir {
            if let what = written[d] { return "is inside '\(d)', the path of \(what), which Sift writes" }
            dir = FileSystem.parent(of: d)
        }
        return nil
    }

    /// The folders at the top of the output that are Sift's alone, and what is in them.
    private static let ownedFolders = ["assets": "the site's assets (yours go in Templates/assets/)", "search": "the search index"]

    private static func isCompressedSitemapPart(_ name: String) -> Bool {
        Precompressor.encodings.contains { name.hasSuffix("." + $0) && SiteLoader.isSitemapPart(String(name.dropLast($0.count + 1))) }
    }

    /// Every file Sift writes outside assets/ and search/ (sitemap parts aside, which depend on
    /// the number of pages), with what it is for: the files at the output's top, and those of
    /// the pages and collections named in `tops`.
    static func written(by site: Site, under tops: Set<String>) -> [String: String] {
        var out: [String: String] = [
            "index.html": "the home page", "404.html": "the page for a missing page",
            HeadersFile.name: "the hosts' headers file", "sitemap.xml": "the sitemap",
        ]
        for p in site.pages where tops.contains(p.slug) { out["\(p.slug)/index.html"] = "the page of \(p.page.displayPath)" }
        for c in site.collections where tops.contains(c.name) {
            let list = "the list of the collection '\(c.name)'"
            out[SiteURLs.listPage(c.name, 1) + "index.html"] = list
            let size = c.settings.pageSize(items: c.items.count)
            let pages = max(1, (c.items.count + size - 1) / size)
            if pages > 1 { for n in 2...pages { out[SiteURLs.listPage(c.name, n) + "index.html"] = "page \(n) of \(list)" } }
            for i in c.items.indices { out[SiteURLs.item(c.name, c.items[i].slug) + "index.html"] = "the page of \(c.items[i].source)" }
        }
        return out
    }

    // MARK: Writing

    /// Copies every file into the output: a file whose stamp the last build recorded (`record`'s
    /// key for its path) is kept from the last output as it is, without being read; any other is
    /// read and written. A key is recorded only for a file settled before `start` (a file
    /// changed within the second could change again with the same stamp). On every core.
    func write(to writer: OutputWriter, prior: (any BuildRecord)?, next: (any BuildRecord)?, start: Date, display: (String) -> String) throws {
        let done = ParallelMap.map(files) { file -> Result<UInt64?, SiftError> in
            let key = Self.key(file)
            let settled = file.stamp.isSettled(at: start)
            if !(settled && prior?.page(file.path) == key && writer.linkFromPrevious(file.path)) {
                do {
                    try writer.copy(path: file.source, displayPath: display("\(Self.folder)/\(file.path)"), to: file.path)
                } catch let e as SiftError {
                    return .failure(e)
                } catch {
                    return .failure(SiftError("cannot copy \(Self.folder)/\(file.path): \(error)", at: nil))
                }
            }
            return .success(settled ? key : nil)
        }
        var keys: [(path: String, key: UInt64)] = [], errors: [SiftError] = []
        for (file, result) in zip(files, done) {
            switch result {
            case .success(let key?): keys.append((file.path, key))
            case .success(nil): break
            case .failure(let e): errors.append(e)
            }
        }
        next?.setPages(keys)
        if let e = SiftError.combined(errors) { throw e }
    }

    /// The key of a file as found: where it is read from and its stamp.
    private static func key(_ file: File) -> UInt64 {
        var h = StableHasher()
        h.combine("static")
        h.combine(file.source)
        let stamp = file.stamp
        for n in [stamp.seconds, stamp.nanoseconds, stamp.size, Int(bitPattern: stamp.inode), stamp.changeSeconds, stamp.changeNanoseconds] {
            h.combine(UInt64(bitPattern: Int64(n)))
        }
        return h.finalize()
    }
}
