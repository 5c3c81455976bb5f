import Foundation

/// `sift serve`: builds, serves the output on 127.0.0.1 and rebuilds on changes until Ctrl+C.
enum ServeCommand: Command {
    static let name = "serve"
    static let help = """
        Usage: sift serve [--site DIR] [--host 127.0.0.1] [--port 8000] [--drafts] [--no-watch]

        Builds the site in DIR (default: .) into DIR/public with base_url "/", then serves it
        at http://127.0.0.1:8000/. Each change in Content/ or Templates/ rebuilds the site and
        reloads open pages; a change that breaks the build shows its errors in the terminal and
        over the page, and the last good site is still served.
          --site DIR        the site folder (holds Content/ and Templates/)
          --host HOST       the address to listen on (default 127.0.0.1: this machine only)
          --port N          the port (default 8000; 0 picks a free one)
          --drafts          includes pages with draft: true
          --no-watch        builds once and serves, without rebuilding or reloading

        """

    static func run(_ args: inout ArgumentList) throws -> SiftCLI.Outcome {
        var site = "."
        var host = "127.0.0.1"
        var port = 8000
        var watch = true
        var drafts = false
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return helpOutcome
            case "--site": site = try args.folder(for: arg)
            case "--host": host = try args.value(for: arg)
            case "--port":
                let v = try args.value(for: arg)
                guard let n = Int(v), (0...65535).contains(n) else { throw UsageError("--port takes a number from 0 to 65535, not '\(v)'") }
                port = n
            case "--no-watch": watch = false
            case "--drafts": drafts = true
            default: throw UsageError("unknown option '\(arg)' for sift serve")
            }
        }
        let siteURL = args.url(site)
        guard FileSystem.isDirectory(siteURL) else { throw UsageError("no site folder at \(site)") }
        var build = SiteBuilder.Options(site: siteURL, displayRoot: site, drafts: drafts)
        let progress = ProgressLine(enabled: ProgressLine.stderrIsTerminal)
        build.progress = progress.callback
        let server = PreviewServer(options: PreviewServer.Options(build: build, host: host, port: port, watch: watch)) { line, isError in
            progress.finish()
            (isError ? FileHandle.standardError : FileHandle.standardOutput).write(Data((line + "\n").utf8))
        }
        do {
            defer { progress.finish() }
            try server.start()
        }
        let name = site == "." ? siteURL.lastPathComponent : site
        let watching = watch ? "" : " without watching"
        FileHandle.standardOutput.write(Data("Serving \(name) at \(server.url)\(watching) (Ctrl+C to stop)\n".utf8))
        // Serving goes on in the server's threads until the process is interrupted.
        while true { sleep(3600) }
    }
}
