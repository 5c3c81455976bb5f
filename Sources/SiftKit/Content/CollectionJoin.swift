/// The join stage of one collection: each dataset row becomes an item, each Markdown page
/// joins the row whose slug it has (its front matter over the row's fields), and a page with
/// no row becomes an item of its own, after the rows. Problems are collected, not thrown.
struct CollectionJoin {
    /// The collection's folder name.
    let name: String
    /// The dataset's file name, when there is one.
    let dataset: String?
    let records: [Record]
    /// Per record: its title, what its slug is made from, and the slug.
    let named: [(title: String, slugSource: String, slug: String)]
    let titleField: String
    /// Where collection.yml names the title field; nil when the loader chose it.
    let titleFieldPosition: SourcePosition?
    /// `sift serve`: the items joined by the last load of this folder, reused while the same
    /// row of the same dataset read meets the same page read.
    let memo: PageMemo?
    let folderPath: String
    let remembered: PageMemo.Dataset?
    /// Which title and slug fields `named` was made with.
    let namedKey: String

    private(set) var errors: [SiftError] = []
    private(set) var warnings: [SiftError] = []

    init(name: String, dataset: String?, records: [Record], named: [(title: String, slugSource: String, slug: String)],
         titleField: String, titleFieldPosition: SourcePosition?, memo: PageMemo?, folderPath: String,
         remembered: PageMemo.Dataset?, namedKey: String) {
        self.name = name
        self.dataset = dataset
        self.records = records
        self.named = named
        self.titleField = titleField
        self.titleFieldPosition = titleFieldPosition
        self.memo = memo
        self.folderPath = folderPath
        self.remembered = remembered
        self.namedKey = namedKey
    }

    /// A page that joins a row: the row's index and the page's in the pages read (not copies
    /// of the pages: each copy retains a dozen strings and dictionaries).
    private typealias Join = (index: Int, page: Int)

    /// A page read, with what sorting the pages out needs of it (`head(of:includeDrafts:)`).
    struct ReadPage {
        var page: Result<SiteLoader.LoadedPage, SiftError>
        var head: Head?
    }
    /// A published page's slug, display path and where its slug is written (its front matter's
    /// `slug:` key, else the file's start: the slug is the file name's), taken as it is read:
    /// sorting the pages out reads these alone, one page after another, where a page copied
    /// retains a dozen strings and dictionaries and a 100k site's join spent most of its time on one core so.
    typealias Head = (slug: String, displayPath: String, slugPosition: SourcePosition)

    /// What sorting out needs of a page: its slug, display path and slug's position, nil when
    /// it is not published (a draft without `--drafts`, or a file with no front matter).
    static func head(of page: SiteLoader.LoadedPage, includeDrafts: Bool) -> Head? {
        guard page.publishedFrontMatter(includeDrafts: includeDrafts) != nil else { return nil }
        return (page.slug, page.page.displayPath, page.keyPositions["slug"] ?? SourcePosition(path: page.page.displayPath, line: 1, column: 1))
    }

    /// The collection's items in list order (before any `sort`): rows with their pages joined,
    /// then pages without a row by weight, then title.
    mutating func items(pages: [ReadPage]) -> [Item] {
        var (items, bySlug) = rowItems()
        var (joins, ownItems) = sortOut(pages, rows: bySlug)
        join(joins, pages: pages, into: &items)
        ownItems.sort { ($0.weight ?? 0, Fold.fold($0.title), $0.slug) < ($1.weight ?? 0, Fold.fold($1.title), $1.slug) }
        // Appended in place: `items + ownItems` copied every item into a new array.
        items += ownItems
        return items
    }

    /// An item per row with a usable slug, and the rows' slugs.
    private mutating func rowItems() -> ([Item], [String: Int]) {
        var items: [Item] = []
        var bySlug: [String: Int] = [:]
        items.reserveCapacity(records.count)
        bySlug.reserveCapacity(records.count)
        // A title_field no row has (misspelt) leaves every row without a title: one error at the
        // key, naming the fields the rows have, instead of one at each row that has no slug either.
        let noRowHasTitle = titleFieldPosition != nil && !records.contains { $0.fields.value(at: titleField) != nil }
        var untitled = false
        for (record, (title, slugSource, slug)) in zip(records, named) {
            if slug.isEmpty {
                if title.isEmpty && noRowHasTitle {
                    untitled = true
                } else {
                    errors.append(SiftError(title.isEmpty ? "row has no '\(titleField)' to make a slug from" : "the slug of '\(slugSource)' is empty: give the row a slug", at: record.position))
                }
                continue
            }
            if let problem = SiteLoader.slugLengthProblem(slug) {
                errors.append(SiftError("\(problem): give the row a shorter slug", at: record.position))
                continue
            }
            if let other = bySlug[slug] {
                errors.append(SiftError("duplicate slug '\(slug)': also used by \(items[other].source)", at: record.position))
                continue
            }
            bySlug[slug] = items.count
            items.append(Item(collection: name, slug: slug, title: title, fields: record.fields, page: nil, source: record.position))
        }
        if untitled, let at = titleFieldPosition, let first = records.first {
            let names = first.fields.keys.prefix(8).map { "'\($0)'" }.joined(separator: ", ")
            errors.insert(SiftError("title_field: no row of '\(name)' has a field '\(titleField)' to take titles and slugs from (the first row's fields: \(names))", at: at), at: 0)
        }
        return (items, bySlug)
    }

    /// The published pages: those that join a row, and items of their own for the rest.
    private mutating func sortOut(_ pages: [ReadPage], rows bySlug: [String: Int]) -> ([Join], [Item]) {
        var joins: [Join] = []
        joins.reserveCapacity(pages.count)
        var ownItems: [Item] = []
        var ownSlugs: [String: String] = [:]
        ownSlugs.reserveCapacity(pages.count)
        // Through a pointer, which reads a page's head alone: the array's subscript copied the page too.
        pages.withUnsafeBufferPointer { pages in
            for k in pages.indices {
                guard let (slug, displayPath, slugPosition) = pages[k].head else {
                    if case .failure(let e) = pages[k].page { errors.append(e) }
                    continue
                }
                if let other = ownSlugs[slug] {
                    errors.append(SiftError("duplicate slug '\(slug)': also used by \(other)", at: slugPosition))
                    continue
                }
                ownSlugs[slug] = displayPath
                if let index = bySlug[slug] {
                    joins.append((index, k))
                    continue
                }
                guard case .success(let page) = pages[k].page, let fm = page.frontMatter else { continue }
                let pagePosition = SourcePosition(path: displayPath, line: 1, column: 1)
                if let dataset, !records.isEmpty {
                    warnings.append(SiftError("page slug '\(slug)' matches no row of \(dataset): it becomes an item of its own", at: pagePosition, severity: .warning))
                }
                var item = Item(collection: name, slug: slug, title: page.title ?? page.fileTitle, fields: page.fields, page: page.page, source: pagePosition)
                item.titleFromHeading = page.titleFromHeading
                item.date = fm["date"]?.text
                item.weight = fm["weight"]?.doubleValue
                item.searchable = fm["search"]?.boolValue ?? true
                ownItems.append(item)
            }
        }
        return (joins, ownItems)
    }

    /// Joins rows and their pages on every core; each join makes a different item.
    private func join(_ joins: [Join], pages: [ReadPage], into items: inout [Item]) {
        let joinedBefore = memo?.joined(folderPath) ?? [:]
        let rows = items
        func loaded(_ k: Int) -> SiteLoader.LoadedPage {
            guard case .success(let page) = pages[k].page else { preconditionFailure("only pages read join rows") }
            return page
        }
        var joined = ParallelMap.map(joins) { (index, k) -> (item: Item, key: PageMemo.JoinKey?) in
            let page = loaded(k), fm = page.frontMatter ?? Fields()
            // `sift serve`: the same row of the same dataset read, joined to the same page read.
            let joinKey = page.page.version == 0 ? nil
                : remembered.map { PageMemo.JoinKey(dataset: $0.generation, named: namedKey, row: index, page: page.page.version) }
            if let joinKey, let known = joinedBefore[page.slug], known.key == joinKey { return (known.item, joinKey) }
            var item = rows[index]
            item.fields.merge(page.fields)
            item.page = page.page
            if let t = page.title, fm["title"] != nil || item.title.isEmpty {
                item.title = t
                item.titleFromHeading = page.titleFromHeading
            }
            item.date = fm["date"]?.text
            item.weight = fm["weight"]?.doubleValue
            item.searchable = fm["search"]?.boolValue ?? true
            return (item, joinKey)
        }
        var joinedNow: [String: (key: PageMemo.JoinKey, item: Item)] = [:]
        if memo != nil { joinedNow.reserveCapacity(joinedBefore.count) }
        for n in joined.indices {
            if let key = joined[n].key { joinedNow[loaded(joins[n].page).slug] = (key, joined[n].item) }
            // Swapped in, not copied: a copy retains every string and dictionary of the item.
            swap(&items[joins[n].index], &joined[n].item)
        }
        memo?.setJoined(folderPath, joinedNow)
    }
}
