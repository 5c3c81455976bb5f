import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The line a build that takes more than about a second shows on a terminal: stage and items
/// done, on stderr (where the summary follows), rewritten in place with `\r` and erased before
/// the summary.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let delay: Double
    private var start = Date()
    private var lastWrite = Date.distantPast
    private var shown = false

    /// Shows nothing unless `enabled` (stderr is a terminal and not `--quiet`).
    init(enabled: Bool, delay: Double = 1) {
        self.enabled = enabled
        self.delay = delay
    }

    /// Whether standard error, where the line goes, is a terminal.
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// The callback for `SiteBuilder.Options.progress`.
    var callback: (@Sendable (String, Int, Int) -> Void)? {
        enabled ? { @Sendable [self] stage, done, total in update(stage, done, total) } : nil
    }

    func update(_ stage: String, _ done: Int, _ total: Int) {
        lock.lock(); defer { lock.unlock() }
        if stage == "loading" && done == 0 && !shown { start = Date() }
        let now = Date()
        guard now.timeIntervalSince(start) >= delay, now.timeIntervalSince(lastWrite) >= 0.1 else { return }
        lastWrite = now
        shown = true
        let count = total > 0 ? " \(done)/\(total) items" : ""
        FileHandle.standardError.write(Data("\r\u{1B}[K\(stage)\(count)".utf8))
    }

    /// Erases the line, if one was shown.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
