/// `JSONValue` through `Codable`, for Swift programs that already use `JSONDecoder` (a flow
/// decodes through it: `Flow+Codable.swift` in QuireCore).
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            let dictionary = try container.decode([String: JSONValue].self)
            var object = JSONObject(minimumCapacity: dictionary.count)
            for key in dictionary.keys.sorted() { object.append(key, dictionary[key]!) }
            self = .object(object)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object):
            var dictionary: [String: JSONValue] = [:]
            for (key, value) in object { dictionary[key] = value }
            try container.encode(dictionary)
        }
    }
}
