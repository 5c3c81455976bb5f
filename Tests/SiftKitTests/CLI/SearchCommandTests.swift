import Foundation
import Testing
@testable import SiftKit

@Test func batchAnswersEachLineAsJSONWould() throws {
    let site = try TestSite([
        "Content/fruit/fruit.csv": "name,kind\nLemon,Citrus\nLime,Citrus\nApple,Pome\n",
        "Content/fruit/collection.yml": "scope_field: kind\n",
    ])
    #expect(site.build().status == 0)
    let requests = """
        {"query":"l"}
        {"query":"lem","scope":"Citrus","limit":1}

        {"query":"x","scope":"Stone"}
        {"query":"","collection":"fruit"}

        """
    let batch = SiftCLI.run(["search", "--batch"], in: site.root, input: { Data(requests.utf8) })
    #expect(batch.status == 0)
    let one = { (args: [String]) in SiftCLI.run(["search"] + args + ["--json"], in: site.root).stdout }
    #expect(batch.stdout == one(["l"]) + one(["lem", "--scope", "Citrus", "--limit", "1"])
            + #"{"error":"unknown scope “Stone” (scopes: All, Citrus, Pome)"}"# + "\n" + one(["", "--collection", "fruit"]))

    let bad = SiftCLI.run(["search", "--batch"], in: site.root, input: { Data("lemon\n".utf8) })
    #expect(bad.status == 2)
    #expect(SiftCLI.run(["search", "--batch", "lemon"], in: site.root, input: { Data() }).status == 2)
}

@Test func batchScopeTotalsAreWhatEachScopeAnswers() throws {
    let site = try TestSite([
        "Content/fruit/fruit.csv": "name,kind\nLemon,Citrus\nLime,Citrus\nApple,Pome\nLychee,\n",
        "Content/fruit/collection.yml": "scope_field: kind\n",
    ])
    #expect(site.build().status == 0)
    let request = #"{"query":"l","scope":"Citrus","limit":1,"scopeTotals":true}"# + "\n"
    let batch = SiftCLI.run(["search", "--batch"], in: site.root, input: { Data(request.utf8) })
    let total = { (scope: String) in SiftCLI.run(["search", "l", "--scope", scope, "--json"], in: site.root).stdout }
    #expect(total("All").contains(#""total":4,"#) && total("Citrus").contains(#""total":2,"#) && total("Pome").contains(#""total":1,"#) && total("").contains(#""total":1,"#))
    let one = SiftCLI.run(["search", "l", "--scope", "Citrus", "--limit", "1", "--json"], in: site.root).stdout
    #expect(batch.stdout == #"{"scopeTotals":{"All":4,"Citrus":2,"Pome":1,"":1},"# + one.dropFirst())
}

/// A query that starts with `--` (an option of the page's program, `--color`) follows `--`.
@Test func aQueryThatStartsWithTwoDashesFollowsTheEndOfOptions() throws {
    let site = try TestSite([
        "Content/tools/ls.md": "---\ntitle: ls\n---\nUse --color to colour the names.\n",
        "Content/tools/cat.md": "---\ntitle: cat\n---\nNo colour here, and - - alone.\n",
    ])
    #expect(site.build().status == 0)
    let found = SiftCLI.run(["search", "--json", "--", "--color"], in: site.root)
    #expect(found.status == 0)
    #expect(found.stdout.contains(#""total":1,"#) && found.stdout.contains(#""slug":"ls""#))
    let refused = SiftCLI.run(["search", "--color"], in: site.root)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("sift search -- --color"))
    let after = SiftCLI.run(["search", "--", "--color", "--site", "x"], in: site.root)
    #expect(after.status == 2 && after.stderr.contains("its options before"))
}
