/// Size caps for documents read by Quire, so a hostile or broken file costs bounded memory and stack.
public struct JSONLimits: Sendable, Hashable {
    /// The largest document, in bytes.
    public var documentBytes: Int
    /// The deepest nesting of arrays and objects.
    public var depth: Int
    /// The longest string, in UTF-8 bytes after unescaping.
    public var stringBytes: Int

    public init(documentBytes: Int = 16 << 20, depth: Int = 64, stringBytes: Int = 64 << 10) {
        self.documentBytes = documentBytes
        self.depth = depth
        self.stringBytes = stringBytes
    }

    public static let `default` = JSONLimits()
    /// For snapshots, which Quire writes itself: they hold whatever a session holds (an answer of
    /// any length, an embedded flow), so only the document size is capped.
    public static let snapshot = JSONLimits(documentBytes: 256 << 20, depth: 64, stringBytes: 256 << 20)
}

/// A syntax error: where (byte offset, path) and why. Fatal for the document.
public struct JSONSyntaxError: Error, Sendable, Hashable {
    public var offset: Int
    public var path: JSONPath
    public var message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes that knows where everything is.
///
/// The fast path builds a `JSONValue` and remembers nothing about positions. When a later stage
/// finds a problem at some JSON path, `locate` parses again and records the offsets of every key
/// and value, so reporting `line:column` costs nothing unless there is something to report.
public struct JSONParser {
    public struct Result: Sendable {
        public var value: JSONValue
        /// Keys that appeared twice in one object (the first value is kept).
        public var duplicateKeys: [(offset: Int, path: JSONPath)]
    }

    /// Where a value (and, for object members, its key) starts. When a key appears twice in an
    /// object, the first one is located, as it is the one whose value is kept.
    public struct Locations: Sendable {
        public var values: [JSONPath: Int] = [:]
        public var keys: [JSONPath: Int] = [:]

        /// The offset of the value at `path`, or of the nearest enclosing value that exists.
        public func valueOffset(_ path: JSONPath) -> Int {
            var path = path
            while true {
                if let offset = values[path] { return offset }
                if path.components.isEmpty { return 0 }
                path = JSONPath(components: Array(path.components.dropLast()))
            }
        }

        /// The offset of the key of the member at `path`, else of its value.
        public func keyOffset(_ path: JSONPath) -> Int {
            keys[path] ?? valueOffset(path)
        }
    }

    public static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONSyntaxError) -> Result {
        if bytes.count > limits.documentBytes {
            throw JSONSyntaxError(
                offset: 0, path: .root,
                message: "the document is \(bytes.count) bytes; the limit is \(limits.documentBytes)")
        }
        var parser = Machine(bytes: bytes, limits: limits, recording: false)
        let value = try parser.parseDocument()
        return Result(value: value, duplicateKeys: parser.duplicates)
    }

    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONSyntaxError) -> Result {
        try parse(Array(text.utf8), limits: limits)
    }

    /// Parses again, recording the offsets of the values at `paths` (and of everything
    /// enclosing them). Cost is one parse whatever the number of paths: a trie of the wanted
    /// paths is followed as the parser descends, and nothing outside it is recorded.
    public static func locate(_ bytes: [UInt8], paths: some Sequence<JSONPath>, limits: JSONLimits = .default) -> Locations {
        var trie = Trie()
        var wanted: [(JSONPath, Int)] = []
        for path in paths { wanted.append((path, trie.insert(path))) }
        var parser = Machine(bytes: bytes, limits: limits, recording: true)
        parser.trie = trie
        parser.valueOffsets = [Int](repeating: -1, count: trie.children.count)
        parser.keyOffsets = [Int](repeating: -1, count: trie.children.count)
        _ = try? parser.parseDocument()
        var locations = Locations()
        for (path, _) in wanted {
            // Every prefix of a wanted path is in the trie too.
            var node = 0
            var prefix = JSONPath.root
            if parser.valueOffsets[0] >= 0 { locations.values[prefix] = parser.valueOffsets[0] }
            for component in path.components {
                guard let child = trie.children[node][component] else { break }
                node = child
                prefix = JSONPath(components: prefix.components + [component])
                if parser.valueOffsets[node] >= 0 { locations.values[prefix] = parser.valueOffsets[node] }
                if parser.keyOffsets[node] >= 0 { locations.keys[prefix] = parser.keyOffsets[node] }
            }
        }
        return locations
    }

    /// Whether a reader may scan `bytes` at all: within `limits.documentBytes` and UTF-8. When
    /// not, `parse` names what is wrong.
    package static func mayScan(_ bytes: [UInt8], limits: JSONLimits) -> Bool {
        bytes.count <= limits.documentBytes && otherEncoding(bytes) == nil
    }

    /// The encoding of a document that is not UTF-8 but UTF-16 or UTF-32, told by its byte order
    /// mark or, without one, by the NUL bytes around its first ASCII character (RFC 4627 §3).
    static func otherEncoding(_ bytes: [UInt8]) -> String? {
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        switch (at(0), at(1), at(2), at(3)) {
        case (0x00, 0x00, 0xFE, 0xFF): return "UTF-32 (big-endian, with a byte order mark)"
        case (0xFF, 0xFE, 0x00, 0x00): return "UTF-32 (little-endian, with a byte order mark)"
        case (0xFE, 0xFF, _, _): return "UTF-16 (big-endian, with a byte order mark)"
        case (0xFF, 0xFE, _, _): return "UTF-16 (little-endian, with a byte order mark)"
        case (0x00, 0x00, 0x00, let c?) where c != 0: return "UTF-32 (big-endian)"
        case (let c?, 0x00, 0x00, 0x00) where c != 0: return "UTF-32 (little-endian)"
        case (0x00, let c?, _, _) where c != 0 && c < 0x80: return "UTF-16 (big-endian)"
        case (let c?, 0x00, _, _) where c != 0 && c < 0x80: return "UTF-16 (little-endian)"
        default: return nil
        }
    }

    /// Wanted paths as a trie of path components; node 0 is the root.
    struct Trie {
        var children: [[JSONPath.Component: Int]] = [[:]]

        mutating func insert(_ path: JSONPath) -> Int {
            var node = 0
            for component in path.components {
                if let child = children[node][component] {
                    node = child
                } else {
                    children.append([:])
                    children[node][component] = children.count - 1
                    node = children.count - 1
                }
            }
            return node
        }
    }

    fileprivate struct Machine {
        let bytes: [UInt8]
        let limits: JSONLimits
        let recording: Bool
        var at = 0
        var depth = 0
        /// Where the parser is, for a message or a repeated key: for each open member the
        /// offset of its key (the opening quote), for each open array element `-1 - index`. It
        /// becomes a `JSONPath` (`path`) only then, so reading a member does not copy its key.
        var trail: [Int] = []
        var duplicates: [(offset: Int, path: JSONPath)] = []
        var scratch: [UInt8] = []
        // Recording: the trie of wanted paths, the node each open level is at (-1: outside the
        // trie), and the first offset seen for each node.
        var trie = Trie()
        var cursor: [Int] = [0]
        var valueOffsets: [Int] = []
        var keyOffsets: [Int] = []

        /// Moves into a child of the current trie node (recording mode only).
        @inline(__always) mutating func descend(_ component: JSONPath.Component) {
            let node = cursor[cursor.count - 1]
            cursor.append(node >= 0 ? (trie.children[node][component] ?? -1) : -1)
        }

        @inline(__always) mutating func moveTo(_ component: JSONPath.Component) {
            cursor.removeLast()
            descend(component)
        }

        init(bytes: [UInt8], limits: JSONLimits, recording: Bool) {
            self.bytes = bytes
            self.limits = limits
            self.recording = recording
        }

        func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            JSONSyntaxError(offset: offset ?? at, path: path, message: message)
        }

        /// `trail` as a path, each key read again from its offset.
        package var path: JSONPath {
            JSONPath(
                components: trail.map { mark in
                    guard mark >= 0 else { return .index(-1 - mark) }
                    var key = Machine(bytes: bytes, limits: limits, recording: false)
                    key.at = mark
                    return .key((try? key.parseString()) ?? "")
                })
        }

        mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
            if let encoding = JSONParser.otherEncoding(bytes) {
                throw fail("the file is \(encoding); Quire reads UTF-8 only (save it as UTF-8)", at: 0)
            }
            // A UTF-8 byte order mark is tolerated, as most editors may write one.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
            skipWhitespace()
            if at >= bytes.count { throw fail("the document is empty; expected a JSON value") }
            let value = try parseValue()
            skipWhitespace()
            if at < bytes.count {
                throw fail("unexpected \(describe(at)) after the end of the JSON value")
            }
            return value
        }

        package mutating func skipWhitespace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x0A, 0x0D, 0x09: at += 1
                default: return
                }
            }
        }

        func describe(_ offset: Int) -> String {
            guard offset < bytes.count else { return "end of input" }
            let byte = bytes[offset]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            if byte < 0x20 || byte == 0x7F { return "control character 0x\(String(byte, radix: 16, uppercase: true))" }
            if byte >= 0x80 { return "non-ASCII byte 0x\(String(byte, radix: 16, uppercase: true))" }
            return "' '"
        }

        mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
            guard at < bytes.count else { throw fail("the document ends early (truncated JSON); expected a value") }
            if recording, let node = cursor.last, node >= 0, valueOffsets[node] < 0 { valueOffsets[node] = at }
            switch bytes[at] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw fail("unexpected \(describe(at)); expected a JSON value")
            }
        }

        package mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
            let start = at
            let count = word.utf8CodeUnitCount
            let pointer = word.utf8Start
            for offset in 0..<count {
                guard at < bytes.count else {
                    throw fail("the document ends early (truncated JSON) inside '\(word)'", at: start)
                }
                guard bytes[at] == pointer[offset] else {
                    throw fail("unexpected \(describe(at)); expected '\(word)'", at: start)
                }
                at += 1
            }
        }

        mutating func enter() throws(JSONSyntaxError) {
            depth += 1
            if depth > limits.depth {
                throw fail("nesting is deeper than \(limits.depth) levels")
            }
        }

        mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
            let open = at
            try enter()
            at += 1
            skipWhitespace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                depth -= 1
                return .object(JSONObject())
            }
            // Room for a few members at once: growing two arrays from one slot cost an
            // allocation per doubling, most of an object's cost in a session script.
            var object = JSONObject(minimumCapacity: 4)
            while true {
                skipWhitespace()
                guard at < bytes.count else {
                    throw fail("the document ends early (truncated JSON): the object opened here is not closed", at: open)
                }
                guard bytes[at] == UInt8(ascii: "\"") else {
                    throw fail("unexpected \(describe(at)); expected a key in double quotes")
                }
                let keyOffset = at
                let key = try parseString()
                trail.append(keyOffset)
                if recording {
                    descend(.key(key))
                    if let node = cursor.last, node >= 0, keyOffsets[node] < 0 { keyOffsets[node] = keyOffset }
                }
                skipWhitespace()
                guard at < bytes.count else {
                    throw fail("the document ends early (truncated JSON); expected ':' after the key", at: keyOffset)
                }
                guard bytes[at] == UInt8(ascii: ":") else {
                    throw fail("unexpected \(describe(at)); expected ':' after the key")
                }
                at += 1
                skipWhitespace()
                let value = try parseValue()
                if object.position(of: key) != nil {
                    duplicates.append((keyOffset, path))
                } else {
                    object.append(key, value)
                }
                trail.removeLast()
                if recording { cursor.removeLast() }
                skipWhitespace()
                guard at < bytes.count else {
                    throw fail("the document ends early (truncated JSON): the object opened here is not closed", at: open)
                }
                switch bytes[at] {
                case UInt8(ascii: ","):
                    let comma = at
                    at += 1
                    skipWhitespace()
                    if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                        throw fail("a trailing comma is not allowed before '}'", at: comma)
                    }
                case UInt8(ascii: "}"):
                    at += 1
                    depth -= 1
                    return .object(object)
                default:
                    throw fail("unexpected \(describe(at)); expected ',' or '}' in the object")
                }
            }
        }

        mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
            let open = at
            try enter()
            at += 1
            var array: [JSONValue] = []
            skipWhitespace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                depth -= 1
                return .array(array)
            }
            trail.append(-1)
            if recording { descend(.index(0)) }
            while true {
                skipWhitespace()
                trail[trail.count - 1] = -1 - array.count
                if recording && array.count > 0 { moveTo(.index(array.count)) }
                array.append(try parseValue())
                skipWhitespace()
                guard at < bytes.count else {
                    trail.removeLast()
                    throw fail("the document ends early (truncated JSON): the array opened here is not closed", at: open)
                }
                switch bytes[at] {
                case UInt8(ascii: ","):
                    let comma = at
                    at += 1
                    skipWhitespace()
                    if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                        trail.removeLast()
                        throw fail("a trailing comma is not allowed before ']'", at: comma)
                    }
                case UInt8(ascii: "]"):
                    at += 1
                    depth -= 1
                    trail.removeLast()
                    if recording { cursor.removeLast() }
                    return .array(array)
                default:
                    throw fail("unexpected \(describe(at)); expected ',' or ']' in the array")
                }
            }
        }

        mutating func parseString() throws(JSONSyntaxError) -> String {
            let open = at
            at += 1
            let start = at
            // Fast path: printable ASCII with no escapes, scanned in the buffer.
            let limit = limits.stringBytes
            let plain: (end: Int, text: String?) = bytes.withUnsafeBufferPointer { buffer in
                var end = start
                while end < buffer.count {
                    let byte = buffer[end]
                    if byte == UInt8(ascii: "\"") {
                        guard end - start <= limit else { return (end, nil) }
                        return (end, String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self))
                    }
                    if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                    end += 1
                }
                return (end, nil)
            }
            at = plain.end
            if let text = plain.text {
                at += 1
                return text
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "\"") { throw stringTooLong(open) }
            // Slow path: escapes, non-ASCII (validated), or an error.
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: bytes[start..<at])
            while true {
                guard at < bytes.count else {
                    throw fail("the document ends early (truncated JSON): the string opened here is not closed", at: open)
                }
                let byte = bytes[at]
                switch byte {
                case UInt8(ascii: "\""):
                    at += 1
                    if scratch.count > limits.stringBytes { throw stringTooLong(open) }
                    return String(decoding: scratch, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try parseEscape()
                case 0..<0x20:
                    throw fail("\(describe(at)) inside a string; write it as an escape such as \\n")
                case 0x80...:
                    try copyUTF8Sequence()
                default:
                    scratch.append(byte)
                    at += 1
                }
                if scratch.count > limits.stringBytes { throw stringTooLong(open) }
            }
        }

        func stringTooLong(_ open: Int) -> JSONSyntaxError {
            fail("a string is longer than \(limits.stringBytes) bytes", at: open)
        }

        mutating func parseEscape() throws(JSONSyntaxError) {
            let escape = at
            do {
                try JSONGrammar.decodeEscape(bytes, at: &at, into: &scratch)
            } catch {
                switch error {
                case .truncated: throw fail("the document ends early (truncated JSON) inside an escape", at: escape)
                case .unknown(let byte): throw fail("'\\\(Character(Unicode.Scalar(byte)))' is not a JSON escape", at: escape)
                case .needsHexDigits: throw fail("a \\u escape needs four hex digits", at: escape)
                case .loneHighSurrogate: throw fail("a \\u escape holds a lone high surrogate", at: escape)
                case .loneLowSurrogate: throw fail("a \\u escape holds a lone low surrogate", at: escape)
                case .notAScalar: throw fail("a \\u escape is not a Unicode scalar", at: escape)
                }
            }
        }

        /// Copies one multi-byte UTF-8 sequence after checking it is well formed (no overlongs,
        /// no surrogates, nothing above U+10FFFF).
        mutating func copyUTF8Sequence() throws(JSONSyntaxError) {
            let length: Int
            do {
                length = try JSONGrammar.utf8Length(bytes, at: at, end: bytes.count)
            } catch {
                let lead = String(bytes[at], radix: 16, uppercase: true)
                switch error {
                case .badLead: throw fail("invalid UTF-8: byte 0x\(lead) cannot start a character")
                case .cutOff: throw fail("invalid UTF-8: a character is cut off at the end of the document")
                case .missingContinuation(let length):
                    throw fail(
                        "invalid UTF-8: byte 0x\(lead) is not followed by the \(length - 1) continuation byte\(length > 2 ? "s" : "") it needs (is the file saved as Latin-1 or another encoding rather than UTF-8?)"
                    )
                case .overlongOrSurrogate: throw fail("invalid UTF-8: an overlong or surrogate encoding")
                }
            }
            scratch.append(contentsOf: bytes[at..<(at + length)])
            at += length
        }

        mutating func parseNumber() throws(JSONSyntaxError) -> Double {
            let start = at
            do {
                return try JSONGrammar.number(bytes, at: &at)
            } catch {
                // A number of thousands of digits is named by its start and length, not printed whole.
                func shown() -> String {
                    let text = String(decoding: bytes[start..<at], as: UTF8.self)
                    return text.utf8.count > 40 ? "\(text.prefix(24))…(\(text.utf8.count) characters)" : text
                }
                switch error {
                case .noDigitAfterMinus: throw fail("a number needs a digit after '-'", at: start)
                case .leadingZero: throw fail("a number cannot start with a leading zero", at: start)
                case .noDigitAfterPoint: throw fail("a number needs a digit after '.'", at: start)
                case .noDigitInExponent: throw fail("a number needs a digit in its exponent", at: start)
                case .outOfRange: throw fail("the number \(shown()) is out of range", at: start)
                case .inexactInteger:
                    throw fail(
                        "the integer \(shown()) is too large: integers are exact only up to 2^53 (9007199254740992) and this one would be rounded",
                        at: start)
                }
            }
        }

    }
}
