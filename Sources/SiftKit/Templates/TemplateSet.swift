import Foundation

/// The templates a build renders with: the built-in defaults, overridden by the site's
/// Templates/ folder, including per-collection `list` and `detail` overrides.
public struct TemplateSet: PartialResolver, Sendable {
    /// Page templates and partials by name (`layout`, `list`, `nav`, `candies/list` …).
    private var templates: [String: MustacheTemplate] = [:]
    /// A hash of every template's source, so a build cache knows when templates changed.
    public private(set) var fingerprint: UInt64 = 0
    /// The site's own templates: each name, and its file as messages print it.
    private var siteFiles: [String: String] = [:]

    /// Loads the defaults, then every `.mustache` file under `Templates/` (except `assets/`).
    public init(siteTemplates folder: URL?, display: (String) -> String) throws {
        var errors: [SiftError] = []
        var hasher = StableHasher()
        for (name, source) in BuiltinResources.templates {
            hasher.combine(name)
            hasher.combine(source)
            do { templates[name] = try MustacheTemplate(source: source, path: "(built-in)/\(name).mustache") } catch let e as SiftError { errors.append(e) }
        }
        if let folder, FileSystem.isDirectory(folder) {
            let files = Self.mustacheFiles(in: folder, prefix: "", ancestors: Set([FolderIdentity(folder.path)].compactMap { $0 }),
                                           display: display, errors: &errors)
            for relative in files {
                let path = display("Templates/\(relative)")
                do {
                    let text = try SourceText.decode(try FileSystem.read(folder.appendingPathComponent(relative), displayPath: path), path: path)
                    hasher.combine(relative)
                    hasher.combine(text)
                    var name = String(relative.dropLast(".mustache".count))
                    if name.hasPrefix("partials/") { name = String(name.dropFirst("partials/".count)) }
                    templates[name] = try MustacheTemplate(source: text, path: path)
                    siteFiles[name] = path
                } catch let e as SiftError { errors.append(e) }
            }
        }
        fingerprint = hasher.finalize()
        // A partial no template has is an error now, not only once a page renders the tag
        // (a section no item enters yet hid it until the first page that did).
        for name in templates.keys.sorted() {
            for (partial, at) in MustacheTemplate.templateNames(in: templates[name]!.nodes) where (try? template(named: partial)) == nil {
                errors.append(SiftError("no template named '\(partial)'", at: at))
            }
        }
        if let e = SiftError.combined(errors) { throw e }
    }

    /// The `.mustache` files under `folder`, by their path under it. A link to a folder is
    /// followed (`mags -> books` gives the books templates to mags too), unless it leads back to
    /// a folder above it (`ancestors`), a loop, or past `deepest` folders.
    /// A folder that is there and cannot be read is an error in `errors`, named by `display`.
    static func mustacheFiles(in folder: URL, prefix: String, ancestors: Set<FolderIdentity>,
                              display: (String) -> String, errors: inout [SiftError]) -> [String] {
        var out: [String] = []
        guard ancestors.count <= deepest else { return out }
        let names = FileSystem.sourceList(folder, display: display("Templates" + (prefix.isEmpty ? "" : "/" + prefix.dropLast())), errors: &errors)
        for name in names where !FileSystem.isHidden(name) {
            let url = folder.appendingPathComponent(name)
            if FileSystem.isDirectory(url) {
                if prefix.isEmpty && name == "assets" { continue }
                guard let id = FolderIdentity(url.path), !ancestors.contains(id) else { continue }
                out += mustacheFiles(in: url, prefix: prefix + name + "/", ancestors: ancestors.union([id]), display: display, errors: &errors)
            } else if name.hasSuffix(".mustache") {
                out.append(prefix + name)
            }
        }
        return out
    }

    /// How deep Templates/ is walked: links that do not loop can still fan out.
    static let deepest = 16

    /// Resolves partials and parents by name.
    /// Every name a template looks up first (`author` in `{{author.name}}`): a page's front matter
    /// key among them is a template variable, not a misspelling.
    public var names: Set<String> {
        templates.values.reduce(into: Set<String>()) { $0.formUnion(MustacheTemplate.names(in: $1.nodes)) }
    }

    public func template(named name: String) throws -> MustacheTemplate? {
        templates[name] ?? templates["partials/" + name]
    }

    /// The page kinds a build renders with (`page(_:collection:)`).
    static let pageKinds = ["home", "404", "page", "list", "detail"]

    /// A warning for each of the site's templates that no page is rendered with and no template
    /// includes, from what reaches them: a misnamed one (`lst.mustache`, a collection's folder
    /// spelt otherwise) is left out without a word.
    func unusedWarnings(collections: [String]) -> [SiftError] {
        var reached = Set<String>(), next = Self.pageKinds + collections.flatMap { c in ["list", "detail"].map { "\(c)/\($0)" } }
        while let name = next.popLast() {
            guard let key = templates[name] != nil ? name : (templates["partials/" + name] != nil ? "partials/" + name : nil),
                  reached.insert(key).inserted else { continue }
            next += MustacheTemplate.templateNames(in: templates[key]!.nodes).map(\.0)
        }
        return siteFiles.keys.filter { !reached.contains($0) }.sorted().map { name in
            SiftError("no page is rendered with this template and no template includes it (a collection's own are Templates/COLLECTION/list.mustache and detail.mustache)",
                      at: SourcePosition(path: siteFiles[name]!, line: 0), severity: .warning)
        }
    }

    /// The template for a page kind, preferring the collection's own override.
    public func page(_ kind: String, collection: String? = nil) -> MustacheTemplate {
        if let collection, let t = templates["\(collection)/\(kind)"] { return t }
        return templates[kind]!
    }
}
