import Foundation
import Testing
@testable import SiftKit

/// The watcher behind `sift serve`'s rebuilds: told of changes by inotify, it walks the sources
/// when something changed rather than four times a second, and still sees every edit: in a
/// folder made after it started, in a file renamed over another, and in one inotify cannot see.
struct SiteWatcherTests {
    /// Waits up to `seconds` for `changes` to reach `count`.
    func reaches(_ changes: Locked<Int>, _ count: Int, within seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if changes.withLock({ $0 }) >= count { return true }
            usleep(20_000)
        }
        return changes.withLock { $0 } >= count
    }

    @Test func everyKindOfEditIsSeenAndAnIdleWatcherWalksRarely() throws {
        let site = try TestSite(["Content/things/one.md": "One.\n", "Templates/detail.mustache": "{{title}}\n"])
        defer { site.delete() }
        let changes = Locked(0)
        let watcher = SiteWatcher(folders: ["Content", "Templates"].map(site.root.appendingPathComponent), interval: 0.05, debounce: 0.05) {
            changes.withLock { $0 += 1 }
        }
        watcher.start()
        defer { watcher.stop() }
        try site.write("Content/things/one.md", "One, edited.\n")
        #expect(reaches(changes, 1, within: 5), "an edit")
        // A folder made after the watcher started, then a file in it edited.
        try site.write("Content/later/page.md", "Page.\n")
        #expect(reaches(changes, 2, within: 5), "a new folder")
        usleep(200_000)
        try site.write("Content/later/page.md", "Page, edited.\n")
        #expect(reaches(changes, 3, within: 5), "an edit in the new folder")
        // A file renamed over another (an editor's safe save).
        try site.write("Content/things/one.tmp~", "One, saved safely.\n")
        #expect(rename(site.root.appendingPathComponent("Content/things/one.tmp~").path, site.root.appendingPathComponent("Content/things/one.md").path) == 0)
        #expect(reaches(changes, 4, within: 5), "a rename over a page")
        // Nothing changes: no rebuild, and (told of changes) no walk: it walked every 50 ms before.
        usleep(300_000)
        let walked = watcher.walks.withLock { $0 }
        usleep(1_000_000)
        #expect(changes.withLock { $0 } == 4)
        // Where inotify is not to be had (a sandbox without it), the watcher polls, as it must.
        #expect(!watcher.isTold || watcher.walks.withLock { $0 } - walked <= 1, "walks in a second idle")
    }

    /// An edit made after the watcher took its first look (during `sift serve`'s first build)
    /// but before it started is seen at once, not at its next walk untold.
    @Test func anEditBeforeTheStartIsSeenAtOnce() throws {
        let site = try TestSite(["Content/things/one.md": "One.\n"])
        defer { site.delete() }
        let changes = Locked(0)
        let watcher = SiteWatcher(folders: [site.root.appendingPathComponent("Content")], interval: 0.05, debounce: 0.05) { changes.withLock { $0 += 1 } }
        try site.write("Content/things/one.md", "One, edited during the first build.\n")
        watcher.start()
        defer { watcher.stop() }
        #expect(reaches(changes, 1, within: SiteWatcher.idleWalk / 2))
    }

    /// The watcher's stop ends its wait at once, rather than after `idleWalk` seconds.
    @Test func stoppingIsPrompt() throws {
        let site = try TestSite(["Content/things/one.md": "One.\n"])
        defer { site.delete() }
        let watcher = SiteWatcher(folders: [site.root.appendingPathComponent("Content")], interval: 0.05, debounce: 0.05) {}
        watcher.start()
        usleep(100_000)
        let start = Date()
        watcher.stop()
        #expect(Date().timeIntervalSince(start) < SiteWatcher.idleWalk)
    }
}
