/// One row of a dataset: its fields in source order and where it starts.
public struct Record: Sendable, Hashable {
    /// The row's values by column or key name, in the order the source gives them.
    public var fields: Fields
    /// Where the row starts, so later stages can point errors about an item at its source.
    public var position: SourcePosition

    /// Creates a record.
    public init(fields: Fields, position: SourcePosition) {
        self.fields = fields
        self.position = position
    }
}
