/// Finds the templates that `{{> name}}` and `{{< name}}` tags refer to.
public protocol PartialResolver: Sendable {
    /// The template with this name, or nil when there is none (rendering then fails).
    func template(named name: String) throws -> MustacheTemplate?
}

/// A dictionary of templates by name resolves partials directly.
extension Dictionary: PartialResolver where Key == String, Value == MustacheTemplate {
    /// The template stored under `name`.
    public func template(named name: String) throws -> MustacheTemplate? { self[name] }
}
