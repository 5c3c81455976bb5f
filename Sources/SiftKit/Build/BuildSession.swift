import Foundation

/// What one `sift serve` keeps in memory between its builds, so a rebuild after an edit
/// reads, renders and writes only what the edit affects: the pages as loaded, the keys and
/// search digests of the last good build, and the files it left in the output.
public final class BuildSession: @unchecked Sendable {
    let pages = PageMemo()
    private let lock = NSLock()
    private var last: (output: String, memory: SessionMemory, files: [String: UInt64], folders: OutputFolders)?

    /// A session with nothing built yet.
    public init() {}

    /// The last good build's memory and files, if it wrote the same output.
    func previous(output: String) -> (memory: SessionMemory, files: [String: UInt64])? {
        lock.lock(); defer { lock.unlock() }
        guard let last, last.output == output else { return nil }
        return (last.memory, last.files)
    }

    /// Whether the output holds every folder the last good build left there, with no file added
    /// or removed since (`OutputFolders`): when not, the next build checks each file it keeps,
    /// and puts back what was removed by hand. A session does not wait for the kernel's clock to
    /// tick past its build (`OutputFolders.settle`): a change within 4 ms of a rebuild, which no
    /// hand makes, could go unseen.
    func outputUnchanged(output: String) -> Bool {
        lock.lock()
        let folders = last?.output == output ? last?.folders : nil
        lock.unlock()
        return folders?.unchanged(in: URL(fileURLWithPath: output)) ?? true
    }

    /// Records a build that succeeded; `nil` files forget the output (the next build writes it
    /// whole). `sameFolders`: the build left the paths the last one did, in the same folders.
    func finished(output: String, memory: SessionMemory, files: [String: UInt64]?, sameFolders: Bool = false) {
        let written = OutputFolders.now()
        lock.lock(); defer { lock.unlock() }
        let kept = sameFolders && last?.output == output ? last?.folders : nil
        last = files.map { (output, memory, $0, OutputFolders(files: $0, keeping: kept, written: written)) }
    }
}
