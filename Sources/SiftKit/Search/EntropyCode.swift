/// A column of symbols in about the fewest base64 digits their frequencies allow, as range
/// asymmetric numeral systems (rANS) code them (docs/search-index.md, "Entropy-coded columns";
/// sift-facets.js's decodeEntropyCode reads them): a facet's value sets at one code a document
/// compress under gzip to about 1.5 times their entropy, this to within a few per cent of it.
enum EntropyCode {
    /// The frequencies of a column's symbols add up to 2^scaleBits.
    static let scaleBits = 12
    /// The coder's state stays in [lower, lower · 64): 29 bits, exact in a JavaScript number.
    static let lower = 1 << 23
    /// The state's digits at the start of the code.
    static let stateDigits = 5

    /// Frequencies for symbols seen `counts` times, each at least 1, adding up to 2^scaleBits;
    /// nil for no symbols or more than 2^scaleBits of them.
    static func frequencies(_ counts: [Int]) -> [Int]? {
        let total = counts.reduce(0, +), scale = 1 << scaleBits
        guard !counts.isEmpty, counts.count <= scale, total > 0 else { return nil }
        var f = counts.map { max(1, $0 * scale / total) }
        // What rounding left over goes to, or comes from, the symbols it costs the least.
        while f.reduce(0, +) < scale {
            let i = f.indices.max { Double(counts[$0]) / Double(f[$0]) < Double(counts[$1]) / Double(f[$1]) }!
            f[i] += 1
        }
        while f.reduce(0, +) > scale {
            let i = f.indices.filter { f[$0] > 1 }.max { Double(f[$0]) / Double(counts[$0]) < Double(f[$1]) / Double(counts[$1]) }!
            f[i] -= 1
        }
        return f
    }

    /// The code of `symbols` (each an index into `frequencies`, none of frequency 0).
    static func encode(_ symbols: [Int], frequencies f: [Int]) -> String {
        var starts = [0]
        for value in f { starts.append(starts.last! + value) }
        var state = lower, digits: [Int] = []
        // The decoder reads the digits in the opposite order, so the symbols go in from the last.
        for s in symbols.reversed() {
            let limit = ((lower >> scaleBits) << 6) * f[s]
            while state >= limit {
                digits.append(state & 63)
                state >>= 6
            }
            state = (state / f[s]) << scaleBits + state % f[s] + starts[s]
        }
        for _ in 0..<stateDigits {
            digits.append(state & 63)
            state >>= 6
        }
        return IndexFormat.codes(digits.reversed(), limit: 64)
    }

    /// The `count` symbols of a code; nil unless the frequencies add up to 2^scaleBits, every
    /// character is base64 and the code ends exactly where the last symbol does.
    static func decode(_ code: String, frequencies f: [Int], count: Int) -> [Int]? {
        let scale = 1 << scaleBits
        guard f.allSatisfy({ $0 > 0 }), f.reduce(0, +) == scale, code.utf8.count >= stateDigits,
              let digits = IndexFormat.decodeCodes(code, count: code.utf8.count, limit: 64) else { return nil }
        var symbolAt = [Int](repeating: 0, count: scale), starts: [Int] = [], start = 0
        for (s, value) in f.enumerated() {
            starts.append(start)
            for slot in start..<start + value { symbolAt[slot] = s }
            start += value
        }
        var state = digits[..<stateDigits].reduce(0) { $0 << 6 | $1 }, next = stateDigits
        var out: [Int] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            let slot = state & (scale - 1), s = symbolAt[slot]
            out.append(s)
            state = f[s] * (state >> scaleBits) + slot - starts[s]
            while state < lower {
                guard next < digits.count else { return nil }
                state = state << 6 | digits[next]
                next += 1
            }
        }
        return state == lower && next == digits.count ? out : nil
    }
}
