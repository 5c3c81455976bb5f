/// A word's 64-bit hash: FNV-1a over its UTF-8, then a finalizer so that high and low bits
/// both mix (the low bits pick a word's partition, the high ones its slot).
enum WordHash {
    static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The hash so far with one more byte.
    @inline(__always)
    static func adding(_ byte: UInt8, to h: UInt64) -> UInt64 {
        (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The finished hash of the bytes added.
    @inline(__always)
    static func finish(_ fnv: UInt64) -> UInt64 {
        var h = fnv
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }
}
