/// What a one-shot build never frees. The `sift` process exits once it has printed the summary,
/// and freeing the millions of small objects of a large build (the site as loaded, the word
/// tables, the cache's index) took about a second at 100k items, a tenth of a one-page edit. The
/// executable turns this on, as clang's `-disable-free` does for the same reason; `sift serve`'s
/// rebuilds, tests and other users of the library free their memory as usual.
public enum ProcessMemory {
    /// Whether a one-shot build leaves its memory to the process's exit; the `sift` executable sets it.
    nonisolated(unsafe) public static var freedAtExit = false
    private static let kept = Locked<[Any]>([])

    /// Keeps `object` until the process exits when `freedAtExit` is set and the build is one-shot.
    static func keep(_ object: Any, mode: BuildMode) {
        guard freedAtExit else { return }
        if case .serve = mode { return }
        kept.withLock { $0.append(object) }
    }
}
