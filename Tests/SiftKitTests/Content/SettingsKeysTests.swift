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

    @Test func theKeysBelowAnUnknownKeyAreNotWarnedAboutAgain() throws {
        // Aliases expand this to 111,110 keys, and each was a warning with its suggestion:
        // seconds of work (FuzzSettings' timeout) and a hundred thousand lines for one mistake.
        let letters = ["a", "b", "c", "d", "e"]
        var yaml = "title: T\nserch:\n  instant: true\n  placeholder: Find\n"
        yaml += "a: &a {" + (0..<10).map { "x\($0): 1" }.joined(separator: ", ") + "}\n"
        for (previous, key) in zip(letters, letters.dropFirst()) {
            yaml += "\(key): &\(key) {" + (0..<10).map { "\(key)\($0): *\(previous)" }.joined(separator: ", ") + "}\n"
        }
        let site = try TestSite(["Content/site.yml": yaml, "Content/fruits/fruits.txt": "Apple\n"])
        defer { site.delete() }
        let out = SiftCLI.run(["check"], in: site.root)
        #expect(out.status == 0)
        let lines = out.stderr.split(separator: "\n")
        try #require(lines.count == 6, "\(lines.count) warnings")
        #expect(lines == [
            "Content/site.yml:2:1: warning: unknown key 'serch' (did you mean 'search'?)",
            "Content/site.yml:5:1: warning: unknown key 'a'",
            "Content/site.yml:6:1: warning: unknown key 'b'",
            "Content/site.yml:7:1: warning: unknown key 'c'",
            "Content/site.yml:8:1: warning: unknown key 'd'",
            "Content/site.yml:9:1: warning: unknown key 'e'",
        ])
    }

    @Test func aTopLevelKeyWithADotInItsNameIsStillWarnedAbout() {
        let warnings = SettingsKeys.site.warnings(["serch.instant": SourcePosition(path: "s.yml", line: 2, column: 1)])
        #expect(warnings.map(\.line) == ["s.yml:2:1: warning: unknown key 'serch.instant' (did you mean 'search.instant'?)"])
    }

    @Test func anUnknownKeyBelowAKnownOneIsWarnedAbout() {
        let keys = ["search": SourcePosition(path: "s.yml", line: 1, column: 1),
                    "search.instent": SourcePosition(path: "s.yml", line: 2, column: 3)]
        #expect(SettingsKeys.site.warnings(keys).map(\.line) == ["s.yml:2:3: warning: unknown key 'search.instent' (did you mean 'search.instant'?)"])
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
