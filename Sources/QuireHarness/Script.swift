import Foundation
import QuireCore

/// A `quire.session/1` script: a flow, a viewport, a locale and steps (CONTRACT §5).
public struct SessionScript: Sendable {
    public static let format = "quire.session/1"

    /// A screenshot's name: 1 to 100 ASCII letters, digits, `-`, `_`, `.`, not starting with `.`,
    /// so `SCRIPT.screenshots/NAME.png` stays inside its folder.
    public static func isScreenshotName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 100, name.first != "." else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 45 || byte == 95
                || byte == 46
        }
    }

    /// Where the baselines of the script at `file` are: `foo.json` → `foo.screenshots/`.
    public static func screenshotFolder(ofScript file: String) -> String {
        (file.hasSuffix(".json") ? String(file.dropLast(5)) : file) + ".screenshots"
    }

    public enum Step: Sendable {
        case event(Event)
        /// A partial match of the state (CONTRACT §5).
        case expect(JSONObject)
        /// Each key named matches whole: no extra keys at any depth (our extension).
        case expectExactly(JSONObject)
        /// A contiguous run among the notifications since the previous check (CONTRACT §5).
        case expectEmitted([EmittedPattern])
        /// Exactly these notifications since the previous check, in order (our extension).
        case expectEmittedExactly([EmittedPattern])
        /// Where keyboard focus goes after the previous event, as the core decides it
        /// (`KeyboardFocus.name`: `button:next`, `field:ID`, `stay:button:next`, …; our extension).
        case expectKeyboardFocus(String)
        /// The refusal notice shown after the previous event (`Session.refusalNotice`), matched
        /// partially as `expect` matches; `null`: none (our extension).
        case expectNotice(JSONValue)
        /// Exactly these announcements since the previous `expectAnnounced` (or the start), in
        /// order (CONTRACT §6.4): each a text (any priority), or a text and its priority.
        case expectAnnounced([(text: String, priority: Announcement.Priority?)])
        /// Exactly this accessibility tree for the current page (`Session.accessibleTree`), in
        /// reading order; `quire run --replay` checks it against the window's AT-SPI tree too.
        /// Our extension.
        case expectAccessible([AccessibleElement])
        /// The front's window matches the baseline `SCRIPT.screenshots/NAME.png` byte for byte
        /// (`quire run --replay`; headless `quire test` has no window and skips it). Our extension.
        case expectScreenshot(String)
        case restart
    }

    public var file: String
    public var name: String
    public var flow: Flow
    public var viewportWidth: Double
    public var locale: String
    /// `reducedMotion`: the session runs with reduced motion (moves land at once, auto-advance
    /// pauses), as a front with animations off sets it.
    public var reducedMotion = false
    /// `values`: the answers the session starts from instead of the flow's defaults
    /// (`Session(flow:startingWith:)`; what `quire run --record` writes for a walkthrough run again).
    public var startingValues: JSONObject? = nil
    /// `strict`: an event the session ignores fails the script unless the next step expects it
    /// (an expectEmitted or expectEmittedExactly naming `ignored`).
    public var strict = false
    public var steps: [Step]
    /// Each step's JSON as written, for reports and traces (`rawStep(_:)`).
    var rawSteps: [JSONValue]
    /// The script's text, to say where a failing step is.
    public var source: [UInt8] = []
    /// What the script checks, in a sentence (its optional `description`), for reports and traces.
    public var description: String? = nil
    /// The file of the flow, when the script names one (not for a flow given inline).
    public var flowFile: String? = nil

    /// Step `index`'s JSON as written (0-based), for reports and traces.
    public func rawStep(_ index: Int) -> JSONValue { rawSteps[index] }

    /// `file:line:column` of step `index` (0-based).
    public func location(ofStep index: Int) -> String {
        "\(file):\(position(ofStep: index))"
    }

    func position(ofStep index: Int) -> SourcePosition {
        let path = JSONPath.root + "steps" + index
        let locations = JSONParser.locate(source, paths: [path])
        return SourcePosition(offset: locations.valueOffset(path), in: source)
    }

    /// A problem found while running step `index` (a limit), located like a loader's.
    func diagnostic(ofStep index: Int, _ message: String) -> Diagnostic {
        Diagnostic(file: file, position: position(ofStep: index), path: .root + "steps" + index, message: message)
    }
}

/// Flows shared by many scripts are loaded once (keyed by resolved path) while they are kept.
/// The cache keeps at most
/// `flowBytes` of flow files (and at most `memoLimit` flows): past that, the flows read longest
/// ago are let go, so a run's memory follows its largest flows, not the sum of all of them
/// (200 flows of 1.2 MB held 1.1 GB until the run ended). Scripts of one flow usually come one
/// after another; a flow let go and named again is read again.
///
/// The per-script work of finding a script's flow is memoized too, since it goes through
/// Foundation's `URL` (about a tenth of `quire test`'s instructions before): the path a script's
/// `flow` resolves to, per folder of scripts, and the cache key of each path asked for. Both memos
/// are bounded (`memoLimit` entries each), so memory stays flat in the number of scripts. A memo
/// assumes the working folder, which relative paths depend on, stays as it was while the cache
/// is used (a run does not change it; asking for it was two system calls a script).
public final class FlowCache: Sendable {
    private struct State {
        var flows: [String: Result<Flow, DocumentError>] = [:]
        /// The keys of `flows`, oldest first, and the bytes of the flow files they hold.
        var order: [String] = []
        var heldBytes = 0
        /// `flow(at:)`'s argument → its key.
        var keys: [String: String] = [:]
        /// A script's folder and its `flow` → the path to load.
        var resolved: [ResolveKey: String] = [:]
        /// The sessions scripts without `values` start from.
        var starts: [StartKey: Session] = [:]
    }

    struct StartKey: Hashable {
        /// The flow's path, as `flow(at:)` was given it.
        var flow: String
        var locale: String
        var viewportWidth: Double
    }

    struct ResolveKey: Hashable {
        /// The script's path up to and including its last `/` (empty when it has none).
        var folder: String
        var relative: String
    }

    private let storage = Locked(State())

    /// How many entries each memo keeps at most; past it, paths are worked out every time.
    static let memoLimit = 4096
    /// The most bytes of flow files the cache keeps (the newest flow is kept whatever its size).
    static let flowBytes = 4 << 20

    public init() {}

    public func flow(at path: String) -> Result<Flow, DocumentError> {
        let known: (key: String?, flow: Result<Flow, DocumentError>?) = storage.withLock { state in
            guard let key = state.keys[path] else { return (nil, nil) }
            return (key, state.flows[key])
        }
        if let cached = known.flow { return cached }
        let key = known.key ?? Self.key(of: path)
        if let cached = storage.withLock({ state -> Result<Flow, DocumentError>? in
            if state.keys.count < Self.memoLimit { state.keys[path] = key }
            return state.flows[key]
        }) {
            return cached
        }
        let loaded: Result<Flow, DocumentError>
        do {
            loaded = .success(try Flow.load(contentsOf: path))
        } catch {
            loaded = .failure(error)
        }
        storage.withLock { state in
            if let old = state.flows[key] {
                state.heldBytes -= Self.size(of: old)
            } else {
                state.order.append(key)
            }
            state.flows[key] = loaded
            state.heldBytes += Self.size(of: loaded)
            var letGo = false
            while state.order.count > 1 && (state.heldBytes > Self.flowBytes || state.order.count > Self.memoLimit) {
                if let old = state.flows.removeValue(forKey: state.order.removeFirst()) { state.heldBytes -= Self.size(of: old) }
                letGo = true
            }
            // The start sessions of a flow let go go with it: a flow read again may differ (its
            // file changed), and a session holds its flow.
            if letGo { state.starts.removeAll() }
        }
        return loaded
    }

    /// How many flows (and failed readings) the cache holds now, and the bytes of their files.
    var kept: (flows: Int, bytes: Int) { storage.withLock { ($0.flows.count, $0.heldBytes) } }

    /// The bytes a cached flow holds, as the cache counts them: its file's.
    private static func size(of loaded: Result<Flow, DocumentError>) -> Int {
        guard case .success(let flow) = loaded else { return 0 }
        return flow.sourceBytes?.count ?? 0
    }

    /// The session `script` starts from (`startSession`). A script that names a flow file of
    /// this cache and no `values` starts from a session made once for each flow, locale and
    /// viewport width, and copied.
    func startSession(of script: SessionScript) -> Session {
        guard script.startingValues == nil, let flow = script.flowFile else { return script.startSession }
        let key = StartKey(flow: flow, locale: script.locale, viewportWidth: script.viewportWidth)
        if let known = storage.withLock({ $0.starts[key] }) { return known }
        let session = script.startSession
        storage.withLock { state in
            if state.starts.count < Self.memoLimit { state.starts[key] = session }
        }
        return session
    }

    /// The cache key of a flow path: its absolute, normalized form.
    static func key(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The path of the flow a script at `file` names as `relative` (`resolve(_:from:)`), worked
    /// out once per folder of scripts.
    func resolvedPath(_ relative: String, from file: String) -> String {
        let slash = file.utf8.lastIndex(of: UInt8(ascii: "/"))
        let name = slash.map { file.utf8[file.utf8.index(after: $0)...] } ?? file.utf8[...]
        // A script path that ends in `/`, `.` or `..` is left to `URL` every time (it names a
        // folder, never a script that loaded: only `load(bytes:file:)` can be handed one).
        if name.isEmpty || name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) {
            return Self.resolve(relative, from: file)
        }
        let folder = slash.map { String(file[...$0]) } ?? ""
        let key = ResolveKey(folder: folder, relative: relative)
        if let known = storage.withLock({ $0.resolved[key] }) { return known }
        let resolved = Self.resolve(relative, from: file)
        storage.withLock { state in
            if state.resolved.count < Self.memoLimit { state.resolved[key] = resolved }
        }
        return resolved
    }

    /// The path of the flow a script at `file` names as `relative`: relative to the script's
    /// folder, normalized, and kept relative to the working folder when `file` was relative.
    static func resolve(_ relative: String, from file: String) -> String {
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        var resolved = relative.hasPrefix("/") ? relative : base.appendingPathComponent(relative).standardizedFileURL.path
        // Keep paths relative to where the user is when the script was named relatively.
        let here = FileManager.default.currentDirectoryPath + "/"
        if !file.hasPrefix("/"), resolved.hasPrefix(here) { resolved.removeFirst(here.count) }
        return resolved
    }
}

/// What reading a candidate file gave.
public enum ScriptLoad: Sendable {
    case script(SessionScript)
    /// A JSON file that is not a session script (another format, named here): skipped in folders.
    case notAScript(format: String?)
    case bad([Diagnostic])
}

public enum ScriptLoader {
    /// (`$schema`: where an editor finds the script's JSON Schema; ignored.)
    static let topKeys = [
        "format", "name", "description", "flow", "viewport", "locale", "reducedMotion", "values", "steps", "strict", "$schema",
    ]
    /// The steps that are not events.
    enum Check: String, CaseIterable {
        case expect, expectExactly, expectEmitted, expectEmittedExactly, expectKeyboardFocus, expectNotice, expectAnnounced,
            expectAccessible, expectScreenshot, restart

        static let cases = allCases
        static let table = NameTable(cases.map(\.rawValue))
    }

    static let stepKeys = Event.names + Check.allCases.map(\.rawValue)

    /// Reads and validates a script file; a broken script is bad input, never a failure. A file
    /// named `explicitly` must be a script: another format is bad input too.
    public static func load(_ path: String, flows: FlowCache, explicitly: Bool = false, limits: ScriptLimits = .default) -> ScriptLoad {
        let bytes: [UInt8]
        do {
            bytes = try Flow.readDocument(path)
        } catch {
            return .bad(error.diagnostics)
        }
        let loaded = load(bytes: bytes, file: path, flows: flows, limits: limits)
        if explicitly, case .notAScript(let format) = loaded {
            var reader = DocumentReader(file: path, bytes: bytes)
            if let format {
                let hint = format.hasPrefix("quire.flow/") ? " (check a flow with `quire check`)" : ""
                reader.error(.root + "format", "not a session script: its format is '\(format)', not '\(SessionScript.format)'\(hint)")
            } else {
                reader.error(.root, "not a session script: it has no \"format\": \"\(SessionScript.format)\"")
            }
            return .bad(reader.diagnostics())
        }
        return loaded
    }

    /// Reads a script as a `JSONValue` tree (`JSONParser`) and names every problem it has.
    public static func load(bytes: [UInt8], file: String, flows: FlowCache, limits: ScriptLimits = .default) -> ScriptLoad {
        let value: JSONValue
        var reader: DocumentReader
        do {
            (value, reader) = try DocumentReader.parse(file: file, bytes: bytes)
        } catch {
            return .bad(error.diagnostics)
        }
        guard case .object(let object) = value else {
            reader.error(.root, "a session script must be an object, not \(value.typeName)")
            return .bad(reader.diagnostics())
        }
        switch object["format"] {
        case .string(SessionScript.format)?:
            break
        case .string(let other)? where other.hasPrefix("quire.session/"):
            reader.error(.root + "format", "unknown format version '\(other)'; this Quire reads '\(SessionScript.format)'")
            return .bad(reader.diagnostics())
        case nil where object["steps"] != nil:
            reader.error(.root, "a session script needs \"format\": \"\(SessionScript.format)\"")
            return .bad(reader.diagnostics())
        case .string(let other)?:
            return .notAScript(format: other)
        default:
            return .notAScript(format: nil)
        }
        return assemble(object, bytes: bytes, file: file, flows: flows, limits: limits, reader: &reader)
    }

    /// A session script from its top-level members, every problem recorded in `reader`.
    static func assemble(
        _ object: JSONObject, bytes: [UInt8], file: String, flows: FlowCache, limits: ScriptLimits, reader: inout DocumentReader
    ) -> ScriptLoad {
        reader.checkKeys(object, at: .root, allowed: topKeys, required: ["flow", "steps"], what: "a session script")

        let name =
            object["name"].flatMap { reader.string($0, at: .root + "name", what: "name") }
            ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let description = object["description"].flatMap { reader.string($0, at: .root + "description", what: "description") }
        let locale = object["locale"].flatMap { reader.string($0, at: .root + "locale", what: "locale") } ?? "en"
        if let problem = Flow.languageTagProblem(locale) { reader.error(.root + "locale", problem) }
        let reducedMotion = object["reducedMotion"].flatMap { reader.bool($0, at: .root + "reducedMotion", what: "reducedMotion") } ?? false
        let strict = object["strict"].flatMap { reader.bool($0, at: .root + "strict", what: "strict") } ?? false
        var width = 800.0
        if let viewport = object["viewport"], let size = reader.object(viewport, at: .root + "viewport", what: "viewport") {
            reader.checkKeys(size, at: .root + "viewport", allowed: ["width", "height"], what: "the viewport")
            if let w = size["width"],
                let value = reader.number(w, at: .root + "viewport" + "width", what: "width", in: Session.viewportWidths)
            {
                width = value
            }
            if let h = size["height"] {
                _ = reader.number(h, at: .root + "viewport" + "height", what: "height", in: 1...100_000)
            }
        }

        var flow: Flow?
        var flowFile: String? = nil
        var flowProblems: [Diagnostic] = []
        switch object["flow"] {
        case .string(let relative)? where relative.isEmpty:
            reader.error(.root + "flow", "the flow path is empty; name a flow file, relative to this script")
        case .string(let relative)? where relative.utf8.contains(0):
            reader.error(.root + "flow", "the flow path '\(relative)' holds a NUL character, which no file name can")
        case .string(let relative)?:
            let resolved = flows.resolvedPath(relative, from: file)
            switch flows.flow(at: resolved) {
            case .success(let loaded):
                flow = loaded
                flowFile = resolved
            case .failure(let error):
                reader.error(.root + "flow", "the flow '\(relative)' cannot be loaded (its problems follow)")
                flowProblems = error.diagnostics
            }
        case .object?:
            flow = Flow.load(object["flow"]!, at: .root + "flow", reader: &reader)
        case let other?:
            reader.error(.root + "flow", "flow must be a path or an inline flow object, not \(other.typeName)")
        case nil:
            break
        }

        var steps: [SessionScript.Step] = []
        var rawSteps: [JSONValue] = []
        let list = object["steps"].flatMap { reader.array($0, at: .root + "steps", what: "steps") }
        if let list, list.count > limits.steps {
            reader.error(
                .root + "steps", "over a limit: the script has \(list.count) steps; a script has at most \(limits.steps) (split it)")
        } else if let list {
            steps.reserveCapacity(list.count)
            rawSteps = list
            for (index, raw) in list.enumerated() {
                if let step = step(raw, path: { .root + "steps" + index }, flow: flow, reader: &reader) { steps.append(step) }
            }
        }
        if reader.hasProblems || flow == nil {
            return .bad(reader.diagnostics() + flowProblems)
        }
        var script = SessionScript(
            file: file, name: name, flow: flow!, viewportWidth: width, locale: locale, steps: steps, rawSteps: rawSteps,
            source: bytes, description: description, flowFile: flowFile)
        script.reducedMotion = reducedMotion
        script.strict = strict
        script.startingValues = startingValues(object["values"], flow: flow!, reader: &reader)
        if reader.hasProblems { return .bad(reader.diagnostics()) }
        return .script(script)
    }

    /// Step `index` of the `steps` list; its path (`$.steps[index]`) is built only to name a problem.
    static func step(_ raw: JSONValue, index: Int, flow: Flow?, reader: inout DocumentReader) -> SessionScript.Step? {
        step(raw, path: { .root + "steps" + index }, flow: flow, reader: &reader)
    }

    /// Reads one step. `path` gives the step's path; it is called only where a problem is
    /// recorded (or a check may record one), since building paths was a large part of reading a
    /// script that has no problem.
    static func step(_ raw: JSONValue, path: () -> JSONPath, flow: Flow?, reader: inout DocumentReader) -> SessionScript.Step? {
        guard case .object(let object) = raw else {
            reader.error(path(), "a step must be an object with one key, not \(raw.typeName)")
            return nil
        }
        guard object.count == 1, let (key, value) = object.firstMember else {
            reader.error(
                path(),
                "a step has exactly one key, not \(object.count)\(object.isEmpty ? "" : " (\(object.keys.joined(separator: ", ")))")")
            return nil
        }
        return step(key: key, value: value, path: path, flow: flow, reader: &reader)
    }

    /// Reads one step from its key and value.
    static func step(key: String, value: JSONValue, path: () -> JSONPath, flow: Flow?, reader: inout DocumentReader)
        -> SessionScript.Step?
    {
        if let kind = Event.Kind(name: key) {
            switch Event.parse(kind, value: value) {
            case .failure(let error):
                reader.error(JSONPath(components: (path() + key).components + error.path), error.message)
                return nil
            case .success(let event):
                if let flow { checkAgainstFlow(event, at: { path() + key }, flow: flow, reader: &reader) }
                return .event(event)
            }
        }
        switch Check.table.index(of: key).map({ Check.cases[$0] }) {
        case .expect?, .expectExactly?:
            guard case .object(let expected) = value else {
                _ = reader.object(value, at: path() + key, what: "'\(key)'")
                return nil
            }
            ExpectationCheck.validate(expected, at: { path() + key }, flow: flow, reader: &reader)
            return key == "expect" ? .expect(expected) : .expectExactly(expected)
        case .expectEmitted?, .expectEmittedExactly?:
            guard case .array(let list) = value else {
                _ = reader.array(value, at: path() + key, what: "'\(key)'")
                return nil
            }
            var patterns: [EmittedPattern] = []
            patterns.reserveCapacity(list.count)
            for (at, entry) in list.enumerated() {
                if let pattern = EmittedPattern.parse(entry, at: { path() + key + at }, reader: &reader) { patterns.append(pattern) }
            }
            return key == "expectEmitted" ? .expectEmitted(patterns) : .expectEmittedExactly(patterns)
        case .expectKeyboardFocus?:
            guard case .string(let name) = value, KeyboardFocus.isName(name) else {
                reader.error(
                    path() + key,
                    "'expectKeyboardFocus' takes field:ID, button:back|next|skip|finish|cancel, indicator, stay:STOP, unchanged or completed, not \(value)"
                )
                return nil
            }
            return .expectKeyboardFocus(name)
        case .expectNotice?:
            if value == .null { return .expectNotice(.null) }
            guard let object = reader.object(value, at: path() + key, what: "'expectNotice'") else { return nil }
            reader.checkKeys(object, at: path() + key, allowed: RefusalNotice.keys, what: "a notice")
            return .expectNotice(value)
        case .expectAnnounced?:
            guard case .array(let list) = value else {
                reader.error(path() + key, "'expectAnnounced' takes a list of texts or {\"text\", \"priority\"} objects")
                return nil
            }
            var expected: [(text: String, priority: Announcement.Priority?)] = []
            for (at, entry) in list.enumerated() {
                switch entry {
                case .string(let text):
                    expected.append((text, nil))
                case .object(let object):
                    reader.checkKeys(
                        object, at: path() + key + at, allowed: ["text", "priority"], required: ["text"], what: "an announcement")
                    guard case .string(let text)? = object["text"] else {
                        reader.error(path() + key + at + "text", "an announcement's text is a string")
                        return nil
                    }
                    var priority: Announcement.Priority? = nil
                    if let given = object["priority"] {
                        guard case .string(let name) = given, let known = Announcement.Priority(rawValue: name) else {
                            reader.error(path() + key + at + "priority", "priority is 'polite' or 'assertive'")
                            return nil
                        }
                        priority = known
                    }
                    expected.append((text, priority))
                default:
                    reader.error(path() + key + at, "an announcement is a text or a {\"text\", \"priority\"} object")
                    return nil
                }
            }
            return .expectAnnounced(expected)
        case .expectAccessible?:
            guard case .array(let list) = value else {
                reader.error(
                    path() + key,
                    "'expectAccessible' takes a list of elements, {\"role\", \"name\"} with optional value, states and describedBy")
                return nil
            }
            var expected: [AccessibleElement] = []
            expected.reserveCapacity(list.count)
            for (at, entry) in list.enumerated() {
                switch AccessibleElement.parse(entry) {
                case .success(let element):
                    expected.append(element)
                case .failure(let error):
                    var place = path() + key + at
                    for component in error.path {
                        if let index = Int(component) { place = place + index } else { place = place + component }
                    }
                    reader.error(place, error.message)
                    return nil
                }
            }
            return .expectAccessible(expected)
        case .expectScreenshot?:
            guard case .string(let name) = value, SessionScript.isScreenshotName(name) else {
                reader.error(
                    path() + key,
                    "'expectScreenshot' takes a name of 1 to 100 letters, digits, '-', '_' and '.', not starting with '.' (the baseline is SCRIPT.screenshots/NAME.png)"
                )
                return nil
            }
            return .expectScreenshot(name)
        case .restart?:
            guard value == .bool(true) else {
                reader.error(path() + key, "'restart' takes true")
                return nil
            }
            return .restart
        case nil:
            var message =
                "unknown step '\(key)'; a step is an event (\(Event.names.joined(separator: ", "))), expect, expectExactly, expectEmitted, expectEmittedExactly, expectKeyboardFocus, expectNotice, expectAnnounced, expectAccessible, expectScreenshot or restart"
            if let near = DocumentReader.closest(to: key, in: stepKeys) {
                message = "unknown step '\(key)'; did you mean '\(near)'?"
            }
            reader.error(path() + key, message, onKey: true)
            return nil
        }
    }

    /// Names an event uses must exist in the flow (a typo in a field id is a broken script).
    static func checkAgainstFlow(_ event: Event, at path: () -> JSONPath, flow: Flow, reader: inout DocumentReader) {
        switch event {
        case .tap(.field(let id)) where flow.fieldIndex(of: id) == nil:
            var message = "the flow has no field '\(id)'"
            if let near = reader.hint(for: id, in: flow.fields.map(\.id)) { message += "; did you mean '\(near)'?" }
            reader.error(path(), message)
        case .select(let option):
            let known = flow.fields.contains { field in
                if case .choice(let options) = field.kind { return options.index(of: option) != nil }
                return false
            }
            if !known { reader.error(path(), "no choice field of the flow has the option '\(option)'") }
        default:
            break
        }
    }
}
