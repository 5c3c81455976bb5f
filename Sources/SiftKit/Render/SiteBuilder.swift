import Foundation

/// The whole build: load → render → index → write, into a staging folder that replaces the
/// output only when everything succeeded.
public struct SiteBuilder: Sendable {
    /// What `sift build` was asked to do.
    public struct Options: Sendable {
        public var site: URL
        /// The site folder as the user named it, for printing paths.
        public var displayRoot: String
        public var output: URL?
        public var baseURL: String?
        public var drafts = false
        /// Write nothing: `sift check`.
        public var dryRun = false
        /// Called as the build goes with the stage, items done and items in all (0: unknown), for progress lines.
        public var progress: (@Sendable (_ stage: String, _ done: Int, _ total: Int) -> Void)?
        /// Reuse unchanged pages of the previous build (`.sift-cache/`); `--clean` turns it off.
        public var incremental = true

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
        public var seconds = 0.0
        public var output: URL
        /// Problems that did not stop the build.
        public var warnings: [SiftError] = []
        /// Wall-clock seconds per stage, in order, for `SIFT_TIMINGS=1` and `make bench`.
        public var stages: [(stage: String, seconds: Double)] = []

        mutating func lap(_ stage: String, since: inout Date) {
            let now = Date()
            stages.append((stage, now.timeIntervalSince(since)))
            since = now
        }
    }

    public var options: Options

    /// Creates a builder.
    public init(options: Options) { self.options = options }

    /// The output folder: `--output`, else public/ in the site.
    public var outputURL: URL {
        (options.output ?? options.site.appendingPathComponent("public")).standardizedFileURL
    }

    /// Builds the site; on any error nothing in the output changes and every error is thrown together.
    @discardableResult
    public func build() throws -> Report {
        let start = Date()
        options.progress?("loading", 0, 0)
        let loader = SiteLoader(root: options.site, displayRoot: options.displayRoot, includeDrafts: options.drafts, baseURLOverride: options.baseURL)
        var errors: [SiftError] = []
        var loadedSite: Site?
        do { loadedSite = try loader.load() } catch let e as SiftError { errors.append(e) }
        var templates: TemplateSet?
        do { templates = try TemplateSet(siteTemplates: options.site.appendingPathComponent("Templates"), display: loader.display) } catch let e as SiftError { errors.append(e) }
        try checkOutput()
        if let e = SiftError.combined(errors) { throw e }
        guard let site = loadedSite, let templates else { throw SiftError("build failed", at: nil) }
        let warnings = try validate(site, display: loader.display)

        if options.dryRun {
            let writer = try OutputWriter.dryRun()
            defer { writer.discard() }
            var report = try render(site, templates: templates, writer: writer, loader: loader, start: start)
            report.warnings = warnings + report.warnings
            return report
        }
        let writer = try OutputWriter(output: outputURL)
        let previous = options.incremental ? BuildCache.load(site: options.site, output: outputURL.path) : nil
        let next = BuildCache(output: outputURL.path)
        do {
            try next.beginDigests(site: options.site)
            var report = try render(site, templates: templates, writer: writer, loader: loader, start: start, cache: (previous, next))
            report.warnings = warnings + report.warnings
            var lap = Date()
            // The cache describes the new output only once that output is in place.
            BuildCache.remove(site: options.site, keeping: next)
            try writer.commit()
            try? next.save(site: options.site)
            report.lap("commit", since: &lap)
            report.seconds = Date().timeIntervalSince(start)
            return report
        } catch {
            next.discard()
            writer.discard()
            throw error
        }
    }

    /// Refuses an output folder that holds, or sits inside, the site's sources.
    func checkOutput() throws {
        let out = outputURL.resolvingSymlinksInPath().path + "/"
        let site = options.site.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let sources = ["Content/", "Templates/"].map { site + $0 }
        if site.hasPrefix(out) || sources.contains(where: { out.hasPrefix($0) }) || out == "/" {
            throw SiftError("the output folder \(outputURL.path) would replace the site's own files: choose another --output", at: nil)
        }
    }

    /// Checks that need the whole site; returns the warnings, throws the errors.
    func validate(_ site: Site, display: (String) -> String) throws -> [SiftError] {
        var errors: [SiftError] = []
        for c in site.collections where c.settings.perPage > 0 {
            for item in c.items where item.slug == "page" {
                errors.append(SiftError("slug 'page' is taken by the list's pagination (/\(c.name)/page/2/): give the item another slug", at: item.source))
            }
        }
        for c in site.collections {
            guard let field = c.settings.scopeField, !c.settings.scopes.isEmpty else { continue }
            let scopes = Set(c.settings.scopes)
            for item in c.items {
                guard let scope = c.scope(of: item), !scope.isEmpty else { continue }
                if !scopes.contains(scope) {
                    errors.append(SiftError("\(field) '\(scope)' is not one of the scopes \(c.settings.scopes.joined(separator: ", ")) in collection.yml", at: item.source, severity: .warning))
                }
            }
        }
        if let e = SiftError.combined(errors.filter { $0.severity == .error }) { throw e }
        return site.warnings + errors.filter { $0.severity == .warning }
    }

    func markdownHTML(_ source: MarkdownSource?, unsafe: Bool) throws -> RenderedMarkdown? {
        guard let source else { return nil }
        return Markdown.render(try source.body(), unsafe: unsafe)
    }

    func render(_ site: Site, templates: TemplateSet, writer: OutputWriter, loader: SiteLoader, start: Date,
                cache: (previous: BuildCache?, next: BuildCache)? = nil) throws -> Report {
        let urls = SiteURLs(settings: site.settings)
        let ctx = PageContext(site: site, urls: urls, hasTheme: !site.settings.theme.isEmpty)
        let unsafe = site.settings.unsafeMarkdown
        var report = Report(output: outputURL)
        var lap = start
        report.lap("load", since: &lap)
        var errors: [SiftError] = []
        var sitemap: [String] = [""]

        func page(_ template: MustacheTemplate, _ context: Value, to relative: String) throws {
            try writer.write(relative, try template.renderUTF8(context, partials: templates))
        }

        let links = Locked<[(page: String, source: MarkdownSource, links: [MarkdownLink])]>([])
        func collect(_ md: RenderedMarkdown?, page: String, source: MarkdownSource?) {
            guard options.dryRun, let md, let source, !md.links.isEmpty else { return }
            links.withLock { $0.append((page, source, md.links)) }
        }
        let introMarkdown = try markdownHTML(site.intro, unsafe: unsafe)
        collect(introMarkdown, page: "", source: site.intro)
        let intro = introMarkdown?.html ?? ""
        try page(templates.page("home"), ctx.home(introHTML: intro), to: "index.html")
        try page(templates.page("404"), ctx.notFound(), to: "404.html")
        report.pages += 2

        for p in site.pages {
            do {
                let md = try markdownHTML(p.page, unsafe: unsafe)
                collect(md, page: "\(p.slug)/", source: p.page)
                let html = md?.html(droppingTitle: p.titleFromHeading) ?? ""
                try page(templates.page("page"), ctx.page(p, contentHTML: html), to: "\(p.slug)/index.html")
                sitemap.append("\(p.slug)/")
                report.pages += 1
            } catch let e as SiftError { errors.append(e) }
        }

        let feed = IndexFeed(cache: cache?.next)
        let totalItems = site.collections.reduce(0) { $0 + $1.items.count }
        var itemsDone = 0
        var baseHasher = StableHasher()
        baseHasher.combine(BuildCache.format)
        baseHasher.combine(templates.fingerprint)
        baseHasher.combine(UInt64(unsafe ? 1 : 0))
        let baseKey = baseHasher.finalize()
        for c in site.collections {
            report.items.append((c.name, c.items.count))
            let listTemplate = templates.page("list", collection: c.name)
            let collectionValue: (value: Value, hash: UInt64) = {
                let v = ctx.collectionValue(c)
                var h = StableHasher()
                h.combine(v)
                return (v, h.finalize())
            }()
            let perPage = c.settings.perPage > 0 ? c.settings.perPage : max(c.items.count, 1)
            let pageCount = max(1, (c.items.count + perPage - 1) / perPage)
            for n in 1...pageCount {
                let slice = c.items[min((n - 1) * perPage, c.items.count)..<min(n * perPage, c.items.count)]
                let rel = SiteURLs.listPage(c.name, n)
                try page(listTemplate, ctx.list(c, collectionValue.value, page: n, of: pageCount, items: slice), to: rel + "index.html")
                sitemap.append(rel)
                report.pages += 1
            }

            feed.addCollection(SearchCollectionInfo(name: c.name, title: c.title, scopes: c.settings.scopes))
            let detailTemplate = templates.page("detail", collection: c.name)
            let titleField = c.settings.titleField ?? "title"
            let searchFields = c.settings.searchFields ?? [titleField]
            // Chunks keep memory flat: each chunk's pages are rendered, written and dropped
            // before the next, and only the search digests stay.
            let chunk = 512
            var startIndex = 0
            while startIndex < c.items.count {
                let range = Array(startIndex..<min(startIndex + chunk, c.items.count))
                let results = ParallelMap.map(range) { i -> Result<(item: String, key: UInt64, digest: SearchDigest), SiftError> in
                    let item = c.items[i]
                    do {
                        let folder = SiteURLs.item(c.name, item.slug)
                        let rel = folder + "index.html"
                        let body = try item.page?.body()
                        var fields: [(name: String, value: String)] = [(titleField, item.title)]
                        for name in searchFields where name != titleField {
                            if let v = item.fields.value(at: name) { fields.append((name, ctx.display(v))) }
                        }
                        // Keys of everything this page and its search entry are made from.
                        var pageHasher = StableHasher()
                        pageHasher.combine(baseKey)
                        let detail = ctx.detail(c, collectionValue, index: i)
                        pageHasher.combine(detail.key)
                        pageHasher.combine(UInt64(item.titleFromHeading ? 1 : 0))
                        pageHasher.combine(body ?? "")
                        let pageKey = pageHasher.finalize()
                        var searchHasher = StableHasher()
                        searchHasher.combine(baseKey)
                        for f in fields { searchHasher.combine(f.name); searchHasher.combine(f.value) }
                        searchHasher.combine(c.scope(of: item).map { "1" + $0 } ?? "0")
                        searchHasher.combine(c.settings.searchBody ? (body ?? "") : "")
                        let searchKey = searchHasher.finalize()
                        let itemKey = "\(c.name)/\(item.slug)"

                        var md: RenderedMarkdown?
                        if cache?.previous?.page(rel) == pageKey, writer.linkFromPrevious(rel) {
                            // Unchanged: the previous build's file is linked in, byte for byte what rendering would give.
                        } else {
                            md = body.map { Markdown.render($0, unsafe: unsafe) }
                            collect(md, page: folder, source: item.page)
                            let html = md?.html(droppingTitle: item.titleFromHeading) ?? ""
                            try page(detailTemplate, ctx.withContent(detail.fields, html), to: rel)
                        }
                        cache?.next.setPage(rel, pageKey)
                        if let digest = cache?.previous?.digest(itemKey, key: searchKey) {
                            return .success((itemKey, searchKey, digest))
                        }
                        if md == nil, c.settings.searchBody { md = body.map { Markdown.render($0, unsafe: unsafe) } }
                        let doc = SearchDocument(collection: c.name, slug: item.slug, title: item.title, url: folder,
                                                 scope: c.scope(of: item), fields: fields, body: c.settings.searchBody ? (md?.plainText ?? "") : "")
                        return .success((itemKey, searchKey, SearchIndexBuilder.digest(doc)))
                    } catch let e as SiftError {
                        return .failure(e)
                    } catch {
                        return .failure(SiftError("\(error)", at: item.source))
                    }
                }
                var records: [(item: String, key: UInt64, digest: SearchDigest)] = []
                for r in results {
                    switch r {
                    case .success(let d): records.append(d)
                    case .failure(let e): errors.append(e)
                    }
                }
                feed.add(records)
                startIndex += chunk
                itemsDone += range.count
                options.progress?("rendering", itemsDone, totalItems)
            }
            for item in c.items { sitemap.append(SiteURLs.item(c.name, item.slug)) }
            report.pages += c.items.count
        }
        var index = try feed.finish()
        if let e = SiftError.combined(errors) { throw e }

        report.lap("pages", since: &lap)
        try writeAssets(site, writer: writer)
        try writer.write("sitemap.xml", text: Sitemap.xml(sitemap.map(urls.absolute)))
        report.lap("assets", since: &lap)
        options.progress?("indexing", itemsDone, totalItems)
        try index.write(to: writer.staging.appendingPathComponent("search"), baseURL: urls.basePath)
        report.lap("index", since: &lap)
        if options.dryRun {
            report.warnings += LinkChecker(urls: urls, output: writer.staging).check(links.withLock { $0 })
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    func writeAssets(_ site: Site, writer: OutputWriter) throws {
        for (name, bytes) in BuiltinResources.assets { try writer.write("assets/\(name)", bytes) }
        if !site.settings.theme.isEmpty {
            let vars = site.settings.theme.map { "--sift-\($0.key.replacingOccurrences(of: "_", with: "-")):\($0.value)" }
            try writer.write("assets/theme.css", text: ":root{\(vars.joined(separator: ";"))}\n")
        }
        let assets = options.site.appendingPathComponent("Templates/assets")
        try copyTree(assets, relative: "assets", writer: writer)
    }

    /// Copies a folder into the output; links are skipped so nothing outside the site is read.
    func copyTree(_ folder: URL, relative: String, writer: OutputWriter) throws {
        guard FileSystem.isDirectory(folder) else { return }
        for name in FileSystem.list(folder) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let attrs = try? FileManager.default.attributesOfItem(atPath: url.path)
            let type = attrs?[.type] as? FileAttributeType
            if type == .typeSymbolicLink { continue }
            if type == .typeDirectory {
                try copyTree(url, relative: "\(relative)/\(name)", writer: writer)
            } else {
                try writer.write("\(relative)/\(name)", try FileSystem.read(url, displayPath: url.path))
            }
        }
    }
}
