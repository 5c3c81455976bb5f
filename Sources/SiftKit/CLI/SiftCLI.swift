import Foundation

/// The `sift` command line, kept in SiftKit so tests can run it without a process.
public struct SiftCLI {
    /// The version `sift --version` prints.
    public static let version = "0.1.0"

    /// What a run printed and its exit status: 0 success, 1 content or build errors, 2 wrong usage.
    public struct Outcome: Sendable, Equatable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    static let usage = """
        sift: a static site generator with search built in

        Usage:
          sift build  [--site DIR] [--output DIR] [--base-url URL] [--drafts] [--clean] [--precompress] [--jobs N] [--timings] [--quiet | --verbose]
          sift serve  [--site DIR] [--host 127.0.0.1] [--port 8000] [--drafts] [--no-watch]
          sift new    DIR
          sift check  [--site DIR] [--drafts] [--strict] [--quiet]
          sift search QUERY [--site DIR] [--scope S] [--collection C] [--filter FIELD=VALUE]... [--sort [-]FIELD] [--limit N] [--json]
          sift --version | sift help [COMMAND]

        """

    /// Every command, in the order of the usage text.
    static var commands: [any Command.Type] { [BuildCommand.self, ServeCommand.self, NewCommand.self, CheckCommand.self, SearchCommand.self] }

    /// Runs the command line (without the program name); relative paths are taken from
    /// `directory`, the process's working directory by default. `input` is what a command
    /// reading standard input (`sift search --batch`) reads.
    public static func run(_ arguments: [String], in directory: URL? = nil,
                           input: @escaping () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }) -> Outcome {
        var args = ArgumentList(arguments, directory: directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath), input: input)
        guard let command = args.next() else { return Outcome(status: 2, stdout: "", stderr: usage) }
        do {
            switch command {
            case "--version", "-V", "version": return Outcome(status: 0, stdout: "sift \(version)\n", stderr: "")
            case "help", "-h", "--help":
                if let topic = args.next() {
                    guard let named = commands.first(where: { $0.name == topic }) else { throw UsageError("unknown command '\(topic)'") }
                    return named.helpOutcome
                }
                return Outcome(status: 0, stdout: usage, stderr: "")
            default:
                guard let named = commands.first(where: { $0.name == command }) else { throw UsageError("unknown command '\(command)'") }
                return try named.run(&args)
            }
        } catch let e as UsageError {
            return Outcome(status: 2, stdout: "", stderr: "error: \(e.message)\nRun 'sift help' for usage.\n")
        } catch let e as SiftError {
            return Outcome(status: 1, stdout: "", stderr: e.description + "\n")
        } catch {
            return Outcome(status: 1, stdout: "", stderr: "error: \(error)\n")
        }
    }
}
