/// The one error Sift reports: a message at a source position, printed as
/// `path:line:column: error: message`. A build that finds several throws them together.
public struct SiftError: Error, Hashable, Sendable, CustomStringConvertible {
    /// How bad it is: errors fail the build, warnings only inform (and fail `--strict`), notes
    /// say what the build chose for the author (a long list paginated).
    public enum Severity: String, Sendable { case error, warning, note }

    /// Where the problem is; nil for problems that belong to no file (bad command-line usage).
    public var position: SourcePosition?
    public var message: String
    public var severity: Severity
    /// Further errors found in the same run, reported after this one.
    public var others: [SiftError]

    /// Creates an error at a position.
    public init(_ message: String, at position: SourcePosition?, severity: Severity = .error) {
        self.message = message
        self.position = position
        self.severity = severity
        self.others = []
    }

    /// Joins several errors into one to throw; nil when the list is empty.
    public static func combined(_ errors: [SiftError]) -> SiftError? {
        let flat = errors.flatMap(\.all)
        guard var first = flat.first else { return nil }
        first.others = Array(flat.dropFirst())
        return first
    }

    /// `combined` of one file's errors, in the order of their places in it (a settings file is
    /// checked key by key in the reader's order, not the file's); ties keep their order.
    static func combined(byLine errors: [SiftError]) -> SiftError? {
        let flat = errors.flatMap(\.all).enumerated().sorted { a, b in
            let pa = a.element.position, pb = b.element.position
            return (pa?.line ?? 0, pa?.column ?? 0, a.offset) < (pb?.line ?? 0, pb?.column ?? 0, b.offset)
        }
        return combined(flat.map(\.element))
    }

    /// The errors with each one that repeats (same severity, position and message: a template's
    /// mistake met by every page it renders) given once, where it first came, saying how many
    /// `things` it came from (`… (in 258 pages)`).
    public static func once(_ errors: [SiftError], in things: String) -> [SiftError] {
        let flat = errors.flatMap(\.all)
        var counts: [SiftError: Int] = [:]
        for e in flat { counts[e, default: 0] += 1 }
        var seen = Set<SiftError>()
        return flat.compactMap { e in
            guard seen.insert(e).inserted else { return nil }
            guard let n = counts[e], n > 1 else { return e }
            var first = e
            first.message += " (in \(n) \(things))"
            return first
        }
    }

    /// This error followed by every other one it carries.
    public var all: [SiftError] {
        var head = self
        head.others = []
        return [head] + others.flatMap(\.all)
    }

    /// The one-line form of this error alone, without the others, a control character of a
    /// value it quotes (a NUL, a line break) written as `\u{0}`: raw, a terminal showed nothing
    /// and grep took the output for binary.
    public var line: String {
        let prefix = position.map { "\($0): " } ?? ""
        var out = String.UnicodeScalarView()
        for scalar in "\(prefix)\(severity.rawValue): \(message)".unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Every error, one a line.
    public var description: String {
        all.map(\.line).joined(separator: "\n")
    }
}
