/// Wrong usage of the command line: exit status 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
