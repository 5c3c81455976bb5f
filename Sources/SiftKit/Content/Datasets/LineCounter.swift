/// Turns byte offsets into `line:column` positions for the dataset readers.
///
/// Readers work on UTF-8 bytes for speed but report positions the way an editor shows them,
/// with columns in Unicode scalars. The counter only moves forward, so asking for the
/// position of every row in order costs one pass over the text in all, even on a
/// minified JSON file that is a single line.
struct LineCounter {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    private var scanned = 0
    private var line = 1
    private var column = 1

    init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// The position of the byte at `offset` (or of the end of the text when `offset == bytes.count`).
    mutating func position(of offset: Int) -> SourcePosition {
        if offset < scanned {
            scanned = 0
            line = 1
            column = 1
        }
        while scanned < offset {
            let byte = bytes[scanned]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            scanned += 1
        }
        return SourcePosition(path: path, line: line, column: column)
    }

    /// The 1-based scalar column of `offset` on a line that starts at byte `lineStart`.
    static func column(in bytes: UnsafeBufferPointer<UInt8>, lineStart: Int, offset: Int) -> Int {
        var column = 1
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return column
    }
}
