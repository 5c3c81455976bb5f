/// `sift check`: a build that writes nothing, for its errors and warnings.
enum CheckCommand: Command {
    static let name = "check"
    static let help = """
        Usage: sift check [--site DIR] [--drafts] [--strict] [--quiet]

        Reports every error a build would, and warnings, without writing anything.
          --site DIR        the site folder (holds Content/ and Templates/)
          --drafts          includes pages with draft: true
          --strict          warnings are errors too: exit status 1 when there is one
          --quiet           prints errors only

        """

    static func run(_ args: inout ArgumentList) throws -> SiftCLI.Outcome {
        var site = "."
        var options = SiteBuilder.Options(site: args.url("."))
        var quiet = false
        var strict = false
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return helpOutcome
            case "--site": site = try args.folder(for: arg)
            case "--drafts": options.drafts = true
            case "--quiet", "-q": quiet = true
            case "--strict": strict = true
            default: throw UsageError("unknown option '\(arg)' for sift check")
            }
        }
        options.site = args.url(site)
        guard FileSystem.isDirectory(options.site) else { throw UsageError("no site folder at \(site)") }
        options.displayRoot = site
        options.mode = .dryRun
        return try BuildCommand.build(options, quiet: quiet, strict: strict)
    }
}
