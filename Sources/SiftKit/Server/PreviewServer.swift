import Foundation

/// `sift serve`: builds the site, serves its output over HTTP and, when watching, rebuilds
/// after each change in Content/ or Templates/ and tells open pages to reload.
public final class PreviewServer: @unchecked Sendable {
    /// What `sift serve` was asked to do.
    public struct Options: Sendable {
        /// The build; its base URL is replaced by "/" so links work on the preview's root.
        public var build: SiteBuilder.Options
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        public var watch: Bool
        public var limits = HTTPServerLimits()

        /// Options for serving a site.
        public init(build: SiteBuilder.Options, host: String = "127.0.0.1", port: Int = 8000, watch: Bool = true) {
            self.build = build
            self.host = host
            self.port = port
            self.watch = watch
        }
    }

    /// Receives what the server has to say: a line, and whether it is an error (stderr).
    public typealias Log = @Sendable (_ line: String, _ isError: Bool) -> Void

    public let options: Options
    private let log: Log
    private let live: LiveReload?
    private var server: HTTPServer?
    private var watcher: SiteWatcher?
    private let buildLock = NSLock()

    /// Creates a server; nothing happens until `start()`.
    public init(options: Options, log: @escaping Log = { _, _ in }) {
        var o = options
        o.build.baseURL = "/"
        if o.build.mode.session == nil { o.build.mode = .serve(BuildSession()) }
        self.options = o
        self.log = log
        live = options.watch ? LiveReload() : nil
    }

    /// The port being served, the real one when 0 was asked for.
    public var port: Int { server?.port ?? options.port }

    /// The address to open in a browser.
    public var url: String {
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        return "http://\(host):\(port)/"
    }

    /// The tag put before `</body>` of served pages now ("" without watching).
    var liveTag: String { live?.scriptTag() ?? "" }

    /// The folder being served.
    public var output: URL { SiteBuilder(options: options.build).outputURL }

    /// Binds, builds, then serves (and watches). Without watching, a failed first build is
    /// thrown; with it, the errors are logged and shown in pages until a change fixes them.
    public func start() throws {
        let server = try HTTPServer(host: options.host, port: options.port, limits: options.limits,
                                    handler: StaticSite(root: output, live: live).reply)
        self.server = server
        let watcher = options.watch ? SiteWatcher(folders: ["Content", "Templates"].map { options.build.site.appendingPathComponent($0) },
                                                    withHidden: [options.build.site.appendingPathComponent(StaticFiles.folder)]) { [weak self] in
            self?.rebuild()
        } : nil
        do {
            try SiteBuilder(options: options.build).build()
            live?.succeeded()
        } catch let e as SiftError {
            guard let live else {
                server.stop()
                throw e
            }
            for line in e.all.map(\.line) { log(line, true) }
            live.failed(e.all.map(\.line))
        }
        server.start()
        self.watcher = watcher
        watcher?.start()
    }

    /// Builds again, keeps the last good output on failure, and tells open pages; true on success.
    @discardableResult
    public func rebuild() -> Bool {
        buildLock.lock(); defer { buildLock.unlock() }
        do {
            let report = try SiteBuilder(options: options.build).build()
            log(String(format: "rebuilt %d pages in %.3f s", report.pages, report.seconds), false)
            if ProcessInfo.processInfo.environment["SIFT_TIMINGS"] == "1" {
                log(report.stages.map { String(format: "%@ %.3f s", $0.stage, $0.seconds) }.joined(separator: ", "), false)
            }
            live?.succeeded()
            return true
        } catch {
            let lines = (error as? SiftError)?.all.map(\.line) ?? ["error: \(error)"]
            for line in lines { log(line, true) }
            log("the build failed: still serving the last good site", false)
            live?.failed(lines)
            return false
        }
    }

    /// Stops watching and serving; open connections are dropped.
    public func stop() {
        watcher?.stop()
        live?.stop()
        server?.stop()
    }
}
