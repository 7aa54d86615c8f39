/// An input event (CONTRACT §3). Its JSON form is an object with one key.
public enum Event: Sendable, Hashable {
    case tap(TapTarget)
    case key(Key)
    case type(String)
    /// `{"edit": {"range": [FROM, TO], "text": S}}`: replace the first responder's text from
    /// Unicode-scalar offset `from` up to `to` with `text` (what a text widget does).
    case edit(from: Int, to: Int, text: String)
    case spin(component: DurationComponent, by: Int)
    case select(String)
    case dragBegin
    case dragUpdate(dx: Double)
    case dragEnd(vx: Double)
    case swipe(dx: Double, vx: Double)
    /// `{"swipe": "next"}` / `{"swipe": "previous"}`: a full-width drag released at twice `flingVelocity`.
    case swipePage(forward: Bool)
    case tick(Double)
    case settle
    /// The host accepted the page it was asked to apply (CONTRACT §6.1).
    case applied(page: String)
    /// The host did not accept it: errors on fields and a message.
    case applyFailed(ApplyFailure)

    /// The events' JSON keys: the one list the session, the harness and the docs read.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case tap, key, type, edit, spin, select, dragBegin, dragUpdate, dragEnd, swipe, tick, settle, applied, applyFailed

        static let cases = allCases
        static let table = NameTable(cases.map(\.rawValue))

        /// The kind whose JSON key is `name` (`init(rawValue:)` through a `NameTable`).
        package init?(name: String) {
            guard let index = Self.table.index(of: name) else { return nil }
            self = Self.cases[index]
        }
    }

    public var kind: Kind {
        switch self {
        case .tap: .tap
        case .key: .key
        case .type: .type
        case .edit: .edit
        case .spin: .spin
        case .select: .select
        case .dragBegin: .dragBegin
        case .dragUpdate: .dragUpdate
        case .dragEnd: .dragEnd
        case .swipe, .swipePage: .swipe
        case .tick: .tick
        case .settle: .settle
        case .applied: .applied
        case .applyFailed: .applyFailed
        }
    }

    /// The event's JSON key (`tap`, `key`, …), as `ignored` notifications name it.
    public var name: String { kind.rawValue }

    /// Clock events are not user interaction (they do not stop `autoAdvanceMs`).
    public var isClock: Bool {
        switch self {
        case .tick, .settle: true
        default: false
        }
    }

    /// The host's answers to an apply: not the user's input either (they do not stop
    /// `autoAdvanceMs`).
    public var isHostAnswer: Bool {
        switch self {
        case .applied, .applyFailed: true
        default: false
        }
    }

    public static let names = Kind.allCases.map(\.rawValue)

    /// The longest single tick, so one event cannot spin the clock without bound.
    public static let maxTickMs = 3_600_000.0

    /// The largest offset an `edit` range may name (a text is far shorter: see `maxLength`).
    public static let maxEditOffset = 100_000_000
}

public enum TapTarget: Sendable, Hashable {
    case field(String)
    case background
    case indicatorLeft
    case indicatorRight
    case indicatorPage(Int)
    case button(Button)
    case accessory(AccessoryItem)

    public enum Button: String, Sendable, Hashable, CaseIterable {
        case back, next, skip, finish, cancel

        static let cases = allCases
        static let table = NameTable(cases.map(\.rawValue))
    }

    public var name: String {
        switch self {
        case .field(let id): id
        case .background: "background"
        case .indicatorLeft: "indicator:left"
        case .indicatorRight: "indicator:right"
        case .indicatorPage(let page): "indicator:\(page)"
        case .button(let button): "button:\(button.rawValue)"
        case .accessory(let item): "accessory:\(item.rawValue)"
        }
    }

    /// A name without a colon is `background` or a field id; with one, the part before the
    /// first colon says which kind of target the rest names.
    public init?(_ name: String) {
        var text = name
        guard let target = text.withUTF8({ Self.read($0, name: name) }) else { return nil }
        self = target
    }

    /// `init(_:)` over the name's bytes.
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, name: String) -> TapTarget? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            if name == "background" { return .background }
            return name.isEmpty ? nil : .field(name)
        }
        let head = UnsafeBufferPointer(rebasing: bytes[..<colon])
        let rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[(colon + 1)...]), as: UTF8.self)
        if Self.bytes(head, are: "indicator") {
            switch rest {
            case "left": return .indicatorLeft
            case "right": return .indicatorRight
            default:
                guard !rest.isEmpty, rest.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), rest.utf8.count <= 9,
                    let page = Int(rest)
                else { return nil }
                return .indicatorPage(page)
            }
        } else if Self.bytes(head, are: "button") {
            return Button.table.index(of: rest).map { .button(Button.cases[$0]) }
        } else if Self.bytes(head, are: "accessory") {
            return AccessoryItem.table.index(of: rest).map { .accessory(AccessoryItem.cases[$0]) }
        }
        return nil
    }

    private static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, are word: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }
}

/// Keys, named as GDK names their keyvals.
public enum Key: String, Sendable, Hashable, CaseIterable {
    case tab = "Tab"
    case shiftTab = "shift+Tab"
    case `return` = "Return"
    case escape = "Escape"
    case backSpace = "BackSpace"
    case up = "Up"
    case down = "Down"
    case left = "Left"
    case right = "Right"
    case pageUp = "Page_Up"
    case pageDown = "Page_Down"
    case home = "Home"
    case end = "End"

    /// Other GDK keyval names for the same keys (a GTK front passes `gdk_keyval_name` through).
    static let aliases: [String: Key] = [
        "ISO_Left_Tab": .shiftTab, "KP_Tab": .tab, "KP_Enter": .return, "Prior": .pageUp, "Next": .pageDown,
        "KP_Up": .up, "KP_Down": .down, "KP_Left": .left, "KP_Right": .right, "KP_Page_Up": .pageUp,
        "KP_Page_Down": .pageDown, "KP_Prior": .pageUp, "KP_Next": .pageDown, "KP_Home": .home, "KP_End": .end,
    ]

    static let cases = allCases
    static let table = NameTable(cases.map(\.rawValue))

    public init?(gdkName: String) {
        if let key = Self.table.index(of: gdkName).map({ Self.cases[$0] }) ?? Key.aliases[gdkName] {
            self = key
        } else {
            return nil
        }
    }
}

extension String {
    /// The rest of the string after an ASCII `prefix`, compared byte by byte.
    func strip(prefix: String) -> String? {
        guard utf8.starts(with: prefix.utf8) else { return nil }
        return String(self[utf8.index(startIndex, offsetBy: prefix.utf8.count)...])
    }
}

// MARK: JSON

extension Event {
    /// A problem with an event's JSON: the path below the event and the message.
    public struct ParseError: Error, Sendable, Hashable {
        public var path: [JSONPath.Component]
        public var message: String
    }

    /// Reads one event from its JSON form. `key` and `value` are the event object's single member.
    public static func parse(key: String, value: JSONValue) -> Result<Event, ParseError> {
        guard let kind = Kind(name: key) else {
            var message = "unknown event '\(key)'"
            if let near = DocumentReader.closest(to: key, in: Event.names) { message += "; did you mean '\(near)'?" }
            return .failure(ParseError(path: [], message: message))
        }
        return parse(kind, value: value)
    }

    /// Reads one event of a known kind from the value of its key.
    package static func parse(_ kind: Kind, value: JSONValue) -> Result<Event, ParseError> {
        let key = kind.rawValue
        func fail(_ message: String, _ path: [JSONPath.Component] = []) -> Result<Event, ParseError> {
            .failure(ParseError(path: path, message: message))
        }
        func number(_ value: JSONValue?, _ name: String, _ path: [JSONPath.Component]) -> Result<Double, ParseError> {
            guard let value else { return .failure(ParseError(path: [], message: "'\(key)' needs '\(name)'")) }
            guard case .number(let number) = value else {
                return .failure(ParseError(path: path, message: "'\(name)' must be a number, not \(value.typeName)"))
            }
            guard abs(number) <= 1e7 else {
                return .failure(ParseError(path: path, message: "'\(name)' \(JSONWriter.number(number)) is out of range (±10000000)"))
            }
            return .success(number)
        }
        func onlyKeys(_ object: JSONObject, _ allowed: [String]) -> ParseError? {
            for (member, _) in object where !allowed.contains(member) {
                return ParseError(path: [.key(member)], message: "unknown key '\(member)' in '\(key)'")
            }
            return nil
        }
        switch kind {
        case .tap:
            guard case .string(let name) = value else {
                return fail("'tap' takes a string such as a field id or 'button:next', not \(value.typeName)")
            }
            guard let target = TapTarget(name) else {
                return fail(
                    "'\(name)' is not a tap target (a field id, background, indicator:left|right|N, button:back|next|skip|finish|cancel, accessory:ITEM)"
                )
            }
            return .success(.tap(target))
        case .key:
            guard case .string(let name) = value else { return fail("'key' takes a key name such as 'Tab', not \(value.typeName)") }
            guard let key = Key(gdkName: name) else {
                return fail("unknown key '\(name)'; keys are \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .success(.key(key))
        case .type:
            guard case .string(let text) = value else { return fail("'type' takes a string, not \(value.typeName)") }
            return .success(.type(text))
        case .edit:
            let shape = "'edit' takes {\"range\": [FROM, TO], \"text\": S}"
            guard case .object(let object) = value else { return fail("\(shape), not \(value.typeName)") }
            if let problem = onlyKeys(object, ["range", "text"]) { return .failure(problem) }
            guard let range = object["range"] else { return fail("'edit' needs 'range', [FROM, TO] in Unicode scalars") }
            guard case .array(let bounds) = range, bounds.count == 2,
                let from = bounds[0].intValue, let to = bounds[1].intValue,
                from >= 0, to <= Event.maxEditOffset, from <= to
            else {
                return fail(
                    "'range' must be [FROM, TO], whole numbers with 0 ≤ FROM ≤ TO ≤ \(Event.maxEditOffset), not \(JSONWriter.string(range))",
                    [.key("range")])
            }
            guard let text = object["text"] else { return fail("'edit' needs 'text', a string (\"\" deletes the range)") }
            guard case .string(let string) = text else { return fail("'text' must be a string, not \(text.typeName)", [.key("text")]) }
            return .success(.edit(from: from, to: to, text: string))
        case .spin:
            guard case .object(let object) = value else { return fail("'spin' takes {\"component\": C, \"by\": N}, not \(value.typeName)") }
            if let problem = onlyKeys(object, ["component", "by"]) { return .failure(problem) }
            guard case .string(let name)? = object["component"] else { return fail("'spin' needs 'component': hours, minutes or seconds") }
            guard let component = DurationComponent(rawValue: name) else {
                return fail("unknown wheel '\(name)'; wheels are hours, minutes, seconds", [.key("component")])
            }
            guard let by = object["by"] else { return fail("'spin' needs 'by', a whole number of steps") }
            guard let steps = by.intValue, abs(steps) <= 1_000_000 else {
                return fail("'by' must be a whole number of steps (at most ±1000000), not \(by)", [.key("by")])
            }
            return .success(.spin(component: component, by: steps))
        case .select:
            guard case .string(let id) = value else { return fail("'select' takes an option id, not \(value.typeName)") }
            return .success(.select(id))
        case .dragBegin:
            guard case .object(let object) = value, object.isEmpty else { return fail("'dragBegin' takes {}") }
            return .success(.dragBegin)
        case .dragUpdate:
            guard case .object(let object) = value else { return fail("'dragUpdate' takes {\"dx\": PX}") }
            if let problem = onlyKeys(object, ["dx"]) { return .failure(problem) }
            return number(object["dx"], "dx", [.key("dx")]).map { .dragUpdate(dx: $0) }
        case .dragEnd:
            guard case .object(let object) = value else { return fail("'dragEnd' takes {\"vx\": PX_PER_S}") }
            if let problem = onlyKeys(object, ["vx"]) { return .failure(problem) }
            if object["vx"] == nil { return .success(.dragEnd(vx: 0)) }
            return number(object["vx"], "vx", [.key("vx")]).map { .dragEnd(vx: $0) }
        case .swipe:
            switch value {
            case .string("next"): return .success(.swipePage(forward: true))
            case .string("previous"): return .success(.swipePage(forward: false))
            case .object(let object):
                if let problem = onlyKeys(object, ["dx", "vx"]) { return .failure(problem) }
                let dx = number(object["dx"], "dx", [.key("dx")])
                guard case .success(let x) = dx else { return dx.map { _ in .settle } }
                if object["vx"] == nil { return .success(.swipe(dx: x, vx: 0)) }
                return number(object["vx"], "vx", [.key("vx")]).map { .swipe(dx: x, vx: $0) }
            default:
                return fail("'swipe' takes \"next\", \"previous\" or {\"dx\": PX, \"vx\": PX_PER_S}")
            }
        case .tick:
            guard case .number(let ms) = value, ms >= 0, ms <= Event.maxTickMs else {
                return fail("'tick' takes milliseconds from 0 to \(Int(Event.maxTickMs)), not \(value)")
            }
            return .success(.tick(ms))
        case .settle:
            guard value == .bool(true) else { return fail("'settle' takes true") }
            return .success(.settle)
        case .applied:
            guard case .string(let page) = value else { return fail("'applied' takes the id of the page applied, not \(value.typeName)") }
            guard Flow.isIdentifier(page) else { return fail("'\(page)' is not a page id (1 to 64 of A-Z a-z 0-9 . _ -)") }
            return .success(.applied(page: page))
        case .applyFailed:
            return ApplyFailure.parse(value).map { .applyFailed($0) }
        }
    }

    /// Reads an event object (`{"tap": "userName"}`).
    public static func parse(_ json: JSONValue) -> Result<Event, ParseError> {
        guard case .object(let object) = json else {
            return .failure(ParseError(path: [], message: "an event must be an object with one key, not \(json.typeName)"))
        }
        guard object.count == 1, let (key, value) = object.firstMember else {
            return .failure(
                ParseError(path: [], message: "an event has exactly one key, not \(object.count) (\(object.keys.joined(separator: ", ")))"))
        }
        return parse(key: key, value: value).mapError { error in
            ParseError(path: [.key(key)] + error.path, message: error.message)
        }
    }

    /// The event's JSON form.
    public var json: JSONValue {
        switch self {
        case .tap(let target): ["tap": .string(target.name)]
        case .key(let key): ["key": .string(key.rawValue)]
        case .type(let text): ["type": .string(text)]
        case .edit(let from, let to, let text):
            ["edit": ["range": .array([.number(Double(from)), .number(Double(to))]), "text": .string(text)]]
        case .spin(let component, let by): ["spin": ["component": .string(component.rawValue), "by": .number(Double(by))]]
        case .select(let id): ["select": .string(id)]
        case .dragBegin: ["dragBegin": .object(JSONObject())]
        case .dragUpdate(let dx): ["dragUpdate": ["dx": .number(dx)]]
        case .dragEnd(let vx): ["dragEnd": ["vx": .number(vx)]]
        case .swipe(let dx, let vx): ["swipe": ["dx": .number(dx), "vx": .number(vx)]]
        case .swipePage(let forward): ["swipe": .string(forward ? "next" : "previous")]
        case .tick(let ms): ["tick": .number(ms)]
        case .settle: ["settle": true]
        case .applied(let page): ["applied": .string(page)]
        case .applyFailed(let failure): ["applyFailed": failure.json]
        }
    }
}

/// A host's `applyFailed`: the page, errors on its fields (the host's own codes and messages),
/// and a message for the page (CONTRACT §6.1).
public struct ApplyFailure: Sendable, Hashable {
    public struct FieldFailure: Sendable, Hashable {
        public var field: String
        public var code: ValidationCode
        /// Shown under the field instead of the code's own text.
        public var message: LocalizedText?

        public init(field: String, code: ValidationCode, message: LocalizedText? = nil) {
            self.field = field
            self.code = code
            self.message = message
        }
    }

    public var page: String
    public var errors: [FieldFailure]
    public var message: LocalizedText?

    public init(page: String, errors: [FieldFailure] = [], message: LocalizedText? = nil) {
        self.page = page
        self.errors = errors
        self.message = message
    }

    static let shape = "'applyFailed' takes {\"page\": PAGE_ID, \"errors\": {FIELD: CODE | {\"code\", \"message\"}}, \"message\": TEXT}"

    /// Reads the value of an `applyFailed` event.
    static func parse(_ value: JSONValue) -> Result<ApplyFailure, Event.ParseError> {
        func fail(_ message: String, _ path: [JSONPath.Component] = []) -> Result<ApplyFailure, Event.ParseError> {
            .failure(Event.ParseError(path: path, message: message))
        }
        guard case .object(let object) = value else { return fail("\(shape), not \(value.typeName)") }
        for (member, _) in object where !["page", "errors", "message"].contains(member) {
            return fail("unknown key '\(member)' in 'applyFailed'", [.key(member)])
        }
        guard let pageValue = object["page"] else { return fail("'applyFailed' needs 'page', the id of the page applied") }
        guard case .string(let page) = pageValue, Flow.isIdentifier(page) else {
            return fail("'page' must be a page id, not \(pageValue.typeName)", [.key("page")])
        }
        var failure = ApplyFailure(page: page)
        if let errors = object["errors"] {
            guard case .object(let map) = errors else {
                return fail("'errors' must be an object of FIELD: CODE, not \(errors.typeName)", [.key("errors")])
            }
            for (field, entry) in map {
                let at: [JSONPath.Component] = [.key("errors"), .key(field)]
                guard Flow.isIdentifier(field) else { return fail("'\(field)' is not a field id", at) }
                var code: JSONValue = entry
                var message: LocalizedText? = nil
                if case .object(let detail) = entry {
                    for (member, _) in detail where member != "code" && member != "message" {
                        return fail("unknown key '\(member)' in a field's error (code, message)", at + [.key(member)])
                    }
                    guard let given = detail["code"] else { return fail("a field's error needs 'code'", at) }
                    code = given
                    if let text = detail["message"] {
                        let read = displayText(text)
                        if let problem = read.problem { return fail(problem, at + [.key("message")]) }
                        message = read.text
                    }
                }
                guard case .string(let name) = code, Flow.isIdentifier(name) else {
                    return fail("an error code is an id such as 'taken' (1 to 64 of A-Z a-z 0-9 . _ -), not \(JSONWriter.string(code))", at)
                }
                failure.errors.append(FieldFailure(field: field, code: ValidationCode(host: name), message: message))
            }
        }
        if let text = object["message"] {
            let read = displayText(text)
            if let problem = read.problem { return fail(problem, [.key("message")]) }
            failure.message = read.text
        }
        return .success(failure)
    }

    /// A display string given by the host: a string, or an object of language tags to strings.
    static func displayText(_ value: JSONValue) -> (text: LocalizedText?, problem: String?) {
        switch value {
        case .string(let text) where !text.isEmpty: return (LocalizedText(text), nil)
        case .object(let object) where !object.isEmpty:
            var entries: [(tag: String, text: String)] = []
            for (tag, text) in object {
                if let problem = Flow.languageTagProblem(tag) { return (nil, problem) }
                guard case .string(let string) = text, !string.isEmpty else {
                    return (nil, "the '\(tag)' text must be a non-empty string")
                }
                entries.append((tag, string))
            }
            return (LocalizedText(entries: entries), nil)
        default:
            return (nil, "a message is a non-empty string or an object of language tags to strings, not \(JSONWriter.string(value))")
        }
    }

    public var json: JSONValue {
        var map = JSONObject()
        for error in errors {
            if let message = error.message {
                map[error.field] = ["code": .string(error.code.rawValue), "message": message.json]
            } else {
                map[error.field] = .string(error.code.rawValue)
            }
        }
        var object = JSONObject()
        object.append("page", .string(page))
        if !errors.isEmpty { object["errors"] = .object(map) }
        if let message { object["message"] = message.json }
        return .object(object)
    }
}
