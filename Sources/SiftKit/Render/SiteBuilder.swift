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
        /// Keeps the build's state in memory for the next build and updates the output in
        /// place (`sift serve`) instead of the on-disk cache and a swap of the whole folder.
        public var session: BuildSession?

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
        var loader = SiteLoader(root: options.site, displayRoot: options.displayRoot, includeDrafts: options.drafts, baseURLOverride: options.baseURL)
        loader.memo = options.session?.pages
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
        if let session = options.session { return try build(site, templates: templates, loader: loader, warnings: warnings, session: session, start: start) }
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

    /// A build of `sift serve`: against the session's last good build, in place when the
    /// output still holds it.
    private func build(_ site: Site, templates: TemplateSet, loader: SiteLoader, warnings: [SiftError], session: BuildSession, start: Date) throws -> Report {
        let out = outputURL.path
        var previous = options.incremental ? session.previous(output: out) : nil
        if previous != nil && !FileSystem.isDirectory(outputURL) { previous = nil }
        let writer = try OutputWriter(output: outputURL, recording: true, inPlace: previous?.files)
        let next = BuildCache(output: out, inMemory: true)
        next.inherit(from: previous?.cache)
        do {
            var report = try render(site, templates: templates, writer: writer, loader: loader, start: start, cache: (previous?.cache, next))
            report.warnings = warnings + report.warnings
            var lap = Date()
            // The output no longer matches an on-disk cache a later `sift build` would trust.
            BuildCache.remove(site: options.site)
            do { try writer.commit() } catch {
                session.finished(output: out, cache: next, files: nil)
                throw error
            }
            session.finished(output: out, cache: next, files: writer.files)
            report.lap("commit", since: &lap)
            report.seconds = Date().timeIntervalSince(start)
            return report
        } catch {
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

        let live = cache?.next.isInMemory == true
        let feed = IndexFeed(cache: cache?.next, live: live, base: live ? cache?.previous?.takeIndex() : nil)
        // Page keys, item memos and digests of the last build: in a serve session they were
        // moved into this build's cache (see `BuildCache.inherit`), elsewhere they are the
        // previous cache's. Each item reads its own entries before writing them.
        let prior = live ? cache?.next : cache?.previous
        let totalItems = site.collections.reduce(0) { $0 + $1.items.count }
        var itemsDone = 0
        var baseHasher = StableHasher()
        baseHasher.combine(BuildCache.format)
        baseHasher.combine(templates.fingerprint)
        baseHasher.combine(UInt64(unsafe ? 1 : 0))
        let baseKey = baseHasher.finalize()
        if live {
            cache?.next.settings = (site.settings, Dictionary(site.collections.map { ($0.name, $0.settings) }, uniquingKeysWith: { a, _ in a }))
        }
        for c in site.collections {
            report.items.append((c.name, c.items.count))
            let listTemplate = templates.page("list", collection: c.name)
            let collectionValue: (value: Value, hash: UInt64) = {
                let v = ctx.collectionValue(c)
                var h = StableHasher()
                h.combine(v)
                return (v, h.finalize())
            }()
            feed.addCollection(SearchCollectionInfo(name: c.name, title: c.title, scopes: c.settings.scopes))
            let detailTemplate = templates.page("detail", collection: c.name)
            let titleField = c.settings.titleField ?? "title"
            // `sift serve` remembers every item's inputs and keys, and skips items that compare equal.
            let reuseItems = live && cache?.previous?.settings?.site == site.settings
                && cache?.previous?.settings?.collections[c.name] == c.settings
            let context: UInt64 = {
                var h = StableHasher()
                h.combine(baseKey)
                h.combine(ctx.sharedHash(c.name))
                h.combine(collectionValue.hash)
                return h.finalize()
            }()

            // The list pages show each item's title, slug and fields: when none of those
            // changed, `sift serve` keeps them.
            let rows = live ? c.items.map { BuildCache.ListRow(slug: $0.slug, title: $0.title, fields: $0.fields) } : []
            let keepLists = reuseItems && cache?.previous?.list(c.name).map { $0.context == context && $0.rows == rows } == true
            let perPage = c.settings.perPage > 0 ? c.settings.perPage : max(c.items.count, 1)
            let pageCount = max(1, (c.items.count + perPage - 1) / perPage)
            for n in 1...pageCount {
                let slice = c.items[min((n - 1) * perPage, c.items.count)..<min(n * perPage, c.items.count)]
                let rel = SiteURLs.listPage(c.name, n)
                if !(keepLists && writer.linkFromPrevious(rel + "index.html")) {
                    try page(listTemplate, ctx.list(c, collectionValue.value, page: n, of: pageCount, items: slice), to: rel + "index.html")
                }
                sitemap.append(rel)
                report.pages += 1
            }
            if live { cache?.next.setList(c.name, rows: rows, context: context) }

            let searchFields = c.settings.searchFields ?? [titleField]
            // `sift serve`, with the collection as the last build left it but for a few items:
            // only those and their neighbours go through the loop below; the rest keep their
            // files, keys and digests wholesale.
            var order = Array(c.items.indices)
            var kept: BuildCache.CollectionMemo?
            if reuseItems, let memo = cache?.previous?.collection(c.name), memo.context == context, memo.items.count == c.items.count {
                let same = ParallelMap.map(Array(c.items.indices)) { memo.items[$0] == c.items[$0] }
                let dirty = c.items.indices.filter { i in !same[i] || (i > 0 && !same[i - 1]) || (i + 1 < same.count && !same[i + 1]) }
                let dirtySet = Set(dirty)
                let keptRels = c.items.indices.filter { !dirtySet.contains($0) }.map { SiteURLs.item(c.name, c.items[$0].slug) + "index.html" }
                if writer.keepPrevious(keptRels) {
                    order = dirty
                    kept = memo
                }
            }
            var collected = kept?.records ?? []
            var collectedPageKeys = kept?.pageKeys ?? []
            // Chunks keep memory flat: each chunk's pages are rendered, written and dropped
            // before the next, and only the search digests stay.
            let chunk = 512
            var startIndex = 0
            while startIndex < order.count {
                let range = Array(order[startIndex..<min(startIndex + chunk, order.count)])
                let results = ParallelMap.map(range) { i -> Result<(item: String, key: UInt64, digest: SearchDigest, pageKey: UInt64), SiftError> in
                    let item = c.items[i]
                    do {
                        let folder = SiteURLs.item(c.name, item.slug)
                        let rel = folder + "index.html"
                        let itemKey = "\(c.name)/\(item.slug)"
                        let neighbours = live ? BuildCache.Neighbours(c.items, i) : BuildCache.Neighbours()
                        if reuseItems, let previous = prior, let m = previous.item(itemKey),
                           m.context == context, m.neighbours == neighbours, m.item == item, previous.page(rel) == m.pageKey,
                           let digest = previous.digest(itemKey, key: m.searchKey), writer.linkFromPrevious(rel) {
                            cache?.next.setPage(rel, m.pageKey)
                            cache?.next.setItem(itemKey, m)
                            return .success((itemKey, m.searchKey, digest, m.pageKey))
                        }
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
                        // The body, hashed once for both keys.
                        var bodyHasher = StableHasher()
                        bodyHasher.combine(body ?? "")
                        let bodyHash = bodyHasher.finalize()
                        pageHasher.combine(bodyHash)
                        let pageKey = pageHasher.finalize()
                        var searchHasher = StableHasher()
                        searchHasher.combine(baseKey)
                        for f in fields { searchHasher.combine(f.name); searchHasher.combine(f.value) }
                        searchHasher.combine(c.scope(of: item).map { "1" + $0 } ?? "0")
                        searchHasher.combine(c.settings.searchBody ? bodyHash : 0)
                        let searchKey = searchHasher.finalize()
                        if live {
                            cache?.next.setItem(itemKey, BuildCache.ItemMemo(item: item, neighbours: neighbours, context: context, pageKey: pageKey, searchKey: searchKey))
                        }

                        var md: RenderedMarkdown?
                        if prior?.page(rel) == pageKey, writer.linkFromPrevious(rel) {
                            // Unchanged: the previous build's file is linked in, byte for byte what rendering would give.
                        } else {
                            md = body.map { Markdown.render($0, unsafe: unsafe) }
                            collect(md, page: folder, source: item.page)
                            let html = md?.html(droppingTitle: item.titleFromHeading) ?? ""
                            try page(detailTemplate, ctx.withContent(detail.fields, html), to: rel)
                        }
                        cache?.next.setPage(rel, pageKey)
                        if let digest = prior?.digest(itemKey, key: searchKey) {
                            return .success((itemKey, searchKey, digest, pageKey))
                        }
                        if md == nil, c.settings.searchBody { md = body.map { Markdown.render($0, unsafe: unsafe) } }
                        let doc = SearchDocument(collection: c.name, slug: item.slug, title: item.title, url: folder,
                                                 scope: c.scope(of: item), fields: fields, body: c.settings.searchBody ? (md?.plainText ?? "") : "")
                        return .success((itemKey, searchKey, SearchIndexBuilder.digest(doc), pageKey))
                    } catch let e as SiftError {
                        return .failure(e)
                    } catch {
                        return .failure(SiftError("\(error)", at: item.source))
                    }
                }
                var records: [SearchRecord] = []
                for (i, r) in zip(range, results) {
                    switch r {
                    case .success(let d):
                        if kept != nil {
                            collected[i] = SearchRecord(item: d.item, key: d.key, digest: d.digest)
                            collectedPageKeys[i] = d.pageKey
                        } else {
                            records.append(SearchRecord(item: d.item, key: d.key, digest: d.digest))
                            if live { collected.append(SearchRecord(item: d.item, key: d.key, digest: d.digest)); collectedPageKeys.append(d.pageKey) }
                        }
                    case .failure(let e): errors.append(e)
                    }
                }
                if kept == nil { feed.add(records) }
                startIndex += chunk
                itemsDone += range.count
                options.progress?("rendering", itemsDone, totalItems)
            }
            if kept != nil {
                feed.add(collected)
                itemsDone += c.items.count - order.count
            }
            if live && collected.count == c.items.count {
                cache?.next.setCollection(c.name, BuildCache.CollectionMemo(context: context, items: c.items, records: collected, pageKeys: collectedPageKeys))
            }
            for item in c.items { sitemap.append(SiteURLs.item(c.name, item.slug)) }
            report.pages += c.items.count
        }
        var index = try feed.finish()
        if let e = SiftError.combined(errors) { throw e }

        report.lap("pages", since: &lap)
        try writeAssets(site, writer: writer)
        let keepSitemap = cache?.previous?.settings?.site == site.settings && cache?.previous?.sitemap == sitemap
        if !(keepSitemap && writer.linkFromPrevious("sitemap.xml")) {
            try writer.write("sitemap.xml", text: Sitemap.xml(sitemap.map(urls.absolute)))
        }
        if live { cache?.next.sitemap = sitemap }
        report.lap("assets", since: &lap)
        options.progress?("indexing", itemsDone, totalItems)
        try index.write(baseURL: urls.basePath) { name, bytes in try writer.write("search/\(name)", bytes) }
        if live { cache?.next.setIndex(index) }
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
