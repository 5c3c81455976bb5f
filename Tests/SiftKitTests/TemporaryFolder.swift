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

/// The files under a folder, by their paths relative to it, sorted (none when it is missing).
func filesUnder(_ folder: URL) -> [String] {
    var out: [String] = []
    guard let walk = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    for case let rel as String in walk {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path + "/" + rel, isDirectory: &isDirectory), !isDirectory.boolValue { out.append(rel) }
    }
    return out.sorted()
}
