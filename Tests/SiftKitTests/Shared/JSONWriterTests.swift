import Foundation
import Testing
@testable import SiftKit

@Suite struct JSONWriterTests {
    /// Every string Sift writes reads back as itself: quotes, backslashes and control
    /// characters escaped, other bytes (UTF-8 past ASCII too) as they are, whether the bytes
    /// lie in one piece or not.
    @Test func stringsReadBackAsThemselves() throws {
        let texts = ["", "plain", "\"", "\\", "a\"b\\c\nd\re\tf\u{0}g\u{1f}h", "中文 \u{1F600} é\u{301}", "\u{7f}end\"", "\"start"]
        for text in texts {
            var contiguous: [UInt8] = [], pieces: [UInt8] = []
            JSONWriter.string(text.utf8, into: &contiguous)
            JSONWriter.string(text.utf8.lazy.map { $0 }, into: &pieces)
            #expect(contiguous == pieces)
            let read = try JSONSerialization.jsonObject(with: Data(contiguous), options: .fragmentsAllowed) as? String
            #expect(read == text, "\(String(decoding: contiguous, as: UTF8.self))")
        }
        var bytes: [UInt8] = []
        JSONWriter.string("a\u{1}\"".utf8, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\"a\\u0001\\\"\"")
    }
}
