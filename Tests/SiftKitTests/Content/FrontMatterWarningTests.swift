import Foundation
import Testing
@testable import SiftKit

/// A standalone page's misspelt front matter key is a warning at the key; one the templates use is not.
@Test func aStandalonePagesUnknownFrontMatterKeyWarnsUnlessATemplateUsesIt() throws {
    let site = try TestSite([
        "Content/about.md": "---\ntitle: About\nwieght: 2\nauthor: Me\n---\nHi.\n",
        "Content/things/things.txt": "Alpha\n",
        "Templates/partials/byline.mustache": "By {{author.name}}\n",
    ])
    defer { site.delete() }
    let outcome = SiftCLI.run(["check"], in: site.root)
    #expect(outcome.status == 0)
    #expect(outcome.stderr.contains("Content/about.md:3:1: warning: unknown key 'wieght' (did you mean 'weight'?)"), "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("'author'"))
    #expect(SiftCLI.run(["check", "--strict"], in: site.root).status == 1)
}
