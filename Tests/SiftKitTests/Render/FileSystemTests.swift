import Foundation
import Testing
@testable import SiftKit

/// Removing an old output: every kind of folder goes, and a link inside it is removed, never followed.
@Test func removingATreeRemovesItAllAndNeverFollowsLinks() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sift-remove-\(UUID().uuidString)")
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
    FileSystem.remove(tree.path)
    #expect(!FileManager.default.fileExists(atPath: tree.path))
    #expect(try String(contentsOf: outside.appendingPathComponent("index.html"), encoding: .utf8) == "keep")
}
