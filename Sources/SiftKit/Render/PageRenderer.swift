import Foundation

/// Renders pages through the templates into the output writer, and notes each Markdown page's
/// links when the build checks them.
struct PageRenderer {
    /// A page's Markdown links, for `LinkChecker`.
    typealias PageLinks = (page: String, source: MarkdownSource, links: [MarkdownLink])

    let templates: TemplateSet
    let context: PageContext
    let writer: OutputWriter
    let unsafeMarkdown: Bool
    /// The links of every Markdown page rendered, when they are to be checked.
    let links: Locked<[PageLinks]>?

    init(site: Site, templates: TemplateSet, assets: SiteAssets, writer: OutputWriter, checksLinks: Bool) {
        self.templates = templates
        self.context = PageContext(site: site, urls: SiteURLs(settings: site.settings), assets: assets.templateNames())
        self.writer = writer
        self.unsafeMarkdown = site.settings.unsafeMarkdown
        self.links = checksLinks ? Locked([]) : nil
    }

    /// Renders a template into a file of the output.
    func write(_ template: MustacheTemplate, _ value: Value, to relative: String) throws {
        try writer.write(relative, try template.renderUTF8(value, partials: templates))
    }

    /// A Markdown body as HTML, its links noted for `page`.
    func markdown(_ source: MarkdownSource?, page: String) throws -> RenderedMarkdown? {
        guard let source else { return nil }
        let md = Markdown.render(try source.body(), unsafe: unsafeMarkdown)
        note(md, page: page, source: source)
        return md
    }

    /// Notes the links of a page's Markdown, when they are checked.
    func note(_ md: RenderedMarkdown?, page: String, source: MarkdownSource?) {
        guard let links, let md, let source, !md.links.isEmpty else { return }
        links.withLock { $0.append((page, source, md.links)) }
    }

    /// The home page, with the site's intro, and the 404 page; the intro's Markdown, for the index.
    func homeAndNotFound(_ site: Site) throws -> RenderedMarkdown? {
        let md = try markdown(site.intro, page: "")
        try write(templates.page("home"), context.home(introHTML: md?.html ?? ""), to: "index.html")
        try write(templates.page("404"), context.notFound(), to: "404.html")
        return md
    }

    /// A standalone page; its folder, for the sitemap, and its Markdown, for the index.
    func page(_ p: StandalonePage) throws -> (folder: String, markdown: RenderedMarkdown?) {
        let md = try markdown(p.page, page: "\(p.slug)/")
        let html = md?.html(droppingTitle: p.titleFromHeading) ?? ""
        try write(templates.page("page"), context.page(p, contentHTML: html), to: "\(p.slug)/index.html")
        return ("\(p.slug)/", md)
    }

}
