/// Reads a `.txt` dataset: one item a line, the trimmed line its `title`.
public enum TextDataset {
    /// The records of a text file; blank lines are skipped, LF and CRLF line ends both work.
    public static func records(from text: String, path: String) -> [Record] {
        var records: [Record] = []
        var line = 0
        // Splitting the UTF-8 view on LF rather than the Characters: Swift treats CRLF as one
        // Character, so a Character split would miss Windows line ends.
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            line += 1
            let scalars = Substring(bytes).unicodeScalars
            guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
                let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
            else { continue }
            var fields = Fields()
            fields["title"] = .string(String(scalars[first...last]))
            records.append(Record(fields: fields, position: SourcePosition(path: path, line: line, column: 1)))
        }
        return records
    }
}
