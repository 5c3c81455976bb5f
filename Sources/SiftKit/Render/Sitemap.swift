/// sitemap.xml, as search engines read it (sitemaps.org): one file of every URL, or past
/// `maxURLs` an index of files `sitemap-N.xml` of at most that many each, as the protocol asks.
public enum Sitemap {
    /// The most URLs one sitemap file may list (sitemaps.org, "Sitemap file location").
    public static let maxURLs = 50_000

    /// The sitemap's files (name in the output folder, text) for these absolute URLs, in
    /// order: sitemap.xml alone, or sitemap.xml indexing `sitemap-1.xml`, `sitemap-2.xml`, …;
    /// `absolute` makes a part's name into its URL.
    public static func files(_ urls: [String], absolute: (String) -> String) -> [(name: String, text: String)] {
        let names = fileNames(count: urls.count)
        guard names.count > 1 else { return [("sitemap.xml", xml(urls))] }
        let parts = names.dropFirst().enumerated().map { n, name in
            (name: name, text: xml(urls[n * maxURLs..<min((n + 1) * maxURLs, urls.count)]))
        }
        var index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for part in parts { index += "  <sitemap><loc>\(HTML.escape(absolute(part.name)))</loc></sitemap>\n" }
        return [("sitemap.xml", index + "</sitemapindex>\n")] + parts
    }

    /// The names of the files `files` writes for `count` URLs: sitemap.xml, then its parts, if any.
    public static func fileNames(count: Int) -> [String] {
        ["sitemap.xml"] + (count > maxURLs ? (1...(count + maxURLs - 1) / maxURLs).map { "sitemap-\($0).xml" } : [])
    }

    /// One sitemap file of these absolute URLs, in order.
    public static func xml<URLs: Sequence<String>>(_ urls: URLs) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for u in urls { out += "  <url><loc>\(HTML.escape(u))</loc></url>\n" }
        return out + "</urlset>\n"
    }
}
