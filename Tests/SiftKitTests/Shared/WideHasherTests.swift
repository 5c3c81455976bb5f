import Testing
@testable import SiftKit

/// `WideHasher` checks cache files of hundreds of megabytes: any one byte changed, anywhere in
/// the lanes or the rest, changes the hash, and so does moving bytes from one piece to the next.
struct WideHasherTests {
    func hash(_ pieces: [[UInt8]]) -> UInt64 {
        var h = WideHasher()
        for p in pieces { p.withUnsafeBytes { h.combine(bytes: $0) } }
        return h.finalize()
    }

    @Test func everyByteCounts() {
        var rng = SeededRNG(state: 3)
        let bytes = (0..<203).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let base = hash([bytes])
        #expect(hash([bytes]) == base, "the same bytes, the same hash")
        for i in bytes.indices {
            var changed = bytes
            changed[i] ^= 1 << UInt8(i % 8)
            #expect(hash([changed]) != base, "byte \(i)")
        }
        #expect(hash([Array(bytes[..<100]), Array(bytes[100...])]) != base, "pieces are hashed as pieces")
        #expect(hash([bytes + [0]]) != base && hash([[]]) != hash([]), "lengths count")
    }
}
