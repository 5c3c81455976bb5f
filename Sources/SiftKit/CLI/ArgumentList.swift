import Foundation

/// The arguments left to read, and the standard input a command may read.
struct ArgumentList {
    private var rest: ArraySlice<String>
    /// Where relative paths start.
    let directory: URL
    /// Reads standard input (a test hands in its own).
    let input: () -> Data
    init(_ args: [String], directory: URL, input: @escaping () -> Data = { Data() }) {
        rest = args[...]
        self.directory = directory
        self.input = input
    }
    func url(_ path: String) -> URL {
        (path.utf8.first == UInt8(ascii: "/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)).standardizedFileURL
    }
    mutating func next() -> String? { rest.popFirst() }
    mutating func value(for option: String) throws -> String {
        guard let v = rest.popFirst() else { throw UsageError("\(option) needs a value") }
        return v
    }
    /// A folder's path: an empty one (`--output ""`, a shell variable unset) is the current
    /// folder to `url`, and would be taken for it.
    mutating func folder(for option: String) throws -> String {
        let v = try value(for: option)
        guard !v.isEmpty else { throw UsageError("\(option) needs a folder, not an empty name") }
        return v
    }
}
