/// What a live builder (`sift serve`'s) keeps between renders, so that after an edit the
/// render recomputes only what the changed documents touched.
struct LiveIndexMemory {
    /// Each document's key as the caller gave it to `add(_:key:)`, for `update`.
    var keys: [UInt64] = []
    /// The words in byte order as the last render laid them out.
    var wordOrder: [WordRef] = []
    /// The document tables (JSON, per collection: its table, or its parts) while no document's fields change.
    var tables: [[String]]?
    /// The shard files and the bounds they were cut at.
    var shards: (bounds: [Int], files: ShardWriter.Files)?
    /// The answers files of the last render, with the key of what they were worked out from.
    var answers: IndexTableRecord?

    /// The words in byte order, from the last render's order: words gone are dropped, new
    /// ones merged in, so a rebuild after an edit sorts only the words it added.
    mutating func rank(_ words: WordList, tables: [WordTable]) -> [Int] {
        var global: [[Int32]] = tables.map { [Int32](repeating: -1, count: $0.count) }
        for g in 0..<words.count { let r = words.ref(g); global[Int(r.table)][Int(r.id)] = Int32(g) }
        var kept: [Int] = []
        kept.reserveCapacity(words.count)
        var placed = [Bool](repeating: false, count: words.count)
        for r in wordOrder where Int(r.id) < global[Int(r.table)].count {
            let g = Int(global[Int(r.table)][Int(r.id)])
            if g >= 0 { kept.append(g); placed[g] = true }
        }
        let added = words.inByteOrder((0..<words.count).filter { !placed[$0] })
        var rank: [Int] = []
        rank.reserveCapacity(words.count)
        var a = 0, b = 0
        while a < kept.count || b < added.count {
            if b == added.count || (a < kept.count && words.less(kept[a], added[b])) { rank.append(kept[a]); a += 1 }
            else { rank.append(added[b]); b += 1 }
        }
        wordOrder = rank.map(words.ref)
        return rank
    }
}
