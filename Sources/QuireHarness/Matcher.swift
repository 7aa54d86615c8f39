import QuireCore

/// One difference between what `expect` asked for and what the state holds.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    public var path: JSONPath
    public var expected: JSONValue?
    public var actual: JSONValue?

    public var description: String {
        let expectedText = expected.map { JSONWriter.string($0) } ?? "(no such key)"
        let actualText = actual.map { JSONWriter.string($0) } ?? "(no such key)"
        return "\(path): expected \(expectedText), got \(actualText)"
    }
}

/// The partial match of CONTRACT §5: keys left out are not checked, objects match recursively,
/// arrays and scalars must be equal (numbers within 1e-9), null must be null, and an empty
/// object or array must be empty.
public enum Matcher {
    public static let tolerance = 1e-9

    public static func match(expected: JSONValue, actual: JSONValue?, at path: JSONPath, into mismatches: inout [Mismatch]) {
        var found: [Found] = []
        walk(expected: expected, actual: actual, exactly: false, into: &found)
        mismatches += found.map { $0.mismatch(under: path.components) }
    }

    /// Full equality, with numbers compared within `tolerance`.
    public static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return abs(x - y) <= tolerance
        case (.array(let xs), .array(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { equal($0, $1) }
        case (.object(let xs), .object(let ys)):
            guard xs.count == ys.count else { return false }
            for (key, value) in xs {
                guard let other = ys[key], equal(value, other) else { return false }
            }
            return true
        default:
            return a == b
        }
    }

    /// Matches an `expect` object against a session, building only the state keys it names.
    public static func match(_ expected: JSONObject, session: Session) -> [Mismatch] {
        match(expected, session: session, exactly: false)
    }

    /// The exhaustive match of `expectExactly`: the value must be whole. Objects must have the
    /// same keys at every depth (an extra key is a mismatch of its own, expected "(no such
    /// key)"), arrays the same length and matching elements, scalars equal (numbers within
    /// `tolerance`).
    public static func matchExactly(expected: JSONValue, actual: JSONValue?, at path: JSONPath, into mismatches: inout [Mismatch]) {
        var found: [Found] = []
        walk(expected: expected, actual: actual, exactly: true, into: &found)
        mismatches += found.map { $0.mismatch(under: path.components) }
    }

    /// Matches an `expectExactly` object against a session: each key it names, whole.
    public static func matchExactly(_ expected: JSONObject, session: Session) -> [Mismatch] {
        match(expected, session: session, exactly: true)
    }

    static func match(_ expected: JSONObject, session: Session, exactly: Bool) -> [Mismatch] {
        var found: [Found] = []
        for (key, value) in expected {
            let first = found.count
            walk(expected: value, actual: session.stateValue(key), exactly: exactly, into: &found)
            Found.mark(&found, from: first, .key(key))
        }
        return found.map { $0.mismatch(under: []) }
    }

    /// A mismatch as the walker finds it: its path written innermost first, on the way back up.
    struct Found {
        var trail: [JSONPath.Component] = []
        var expected: JSONValue?
        var actual: JSONValue?

        /// Adds `component` (the key or index the walker just left) to what was found below it.
        static func mark(_ found: inout [Found], from first: Int, _ component: JSONPath.Component) {
            for index in first..<found.count { found[index].trail.append(component) }
        }

        func mismatch(under prefix: [JSONPath.Component]) -> Mismatch {
            Mismatch(path: JSONPath(components: prefix + trail.reversed()), expected: expected, actual: actual)
        }
    }

    /// The one walker of both matches. A mismatch's path is written on the way back up (each
    /// level adds its key or index to what was found below it), so a value that matches keeps no
    /// path at all. Partially (`expect`), an object matches key by key the keys it names, and an
    /// empty one only an empty one; anything else must be `equal`. `exactly` (`expectExactly`), an
    /// object's extra keys are mismatches too, and arrays of the same length match element by
    /// element, so a difference deep inside is named by its path.
    static func walk(expected: JSONValue, actual: JSONValue?, exactly: Bool, into found: inout [Found]) {
        guard let actual else {
            found.append(Found(expected: expected, actual: nil))
            return
        }
        switch (expected, actual) {
        case (.object(let want), .object(let have)) where exactly || !want.isEmpty:
            for (key, value) in want {
                let first = found.count
                walk(expected: value, actual: have[key], exactly: exactly, into: &found)
                Found.mark(&found, from: first, .key(key))
            }
            if exactly {
                for (key, value) in have where want[key] == nil {
                    found.append(Found(trail: [.key(key)], expected: nil, actual: value))
                }
            }
        case (.array(let want), .array(let have)) where exactly && want.count == have.count:
            for (index, (wanted, had)) in zip(want, have).enumerated() {
                let first = found.count
                walk(expected: wanted, actual: had, exactly: true, into: &found)
                Found.mark(&found, from: first, .index(index))
            }
        default:
            if !equal(expected, actual) { found.append(Found(expected: expected, actual: actual)) }
        }
    }
}

/// Checks an `expect` object against what the state can hold, so a typo is a broken script
/// rather than a puzzling failure.
enum ExpectationCheck {
    static let shapes: [String: [String]] = [
        "page": ["index", "id", "count"],
        "indicator": ["count", "current", "hidden"],
        "buttons": ["back", "next", "skip", "finish"],
        "transition": ["from", "to", "progress", "interactive"],
        "input": ["field", "view", "draft", "wheels", "selectedWheel", "accessory", "returnKey"],
        "completed": ["outcome", "values"],
    ]

    /// For each state key (in `Session.stateKeys` order), the keys its object may hold (nil: not
    /// checked).
    static let stateKeyShapes: [[String]?] = Session.stateKeys.map { shapes[$0] }

    /// `path` gives the object's path; it is called only where a problem may be recorded.
    static func validate(_ expected: JSONObject, at path: () -> JSONPath, flow: Flow?, reader: inout DocumentReader) {
        for (key, value) in expected {
            guard let at = Session.stateKeyTable.index(of: key) else {
                var message = "'\(key)' is not part of the state (\(Session.stateKeys.joined(separator: ", ")))"
                if let near = DocumentReader.closest(to: key, in: Session.stateKeys) {
                    message = "'\(key)' is not part of the state; did you mean '\(near)'?"
                }
                reader.error(path() + key, message, onKey: true)
                continue
            }
            if let allowed = stateKeyShapes[at], case .object(let object) = value {
                checkKeys(object, at: { path() + key }, allowed: allowed, what: "'\(key)'", reader: &reader)
            }
            guard let flow else { continue }
            if key == "values" || key == "errors", case .object(let object) = value {
                for (field, entry) in object {
                    guard flow.fieldIndex(of: field) != nil else {
                        var message = "the flow has no field '\(field)'"
                        if let near = reader.hint(for: field, in: flow.fields.map(\.id)) { message += "; did you mean '\(near)'?" }
                        reader.error(path() + key + field, message, onKey: true)
                        continue
                    }
                    // In a flow with `apply` pages a host's failed apply may put its own codes (ids
                    // such as 'taken') on fields; elsewhere a code is one of the session's.
                    if key == "errors", case .string(let code) = entry, ValidationCode(rawValue: code) == nil {
                        let applies = flow.pages.contains { $0.apply != nil }
                        if !applies {
                            reader.error(
                                path() + key + field,
                                "'\(code)' is not an error code (\(ValidationCode.allCases.map(\.rawValue).joined(separator: ", ")))")
                        } else if !Flow.isIdentifier(code) {
                            reader.error(
                                path() + key + field, "'\(code)' is not an error code: the session's, or a host's id such as 'taken'")
                        }
                    }
                }
            }
            if key == "focus", case .string(let field) = value, flow.fieldIndex(of: field) == nil {
                reader.error(path() + key, "the flow has no field '\(field)'")
            }
        }
    }

    /// `DocumentReader.checkKeys` with no required key, its path built only when a key is not
    /// allowed (then the reader records exactly what it always did).
    static func checkKeys(
        _ object: JSONObject, at path: () -> JSONPath, allowed: [String], what: @autoclosure () -> String,
        reader: inout DocumentReader
    ) {
        guard object.contains(where: { !allowed.contains($0.key) }) else { return }
        reader.checkKeys(object, at: path(), allowed: allowed, what: what())
    }
}

/// One entry of `expectEmitted`: a notification name, or `{"name": {payload keys…}}` whose
/// payload is matched partially, as `expect` matches state.
public struct EmittedPattern: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var payload: JSONObject?

    public var description: String {
        guard let payload else { return name }
        return JSONWriter.string([name: .object(payload)])
    }

    /// `path` gives the entry's path; it is called only where a problem may be recorded.
    static func parse(_ entry: JSONValue, at path: () -> JSONPath, reader: inout DocumentReader) -> EmittedPattern? {
        var name: String
        var payload: JSONObject? = nil
        switch entry {
        case .string(let text):
            name = text
        case .object(let object) where object.count == 1:
            let member = object.firstMember!
            name = member.key
            guard case .object(let fields) = member.value else {
                reader.error(path() + name, "a notification pattern is {\"\(name)\": {payload keys…}}, not \(member.value.typeName)")
                return nil
            }
            payload = fields
        default:
            reader.error(path(), "an expectEmitted entry is a notification name or {\"name\": {payload keys…}}")
            return nil
        }
        guard let kind = NotificationCode.kind(named: name) else {
            var message = "unknown notification '\(name)'"
            if let near = DocumentReader.closest(to: name, in: SessionNotification.names) { message += "; did you mean '\(near)'?" }
            reader.error(payload != nil ? path() + name : path(), message, onKey: payload != nil)
            return nil
        }
        if let payload {
            ExpectationCheck.checkKeys(
                payload, at: { path() + name }, allowed: kind.payloadKeys, what: "a '\(name)' notification", reader: &reader)
            if let reasons = kind.reasons, case .string(let reason)? = payload["reason"], !reasons.contains(reason) {
                var message = "'\(reason)' is not a reason of '\(name)'"
                if let near = DocumentReader.closest(to: reason, in: reasons) { message += "; did you mean '\(near)'?" }
                reader.error(path() + name + "reason", message)
            }
        }
        return EmittedPattern(name: name, payload: payload)
    }

    func matches(_ notification: SessionNotification) -> Bool {
        guard notification.name == name else { return false }
        guard let payload else { return true }
        var mismatches: [Mismatch] = []
        Matcher.match(expected: .object(payload), actual: notification.json[name], at: .root, into: &mismatches)
        return mismatches.isEmpty
    }
}
