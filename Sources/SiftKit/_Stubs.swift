import Foundation
public struct SearchDocument: Sendable {
    public var collection: String; public var slug: String; public var title: String; public var url: String; public var scope: String?
    public var fields: [(name: String, value: String)]; public var body: String
}
public struct SearchDigest: Sendable {}
public struct SearchCollectionInfo: Sendable { public var name: String; public var title: String; public var scopes: [String] }
public struct SearchIndexBuilder {
    public init() {}
    public static func digest(_ doc: SearchDocument) -> SearchDigest { SearchDigest() }
    public mutating func add(_ digest: SearchDigest) {}
    public mutating func addCollection(_ info: SearchCollectionInfo) {}
    public func write(to searchDirectory: URL, baseURL: String) throws {}
}
public struct SearchResponse { public func json() -> String { "" }; public func table() -> String { "" } }
public struct SearchIndex { public init(directory: URL) throws {}; public func search(_ query: String, scope: String? = nil, collection: String? = nil, limit: Int? = nil) throws -> SearchResponse { SearchResponse() } }
