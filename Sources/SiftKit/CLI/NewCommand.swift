import Foundation

/// `sift new DIR`: a small site that builds at once, to start from.
enum NewCommand: Command {
    static let name = "new"
    static let help = """
        Usage: sift new DIR

        Creates a site in DIR (a new or empty folder): Content/ with a fruits collection
        (a CSV with scopes and one Markdown detail page), an introduction, an about page and
        site.yml with every search option commented; Templates/ with the layout and a CSS file
        to edit; a README. Then: cd DIR && sift serve

        """

    /// The skeleton's files by path, from Sources/SiftKit/Resources/new-site/.
    static var files: [(path: String, bytes: [UInt8])] {
        [
            ("README.md", PackageResources.newsite_README_md),
            (".gitignore", PackageResources.newsite_gitignore),
            ("Content/site.yml", PackageResources.newsite_site_yml),
            ("Content/index.md", PackageResources.newsite_index_md),
            ("Content/about.md", PackageResources.newsite_about_md),
            ("Content/fruits/collection.yml", PackageResources.newsite_collection_yml),
            ("Content/fruits/fruits.csv", PackageResources.newsite_fruits_csv),
            ("Content/fruits/lemon.md", PackageResources.newsite_lemon_md),
            ("Templates/layout.mustache", Array(layout.utf8)),
            ("Templates/assets/custom.css", PackageResources.newsite_custom_css),
        ]
    }

    /// The built-in layout with a link to assets/custom.css (by its immutable name) after the built-in styles.
    static var layout: String {
        let base = BuiltinResources.templates.first { $0.0 == "layout" }?.1 ?? ""
        let link = "<link rel=\"stylesheet\" href=\"{{assets.custom_css}}\">\n"
        if let r = base.range(of: "{{/assets.theme_css}}\n") { return base.replacingCharacters(in: r, with: base[r] + link) }
        if let r = base.range(of: "</head>") { return base.replacingCharacters(in: r, with: link + "</head>") }
        return base
    }

    static func run(_ args: inout ArgumentList) throws -> SiftCLI.Outcome {
        var dir: String?
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return helpOutcome
            default:
                if arg.hasPrefix("-") && arg.count > 1 { throw UsageError("unknown option '\(arg)' for sift new") }
                guard dir == nil else { throw UsageError("sift new takes one DIR") }
                dir = arg
            }
        }
        guard let dir else { throw UsageError("sift new needs a DIR: sift new mysite") }
        let root = args.url(dir)
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: root.path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw SiftError("\(dir) is a file: sift new needs a new or empty folder", at: nil) }
            if let entries = try? fm.contentsOfDirectory(atPath: root.path), !entries.isEmpty {
                throw SiftError("\(dir) is not empty: sift new only writes into a new or empty folder, so nothing was changed", at: nil)
            }
        }
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileSystem.makeDirectory(url.deletingLastPathComponent().path)
            try FileSystem.write(bytes, to: url.path)
        }
        let out = """
            Created a site in \(dir). Next:
              cd \(dir)
              sift serve      # then open http://127.0.0.1:8000/ and edit Content/

            """
        return SiftCLI.Outcome(status: 0, stdout: out, stderr: "")
    }
}
