#if canImport(Glibc)
import Glibc
#endif
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

    /// glibc's allocator as a build wants it, in `GLIBC_TUNABLES` form: heaps grown 256 MB at a
    /// time and never given back, every block from them, in huge pages. A build allocates
    /// and frees hundreds of megabytes in large arrays; with the defaults each comes from a
    /// fresh `mmap` whose every 4 KB page faults in when first written (27,000 faults, a tenth
    /// of a 10k edit's CPU), with these about 1,600.
    static let allocatorTunables = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=268435456"
        + ":glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=4294967295"

    /// Starts the process again with `allocatorTunables` (glibc reads them only as a process
    /// starts) when `arguments` build a site and the environment sets no tunables of its own;
    /// returns when that cannot be done, or was. Costs a process start: 4 ms, `make build` linking the
    /// Swift runtime in.
    public static func tuneAllocator(arguments: [String]) {
        #if os(Linux)
        guard let command = arguments.dropFirst().first, command == "build" || command == "serve",
              getenv("GLIBC_TUNABLES") == nil, getenv("SIFT_DEFAULT_MALLOC") == nil else { return }
        setenv("GLIBC_TUNABLES", allocatorTunables, 1)
        var argv = arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &argv)
        // Not started again (no /proc): go on as this process is, without the variable for what it runs.
        unsetenv("GLIBC_TUNABLES")
        #endif
    }
}
