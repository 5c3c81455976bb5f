import Foundation
/// A value read from a dataset, front matter or settings file, and the context templates render.
public enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number kept as written in the source (`3`, `2.50`), so output shows what the author typed.
    case number(String)
    case string(String)
    case list([Value])
    case map(Fields)

    /// The value as text, as a template prints it; lists and maps give "".
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let s), .string(let s): return s
        case .list, .map: return ""
        }
    }

    /// Mustache truthiness: null, false, "" and the empty list are false.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .string(let s): return !s.isEmpty
        case .list(let l): return !l.isEmpty
        case .number, .map: return true
        }
    }

    /// The number this value holds, when it is a number or a numeric string.
    public var doubleValue: Double? {
        switch self {
        case .number(let s), .string(let s):
            // Decimal only: Swift's Double(_:) reads hexadecimal (`0x10`) too, which a weight is not.
            let text = s.trimmingCharacters(in: .whitespaces)
            return text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }) ? Double(text) : nil
        default: return nil
        }
    }

    /// The boolean this value holds (`true`/`false`, also as strings `yes`/`no`).
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .string(let s):
            switch s.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The list of strings this value holds: a list's texts, or a single string as one element;
    /// nil for a list holding a list or a mapping (`[kind, [x]]`), which has no text of its own.
    public var stringList: [String]? {
        switch self {
        case .list(let l):
            var texts: [String] = []
            for v in l {
                switch v {
                case .list, .map: return nil
                default: texts.append(v.text)
                }
            }
            return texts
        case .string(let s): return [s]
        default: return nil
        }
    }

    /// The mapping this value holds, if any.
    public var fields: Fields? {
        if case .map(let f) = self { return f }
        return nil
    }

    /// Looks up a dotted path (`a.b`) through nested maps.
    public func value(at path: String) -> Value? {
        guard case .map(let f) = self else { return nil }
        return f.value(at: path)
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByIntegerLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) { self = .map(Fields(elements)) }
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
}

/// An ordered mapping of names to values: keys keep the order they were written in.
///
/// Keys and values are held side by side, in order: a row or a front matter has a few keys,
/// which a lookup finds by comparing them, faster than hashing the name, and a walk over them
/// reads two arrays. Past `Fields.scanned` keys, their places are kept in a dictionary too.
public struct Fields: Hashable, Sendable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [Value] = []
    /// Each key's place, once there are more than `scanned` keys.
    private var places: [String: Int]?
    /// The most keys a lookup compares one by one.
    private static let scanned = 16

    /// Creates an empty mapping.
    public init() {}

    /// Creates a mapping from pairs; a repeated key keeps its first place and its last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        for (k, v) in pairs { self[k] = v }
    }

    /// The place of `key` in `keys`.
    private func place(_ key: String) -> Int? {
        if let places { return places[key] }
        return keys.firstIndex(of: key)
    }

    /// The value for a key; setting nil removes it.
    public subscript(key: String) -> Value? {
        get { place(key).map { values[$0] } }
        set {
            if let newValue {
                if let i = place(key) {
                    values[i] = newValue
                } else {
                    keys.append(key)
                    values.append(newValue)
                    if places != nil { places![key] = keys.count - 1 } else if keys.count > Self.scanned { indexPlaces() }
                }
            } else if let i = place(key) {
                keys.remove(at: i)
                values.remove(at: i)
                if places != nil { indexPlaces() }
            }
        }
    }

    /// Keeps each key's place in `places` while there are more than `scanned` keys.
    private mutating func indexPlaces() {
        places = keys.count > Self.scanned ? Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }) : nil
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Looks up `a.b.c` through nested maps; a key that itself contains dots is tried first.
    public func value(at path: String) -> Value? {
        if let direct = self[path] { return direct }
        guard let dot = path.firstIndex(of: ".") else { return nil }
        guard case .map(let inner)? = self[String(path[..<dot])] else { return nil }
        return inner.value(at: String(path[path.index(after: dot)...]))
    }

    /// A settings key's text: a text, a number or a Boolean written as one; nil when the key is
    /// absent, or when its value is a list or a mapping, which is an error (`errors`) at `position`
    /// naming the key as `name` (`theme.bar_tint` for `bar_tint` of `theme:`).
    func text(_ key: String, at position: SourcePosition, errors: inout [SiftError], name: String? = nil) -> String? {
        switch self[key] {
        case .list?: errors.append(SiftError("\(name ?? key) must be text, not a list", at: position))
        case .map?: errors.append(SiftError("\(name ?? key) must be text, not a mapping", at: position))
        case let v?: return v.text
        case nil: break
        }
        return nil
    }

    /// Copies every key of `other` over this mapping.
    public mutating func merge(_ other: Fields) {
        for (k, v) in other { self[k] = v }
    }

    public func makeIterator() -> Zip2Sequence<[String], [Value]>.Iterator {
        zip(keys, values).makeIterator()
    }

    public static func == (a: Fields, b: Fields) -> Bool { a.keys == b.keys && a.values == b.values }
    public func hash(into h: inout Hasher) { h.combine(keys); h.combine(values) }
}

extension Fields: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) { self.init(elements) }
}

extension StableHasher {
    /// Mixes a value tree in an unambiguous order: tags and lengths keep `["ab"]` and `["a","b"]` apart.
    mutating func combine(_ value: Value) {
        switch value {
        case .null: combine(UInt64(1))
        case .bool(let b): combine(UInt64(b ? 2 : 3))
        case .number(let s): combine(UInt64(4)); combine(s)
        case .string(let s): combine(UInt64(5)); combine(s)
        case .list(let l):
            combine(UInt64(6)); combine(UInt64(l.count))
            for v in l { combine(v) }
        case .map(let f):
            combine(UInt64(7)); combine(UInt64(f.count))
            for (k, v) in f { combine(k); combine(v) }
        }
    }
}
