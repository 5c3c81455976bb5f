import Foundation

/// Reads a site folder into a `Site`: settings, collections with their rows and pages joined,
/// standalone pages. Every problem found is collected and thrown together at the end.
public struct SiteLoader: Sendable {
    /// The site folder.
    public var root: URL
    /// How paths are printed in errors: the site folder as the user named it.
    public var displayRoot: String
    public var includeDrafts = false
    public var baseURLOverride: String?
    /// Bytes of Markdown bodies this load keeps for rendering (see `MarkdownSource.keep`).
    let keptBodies = Locked(0)
    /// Pages loaded by an earlier load of the same site, reused while their files are unchanged (`sift serve`).
    var memo: PageMemo?
    /// `sift build`'s pages from the last build (`PageMemo.load`), taken while their files keep
    /// their stamps, and where this load's reads are remembered for the next; the rest of
    /// `memo` (datasets, joins, listings) is `sift serve`'s alone.
    var savedPages: PageMemo?
    /// The stamps of the site's files as a walk just found them (`BuildStamps.files`), by path:
    /// a page found there is not `stat`ed again.
    var stamps: [String: FileStamp] = [:]

    static let datasetExtensions: Set<String> = ["txt", "csv", "tsv", "json", "yml", "yaml"]
    /// Output paths a collection or page may not take: what Sift writes at the top of the output, and `page`.
    static let reservedNames: Set<String> = ["assets", "search", "404.html", "sitemap.xml", "page", "index.html", HeadersFile.name]

    /// Creates a loader for a site folder.
    public init(root: URL, displayRoot: String, includeDrafts: Bool = false, baseURLOverride: String? = nil) {
        self.root = root
        self.displayRoot = displayRoot
        self.includeDrafts = includeDrafts
        self.baseURLOverride = baseURLOverride
    }

    /// The printed form of a path inside the site folder.
    public func display(_ relative: String) -> String { Self.display(relative, root: displayRoot) }

    /// A path under the site as messages print it: under `displayRoot`, the site folder as the user gave it.
    static func display(_ relative: String, root displayRoot: String) -> String {
        displayRoot.isEmpty || displayRoot == "." ? relative : (displayRoot.hasSuffix("/") ? displayRoot + relative : displayRoot + "/" + relative)
    }

    /// Loads the whole site.
    public func load() throws -> Site {
        var errors: [SiftError] = []
        let content = root.appendingPathComponent("Content")
        guard FileSystem.isDirectory(content) else {
            throw SiftError("no Content/ folder: a site needs Content/ with at least one collection or page", at: SourcePosition(path: display("Content"), line: 0))
        }
        var warnings: [SiftError] = []
        let settings = try readSiteSettings(content, errors: &errors, warnings: &warnings)

        var collections: [SiteCollection] = []
        var pages: [StandalonePage] = []
        var intro: MarkdownSource?
        var introSearchable = true
        var taken: [String: String] = [:]
        // The same names with their letters' case folded: one folder on macOS and Windows.
        var takenFolded: [String: String] = [:]
        for name in try FileSystem.sourceList(content, display: display("Content")) where !FileSystem.isHidden(name) {
            let url = content.appendingPathComponent(name)
            let rel = "Content/\(name)"
            // Skipped without a word (a folder), or said not to be there (a page).
            if FileSystem.undecodable(name, in: content.path) {
                errors.append(SiftError(FileSystem.undecodableName, at: SourcePosition(path: display(rel), line: 0)))
                continue
            }
            if FileSystem.isDirectory(url) {
                if let problem = Self.nameProblem(name) ?? Self.collectionNameProblem(name) {
                    errors.append(SiftError("collection folder '\(name)' \(problem)", at: SourcePosition(path: display(rel), line: 0)))
                    continue
                }
                // Two folders on disk, one name to Swift's String (`é` and `e` with a combining accent).
                if let other = taken[name] {
                    errors.append(SiftError("collection folder '\(name)' has the name of \(other), its letters composed otherwise: rename one", at: SourcePosition(path: display(rel), line: 0)))
                    continue
                }
                if let other = takenFolded[name.lowercased()] {
                    errors.append(SiftError("collection folder '\(name)' differs from \(other) only in case, and macOS and Windows take the two for one folder: rename one", at: SourcePosition(path: display(rel), line: 0)))
                    continue
                }
                do {
                    let (collection, found) = try loadCollection(name: name, folder: url, unsafe: settings.unsafeMarkdown)
                    collections.append(collection)
                    warnings += found
                    taken[name] = display(rel)
                    takenFolded[name.lowercased()] = display(rel)
                } catch let e as SiftError { errors.append(e) }
            } else if name.hasSuffix(".md") {
                do {
                    if memo == nil { savedPages?.ask([url.path]) }
                    let loaded = try loadPage(url.path, display: display(rel), unsafe: settings.unsafeMarkdown)
                    if name == "index.md" {
                        // A draft home text is left out, as a draft page is: the home page shows none.
                        if !includeDrafts, loaded.frontMatter?["draft"]?.boolValue == true { continue }
                        intro = loaded.page
                        introSearchable = loaded.frontMatter?["search"]?.boolValue ?? true
                        continue
                    }
                    if let page = standalonePage(loaded, rel: rel, errors: &errors) { pages.append(page) }
                } catch let e as SiftError { errors.append(e) }
            } else if Self.looksLikeAPage(name) {
                warnings.append(Self.ignoredPage(name, at: display(rel)))
            } else if Self.looksLikeSiteSettings(name),
                      // `Site.yml` on a disk that ignores case is site.yml, and read.
                      !(["site.yml", "site.yaml"].contains(name.lowercased()) && FileManager.default.fileExists(atPath: content.appendingPathComponent(name.lowercased()).path)) {
                warnings.append(SiftError("'\(name)' is ignored: the site's settings are read from site.yml (or site.yaml), named so exactly",
                                          at: SourcePosition(path: display(rel), line: 0), severity: .warning))
            }
        }
        // Pages and collections share the top level of the output.
        for page in pages {
            // At its `slug:` key when it has one, else the file's name gave it.
            let at = page.keyPositions["slug"] ?? SourcePosition(path: page.page.displayPath, line: 1, column: 1)
            if let other = taken[page.slug] {
                errors.append(SiftError("page slug '\(page.slug)' is also used by \(other)", at: at))
            } else if let other = takenFolded[page.slug.lowercased()] {
                errors.append(SiftError("page slug '\(page.slug)' differs from \(other) only in case, and macOS and Windows take the two for one folder: rename one", at: at))
            } else {
                taken[page.slug] = page.page.displayPath
                takenFolded[page.slug.lowercased()] = page.page.displayPath
            }
        }
        pages.sort { ($0.weight ?? 0, Fold.fold($0.title), $0.slug) < ($1.weight ?? 0, Fold.fold($1.title), $1.slug) }
        if let e = SiftError.combined(errors) { throw e }
        var site = Site(settings: settings, collections: collections, pages: pages, intro: intro, warnings: warnings)
        site.introSearchable = introSearchable
        return site
    }

    /// A page of Content/ other than index.md, unless it is a draft left out or its slug is taken
    /// by Sift's own output (an error).
    private func standalonePage(_ loaded: LoadedPage, rel: String, errors: inout [SiftError]) -> StandalonePage? {
        guard let fm = loaded.publishedFrontMatter(includeDrafts: includeDrafts) else { return nil }
        var page = StandalonePage(slug: loaded.slug, title: loaded.title ?? loaded.fileTitle, fields: loaded.fields, page: loaded.page)
        page.titleFromHeading = loaded.titleFromHeading
        page.weight = fm["weight"]?.doubleValue
        page.searchable = fm["search"]?.boolValue ?? true
        page.keyPositions = loaded.keyPositions
        if let problem = Self.nameProblem(page.slug) {
            errors.append(SiftError("page slug '\(page.slug)' \(problem)", at: page.keyPositions["slug"] ?? SourcePosition(path: display(rel), line: 1, column: 1)))
            return nil
        }
        return page
    }

    /// Content/site.yml, when there is one, with `--base-url` over its `base_url`; a misspelt
    /// key is a warning.
    private func readSiteSettings(_ content: URL, errors: inout [SiftError], warnings: inout [SiftError]) throws -> SiteSettings {
        var settings = SiteSettings()
        // site.yml, or site.yaml as collection.yaml is read; not both.
        let names = ["site.yml", "site.yaml"].filter { FileManager.default.fileExists(atPath: content.appendingPathComponent($0).path) }
        if names.count > 1 {
            errors.append(SiftError("a site has one settings file, found site.yml and site.yaml", at: SourcePosition(path: display("Content/site.yaml"), line: 0)))
        }
        if let name = names.first {
            let siteFile = content.appendingPathComponent(name)
            do {
                let path = display("Content/\(name)")
                let (fields, positions, keys) = try readMapping(siteFile, display: path)
                settings = try SiteSettings(fields: fields, path: path, positions: positions, keys: keys)
                warnings += SettingsKeys.site.warnings(keys)
            } catch let e as SiftError { errors.append(e) }
        }
        if let base = baseURLOverride { settings.baseURL = base }
        return settings
    }

    /// A file named as a Markdown page is, but for the exact `.md` a page's name ends in
    /// (`.markdown`, `.MD`): it would be left out without a word.
    static func looksLikeAPage(_ name: String) -> Bool {
        ["md", "markdown", "mdown", "mkd"].contains((name as NSString).pathExtension.lowercased()) && !name.hasSuffix(".md")
    }

    /// A file of Content/ named almost as the site's settings are (`Site.yml`, `site.json`,
    /// `config.yaml`): it would be left out without a word, and its `base_url` with it.
    static func looksLikeSiteSettings(_ name: String) -> Bool {
        let lower = name.lowercased(), ns = lower as NSString
        guard name != "site.yml", name != "site.yaml", ["yml", "yaml", "json", "toml"].contains(ns.pathExtension) else { return false }
        return ["site", "sites", "config", "settings"].contains(ns.deletingPathExtension)
    }

    static func ignoredPage(_ name: String, at path: String) -> SiftError {
        SiftError("'\(name)' is ignored: a page's name ends in .md", at: SourcePosition(path: path, line: 0), severity: .warning)
    }

    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        // In any case: `Search/` is `search/` on macOS and Windows, and a CDN's rules for the index's files match it.
        if isReserved(name) || isReserved(name.lowercased()) {
            return "is reserved for Sift's own output (\(reservedNames.sorted().joined(separator: ", ")), sitemap-N.xml, and their .gz and .br copies)"
        }
        if name.contains("/") || name == "." || name == ".." { return "cannot be a path" }
        if let c = SiteURLs.unsafeCharacter(in: name) {
            return "has \(SiteURLs.describe(c)) in its name, which a link cannot hold as it is: rename it (letters, digits, '-' and '_' are safe)"
        }
        return nil
    }

    /// A name no collection may take, though a standalone page may: `pages`, which the search
    /// index gives the standalone pages (`PagesCollection`, `sift search --collection pages`).
    static func collectionNameProblem(_ name: String) -> String? {
        name == PagesCollection.name ? "is the search index's name for the standalone pages (sift search --collection pages): rename the folder" : nil
    }

    /// A name Sift's own output takes: a reserved name, a sitemap's part, or the compressed copy
    /// `--precompress` writes of either (`index.html.gz`, `sitemap.xml.br`).
    static func isReserved(_ name: String) -> Bool {
        if reservedNames.contains(name) || isSitemapPart(name) { return true }
        return Precompressor.encodings.contains { encoding in
            guard name.hasSuffix("." + encoding) else { return false }
            let original = String(name.dropLast(encoding.count + 1))
            return Precompressor.wantsCopies(original) && isReserved(original)
        }
    }

    /// `sitemap-2.xml`: a part of a sitemap too long for one file (`Sitemap`).
    static func isSitemapPart(_ name: String) -> Bool {
        IndexFormat.number(in: name, prefix: "sitemap-", suffix: ".xml") != nil
    }

    func readMapping(_ url: URL, display path: String) throws -> (Fields, [String: SourcePosition], [String: SourcePosition]) {
        let text = try SourceText.decode(try FileSystem.read(url, displayPath: path), path: path)
        return try YAML.parseMapping(text, path: path)
    }

    // MARK: Collections

    /// The load stage of one collection: its settings, its dataset's rows and its pages read;
    /// then the join stage (`CollectionJoin`) makes them items, sorted when `sort` says so.
    func loadCollection(name: String, folder: URL, unsafe: Bool) throws -> (SiteCollection, [SiftError]) {
        let rel = "Content/\(name)"
        let folderPath = folder.path
        var (settings, positions, datasets, pageFiles, errors, warnings) = try listCollection(folder, rel: rel)
        // The dataset is read on a thread of its own while the pages are read on every core.
        let loader = self, dataset = datasets.first
        let datasetRead = Background { () -> Result<([Record], PageMemo.Dataset?, [SiftError], [SiftError]), Error> in
            Result {
                var errors: [SiftError] = []
                let (records, remembered, warnings) = try loader.readDataset(dataset, in: folderPath, rel: rel, errors: &errors)
                return (records, remembered, errors, warnings)
            }
        }

        // Pages are read in parallel: front matter, and the Markdown only where a title must come from it.
        let known = (memo ?? savedPages)?.snapshot()
        if memo == nil { savedPages?.ask(pageFiles.map { folderPath + "/" + $0 }) }
        let includeDrafts = includeDrafts
        let loadedPages = ParallelMap.map(pageFiles) { file -> CollectionJoin.ReadPage in
            do {
                let page = try loadPage(folderPath + "/" + file, display: display("\(rel)/\(file)"), unsafe: unsafe, known: known)
                return CollectionJoin.ReadPage(page: .success(page), head: CollectionJoin.head(of: page, includeDrafts: includeDrafts))
            } catch let e as SiftError { return CollectionJoin.ReadPage(page: .failure(e)) } catch { return CollectionJoin.ReadPage(page: .failure(SiftError("\(error)", at: nil))) }
        }
        let (records, remembered, datasetErrors, datasetWarnings) = try datasetRead.take().get()
        errors += datasetErrors
        warnings += datasetWarnings

        let firstColumn = records.first?.fields.keys.first
        let titleField = settings.titleField ?? (records.first.map { r in
            r.fields["title"] != nil ? "title" : (r.fields["name"] != nil ? "name" : (firstColumn ?? "title"))
        } ?? "title")
        let slugField = settings.slugField
        let namedKey = titleField + "\u{0}" + (slugField ?? "\u{0}")
        let named = remembered?.named[namedKey] ?? ParallelMap.map(records) { record -> (title: String, slugSource: String, slug: String) in
            let title = record.fields.value(at: titleField)?.text ?? ""
            // A blank cell or a null is no slug given, as it is no value to `sort`: the title's slug.
            func given(_ value: Value?) -> String? { value.map(\.text).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } }
            let slugSource = slugField.flatMap { given(record.fields.value(at: $0)) } ?? given(record.fields["slug"]) ?? title
            return (title, slugSource, Slug.make(slugSource))
        }
        if var remembered, let dataset = datasets.first {
            remembered.named[namedKey] = named
            memo?.setDataset(folderPath + "/" + dataset, remembered)
        }
        let titleFieldPosition = settings.titleField.map { _ in positions["title_field"] ?? SourcePosition(path: display("\(rel)/collection.yml"), line: 0) }
        var join = CollectionJoin(name: name, dataset: datasets.first, records: records, named: named, titleField: titleField, titleFieldPosition: titleFieldPosition,
                                  memo: memo, folderPath: folderPath, remembered: remembered, namedKey: namedKey)
        var items = join.items(pages: loadedPages)
        // What the items did not take of the pages read (front matter, key positions) is freed on
        // another thread: a 100k site's took 100 ms of one core while the build waited.
        let read = consume loadedPages
        DispatchQueue.global().async { withExtendedLifetime(read) {} }
        errors += join.errors
        if let field = settings.sortField {
            items = Self.sorted(items, by: field, descending: settings.sortDescending)
        }
        if let e = SiftError.combined(errors) { throw e }
        var collection = SiteCollection(name: name, settings: settings, items: items)
        collection.titleField = titleField
        collection.positions = positions
        return (collection, warnings + join.warnings)
    }

    /// A collection folder's settings (collection.yml, a misspelt key a warning), dataset files
    /// and Markdown pages.
    private func listCollection(_ folder: URL, rel: String) throws
        -> (CollectionSettings, positions: [String: SourcePosition], datasets: [String], pages: [String], errors: [SiftError], warnings: [SiftError]) {
        var errors: [SiftError] = []
        var warnings: [SiftError] = []
        var settings = CollectionSettings()
        var keyPositions: [String: SourcePosition] = [:]
        var settingsFiles = 0
        var datasets: [String] = []
        var pageFiles: [String] = []
        for file in try memo?.listing(folder, display: display(rel)) ?? FileSystem.sourceList(folder, display: display(rel)) where !FileSystem.isHidden(file) {
            if FileSystem.undecodable(file, in: folder.path) {
                errors.append(SiftError(FileSystem.undecodableName, at: SourcePosition(path: display("\(rel)/\(file)"), line: 0)))
            } else if file == "collection.yml" || file == "collection.yaml" {
                settingsFiles += 1
                do {
                    let path = display("\(rel)/\(file)")
                    let (fields, positions, keys) = try readMapping(folder.appendingPathComponent(file), display: path)
                    keyPositions = positions
                    settings = try CollectionSettings(fields: fields, path: path, positions: positions)
                    warnings += SettingsKeys.collection.warnings(keys)
                } catch let e as SiftError { errors.append(e) }
            } else if file.hasSuffix(".md") {
                pageFiles.append(file)
            } else if Self.datasetExtensions.contains((file as NSString).pathExtension.lowercased()) {
                datasets.append(file)
            } else if Self.looksLikeAPage(file) {
                warnings.append(Self.ignoredPage(file, at: display("\(rel)/\(file)")))
            } else if FileSystem.isDirectory(folder.appendingPathComponent(file)) {
                warnings.append(SiftError("folder '\(file)' is ignored: a collection's pages and dataset are at the top of its folder",
                                          at: SourcePosition(path: display("\(rel)/\(file)"), line: 0), severity: .warning))
            }
        }
        if settingsFiles > 1 {
            errors.append(SiftError("a collection has one settings file, found collection.yml and collection.yaml",
                                    at: SourcePosition(path: display("\(rel)/collection.yaml"), line: 0)))
        }
        if datasets.count > 1 {
            errors.append(SiftError("a collection has one dataset, found \(datasets.count): \(datasets.joined(separator: ", "))",
                                    at: SourcePosition(path: display("\(rel)/\(datasets[1])"), line: 0)))
        }
        return (settings, keyPositions, datasets, pageFiles, errors, warnings)
    }

    /// A dataset's rows and the warnings about it, from the session's memory while the file is
    /// unchanged (`sift serve`).
    private func readDataset(_ dataset: String?, in folderPath: String, rel: String, errors: inout [SiftError]) throws -> ([Record], PageMemo.Dataset?, [SiftError]) {
        guard let dataset else { return ([], nil, []) }
        let path = folderPath + "/" + dataset, shown = display("\(rel)/\(dataset)")
        let stamp = memo == nil ? nil : FileStamp(path)
        if let stamp, let hit = memo?.dataset(path, stamp: stamp, display: shown) { return (hit.records, hit, hit.warnings) }
        do {
            let (records, warnings) = try readDataset(URL(fileURLWithPath: path, isDirectory: false), display: shown)
            guard let stamp, let memo else { return (records, nil, warnings) }
            return (records, PageMemo.Dataset(stamp: stamp, display: shown, records: records, warnings: warnings, settled: stamp.isSettled(),
                                              generation: memo.nextVersion()), warnings)
        } catch let e as SiftError {
            errors.append(e)
        }
        return ([], nil, [])
    }

    /// Sorts by a field in the order `sift search --sort` gives (`FacetTable.ascending`): numbers
    /// first, as numbers, then text, folded, then as written; items without the field (or with it
    /// empty, as a CSV's empty cell and a JSON null are) last; ties keep their order.
    static func sorted(_ items: [Item], by field: String, descending: Bool) -> [Item] {
        let keyed = items.enumerated().map { (i, item) -> (Int, FacetTable.SortKey?) in
            (i, (field == "title" ? item.title : item.fields.value(at: field)?.text).flatMap { $0.isEmpty ? nil : FacetTable.SortKey($0) })
        }
        let order = keyed.sorted { a, b in
            guard let va = a.1 else { return false }
            guard let vb = b.1 else { return true }
            if FacetTable.ascending(va, vb) { return !descending }
            if FacetTable.ascending(vb, va) { return descending }
            return a.0 < b.0
        }
        return order.map { items[$0.0] }
    }

    /// A dataset file's rows, and the warnings about it.
    func readDataset(_ url: URL, display path: String) throws -> ([Record], [SiftError]) {
        let text = try SourceText.decode(try FileSystem.read(url, displayPath: path), path: path)
        let kind = url.pathExtension.lowercased()
        if ["txt", "csv", "tsv"].contains(kind) { try Self.refuseLoneCarriageReturns(text, path: path) }
        switch kind {
        case "txt": return (TextDataset.records(from: text, path: path), [])
        case "csv": return try CSVDataset.read(from: text, path: path)
        case "tsv": return try CSVDataset.read(from: text, path: path, separator: "\t")
        case "json": return (try JSONDataset.records(from: text, path: path), [])
        default: return (try YAMLDataset.records(from: text, path: path), [])
        }
    }

    /// A file of lines whose lines end in CR alone (old Mac OS, Excel for Mac's "CSV (Macintosh)")
    /// read as one line: no item, or one made of the whole file, without a word. It is an error at
    /// the first line's end. A CR inside a line of a file that has LF line ends is its text's.
    static func refuseLoneCarriageReturns(_ text: String, path: String) throws {
        guard !text.utf8.contains(UInt8(ascii: "\n")), let cr = text.utf8.firstIndex(of: UInt8(ascii: "\r")) else { return }
        let column = text.unicodeScalars[..<cr].count + 1
        throw SiftError("this line ends in a carriage return alone (old Mac line ends), and so does every other: save the file with LF or CRLF line ends",
                        at: SourcePosition(path: path, line: 1, column: column))
    }

    // MARK: Pages

    struct LoadedPage: Sendable {
        var slug: String
        var title: String?
        var fileTitle: String
        var titleFromHeading = false
        var fields: Fields
        /// nil for a file that is not published (a draft is still read, for its errors).
        var frontMatter: Fields?
        /// Where each front matter key is written.
        var keyPositions: [String: SourcePosition] = [:]
        var page: MarkdownSource

        /// The front matter of a page that is published: nil for a draft left out (without
        /// `--drafts`), or a file with no front matter.
        func publishedFrontMatter(includeDrafts: Bool) -> Fields? {
            guard let fm = frontMatter, includeDrafts || !(fm["draft"]?.boolValue ?? false) else { return nil }
            return fm
        }
    }

    /// A slug becomes a folder name, which Linux and macOS cap at 255 bytes.
    static func slugLengthProblem(_ slug: String) -> String? {
        let bytes = slug.utf8.count
        guard bytes > 255 else { return nil }
        return "the slug '\(slug.prefix(40))…' is \(bytes) bytes long, more than the 255 a folder name may have"
    }

    func loadPage(_ file: String, display path: String, unsafe: Bool, known: [String: PageMemo.Entry]? = nil) throws -> LoadedPage {
        guard let memo = memo ?? savedPages else { return try readPage(URL(fileURLWithPath: file, isDirectory: false), display: path, unsafe: unsafe) }
        let stamp = stamps[file] ?? FileStamp(file)
        if let stamp, let page = (known ?? memo.snapshot())[file]?.page(stamp: stamp, display: path, unsafeHTML: unsafe) { return page }
        if let stamp, let page = memo.savedPage(file, stamp: stamp, display: path, unsafeHTML: unsafe) { return page }
        let page = try readPage(URL(fileURLWithPath: file, isDirectory: false), display: path, unsafe: unsafe)
        guard let stamp else { return page }
        return memo.set(file, stamp: stamp, display: path, unsafeHTML: unsafe, page: page)
    }

    func readPage(_ url: URL, display path: String, unsafe: Bool) throws -> LoadedPage {
        let text = try SourceText.decode(try FileSystem.read(url, displayPath: path), path: path)
        let split = try FrontMatter.splitNode(text, path: path)
        if let node = split.node, let e = SiftError.combined(FrontMatter.typeErrors(node)) { throw e }
        var fields = split.node?.value.fields ?? Fields()
        let keyPositions = Dictionary((split.node?.entries ?? []).map { ($0.key, $0.keyPosition) }, uniquingKeysWith: { a, _ in a })
        let base = (url.lastPathComponent as NSString).deletingPathExtension
        let slugSource = fields["slug"]?.text ?? base
        let slug = Slug.make(slugSource)
        let slugPosition = split.node?["slug"]?.position ?? SourcePosition(path: path, line: 1, column: 1)
        if slug.isEmpty {
            throw SiftError("the slug of '\(slugSource)' is empty: set `slug:` in the front matter", at: slugPosition)
        }
        if let problem = Self.slugLengthProblem(slug) {
            throw SiftError("\(problem): set a shorter `slug:` in the front matter", at: slugPosition)
        }
        var title = fields["title"]?.text
        var fromHeading = false
        // A blank `title:` is no title given: the first heading's, else the file's name.
        if title == nil || title!.allSatisfy(\.isWhitespace) {
            title = Markdown.render(split.body, unsafe: unsafe).title
            fromHeading = title != nil
        }
        let frontMatter = fields
        for key in FrontMatter.knownKeys { fields[key] = nil }
        if let date = frontMatter["date"] { fields["date"] = date }
        let offset = text.utf8.count - split.body.utf8.count
        var source = MarkdownSource(url: url, displayPath: path, bodyOffset: offset, bodyLine: split.bodyLine)
        source.keep(split.body, budget: keptBodies)
        return LoadedPage(slug: slug, title: title, fileTitle: base, titleFromHeading: fromHeading, fields: fields, frontMatter: frontMatter,
                          keyPositions: keyPositions,
                          page: source)
    }
}
