import Foundation

/// The arguments left to read.
struct ArgumentList {
    private var rest: ArraySlice<String>
    /// Where relative paths start.
    let directory: URL
    init(_ args: [String], directory: URL) {
        rest = args[...]
        self.directory = directory
    }
    func url(_ path: String) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)).standardizedFileURL
    }
    mutating func next() -> String? { rest.popFirst() }
    mutating func value(for option: String) throws -> String {
        guard let v = rest.popFirst() else { throw UsageError("\(option) needs a value") }
        return v
    }
}
