/// A folder of Content/: its settings, its dataset rows and pages joined into items, in list order.
public struct SiteCollection: Sendable {
    /// The folder name, which is also the URL segment.
    public var name: String
    public var settings: CollectionSettings
    public var items: [Item]

    /// The list page heading.
    public var title: String {
        settings.title ?? (name.prefix(1).uppercased() + name.dropFirst())
    }

    /// Creates a collection.
    public init(name: String, settings: CollectionSettings, items: [Item]) {
        self.name = name
        self.settings = settings
        self.items = items
    }

    /// The scope of an item, when the collection has a scope field.
    public func scope(of item: Item) -> String? {
        guard let field = settings.scopeField else { return nil }
        return item.fields.value(at: field)?.text
    }
}

