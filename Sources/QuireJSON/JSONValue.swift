/// A JSON document as a Swift value: the one vocabulary that flows, scripts, state, snapshots and
/// the C API share. Objects keep their keys in document order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Equal values; strings are equal only scalar by scalar. Swift's `String ==` takes é and
    /// e + U+0301 (canonically equivalent) as one text, but a text field, an `edit` and the
    /// state count Unicode scalars: two texts that differ in a scalar are different answers.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

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
/// The members are one array of pairs: one allocation an object.
public struct JSONObject: Sendable, Hashable, Sequence {
    public typealias Member = (key: String, value: JSONValue)

    private var members: [Member] = []
    private var index: [String: Int]? = nil

    private static let indexThreshold = 12

    public init() {}

    public init(minimumCapacity: Int) {
        members.reserveCapacity(minimumCapacity)
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order (a new array: for messages and tests; iterate the object itself).
    public var keys: [String] { members.map(\.key) }
    /// The values in key order (a new array).
    public var values: [JSONValue] { members.map(\.value) }
    /// The first member in document order, if any.
    public var firstMember: Member? { members.first }

    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    members[at].value = newValue
                } else {
                    members.remove(at: at)
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
        members.append((key, value))
        if members.count <= Self.indexThreshold { return }
        if index != nil {
            index![key] = members.count - 1
        } else {
            rebuildIndexIfLarge()
        }
    }

    private mutating func rebuildIndexIfLarge() {
        guard index == nil, members.count > Self.indexThreshold else { return }
        var built = [String: Int](minimumCapacity: members.count)
        for (at, member) in members.enumerated() { built[member.key] = at }
        index = built
    }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// Objects are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.members.elementsEqual(rhs.members, by: { $0.key == $1.key }) {
            return lhs.members.elementsEqual(rhs.members, by: { $0.value == $1.value })
        }
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
