import Foundation

/// `sift search`: answers a query from the built index, as the browser does.
enum SearchCommand: Command {
    static let name = "search"
    static let help = """
        Usage: sift search QUERY [--site DIR] [--scope S] [--collection C] [--filter FIELD=VALUE]... [--sort [-]FIELD] [--limit N] [--json]

        Answers QUERY from the built index in DIR/public/search, as the browser does.
          --scope S         only items of scope S ("All" for every scope)
          --collection C    only collection C
          --filter F=V      only items whose facet F holds V; repeat it: OR within a field, AND across fields
          --sort [-]FIELD   order by a sort field (-FIELD descending) instead of relevance
          --limit N         at most N results
          --json            prints JSON instead of a table
          --                ends the options: the QUERY after it may start with two dashes

        """

    static func run(_ args: inout ArgumentList) throws -> SiftCLI.Outcome {
        var site = "."
        var query: String?
        var scope: String?
        var collection: String?
        var limit: Int?
        var filters: [(field: String, value: String)] = []
        var sort: String?
        var json = false
        var batch = false
        while let arg = args.next() {
            switch arg {
            case "-h", "--help": return helpOutcome
            case "--site": site = try args.folder(for: arg)
            case "--scope": scope = try args.value(for: arg)
            case "--collection": collection = try args.value(for: arg)
            case "--json": json = true
            case "--sort": sort = try args.value(for: arg)
            case "--filter":
                let v = try args.value(for: arg)
                guard let eq = v.firstIndex(of: "="), eq != v.startIndex else { throw UsageError("--filter takes FIELD=VALUE, not '\(v)'") }
                filters.append((String(v[..<eq]), String(v[v.index(after: eq)...])))
            case "--batch": batch = true
            case "--":
                // What follows is the query, however it starts.
                while let rest = args.next() {
                    guard query == nil else {
                        throw UsageError("sift search takes one QUERY after --, and its options before: sift search --site DIR -- QUERY (quote a query of several words)")
                    }
                    query = rest
                }
            case "--limit":
                let v = try args.value(for: arg)
                guard let n = Int(v), n >= 0 else { throw UsageError("--limit takes a whole number, not '\(v)'") }
                limit = n
            default:
                if arg.hasPrefix("--") && arg.count > 2 {
                    throw UsageError("unknown option '\(arg)' for sift search (a query that starts with --: sift search -- \(arg))")
                }
                guard query == nil else { throw UsageError("sift search takes one QUERY; quote it: sift search \"\(query!) \(arg)\"") }
                query = arg
            }
        }
        guard (query != nil) != batch else {
            throw UsageError(batch ? "sift search --batch reads its queries from standard input, not '\(query!)'" : "sift search needs a QUERY")
        }
        let dir = args.url(site).appendingPathComponent("public/search")
        let shown = (site == "." ? "" : site + "/") + "public/search"
        guard FileManager.default.fileExists(atPath: dir.appendingPathComponent("manifest.json").path) else {
            throw SiftError("no search index: run 'sift build' first", at: SourcePosition(path: shown + "/manifest.json", line: 0))
        }
        let index = try SearchIndex(directory: dir, displayPath: shown)
        if batch { return SiftCLI.Outcome(status: 0, stdout: try answers(index, args.input()), stderr: "") }
        var response = try index.search(query!, scope: scope, collection: collection, filters: filters, sort: sort, limit: limit)
        if json { response = try index.excerpts(response) }
        return SiftCLI.Outcome(status: 0, stdout: json ? response.json() + "\n" : response.table(), stderr: "")
    }

    /// `sift search --batch` (for the tests that compare the two engines, docs/search-index.md):
    /// one JSON request a line, `{"query":…,"scope":…,"collection":…,"filters":{F:[V…]},"sort":…,"limit":…,"excerpts":…,"scopeTotals":true}`
    /// (excerpts: only the first so many results get excerpts, default all), each answered
    /// on its line as `--json` would, or as `{"error":"message"}`, from one index read once.
    /// `scopeTotals` puts first in the answer `"scopeTotals":{"All":N,S:N…}`: the total of the
    /// same request with each scope the collections searched offer, as `--scope S` answers it.
    static func answers(_ index: SearchIndex, _ input: Data) throws -> String {
        var out = ""
        for line in String(decoding: input, as: UTF8.self).split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            guard let request = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let query = request["query"] as? String else {
                throw UsageError("sift search --batch reads one JSON object with a \"query\" a line, not: \(line.prefix(80))")
            }
            do {
                let selected = request["filters"] as? [String: [String]] ?? [:]
                let filters = selected.keys.sorted().flatMap { f in selected[f]!.map { (field: f, value: $0) } }
                let response = try index.search(query, scope: request["scope"] as? String, collection: request["collection"] as? String,
                                                filters: filters, sort: request["sort"] as? String, limit: request["limit"] as? Int)
                let answer = try index.excerpts(response, count: request["excerpts"] as? Int).json()
                guard request["scopeTotals"] as? Bool == true else { out += answer + "\n"; continue }
                var j = JSONWriter()
                j.raw("{\"scopeTotals\":{")
                for (i, s) in (["All"] + index.orderedScopes(request["collection"] as? String)).enumerated() {
                    let total = try index.search(query, scope: s, collection: request["collection"] as? String,
                                                 filters: filters, sort: request["sort"] as? String, limit: 0).total
                    j.raw(i > 0 ? "," : ""); j.key(s); j.raw(String(total))
                }
                out += j.out + "}," + answer.dropFirst() + "\n"
            } catch let e as SiftError {
                var j = JSONWriter()
                j.raw("{"); j.key("error"); j.string(e.message); j.raw("}\n")
                out += j.out
            }
        }
        return out
    }
}
