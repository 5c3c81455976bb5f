import Foundation

/// One entry of a collection: a dataset row, a Markdown page, or both joined by slug.
public struct Item: Sendable, Equatable {
    public var collection: String
    public var slug: String
    public var title: String
    /// The row's fields with the page's front matter laid over them, in order.
    public var fields: Fields
    /// The Markdown page, when the item has one.
    public var page: MarkdownSource?
    /// Where the item comes from: its row, else its page.
    public var source: SourcePosition
    /// True when the title was taken from the page's first level-1 heading, which the page then leaves out.
    public var titleFromHeading = false
    public var date: String?
    public var weight: Double?
    /// False when its page's front matter says `search: false`: the item has its pages but no place in the search index.
    public var searchable = true

    /// Creates an item.
    public init(collection: String, slug: String, title: String, fields: Fields, page: MarkdownSource?, source: SourcePosition) {
        self.collection = collection
        self.slug = slug
        self.title = title
        self.fields = fields
        self.page = page
        self.source = source
    }
}

/// A Markdown file as loaded: its front matter is read; its body is kept while the bodies kept
/// stay under a budget, and read again when rendered past it, so a 100k-page build never holds
/// every body in memory at once.
public struct MarkdownSource: Sendable, Equatable {
    /// How many bytes of bodies a build keeps from loading to rendering.
    static let keptBudget = 96 << 20

    /// Tells apart two reads of the same file in one `sift serve` (0 outside it), so an item
    /// compares unequal once its file changed, even when its body was not kept.
    var version: UInt64 = 0

    /// Two sources of one read (the same nonzero version) are equal without comparing the rest.
    public static func == (a: MarkdownSource, b: MarkdownSource) -> Bool {
        if a.version != 0 || b.version != 0 { return a.version == b.version }
        return a.path == b.path && a.displayPath == b.displayPath && a.bodyOffset == b.bodyOffset
            && a.bodyLine == b.bodyLine && a.keptBody == b.keptBody && a.bodyHash == b.bodyHash
    }

    /// The body, when loading kept it.
    var keptBody: String?
    /// The `StableHasher` hash of the body, taken when loading read it: an incremental build keys
    /// an item's page with it, and reads a body it did not keep only to render it again.
    var bodyHash: UInt64?

    /// The file on disk, by its path: a build makes one of these for each of 100k pages, and a
    /// path costs less to make and compare than a URL.
    public var path: String
    /// The file on disk.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: false) }
    /// The path printed in errors.
    public var displayPath: String
    /// The UTF-8 offset where the body starts, after the front matter.
    public var bodyOffset: Int
    public var bodyLine: Int

    /// Creates a reference to a Markdown file's body.
    public init(path: String, displayPath: String, bodyOffset: Int, bodyLine: Int) {
        self.path = path
        self.displayPath = displayPath
        self.bodyOffset = bodyOffset
        self.bodyLine = bodyLine
    }

    /// Creates a reference to a Markdown file's body.
    public init(url: URL, displayPath: String, bodyOffset: Int, bodyLine: Int) {
        self.init(path: url.path, displayPath: displayPath, bodyOffset: bodyOffset, bodyLine: bodyLine)
    }

    /// The hash `bodyHash` holds for a body.
    static func hash(_ body: String) -> UInt64 {
        var h = StableHasher()
        h.combine(body)
        return h.finalize()
    }

    /// Keeps the body if the build's budget (bytes kept so far) allows; takes its hash either way.
    mutating func keep(_ body: String, budget: Locked<Int>) {
        bodyHash = Self.hash(body)
        let size = body.utf8.count
        let fits = budget.withLock { total -> Bool in
            guard total + size <= Self.keptBudget else { return false }
            total += size
            return true
        }
        if fits { keptBody = body }
    }

    /// The body: the kept one, else read again from disk.
    public func body() throws -> String {
        if let keptBody { return keptBody }
        let bytes = try FileSystem.read(path: path, displayPath: displayPath)
        let text = try SourceText.decode(bytes, path: displayPath)
        let utf8 = text.utf8
        guard bodyOffset <= utf8.count else { return "" }
        return String(decoding: utf8.dropFirst(bodyOffset), as: UTF8.self)
    }
}
