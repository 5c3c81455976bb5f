import Foundation

/// `sift build`: builds the site into its output folder, incrementally unless `--clean`.
enum BuildCommand: Command {
    static let name = "build"
    static let help = """
        Usage: sift build [--site DIR] [--output DIR] [--base-url URL] [--drafts] [--clean] [--precompress] [--jobs N] [--timings] [--quiet | --verbose]

        Builds the site in DIR (default: .) into DIR/public, or --output. A build that fails
        leaves the previous output untouched.
          --site DIR        the site folder (holds Content/ and Templates/)
          --output DIR      where to write the site (default: DIR/public)
          --base-url URL    overrides base_url of site.yml
          --drafts          includes pages with draft: true
          --clean           renders every page again, ignoring the cache of the last build
          --precompress     writes FILE.gz and FILE.br beside every text file over 1 KB (as precompress: true in site.yml)
          --jobs N          threads to use (default: every core)
          --timings         prints the time of each stage of the build after the summary
          --quiet           prints errors only
          --verbose         the default (warnings and the summary); kept for older scripts

        Every build ends with a one-line summary on stderr, whatever stdout is; on a terminal a
        long build shows its progress there first.

        """

    static func run(_ args: inout ArgumentList) throws -> SiftCLI.Outcome {
        var site = "."
        var options = SiteBuilder.Options(site: args.url("."))
        var quiet = false
        var timings = ProcessInfo.processInfo.environment["SIFT_TIMINGS"] == "1"
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return helpOutcome
            case "--site": site = try args.folder(for: arg)
            case "--output": options.output = args.url(try args.folder(for: arg))
            case "--base-url":
                options.baseURL = try args.value(for: arg)
                if let problem = SiteSettings.baseURLProblem(options.baseURL!, named: "--base-url") { throw UsageError(problem) }
            case "--drafts": options.drafts = true
            case "--clean": options.mode = .clean
            case "--precompress": options.precompress = true
            case "--quiet", "-q": quiet = true
            case "--verbose", "-v": break
            case "--timings": timings = true
            case "--jobs":
                let v = try args.value(for: arg)
                guard let n = Int(v), n > 0 else { throw UsageError("--jobs takes a whole number above 0, not '\(v)'") }
                ParallelMap.jobs = n
            default: throw UsageError("unknown option '\(arg)' for sift build")
            }
        }
        options.site = args.url(site)
        // As `sift serve`: a mistyped folder is not made (its .sift-cache/ was, by the lock).
        guard FileSystem.isDirectory(options.site) else { throw UsageError("no site folder at \(site)") }
        options.displayRoot = site
        return try build(options, quiet: quiet, timings: timings)
    }

    /// Runs a build (or, in `.dryRun` mode, a check) and says what it made: a build's warnings
    /// and one-line summary on stderr (a check's summary on stdout), then the stage times when
    /// asked; `quiet` leaves errors only (and, with `strict`, warnings).
    static func build(_ options: SiteBuilder.Options, quiet: Bool, timings: Bool = false, strict: Bool = false) throws -> SiftCLI.Outcome {
        var options = options
        options.version = SiftCLI.version
        let check = !options.mode.writesOutput
        let progress = ProgressLine(enabled: !check && !quiet && ProgressLine.stderrIsTerminal)
        options.progress = progress.callback
        // Said at once, not with the summary: the wait lasts as long as the other build.
        if !quiet {
            options.waiting = { FileHandle.standardError.write(Data("waiting for another build of this site to finish (.sift-cache/lock)\n".utf8)) }
        }
        let report: SiteBuilder.Report
        do {
            defer { progress.finish() }
            report = try SiteBuilder(options: options).build()
        }
        let stages = timings ? stageTable(report.stages) : ""
        let status: Int32 = strict && report.warnings.contains { $0.severity == .warning } ? 1 : 0
        // Warnings, then the notes (what the build chose), just above the summary; --quiet leaves the notes out.
        let lines = { (severity: SiftError.Severity) in report.warnings.filter { $0.severity == severity }.map { $0.line + "\n" }.joined() }
        let warnings = lines(.warning) + lines(.note)
        if quiet { return SiftCLI.Outcome(status: status, stdout: "", stderr: (strict ? lines(.warning) : "") + stages) }
        let items = report.items.map { "\($0.count) \($0.collection)" }.joined(separator: ", ")
        let verb = check ? "checked" : "built"
        let index = check ? "" : ", search index " + byteCount(report.indexBytes ?? treeSize(report.output.appendingPathComponent("search"))) + ","
        let statics = report.staticFiles == 0 ? "" : report.staticFiles == 1 ? ", 1 static file" : ", \(report.staticFiles) static files"
        let summary = String(format: "%@ %d pages (%@)%@%@ in %.2f s", verb, report.pages, items.isEmpty ? "no collections" : items, statics, index, report.seconds)
        if check { return SiftCLI.Outcome(status: status, stdout: summary + "\n", stderr: warnings + stages) }
        return SiftCLI.Outcome(status: status, stdout: "", stderr: warnings + summary + " into \(report.output.path)\n" + stages)
    }

    /// `--timings`: one line a stage, `name seconds s peak MB MB`: its time, and the process's
    /// peak memory when it ended.
    static func stageTable(_ stages: [(stage: String, seconds: Double, peakBytes: Int)]) -> String {
        stages.map { String(format: "%@ %.3f s peak %d MB\n", $0.stage, $0.seconds, $0.peakBytes >> 20) }.joined()
    }

    /// Bytes in the files of a folder tree, the precompressed copies left out.
    static func treeSize(_ folder: URL) -> Int { treeSize(path: folder.path, depth: 0) }

    private static func treeSize(path: String, depth: Int) -> Int {
        var total = 0
        // Files by their name in the open folder: the index's thousands of files in one folder
        // are not each looked up from the root.
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var files: [String] = []
        for e in FileSystem.entries(path) {
            if e.isDirectory {
                if depth < 24 { total += treeSize(path: path + "/" + e.name, depth: depth + 1) }
            } else if !Precompressor.isCompressedCopy(e.name) {
                files.append(e.name)
            }
        }
        // The index's 10,000 text files at 10k items: looked up on every core.
        let sizes = ParallelMap.map(files) { name -> Int in
            var st = stat()
            return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFREG ? Int(st.st_size) : 0
        }
        return total + sizes.reduce(0, +)
    }

    static func byteCount(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : String(format: "%.0f KB", Double(n) / 1e3)
    }
}
