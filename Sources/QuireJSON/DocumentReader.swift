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
        for duplicate in result.duplicateKeys { reader.duplicateKey(duplicate.path, offset: duplicate.offset) }
        return (result.value, reader)
    }

    public var hasProblems: Bool { !problems.isEmpty }

    /// How many diagnostics a document lists; the rest are counted in a last line.
    public static let diagnosticLimit = 100
    /// How many problems a document keeps (the listed ones are the first in document order among
    /// them); further problems are only counted.
    public static let keptProblemLimit = 10_000
    /// Problems found beyond `keptProblemLimit`.
    public private(set) var uncountedProblems = 0

    public mutating func error(_ path: JSONPath, _ message: String, onKey: Bool = false) {
        guard problems.count < Self.keptProblemLimit else {
            uncountedProblems += 1
            return
        }
        problems.append(Problem(path: path, onKey: onKey, message: message))
    }

    /// A repeated key at `offset` (its member's path): the first value is the one read.
    mutating func duplicateKey(_ path: JSONPath, offset: Int) {
        guard problems.count < Self.keptProblemLimit else {
            uncountedProblems += 1
            return
        }
        problems.append(
            Problem(
                path: path, onKey: true, message: "duplicate key '\(Self.lastKey(path))' (its first value is the one read)", offset: offset)
        )
    }

    /// A problem recorded by another reader of the same document (repeated keys have an `offset`).
    package mutating func append(_ problem: Problem) {
        guard problems.count < Self.keptProblemLimit else {
            uncountedProblems += 1
            return
        }
        problems.append(problem)
    }

    /// Records a problem at `path` whose message is known later (`setMessage`); nil when the
    /// problem is only counted.
    package mutating func reserve(_ path: JSONPath) -> Int? {
        guard problems.count < Self.keptProblemLimit else {
            uncountedProblems += 1
            return nil
        }
        problems.append(Problem(path: path, onKey: false, message: ""))
        return problems.count - 1
    }

    package mutating func setMessage(_ message: String, ofProblem index: Int) {
        problems[index].message = message
    }

    /// Every problem as a diagnostic, in document order, at most `diagnosticLimit` of them and
    /// then `file: … and N more problems`. One extra parse finds every position.
    public func diagnostics() -> [Diagnostic] {
        guard !problems.isEmpty else { return [] }
        var seen = Set<Diagnostic>()
        let all = located().filter { seen.insert($0).inserted }
        guard all.count > Self.diagnosticLimit || uncountedProblems > 0 else { return all }
        let listed = Array(all.prefix(Self.diagnosticLimit))
        let more = all.count - listed.count + uncountedProblems
        return listed + [
            Diagnostic.whole(
                file: file, message: "… and \(more) more problem\(more == 1 ? "" : "s") (a file lists its first \(Self.diagnosticLimit))")
        ]
    }

    private func located() -> [Diagnostic] {
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
        return located.map(\.diagnostic)
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
        for (key, _) in object where !allowed.contains(key) {
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
            error(
                path,
                "\(what) must be between \(JSONWriter.number(range.lowerBound)) and \(JSONWriter.number(range.upperBound)), not \(JSONWriter.number(number))"
            )
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

    /// How many hints against a long list (a flow's field ids) one document gets: each costs a
    /// comparison with every entry of the list.
    public static let hintLimit = 20
    public private(set) var hintsGiven = 0

    /// `closest(to:in:)` for the first `hintLimit` calls on this document, nil after that, so a
    /// document with thousands of unknown names costs time linear in its size.
    public mutating func hint(for word: String, in candidates: @autoclosure () -> [String]) -> String? {
        hintsGiven += 1
        guard hintsGiven <= Self.hintLimit else { return nil }
        return Self.closest(to: word, in: candidates())
    }

    /// Words longer than this (in UTF-8 bytes) get no hint and are never compared: a typo is a
    /// near miss of a name, and names are short.
    public static let hintWordBytes = 128

    /// The closest candidate, for "did you mean" hints: within one edit for short words, two for
    /// longer ones (a swap of neighbours counts as one edit). Costs O(candidates × length), with
    /// the length capped at `hintWordBytes`.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        guard word.utf8.count <= hintWordBytes else { return nil }
        let wordBytes = Array(word.lowercased().utf8)
        let wordCount = word.count
        let limit = wordCount <= 4 ? 1 : 2
        var rows = EditRows()
        var best: (String, Int)? = nil
        for candidate in candidates {
            guard candidate.utf8.count <= hintWordBytes, abs(candidate.utf8.count - word.utf8.count) <= 2 * limit + 8 else {
                continue
            }
            let distance = editDistance(wordBytes, Array(candidate.lowercased().utf8), limit: limit, rows: &rows)
            if distance <= limit, distance < max(wordCount, candidate.count), best == nil || distance < best!.1 {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// Scratch rows for `editDistance`, reused across candidates.
    struct EditRows {
        var twoBack: [Int] = []
        var previous: [Int] = []
        var current: [Int] = []
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions and swaps of
    /// neighbours), exact up to `limit` and `limit + 1` for anything further. Only the diagonal
    /// band of width `2 × limit + 1` is computed, so the cost is O(length × limit).
    package static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        var rows = EditRows()
        return editDistance(a, b, limit: limit, rows: &rows)
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int, rows: inout EditRows) -> Int {
        let n = a.count
        let m = b.count
        let far = limit + 1
        if abs(n - m) > limit { return far }
        if n == 0 || m == 0 { return max(n, m) }
        for keyPath in [\EditRows.twoBack, \EditRows.previous, \EditRows.current] {
            rows[keyPath: keyPath].removeAll(keepingCapacity: true)
            rows[keyPath: keyPath].append(contentsOf: repeatElement(far, count: m + 1))
        }
        for j in 0...min(m, limit) { rows.previous[j] = j }
        for i in 1...n {
            let low = max(1, i - limit)
            let high = min(m, i + limit)
            // The cells just outside the band read as "too far" (or as the first column).
            rows.current[low - 1] = low == 1 ? (i <= limit ? i : far) : far
            if high < m { rows.current[high + 1] = far }
            var rowBest = far
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(rows.previous[j] + 1, rows.current[j - 1] + 1, rows.previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, rows.twoBack[j - 2] + 1)
                }
                value = min(value, far)
                rows.current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest >= far { return far }
            swap(&rows.twoBack, &rows.previous)
            swap(&rows.previous, &rows.current)
        }
        return min(rows.previous[m], far)
    }
}
