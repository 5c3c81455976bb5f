import Foundation

/// What one `sift serve` keeps in memory between its builds, so a rebuild after an edit
/// reads, renders and writes only what the edit affects: the pages as loaded, the keys and
/// search digests of the last good build, and the files it left in the output.
public final class BuildSession: @unchecked Sendable {
    let pages = PageMemo()
    private let lock = NSLock()
    private var last: (output: String, memory: SessionMemory, files: [String: UInt64])?

    /// A session with nothing built yet.
    public init() {}

    /// The last good build's memory and files, if it wrote the same output.
    func previous(output: String) -> (memory: SessionMemory, files: [String: UInt64])? {
        lock.lock(); defer { lock.unlock() }
        guard let last, last.output == output else { return nil }
        return (last.memory, last.files)
    }

    /// Records a build that succeeded; `nil` files forget the output (the next build writes it whole).
    func finished(output: String, memory: SessionMemory, files: [String: UInt64]?) {
        lock.lock(); defer { lock.unlock() }
        last = files.map { (output, memory, $0) }
    }
}
