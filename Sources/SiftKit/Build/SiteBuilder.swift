import Foundation

/// The whole build, in stages: load (and join) → render → index → write, into a staging
/// folder that replaces the output only when everything succeeded. What differs between
/// `sift build`, `--clean`, `sift serve` and `sift check` is the `BuildMode`, which the
/// stages consult.
public struct SiteBuilder: Sendable {
    /// What `sift build` was asked to do.
    public struct Options: Sendable {
        public var site: URL
        /// The site folder as the user named it, for printing paths.
        public var displayRoot: String
        public var output: URL?
        public var baseURL: String?
        public var drafts = false
        /// Called as the build goes with the stage, items done and items in all (0: unknown), for progress lines.
        public var progress: (@Sendable (_ stage: String, _ done: Int, _ total: Int) -> Void)?
        /// What the build is for: incremental by default (`.sift-cache/`).
        public var mode = BuildMode.incremental
        /// The version of sift that builds, recorded in the cache so another version's is ignored.
        public var version = ""
        /// `--precompress`: `.gz` and `.br` beside every text file over 1 KB; nil leaves it to site.yml.
        public var precompress: Bool?
        /// The search index's sharding (threshold and shard target, in bytes of word entries, and
        /// the weight of a heavy term's words, `SearchIndexBuilder.heavyTermBytes`), for tests that
        /// need a small site sharded; nil: the defaults. The environment's
        /// `SIFT_SHARDING="THRESHOLD TARGET [HEAVY]"` sets it, for the tests that build with `sift`.
        var indexSharding: (threshold: Int, target: Int, heavy: Int)? = ProcessInfo.processInfo.environment["SIFT_SHARDING"].flatMap { text in
            let numbers = text.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2 || numbers.count == 3 else { return nil }
            return (max(0, numbers[0]), max(1, numbers[1]), numbers.count == 3 ? max(1, numbers[2]) : SearchIndexBuilder.heavyTermBytesDefault)
        }
        /// The documents from which the index carries short terms' answers (`SearchIndexBuilder.answersFrom`);
        /// the environment's `SIFT_ANSWERS_FROM` when set, for tests that build a small site with them.
        var answersFrom = ProcessInfo.processInfo.environment["SIFT_ANSWERS_FROM"].flatMap { Int($0) } ?? SearchIndexBuilder.answersFromDefault
        /// The documents from which the index takes the ranked layout (`SearchIndexBuilder.rankedFrom`,
        /// version 6); the environment's `SIFT_RANKED_FROM` when set, for tests: off by default
        /// until sift-core.js reads it.
        var rankedFrom = ProcessInfo.processInfo.environment["SIFT_RANKED_FROM"].flatMap { Int($0) } ?? SearchIndexBuilder.rankedFromDefault
        /// The documents of a part of a document table (`SearchIndexBuilder.docsPart`); the
        /// environment's `SIFT_DOCS_PART` sets it, as the tests do to split small sites' tables.
        var docsPart = ProcessInfo.processInfo.environment["SIFT_DOCS_PART"].flatMap { Int($0) }.map { max(1, $0) } ?? SearchIndexBuilder.docsPartDefault
        /// Told once when the build waits for another build of the same site to finish (`BuildLock`).
        public var waiting: (@Sendable () -> Void)?
        /// The share of the output's files an incremental build may change in place before it
        /// swaps in a whole new folder instead (`OutputWriter.inPlaceShare`); tests set 0 or 1.
        var inPlaceShare = 0.125

        /// Options for a site folder.
        public init(site: URL, displayRoot: String = ".", output: URL? = nil, baseURL: String? = nil, drafts: Bool = false) {
            self.site = site
            self.displayRoot = displayRoot
            self.output = output
            self.baseURL = baseURL
            self.drafts = drafts
        }
    }

    /// What a finished build made.
    public struct Report: Sendable {
        public var pages = 0
        public var items: [(collection: String, count: Int)] = []
        /// The files copied from Static/.
        public var staticFiles = 0
        public var seconds = 0.0
        public var output: URL
        /// Problems that did not stop the build, and notes on what it chose (severity `.note`).
        public var warnings: [SiftError] = []
        /// The search index's bytes, when known without reading the output (a build that had nothing to do).
        public var indexBytes: Int?
        /// Wall-clock seconds per stage, in order, and the process's peak memory when it ended,
        /// for `sift build --timings` and `make bench`.
        public var stages: [(stage: String, seconds: Double, peakBytes: Int)] = []

        mutating func lap(_ stage: String, since: inout Date) {
            let now = Date()
            stages.append((stage, now.timeIntervalSince(since), FileSystem.peakMemory()))
            since = now
        }
    }

    public var options: Options

    /// Creates a builder.
    public init(options: Options) { self.options = options }

    /// The output folder: `--output`, else public/ in the site; when that is a link to a folder
    /// (public/ linked to the folder a server serves), the folder it leads to, which a build
    /// replaces: replacing the link left the served folder as it was, without a word.
    public var outputURL: URL {
        let url = (options.output ?? options.site.appendingPathComponent("public")).standardizedFileURL
        var st = stat()
        guard lstat(url.path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK, let real = realpath(url.path, nil) else { return url }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real))
    }

    /// Builds the site; on any error nothing in the output changes and every error is thrown
    /// together. An incremental build whose sources all have the stamps the last one recorded
    /// (`BuildStamps`) returns that build's report and touches nothing.
    @discardableResult
    public func build() throws -> Report {
        let lock = options.mode.writesOutput ? BuildLock(site: options.site) { options.waiting?() } : nil
        defer { withExtendedLifetime(lock) {} }
        do {
            return try buildLocked()
        } catch let damage as CacheDamage {
            // The cache is read a record at a time, as the build asks: one found damaged that
            // late fails this build only, which starts again without the cache.
            DiskCache.remove(site: options.site)
            do { return try buildLocked() } catch let again as CacheDamage {
                throw SiftError("cannot read \(again.what) (first \(damage.what))", at: nil)
            }
        }
    }

    /// The build, with the site's build lock held.
    private func buildLocked() throws -> Report {
        let start = Date()
        // The last build's pages, page keys and digest index are read on other threads from
        // the moment the walk of the sources finds one changed (not at all when none did).
        var savedPages: Background<PageMemo?>?
        var previous: Background<DiskCache?>?
        var startReading: (() -> Void)?
        if case .incremental = options.mode {
            let site = options.site, output = outputURL.path, version = options.version
            startReading = {
                savedPages = Background { PageMemo.load(site: site, version: version) }
                previous = Background { DiskCache.load(site: site, output: output, version: version) }
            }
        }
        // `sift serve`: whether the output is as the last build left it, looked at while the sources load.
        let output = outputURL.path
        let outputUnchanged = options.mode.session.map { session in Background { session.outputUnchanged(output: output) } }
        var stamps = options.mode.keepsStamps ? BuildStamps(options, output: outputURL, changed: startReading) : nil
        if case .incremental = options.mode, let report = stamps?.unchanged(site: options.site, output: outputURL, start: start) {
            return report
        }
        stamps?.finishWalk(output: outputURL)
        // The pages read are saved while the build goes on, and whole before it returns.
        let saving = DispatchGroup()
        defer { saving.wait() }
        let (site, templates, staticFiles, warnings) = try load(stamps: stamps?.files ?? [:], savedPages: savedPages, saving: saving)
        let target = try BuildTarget.open(options.mode, site: options.site, output: outputURL, version: options.version,
                                           inPlaceShare: options.inPlaceShare, previous: previous, outputUnchanged: outputUnchanged)
        do {
            var report = try render(site, templates: templates, staticFiles: staticFiles, into: target, start: start)
            report.warnings = warnings + report.warnings
            var lap = Date()
            // The commit clears .sift-cache/ of the files it does not know: the memo's temporary file among them.
            saving.wait()
            // The index's size, for the summary and the stamps: the last build's with what an
            // in-place commit changed, else taken from the output in place while the cache is saved.
            var indexBytes: Int?
            // And the output's folders as the build leaves them, for the next to know nothing changed in it.
            var folders: OutputFolders?
            let search = outputURL.appendingPathComponent("search"), last = stamps?.lastIndexBytes
            try target.commit {
                guard stamps != nil && options.mode.writesOutput else { return }
                let now = OutputFolders.now()
                folders = OutputFolders(files: target.writer.files ?? [:], keeping: target.writer.sameFolders ? stamps?.lastOutputFolders : nil, written: now)
                indexBytes = last.flatMap { last in target.writer.indexChange.map { last + $0 } } ?? BuildCommand.treeSize(search)
            }
            if options.mode.writesOutput {
                report.lap("commit", since: &lap)
                report.indexBytes = indexBytes
                report.seconds = Date().timeIntervalSince(start)
            }
            if let folders { stamps?.save(report, site: options.site, output: outputURL, folders: folders) }
            ProcessMemory.keep((site, templates, target), mode: options.mode)
            return report
        } catch {
            target.discard()
            throw error
        }
    }

    // MARK: Load

    /// The load stage: the site read and joined (`SiteLoader`), the templates, Static/'s files, and the checks
    /// that need the whole site; every error of them all is thrown together. A `sift build` saves
    /// the pages it read for the next (an incremental one starts from the last's) at once, on a
    /// thread of `saving` while the build goes on: they are the files' as they are, whatever the
    /// build does next, and held to the end they would add 70 MB to a 100k build's peak.
    func load(stamps: [String: FileStamp] = [:], savedPages: Background<PageMemo?>? = nil, saving: DispatchGroup) throws
        -> (Site, TemplateSet, StaticFiles, warnings: [SiftError]) {
        options.progress?("loading", 0, 0)
        var loader = SiteLoader(root: options.site, displayRoot: options.displayRoot, includeDrafts: options.drafts, baseURLOverride: options.baseURL)
        loader.memo = options.mode.session?.pages
        loader.stamps = stamps
        if options.mode.keepsStamps {
            if case .incremental = options.mode { loader.savedPages = savedPages.map { $0.take() } ?? PageMemo.load(site: options.site, version: options.version) }
            loader.savedPages = loader.savedPages ?? PageMemo()
        }
        var errors: [SiftError] = []
        var loadedSite: Site?
        do { loadedSite = try loader.load() } catch let e as SiftError { errors.append(e) }
        if let memo = loader.savedPages {
            let site = options.site, version = options.version
            DispatchQueue.global().async(group: saving) { memo.save(site: site, version: version) }
        }
        loader.savedPages = nil
        var templates: TemplateSet?
        do { templates = try TemplateSet(siteTemplates: options.site.appendingPathComponent("Templates"), display: loader.display) } catch let e as SiftError { errors.append(e) }
        var staticFiles: StaticFiles?
        do { staticFiles = try StaticFiles(siteFolder: options.site, output: outputURL, display: loader.display) } catch let e as SiftError { errors.append(e) }
        try checkOutput()
        if let e = SiftError.combined(errors) { throw e }
        guard let site = loadedSite, let templates, let staticFiles else { throw SiftError("build failed", at: nil) }
        var warnings = try validate(site, staticFiles: staticFiles, display: loader.display) + frontMatterWarnings(site, templates: templates)
            + templates.unusedWarnings(collections: site.collections.map(\.name))
        if let misnamed = StaticFiles.misnamedFolder(siteFolder: options.site, display: loader.display) { warnings.insert(misnamed, at: 0) }
        return (site, templates, staticFiles, warnings)
    }

    /// Refuses an output folder that holds, or sits inside, the site's sources or its cache, and
    /// a link that leads nowhere (a build would put a folder in its place).
    func checkOutput() throws {
        var st = stat()
        if lstat(outputURL.path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK {
            throw SiftError("the output \(outputURL.path) is a link to a folder that does not exist: create the folder, or remove the link", at: nil)
        }
        let out = outputURL.resolvingSymlinksInPath().path + "/"
        let site = options.site.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        // The sources, and the build's own cache (an output there would be published with the cache's files, and wipe it).
        let sources = ["Content/", "Templates/", StaticFiles.folder + "/", ".sift-cache/"].map { site + $0 }
        // Bytes, not characters: a folder whose name starts with a combining mark is still inside.
        if site.utf8.starts(with: out.utf8) || sources.contains(where: { out.utf8.starts(with: $0.utf8) }) || out == "/" {
            throw SiftError("the output folder \(outputURL.path) would replace the site's own files: choose another --output", at: nil)
        }
        if options.mode.writesOutput { try Self.checkOwnership(of: outputURL) }
    }

    /// Refuses an output that is not a site sift built: a build puts a whole new folder in its
    /// place, so the files of a folder given as `--output` by mistake (a home folder, a project's
    /// docs/) would be lost. A missing or empty folder is taken, and so is one holding only the
    /// hidden entries of a folder a site is published from (`publishingEntries`: a Git checkout's,
    /// which the build carries over); a home folder's dotfiles are not among them. Any other must
    /// hold the search manifest every build writes, or the search bar's script: a manifest deleted
    /// by hand left a folder that no build, `--clean` included, would write again.
    static func checkOwnership(of output: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            throw SiftError("the output \(output.path) is a file, not a folder: choose another --output", at: nil)
        }
        let names = FileSystem.list(output).filter { !FileSystem.isHidden($0) || !publishingEntries.contains($0) }
        let script = { FileSystem.list(output.appendingPathComponent("assets")).contains { $0.hasPrefix("sift.") && $0.hasSuffix(".js") } }
        guard !names.isEmpty, !FileManager.default.fileExists(atPath: output.appendingPathComponent("search/manifest.json").path), !script() else { return }
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
        throw SiftError("the output folder \(output.path) holds files sift did not write (\(shown)), which a build would replace: "
                        + "choose an empty or new folder, or move them away", at: nil)
    }

    /// The hidden entries a folder a site is published from may hold before sift first builds into
    /// it: a Git checkout's (a GitHub Pages branch) and the files hosts read.
    static let publishingEntries: Set<String> = [".git", ".gitignore", ".gitattributes", ".gitkeep", ".gitmodules", ".keep",
                                                 ".nojekyll", ".well-known", ".htaccess", ".domains", ".DS_Store"]

    /// A standalone page's front matter key that has no meaning of its own and that no template
    /// uses: a warning at the key, naming the closest known key or template variable.
    func frontMatterWarnings(_ site: Site, templates: TemplateSet) -> [SiftError] {
        let keys = SettingsKeys(known: FrontMatter.knownKeys + templates.names, open: [])
        return site.pages.flatMap { keys.warnings($0.keyPositions) }
    }

    /// Checks that need the whole site; returns the warnings, throws the errors.
    func validate(_ site: Site, staticFiles: StaticFiles, display: (String) -> String) throws -> [SiftError] {
        var errors: [SiftError] = staticFiles.collisions(with: site, display: display)
        for c in site.collections where (c.settings.perPage ?? 0) > 0 {
            for i in c.items.indices where c.items[i].slug == "page" {
                errors.append(SiftError("slug 'page' is taken by the list's pagination (/\(c.name)/page/2/): give the item another slug", at: c.items[i].source))
            }
        }
        for c in site.collections {
            guard let field = c.settings.scopeField else { continue }
            // A scope is one text: a list or a map (YAML, JSON, front matter) gave the item none.
            for i in c.items.indices {
                let kind: String
                switch c.items[i].fields.value(at: field) {
                case .list: kind = "a list"
                case .map: kind = "a map"
                default: continue
                }
                errors.append(SiftError("\(field) holds \(kind), and an item is in one scope: this one is in none; give it one value",
                                        at: c.items[i].source, severity: .warning))
            }
            guard !c.settings.scopes.isEmpty else { continue }
            let scopes = Set(c.settings.scopes)
            for i in c.items.indices {
                guard let scope = c.scope(at: i), !scope.isEmpty, !scopes.contains(scope) else { continue }
                errors.append(SiftError("\(field) '\(scope)' is not one of the scopes \(c.settings.scopes.joined(separator: ", ")) in collection.yml", at: c.items[i].source, severity: .warning))
            }
        }
        errors += unheldFields(site)
        errors += untitledItems(site)
        if let e = SiftError.combined(errors.filter { $0.severity == .error }) { throw e }
        return site.warnings + errors.filter { $0.severity == .warning } + paginationNotes(site, display: display)
    }

    /// A warning for each field a collection.yml names that no item of the collection has (`title`
    /// aside, which every item has): a misspelt `scope_field` leaves every item without a scope,
    /// a misspelt facet offers no value, and neither fails the build.
    func unheldFields(_ site: Site) -> [SiftError] {
        site.collections.flatMap { c -> [SiftError] in
            var held: [String: Bool] = [:]
            return c.settings.namedFields.compactMap { key, field in
                guard field != "title", !c.items.isEmpty else { return nil }
                if held[field] == nil { held[field] = c.items.contains { $0.fields.value(at: field) != nil } }
                guard held[field] == false else { return nil }
                let position = c.positions[key] ?? SourcePosition(path: "Content/\(c.name)/collection.yml", line: 0)
                let names = c.items[0].fields.keys.prefix(8).map { "'\($0)'" }.joined(separator: ", ")
                return SiftError("\(key): no item of '\(c.name)' has a field '\(field)' (the first item's fields: \(names))", at: position, severity: .warning)
            }
        }
    }

    /// A warning for each item whose title is empty or blank (its title field empty, and no
    /// level-1 heading on its page to take one from): its page's `<h1>` and `<title>` and its row's
    /// link would be empty, a link no screen reader can name.
    func untitledItems(_ site: Site) -> [SiftError] {
        site.collections.flatMap { c in
            // By index, each title read in place: `filter` would copy every item it looks at.
            c.items.indices.filter { Self.isBlank(c.items[$0].title) }.map { i in
                SiftError("'\(c.items[i].slug)' has no title: its '\(c.titleField)' is empty and it has no page with a level-1 heading to take one from",
                          at: c.items[i].source, severity: .warning)
            }
        }
    }

    /// Whether a title is empty or white space only; a title starting with a printable ASCII
    /// character is not, without looking up its characters' Unicode properties.
    static func isBlank(_ title: String) -> Bool {
        if let first = title.utf8.first, first > 0x20 && first < 0x7F { return false }
        return title.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    /// A note for each list paginated for its length alone, saying how and what keeps one page.
    func paginationNotes(_ site: Site, display: (String) -> String) -> [SiftError] {
        site.collections.filter { $0.settings.paginatesForLength(items: $0.items.count) }.map { c in
            let size = c.settings.pageSize(items: c.items.count), pages = (c.items.count + size - 1) / size
            return SiftError("the list of \(c.items.count) items is paginated, \(size) a page (/\(c.name)/ to /\(SiteURLs.listPage(c.name, pages))), "
                             + "as every list of more than \(CollectionSettings.longList) is: per_page: 0 keeps one page, per_page: N sets the size",
                             at: SourcePosition(path: display("Content/\(c.name)/collection.yml"), line: 0), severity: .note)
        }
    }

    // MARK: Render, index, write

    /// The stages after loading: standalone pages, then each collection's lists and items with
    /// their search records fed to the index, then assets, sitemap, Static/'s files and the index written.
    func render(_ site: Site, templates: TemplateSet, staticFiles: StaticFiles, into target: BuildTarget, start: Date) throws -> Report {
        var report = Report(output: outputURL)
        var lap = start
        report.lap("load", since: &lap)
        let displayRoot = options.displayRoot
        let assets = try SiteAssets(site: site, siteFolder: options.site) { SiteLoader.display($0, root: displayRoot) }
        let renderer = PageRenderer(site: site, templates: templates, assets: assets, writer: target.writer, checksLinks: options.mode.checksLinks)
        // The index's folder of the last build's output, listed while the pages are made.
        let listingIndex = target.writer.listKeptFiles(in: "search/" + IndexFileNames.folder.dropLast())
        var errors: [SiftError] = []
        var sitemap: [String] = [""]
        var pages = PagesCollection()
        let intro = try renderer.homeAndNotFound(site)
        if site.introSearchable { pages.add(title: site.settings.title, slug: "index", url: "", markdown: intro) }
        report.pages += 2
        for p in site.pages {
            do {
                let (folder, md) = try renderer.page(p)
                sitemap.append(folder)
                if p.searchable { pages.add(title: p.title, slug: p.slug, url: folder, markdown: md, droppingTitle: p.titleFromHeading) }
                report.pages += 1
            } catch let e as SiftError { errors.append(e) }
        }
        var index = try renderCollections(site, renderer: renderer, target: target, report: &report, sitemap: &sitemap,
                                          errors: &errors, pages: pages)
        if let e = SiftError.combined(SiftError.once(errors, in: "pages")) { throw e }
        report.lap("pages", since: &lap)

        try assets.write(to: target.writer)
        let headers = HeadersFile(basePath: renderer.context.urls.basePath, hashedAssets: assets.hashed.values)
        try target.writer.write(HeadersFile.name, text: headers.text)
        if let warning = headers.ruleLimitWarning(folder: SiteLoader.display("Templates/assets", root: displayRoot)) { report.warnings.append(warning) }
        try writeSitemap(sitemap, site: site, target: target)
        try staticFiles.write(to: target.writer, prior: target.prior, next: target.next, start: start, display: { SiteLoader.display($0, root: displayRoot) })
        report.staticFiles = staticFiles.files.count
        report.lap("assets", since: &lap)
        let totalItems = site.collections.reduce(0) { $0 + $1.items.count }
        options.progress?("indexing", totalItems, totalItems)
        let writer = target.writer
        listingIndex()
        index.textReuse = Self.reusingText(prior: target.prior, next: target.next, writer: writer)
        if let next = target.next {
            index.tableReuse = IndexTableReuse(last: target.prior?.indexTables ?? [:], wrote: { next.indexTables = $0 })
        }
        try index.write(baseURL: renderer.context.urls.basePath) { name, bytes in try writer.write("search/\(name)", bytes) }
        target.session?.next.setIndex(index)
        report.lap("index", since: &lap)
        if let links = renderer.links {
            report.warnings += LinkChecker(urls: renderer.context.urls, output: target.writer.staging).check(links.withLock { $0 })
        }
        if options.mode.writesOutput && (options.precompress ?? site.settings.precompress) {
            options.progress?("compressing", 0, 0)
            // A copy the site's Static/ holds is its own, kept as it is.
            try Precompressor.run(target.writer, files: target.writer.producedFiles(), authored: Set(staticFiles.files.map(\.path)))
            report.lap("precompress", since: &lap)
        }
        report.seconds = Date().timeIntervalSince(start)
        ProcessMemory.keep((index, renderer, pages), mode: options.mode)
        return report
    }

    /// Every collection's list and item pages, each item's search record fed to the index as
    /// it comes; the index, once every record is in.
    private func renderCollections(_ site: Site, renderer: PageRenderer, target: BuildTarget, report: inout Report,
                                   sitemap: inout [String], errors: inout [SiftError], pages: PagesCollection) throws -> SearchIndexBuilder {
        let live = target.session != nil
        let totalItems = site.collections.reduce(0) { $0 + $1.items.count }
        let previous = (target.next as? DiskCache)?.previous
        let reuse = previous.map(ShardReuse.init)
        var builder = options.indexSharding.map { SearchIndexBuilder(shardThreshold: $0.threshold, shardTarget: $0.target) } ?? SearchIndexBuilder()
        if let heavy = options.indexSharding?.heavy { builder.heavyTermBytes = heavy }
        builder.answersFrom = options.answersFrom
        builder.rankedFrom = options.rankedFrom
        builder.docsPart = options.docsPart
        let siteFolder = options.site
        var stored: (@Sendable (Int) -> [(words: WordSet, stored: StoredPostings)]?)?
        if let previous { stored = { parts in previous.storedWordTables(site: siteFolder, parts: parts) } }
        let feed = IndexFeed(record: target.next, live: live, base: target.session?.previous?.takeIndex(), expected: totalItems + pages.count,
                             reuse: reuse, storedTables: stored, index: builder)
        var itemsDone = 0
        var baseHasher = StableHasher()
        baseHasher.combine(DiskCache.format)
        baseHasher.combine(renderer.templates.fingerprint)
        baseHasher.combine(UInt64(renderer.unsafeMarkdown ? 1 : 0))
        let baseKey = baseHasher.finalize()
        target.session?.next.settings = (site.settings, Dictionary(site.collections.map { ($0.name, $0.settings) }, uniquingKeysWith: { a, _ in a }))
        for c in site.collections {
            report.items.append((c.name, c.items.count))
            let stage = CollectionStage(c, site: site, renderer: renderer, target: target, baseKey: baseKey)
            feed.addCollection(SearchCollectionInfo(name: c.name, title: c.title, scopes: c.settings.scopes))
            let lists = try stage.renderLists()
            sitemap += lists
            report.pages += lists.count
            let done = itemsDone
            errors += stage.renderItems(feed: feed) { options.progress?("rendering", done + $0, totalItems) }
            // The output cannot be written (`renderItems`): the other collections would fail the same way.
            if errors.last?.position == nil, let e = SiftError.combined(SiftError.once(errors, in: "pages")) { throw e }
            itemsDone += c.items.count
            for i in c.items.indices { sitemap.append(SiteURLs.item(c.name, c.items[i].slug)) }
            report.pages += c.items.count
        }
        pages.feed(feed)
        var index = try feed.finish()
        if !live, let cache = target.next as? DiskCache {
            index.wordTableStore = cache.wordTableStore(site: siteFolder, parts: index.tables.count, fingerprint: feed.documentsFingerprint)
            cache.endDigests()
        }
        if let reuse {
            let search = outputURL.appendingPathComponent("search"), writer = target.writer
            // The folder the writer lists before the index is written (in place), not listed twice.
            index.shardReuse = ShardFileReuse(last: { reuse.lastFiles(search: search, bounds: $0, listed: writer.listedFiles(in: "search/" + IndexFileNames.folder.dropLast())) },
                                              link: { writer.linkFromPrevious("search/" + $0) })
        }
        return index
    }

    /// The index's text files as pages are: kept from the last build when the key of the
    /// documents they hold is the one it recorded, linked from the path of the group it recorded
    /// (in a session `prior` is `next`: read first).
    private static func reusingText(prior: (any BuildRecord)?, next: (any BuildRecord)?, writer: OutputWriter) -> TextFileReuse {
        TextFileReuse(last: prior?.textFiles ?? [], link: { files in
            writer.linkFromPrevious(files.map { ("search/" + $0.from, "search/" + $0.to) })
        }, wrote: { files in
            next?.textFiles = files
        })
    }

    /// sitemap.xml (and its parts past `Sitemap.maxURLs`), kept as it is when neither the settings
    /// nor the pages changed: in a session from its memory, in `sift build` by the key of its URLs.
    private func writeSitemap(_ sitemap: [String], site: Site, target: BuildTarget) throws {
        let previous = target.session?.previous
        let urls = SiteURLs(settings: site.settings)
        let names = Sitemap.fileNames(count: sitemap.count)
        // Its files are made from the absolute URLs alone: the base they start with and the paths.
        var h = StableHasher()
        h.combine(urls.absoluteBase)
        h.combine(urls.basePath)
        for path in sitemap { h.combine(path) }
        let key = h.finalize()
        let keepSitemap = (previous?.settings?.site == site.settings && previous?.sitemap == sitemap)
            || (target.session == nil && names.allSatisfy { target.prior?.page($0) == key })
        if !(keepSitemap && names.allSatisfy(target.writer.linkFromPrevious)) {
            for file in Sitemap.files(sitemap.map(urls.absolute), absolute: urls.absolute) {
                try target.writer.write(file.name, text: file.text)
            }
        }
        if target.session == nil { for name in names { target.next?.setPage(name, key) } }
        target.session?.next.sitemap = sitemap
    }
}
