/// Reads a JSON document for a loader: parses it, lets the loader record every problem by JSON
/// path, and turns the problems into `file:line:column: $.path: message` diagnostics at the end.
///
/// Positions are looked up only when there is a problem (see `JSONParser.locate`).
public struct DocumentReader: Sendable {
    public struct Problem: Sendable, Hashable {
        public var path: JSONPath
        /// Point at the member's key rather than its value (unknown or duplicate keys).
        public var onKey: Bool
        public var message: String
        /// A known byte offset (a duplicate key, which the located paths do not reach).
        public var offset: Int? = nil
    }

    public let file: String
    /// The document's bytes; positions are computed from them.
    public let bytes: [UInt8]
    public private(set) var problems: [Problem] = []

    public init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// Parses `bytes`; a syntax error or a duplicate key is reported like any other problem.
    public static func parse(file: String, bytes: [UInt8], limits: JSONLimits = .default) throws(DocumentError) -> (
        JSONValue, DocumentReader
    ) {
        var reader = DocumentReader(file: file, bytes: bytes)
        let result: JSONParser.Result
        do {
            result = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw DocumentError([
                Diagnostic(
                    file: file, position: SourcePosition(offset: error.offset, in: bytes), path: error.path,
                    message: error.message)
            ])
        }
        for duplicate in result.duplicateKeys {
            reader.problems.append(
                Problem(
                    path: duplicate.path, onKey: true,
                    message: "duplicate key '\(lastKey(duplicate.path))' (its first value is the one read)",
                    offset: duplicate.offset))
        }
        return (result.value, reader)
    }

    public var hasProblems: Bool { !problems.isEmpty }

    /// The same problems, placed in `bytes` (the text of the value they were found in).
    func relocated(in bytes: [UInt8]) -> DocumentReader {
        var reader = DocumentReader(file: file, bytes: bytes)
        reader.problems = problems
        return reader
    }

    public mutating func error(_ path: JSONPath, _ message: String, onKey: Bool = false) {
        problems.append(Problem(path: path, onKey: onKey, message: message))
    }

    /// Every problem as a diagnostic, in document order. One extra parse finds every position.
    public func diagnostics() -> [Diagnostic] {
        guard !problems.isEmpty else { return [] }
        let locations = JSONParser.locate(bytes, paths: problems.map(\.path))
        let offsets = problems.map { problem in
            problem.offset ?? (problem.onKey ? locations.keyOffset(problem.path) : locations.valueOffset(problem.path))
        }
        let positions = SourcePosition.positions(of: offsets, in: bytes)
        var located: [(offset: Int, order: Int, diagnostic: Diagnostic)] = []
        for (order, problem) in problems.enumerated() {
            let offset = offsets[order]
            located.append(
                (offset, order, Diagnostic(file: file, position: positions[offset]!, path: problem.path, message: problem.message)))
        }
        located.sort { ($0.offset, $0.order) < ($1.offset, $1.order) }
        var seen = Set<Diagnostic>()
        return located.map(\.diagnostic).filter { seen.insert($0).inserted }
    }

    /// Throws every problem found so far, if any.
    public func finish() throws(DocumentError) {
        if !problems.isEmpty { throw DocumentError(diagnostics()) }
    }

    static func lastKey(_ path: JSONPath) -> String {
        if case .key(let key)? = path.components.last { return key }
        return ""
    }

    // MARK: Typed reads that record a problem and return nil on a mismatch.

    /// Checks that an object has only `allowed` keys and all `required` keys.
    public mutating func checkKeys(
        _ object: JSONObject, at path: JSONPath, allowed: [String], required: [String] = [], what: String
    ) {
        for key in object.keys where !allowed.contains(key) {
            var message = "unknown key '\(key)' in \(what)"
            if let suggestion = Self.closest(to: key, in: allowed) { message += "; did you mean '\(suggestion)'?" }
            error(path + key, message, onKey: true)
        }
        for key in required where object[key] == nil {
            error(path, "\(what) is missing the required key '\(key)'")
        }
    }

    public mutating func object(_ value: JSONValue, at path: JSONPath, what: String) -> JSONObject? {
        if case .object(let object) = value { return object }
        error(path, "\(what) must be an object, not \(value.typeName)")
        return nil
    }

    public mutating func array(_ value: JSONValue, at path: JSONPath, what: String) -> [JSONValue]? {
        if case .array(let array) = value { return array }
        error(path, "\(what) must be an array, not \(value.typeName)")
        return nil
    }

    public mutating func string(_ value: JSONValue, at path: JSONPath, what: String) -> String? {
        if case .string(let string) = value { return string }
        error(path, "\(what) must be a string, not \(value.typeName)")
        return nil
    }

    public mutating func bool(_ value: JSONValue, at path: JSONPath, what: String) -> Bool? {
        if case .bool(let bool) = value { return bool }
        error(path, "\(what) must be true or false, not \(value.typeName)")
        return nil
    }

    public mutating func number(_ value: JSONValue, at path: JSONPath, what: String, in range: ClosedRange<Double>)
        -> Double?
    {
        guard case .number(let number) = value else {
            error(path, "\(what) must be a number, not \(value.typeName)")
            return nil
        }
        guard range.contains(number) else {
            error(path, "\(what) must be between \(JSONWriter.number(range.lowerBound)) and \(JSONWriter.number(range.upperBound)), not \(JSONWriter.number(number))")
            return nil
        }
        return number
    }

    public mutating func integer(_ value: JSONValue, at path: JSONPath, what: String, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value else {
            error(path, "\(what) must be a whole number, not \(value.typeName)")
            return nil
        }
        guard let integer = value.intValue else {
            error(path, "\(what) must be a whole number, not \(JSONWriter.number(number))")
            return nil
        }
        guard range.contains(integer) else {
            error(path, "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(integer)")
            return nil
        }
        return integer
    }

    /// The closest candidate, for "did you mean" hints: within one edit for short words, two for
    /// longer ones (a swap of neighbours counts as one edit).
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        var best: (String, Int)? = nil
        for candidate in candidates {
            let distance = editDistance(Array(word.lowercased().utf8), Array(candidate.lowercased().utf8))
            if distance <= limit, distance < max(word.count, candidate.count), best == nil || distance < best!.1 {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
