import Foundation
@testable import SiftKit

/// A site folder in a fresh temporary directory, written from a dictionary of relative paths.
struct TestSite {
    let root: URL

    init(_ files: [String: String]) throws {
        root = temporaryFolder("sift-test")
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func remove(_ path: String) throws { try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }

    var output: URL { root.appendingPathComponent("public") }

    /// Builds with the same entry point as `sift build`, run from the site folder, so paths print relative to it.
    @discardableResult
    func build(_ extra: [String] = []) -> SiftCLI.Outcome {
        SiftCLI.run(["build", "--quiet"] + extra, in: root)
    }

    func page(_ path: String) -> String? {
        try? String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every file of the output with its bytes, for comparing whole builds.
    func snapshot(of folder: URL? = nil) -> [String: Data] {
        let output = folder ?? self.output
        var out: [String: Data] = [:]
        let base = output.path + "/"
        if let e = FileManager.default.enumerator(atPath: output.path) {
            for case let rel as String in e {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + rel, isDirectory: &isDir), !isDir.boolValue {
                    out[rel] = FileManager.default.contents(atPath: base + rel)
                }
            }
        }
        return out
    }

    func delete() { try? FileManager.default.removeItem(at: root) }
}
