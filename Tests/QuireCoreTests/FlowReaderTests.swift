import Foundation
import Testing

@testable import QuireCore

/// The flow reader (`FlowReader`): one pass over the bytes that builds the flow and records every
/// problem. Its diagnostics are pinned by `FlowLoaderTests` (Tests/QuireCoreTests/BadFlows) and
/// the hostile corpus (`scripts/test-hostile`); these tests pin what it does beyond them.
@Suite struct FlowReaderTests {
    /// A small seeded generator, so a failure reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A flow like the benchmark's: every kind, display strings in four languages, conditions,
    /// escapes and non-ASCII text.
    static func generatedFlow(pages: Int) -> [UInt8] {
        func localized(_ english: String) -> String {
            #"{"en": "\#(english)", "ja": "日本語の\#(english)", "de": "Deutsch \"\#(english)\"\n", "zh-Hant-TW": "中文 \#(english) \u00e9\ud83d\ude00"}"#
        }
        var text =
            #"{"format": "quire.flow/1", "id": "large", "title": \#(localized("A large flow")), "paging": {"wrap": true, "gate": "none", "indicator": {"style": "numbers", "hidesForSinglePage": false}, "snapDistance": 0.25, "flingVelocity": 1e3, "animationMs": 0, "autoAdvanceMs": 100}, "accessory": ["previous", "next", "flexibleSpace", "flexibleSpace", "done"], "pages": ["#
        for page in 0..<pages {
            if page > 0 { text += ",\n" }
            let visible =
                page > 0
                ? #", "visibleIf": {"any": [{"field": "f\#(page - 1)_0", "equals": true}, {"not": {"field": "f\#(page - 1)_2", "lessThan": 600}}]}"#
                : ""
            text +=
                #"{"id": "p\#(page)", "title": \#(localized("Page \(page)")), "body": "plain body \#(page) of the flow, same ends"\#(visible), "fields": ["#
            for field in 0..<7 {
                if field > 0 { text += ",\n  " }
                let id = "f\(page)_\(field)"
                switch field {
                case 0:
                    text += #"{"id": "\#(id)", "kind": "toggle", "label": \#(localized("Toggle")), "default": false, "accessory": []}"#
                case 1:
                    text +=
                        #"{"kind": "choice", "id": "\#(id)", "label": \#(localized("Choice")), "default": "b", "options": [{"id": "a", "label": \#(localized("First"))}, {"label": "Second", "id": "b"}, {"id": "c"}]}"#
                case 2:
                    text +=
                        #"{"id": "\#(id)", "kind": "duration", "default": 1800.0, "minuteInterval": 5, "components": ["hours", "minutes", "seconds"], "min": 0, "max": 7200}"#
                case 3:
                    text +=
                        #"{"id": "\#(id)", "kind": "text", "label": \#(localized("Text")), "placeholder": \#(localized("Type here")), "required": true, "minLength": 1, "maxLength": 200, "returnKey": "next", "default": "héllo", "visibleIf": {"field": "f\#(page)_0", "equals": false}, "enabledIf": {"field": "f\#(page)_1", "in": ["a", "c"]}, "requiredIf": {"all": [{"field": "f\#(page)_2", "greaterThan": -1.5}, {"field": "f\#(page)_1", "filled": true}]}}"#
                case 4:
                    text += #"{"id": "\#(id)", "kind": "text", "visibleIf": {"field": "f\#(page)_3", "notEquals": "x"}}"#
                case 5:
                    text +=
                        #"{"id": "\#(id)", "kind": "duration", "components": ["hours", "minutes"], "min": 60, "max": 3600, "default": 120, "enabledIf": {"field": "f\#(page)_2", "in": [60, 120]}}"#
                default:
                    text +=
                        #"{ "id" : "\#(id)" , "kind" : "toggle" , "required" : false , "visibleIf" : { "field" : "f\#(page)_4" , "filled" : false } }"#
                }
            }
            text += "]}"
        }
        text += "]}"
        return Array(text.utf8)
    }

    @Test func aLargeFlowLoadsAndItsDocumentIsParsedOnDemand() throws {
        let bytes = Self.generatedFlow(pages: 300)
        let flow = try Flow.load(bytes: bytes)
        #expect(flow.fields.count == 2_100)
        #expect(flow.document == (try JSONParser.parse(bytes).value))
    }

    /// Display strings are kept as places in the document and decoded when asked, escapes and
    /// all; what fronts read of them (`resolve`, `entries`, hashing, equality) is what the
    /// same texts given as strings give.
    @Test func displayStringsAreKeptAsPlacesAndReadWhenAsked() throws {
        let bytes = Array(
            #"{"format": "quire.flow/1", "id": "e", "title": {"en": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00 long enough to allocate", "en-GB": "é – ✓", "DE": "", "d\u0065-CH": "x"}, "pages": [{"id": "p", "title": "\u0041", "body": "plain"}]}"#
                .utf8)
        let flow = try Flow.load(bytes: bytes)
        let title = try #require(flow.title)
        guard case .source = title.form else {
            Issue.record("a display string read from bytes is kept as its place")
            return
        }
        #expect(title.resolve("en") == "a\"b\\c/d\u{8}\u{c}\n\r\té😀 long enough to allocate")
        #expect(title.resolve("de") == "")
        #expect(title.resolve("de-CH") == "x")
        #expect(title.entries.map(\.tag) == ["en", "en-GB", "DE", "de-CH"])
        let strings = LocalizedText(entries: title.entries)
        #expect(title == strings && strings == title && title.hashValue == strings.hashValue)
        #expect(flow.pages[0].title?.resolve("fr") == "A")
        #expect(flow.pages[0].body == LocalizedText("plain"))
    }

    /// docs/flow-format.md: a field's `"default": null` "is the same as leaving it out", for every kind.
    @Test(arguments: [
        #""kind": "text""#,
        #""kind": "duration""#,
        #""kind": "choice", "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]"#,
        #""kind": "toggle""#,
    ]) func aNullDefaultIsNoDefault(kind: String) throws {
        func flow(_ extra: String) -> [UInt8] {
            Array(
                #"{"format": "quire.flow/1", "id": "n", "title": "N", "pages": [{"id": "p", "fields": [{"id": "f", "label": "F", \#(kind)\#(extra)}]}]}"#
                    .utf8)
        }
        let withNull = try Flow.load(bytes: flow(#", "default": null"#))
        #expect(withNull.fields == (try Flow.load(bytes: flow(""))).fields)
        #expect(withNull.fields.first?.defaultValue == .null)
    }

    /// The same value with the keys of every object in another order, but for display strings
    /// (the order of their languages is part of the flow: the last fallback is the first one).
    static func shuffled(_ value: JSONValue, _ random: inout SplitMix, key: String = "") -> JSONValue {
        switch value {
        case .object(let object):
            if ["title", "body", "label", "placeholder"].contains(key) { return value }
            var object2 = JSONObject()
            for (key, member) in Array(object).shuffled(using: &random) { object2.append(key, shuffled(member, &random, key: key)) }
            return .object(object2)
        case .array(let array): return .array(array.map { shuffled($0, &random) })
        default: return value
        }
    }

    static func problems(_ bytes: [UInt8]) -> [String] {
        do {
            _ = try Flow.load(bytes: bytes, file: "f.json")
            return []
        } catch {
            // Where a problem is moves with its key; what it is and at which path does not.
            // ("not greaterThan and lessThan" names them in the document's order.)
            return error.diagnostics.map { "\($0.path): \($0.message)" }.filter { !$0.contains("has one comparison, not") }
                .sorted()
        }
    }

    /// A field's `kind` may come after the keys it decides, a condition before the field's id:
    /// the reader keeps what it needs until the end of the object. Every flow in data/flows and
    /// every bad flow, with the keys of every object shuffled, loads to the same flow or gives
    /// the same problems at the same paths.
    @Test func theOrderOfKeysChangesNothing() throws {
        var random = SplitMix(state: 0x5EED)
        var files: [URL] = []
        for folder in ["data/flows", "Tests/QuireCoreTests/BadFlows"] {
            let url = repositoryRoot.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where file.hasSuffix(".json") {
                files.append(url.appendingPathComponent(file))
            }
        }
        var checked = 0
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let value = try? JSONParser.parse(bytes).value, (try? JSONParser.parse(bytes).duplicateKeys.isEmpty) == true
            else { continue }
            let written = JSONWriter.data(value)
            let expected = Self.problems(written)
            let flow = try? Flow.load(bytes: written)
            for _ in 0..<3 {
                let other = JSONWriter.data(Self.shuffled(value, &random))
                #expect(Self.problems(other) == expected, "\(url.lastPathComponent)")
                if let flow { #expect(try Flow.load(bytes: other) == flow, "\(url.lastPathComponent)") }
                checked += 1
            }
        }
        #expect(checked > 150)
    }

    /// A flow given as a value (a script's inline flow) is read as a file's is, its problems at
    /// their paths under the value's.
    @Test func aFlowGivenAsAValueIsReadTheSame() throws {
        let text =
            #"{"format": "quire.flow/1", "id": "v", "pages": [{"id": "p", "fields": [{"id": "a", "kind": "text", "maxLength": 0}, {"id": "b", "kind": "toggle", "visibleIf": {"field": "c", "equals": true}}]}]}"#
        let script = #"{"flow": \#(text)}"#
        let (value, parsed) = try DocumentReader.parse(file: "s.json", bytes: Array(script.utf8))
        var reader = parsed
        #expect(Flow.load(value["flow"]!, at: .root + "flow", reader: &reader) == nil)
        let lines = reader.diagnostics().map(\.description)
        #expect(
            lines == [
                "s.json:1:122: $.flow.pages[0].fields[0].maxLength: maxLength must be between 1 and 100000, not 0",
                "s.json:1:179: $.flow.pages[0].fields[1].visibleIf.field: the condition names the unknown field 'c'",
            ])
        #expect(throws: DocumentError.self) { try Flow.load(json: text) }
    }

    /// A limit the document breaks is named by the parser, as any syntax error.
    @Test func aBrokenLimitIsNamedByTheParser() throws {
        let bytes = Self.generatedFlow(pages: 3)
        for (limits, message) in [
            (JSONLimits(depth: 5), "nesting is deeper than 5 levels"),
            (JSONLimits(stringBytes: 12), "a string is longer than 12 bytes"),
            (JSONLimits(documentBytes: bytes.count - 1), "the document is \(bytes.count) bytes; the limit is \(bytes.count - 1)"),
        ] {
            do {
                _ = try Flow.load(bytes: bytes, limits: limits)
                Issue.record("\(limits) was not kept")
            } catch {
                #expect(error.diagnostics.count == 1)
                #expect(error.diagnostics.first?.message == message)
            }
        }
        #expect(try Flow.load(bytes: bytes, limits: JSONLimits(documentBytes: bytes.count)).fields.count == 21)
    }
}

/// The typed keys of the flow reader: each enum's names are its cases, spelled as the format does.
@Suite struct FlowReaderKeyTests {
    static func check<Key: ObjectKey>(_: Key.Type, spelled exceptions: [String: String] = [:]) {
        #expect(Key.names.count == Key.allCases.count, "\(Key.self): a name for every case")
        for key in Key.allCases {
            let caseName = "\(key)"
            #expect("\(key.name)" == exceptions[caseName] ?? caseName, "\(Key.self).\(caseName)")
        }
    }

    @Test func everyKeyIsSpelledAsItsCase() {
        Self.check(FlowReader.FlowKey.self, spelled: ["schema": "$schema"])
        Self.check(FlowReader.PageKey.self)
        Self.check(FlowReader.ApplyKey.self)
        Self.check(FlowReader.FieldKey.self, spelled: ["defaultValue": "default"])
        Self.check(FlowReader.OptionKey.self)
        Self.check(FlowReader.ConditionKey.self)
        #expect(FlowReader.KindName.allCases.map { "\($0.name)" } == FlowReader.KindName.allCases.map { "\($0)" })
    }

    @Test func eachComparisonKeyMakesTheComparisonOfItsName() {
        for key in FlowReader.ConditionKey.allCases {
            #expect(key.comparison?.rawValue == FlowReader.Comparison(rawValue: "\(key)")?.rawValue)
        }
        #expect(FlowReader.ConditionKey.allCases.count { $0.comparison != nil } == FlowReader.Comparison.allCases.count)
    }

    @Test func aKindsKeysAreItsOwn() {
        #expect(FlowReader.KindName.text.keys == [.placeholder, .minLength, .maxLength, .returnKey])
        #expect(FlowReader.KindName.duration.keys == [.components, .minuteInterval, .min, .max])
        #expect(FlowReader.KindName.choice.keys == [.options])
        #expect(FlowReader.KindName.toggle.keys.isEmpty)
    }
}
