import Foundation

/// A path for a fresh folder, inside this test process's own folder in the system's temporary
/// directory, which is removed when the process exits: an index handed to `SearchIndex` is read
/// for as long as the test runs, and a test that fails half-way leaves nothing behind either.
func temporaryFolder(_ prefix: String) -> URL {
    TestRunFolder.root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
}

private enum TestRunFolder {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestRunFolder.root) }
        return url
    }()
}
