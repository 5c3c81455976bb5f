/// What a build is for, which decides where it writes and what it reuses: the value the
/// stages consult instead of each taking a branch of its own.
public enum BuildMode: Sendable {
    /// `sift build --clean`: renders every page, and leaves `.sift-cache/` for the next build.
    case clean
    /// `sift build`: reuses the pages and digests of the last build whose inputs did not change (`.sift-cache/`).
    case incremental
    /// `sift serve`: keeps the build's state in the session for the next build and updates the
    /// output in place instead of swapping in a whole new folder.
    case serve(BuildSession)
    /// `sift check`: renders everything into a throwaway folder, checks the links, keeps nothing.
    case dryRun

    /// The session of `sift serve`.
    var session: BuildSession? {
        if case .serve(let session) = self { return session }
        return nil
    }

    /// Whether the build finds its output in place when it succeeds.
    var writesOutput: Bool {
        if case .dryRun = self { return false }
        return true
    }

    /// Whether the links found in Markdown are checked against the pages built.
    var checksLinks: Bool { !writesOutput }

    /// Whether the build records its sources' stamps for the next `sift build` (`BuildStamps`).
    var keepsStamps: Bool {
        switch self {
        case .clean, .incremental: return true
        case .serve, .dryRun: return false
        }
    }
}
