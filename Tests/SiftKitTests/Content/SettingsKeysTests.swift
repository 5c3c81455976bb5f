import Foundation
import Testing
@testable import SiftKit

@Suite struct SettingsKeysTests {
    @Test func aMisspeltCollectionKeyIsAWarningAtTheKeyWithTheClosestKnownKey() throws {
        let site = try TestSite([
            "Content/fruits/fruits.txt": "Apple\nBanana\n",
            "Content/fruits/collection.yml": "title: Fruits\nserch_fields: [title]\n",
        ])
        let out = SiftCLI.run(["check"], in: site.root)
        #expect(out.status == 0)
        #expect(out.stderr == "Content/fruits/collection.yml:2:1: warning: unknown key 'serch_fields' (did you mean 'search_fields'?)\n")
    }

    @Test func aMisspeltSearchOptionIsNamedByItsPath() throws {
        let site = try TestSite([
            "Content/site.yml": "title: T\nsearch:\n  dim_backgrund: true\n  instant: false\ntheme:\n  anything_goes: red\n",
            "Content/fruits/fruits.txt": "Apple\n",
        ])
        let out = SiftCLI.run(["check"], in: site.root)
        #expect(out.stderr == "Content/site.yml:3:3: warning: unknown key 'search.dim_backgrund' (did you mean 'search.dim_background'?)\n")
    }

    @Test func aKeyFarFromEveryKnownOneHasNoSuggestion() {
        let warnings = SettingsKeys.collection.warnings(["colour": SourcePosition(path: "c.yml", line: 4, column: 1)])
        #expect(warnings.map(\.line) == ["c.yml:4:1: warning: unknown key 'colour'"])
    }

    @Test func knownKeysGiveNoWarning() {
        let keys = ["title", "search", "search.instant", "markdown", "markdown.unsafe", "theme", "theme.bar_tint"]
        #expect(SettingsKeys.site.warnings(Dictionary(uniqueKeysWithValues: keys.map { ($0, SourcePosition(path: "s.yml")) })).isEmpty)
    }

    @Test func aSwapOfTwoLettersIsOneEdit() {
        #expect(SettingsKeys.distance("sort", "srot") == 1)
        #expect(SettingsKeys.distance("per_page", "perpage") == 1)
        #expect(SettingsKeys.distance("", "abc") == 3)
    }
}

@Suite struct StrictCheckTests {
    @Test func strictTurnsWarningsIntoExitStatusOne() throws {
        let site = try TestSite([
            "Content/fruits/fruits.txt": "Apple\n",
            "Content/fruits/collection.yml": "serch_fields: [title]\n",
        ])
        defer { site.delete() }
        #expect(SiftCLI.run(["check"], in: site.root).status == 0)
        let strict = SiftCLI.run(["check", "--strict"], in: site.root)
        #expect(strict.status == 1)
        #expect(strict.stderr == "Content/fruits/collection.yml:1:1: warning: unknown key 'serch_fields' (did you mean 'search_fields'?)\n")
        try site.write("Content/fruits/collection.yml", "search_fields: [title]\n")
        #expect(SiftCLI.run(["check", "--strict"], in: site.root).status == 0)
    }
}
