/// sitemap.xml, as search engines read it.
public enum Sitemap {
    /// The sitemap of these absolute URLs, in order.
    public static func xml(_ urls: [String]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for u in urls { out += "  <url><loc>\(HTML.escape(u))</loc></url>\n" }
        return out + "</urlset>\n"
    }
}
