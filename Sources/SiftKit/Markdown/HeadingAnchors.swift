#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts each heading's `id` into safe-mode HTML as it is copied out of the renderer's buffer.
///
/// Without raw HTML (cmark's safe mode) every `<` of text, code, attributes and raw HTML is
/// escaped or omitted, so each `<h1>`…`<h6>` in the output opens a heading, in document order:
/// the n-th one gets the n-th heading's id.
enum HeadingAnchors {
    /// The `count` bytes of NUL-terminated HTML at `pointer` with the ids in place, and the
    /// UTF-8 length of the leading title heading when `titleLeads` (else 0).
    static func insert(_ headings: [Heading], into pointer: UnsafeMutablePointer<CChar>, count: Int, titleLeads: Bool) -> (String, Int) {
        if headings.isEmpty { return (String(cString: pointer), 0) }
        var extra = 0
        for h in headings { extra += h.id.utf8.count + 6 }
        var leading = 0
        let html = String(unsafeUninitializedCapacity: count + extra) { out in
            let source = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            // `copied`: source bytes already in `out`; `searched`: where the search for `<` goes on.
            var written = 0, copied = 0, searched = 0, next = 0
            func copy(to end: Int) {
                guard end > copied else { return }
                (out.baseAddress! + written).update(from: source + copied, count: end - copied)
                written += end - copied
                copied = end
            }
            while next < headings.count, searched < count, let lt = memchr(source + searched, 0x3C, count - searched) {
                let at = UnsafeRawPointer(lt).assumingMemoryBound(to: UInt8.self) - source
                searched = at + 1
                guard at + 3 < count, source[at + 1] == 0x68, source[at + 3] == 0x3E,
                      source[at + 2] == 0x30 &+ UInt8(headings[next].level) else { continue }
                copy(to: at + 3)
                for byte in " id=\"".utf8 { out[written] = byte; written += 1 }
                for byte in headings[next].id.utf8 { out[written] = byte; written += 1 }
                out[written] = 0x22; written += 1
                next += 1
                if next == 1 && titleLeads, at == 0, let close = strstr(pointer + copied, "</h1>\n") {
                    leading = written + (close - (pointer + copied)) + 6
                }
            }
            copy(to: count)
            return written
        }
        return (html, leading)
    }
}
