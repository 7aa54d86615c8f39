import Foundation
import Testing

@testable import QuireCore

/// The fast path of `Flow.load` (`FlowReader`) against the full path (`Flow.loadFully`): a flow the
/// fast path reads must be exactly the one the full path builds, and anything the full path
/// rejects must be left to it (the fast path gives up), so diagnostics never change.
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

    struct Outcome {
        var fast = 0
        var full = 0
        var checked = 0
    }

    /// Loads `bytes` both ways and checks they agree; counts what each path read.
    static func compare(
        _ bytes: [UInt8], folder: String? = nil, limits: JSONLimits = .default, _ outcome: inout Outcome,
        _ what: @autoclosure () -> String
    ) {
        outcome.checked += 1
        let fast = FlowReader.flow(bytes, folder: folder, limits: limits)
        var full: Flow?
        var problems = ""
        do {
            full = try Flow.loadFully(bytes: bytes, file: "f.json", folder: folder, limits: limits)
        } catch {
            problems = error.description
        }
        if full != nil { outcome.full += 1 }
        guard let fast else { return }
        outcome.fast += 1
        guard let full else {
            Issue.record("the fast path read a flow the full path rejects: \(what()): \(problems)")
            return
        }
        let same =
            fast == full && fast.document == full.document && fast.folder == full.folder
            && fast.fieldIndexByID == full.fieldIndexByID && fast.pageIndexByID == full.pageIndexByID
            && fast.graph == full.graph && fast.fieldIDs == full.fieldIDs && fast.fieldTraits == full.fieldTraits
            && fast.pages.map(\.layout) == full.pages.map(\.layout)
        #expect(same, "the two paths differ: \(what())\n\(String(decoding: bytes, as: UTF8.self))")
    }

    static func seeds() throws -> [(name: String, bytes: [UInt8], folder: String?)] {
        var seeds: [(String, [UInt8], String?)] = []
        let flows = repositoryRoot.appendingPathComponent("data/flows")
        for file in try FileManager.default.contentsOfDirectory(atPath: flows.path).sorted() where file.hasSuffix(".json") {
            let path = flows.appendingPathComponent(file).path
            seeds.append((file, try Flow.readDocument(path), flows.path))
        }
        seeds.append(("generated", generatedFlow(pages: 6), nil))
        return seeds
    }

    /// A flow like the benchmark's: every kind, display strings in four languages, conditions,
    /// escapes and non-ASCII text.
    static func generatedFlow(pages: Int) -> [UInt8] {
        func localized(_ english: String) -> String {
            #"{"en": "\#(english)", "ja": "日本語の\#(english)", "de": "Deutsch \"\#(english)\"\n", "zh-Hant-TW": "中文 \#(english) \u00e9\ud83d\ude00"}"#
        }
        var text = #"{"format": "quire.flow/1", "id": "large", "title": \#(localized("A large flow")), "paging": {"wrap": true, "gate": "none", "indicator": {"style": "numbers", "hidesForSinglePage": false}, "snapDistance": 0.25, "flingVelocity": 1e3, "animationMs": 0, "autoAdvanceMs": 100}, "accessory": ["previous", "next", "flexibleSpace", "flexibleSpace", "done"], "pages": ["#
        for page in 0..<pages {
            if page > 0 { text += ",\n" }
            let visible = page > 0 ? #", "visibleIf": {"any": [{"field": "f\#(page - 1)_0", "equals": true}, {"not": {"field": "f\#(page - 1)_2", "lessThan": 600}}]}"# : ""
            text += #"{"id": "p\#(page)", "title": \#(localized("Page \(page)")), "body": "plain body \#(page) of the flow, same ends"\#(visible), "fields": ["#
            for field in 0..<7 {
                if field > 0 { text += ",\n  " }
                let id = "f\(page)_\(field)"
                switch field {
                case 0:
                    text += #"{"id": "\#(id)", "kind": "toggle", "label": \#(localized("Toggle")), "default": false, "accessory": []}"#
                case 1:
                    text += #"{"kind": "choice", "id": "\#(id)", "label": \#(localized("Choice")), "default": "b", "options": [{"id": "a", "label": \#(localized("First"))}, {"label": "Second", "id": "b"}, {"id": "c"}]}"#
                case 2:
                    text += #"{"id": "\#(id)", "kind": "duration", "default": 1800.0, "minuteInterval": 5, "components": ["hours", "minutes", "seconds"], "min": 0, "max": 7200}"#
                case 3:
                    text += #"{"id": "\#(id)", "kind": "text", "label": \#(localized("Text")), "placeholder": \#(localized("Type here")), "required": true, "minLength": 1, "maxLength": 200, "returnKey": "next", "default": "héllo", "visibleIf": {"field": "f\#(page)_0", "equals": false}, "enabledIf": {"field": "f\#(page)_1", "in": ["a", "c"]}, "requiredIf": {"all": [{"field": "f\#(page)_2", "greaterThan": -1.5}, {"field": "f\#(page)_1", "filled": true}]}}"#
                case 4:
                    text += #"{"id": "\#(id)", "kind": "text", "visibleIf": {"field": "f\#(page)_3", "notEquals": "x"}}"#
                case 5:
                    text += #"{"id": "\#(id)", "kind": "duration", "components": ["hours", "minutes"], "min": 60, "max": 3600, "default": 120, "enabledIf": {"field": "f\#(page)_2", "in": [60, 120]}}"#
                default:
                    text += #"{ "id" : "\#(id)" , "kind" : "toggle" , "required" : false , "visibleIf" : { "field" : "f\#(page)_4" , "filled" : false } }"#
                }
            }
            text += "]}"
        }
        text += "]}"
        return Array(text.utf8)
    }

    @Test func theFastPathReadsEveryGoodFlowAsTheFullPathDoes() throws {
        var outcome = Outcome()
        for seed in try Self.seeds() {
            Self.compare(seed.bytes, folder: seed.folder, &outcome, seed.name)
            Self.compare(seed.bytes, folder: nil, &outcome, seed.name + " without its folder")
        }
        #expect(outcome.full == outcome.checked)
        #expect(outcome.fast == outcome.checked, "every good flow takes the fast path")
    }

    @Test func theFastPathReadsTheLargeFlowAndTheDocumentIsParsedOnDemand() throws {
        let bytes = Self.generatedFlow(pages: 300)
        let flow = try #require(FlowReader.flow(bytes, folder: nil, limits: .default))
        #expect(flow.fields.count == 2_100)
        #expect(flow.document == (try JSONParser.parse(bytes).value))
        #expect(try Flow.load(bytes: bytes) == (try Flow.loadFully(bytes: bytes, file: "f", folder: nil, limits: .default)))
    }

    @Test func badFlowsAreLeftToTheFullPath() throws {
        var outcome = Outcome()
        var files: [URL] = []
        let tests = repositoryRoot.appendingPathComponent("Tests")
        let walker = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "json" { files.append(url) }
        }
        #expect(files.count > 100)
        for url in files.sorted(by: { $0.path < $1.path }) {
            guard let bytes = try? Flow.readDocument(url.path, limits: JSONLimits(documentBytes: 64 << 20)) else { continue }
            Self.compare(bytes, folder: url.deletingLastPathComponent().path, &outcome, url.path)
        }
        #expect(outcome.checked > 100)
    }

    /// Every display string of a flow, in a fixed order.
    static func displayStrings(_ flow: Flow) -> [LocalizedText?] {
        var texts: [LocalizedText?] = [flow.title]
        for page in flow.pages { texts += [page.title, page.body] }
        for field in flow.fields {
            texts.append(field.label)
            switch field.kind {
            case .text(let options): texts.append(options.placeholder)
            case .choice(let options): texts += options.options.map(\.label)
            default: break
            }
        }
        return texts
    }

    /// The fast path keeps display strings as places in the document and makes their `String`s
    /// when asked: what fronts read of them (`resolve`, `entries`, hashing, equality) must be
    /// what the full path's strings give.
    @Test func displayStringsReadTheSameBothWays() throws {
        var flows = try Self.seeds().map { ($0.name, $0.bytes) }
        flows.append(("escapes", Array(#"{"format": "quire.flow/1", "id": "e", "title": {"en": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00 long enough to allocate", "en-GB": "é – ✓", "DE": "", "de-CH": "x"}, "pages": [{"id": "p", "title": "\u0041", "body": "plain"}]}"#.utf8)))
        let locales = ["", "en", "EN-us", "en-GB", "de", "de-CH-1996", "ja", "ja-JP", "zh-Hant-TW", "zh-hant", "fr", "x"]
        var checked = 0
        for (name, bytes) in flows {
            let fast = try #require(FlowReader.flow(bytes, folder: nil, limits: .default), "\(name)")
            let full = try Flow.loadFully(bytes: bytes, file: "f.json", folder: nil, limits: .default)
            let fastTexts = Self.displayStrings(fast)
            let fullTexts = Self.displayStrings(full)
            #expect(fastTexts.count == fullTexts.count)
            for (a, b) in zip(fastTexts, fullTexts) {
                #expect((a == nil) == (b == nil), "\(name)")
                guard let a, let b else { continue }
                checked += 1
                guard case .source = a.form, case .entries = b.form else {
                    Issue.record("\(name): the fast path keeps places, the full path strings")
                    continue
                }
                #expect(a.entries.map(\.tag) == b.entries.map(\.tag), "\(name)")
                #expect(a.entries.map(\.text) == b.entries.map(\.text), "\(name)")
                for locale in locales { #expect(a.resolve(locale) == b.resolve(locale), "\(name) \(locale)") }
                #expect(a == b && b == a && a.hashValue == b.hashValue, "\(name)")
                #expect(a == LocalizedText(entries: b.entries))
            }
            // Different display strings stay different.
            let distinct = Set(fullTexts.compactMap { $0 })
            #expect(Set(fastTexts.compactMap { $0 }).count == distinct.count, "\(name)")
            #expect(Set(fastTexts.compactMap { $0 } + fullTexts.compactMap { $0 }).count == distinct.count, "\(name)")
        }
        #expect(checked > 150)
        let escapes = try #require(FlowReader.flow(flows.last!.1, folder: nil, limits: .default))
        #expect(escapes.title?.resolve("en") == "a\"b\\c/d\u{8}\u{c}\n\r\té😀 long enough to allocate")
        #expect(escapes.title?.resolve("de") == "")
        #expect(escapes.pages[0].title?.resolve("fr") == "A")
    }

    /// Strings of escapes, ASCII, non-ASCII text, bad UTF-8, cut-short sequences and control
    /// bytes, as a display string and as a text field's default: both paths read them the same.
    @Test func stringsReadTheSameBothWays() throws {
        let pieces: [[UInt8]] = [
            Array("plain ".utf8), Array("日本語".utf8), Array("é".utf8), Array("😀".utf8), Array(#"\""#.utf8),
            Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud83d"#.utf8), Array(#"\ude00"#.utf8), Array(#"\x"#.utf8), Array(#"\u12"#.utf8), [0xC3],
            [0xE6, 0x97], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80], [0x09], [0x1F], Array("abcdefghijklmnop".utf8),
        ]
        var random = SplitMix(state: 0x5EED)
        var outcome = Outcome()
        for round in 0..<3_000 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += pieces.randomElement(using: &random)! }
            // The exact bytes (bad UTF-8 included) where "@" stands.
            let template =
                round % 2 == 0
                ? #"{"format": "quire.flow/1", "id": "s", "title": {"en": "@", "de": "x@"}, "pages": [{"id": "p", "body": "@"}]}"#
                : #"{"format": "quire.flow/1", "id": "s", "pages": [{"id": "p", "fields": [{"id": "f", "kind": "text", "default": "@"}]}]}"#
            var bytes: [UInt8] = []
            for byte in template.utf8 {
                if byte == UInt8(ascii: "@") { bytes += text } else { bytes.append(byte) }
            }
            Self.compare(bytes, &outcome, "round \(round)")
        }
        #expect(outcome.fast > 500 && outcome.full - outcome.fast == 0, "\(outcome)")
        #expect(outcome.checked - outcome.full > 500, "\(outcome)")
    }

    /// docs/flow-format.md: a field's `"default": null` "is the same as leaving it out", for every
    /// kind, on both paths (the full loader used to refuse it: "a text field's default must be a
    /// string, not null").
    @Test(arguments: [
        #""kind": "text""#,
        #""kind": "duration""#,
        #""kind": "choice", "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]"#,
        #""kind": "toggle""#,
    ]) func aNullDefaultIsNoDefault(kind: String) throws {
        func flow(_ extra: String) -> [UInt8] {
            Array(#"{"format": "quire.flow/1", "id": "n", "title": "N", "pages": [{"id": "p", "fields": [{"id": "f", "label": "F", \#(kind)\#(extra)}]}]}"#.utf8)
        }
        let withNull = flow(#", "default": null"#)
        let without = flow("")
        let full = try Flow.loadFully(bytes: withNull, file: "f.json", folder: nil, limits: .default)
        let fast = try #require(FlowReader.flow(withNull, folder: nil, limits: .default), "the fast path reads it")
        let plain = try Flow.load(bytes: without)
        #expect(full.fields == plain.fields)
        #expect(fast.fields == plain.fields)
        #expect(try Flow.load(bytes: withNull).fields == plain.fields)
        #expect(full.fields.first?.defaultValue == .null)
        var outcome = Outcome()
        Self.compare(withNull, &outcome, "a null default")
        #expect(outcome.fast == 1 && outcome.full == 1)
    }

    /// Limits tighter than the flow: both paths must refuse it (the full path says why).
    @Test func limitsAreKeptByTheFastPath() throws {
        var outcome = Outcome()
        let bytes = Self.generatedFlow(pages: 3)
        for limits in [
            JSONLimits(documentBytes: bytes.count - 1), JSONLimits(depth: 5), JSONLimits(depth: 7), JSONLimits(depth: 8),
            JSONLimits(stringBytes: 4), JSONLimits(stringBytes: 12), JSONLimits(stringBytes: 20), JSONLimits(stringBytes: 40),
            JSONLimits(documentBytes: bytes.count),
        ] {
            Self.compare(bytes, limits: limits, &outcome, "limits \(limits)")
        }
        #expect(outcome.fast == outcome.full)
    }

    static let keys = [
        "format", "id", "title", "paging", "accessory", "pages", "wrap", "swipe", "gate", "indicator", "style",
        "hidesForSinglePage", "snapDistance", "flingVelocity", "animationMs", "autoAdvanceMs", "body", "visibleIf",
        "fields", "layout", "kind", "label", "default", "required", "enabledIf", "requiredIf", "placeholder",
        "minLength", "maxLength", "returnKey", "components", "minuteInterval", "min", "max", "options", "all", "any",
        "not", "field", "equals", "notEquals", "in", "greaterThan", "lessThan", "filled", "en", "ja", "EN", "x-klingon",
        "e", "en-", "titel", "i\u{64}", "",
    ]

    static func pool(_ ids: [String]) -> [JSONValue] {
        var pool: [JSONValue] = [
            "text", "duration", "choice", "toggle", "hours", "minutes", "seconds", "a", "b", "c", "valid", "none", "dots",
            "numbers", "next", "done", "default", "previous", "flexibleSpace", "quire.flow/1", "quire.flow/2", "",
            "background", "a b", "é", "x/../y", "layouts/a.ui", .string(String(repeating: "a", count: 65)),
            0, 1, 2, 5, 7, 30, 45, 59, 60, 61, 99, 100, 120, 1800, 3600, 86399, 86400, -1, 0.5, 0.01, 1.5, 1e9, 2e9,
            100_001, .number(9_007_199_254_740_992), 1e300, true, false, nil, [:], [], ["hours", "minutes"],
            ["hours", "minutes", "seconds"], ["minutes", "hours"], ["hours"], ["a", "c"], [1, 2], [nil],
            ["en": "x", "ja": "y"], ["en": 1], ["EN": "x", "en": "y"], [["id": "a"]], [["id": "a"], ["id": "a"]],
            [["id": "z", "label": "Z"]], [["label": "Z"]], ["previous", "previous"], ["next", "flexibleSpace"],
        ]
        for id in ids {
            pool.append(.string(id))
            pool.append(["field": .string(id), "equals": true])
            pool.append(["field": .string(id), "filled": false])
            pool.append(["field": .string(id), "in": ["a", "b"]])
            pool.append(["field": .string(id), "greaterThan": 10])
            pool.append(["not": ["field": .string(id), "equals": "a"]])
            pool.append(["all": [["field": .string(id), "notEquals": 60]]])
            pool.append(["any": []])
            pool.append(["field": .string(id), "equals": 1, "filled": true])
        }
        return pool
    }

    /// Every path in a document.
    static func paths(_ value: JSONValue, _ path: [JSONPath.Component] = [], into out: inout [[JSONPath.Component]]) {
        out.append(path)
        switch value {
        case .object(let object):
            for (key, member) in object { paths(member, path + [.key(key)], into: &out) }
        case .array(let array):
            for (index, element) in array.enumerated() { paths(element, path + [.index(index)], into: &out) }
        default: break
        }
    }

    /// `value` with the node at `path` changed by `change` (nil: removed).
    static func edit(
        _ value: JSONValue, at path: ArraySlice<JSONPath.Component>, _ change: (JSONValue) -> JSONValue?
    ) -> JSONValue? {
        guard let first = path.first else { return change(value) }
        switch (value, first) {
        case (.object(let object), .key(let key)):
            var copy = JSONObject()
            for (name, member) in object {
                if name == key {
                    if let edited = edit(member, at: path.dropFirst(), change) { copy.append(name, edited) }
                } else {
                    copy.append(name, member)
                }
            }
            return .object(copy)
        case (.array(var array), .index(let index)):
            if let edited = edit(array[index], at: path.dropFirst(), change) {
                array[index] = edited
            } else {
                array.remove(at: index)
            }
            return .array(array)
        default:
            return value
        }
    }

    @Test(arguments: 0..<4) func mutatedFlowsReadTheSameBothWays(round: Int) throws {
        var random = SplitMix(state: UInt64(round) &* 7_919 &+ 17)
        var outcome = Outcome()
        for seed in try Self.seeds() {
            let document = try JSONParser.parse(seed.bytes).value
            let ids = (try? Flow.loadFully(bytes: seed.bytes, file: "f", folder: seed.folder, limits: .default))
                .map { $0.fields.map(\.id) + $0.pages.map(\.id) } ?? []
            let pool = Self.pool(Array(ids.prefix(6)))
            var paths: [[JSONPath.Component]] = []
            Self.paths(document, into: &paths)
            for _ in 0..<150 {
                // Values: replaced, removed, or given a new member.
                let path = paths.randomElement(using: &random)!
                let choice = Int.random(in: 0..<3, using: &random)
                let replacement = pool.randomElement(using: &random)!
                let key = Self.keys.randomElement(using: &random)!
                let edited = Self.edit(document, at: path[...]) { value in
                    switch choice {
                    case 0: return replacement
                    case 1: return nil
                    default:
                        guard case .object(var object) = value else { return replacement }
                        object[key] = replacement
                        return .object(object)
                    }
                }
                let bytes = JSONWriter.data(edited ?? .null)
                Self.compare(bytes, folder: seed.folder, &outcome, "\(seed.name): \(choice) at \(JSONPath(components: path))")
            }
            for _ in 0..<150 {
                // Bytes: removed, inserted, replaced or copied elsewhere.
                var bytes = seed.bytes
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    let alphabet = Array(#"{}[]",:0123456789-+.eE\u tfn "#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE6, 0xFF]
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                    case 2: bytes[at] = alphabet.randomElement(using: &random)!
                    default:
                        let end = min(bytes.count, at + Int.random(in: 1...40, using: &random))
                        let slice = Array(bytes[at..<end])
                        bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &random))
                    }
                }
                Self.compare(bytes, folder: seed.folder, &outcome, "\(seed.name): bytes")
            }
        }
        // Some mutants are still good flows, and the fast path reads all of those it can.
        #expect(outcome.fast > 0 && outcome.full > outcome.checked / 10)
    }
}
