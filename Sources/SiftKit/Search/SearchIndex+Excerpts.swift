import Foundation

extension SearchIndex {
    /// The response with an excerpt and sections for each of its first `count` results (all
    /// when nil): body matches get them from the text files, others `excerpt` nil and no sections.
    public func excerpts(_ response: SearchResponse, count: Int? = nil) throws -> SearchResponse {
        var seen = Set<[UInt8]>()
        let terms = Fold.terms(response.query).filter { seen.insert(Array($0.utf8)).inserted }
        var out = response
        for i in out.results.indices.prefix(count ?? out.results.count) {
            out.results[i].sections = []
            guard out.results[i].match == .body, let d = document(at: out.results[i].url) else { continue }
            let entry = try textEntry(d)
            guard !entry.isEmpty else { continue }
            out.results[i].excerpt = Excerpt.excerpt(Excerpt.wholeText(entry), terms)
            out.results[i].sections = Excerpt.sections(entry, terms, url: out.results[i].url)
        }
        return out
    }

    /// The document a result's URL names.
    private func document(at url: String) -> Int? {
        if store.documentsByURL.isEmpty {
            for (d, doc) in docs.enumerated() where store.documentsByURL[base + doc.url] == nil { store.documentsByURL[base + doc.url] = d }
        }
        return store.documentsByURL[url]
    }

    /// Document `d`'s excerpt entry, from its text file, every entry of which is checked.
    func textEntry(_ d: Int) throws -> [String] {
        guard textsPerFile > 0 else { return [] }
        let n = d / textsPerFile
        if let file = store.texts[n] { return file[d % textsPerFile] }
        let name = IndexFormat.textFileName(n), count = min(textsPerFile, docs.count - n * textsPerFile)
        guard let file = try store.object(name) as? [[String]], file.count == count else {
            throw store.corrupt(name, "expected a list of \(count == 1 ? "1 entry" : "\(count) entries"), each a list of strings")
        }
        if let bad = file.firstIndex(where: { !$0.isEmpty && $0.count % 3 != 1 }) {
            throw store.corrupt(name, "entry \(bad): expected a text, then an id, a title and a text per section")
        }
        store.texts[n] = file
        return file[d % textsPerFile]
    }
}
