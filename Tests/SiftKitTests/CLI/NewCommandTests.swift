import Foundation
import Testing
@testable import SiftKit

@Suite struct NewCommandTests {
    @Test func createsASiteThatBuildsAtOnce() throws {
        let parent = temporaryFolder("sift-new")
        defer { try? FileManager.default.removeItem(at: parent) }
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let out = SiftCLI.run(["new", "mysite"], in: parent)
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("Created a site in mysite."))
        let root = parent.appendingPathComponent("mysite")
        for path in NewCommand.files.map(\.path) {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path)")
        }
        let siteYML = try String(contentsOf: root.appendingPathComponent("Content/site.yml"), encoding: .utf8)
        for option in ["placeholder", "instant", "dim_background", "hide_navigation", "style", "cancel_text", "scope_bar"] {
            #expect(siteYML.contains(" \(option):"), "site.yml documents \(option)")
        }
        let build = SiftCLI.run(["build"], in: root)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout == "")
        #expect(build.stderr.hasPrefix("built 10 pages (6 fruits)"))
        let lemon = try String(contentsOf: root.appendingPathComponent("public/fruits/lemon/index.html"), encoding: .utf8)
        #expect(lemon.contains("Winter"))
        let link = try #require(lemon.firstMatch(of: /href="\/assets\/(custom\.[0-9a-f]{12}\.css)"/)?.output.1)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/assets/\(link)").path))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/assets/custom.css").path))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/about/index.html").path))
        #expect(SiftCLI.run(["search", "lemon", "--json"], in: root).stdout.contains("\"slug\":\"lemon\""))
    }

    @Test func refusesAFolderThatIsNotEmpty() throws {
        let root = temporaryFolder("sift-new")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: root.appendingPathComponent("notes.txt"))
        let out = SiftCLI.run(["new", root.path])
        #expect(out.status == 1)
        #expect(out.stderr == "error: \(root.path) is not empty: sift new only writes into a new or empty folder, so nothing was changed\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["notes.txt"])
    }

    @Test func acceptsAnEmptyFolderAndNeedsADir() throws {
        let root = temporaryFolder("sift-new")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        #expect(SiftCLI.run(["new", root.path]).status == 0)
        #expect(SiftCLI.run(["new"]).status == 2)
    }
}
