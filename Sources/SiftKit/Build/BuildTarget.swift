import Foundation

/// Where a build writes and what it remembers, as its mode has it: the stages render into
/// `writer`, read the last build's keys and digests from `prior` and record theirs in `next`.
final class BuildTarget {
    let mode: BuildMode
    let writer: OutputWriter
    /// The last build's page keys and digests: the previous disk cache, or in a serve session
    /// this build's memory, which took them over (`SessionMemory.inherit`).
    let prior: (any BuildRecord)?
    /// Where this build records its page keys and digests; nil in a dry run.
    let next: (any BuildRecord)?
    /// `sift serve`: the last good build's memory (lists, collections, settings, index), and this build's.
    let session: (previous: SessionMemory?, next: SessionMemory)?
    private let site: URL
    /// The output folder's path, as the session knows its builds by.
    private let output: String

    private init(mode: BuildMode, writer: OutputWriter, site: URL, output: URL, prior: (any BuildRecord)?, next: (any BuildRecord)?,
                 session: (previous: SessionMemory?, next: SessionMemory)? = nil) {
        self.mode = mode
        self.writer = writer
        self.site = site
        self.output = output.path
        self.prior = prior
        self.next = next
        self.session = session
    }

    /// Opens the output for a build of `site` in `mode`; an incremental one starts from the last
    /// build's cache, `previous` when it is being read already.
    /// In a session, `outputUnchanged` says whether the output still holds what its last build left
    /// (`BuildSession.outputUnchanged`, checked while the sources load).
    static func open(_ mode: BuildMode, site: URL, output: URL, version: String, inPlaceShare: Double = 0.125,
                     previous reading: Background<DiskCache?>? = nil, outputUnchanged: Background<Bool>? = nil) throws -> BuildTarget {
        switch mode {
        case .dryRun:
            return BuildTarget(mode: mode, writer: try OutputWriter.dryRun(), site: site, output: output, prior: nil, next: nil)
        case .clean, .incremental:
            let previous: DiskCache?
            if case .incremental = mode {
                previous = reading.map { $0.take() } ?? DiskCache.load(site: site, output: output.path, version: version)
            } else {
                previous = nil
            }
            let writer = try OutputWriter(output: output, previousFiles: previous?.files, inPlace: previous?.outputIsAsLeft() ?? false)
            writer.inPlaceShare = inPlaceShare
            if previous == nil { writer.lastBuildFiles = DiskCache.lastFiles(site: site, output: output.path) }
            let next = DiskCache(output: output.path, version: version)
            next.previous = previous
            next.reservePages(like: previous)
            do { try next.beginDigests(site: site) } catch {
                next.discard()
                writer.discard()
                throw error
            }
            return BuildTarget(mode: mode, writer: writer, site: site, output: output, prior: previous, next: next)
        case .serve(let session):
            // Against the session's last good build, in place when the output still holds it.
            var previous = session.previous(output: output.path)
            // A `sift build` since the session's last build (its page keys are on disk again: a
            // session's build removes them) rewrote the output under it: written whole again.
            if previous != nil && (!FileSystem.isDirectory(output) || FileManager.default.fileExists(atPath: DiskCache.pagesFile(in: site).path)) {
                previous = nil
            }
            let writer = try OutputWriter(output: output, recording: true, inPlace: previous?.files, checksKept: outputUnchanged?.take() == false)
            if previous == nil { writer.lastBuildFiles = DiskCache.lastFiles(site: site, output: output.path) }
            let next = SessionMemory()
            next.inherit(from: previous?.memory)
            return BuildTarget(mode: mode, writer: writer, site: site, output: output, prior: next, next: next, session: (previous?.memory, next))
        }
    }

    /// Puts the output in place, and what the next build reuses; `meanwhile` runs once the
    /// output is in place (a dry run has none), while the cache is saved.
    func commit(meanwhile: () -> Void = {}) throws {
        switch mode {
        case .dryRun:
            writer.discard()
        case .clean, .incremental:
            let cache = next as! DiskCache
            // The cache describes the new output only once that output is in place.
            let aside = DiskCache.setAside(site: site, keeping: cache)
            let site = self.site
            try writer.commit {
                let files = writer.files ?? [:]
                let saved = Background {
                    if let aside { FileSystem.remove(aside) }
                    try? cache.save(site: site, files: files)
                }
                meanwhile()
                saved.take()
            }
        case .serve(let buildSession):
            let memory = session!.next
            // The output no longer matches an on-disk cache a later `sift build` would trust.
            DiskCache.remove(site: site)
            do { try writer.commit() } catch {
                buildSession.finished(output: output, memory: memory, files: nil)
                throw error
            }
            buildSession.finished(output: output, memory: memory, files: writer.files, sameFolders: writer.sameFolders)
            meanwhile()
        }
    }

    /// Throws away what a failed build wrote.
    func discard() {
        (next as? DiskCache)?.discard()
        writer.discard()
    }
}
