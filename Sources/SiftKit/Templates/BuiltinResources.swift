/// The files compiled into the binary from Sources/SiftKit/Resources, so a folder with only
/// Content/ builds a complete site and the `sift` binary can be copied anywhere.
public enum BuiltinResources {
    /// Default templates by name; partials under their own name.
    public static let templates: [(String, String)] = [
        ("layout", text(PackageResources.layout_mustache)),
        ("home", text(PackageResources.home_mustache)),
        ("list", text(PackageResources.list_mustache)),
        ("detail", text(PackageResources.detail_mustache)),
        ("page", text(PackageResources.page_mustache)),
        ("404", text(PackageResources._04_mustache)),
    ] + partials

    static let partials: [(String, String)] = [
        ("nav", text(PackageResources.nav_mustache)),
        ("search", text(PackageResources.search_mustache)),
    ]

    /// Files written to public/assets/ by every build, by file name, as they are: the search
    /// bar's are esbuild's minified output of their sources in Web/ (`make js`).
    public static let assets: [(String, [UInt8])] = [
        ("site.css", PackageResources.site_css),
        ("sift.css", PackageResources.sift_css),
        ("sift.js", PackageResources.sift_js),
        ("sift-core.js", PackageResources.sift_core_js),
        ("sift-answers.js", PackageResources.sift_answers_js),
        ("sift-ranked.js", PackageResources.sift_ranked_js),
        ("sift-facets.js", PackageResources.sift_facets_js),
        ("sift-facet-bar.js", PackageResources.sift_facet_bar_js),
        ("sift-marks.js", PackageResources.sift_marks_js),
        ("sift-typos.js", PackageResources.sift_typos_js),
        ("sift-excerpts.js", PackageResources.sift_excerpts_js),
        ("sift-excerpt-view.js", PackageResources.sift_excerpt_view_js),
        ("sift-empty-state.js", PackageResources.sift_empty_state_js),
    ]

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
