/// A parsed Mustache template: parse once, then render any number of times, from any thread.
///
/// Supports variables (HTML-escaped; raw with `{{{name}}}` or `{{& name}}`), dotted names,
/// `{{.}}`, sections, inverted sections, comments, delimiter changes, partials and template
/// inheritance (`{{< parent}}` with `{{$ block}}` overrides), following the Mustache spec.
public struct MustacheTemplate: Sendable {
    /// The names the tags of `nodes` look up first, in sections and blocks too.
    static func names(in nodes: [MustacheNode]) -> Set<String> {
        var out = Set<String>()
        for node in nodes {
            switch node {
            case .variable(let name, _): if let head = name.head { out.insert(head) }
            case .section(let name, let children, _, _):
                if let head = name.head { out.insert(head) }
                out.formUnion(names(in: children))
            case .parent(_, _, let overrides, _): for block in overrides.values { out.formUnion(names(in: block.content)) }
            case .block(let block): out.formUnion(names(in: block.content))
            default: break
            }
        }
        return out
    }

    /// Every partial and parent a template names (`{{> nav}}`, `{{< base}}`), with where, in
    /// sections, blocks and overrides too.
    static func templateNames(in nodes: [MustacheNode]) -> [(name: String, at: SourcePosition)] {
        var out: [(name: String, at: SourcePosition)] = []
        for node in nodes {
            switch node {
            case .partial(let name, _, let at): out.append((name, at))
            case .parent(let name, _, let overrides, let at):
                out.append((name, at))
                for block in overrides.values { out += templateNames(in: block.content) }
            case .section(_, let children, _, _): out += templateNames(in: children)
            case .block(let block): out += templateNames(in: block.content)
            default: break
            }
        }
        return out
    }

    /// The path errors are reported against.
    public let path: String
    let nodes: [MustacheNode]
    private let sourceSize: Int

    /// Parses `source`; throws a `SiftError` at `path:line:column` for malformed tags.
    public init(source: String, path: String) throws {
        var parser = MustacheParser(source: source, path: path)
        self.nodes = try parser.parse()
        self.path = path
        self.sourceSize = source.utf8.count
    }

    /// Renders the template against a context; missing names render as "", while a missing
    /// partial or parent, templates nested more than 64 deep, a page past 256 MB, or sections and
    /// templates entered more than 2^20 times past one per byte written (`MustacheRenderer.maxSteps`), throw a `SiftError`.
    public func render(_ context: Value, partials: any PartialResolver) throws -> String {
        String(decoding: try renderUTF8(context, partials: partials), as: UTF8.self)
    }

    /// Renders to UTF-8 bytes, for writing pages without making a String of each first.
    public func renderUTF8(_ context: Value, partials: any PartialResolver) throws -> [UInt8] {
        try renderUTF8(context, partials: partials, stepLimit: MustacheRenderer.maxSteps, outputLimit: MustacheRenderer.maxOutput)
    }

    /// Renders with at most `stepLimit` sections and templates entered past one per byte written,
    /// and at most `outputLimit` bytes.
    func renderUTF8(_ context: Value, partials: any PartialResolver, stepLimit: Int, outputLimit: Int) throws -> [UInt8] {
        var renderer = MustacheRenderer(context: context, partials: partials, capacity: max(1024, sourceSize * 2), stepLimit: stepLimit, outputLimit: outputLimit)
        try renderer.render(nodes)
        return renderer.out
    }
}
