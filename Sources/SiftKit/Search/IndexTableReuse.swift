/// What a build made of a collection's documents as a whole (its document table, its facets
/// file), with the key of everything it was made from (`DocumentTable.key`, `FacetTable.key`).
struct IndexTableRecord: Equatable, Sendable {
    var key: UInt64
    var json: String
}

/// How a build takes the last build's document tables and facets files as they were when their
/// documents give the key it recorded: a one-page edit that leaves every title, field, scope,
/// body length and facet as it was writes them again without laying them out (at 10k items,
/// 0.1 s of a 1 s build).
struct IndexTableReuse: Sendable {
    /// The last build's tables by name (`docs-C`, `facets-C`).
    var last: [String: IndexTableRecord]
    /// Told this build's tables once the index is rendered.
    var wrote: @Sendable (_ tables: [String: IndexTableRecord]) -> Void

    /// The table named `name` with this key: the last build's, else made.
    static func table(_ name: String, key: UInt64, reuse: IndexTableReuse?, made: inout [String: IndexTableRecord],
                      _ make: () -> String) -> String {
        let json = reuse?.last[name].flatMap { $0.key == key ? $0.json : nil } ?? make()
        made[name] = IndexTableRecord(key: key, json: json)
        return json
    }
}
