import Foundation

/// The render stage of one collection: its list pages, then its items in chunks on every core,
/// each item's page reused or rendered and its search record handed to the index feed.
///
/// In a `sift serve` session whose last build had the same settings (`reusesItems`), items
/// whose inputs compare equal with what the session remembers are taken as they were, and
/// when only a few changed, only those and their neighbours are visited at all.
struct CollectionStage {
    let collection: SiteCollection
    let renderer: PageRenderer
    let target: BuildTarget
    /// The key of what every page of the build depends on (templates, cache format, options).
    let baseKey: UInt64
    /// The collection as templates see it, and its hash.
    let collectionValue: (value: Value, hash: UInt64)
    /// The key of what every page of this collection shares.
    let context: UInt64
    let reusesItems: Bool
    /// The collection's settings, every one of them, as one string (a page key's part).
    private let settingsKey: String
    private let titleField: String
    private let searchFields: [String]
    private let detailTemplate: MustacheTemplate
    private var writer: OutputWriter { target.writer }
    private var live: Bool { target.session != nil }

    init(_ c: SiteCollection, site: Site, renderer: PageRenderer, target: BuildTarget, baseKey: UInt64) {
        collection = c
        self.renderer = renderer
        self.target = target
        self.baseKey = baseKey
        let value = renderer.context.collectionValue(c)
        var h = StableHasher()
        h.combine(value)
        collectionValue = (value, h.finalize())
        var contextHasher = StableHasher()
        contextHasher.combine(baseKey)
        contextHasher.combine(renderer.context.sharedHash(c.name))
        contextHasher.combine(collectionValue.hash)
        // The field a detail page leaves out of its fields as the title's, which the first row may choose.
        contextHasher.combine(c.titleField)
        context = contextHasher.finalize()
        let previous = target.session?.previous?.settings
        reusesItems = target.session != nil && previous?.site == site.settings && previous?.collections[c.name] == c.settings
        settingsKey = String(describing: c.settings)
        titleField = c.settings.titleField ?? "title"
        searchFields = c.settings.searchFields ?? [titleField]
        detailTemplate = renderer.templates.page("detail", collection: c.name)
    }

    // MARK: Lists

    /// Renders the list pages (kept as they are in a session when no row they show changed);
    /// their folders, for the sitemap.
    func renderLists() throws -> [String] {
        let c = collection
        // The list pages show each item's title, slug and fields: when none of those changed,
        // `sift serve` keeps them.
        let rows = live ? c.items.map { SessionMemory.ListRow(slug: $0.slug, title: $0.title, fields: $0.fields) } : []
        let keepLists = reusesItems && target.session?.previous?.list(c.name).map { $0.context == context && $0.rows == rows } == true
        let listTemplate = renderer.templates.page("list", collection: c.name)
        let perPage = c.settings.pageSize(items: c.items.count)
        let pageCount = max(1, (c.items.count + perPage - 1) / perPage)
        var folders: [String] = []
        func slice(_ n: Int) -> ArraySlice<Item> { c.items[min((n - 1) * perPage, c.items.count)..<min(n * perPage, c.items.count)] }
        // The pages' keys on every core: an edit keeps them all, and hashes every row for them.
        let keys = target.next.map { _ in ParallelMap.map(Array(1...pageCount)) { listKey(page: $0, of: pageCount, items: slice($0)) } }
        for n in 1...pageCount {
            let slice = slice(n)
            let rel = SiteURLs.listPage(c.name, n), file = rel + "index.html"
            let key = keys?[n - 1]
            let unchanged = keepLists || (key != nil && target.prior?.page(file) == key)
            if let key { target.next?.setPage(file, key) }
            if !(unchanged && writer.linkFromPrevious(file)) {
                let value = renderer.context.list(c, collectionValue.value, page: n, of: pageCount, items: slice)
                try renderer.write(listTemplate, value, to: file)
            }
            folders.append(rel)
        }
        target.session?.next.setList(c.name, rows: rows, context: context)
        return folders
    }

    /// The key of everything list page `n` shows (`PageContext.list`): the collection's context,
    /// the page's place, and each row's title, slug, scope and list fields.
    private func listKey(page n: Int, of total: Int, items: ArraySlice<Item>) -> UInt64 {
        let c = collection
        var h = StableHasher()
        h.combine(context)
        h.combine(UInt64(n))
        h.combine(UInt64(total))
        // Which list fields' texts are split on the separator (`PageContext.display(_:field:in:)`).
        for name in c.settings.listFields { h.combine(name); h.combine(c.splitsText(of: name) ? "1" + c.settings.listSeparator! : "0") }
        // The slice's indices are the collection's: each item read in place, not copied.
        for i in items.indices {
            h.combine(items[i].title)
            h.combine(items[i].slug)
            h.combine(c.scope(at: i).map { "1" + $0 } ?? "0")
            for name in c.settings.listFields { h.combine(items[i].fields.value(at: name) ?? .null) }
        }
        return h.finalize()
    }

    // MARK: Items

    /// Renders every item, feeding their search records to `feed` in list order, and setting
    /// their pages' keys in the next build's record a chunk at a time; the errors of
    /// the items that failed. `progress` gets the number of items rendered so far, after each chunk.
    /// An error at no source position (the output cannot be written: a full or read-only disk)
    /// stops the rendering after the chunk it met, and is returned once, last: every page after
    /// it would fail the same way, a million lines of it on a large site.
    func renderItems(feed: IndexFeed, progress: (Int) -> Void) -> [SiftError] {
        let c = collection
        let (order, kept) = itemsToVisit()
        var errors: [SiftError] = []
        var collected = kept?.records ?? []
        var collectedPageKeys = kept?.pageKeys ?? []
        // Chunks keep memory flat: each chunk's pages are rendered, written and dropped
        // before the next, and only the search digests stay.
        let chunk = 512
        var done = 0
        var stopped: SiftError?
        for chunkStart in stride(from: 0, to: order.count, by: chunk) {
            let range = Array(order[chunkStart..<min(chunkStart + chunk, order.count)])
            let words = feed.needsWords
            let results = ParallelMap.map(range) { i in Result { try renderItem(i, words: words) } }
            var records: [SearchRecord] = []
            var pageKeys: [(path: String, key: UInt64)] = []
            pageKeys.reserveCapacity(range.count)
            for (i, result) in zip(range, results) {
                switch result {
                case .success(let rendered) where kept != nil:
                    pageKeys.append((rendered.page, rendered.pageKey))
                    collected[i] = rendered.search
                    collectedPageKeys[i] = rendered.pageKey
                case .success(let rendered):
                    pageKeys.append((rendered.page, rendered.pageKey))
                    if c.items[i].searchable { records.append(rendered.search) }
                    if live { collected.append(rendered.search); collectedPageKeys.append(rendered.pageKey) }
                case .failure(let e as SiftError) where e.position == nil:
                    stopped = stopped ?? e
                case .failure(let e as SiftError):
                    errors.append(e)
                case .failure(let e):
                    errors.append(SiftError("\(e)", at: c.items[i].source))
                }
            }
            target.next?.setPages(pageKeys)
            if let stopped { return errors + [stopped] }
            if kept == nil { feed.add(records) }
            done += range.count
            progress(done)
        }
        if kept != nil { feed.add(zip(c.items, collected).filter { $0.0.searchable }.map(\.1)) }
        if live && collected.count == c.items.count {
            target.session?.next.setCollection(c.name, SessionMemory.CollectionMemo(context: context, items: c.items, records: collected, pageKeys: collectedPageKeys))
        }
        return errors
    }

    /// The items to visit: all of them, or in a session with the collection as the last build
    /// left it but for a few items, only those and their neighbours (the rest keep their files,
    /// keys and digests wholesale, from `kept`).
    private func itemsToVisit() -> (order: [Int], kept: SessionMemory.CollectionMemo?) {
        let items = collection.items
        guard reusesItems, let memo = target.session?.previous?.collection(collection.name),
              memo.context == context, memo.items.count == items.count else { return (Array(items.indices), nil) }
        let same = ParallelMap.map(Array(items.indices)) { memo.items[$0] == items[$0] }
        let dirty = items.indices.filter { i in !same[i] || (i > 0 && !same[i - 1]) || (i + 1 < same.count && !same[i + 1]) }
        let dirtySet = Set(dirty)
        let keptRels = items.indices.filter { !dirtySet.contains($0) }.map { SiteURLs.item(collection.name, items[$0].slug) + "index.html" }
        guard writer.keepPrevious(keptRels) else { return (Array(items.indices), nil) }
        return (dirty, memo)
    }

    /// One item: taken whole from the session when its inputs compare equal, else its keys
    /// computed, its page linked from the last build when its key is unchanged or rendered,
    /// and its digest reused or made.
    /// Without `words`, a digest taken from the last build leaves its words out (the index has them).
    private func renderItem(_ i: Int, words: Bool) throws -> RenderedItem {
        // Read in place until the item turns out to need rendering: a copy of an item retains a
        // dozen strings, and most items of an edit are taken from the last build as they are.
        let c = collection
        let folder = SiteURLs.item(c.name, c.items[i].slug)
        let rel = folder + "index.html"
        let itemKey = "\(c.name)/\(c.items[i].slug)"
        let neighbours = live ? SessionMemory.Neighbours(c.items, i) : SessionMemory.Neighbours()
        if live, let same = unchanged(c.items[i], key: itemKey, page: rel, neighbours: neighbours) { return same }
        // The body is read again (when loading did not keep it) only to render it.
        var body: String?
        let bodyHash: UInt64
        if let hash = c.items[i].page?.bodyHash {
            bodyHash = hash
        } else {
            body = try c.items[i].page?.body()
            bodyHash = MarkdownSource.hash(body ?? "")
        }
        let pageKey = self.pageKey(i, bodyHash: bodyHash)
        if target.prior?.page(rel) == pageKey, let searchKey = target.prior?.searchKey(itemKey),
           let digest = target.prior?.digest(itemKey, key: searchKey, words: words), writer.linkFromPrevious(rel) {
            // Made from the same inputs as the last build's, so its search key and digest are that build's too.
            target.session?.next.setItem(itemKey, SessionMemory.ItemMemo(item: c.items[i], neighbours: neighbours, context: context,
                                                                          pageKey: pageKey, searchKey: searchKey))
            return RenderedItem(search: SearchRecord(item: itemKey, key: searchKey, digest: digest), page: rel, pageKey: pageKey)
        }
        let item = c.items[i]
        let keys = self.keys(item, bodyHash: bodyHash)
        target.session?.next.setItem(itemKey, SessionMemory.ItemMemo(item: item, neighbours: neighbours, context: context,
                                                                      pageKey: pageKey, searchKey: keys.search))
        var md: RenderedMarkdown?
        if target.prior?.page(rel) == pageKey, writer.linkFromPrevious(rel) {
            // Unchanged: the previous build's file is linked in, byte for byte what rendering would give.
        } else {
            if body == nil { body = try item.page?.body() }
            md = body.map { Markdown.render($0, unsafe: renderer.unsafeMarkdown) }
            renderer.note(md, page: folder, source: item.page)
            let html = md?.html(droppingTitle: item.titleFromHeading) ?? ""
            let detail = renderer.context.detail(c, collectionValue.value, index: i)
            try renderer.write(detailTemplate, renderer.context.withContent(detail, html), to: rel)
        }
        let digest: SearchDigest
        if let previous = target.prior?.digest(itemKey, key: keys.search, words: words) {
            digest = previous
        } else {
            if md == nil, c.settings.searchBody {
                if body == nil { body = try item.page?.body() }
                md = body.map { Markdown.render($0, unsafe: renderer.unsafeMarkdown) }
            }
            var document = SearchDocument(collection: c.name, slug: item.slug, title: item.title, url: folder,
                                          scope: c.scope(of: item), fields: keys.fields,
                                          body: c.settings.searchBody ? (md?.plainText ?? "") : "")
            document.facets = c.facetValues(of: item)
            document.sortValues = c.sortValues(of: item)
            if c.settings.searchBody, let md {
                document.excerptText = ExcerptText.entry(md, droppingTitle: item.titleFromHeading && md.htmlWithoutTitle.utf8.count != md.html.utf8.count)
            }
            digest = SearchIndexBuilder.digest(document)
        }
        return RenderedItem(search: SearchRecord(item: itemKey, key: keys.search, digest: digest), page: rel, pageKey: pageKey)
    }

    /// In a session, an item equal to the one the last build rendered, with the same
    /// neighbours and context, and its page still in the output: taken as it was.
    private func unchanged(_ item: Item, key itemKey: String, page rel: String, neighbours: SessionMemory.Neighbours) -> RenderedItem? {
        guard reusesItems, let memory = target.session?.next, let m = memory.item(itemKey),
              m.context == context, m.neighbours == neighbours, m.item == item, memory.page(rel) == m.pageKey,
              let digest = memory.digest(itemKey, key: m.searchKey), writer.linkFromPrevious(rel) else { return nil }
        memory.setItem(itemKey, m)
        return RenderedItem(search: SearchRecord(item: itemKey, key: m.searchKey, digest: digest), page: rel, pageKey: m.pageKey)
    }

    /// The key of everything item `i`'s page is made from, taken from the inputs of its context
    /// (`PageContext.detail`) rather than from the context itself, which only a page rendered
    /// needs: the collection's context and settings, the item as loaded, its body and its
    /// neighbours' titles and slugs.
    private func pageKey(_ i: Int, bodyHash: UInt64) -> UInt64 {
        let items = collection.items
        var h = StableHasher()
        h.combine(context)
        h.combine(settingsKey)
        h.combine(items[i].slug)
        h.combine(items[i].title)
        h.combine(.map(items[i].fields))
        h.combine(items[i].date.map { "1" + $0 } ?? "0")
        h.combine(UInt64(items[i].titleFromHeading ? 1 : 0))
        h.combine(bodyHash)
        for j in [i - 1, i + 1] {
            guard items.indices.contains(j) else { h.combine("0"); continue }
            h.combine("1")
            h.combine(items[j].title)
            h.combine(items[j].slug)
        }
        return h.finalize()
    }

    /// The key of everything an item's search entry is made from, and its searched fields.
    private func keys(_ item: Item, bodyHash: UInt64) -> (search: UInt64, fields: [(name: String, value: String)]) {
        let c = collection
        var fields: [(name: String, value: String)] = [(titleField, item.title)]
        for name in searchFields where name != titleField {
            if let v = item.fields.value(at: name) { fields.append((name, renderer.context.display(v))) }
        }
        var searchHasher = StableHasher()
        searchHasher.combine(baseKey)
        for f in fields { searchHasher.combine(f.name); searchHasher.combine(f.value) }
        searchHasher.combine(c.scope(of: item).map { "1" + $0 } ?? "0")
        // The facet fields as they are, which their values are made from (cheaper than splitting them).
        searchHasher.combine(c.settings.listSeparator.map { "1" + $0 } ?? "0")
        for name in c.settings.facets {
            searchHasher.combine(name)
            searchHasher.combine(name == "title" ? .string(item.title) : item.fields.value(at: name) ?? .null)
        }
        for v in c.sortValues(of: item) { searchHasher.combine(v.name); searchHasher.combine(v.value) }
        searchHasher.combine(c.settings.searchBody ? bodyHash : 0)
        // Whether the excerpt entry leaves out the body's first heading, which is then the title.
        searchHasher.combine(UInt64(item.titleFromHeading ? 1 : 0))
        return (searchHasher.finalize(), fields)
    }
}
