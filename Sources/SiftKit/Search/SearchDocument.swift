import Foundation

/// One item as the search index sees it.
public struct SearchDocument: Sendable {
    /// The collection folder name, e.g. "candies".
    public var collection: String
    public var slug: String
    public var title: String
    /// The item's URL relative to the site base, e.g. "candies/chocolate-bar/".
    public var url: String
    /// The item's scope field value, when the collection has scopes.
    public var scope: String?
    /// The searched fields in order, the title field first.
    public var fields: [(name: String, value: String)]
    /// Plain text of the Markdown body; "" when search_body is off.
    public var body: String
    /// The item's values of each facet field, in the collection's `facets` order.
    public var facets: [(name: String, values: [String])] = []
    /// The item's value of each sort field, in the collection's `sort_fields` order ("" for none).
    public var sortValues: [(name: String, value: String)] = []
    /// The body as excerpts are cut from it: the text before the first heading, then each
    /// heading's id, title and text (docs/search-index.md, "Excerpts"); [] without a body.
    public var excerptText: [String] = []

    /// Creates a document.
    public init(collection: String, slug: String, title: String, url: String, scope: String? = nil,
                fields: [(name: String, value: String)], body: String = "") {
        self.collection = collection
        self.slug = slug
        self.title = title
        self.url = url
        self.scope = scope
        self.fields = fields
        self.body = body
    }
}

/// A collection's name, heading and configured scope order ("All" not included).
public struct SearchCollectionInfo: Sendable {
    public var name: String
    public var title: String
    public var scopes: [String]

    /// Creates the description of a collection.
    public init(name: String, title: String, scopes: [String] = []) {
        self.name = name
        self.title = title
        self.scopes = scopes
    }
}

/// A document folded and split, ready to be added to an index.
///
/// What never changes once it is made (the head: names, fields, facets, sort values, length)
/// is kept in one shared box: a digest goes from the render stage to the feed, the cache and the
/// index's layout, and each copy then costs one retain instead of one a string or array.
public struct SearchDigest: Sendable {
    /// The parts of a digest that are set when it is made and only read after.
    final class Head: Sendable {
        let collection: String
        let slug: String
        let title: String
        let url: String
        let scope: String?
        let fieldNames: [String]
        let fieldValues: [String]
        let facetNames: [String]
        /// Each facet's values, in `facetNames` order.
        let facetValues: [[String]]
        let sortNames: [String]
        let sortValues: [String]
        /// How many word pieces the body has: its length, for the score.
        let bodyWords: Int

        init(collection: String, slug: String, title: String, url: String, scope: String?, fieldNames: [String], fieldValues: [String],
             facetNames: [String], facetValues: [[String]], sortNames: [String], sortValues: [String], bodyWords: Int) {
            self.collection = collection
            self.slug = slug
            self.title = title
            self.url = url
            self.scope = scope
            self.fieldNames = fieldNames
            self.fieldValues = fieldValues
            self.facetNames = facetNames
            self.facetValues = facetValues
            self.sortNames = sortNames
            self.sortValues = sortValues
            self.bodyWords = bodyWords
        }
    }

    let head: Head
    var collection: String { head.collection }
    var slug: String { head.slug }
    var title: String { head.title }
    var url: String { head.url }
    var scope: String? { head.scope }
    var fieldNames: [String] { head.fieldNames }
    var fieldValues: [String] { head.fieldValues }
    var facetNames: [String] { head.facetNames }
    var facetValues: [[String]] { head.facetValues }
    var sortNames: [String] { head.sortNames }
    var sortValues: [String] { head.sortValues }
    var bodyWords: Int { head.bodyWords }
    /// The distinct pieces of the folded body, as UTF-8 one after the other.
    var wordBytes: [UInt8]
    /// Where each piece ends in `wordBytes`.
    var wordEnds: [UInt32]
    /// Each piece's 64-bit hash, which decides its partition and its slot when merged.
    var wordHashes: [UInt64]
    /// How often each word occurs in the body (up to 127), `CountedWords.lead` added for the words of its lead.
    var wordCounts: [UInt8] = []
    /// True when the words were left out where the digest was read (`DiskCache.digest(_:key:words:)`):
    /// the index takes them from the word tables the last build stored instead.
    var wordsLeftOut = false
    /// The document's excerpt entry, as `SearchDocument.excerptText`; empty when `storedExcerpt` holds it.
    var excerptText: [String] = []
    /// The excerpt entry left in a digest file of .sift-cache (the last build's, or the one this
    /// build writes): read when its text file is written, which an incremental build mostly links.
    var storedExcerpt: StoredExcerpt?

    init(collection: String, slug: String, title: String, url: String, scope: String?, fieldNames: [String], fieldValues: [String],
         facetNames: [String] = [], facetValues: [[String]] = [], sortNames: [String] = [], sortValues: [String] = [],
         wordBytes: [UInt8], wordEnds: [UInt32], wordHashes: [UInt64], wordCounts: [UInt8] = [], bodyWords: Int = 0,
         wordsLeftOut: Bool = false) {
        head = Head(collection: collection, slug: slug, title: title, url: url, scope: scope, fieldNames: fieldNames, fieldValues: fieldValues,
                    facetNames: facetNames, facetValues: facetValues, sortNames: sortNames, sortValues: sortValues, bodyWords: bodyWords)
        self.wordBytes = wordBytes
        self.wordEnds = wordEnds
        self.wordHashes = wordHashes
        self.wordCounts = wordCounts
        self.wordsLeftOut = wordsLeftOut
    }

    /// The excerpt entry's UTF-8 bytes, which size the text files.
    var excerptBytes: Int { storedExcerpt?.bytes ?? excerptText.reduce(0) { $0 + $1.utf8.count } }

    /// The excerpt entry, read from where it is stored if it is.
    func excerpt() throws -> [String] { try storedExcerpt?.read() ?? excerptText }
}

/// An excerpt entry kept in a file: its size, and how to read it.
struct StoredExcerpt: Sendable {
    var bytes: Int
    var read: @Sendable () throws -> [String]
}

extension SearchDigest {
    /// The digest as the index keeps it once its words are merged: everything but the words.
    var withoutWords: SearchDigest {
        var d = self
        d.wordBytes = []; d.wordEnds = []; d.wordHashes = []; d.wordCounts = []
        return d
    }
}
