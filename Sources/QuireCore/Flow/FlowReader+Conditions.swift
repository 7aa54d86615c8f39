/// Conditions (`visibleIf`, `enabledIf`, `requiredIf`): checked where they are, judged once the fields they name are known.
extension FlowReader {

    /// A condition's comparisons, in the order of `comparisonKeys` and of their `ConditionKey`s.
    enum Comparison: String, CaseIterable {
        case equals, notEquals, `in`, greaterThan, lessThan, filled
    }
    static let comparisonKeys = Comparison.allCases.map(\.rawValue)
    /// The keys of a condition object: `field`, `all`, `any`, `not`, then the comparisons.
    enum ConditionKey: Int, ObjectKey {
        case field, all, any, not
        case equals, notEquals, `in`, greaterThan, lessThan, filled
        static let names: [StaticString] = [
            "field", "all", "any", "not", "equals", "notEquals", "in", "greaterThan", "lessThan", "filled",
        ]
        /// The comparison this key makes; nil for `field`, `all`, `any` and `not`.
        var comparison: Comparison? {
            switch self {
            case .field, .all, .any, .not: nil
            case .equals: .equals
            case .notEquals: .notEquals
            case .in: .in
            case .greaterThan: .greaterThan
            case .lessThan: .lessThan
            case .filled: .filled
            }
        }
    }

    /// Steps over the value here, checking it and reporting its repeated keys as `value()` does,
    /// without building it.
    mutating func check() throws(JSONScanError) {
        switch try peek() {
        case UInt8(ascii: "{"):
            guard try beginObject() else { return }
            // (The names of the objects being checked, one after another: this one's from `first`.)
            let first = checkedNames.count
            repeat {
                let (name, keyAt) = try memberName()
                steps.append(.name(name))
                if checkedNames[first...].contains(name) {
                    try duplicate(keyAt: keyAt, read: false)
                } else {
                    checkedNames.append(name)
                }
                try check()
                steps.removeLast()
            } while try nextMember()
            checkedNames.removeLast(checkedNames.count - first)
        case UInt8(ascii: "["):
            guard try beginArray() else { return }
            var index = 0
            repeat {
                steps.append(.index(index))
                try check()
                steps.removeLast()
                index += 1
            } while try nextElement()
        default: try skip()
        }
    }

    /// Where the condition here starts, after checking it as `value()` reads it (its repeated
    /// keys are reported now): it is judged in place once its scope is known (`judgeCondition`).
    mutating func conditionStart() throws(JSONScanError) -> Int {
        skipWhitespace()
        let start = at
        try check()
        return start
    }

    /// Judges the condition that starts at `start`, reading it again in place.
    mutating func judgeCondition(from start: Int, at path: () -> JSONPath, scope: Scope, order: (Int, Int)) throws(JSONScanError)
        -> Condition?
    {
        let (end, reports) = (at, reportsDuplicates)
        reportsDuplicates = false
        defer { (at, reportsDuplicates) = (end, reports) }
        return try condition(from: start, at: path, scope: scope, order: order)
    }

    /// What a condition object holds: where the value of each of its keys (`ConditionKey`)
    /// starts (the first, when a key is repeated), and whether it has other keys.
    struct ConditionMembers {
        var seen = KeysSeen()
        var field, all, any, not: Int?
        /// The comparison, when there is one, and where its value starts.
        var comparison: (kind: Comparison, start: Int)?
        var others = false
        /// How many comparisons it has.
        var comparisons: Int { ConditionKey.allCases.count { $0.comparison != nil && seen.has($0) } }
        /// Whether it has a key besides `key`.
        func hasOtherKeys(than key: ConditionKey) -> Bool { others || seen.bits & ~(1 << UInt32(key.rawValue)) != 0 }
    }

    /// The members of the condition object here.
    mutating func conditionMembers() throws(JSONScanError) -> ConditionMembers {
        var members = ConditionMembers()
        guard try beginObject() else { return members }
        repeat {
            let key = try anyKey()
            let index =
                usedScratch
                ? scratch.withUnsafeBufferPointer { Self.match($0, ConditionKey.names) } : Self.match(bytes, key, ConditionKey.names)
            try colon()
            skipWhitespace()
            if let key = index.flatMap(ConditionKey.init(rawValue:)) {
                if members.seen.first(key.rawValue) {
                    switch key {
                    case .field: members.field = at
                    case .all: members.all = at
                    case .any: members.any = at
                    case .not: members.not = at
                    default: members.comparison = key.comparison.map { ($0, at) }
                    }
                }
            } else {
                members.others = true
            }
            try skip()
        } while try nextMember()
        return members
    }

    /// A condition of `scope`, read at `start`; `order` places it among the flow's conditions
    /// (page, then its fields in order, each field's `visibleIf`, `enabledIf`, `requiredIf`).
    /// Its members are found first; the problems that list its keys read it whole, as a value.
    mutating func condition(from start: Int, at path: () -> JSONPath, scope: Scope, order: (Int, Int)) throws(JSONScanError)
        -> Condition?
    {
        // (Paths are made only for a problem: a condition's reads check before they report.)
        at = start
        guard try peek() == UInt8(ascii: "{") else {
            _ = document.object(try value(), at: path(), what: "a condition")
            return nil
        }
        let members = try conditionMembers()
        func object() throws(JSONScanError) -> JSONObject {
            at = start
            guard case .object(let object) = try value() else { preconditionFailure("a condition object read again") }
            return object
        }
        if let listStart = members.all ?? members.any {
            let key = members.all != nil ? "all" : "any"
            if members.hasOtherKeys(than: members.all != nil ? .all : .any) {
                document.checkKeys(try object(), at: path(), allowed: [key], what: "an '\(key)' condition")
            }
            at = listStart
            guard try peek() == UInt8(ascii: "[") else {
                _ = document.array(try value(), at: path() + key, what: "'\(key)'")
                return nil
            }
            var partStarts: [Int] = []
            if try beginArray() {
                repeat {
                    skipWhitespace()
                    partStarts.append(at)
                    try skip()
                } while try nextElement()
            }
            if partStarts.isEmpty {
                document.error(path() + key, "'\(key)' needs at least one condition")
                return nil
            }
            var parts: [Condition] = []
            for (index, partStart) in partStarts.enumerated() {
                if let condition = try condition(from: partStart, at: { path() + key + index }, scope: scope, order: order) {
                    parts.append(condition)
                }
            }
            guard parts.count == partStarts.count else { return nil }
            return key == "all" ? .all(parts) : .any(parts)
        }
        if let inner = members.not {
            if members.hasOtherKeys(than: .not) {
                document.checkKeys(try object(), at: path(), allowed: ["not"], what: "a 'not' condition")
            }
            return try condition(from: inner, at: { path() + "not" }, scope: scope, order: order).map(Condition.not)
        }
        guard let fieldStart = members.field else {
            let before = document.problems.count + document.uncountedProblems
            document.checkKeys(
                try object(), at: path(), allowed: ["field", "all", "any", "not"] + Self.comparisonKeys, what: "a condition")
            if document.problems.count + document.uncountedProblems == before {
                document.error(
                    path(), "a condition needs 'field' with one of \(Self.comparisonKeys.joined(separator: ", ")), or 'all', 'any' or 'not'"
                )
            }
            return nil
        }
        if members.others {
            document.checkKeys(try object(), at: path(), allowed: ["field"] + Self.comparisonKeys, what: "a condition")
        }
        guard members.comparisons == 1, let (comparison, operandStart) = members.comparison else {
            // (Named in the order they are written.)
            let operators = try members.comparisons == 0 ? [] : object().keys.filter { Self.comparisonKeys.contains($0) }
            document.error(
                path(),
                operators.isEmpty
                    ? "a condition on a field needs one of \(Self.comparisonKeys.joined(separator: ", "))"
                    : "a condition has one comparison, not \(operators.joined(separator: " and "))")
            return nil
        }
        let op = comparison.rawValue
        at = fieldStart
        guard try peek() == UInt8(ascii: "\"") else {
            _ = document.string(try value(), at: path() + "field", what: "'field'")
            return nil
        }
        let name = try stringValue()
        guard let declaredOrdinal = declared[name] else {
            // Unknown, or declared further on: decided at the end of the document.
            pending.append(
                Pending(
                    problem: document.reserve(path() + "field"), name: name, scope: scope,
                    order: (order.0, order.1, pending.count)))
            return nil
        }
        if name == scope.field {
            document.error(
                path() + "field", "the condition names its own field '\(name)'; a field's conditions may name earlier fields only")
            return nil
        }
        guard declaredOrdinal < scope.ordinal else {
            document.error(path() + "field", Self.looksAhead(name, scope))
            return nil
        }
        let built = Int(places[declaredOrdinal].built)
        guard built >= 0 else { return nil }  // that field had problems of its own
        at = operandStart
        let operand = try value()
        func operandPath() -> JSONPath { path() + op }
        switch comparison {
        case .filled:
            guard case .bool(let filled) = operand else {
                _ = document.bool(operand, at: operandPath(), what: "'filled'")
                return nil
            }
            return .filled(field: built, filled)
        case .greaterThan, .lessThan:
            guard case .duration = fields[built].kind else {
                document.error(operandPath(), "'\(op)' compares durations; '\(name)' is a \(fields[built].kind.name) field")
                return nil
            }
            guard let bound = document.number(operand, at: operandPath(), what: "'\(op)'", in: -1e9...1e9) else { return nil }
            return comparison == .greaterThan ? .greaterThan(field: built, bound) : .lessThan(field: built, bound)
        case .in:
            guard let list = document.array(operand, at: operandPath(), what: "'in'") else { return nil }
            if list.isEmpty {
                document.error(operandPath(), "'in' needs at least one value")
                return nil
            }
            var values: [FieldValue] = []
            for (at, item) in list.enumerated() {
                if let value = comparable(item, at: { operandPath() + at }, field: built, name: name) { values.append(value) }
            }
            return values.count == list.count ? .oneOf(field: built, values) : nil
        case .equals, .notEquals:
            guard let value = comparable(operand, at: operandPath, field: built, name: name) else { return nil }
            return comparison == .equals ? .equals(field: built, value) : .notEquals(field: built, value)
        }
    }

    /// The path of `steps` under `prefix` (`path()`, from a copy of the steps).
    static func path(_ prefix: JSONPath, _ steps: [JSONStep]) -> JSONPath {
        var components = prefix.components
        for step in steps {
            switch step {
            case .key(let key): components.append(.key("\(key)"))
            case .name(let name): components.append(.key(name))
            case .range: preconditionFailure("a condition is inside no display string")
            case .index(let index): components.append(.index(index))
            }
        }
        return JSONPath(components: components)
    }

    static func looksAhead(_ name: String, _ scope: Scope) -> String {
        "the condition looks ahead: '\(name)' is not answered before this point (\(scope.what) may name fields of earlier pages\(scope.what.hasPrefix("a field") ? " or earlier on its own page" : " only"))"
    }

    /// Gives each condition that named a field not known when it was read its message: the
    /// field is further on, or nowhere. Hints go to the first few, in the flow's order.
    mutating func decidePending() {
        guard !pending.isEmpty else { return }
        var sortedIDs: [String]?
        for entry in pending.sorted(by: { $0.order < $1.order }) {
            let message: String
            if declared[entry.name] != nil {
                message = Self.looksAhead(entry.name, entry.scope)
            } else {
                var text = "the condition names the unknown field '\(entry.name)'"
                // Hints cost a comparison with every field: given for the first few only.
                hintsGiven += 1
                if hintsGiven <= 20 {
                    if sortedIDs == nil { sortedIDs = declared.keys.sorted() }
                    if let near = DocumentReader.closest(to: entry.name, in: sortedIDs!) { text += "; did you mean '\(near)'?" }
                }
                message = text
            }
            if let problem = entry.problem { document.setMessage(message, ofProblem: problem) }
        }
    }

    /// A value a condition compares a field with (`fields[field]`): of the field's kind (an option
    /// id for choices).
    mutating func comparable(_ value: JSONValue, at path: () -> JSONPath, field built: Int, name: String) -> FieldValue? {
        if case .null = value {
            document.error(path(), "compare with null through {\"field\": \"\(name)\", \"filled\": false}")
            return nil
        }
        if let converted = fields[built].value(from: value) { return converted }
        switch fields[built].kind {
        case .choice(let options):
            if case .string(let text) = value {
                document.error(
                    path(), "'\(text)' is not an option of '\(name)' (options: \(options.options.map(\.id).joined(separator: ", ")))")
            } else {
                document.error(path(), "'\(name)' is a choice; compare it with an option id, not \(value.typeName)")
            }
        case .text: document.error(path(), "'\(name)' is a text field; compare it with a string, not \(value.typeName)")
        case .duration: document.error(path(), "'\(name)' is a duration; compare it with a whole number of seconds, not \(value)")
        case .toggle: document.error(path(), "'\(name)' is a toggle; compare it with true or false, not \(value.typeName)")
        }
        return nil
    }
}
