import Foundation

/// The templates a build renders with: the built-in defaults, overridden by the site's
/// Templates/ folder, including per-collection `list` and `detail` overrides.
public struct TemplateSet: PartialResolver, Sendable {
    /// Page templates and partials by name (`layout`, `list`, `nav`, `candies/list` …).
    private var templates: [String: MustacheTemplate] = [:]
    /// A hash of every template's source, so a build cache knows when templates changed.
    public private(set) var fingerprint: UInt64 = 0

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
            var walked = Set([FolderIdentity(folder.path)].compactMap { $0 })
            for relative in Self.mustacheFiles(in: folder, prefix: "", walked: &walked) {
                let path = display("Templates/\(relative)")
                do {
                    let text = try SourceText.decode(try FileSystem.read(folder.appendingPathComponent(relative), displayPath: path), path: path)
                    hasher.combine(relative)
                    hasher.combine(text)
                    var name = String(relative.dropLast(".mustache".count))
                    if name.hasPrefix("partials/") { name = String(name.dropFirst("partials/".count)) }
                    templates[name] = try MustacheTemplate(source: text, path: path)
                } catch let e as SiftError { errors.append(e) }
            }
        }
        fingerprint = hasher.finalize()
        if let e = SiftError.combined(errors) { throw e }
    }

    /// The `.mustache` files under `folder`, by their path under it; a folder already in `walked`
    /// (reached again through a link) is not entered again.
    static func mustacheFiles(in folder: URL, prefix: String, walked: inout Set<FolderIdentity>) -> [String] {
        var out: [String] = []
        for name in FileSystem.list(folder) where !FileSystem.isHidden(name) {
            let url = folder.appendingPathComponent(name)
            if FileSystem.isDirectory(url) {
                if prefix.isEmpty && name == "assets" { continue }
                guard let id = FolderIdentity(url.path), walked.insert(id).inserted else { continue }
                out += mustacheFiles(in: url, prefix: prefix + name + "/", walked: &walked)
            } else if name.hasSuffix(".mustache") {
                out.append(prefix + name)
            }
        }
        return out
    }

    /// Resolves partials and parents by name.
    /// Every name a template looks up first (`author` in `{{author.name}}`): a page's front matter
    /// key among them is a template variable, not a misspelling.
    public var names: Set<String> {
        templates.values.reduce(into: Set<String>()) { $0.formUnion(MustacheTemplate.names(in: $1.nodes)) }
    }

    public func template(named name: String) throws -> MustacheTemplate? {
        templates[name] ?? templates["partials/" + name]
    }

    /// The template for a page kind, preferring the collection's own override.
    public func page(_ kind: String, collection: String? = nil) -> MustacheTemplate {
        if let collection, let t = templates["\(collection)/\(kind)"] { return t }
        return templates[kind]!
    }
}
