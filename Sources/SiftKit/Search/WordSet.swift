import Foundation

/// Distinct words numbered in the order they came, with their hashes: an open-addressing set
/// over the words' bytes. One document's words are gathered in one, and each partition's
/// word table keeps its words in another.
struct WordSet {
    /// The words' UTF-8, one after the other.
    var bytes: [UInt8] = []
    /// Where each word ends in `bytes`.
    var ends: [UInt32] = []
    /// Each word's `WordHash`.
    var hashes: [UInt64] = []
    /// Word ids placed by hash, -1 where empty; a power of two long, grown when half full.
    private var slots: [Int32]

    /// An empty set; `reserve` (or a non-zero `slotCount`) must come before the first insert.
    init(slotCount: Int = 0) {
        slots = [Int32](repeating: -1, count: slotCount)
    }

    /// The words of `bytes` ending at `ends`, with their hashes, numbered in that order.
    init(bytes: [UInt8], ends: [UInt32], hashes: [UInt64]) {
        self.init(slotCount: Self.slotCount(for: hashes.count))
        self.bytes = bytes
        self.ends = ends
        self.hashes = hashes
        place()
    }

    var count: Int { ends.count }

    /// Where word `id` lies in `bytes`.
    @inline(__always)
    func range(of id: Int) -> Range<Int> {
        (id == 0 ? 0 : Int(ends[id - 1]))..<Int(ends[id])
    }

    /// Makes room for about `n` words, starting with empty slots.
    mutating func reserve(_ n: Int) {
        slots = [Int32](repeating: -1, count: Self.slotCount(for: n))
        bytes.reserveCapacity(n * 4)
        ends.reserveCapacity(n / 2)
        hashes.reserveCapacity(n / 2)
    }

    /// Slots for `n` words: a power of two, at least 64 and twice `n`.
    private static func slotCount(for n: Int) -> Int {
        var capacity = 64
        while capacity < n * 2 { capacity <<= 1 }
        return capacity
    }

    /// The id of a word with hash `h`, added at the end when it is new.
    @inline(__always)
    @discardableResult
    mutating func insert(_ word: UnsafeBufferPointer<UInt8>, hash h: UInt64) -> Int {
        let length = word.count
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h >> 32) & mask
        while true {
            let id = Int(slots[i])
            if id < 0 { break }
            if hashes[id] == h {
                let start = id == 0 ? 0 : Int(ends[id - 1])
                if Int(ends[id]) - start == length
                    && bytes.withUnsafeBufferPointer({ Self.sameBytes($0.baseAddress! + start, word.baseAddress!, length) }) {
                    return id
                }
            }
            i = (i + 1) & mask
        }
        let id = hashes.count
        slots[i] = Int32(id)
        bytes.append(contentsOf: word)
        ends.append(UInt32(bytes.count))
        hashes.append(h)
        if hashes.count * 2 > slots.count { grow() }
        return id
    }

    /// Doubles the slots and places every word again by its hash.
    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        place()
    }

    /// Places every word in the empty slots by its hash.
    private mutating func place() {
        let mask = slots.count - 1
        for (id, h) in hashes.enumerated() {
            var k = Int(truncatingIfNeeded: h >> 32) & mask
            while slots[k] >= 0 { k = (k + 1) & mask }
            slots[k] = Int32(id)
        }
    }

    @inline(__always)
    private static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        // Words are short: a byte loop beats a call to memcmp.
        if n > 24 { return memcmp(a, b, n) == 0 }
        for i in 0..<n where a[i] != b[i] { return false }
        return true
    }
}
