import Foundation
public struct Record: Sendable, Hashable { public var fields: Fields; public var position: SourcePosition }
public enum SourceText { public static func decode(_ bytes: [UInt8], path: String) throws -> String { String(decoding: bytes, as: UTF8.self) } }
public enum TextDataset { public static func records(from text: String, path: String) -> [Record] { [] } }
public enum CSVDataset { public static func records(from text: String, path: String, separator: Character = ",") throws -> [Record] { [] } }
public enum JSONDataset { public static func records(from text: String, path: String) throws -> [Record] { [] } }
public enum YAMLDataset { public static func records(from text: String, path: String) throws -> [Record] { [] } }
public struct YAMLNode { public var value: Value }
public enum YAML { public static func parse(_ text: String, path: String, firstLine: Int = 1) throws -> YAMLNode { YAMLNode(value: .null) } }
public enum FrontMatter { public static func split(_ text: String, path: String) throws -> (fields: Fields, body: String, bodyLine: Int) { (Fields(), text, 1) } }
public struct RenderedMarkdown: Sendable { public var html = ""; public var title: String?; public var htmlWithoutTitle = ""; public var plainText = "" }
public enum Markdown { public static func render(_ source: String, unsafe: Bool = false) -> RenderedMarkdown { RenderedMarkdown() } }
public protocol PartialResolver: Sendable { func template(named: String) throws -> MustacheTemplate? }
public struct MustacheTemplate: Sendable { public init(source: String, path: String) throws {}; public func render(_ context: Value, partials: any PartialResolver) throws -> String { "" } }
public enum HTML { public static func escape(_ s: String) -> String { s } }
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
