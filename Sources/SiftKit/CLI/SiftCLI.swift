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
          sift build  [--site DIR] [--output DIR] [--base-url URL] [--drafts] [--clean] [--jobs N] [--quiet | --verbose]
          sift serve  [--site DIR] [--host 127.0.0.1] [--port 8000] [--no-watch]
          sift new    DIR
          sift check  [--site DIR]
          sift search QUERY [--site DIR] [--scope S] [--collection C] [--limit N] [--json]
          sift --version | sift help [COMMAND]

        """

    static let help: [String: String] = [
        "build": """
            Usage: sift build [--site DIR] [--output DIR] [--base-url URL] [--drafts] [--clean] [--jobs N] [--quiet | --verbose]

            Builds the site in DIR (default: .) into DIR/public, or --output. A build that fails
            leaves the previous output untouched.
              --site DIR        the site folder (holds Content/ and Templates/)
              --output DIR      where to write the site (default: DIR/public)
              --base-url URL    overrides base_url of site.yml
              --drafts          includes pages with draft: true
              --clean           renders every page again, ignoring the cache of the last build
              --jobs N          threads to use (default: every core)
              --quiet           prints errors only
              --verbose         prints the summary and warnings even when stdout is not a terminal

            On a terminal a long build shows its progress, then a one-line summary; elsewhere
            only errors are printed, unless --verbose.

            """,
        "serve": ServeCommand.help,
        "new": NewCommand.help,
        "check": """
            Usage: sift check [--site DIR]

            Reports every error a build would, and warnings, without writing anything.

            """,
        "search": """
            Usage: sift search QUERY [--site DIR] [--scope S] [--collection C] [--limit N] [--json]

            Answers QUERY from the built index in DIR/public/search, as the browser does.
              --scope S         only items of scope S ("All" for every scope)
              --collection C    only collection C
              --limit N         at most N results
              --json            prints JSON instead of a table

            """,
    ]

    /// Runs the command line (without the program name); relative paths are taken from
    /// `directory`, the process's working directory by default.
    public static func run(_ arguments: [String], in directory: URL? = nil) -> Outcome {
        var args = ArgumentList(arguments, directory: directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        guard let command = args.next() else { return Outcome(status: 2, stdout: "", stderr: usage) }
        do {
            switch command {
            case "--version", "-V", "version": return Outcome(status: 0, stdout: "sift \(version)\n", stderr: "")
            case "help", "-h", "--help":
                if let topic = args.next() {
                    guard let text = help[topic] else { throw UsageError("unknown command '\(topic)'") }
                    return Outcome(status: 0, stdout: text, stderr: "")
                }
                return Outcome(status: 0, stdout: usage, stderr: "")
            case "build": return try build(&args, check: false)
            case "check": return try build(&args, check: true)
            case "search": return try search(&args)
            case "serve": return try ServeCommand.run(&args)
            case "new": return try NewCommand.run(&args)
            default: throw UsageError("unknown command '\(command)'")
            }
        } catch let e as UsageError {
            return Outcome(status: 2, stdout: "", stderr: "error: \(e.message)\nRun 'sift help' for usage.\n")
        } catch let e as SiftError {
            return Outcome(status: 1, stdout: "", stderr: e.description + "\n")
        } catch {
            return Outcome(status: 1, stdout: "", stderr: "error: \(error)\n")
        }
    }


    static func build(_ args: inout ArgumentList, check: Bool) throws -> Outcome {
        var site = "."
        var options = SiteBuilder.Options(site: args.url("."))
        var quiet = false
        var verbose = false
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return Outcome(status: 0, stdout: help[check ? "check" : "build"]!, stderr: "")
            case "--site": site = try args.value(for: arg)
            case "--output" where !check: options.output = args.url(try args.value(for: arg))
            case "--base-url" where !check: options.baseURL = try args.value(for: arg)
            case "--drafts": options.drafts = true
            case "--clean" where !check: options.mode = .clean
            case "--quiet", "-q": quiet = true
            case "--verbose" where !check, "-v" where !check: verbose = true
            case "--jobs" where !check:
                let v = try args.value(for: arg)
                guard let n = Int(v), n > 0 else { throw UsageError("--jobs takes a whole number above 0, not '\(v)'") }
                ParallelMap.jobs = n
            default: throw UsageError("unknown option '\(arg)' for sift \(check ? "check" : "build")")
            }
        }
        options.site = args.url(site)
        options.displayRoot = site
        if check { options.mode = .dryRun }
        options.version = version
        let progress = ProgressLine(enabled: !check && !quiet && ProgressLine.stdoutIsTerminal)
        options.progress = progress.callback
        let report: SiteBuilder.Report
        do {
            defer { progress.finish() }
            report = try SiteBuilder(options: options).build()
        }
        let timings = ProcessInfo.processInfo.environment["SIFT_TIMINGS"] == "1"
            ? report.stages.map { String(format: "%@ %.3f s\n", $0.stage, $0.seconds) }.joined() : ""
        if quiet || (!check && !verbose && !ProgressLine.stdoutIsTerminal) { return Outcome(status: 0, stdout: "", stderr: timings) }
        let warnings = report.warnings.map { $0.line + "\n" }.joined()
        let items = report.items.map { "\($0.count) \($0.collection)" }.joined(separator: ", ")
        let verb = check ? "checked" : "built"
        let index = check ? "" : ", search index " + byteCount(treeSize(report.output.appendingPathComponent("search"))) + ","
        let summary = String(format: "%@ %d pages (%@)%@ in %.2f s", verb, report.pages, items.isEmpty ? "no collections" : items, index, report.seconds)
        return Outcome(status: 0, stdout: summary + (check ? "" : " into \(report.output.path)") + "\n", stderr: warnings + timings)
    }

    /// Bytes in the files of a folder tree.
    static func treeSize(_ folder: URL) -> Int {
        guard let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        var total = 0
        for case let url as URL in e { total += (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0 }
        return total
    }

    static func byteCount(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : String(format: "%.0f KB", Double(n) / 1e3)
    }

    static func search(_ args: inout ArgumentList) throws -> Outcome {
        var site = "."
        var query: String?
        var scope: String?
        var collection: String?
        var limit: Int?
        var json = false
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return Outcome(status: 0, stdout: help["search"]!, stderr: "")
            case "--site": site = try args.value(for: arg)
            case "--scope": scope = try args.value(for: arg)
            case "--collection": collection = try args.value(for: arg)
            case "--json": json = true
            case "--limit":
                let v = try args.value(for: arg)
                guard let n = Int(v), n >= 0 else { throw UsageError("--limit takes a whole number, not '\(v)'") }
                limit = n
            default:
                if arg.hasPrefix("--") && arg.count > 2 { throw UsageError("unknown option '\(arg)' for sift search") }
                guard query == nil else { throw UsageError("sift search takes one QUERY; quote it: sift search \"\(query!) \(arg)\"") }
                query = arg
            }
        }
        guard let query else { throw UsageError("sift search needs a QUERY") }
        let dir = args.url(site).appendingPathComponent("public/search")
        guard FileManager.default.fileExists(atPath: dir.appendingPathComponent("manifest.json").path) else {
            throw SiftError("no search index: run 'sift build' first", at: SourcePosition(path: (site == "." ? "" : site + "/") + "public/search/manifest.json", line: 0))
        }
        let response = try SearchIndex(directory: dir).search(query, scope: scope, collection: collection, limit: limit)
        return Outcome(status: 0, stdout: json ? response.json() + "\n" : response.table(), stderr: "")
    }
}

/// Wrong usage of the command line: exit status 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

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
