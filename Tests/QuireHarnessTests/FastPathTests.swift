import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// The harness's faster paths (issue 9's `quire test` row) against the code they replaced, kept
/// here as the reference, on many generated inputs: the same mismatches, the same problems at
/// the same paths, the same resolved flow paths.
@Suite struct FastPathTests {
    // MARK: Random JSON, close enough to itself that matching goes deep before it differs.

    static let keys = ["page", "index", "id", "values", "a", "b", "c", "with space", "é", "0"]

    static func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 5 : 8) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(Double(random.below(5)) + (random.below(3) == 0 ? 1e-10 : 0))
        case 3: return .string(keys[random.below(keys.count)])
        case 4: return .number(Double(random.below(3)))
        case 5, 6:
            var object = JSONObject()
            for _ in 0..<random.below(4) {
                let key = keys[random.below(keys.count)]
                if object[key] == nil { object.append(key, value(&random, depth: depth + 1)) }
            }
            return .object(object)
        default:
            return .array((0..<random.below(3)).map { _ in value(&random, depth: depth + 1) })
        }
    }

    /// `value` with a few random changes: a key dropped, added or changed, an element changed.
    static func mutated(_ original: JSONValue, _ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        if random.below(6) == 0 { return value(&random, depth: depth) }
        switch original {
        case .object(let object):
            var copy = JSONObject()
            for (key, entry) in object where random.below(8) != 0 { copy.append(key, mutated(entry, &random, depth: depth + 1)) }
            if random.below(4) == 0 {
                let key = keys[random.below(keys.count)]
                if copy[key] == nil { copy.append(key, value(&random, depth: depth + 1)) }
            }
            return .object(copy)
        case .array(let array):
            return .array(array.map { mutated($0, &random, depth: depth + 1) })
        default:
            return original
        }
    }

    static func randomPath(_ random: inout SplitMix64) -> JSONPath {
        var path = JSONPath.root
        for _ in 0..<random.below(3) {
            path = random.below(2) == 0 ? path + keys[random.below(keys.count)] : path + random.below(4)
        }
        return path
    }

    // MARK: Matching

    @Test func matchingGivesTheMismatchesItGaveWhenItBuiltEveryPath() {
        var random = SplitMix64(seed: 9)
        var mismatched = 0
        for _ in 0..<20_000 {
            let expected = Self.value(&random, depth: 0)
            let actual: JSONValue? = random.below(20) == 0 ? nil : Self.mutated(expected, &random)
            let path = Self.randomPath(&random)
            var want: [Mismatch] = []
            var got: [Mismatch] = []
            Reference.match(expected: expected, actual: actual, at: path, into: &want)
            Matcher.match(expected: expected, actual: actual, at: path, into: &got)
            #expect(got == want)
            var wantExactly: [Mismatch] = []
            var gotExactly: [Mismatch] = []
            Reference.matchExactly(expected: expected, actual: actual, at: path, into: &wantExactly)
            Matcher.matchExactly(expected: expected, actual: actual, at: path, into: &gotExactly)
            #expect(gotExactly == wantExactly)
            if !want.isEmpty || !wantExactly.isEmpty { mismatched += 1 }
        }
        // The inputs reach both answers.
        #expect(mismatched > 5_000 && mismatched < 19_000)
    }

    @Test func matchingASessionGivesTheMismatchesItGaveWhenItBuiltEveryPath() throws {
        let flow = try Flow.load(contentsOf: fixtures.appendingPathComponent("flows/mini.json").path)
        var session = Session(flow: flow)
        var random = SplitMix64(seed: 10)
        let events: [Event] = [.key(.tab), .type("x"), .tap(.button(.next)), .tap(.button(.back)), .key(.backSpace), .settle]
        for _ in 0..<2_000 {
            _ = session.send(events[random.below(events.count)])
            var expected = JSONObject()
            for key in Session.stateKeys where random.below(3) == 0 {
                let state = session.stateValue(key)!
                expected.append(key, random.below(2) == 0 ? state : Self.mutated(state, &random))
            }
            var want: [Mismatch] = []
            var wantExactly: [Mismatch] = []
            for (key, value) in expected {
                Reference.match(expected: value, actual: session.stateValue(key), at: .root + key, into: &want)
                Reference.matchExactly(expected: value, actual: session.stateValue(key), at: .root + key, into: &wantExactly)
            }
            #expect(Matcher.match(expected, session: session) == want)
            #expect(Matcher.matchExactly(expected, session: session) == wantExactly)
        }
    }

    // MARK: Reading steps

    static let stepPieces: [String] = [
        #"{"tap": "name"}"#, #"{"tap": "nmae"}"#, #"{"tap": "button:next"}"#, #"{"tap": 3}"#, #"{"tap": "nowhere:1"}"#,
        #"{"key": "Tab"}"#, #"{"key": "Enter"}"#, #"{"type": "Aki"}"#, #"{"type": 1}"#, #"{"select": "zzz"}"#,
        #"{"spin": {"component": "days", "by": 1}}"#, #"{"spin": {"component": "hours", "by": 1, "x": 2}}"#,
        #"{"dragUpdate": {"dx": -3}}"#, #"{"dragUpdate": {"dy": 1}}"#, #"{"tick": -5}"#, #"{"tick": 16}"#, #"{"settle": true}"#,
        #"{"restart": true}"#, #"{"restart": false}"#, #"{"tapp": "name"}"#, #"{"zzzzzz": 1}"#, #"{"tap": "name", "type": "x"}"#,
        #"{}"#, "3", #""tap""#, "[]", "null",
        #"{"expect": {"page": {"index": 0}}}"#, #"{"expect": {"pgae": {"index": 0}}}"#, #"{"expect": {"zzzzzzzz": 1}}"#,
        #"{"expect": {"page": {"index": 0, "idx": 1, "count": 2}}}"#, #"{"expect": {"buttons": {"nxt": true}}}"#,
        #"{"expect": {"values": {"name": "x", "nmae": "y"}}}"#, #"{"expect": {"errors": {"name": "requird"}}}"#,
        #"{"expect": {"errors": {"name": "required", "zz": "min"}}}"#, #"{"expect": {"focus": "nmae"}}"#,
        #"{"expect": {"focus": "name", "input": {"feld": 1}}}"#, #"{"expectExactly": {"page": {"index": 0}, "values": 3}}"#,
        #"{"expect": 3}"#, #"{"expectExactly": []}"#, #"{"expect": {}}"#,
        #"{"expectEmitted": ["valueChanged"]}"#, #"{"expectEmitted": ["valueChange"]}"#, #"{"expectEmitted": [3, {}]}"#,
        #"{"expectEmitted": [{"valueChanged": {"field": "name", "value": "x"}}]}"#,
        #"{"expectEmitted": [{"valueChanged": {"fild": "name"}}]}"#, #"{"expectEmitted": [{"valueChangd": {"field": "name"}}]}"#,
        #"{"expectEmitted": [{"valueChanged": 3}]}"#, #"{"expectEmitted": [{"a": {}, "b": {}}]}"#,
        #"{"expectEmittedExactly": ["focusChanged", {"pageChanged": {"reason": "nxt"}}]}"#,
        #"{"expectEmittedExactly": [{"pageChanged": {"reason": "next"}}]}"#, #"{"expectEmitted": 3}"#,
    ]

    @Test func stepsReadWithPathsBuiltOnDemandGiveTheProblemsTheyGaveBefore() throws {
        let flow = try Flow.load(contentsOf: fixtures.appendingPathComponent("flows/mini.json").path)
        var random = SplitMix64(seed: 11)
        var problems = 0
        for round in 0..<3_000 {
            let pieces = (0..<1 + random.below(6)).map { _ in Self.stepPieces[random.below(Self.stepPieces.count)] }
            let bytes = Array("[\(pieces.joined(separator: ", "))]".utf8)
            let (value, _) = try DocumentReader.parse(file: "s.json", bytes: bytes)
            guard case .array(let list) = value else { Issue.record("not a list"); return }
            let withFlow: Flow? = round % 4 == 0 ? nil : flow
            var want = DocumentReader(file: "s.json", bytes: bytes)
            var got = DocumentReader(file: "s.json", bytes: bytes)
            for (index, raw) in list.enumerated() {
                let old = Reference.step(raw, at: .root + "steps" + index, flow: withFlow, reader: &want)
                let new = ScriptLoader.step(raw, index: index, flow: withFlow, reader: &got)
                #expect(old.map { String(describing: $0) } == new.map { String(describing: $0) })
            }
            #expect(got.problems == want.problems)
            problems += want.problems.count
        }
        #expect(problems > 3_000)
    }

    // MARK: Flow paths

    @Test func flowPathsWorkedOutOncePerFolderAreThoseWorkedOutEachTime() {
        let folders = [
            "", "/", "/tmp/", "/tmp/a/", "/tmp//a/", "/tmp/./a/", "/tmp/a/../b/", "data/", "./data/", "data/sessions/",
            "../x/", "a b/", "%20/", "é/", "data//s/",
        ]
        let names = ["s.json", "t.json", "x", "s.json.json", "a b.json"]
        let relatives = [
            "flow.json", "../flows/mini.json", "./flow.json", "sub/../flow.json", "/abs/flow.json", "/abs/../x.json", "a//b.json",
            "..", ".", "flows/", "é.json", "%41.json",
        ]
        var random = SplitMix64(seed: 12)
        let cache = FlowCache()
        for _ in 0..<3_000 {
            let file = folders[random.below(folders.count)] + names[random.below(names.count)]
            let relative = relatives[random.below(relatives.count)]
            #expect(cache.resolvedPath(relative, from: file) == FlowCache.resolve(relative, from: file), "\(file) → \(relative)")
        }
        // Paths whose last part is not a file name are worked out each time, the same way.
        for file in ["/tmp/a/", "data/.", "data/..", ".", "..", ""] {
            #expect(cache.resolvedPath("flow.json", from: file) == FlowCache.resolve("flow.json", from: file))
        }
    }

    @Test func aFlowNamedInManySpellingsIsLoadedOnceAndKeyedAsBefore() throws {
        let flows = FlowCache()
        let path = fixtures.appendingPathComponent("flows/mini.json").path
        let folder = fixtures.appendingPathComponent("flows").path
        let spellings = [path, folder + "/./mini.json", folder + "//mini.json", folder + "/../flows/mini.json"]
        for spelling in spellings {
            #expect(FlowCache.key(of: spelling) == URL(fileURLWithPath: spelling).standardizedFileURL.path)
            guard case .success(let flow) = flows.flow(at: spelling) else {
                Issue.record("\(spelling) did not load")
                continue
            }
            #expect(flow.id == (try Flow.load(contentsOf: path)).id)
        }
        guard case .failure(let error) = flows.flow(at: folder + "/missing.json") else {
            Issue.record("a missing flow loaded")
            return
        }
        #expect(error.diagnostics.last?.message.contains("does not exist") == true)
    }
}

extension FastPathTests {
    // MARK: Recent events, notification codes, file names

    @Test func theRingOfRecentEventsListsWhatTheListDid() throws {
        let flow = try Flow.load(contentsOf: fixtures.appendingPathComponent("flows/mini.json").path)
        var random = SplitMix64(seed: 13)
        let events: [Event] = [.key(.tab), .type("x"), .tap(.button(.next)), .tap(.button(.back)), .key(.backSpace), .settle, .tick(5)]
        // Lists cut back after 3 and 16 entries as well as the runner's 65,536.
        for capacity in 1...7 {
            for kept in [3, 16, 1 << 16] {
                listsWhatTheListDid(flow: flow, capacity: capacity, kept: kept, &random, events)
            }
        }
        var none = RecentEvents(capacity: 0)
        none.record(step: 0, [])
        #expect(none.inOrder.isEmpty)
    }

    private func listsWhatTheListDid(flow: Flow, capacity: Int, kept: Int, _ random: inout SplitMix64, _ events: [Event]) {
        var session = Session(flow: flow)
        var ring = RecentEvents(capacity: capacity, kept: kept)
        var list: [(step: Int, codes: [UInt8])] = []
        for step in 0..<300 {
            let notifications = session.send(events[random.below(events.count)])
            // The list as the runner kept it before.
            if list.count == capacity { list.removeFirst() }
            list.append((step, notifications.map { NotificationCode.of($0.name) }))
            ring.record(step: step, notifications)
            #expect(ring.inOrder.map(\.step) == list.map(\.step))
            #expect(ring.inOrder.map(\.codes) == list.map(\.codes))
        }
    }

    /// A step's name is looked up through `Check.table` as `Check(rawValue:)` (the `switch` it
    /// replaced) finds it: every name, near misses, and names canonically equal in other bytes.
    @Test func aStepNameIsTheCheckItNames() {
        let names = ScriptLoader.Check.allCases.map(\.rawValue) + Event.names
        var probes = ["", "?"]
        for name in names {
            probes += [name, name.uppercased(), String(name.dropLast()), name + " ", "\u{301}" + name, name + "\u{301}"]
            probes.append(String(name.map { (c: Character) -> Character in c == "K" ? "\u{212A}" : c }))
        }
        for probe in probes {
            #expect(
                ScriptLoader.Check.table.index(of: probe).map { ScriptLoader.Check.cases[$0] } == ScriptLoader.Check(rawValue: probe),
                "\(probe)")
            #expect(Event.Kind(name: probe) == Event.Kind(rawValue: probe), "\(probe)")
        }
        #expect(
            ScriptLoader.Check.table.index(of: "expect\u{212A}eyboardFocus").map { ScriptLoader.Check.cases[$0] } == .expectKeyboardFocus)
    }

    @Test func aKindsCodeIsItsNamesCode() {
        for kind in SessionNotification.Kind.allCases {
            #expect(NotificationCode.of(kind) == NotificationCode.of(kind.rawValue))
            #expect(NotificationCode.name(NotificationCode.of(kind)) == kind.rawValue)
        }
        let near = SessionNotification.names.flatMap { [$0, $0.uppercased(), String($0.dropLast()), $0 + " ", "\u{301}" + $0] }
        for name in near + ["", "?", "valueChanged\u{0}"] {
            #expect(NotificationCode.kind(named: name) == SessionNotification.Kind(rawValue: name), "\(name)")
        }
    }

    @Test func aFoundFilesNameIsWhatNSStringSaysItIs() {
        // The walker's paths: a folder as named (any spelling), `/` unless it ends in one, a name
        // from the folder's listing (never empty, `.` or `..`, never holding `/`).
        let folders = ["/", "/tmp", "/tmp/", "data", "data/", "./data", "../x//y", "a b", "é/日本", "~", "%20", "x/./y/../z"]
        let names = ["s.json", "a b.json", ".json", "x~", "~", "%20.json", "a\\b.json", "日本.json", "é.json", "...", ".hidden"]
        var random = SplitMix64(seed: 14)
        for _ in 0..<5_000 {
            let folder = folders[random.below(folders.count)]
            var path = folder.hasSuffix("/") ? folder : folder + "/"
            for _ in 0..<random.below(3) { path += names[random.below(names.count)] + "/" }
            path += names[random.below(names.count)]
            #expect(FileWalker.lastComponent(of: path) == (path as NSString).lastPathComponent, "\(path)")
        }
        for path in ["s.json", "data/sessions/", "a/b//"] {
            #expect(FileWalker.lastComponent(of: path) == (path as NSString).lastPathComponent, "\(path)")
        }
    }
}

/// The code the fast paths replaced, word for word but for names: paths built eagerly.
enum Reference {
    static func match(expected: JSONValue, actual: JSONValue?, at path: JSONPath, into mismatches: inout [Mismatch]) {
        guard let actual else {
            mismatches.append(Mismatch(path: path, expected: expected, actual: nil))
            return
        }
        switch (expected, actual) {
        case (.object(let want), .object(let have)):
            if want.isEmpty {
                if !have.isEmpty { mismatches.append(Mismatch(path: path, expected: expected, actual: actual)) }
                return
            }
            for (key, value) in want {
                match(expected: value, actual: have[key], at: path + key, into: &mismatches)
            }
        default:
            if !Matcher.equal(expected, actual) { mismatches.append(Mismatch(path: path, expected: expected, actual: actual)) }
        }
    }

    static func matchExactly(expected: JSONValue, actual: JSONValue?, at path: JSONPath, into mismatches: inout [Mismatch]) {
        guard let actual else {
            mismatches.append(Mismatch(path: path, expected: expected, actual: nil))
            return
        }
        switch (expected, actual) {
        case (.object(let want), .object(let have)):
            for (key, value) in want {
                matchExactly(expected: value, actual: have[key], at: path + key, into: &mismatches)
            }
            for (key, value) in have where want[key] == nil {
                mismatches.append(Mismatch(path: path + key, expected: nil, actual: value))
            }
        case (.array(let want), .array(let have)) where want.count == have.count:
            for (index, (wanted, had)) in zip(want, have).enumerated() {
                matchExactly(expected: wanted, actual: had, at: path + index, into: &mismatches)
            }
        default:
            if !Matcher.equal(expected, actual) { mismatches.append(Mismatch(path: path, expected: expected, actual: actual)) }
        }
    }

    static func step(_ raw: JSONValue, at path: JSONPath, flow: Flow?, reader: inout DocumentReader) -> SessionScript.Step? {
        guard case .object(let object) = raw else {
            reader.error(path, "a step must be an object with one key, not \(raw.typeName)")
            return nil
        }
        guard object.count == 1, let key = object.keys.first, let value = object.values.first else {
            reader.error(
                path, "a step has exactly one key, not \(object.count)\(object.isEmpty ? "" : " (\(object.keys.joined(separator: ", ")))")")
            return nil
        }
        switch key {
        case "expect", "expectExactly":
            guard let expected = reader.object(value, at: path + key, what: "'\(key)'") else { return nil }
            validate(expected, at: path + key, flow: flow, reader: &reader)
            return key == "expect" ? .expect(expected) : .expectExactly(expected)
        case "expectEmitted", "expectEmittedExactly":
            guard let list = reader.array(value, at: path + key, what: "'\(key)'") else { return nil }
            var patterns: [EmittedPattern] = []
            patterns.reserveCapacity(list.count)
            let listPath = path + key
            for (at, entry) in list.enumerated() {
                if let pattern = parse(entry, at: listPath + at, reader: &reader) { patterns.append(pattern) }
            }
            return key == "expectEmitted" ? .expectEmitted(patterns) : .expectEmittedExactly(patterns)
        case "expectKeyboardFocus":
            guard case .string(let name) = value, KeyboardFocus.isName(name) else {
                reader.error(
                    path + key,
                    "'expectKeyboardFocus' takes field:ID, button:back|next|skip|finish|cancel, indicator, stay:STOP, unchanged or completed, not \(value)"
                )
                return nil
            }
            return .expectKeyboardFocus(name)
        case "restart":
            guard value == .bool(true) else {
                reader.error(path + key, "'restart' takes true")
                return nil
            }
            return .restart
        default:
            switch Event.parse(key: key, value: value) {
            case .failure(let error):
                if !Event.names.contains(key) {
                    var message =
                        "unknown step '\(key)'; a step is an event (\(Event.names.joined(separator: ", "))), expect, expectExactly, expectEmitted, expectEmittedExactly, expectKeyboardFocus, expectNotice, expectAnnounced, expectAccessible, expectScreenshot or restart"
                    if let near = DocumentReader.closest(to: key, in: ScriptLoader.stepKeys) {
                        message = "unknown step '\(key)'; did you mean '\(near)'?"
                    }
                    reader.error(path + key, message, onKey: true)
                } else {
                    reader.error(JSONPath(components: (path + key).components + error.path), error.message)
                }
                return nil
            case .success(let event):
                if let flow { checkAgainstFlow(event, at: path + key, flow: flow, reader: &reader) }
                return .event(event)
            }
        }
    }

    static func checkAgainstFlow(_ event: Event, at path: JSONPath, flow: Flow, reader: inout DocumentReader) {
        switch event {
        case .tap(.field(let id)) where flow.fieldIndex(of: id) == nil:
            var message = "the flow has no field '\(id)'"
            if let near = reader.hint(for: id, in: flow.fields.map(\.id)) { message += "; did you mean '\(near)'?" }
            reader.error(path, message)
        case .select(let option):
            let known = flow.fields.contains { field in
                if case .choice(let options) = field.kind { return options.index(of: option) != nil }
                return false
            }
            if !known { reader.error(path, "no choice field of the flow has the option '\(option)'") }
        default:
            break
        }
    }

    static func validate(_ expected: JSONObject, at path: JSONPath, flow: Flow?, reader: inout DocumentReader) {
        for (key, value) in expected {
            guard Session.stateKeys.contains(key) else {
                var message = "'\(key)' is not part of the state (\(Session.stateKeys.joined(separator: ", ")))"
                if let near = DocumentReader.closest(to: key, in: Session.stateKeys) {
                    message = "'\(key)' is not part of the state; did you mean '\(near)'?"
                }
                reader.error(path + key, message, onKey: true)
                continue
            }
            if let allowed = ExpectationCheck.shapes[key], case .object(let object) = value {
                reader.checkKeys(object, at: path + key, allowed: allowed, what: "'\(key)'")
            }
            guard let flow else { continue }
            if key == "values" || key == "errors", case .object(let object) = value {
                for (field, entry) in object {
                    guard flow.fieldIndex(of: field) != nil else {
                        var message = "the flow has no field '\(field)'"
                        if let near = reader.hint(for: field, in: flow.fields.map(\.id)) { message += "; did you mean '\(near)'?" }
                        reader.error(path + key + field, message, onKey: true)
                        continue
                    }
                    if key == "errors", case .string(let code) = entry, ValidationCode(rawValue: code) == nil {
                        reader.error(
                            path + key + field,
                            "'\(code)' is not an error code (\(ValidationCode.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                }
            }
            if key == "focus", case .string(let field) = value, flow.fieldIndex(of: field) == nil {
                reader.error(path + key, "the flow has no field '\(field)'")
            }
        }
    }

    static func parse(_ entry: JSONValue, at path: JSONPath, reader: inout DocumentReader) -> EmittedPattern? {
        var name: String
        var payload: JSONObject? = nil
        var namePath = path
        switch entry {
        case .string(let text):
            name = text
        case .object(let object) where object.count == 1:
            name = object.keys[0]
            namePath = path + name
            guard case .object(let fields) = object.values[0] else {
                reader.error(path + name, "a notification pattern is {\"\(name)\": {payload keys…}}, not \(object.values[0].typeName)")
                return nil
            }
            payload = fields
        default:
            reader.error(path, "an expectEmitted entry is a notification name or {\"name\": {payload keys…}}")
            return nil
        }
        guard let kind = SessionNotification.Kind(rawValue: name) else {
            var message = "unknown notification '\(name)'"
            if let near = DocumentReader.closest(to: name, in: SessionNotification.names) { message += "; did you mean '\(near)'?" }
            reader.error(namePath, message, onKey: payload != nil)
            return nil
        }
        if let payload {
            reader.checkKeys(payload, at: path + name, allowed: kind.payloadKeys, what: "a '\(name)' notification")
            if let reasons = kind.reasons, case .string(let reason)? = payload["reason"], !reasons.contains(reason) {
                var message = "'\(reason)' is not a reason of '\(name)'"
                if let near = DocumentReader.closest(to: reason, in: reasons) { message += "; did you mean '\(near)'?" }
                reader.error(path + name + "reason", message)
            }
        }
        return EmittedPattern(name: name, payload: payload)
    }
}
