/// The home page's intro and the standalone pages as the search index's collection `pages`
/// (title and body, headings among the body's text), after every collection; a page whose front
/// matter says `search: false` is left out.
struct PagesCollection {
    static let name = "pages"
    private var records: [SearchRecord] = []

    /// Adds a page: its title, a slug unique among the pages, its URL relative to the base;
    /// `droppingTitle`: its title came from its first heading, which the page leaves out.
    mutating func add(title: String, slug: String, url: String, markdown: RenderedMarkdown?, droppingTitle: Bool = false) {
        let body = markdown?.plainText ?? ""
        var document = SearchDocument(collection: Self.name, slug: slug, title: title, url: url,
                                      fields: [(name: "title", value: title)], body: body)
        if let markdown {
            document.excerptText = ExcerptText.entry(markdown, droppingTitle: droppingTitle && markdown.htmlWithoutTitle.utf8.count != markdown.html.utf8.count)
        }
        var key = StableHasher()
        for part in [title, slug, url, body] + document.excerptText { key.combine(part) }
        records.append(SearchRecord(item: "\(Self.name)/\(slug)", key: key.finalize(), digest: SearchIndexBuilder.digest(document)))
    }

    /// How many pages it holds.
    var count: Int { records.count }

    /// Declares the collection and hands its records to the index, when there are any.
    func feed(_ feed: IndexFeed) {
        guard !records.isEmpty else { return }
        feed.addCollection(SearchCollectionInfo(name: Self.name, title: "Pages"))
        feed.add(records)
    }
}
