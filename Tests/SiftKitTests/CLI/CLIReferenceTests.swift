import Foundation
import Testing
@testable import SiftKit

/// docs/cli.md and `sift help` list every option each command's own help names.
@Suite struct CLIReferenceTests {
    static let reference = ReferenceDoc(name: "cli.md")

    /// The `--options` a help text names, in order, once each.
    static func options(_ help: String) -> [String] {
        var seen: [String] = []
        let pattern = try! NSRegularExpression(pattern: "--[a-z][a-z-]*")
        for m in pattern.matches(in: help, range: NSRange(help.startIndex..., in: help)) {
            let option = String(help[Range(m.range, in: help)!])
            if !seen.contains(option) && option != "--help" { seen.append(option) }
        }
        return seen
    }

    @Test func everyOptionOfEveryCommandHasARowInTheReference() throws {
        for command in SiftCLI.commands {
            let section = try Self.reference.section("sift \(command.name)")
            for option in Self.options(command.help) {
                #expect(section.contains("| `\(option)"), "docs/cli.md, sift \(command.name): no row for \(option)")
            }
        }
    }

    @Test func theUsageNamesEveryOptionOfEveryCommand() {
        let lines = SiftCLI.usage.split(separator: "\n")
        for command in SiftCLI.commands {
            let line = lines.first { $0.hasPrefix("  sift \(command.name) ") }.map(String.init) ?? ""
            #expect(Self.options(line) == Self.options(command.help), "sift help: the usage line of sift \(command.name)")
        }
    }
}
