/// Content-hashed file names, for files a host may cache forever (docs/deploy.md, "Immutable
/// names"): `NAME.HASH.EXT`, HASH the first 12 hex digits of the bytes' `StableHasher` hash, so
/// the same bytes get the same name in every build and other bytes another name.
enum ContentHash {
    /// Hex digits in a name's hash.
    static let digits = 12

    /// The hash of some bytes as it goes into a name.
    static func of(_ bytes: some Collection<UInt8>) -> String { hex(value(bytes)) }

    /// The 64-bit hash of some bytes, whose first digits `of` gives.
    static func value(_ bytes: some Collection<UInt8>) -> UInt64 {
        var h = StableHasher()
        let done: Void? = bytes.withContiguousStorageIfAvailable { h.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { h.combine(bytes: $0) } }
        return h.finalize()
    }

    /// A 64-bit hash as it goes into a name.
    static func hex(_ value: UInt64) -> String {
        // The first `digits` of its 16 lowercase digits, written at once: a string that short
        // needs no allocation, and an edit names 10,000 text files at 10k items.
        String(unsafeUninitializedCapacity: digits) { out in
            for i in 0..<digits {
                let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * i)) & 0xF
                out[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return digits
        }
    }

    /// `name` with the hash before its extension: `shard-3.json` → `shard-3.0123456789ab.json`,
    /// `assets/img/logo.png` → `assets/img/logo.0123456789ab.png`; a name without one ends with it.
    static func name(_ name: String, hash: String) -> String {
        let file = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        guard let dot = name[file...].lastIndex(of: "."), dot > file else { return name + "." + hash }
        return name[..<dot] + "." + hash + name[dot...]
    }

    /// `name` with the hash of `bytes`.
    static func name(_ name: String, for bytes: some Collection<UInt8>) -> String {
        Self.name(name, hash: of(bytes))
    }
}
