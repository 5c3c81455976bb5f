import Foundation
import Testing
@testable import SiftKit

/// Every decoder of public/search throws a SiftError naming the file it read, never traps:
/// one crafted file per check (docs/search-index.md says what each field must hold).
private func index(_ files: [String: String]) throws -> URL {
    let dir = temporaryFolder("sift-corrupt").appendingPathComponent("public/search")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
    return dir
}

/// The error line opening (and querying "cho") the index prints.
private func failure(_ files: [String: String], query: String = "cho") throws -> String? {
    do {
        _ = try SearchIndex(directory: try index(files), displayPath: "public/search").search(query)
        return nil
    } catch let e as SiftError {
        return e.line
    }
}

private let table = #"{"slugs":[""],"fields":[{"name":"name","values":["a"]}]}"#

/// A one-collection manifest with `docs` as given.
private func manifest(docs: String = table, count: Int = 1, scopes: String = "[]", words: String = "{}",
                      head: String = #""version":5,"base":"/","shards":0"#) -> String {
    #"{\#(head),"collections":[{"name":"c","title":"C","count":\#(count),"scopes":\#(scopes),"docs":\#(docs)}],"words":\#(words)}"#
}

@Test func scopeCodeOverflowIsAnErrorNamingTheManifest() throws {
    // Issue 19: eleven digits overflowed into a negative scope id and trapped in SearchIndex.load.
    let crash = #"{"version":5,"base":"/","shards":0,"collections":[{"name":"c","title":"C","count":1,"scopes":["X"],"docs":{"scope":"///////////","slugs":[""],"fields":[{"name":"name","values":["a"]}]}}],"words":{}}"#
    #expect(try failure(["manifest.json": crash]) == "public/search/manifest.json: error: collection “c”: scope: expected 1 code below 2")

    let site = temporaryFolder("sift-crash")
    let search = site.appendingPathComponent("public/search")
    try FileManager.default.createDirectory(at: search, withIntermediateDirectories: true)
    try Data(crash.utf8).write(to: search.appendingPathComponent("manifest.json"))
    let outcome = SiftCLI.run(["search", "a"], in: site)
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "public/search/manifest.json: error: collection “c”: scope: expected 1 code below 2\n")
}

@Test(arguments: [
    ("{", "not valid JSON"),
    ("[]", "expected a JSON object"),
    (#"{"version":7}"#, "search index version 7 is not supported (expected 5 or 6): run `sift build` again"),
    (manifest(head: #""version":5,"base":7,"shards":0"#), "base: expected a string"),
    (manifest(head: #""version":5,"base":"/","shards":-1"#), "shards: expected a whole number"),
    (manifest(head: #""version":5,"base":"/","shards":"2""#), "shards: expected a whole number"),
    (manifest(words: "[]"), "words: expected an object of strings"),
    (manifest(words: #"{"a":1}"#), "words: expected an object of strings"),
    (manifest(head: #""version":5,"base":"/","shards":3,"bounds":[5]"#), "bounds: expected 2 numbers for 3 shards"),
    (manifest(head: #""version":5,"base":"/","shards":3,"bounds":[9,5]"#), "bounds: expected ascending bucket numbers"),
    (manifest(head: #""version":5,"base":"/","shards":2,"bounds":[-1]"#), "bounds: expected ascending bucket numbers"),
    (#"{"version":5,"base":"/","shards":0,"collections":{},"words":{}}"#, "collections: expected a list of objects"),
    (#"{"version":5,"base":"/","shards":0,"collections":[{"count":1}],"words":{}}"#, "collection 0: name: expected a string"),
    (manifest(count: -1), "collection “c”: count: expected a whole number"),
    (manifest(count: 1_000_000_000_000), "collection “c”: slugs: expected a list of 1000000000000 strings"),
    (manifest(count: 2), "collection “c”: slugs: expected a list of 2 strings"),
    (manifest(scopes: "[1]"), "collection “c”: scopes: expected a list of strings"),
    (manifest(docs: "null"), "collection “c”: docs: expected a document table"),
    (manifest(docs: "[]"), "collection “c”: docs: expected a document table"),
    (manifest(docs: #""../docs.json""#), "the index names a file outside its folder: ../docs.json"),
    (manifest(docs: #"{"slugs":[""],"fields":[]}"#), "collection “c”: fields: expected a list of objects"),
    (manifest(docs: #"{"slugs":[""]}"#), "collection “c”: fields: expected a list of objects"),
    (manifest(docs: #"{"slugs":[""],"urls":{"0":5},"fields":[{"name":"name","values":["a"]}]}"#),
     "collection “c”: urls: expected an object of strings"),
    (manifest(docs: #"{"slugs":[""],"fields":[{"name":"name","values":["a","b"]}]}"#),
     "collection “c”, field “name”: values: expected a list of 1 string"),
    (manifest(docs: #"{"slugs":[""],"fields":[{"name":"name","values":[1]}]}"#),
     "collection “c”, field “name”: values: expected a list of 1 string"),
    (manifest(docs: #"{"slugs":[""],"fields":[{"values":["a"],"ids":"B"}]}"#),
     "collection “c”, field 0: ids: expected 1 code below 1"),
    (manifest(docs: #"{"slugs":[""],"fields":[{"name":"n","values":["a"],"ids":"AAAAAAAAAAA"}]}"#),
     "collection “c”, field “n”: ids: expected 1 code below 1"),
    (manifest(docs: #"{"slugs":[""],"fields":[{"name":"n","values":["a"],"ids":"*"}]}"#),
     "collection “c”, field “n”: ids: expected 1 code below 1"),
    (manifest(docs: #"{"slugs":[""],"fields":[{"name":"n","values":["a"],"ids":7}]}"#),
     "collection “c”, field “n”: ids: expected 1 code below 1"),
    (manifest(docs: #"{"scope":"C","slugs":[""],"fields":[{"name":"name","values":["a"]}]}"#, scopes: #"["X"]"#),
     "collection “c”: scope: expected 1 code below 2"),
    (manifest(docs: #"{"scope":"A","slugs":["",""],"fields":[{"name":"name","values":["a","b"]}]}"#, count: 2, scopes: #"["X"]"#),
     "collection “c”: scope: expected 2 codes below 2"),
])
func corruptManifest(text: String, message: String) throws {
    #expect(try failure(["manifest.json": text]) == "public/search/manifest.json: error: \(message)")
}

@Test func corruptDocumentTableParts() throws {
    let m = manifest(docs: #"["docs-0-0.json","docs-0-1.json"]"#, count: 3)
    let two = #"{"slugs":["",""],"fields":[{"name":"name","values":["b","c"]}]}"#
    #expect(try failure(["manifest.json": m, "docs-0-0.json": table])
            == "public/search/docs-0-1.json: error: cannot read the search index: run `sift build` again")
    #expect(try failure(["manifest.json": m, "docs-0-0.json": table, "docs-0-1.json": "[1]"])
            == "public/search/docs-0-1.json: error: collection “c”: docs: expected a document table")
    #expect(try failure(["manifest.json": m, "docs-0-0.json": two, "docs-0-1.json": two])
            == "public/search/docs-0-1.json: error: collection “c”: slugs: expected a list of 1 string")
    #expect(try failure(["manifest.json": m, "docs-0-0.json": table, "docs-0-1.json": table])
            == "public/search/docs-0-1.json: error: collection “c”: slugs: expected 3 strings in all its parts")
    #expect(try failure(["manifest.json": m, "docs-0-0.json": #"{"slugs":[],"fields":[{"name":"name","values":[]}]}"#, "docs-0-1.json": two])
            == "public/search/docs-0-0.json: error: collection “c”: slugs: expected a list of 1 to 3 strings")
    #expect(try failure(["manifest.json": m, "docs-0-0.json": table, "docs-0-1.json": two]) == nil)
    // Found in review: one small part named again and again made as many documents as the count
    // said (a manifest of 84 KB, 52,000 results from a part of 50).
    #expect(try failure(["manifest.json": manifest(docs: #"["docs-0-0.json","docs-0-0.json"]"#, count: 2), "docs-0-0.json": table])
            == "public/search/manifest.json: error: collection “c”: docs: expected at most 2 parts, each named once")
    #expect(try failure(["manifest.json": manifest(docs: #"["docs-0-0.json","docs-0-1.json"]"#, count: 1), "docs-0-0.json": table, "docs-0-1.json": table])
            == "public/search/manifest.json: error: collection “c”: docs: expected at most 1 part, each named once")
}

/// Found in review: the count of a collection after the first, near the largest integer,
/// overflowed the sum of documents left and trapped, where it should say the index is corrupt.
@Test func hugeCountAfterTheFirstCollectionIsAnError() throws {
    let second = #"{"name":"d","title":"D","count":9223372036854775807,"scopes":[],"docs":\#(table)}"#
    let text = manifest().replacingOccurrences(of: #"}],"words""#, with: #"},\#(second)],"words""#)
    #expect(try failure(["manifest.json": text]) == "public/search/manifest.json: error: collection “d”: slugs: expected a list of 9223372036854775807 strings")
}

@Test func corruptDocumentTableFile() throws {
    let m = manifest(docs: #""docs-0.json""#)
    #expect(try failure(["manifest.json": m]) == "public/search/docs-0.json: error: cannot read the search index: run `sift build` again")
    #expect(try failure(["manifest.json": m, "docs-0.json": "{\"slugs\""]) == "public/search/docs-0.json: error: not valid JSON")
    #expect(try failure(["manifest.json": m, "docs-0.json": "[1]"]) == "public/search/docs-0.json: error: collection “c”: docs: expected a document table")
    #expect(try failure(["manifest.json": m, "docs-0.json": #"{"slugs":["",""],"fields":[]}"#])
            == "public/search/docs-0.json: error: collection “c”: slugs: expected a list of 1 string")
    #expect(try failure(["manifest.json": m, "docs-0.json": table]) == nil)
}

@Test(arguments: [
    ("*AAA", "“chocolate”: expected postings of document numbers below 1"),   // not base64
    ("AAAAA", "“chocolate”: expected postings of document numbers below 1"),  // 5 digits: no whole byte
    ("AQ", "“chocolate”: expected postings of document numbers below 1"),     // document 1 of 1
    ("gA", "“chocolate”: expected postings of document numbers below 1"),     // a varint that never ends
    ("//////8", "“chocolate”: expected postings of document numbers below 1"), // a varint past 28 bits
    ("!Ag", "“chocolate”: expected postings of document numbers below 1"),    // bitmap bit 1 of 1
    ("!*", "“chocolate”: expected postings of document numbers below 1"),
])
func corruptInlinePostings(postings: String, message: String) throws {
    let m = manifest(words: #"{"chocolate":"\#(postings)"}"#)
    #expect(try failure(["manifest.json": m]) == "public/search/manifest.json: error: \(message)")
}

@Test func corruptShards() throws {
    let one = #""version":5,"base":"/","shards":1,"bounds":[]"#
    let m = manifest(head: one)
    #expect(try failure(["manifest.json": m]) == "public/search/shard-0.json: error: cannot read the search index: run `sift build` again")
    #expect(try failure(["manifest.json": m, "shard-0.json": "[]"]) == "public/search/shard-0.json: error: expected an object of strings")
    #expect(try failure(["manifest.json": m, "shard-0.json": #"{"chocolate":0}"#]) == "public/search/shard-0.json: error: expected an object of strings")
    #expect(try failure(["manifest.json": m, "shard-0.json": #"{"chocolate":"AQ"}"#])
            == "public/search/shard-0.json: error: “chocolate”: expected postings of document numbers below 1")
    // "@": the postings are in the word's primary shard, here the same one: never a loop.
    #expect(try failure(["manifest.json": m, "shard-0.json": #"{"chocolate":"@"}"#])
            == "public/search/shard-0.json: error: “chocolate”: expected its postings in shard-0.json")
    #expect(try failure(["manifest.json": m, "shard-0.json": #"{"chocolate":"AA"}"#]) == nil)

    // "xchocolate" is filed under "xch", and also, as a secondary entry, in the shard of "cho".
    let (cho, xch) = (IndexFormat.bucket(ofKey: "cho"), IndexFormat.bucket(ofKey: "xch"))
    #expect(cho != xch)
    let two = manifest(head: #""version":5,"base":"/","shards":2,"bounds":[\#(max(cho, xch))]"#)
    let (choShard, xchShard) = cho < xch ? ("shard-0.json", "shard-1.json") : ("shard-1.json", "shard-0.json")
    #expect(try failure(["manifest.json": two, choShard: #"{"xchocolate":"@"}"#, xchShard: "{}"])
            == "public/search/\(choShard): error: “xchocolate”: expected its postings in \(xchShard)")
    #expect(try failure(["manifest.json": two, choShard: #"{"xchocolate":"@"}"#, xchShard: #"{"xchocolate":"B"}"#])
            == "public/search/\(xchShard): error: “xchocolate”: expected postings of document numbers below 1")
    #expect(try failure(["manifest.json": two, choShard: #"{"xchocolate":"@"}"#, xchShard: #"{"xchocolate":"AA"}"#]) == nil)
}

@Test func decodersRefuseWhatTheWriterNeverWrites() {
    #expect(IndexFormat.decodeCodes("", count: 0, limit: 0) == [])
    #expect(IndexFormat.decodeCodes("A", count: 0, limit: 1) == nil)
    #expect(IndexFormat.decodeCodes("ABC", count: 2, limit: 64) == nil)
    #expect(IndexFormat.decodeCodes("AAAAAA", count: 1, limit: Int.max) == nil)
    #expect(IndexFormat.decodeCodes("/////", count: 1, limit: Int.max) == [(1 << 30) - 1])
    #expect(IndexFormat.decodeCodes("AB", count: 2, limit: 2) == [0, 1])
    #expect(IndexFormat.decodeCodes("AC", count: 2, limit: 2) == nil)
    #expect(IndexFormat.decodeCodes("A=", count: 2, limit: 2) == nil)
    #expect(IndexFormat.decodePostings("", below: 0) == [])
    #expect(IndexFormat.decodePostings("!", below: 0) == [])
    #expect(IndexFormat.decodePostings("!AAA", below: 0) == [])
    #expect(IndexFormat.decodePostings("AAA", below: 2) == [0, 1])
    #expect(IndexFormat.decodePostings("AAA", below: 1) == nil)
    #expect(IndexFormat.decodePostings("AAE", below: 3) == [0, 2])
    #expect(IndexFormat.decodePostings("AA==", below: 9) == nil)
}
