/// A place in a source file, printed as `path:line:column` (1-based line and column).
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The file's path as the user would type it, relative to the site folder where possible.
    public var path: String
    /// 1-based line; 0 when the position names the whole file.
    public var line: Int
    /// 1-based column counted in Unicode scalars; 0 when unknown.
    public var column: Int

    /// Creates a position; line and column default to the start of the file.
    public init(path: String, line: Int = 1, column: Int = 1) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String {
        if line <= 0 { return path }
        if column <= 0 { return "\(path):\(line)" }
        return "\(path):\(line):\(column)"
    }
}
