/// The state of one render: the output, the context stack, the indentation of the
/// partial being rendered, and the block overrides of the enclosing `{{< parent}}` tags.
struct MustacheRenderer {
    /// How deep partials, parents and overridden blocks may nest before rendering stops.
    static let maxDepth = 64
    /// The most bytes one render may write: partials that each include the next several times
    /// grow exponentially (the billion-laughs shape) and would otherwise never finish.
    static let maxOutput = 256 << 20
    /// The most sections (each item of a list once) and templates one render may enter past one
    /// per byte it writes: nested sections of a list that every item's context still finds, or
    /// partials that each include the next in one, grow exponentially while writing nothing.
    static let maxSteps = 1 << 20

    /// UTF-8 output; byte appends are cheaper than String's, and the bytes become one String at the end.
    var out: [UInt8]
    private var stack: [Value]
    private var indent = ""
    /// Outermost first: the most derived template's override wins.
    private var overrides: [[String: MustacheBlock]] = []
    private var depth = 0
    private var steps = 0
    private let stepLimit: Int
    private let outputLimit: Int
    private let partials: any PartialResolver

    init(context: Value, partials: any PartialResolver, capacity: Int, stepLimit: Int = maxSteps, outputLimit: Int = maxOutput) {
        self.stepLimit = stepLimit
        self.outputLimit = outputLimit
        out = []
        out.reserveCapacity(capacity)
        stack = [context]
        stack.reserveCapacity(8)
        self.partials = partials
    }

    mutating func render(_ nodes: [MustacheNode]) throws {
        for node in nodes {
            switch node {
            case .text(let s):
                out.append(contentsOf: s.utf8)
            case .lineStart:
                if !indent.isEmpty { out.append(contentsOf: indent.utf8) }
            case .variable(let name, let escaped):
                switch lookup(name) {
                case .string(let s)?, .number(let s)?:
                    if escaped { HTML.append(escaping: s, to: &out) } else { out.append(contentsOf: s.utf8) }
                case .bool(let b)?:
                    out.append(contentsOf: (b ? "true" : "false").utf8)
                default:
                    break
                }
            case .section(let name, let children, let inverted, let position):
                try renderSection(name, children, inverted: inverted, at: position)
            case .partial(let name, let extra, let position):
                try renderTemplate(try resolve(name, at: position, tag: ">"), indent: extra)
            case .parent(let name, let extra, let blocks, let position):
                let template = try resolve(name, at: position, tag: "<")
                overrides.append(blocks)
                try renderTemplate(template, indent: extra)
                overrides.removeLast()
            case .block(let block):
                let content = override(of: block.name)
                if content != nil, depth >= Self.maxDepth {
                    throw SiftError("block '\(block.name)' nests more than \(Self.maxDepth) levels deep", at: block.position)
                }
                let saved = indent
                if let extra = block.indent { indent += extra }
                depth += 1
                try render(content ?? block.content)
                depth -= 1
                indent = saved
            }
        }
    }

    /// A section once for a true value, once per item of a list; an inverted one for a false value.
    private mutating func renderSection(_ name: MustacheName, _ children: [MustacheNode], inverted: Bool, at position: SourcePosition) throws {
        let value = lookup(name) ?? .null
        if inverted {
            if !value.isTruthy { try render(children) }
        } else if case .list(let items) = value {
            for item in items {
                try account("#" + name.full, at: position)
                stack.append(item)
                try render(children)
                stack.removeLast()
            }
        } else if value.isTruthy {
            try account("#" + name.full, at: position)
            stack.append(value)
            try render(children)
            stack.removeLast()
        }
    }

    /// A partial's or parent's nodes, one level deeper and indented by `extra` more.
    private mutating func renderTemplate(_ template: MustacheTemplate, indent extra: String) throws {
        let saved = indent
        indent += extra
        depth += 1
        try render(template.nodes)
        depth -= 1
        indent = saved
    }

    /// Counts a section or template entered, and stops a render grown past its limits.
    private mutating func account(_ tag: String, at position: SourcePosition?) throws {
        steps += 1
        guard steps <= stepLimit + out.count else {
            throw SiftError("'{{\(tag)}}' makes the page enter sections and templates \(steps) times for \(out.count) bytes: do partials or sections repeat each other?", at: position)
        }
        guard out.count <= outputLimit else {
            throw SiftError("'{{\(tag)}}' makes the page larger than \(outputLimit >> 20) MB: do partials or sections repeat each other?", at: position)
        }
    }

    private mutating func resolve(_ name: String, at position: SourcePosition, tag: String) throws -> MustacheTemplate {
        try account(tag + name, at: position)
        guard depth < Self.maxDepth else {
            throw SiftError("'{{\(tag)\(name)}}' nests templates more than \(Self.maxDepth) levels deep", at: position)
        }
        guard let template = try partials.template(named: name) else {
            throw SiftError("no template named '\(name)'", at: position)
        }
        return template
    }

    private func override(of name: String) -> [MustacheNode]? {
        for level in overrides {
            if let block = level[name] { return block.content }
        }
        return nil
    }

    /// Finds the nearest context that holds the name's head, then follows the rest of a dotted
    /// name through that value only (spec "Dotted Names - Context Precedence"). As in `Fields`,
    /// a key that itself contains dots is tried first.
    private func lookup(_ name: MustacheName) -> Value? {
        guard let head = name.head else { return stack.last }
        var i = stack.count - 1
        while i >= 0 {
            if case .map(let fields) = stack[i] {
                if let rest = name.rest {
                    if let whole = fields[name.full] { return whole }
                    if let value = fields[head] { return value.value(at: rest) }
                } else if let value = fields[head] {
                    return value
                }
            }
            i -= 1
        }
        return nil
    }
}
