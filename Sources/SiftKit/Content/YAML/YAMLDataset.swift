/// Reads a `.yml` / `.yaml` dataset: a top-level sequence of mappings, one record each.
public enum YAMLDataset {
    /// The records in file order, each at the position of its mapping; an empty file gives none.
    public static func records(from text: String, path: String) throws -> [Record] {
        let root = try YAML.parse(text, path: path)
        switch root.value {
        case .null:
            return []
        case .list:
            return try root.elements.map { element in
                guard case .map(let fields) = element.value else {
                    throw SiftError("each item of a YAML dataset must be a mapping of keys to values", at: element.position)
                }
                return Record(fields: fields, position: element.position)
            }
        default:
            throw SiftError("a YAML dataset must be a sequence of mappings (one '- key: value' block per item)",
                            at: root.position)
        }
    }
}
