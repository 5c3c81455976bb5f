/// A 64-bit hash that is the same in every process and on every run (Swift's `Hasher` is
/// seeded per process), for the keys of the incremental build cache.
struct StableHasher {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Mixes in bytes, eight at a time, then the last few with their count.
    mutating func combine(bytes: UnsafeRawBufferPointer) {
        var stream = Stream(self)
        stream.add(bytes)
        self = stream.finish()
    }

    /// Mixes in bytes given a piece at a time, as `combine(bytes:)` mixes them given at once.
    struct Stream {
        private var hasher: StableHasher
        private var tail: UInt64 = 0
        private var count = 0

        init(_ hasher: StableHasher = StableHasher()) { self.hasher = hasher }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var i = 0
            // The word the last piece began, then whole words, then the start of the next.
            while i < bytes.count && count % 8 != 0 {
                tail |= UInt64(bytes[i]) << (UInt64(count % 8) * 8)
                count += 1; i += 1
                if count % 8 == 0 { hasher.mix(tail); tail = 0 }
            }
            while i + 8 <= bytes.count {
                hasher.mix(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                count += 8; i += 8
            }
            while i < bytes.count {
                tail |= UInt64(bytes[i]) << (UInt64(count % 8) * 8)
                count += 1; i += 1
            }
        }

        /// The hasher with every piece mixed in, as `combine(bytes:)` leaves it.
        func finish() -> StableHasher {
            var h = hasher
            h.mix(tail ^ (UInt64(truncatingIfNeeded: count) << 56))
            return h
        }
    }

    mutating func combine(_ s: String) {
        var s = s
        s.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    mutating func combine(_ v: UInt64) { mix(v) }

    fileprivate mutating func mix(_ v: UInt64) {
        state = (state ^ (v &* 0xBF58_476D_1CE4_E5B9)).rotatedLeft(27) &* 0x94D0_49BB_1331_11EB &+ 0x6A09_E667_F3BC_C909
    }

    /// The hash of everything combined so far.
    func finalize() -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}
