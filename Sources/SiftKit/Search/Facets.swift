import Foundation

/// The facets and sort orders of the collections a search considers, read from their
/// facets-C.json files on demand: the filter, the counts and the order applied at the edges of
/// `SearchIndex.search` (docs/search-index.md, "Filters, counts and sorting"; sift-core.js's
/// facets.js does the same).
struct Facets {
    /// One facet field across the considered collections: its values in order, each value's documents.
    struct Field {
        var name: String
        var values: [String] = []
        var members: [Set<Int>] = []
    }

    var fields: [Field] = []
    /// Per sort field, each document's place in ascending order (none: the document has no value).
    var orders: [String: [Int: Int]] = [:]

    /// Reads the facet files of `collections` (documents numbered from each one's `first`).
    init(_ collections: [SearchIndex.Collection], store: ShardStore) throws {
        for c in collections {
            guard let file = c.facetsFile else { continue }
            guard let table = try store.object(file) as? [String: Any],
                  let facets = table["facets"] as? [[String: Any]], let sorts = table["sorts"] as? [[String: Any]] else {
                throw store.corrupt(file, "collection “\(c.name)”: expected an object of facets and sorts")
            }
            for f in facets {
                guard let name = f["name"] as? String, let values = f["values"] as? [String] else {
                    throw store.corrupt(file, "collection “\(c.name)”: a facet: expected a name and values")
                }
                let holders = try Self.holders(f, values: values, count: c.count, corrupt: { store.corrupt(file, "facet “\(name)”: \($0)") })
                let i = fields.firstIndex { SearchIndex.same($0.name, name) } ?? fields.count
                if i == fields.count { fields.append(Field(name: name)) }
                for (value, docs) in zip(values, holders) {
                    let v = fields[i].values.firstIndex { SearchIndex.same($0, value) } ?? fields[i].values.count
                    if v == fields[i].values.count {
                        fields[i].values.append(value)
                        fields[i].members.append([])
                    }
                    fields[i].members[v].formUnion(docs.map { c.first + Int($0) })
                }
            }
            for s in sorts {
                guard let name = s["name"] as? String, let codes = s["order"] as? String,
                      let order = IndexFormat.decodeCodes(codes, count: c.count, limit: Int.max) else {
                    throw store.corrupt(file, "collection “\(c.name)”: a sort: expected a name and \(c.count) codes")
                }
                // Code 0: no value; else the value's place in ascending order, from 1.
                for (d, place) in order.enumerated() where place > 0 { orders[name, default: [:]][c.first + d] = place }
                if orders[name] == nil { orders[name] = [:] }
            }
        }
    }

    /// Each value's documents within the collection, from its postings or from each document's set of values.
    static func holders(_ f: [String: Any], values: [String], count: Int, corrupt: (String) -> SiftError) throws -> [Set<Int32>] {
        if let postings = f["postings"] as? [String] {
            guard postings.count == values.count else { throw corrupt("expected postings for \(values.count) values") }
            return try postings.map { p in
                guard let docs = IndexFormat.decodePostings(p, below: count) else { throw corrupt("expected postings below \(count)") }
                return Set(docs)
            }
        }
        guard let sets = f["sets"] as? [[Int]], sets.allSatisfy({ $0.allSatisfy { values.indices.contains($0) } }),
              let ids = setCodes(f, sets: sets.count, count: count) else {
            throw corrupt("expected postings, or sets of values and \(count) codes")
        }
        var holders = [Set<Int32>](repeating: [], count: values.count)
        for (d, id) in ids.enumerated() { for v in sets[id] { holders[v].insert(Int32(d)) } }
        return holders
    }

    /// Each document's set, from its codes (`ids`) or their entropy code (`frequencies` and `rans`).
    static func setCodes(_ f: [String: Any], sets: Int, count: Int) -> [Int]? {
        if let codes = f["ids"] as? String { return IndexFormat.decodeCodes(codes, count: count, limit: sets) }
        guard let frequencies = f["frequencies"] as? [Int], frequencies.count == sets, let code = f["rans"] as? String else { return nil }
        return EntropyCode.decode(code, frequencies: frequencies, count: count)
    }

    /// The selected values by field, each field once, checked against the facets there are, as
    /// the documents holding one of the field's selected values.
    func selection(_ filters: [(field: String, value: String)]) throws -> [(field: Int, holders: Set<Int>)] {
        var out: [(field: Int, holders: Set<Int>)] = []
        for (field, value) in filters {
            guard let f = fields.firstIndex(where: { SearchIndex.same($0.name, field) }) else {
                let known = fields.map(\.name).joined(separator: ", ")
                throw SiftError("unknown facet “\(field)” (facets: \(known.isEmpty ? "none" : known))", at: nil)
            }
            let holders = fields[f].values.indices.filter { SearchIndex.same(fields[f].values[$0], value) }.reduce(into: Set<Int>()) { $0.formUnion(fields[f].members[$1]) }
            if let i = out.firstIndex(where: { $0.field == f }) { out[i].holders.formUnion(holders) } else { out.append((f, holders)) }
        }
        return out
    }

    /// Whether a document passes every selected field but `except`: it holds one of its selected values.
    func passes(_ doc: Int, _ selection: [(field: Int, holders: Set<Int>)], except: Int? = nil) -> Bool {
        selection.allSatisfy { $0.field == except || $0.holders.contains(doc) }
    }

    /// Each value's count over `matches`: the documents that pass every other field's selection
    /// and hold it; each value's documents looked up among the passing, or the passing among
    /// them, whichever are fewer (a field of 2,000 values over 50,000 matches is not 100 million lookups).
    func counts(_ matches: [Int], _ selection: [(field: Int, holders: Set<Int>)]) -> [SearchResponse.FacetCounts] {
        fields.enumerated().map { f, field in
            let passing = Set(matches.filter { passes($0, selection, except: f) })
            return SearchResponse.FacetCounts(field: field.name, values: field.values.indices.map { v in
                let (few, many) = field.members[v].count < passing.count ? (field.members[v], passing) : (passing, field.members[v])
                return (field.values[v], few.reduce(0) { $0 + (many.contains($1) ? 1 : 0) })
            })
        }
    }

    /// The documents' order by a sort field (`-field` descending), stable; documents without a value last.
    func sorted(_ docs: [Int], by sort: String) throws -> [Int] {
        let descending = sort.hasPrefix("-")
        let name = descending ? String(sort.dropFirst()) : sort
        guard let order = orders.first(where: { SearchIndex.same($0.key, name) })?.value else {
            let known = orders.keys.sorted().joined(separator: ", ")
            throw SiftError("unknown sort field “\(name)” (sort fields: \(known.isEmpty ? "none" : known))", at: nil)
        }
        return docs.enumerated().sorted { a, b in
            let x = order[a.element].map { descending ? -$0 : $0 }, y = order[b.element].map { descending ? -$0 : $0 }
            if x != y { return y == nil || (x != nil && x! < y!) }
            return a.offset < b.offset
        }.map(\.element)
    }
}
