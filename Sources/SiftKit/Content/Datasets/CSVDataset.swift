/// Reads `.csv` and `.tsv` datasets (RFC 4180): the first row names the columns, every
/// later row is a record whose values are all strings.
public enum CSVDataset {
    /// The records of a CSV file, or of a TSV file with `separator: "\t"`.
    ///
    /// Quoted fields may hold separators, doubled quotes and line breaks; lines end in LF or
    /// CRLF; empty lines are skipped. A row shorter than the header leaves its last columns
    /// out; a longer row, a stray quote, an unterminated quoted field and an empty or repeated
    /// column name are errors at their exact position. The separator must be one ASCII
    /// character other than a quote or a line break.
    public static func records(from text: String, path: String, separator: Character = ",") throws -> [Record] {
        try read(from: text, path: path, separator: separator).records
    }

    /// The records of a CSV or TSV file, and the warnings about it: a header with no row
    /// under it, which makes no item, is a warning at the header's line.
    public static func read(from text: String, path: String, separator: Character = ",") throws -> (records: [Record], warnings: [SiftError]) {
        precondition(
            separator.utf8.count == 1 && separator.isASCII && !"\"\r\n".contains(separator),
            "a CSV separator is one ASCII character other than a quote or a line break"
        )
        var text = text
        return try text.withUTF8 { bytes in
            var reader = CSVReader(bytes: bytes, separator: separator.utf8.first!, path: path)
            let records = try reader.records()
            guard records.isEmpty, let header = reader.headerLine else { return (records, []) }
            let warning = SiftError("the header names the columns, but no row follows it: this dataset makes no item",
                                    at: SourcePosition(path: path, line: header, column: 1), severity: .warning)
            return (records, [warning])
        }
    }
}

/// One field as read, with what an error about it needs to find its position.
private struct CSVField {
    var value: String
    var offset: Int
    var line: Int
    var lineStart: Int
}

/// The byte-level state machine behind `CSVDataset`; it only ever moves forward.
private struct CSVReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let separator: UInt8
    let path: String
    var index = 0
    var line = 1
    var lineStart = 0
    /// The line the header starts on, once read.
    var headerLine: Int?
    /// Reused for every row and every field with doubled quotes, so a large file allocates
    /// little beyond the records themselves.
    var row: [CSVField] = []
    var unescaped: [UInt8] = []
    /// The rows with more fields than the header so far: each an error, read past to the next
    /// row, so that every one of them is told, not just the first.
    var longRows: [SiftError] = []

    static let quote = UInt8(ascii: "\"")
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")

    init(bytes: UnsafeBufferPointer<UInt8>, separator: UInt8, path: String) {
        self.bytes = bytes
        self.separator = separator
        self.path = path
    }

    mutating func records() throws -> [Record] {
        let startLine = nextRowLine()
        guard try readRow(limit: nil) else { return [] }
        headerLine = startLine
        var header: [String] = []
        var seen: Set<String> = []
        for field in row {
            let name = trimmed(field.value)
            if name.isEmpty { throw error("empty column name", at: field) }
            if !seen.insert(name).inserted { throw error("duplicate column name \"\(name)\"", at: field) }
            header.append(name)
        }
        // Every row starts as a copy of one full mapping and overwrites its values in place:
        // that is one allocation a row, where filling an empty mapping grows it several times.
        var template = Fields()
        for name in header { template[name] = .null }
        var records: [Record] = []
        while true {
            let startLine = nextRowLine()
            let long = longRows.count
            do {
                guard try readRow(limit: header.count) else { break }
            } catch let e as SiftError {
                // A stray or unclosed quote loses the reader its place: the last error told.
                throw SiftError.combined(longRows + [e]) ?? e
            }
            if longRows.count > long { continue }
            var fields = template
            for (column, field) in row.enumerated() {
                fields[header[column]] = .string(field.value)
            }
            for name in header[row.count...] { fields[name] = nil }
            records.append(Record(fields: fields, position: SourcePosition(path: path, line: startLine, column: 1)))
        }
        if let e = SiftError.combined(longRows) { throw e }
        return records
    }

    /// The line the next row will start on, once the empty lines before it are skipped.
    private mutating func nextRowLine() -> Int {
        skipEmptyLines()
        return line
    }

    private mutating func skipEmptyLines() {
        while index < bytes.count {
            if bytes[index] == Self.lf {
                newLine(after: index)
            } else if isCRLineEnd(index) {
                index += 1
            } else {
                return
            }
        }
    }

    /// Reads one row into `row`; false at the end of the text. More than `limit` fields is an
    /// error at the first extra one, added to `longRows`, the row read to its end.
    private mutating func readRow(limit: Int?) throws -> Bool {
        row.removeAll(keepingCapacity: true)
        skipEmptyLines()
        guard index < bytes.count else { return false }
        while true {
            if let limit, row.count == limit {
                let extra = CSVField(value: "", offset: index, line: line, lineStart: lineStart)
                let columns = limit == 1 ? "1 column" : "\(limit) columns"
                longRows.append(error("row has more fields than the header's \(columns)", at: extra))
            }
            row.append(try readField())
            if index < bytes.count && bytes[index] == separator {
                index += 1
                continue
            }
            if index < bytes.count && bytes[index] == Self.cr { index += 1 }
            if index < bytes.count { newLine(after: index) }
            return true
        }
    }

    /// Reads one field, leaving `index` on the separator or line end after it.
    private mutating func readField() throws -> CSVField {
        let start = CSVField(value: "", offset: index, line: line, lineStart: lineStart)
        guard index < bytes.count, bytes[index] == Self.quote else {
            while index < bytes.count, bytes[index] != separator, bytes[index] != Self.lf, !isCRLineEnd(index) {
                // A TSV field quotes only from its start: elsewhere a quote is its text (`5" screen`),
                // as the tab-separated files of spreadsheets and databases write it.
                if bytes[index] == Self.quote && separator != UInt8(ascii: "\t") {
                    throw error("quote in an unquoted field", at: here)
                }
                index += 1
            }
            var field = start
            field.value = string(start.offset..<index)
            return field
        }
        index += 1
        var segment = index
        var hasEscapes = false
        unescaped.removeAll(keepingCapacity: true)
        while true {
            guard index < bytes.count else { throw error("unterminated quoted field", at: start) }
            let byte = bytes[index]
            if byte == Self.quote {
                if index + 1 < bytes.count && bytes[index + 1] == Self.quote {
                    unescaped.append(contentsOf: bytes[segment...index])
                    index += 2
                    segment = index
                    hasEscapes = true
                    continue
                }
                break
            }
            if byte == Self.lf {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        var field = start
        if hasEscapes {
            unescaped.append(contentsOf: bytes[segment..<index])
            field.value = String(decoding: unescaped, as: UTF8.self)
        } else {
            field.value = string(segment..<index)
        }
        index += 1
        if index < bytes.count, bytes[index] != separator, bytes[index] != Self.lf, !isCRLineEnd(index) {
            throw error("text after the closing quote", at: here)
        }
        return field
    }

    /// A CR counts as a line end only before LF or at the very end; elsewhere it is data.
    private func isCRLineEnd(_ offset: Int) -> Bool {
        bytes[offset] == Self.cr && (offset + 1 == bytes.count || bytes[offset + 1] == Self.lf)
    }

    private mutating func newLine(after lf: Int) {
        index = lf + 1
        line += 1
        lineStart = index
    }

    private var here: CSVField {
        CSVField(value: "", offset: index, line: line, lineStart: lineStart)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func error(_ message: String, at field: CSVField) -> SiftError {
        let column = LineCounter.column(in: bytes, lineStart: field.lineStart, offset: field.offset)
        return SiftError(message, at: SourcePosition(path: path, line: field.line, column: column))
    }

    private func trimmed(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
