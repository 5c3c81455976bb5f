import Foundation
import Testing
@testable import SiftKit

/// Removing an old output: every kind of folder goes, and a link inside it is removed, never followed.
@Test func removingATreeRemovesItAllAndNeverFollowsLinks() throws {
    let root = temporaryFolder("sift-remove")
    defer { try? FileManager.default.removeItem(at: root) }
    let outside = root.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: outside.appendingPathComponent("index.html"))
    let tree = root.appendingPathComponent("public")
    // More than 64 folders under one folder takes the parallel path.
    for i in 0..<100 {
        let dir = tree.appendingPathComponent("items/item-\(i)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("page".utf8).write(to: dir.appendingPathComponent("index.html"))
        if i % 10 == 0 { try Data("extra".utf8).write(to: dir.appendingPathComponent("photo.png")) }
        if i % 25 == 0 { try FileManager.default.createDirectory(at: dir.appendingPathComponent("deeper/still"), withIntermediateDirectories: true) }
    }
    try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("items/link-out"), withDestinationURL: outside)
    try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("items/item-1/link-out"), withDestinationURL: outside)
    try Data("x".utf8).write(to: tree.appendingPathComponent("sitemap.xml"))
    // A folder of thousands of files (the index's) is shared out too, links and folders among them.
    let immutable = tree.appendingPathComponent("search/immutable")
    try FileManager.default.createDirectory(at: immutable.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
    for i in 0..<1500 { try Data("s\(i)".utf8).write(to: immutable.appendingPathComponent("shard.\(i).json")) }
    try FileManager.default.createSymbolicLink(at: immutable.appendingPathComponent("link-out"), withDestinationURL: outside)
    try Data("d".utf8).write(to: immutable.appendingPathComponent("sub/deeper/file"))
    FileSystem.remove(tree.path)
    #expect(!FileManager.default.fileExists(atPath: tree.path))
    #expect(try String(contentsOf: outside.appendingPathComponent("index.html"), encoding: .utf8) == "keep")
}

/// Output paths stay inside the output folder: no absolute path, no empty, `.` or `..` segment,
/// no NUL. Checked byte by byte; random paths agree with a segment-by-segment reading.
@Test func outputPathsThatEscapeAreRefused() {
    for bad in ["", "/etc/passwd", "a//b", "./a", "../x", "a/..", "a/./b", "a\0b", "a/", "..", ".", "x/../../y"] {
        #expect(throws: SiftError.self, "\(bad)") { try OutputWriter.checked(bad) }
    }
    for good in ["a", "a/b/index.html", "...", "a/.../b", ".well-known/x", "俄罗斯/index.html", "a..b/c."] {
        #expect((try? OutputWriter.checked(good)) == good)
    }
    func bySegments(_ s: String) -> Bool {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        return !s.hasPrefix("/") && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.utf8.contains(0) }
    }
    var rng = SeededRNG(state: 0xD07)
    let alphabet: [UInt8] = [0x2F, 0x2E, 0x61, 0x00, 0x2F, 0x2E]
    for _ in 0..<5_000 {
        let s = String(decoding: (0..<Int.random(in: 0...7, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }, as: UTF8.self)
        #expect(((try? OutputWriter.checked(s)) != nil) == bySegments(s), "\(Array(s.utf8))")
    }
}

/// A folder made relative to an open folder that has since been removed fails with the path
/// in the message, for one-character paths too (they used to trap in Foundation), and with parents.
@Test func makingAFolderInARemovedFolderIsAnError() throws {
    let root = temporaryFolder("sift-gone")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let fd = open(root.path, O_RDONLY | O_DIRECTORY)
    defer { close(fd) }
    try FileManager.default.removeItem(at: root)
    for path in ["c", "c/d", "ab/c/d"] {
        #expect(throws: SiftError.self, "\(path)") { try FileSystem.makeDirectory(path, in: fd, named: root.path) }
        do { try FileSystem.makeDirectory(path, in: fd, named: root.path) } catch let e as SiftError {
            #expect(e.message.hasPrefix("cannot create folder \(root.path)/"))
        }
    }
}

/// `sift check`'s writer renders into a folder of its own and leaves nothing behind.
@Test func aDryRunLeavesNoFolderBehind() throws {
    let a = try OutputWriter.dryRun(), b = try OutputWriter.dryRun()
    let folder = a.output.deletingLastPathComponent()
    #expect(folder != b.output.deletingLastPathComponent())
    try a.write("c/x/index.html", Array("hi".utf8))
    a.discard()
    b.discard()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
    #expect(!FileManager.default.fileExists(atPath: b.output.deletingLastPathComponent().path))
}

@Test func theParentOfAPath() {
    #expect(FileSystem.parent(of: "a/b/c") == "a/b")
    #expect(FileSystem.parent(of: "c/index.html") == "c")
    #expect(FileSystem.parent(of: "/tmp/x") == "/tmp")
    for none in ["c", "/c", "", "index.html"] { #expect(FileSystem.parent(of: none) == nil, "\(none)") }
}

/// A folder's names are listed in the order of their bytes: a prefix first, upper case before
/// lower, and two spellings of one letter (composed and decomposed) as two names, in a fixed order.
@Test func namesAreListedInTheOrderOfTheirBytes() throws {
    let names = ["b", "ab", "a", "B", "", "\u{E9}", "e\u{301}", "ä", "a-b", "a.b"]
    let expected = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    #expect(names.sorted(by: FileSystem.bytewise) == expected)
    #expect(names.reversed().sorted(by: FileSystem.bytewise) == expected)
    #expect(expected.prefix(4) == ["", "B", "a", "a-b"])
    #expect(FileSystem.sortedBytewise(names) == expected)
    // Past the eight bytes sorted as one number, and exactly at them.
    let long = ["abcdefgh2", "abcdefgh", "abcdefgh10", "abcdefg", "abcdefgi", "abcdefgh1\u{E9}", "abcdefgh1e"]
    #expect(FileSystem.sortedBytewise(long) == long.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    let root = temporaryFolder("sift-list")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for name in names where !name.isEmpty { try Data().write(to: root.appendingPathComponent(name)) }
    #expect(FileSystem.list(root) == expected.filter { !$0.isEmpty })
}

/// A file is read whole whatever its size, including one whose size `stat` does not tell (a
/// /proc file says 0), and a missing one is an error naming it.
@Test func filesAreReadWholeWhateverTheirSize() throws {
    let root = temporaryFolder("sift-read")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for size in [0, 1, 4095, 4096, 65_536, 65_537, 300_001] {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let url = root.appendingPathComponent("f\(size)")
        try Data(bytes).write(to: url)
        #expect(try FileSystem.read(url, displayPath: "f") == bytes, "\(size) bytes")
    }
    let status = try FileSystem.read(URL(fileURLWithPath: "/proc/self/status"), displayPath: "status")
    #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
    #expect(status.count > 100)
    #expect(throws: SiftError.self) { try FileSystem.read(root.appendingPathComponent("none"), displayPath: "gone.md") }
}
