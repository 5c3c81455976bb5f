/// A parsed YAML node: its plain `Value`, where it starts, and the same for every node inside it,
/// so callers can point an error at the exact element or key they reject.
public struct YAMLNode: Sendable, Hashable {
    /// One `key: value` pair of a mapping, in the order written.
    public struct Entry: Sendable, Hashable {
        /// The key's text as written.
        public var key: String
        /// Where the key starts.
        public var keyPosition: SourcePosition
        /// The value under the key.
        public var node: YAMLNode

        /// Creates an entry.
        public init(key: String, keyPosition: SourcePosition, node: YAMLNode) {
            self.key = key
            self.keyPosition = keyPosition
            self.node = node
        }
    }

    /// The whole node as a plain value (a mapping keeps its key order).
    public var value: Value
    /// Where the node starts (for a block mapping, its first key; for a sequence, its first `-` or `[`).
    public var position: SourcePosition
    /// A sequence's elements in order; empty for scalars and mappings.
    public var elements: [YAMLNode]
    /// A mapping's entries in order; empty for scalars and sequences.
    public var entries: [Entry]

    /// Creates a node; `value` should agree with `elements` or `entries`.
    public init(value: Value, position: SourcePosition, elements: [YAMLNode] = [], entries: [Entry] = []) {
        self.value = value
        self.position = position
        self.elements = elements
        self.entries = entries
    }

    /// The node under `key` when this node is a mapping.
    public subscript(key: String) -> YAMLNode? {
        entries.last { $0.key == key }?.node
    }

    /// The node at a dotted path (`search.instant`) through nested mappings; a key that itself
    /// contains dots is tried first, as `Fields.value(at:)` does.
    public func node(at path: String) -> YAMLNode? {
        if let direct = self[path] { return direct }
        guard let dot = path.firstIndex(of: ".") else { return nil }
        return self[String(path[..<dot])]?.node(at: String(path[path.index(after: dot)...]))
    }
}
