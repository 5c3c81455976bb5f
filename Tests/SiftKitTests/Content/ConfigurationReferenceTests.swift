import Foundation
import Testing
@testable import SiftKit

/// docs/configuration.md documents every key the loader accepts, and only those: a key added to
/// `SettingsKeys` or `FrontMatter.knownKeys` needs its entry (`### \`key\``) with its type,
/// default and example before this passes.
@Suite struct ConfigurationReferenceTests {
    static let reference = ReferenceDoc(name: "configuration.md")

    @Test func everySiteKeyHasAnEntry() throws {
        try #expect(Self.reference.entries(in: "site.yml") == SettingsKeys.site.known.sorted())
    }

    @Test func everyCollectionKeyHasAnEntry() throws {
        try #expect(Self.reference.entries(in: "collection.yml") == SettingsKeys.collection.known.sorted())
    }

    @Test func everyFrontMatterKeyHasAnEntry() throws {
        try #expect(Self.reference.entries(in: "Front matter") == FrontMatter.knownKeys.sorted())
    }

    @Test func everyEntrySaysItsDefaultAndGivesAnExample() throws {
        for section in ["site.yml", "collection.yml", "Front matter"] {
            for (key, text) in try Self.reference.entryTexts(in: section) {
                #expect(text.contains("Default:"), "\(section) `\(key)` says no default")
                #expect(text.contains("Example"), "\(section) `\(key)` gives no example")
            }
        }
    }
}

/// A page of docs/, cut into its `## ` sections and their `### \`name\`` entries.
struct ReferenceDoc {
    let name: String

    var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/\(name)")
    }

    /// The text of the `## title` section, up to the next `## ` heading.
    func section(_ title: String) throws -> String {
        let text = try String(contentsOf: url, encoding: .utf8)
        let parts = text.components(separatedBy: "\n## ")
        guard let part = parts.first(where: { $0.hasPrefix(title + "\n") }) else {
            Issue.record("docs/\(name) has no section '## \(title)'")
            return ""
        }
        return part
    }

    /// Each `### \`name\`` entry of a section with the text under it, in file order.
    func entryTexts(in title: String) throws -> [(name: String, text: String)] {
        try section(title).components(separatedBy: "\n### `").dropFirst().map { entry in
            let name = String(entry.prefix { $0 != "`" })
            return (name, String(entry.dropFirst(name.count)))
        }
    }

    /// The names of a section's entries, sorted.
    func entries(in title: String) throws -> [String] {
        try entryTexts(in: title).map(\.name).sorted()
    }
}
