/// A JSON document as a Swift value: the one vocabulary that flows, scripts, state, snapshots and
/// the C API share. Objects keep their keys in document order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number as an `Int` when it is a whole number that an `Int` holds exactly.
    public var intValue: Int? {
        guard case .number(let number) = self, number.rounded() == number,
            abs(number) <= 9_007_199_254_740_992
        else { return nil }
        return Int(number)
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name for the value's JSON type, used in error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject(minimumCapacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    public init(nilLiteral: ()) { self = .null }
}

/// A JSON object that keeps its keys in insertion order. Lookups are linear for small objects and
/// go through a lazily built index for large ones (a flow's `values` can hold thousands of keys).
public struct JSONObject: Sendable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []
    private var index: [String: Int]? = nil

    private static let indexThreshold = 12

    public init() {}

    public init(minimumCapacity: Int) {
        keys.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    values[at] = newValue
                } else {
                    keys.remove(at: at)
                    values.remove(at: at)
                    index = nil
                    rebuildIndexIfLarge()
                }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Appends a key known not to be present yet (the parser checks duplicates itself).
    public mutating func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else {
            rebuildIndexIfLarge()
        }
    }

    private mutating func rebuildIndexIfLarge() {
        guard index == nil, keys.count > Self.indexThreshold else { return }
        var built = [String: Int](minimumCapacity: keys.count)
        for (at, key) in keys.enumerated() { built[key] = at }
        index = built
    }

    public func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator {
        zip(keys, values).makeIterator()
    }

    /// Objects are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard rhs[key] == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        // Order-independent: combine a commutative digest of the pairs.
        var digest = 0
        for (key, value) in self {
            var pair = Hasher()
            pair.combine(key)
            pair.combine(value)
            digest ^= pair.finalize()
        }
        hasher.combine(digest)
    }
}
