import Foundation
import QuireCore
import QuireHarness

/// The flows and sessions the benchmarks run on, built in code so every size is the same shape.
public enum Workloads {
    /// Whether this is the short run CI does (`QUIRE_BENCH_SHORT=1`): fewer sizes, shorter runs.
    public static let short = ProcessInfo.processInfo.environment["QUIRE_BENCH_SHORT"] == "1"

    /// The flow sizes of the per-event rows, in fields (pages of 10 fields).
    public static let fieldCounts = short ? [10, 50_000] : [10, 1_000, 10_000, 50_000]

    /// Flows big enough for the benchmarks (the 20 MB flow is over the 16 MiB default).
    public static let limits = JSONLimits(documentBytes: 256 << 20)

    /// A flow of `fields` fields on pages of ten: a toggle (`t<page>`, on) that shows the page's nine
    /// text fields (`f<page>_<n>`, the last with `maxLength` 1,000), no animations.
    public static func eventFlow(fields: Int, animationMs: Int = 0, wrap: Bool = false) -> Flow {
        let pages = max(1, fields / 10)
        var text =
            #"{"format": "quire.flow/1", "id": "bench", "title": "Benchmark", "paging": {"animationMs": \#(animationMs), "wrap": \#(wrap), "gate": "none"}, "pages": ["#
        for page in 0..<pages {
            if page > 0 { text += "," }
            text +=
                #"{"id": "p\#(page)", "title": "Page \#(page)", "fields": [{"id": "t\#(page)", "kind": "toggle", "label": "Show", "default": true}"#
            for field in 1..<10 {
                let condition = #""visibleIf": {"field": "t\#(page)", "equals": true}"#
                let extra = field == 9 ? #", "maxLength": 1000"# : ""
                text += #", {"id": "f\#(page)_\#(field)", "kind": "text", "label": "Answer \#(field)", \#(condition)\#(extra)}"#
            }
            text += "]}"
        }
        text += "]}"
        return try! Flow.load(bytes: Array(text.utf8), limits: limits)
    }

    /// A session on the middle page of `flow`.
    public static func middleSession(_ flow: Flow) -> Session {
        var session = Session(flow: flow)
        let middle = flow.pages.count / 2
        if middle > 0 { session.send(.tap(.indicatorPage(middle))) }
        precondition(session.stateValue("page")?["index"] == .number(Double(middle)), "not on the middle page")
        return session
    }

    /// A session on the middle page with its last text field focused holding `text`.
    public static func typingSession(_ flow: Flow, text: String) -> Session {
        var session = middleSession(flow)
        let page = flow.pages.count / 2
        session.send(.tap(.field("f\(page)_9")))
        session.send(.type(text))
        precondition(session.focusedField == "f\(page)_9", "no field focused")
        return session
    }

    /// A session whose text fields are all answered (`answer <n>`), on the first page.
    public static func answeredSession(_ flow: Flow) -> Session {
        var session = Session(flow: flow)
        var buffer: [SessionNotification] = []
        for page in 0..<flow.pages.count {
            if page > 0 { session.send(.tap(.indicatorPage(page)), into: &buffer) }
            for field in 1..<10 {
                session.send(.tap(.field("f\(page)_\(field)")), into: &buffer)
                session.send(.type("answer \(page * 10 + field)"), into: &buffer)
            }
        }
        session.send(.tap(.background), into: &buffer)
        session.send(.tap(.indicatorPage(0)), into: &buffer)
        precondition(session.value(of: "f0_1") == .string("answer 1"), "fields not answered")
        return session
    }

    /// The repository (for its demo flow).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path  // Benchmarks/Sources/QuireWorkloads/

    /// A folder of `count` generated scripts of 50 steps against the demo walkthrough, as
    /// `quire generate-sessions --seed 1` writes them. Written once by each process that asks
    /// (a benchmark's closure runs for every iteration, and asks each time), never reused from an
    /// earlier process: their expectations are recorded from the engine, so scripts kept from an
    /// older build (before a behaviour change) would fail against this one.
    public static func scripts(count: Int) -> String {
        GeneratedScripts.shared.folder(count: count) { folder in
            try? FileManager.default.removeItem(atPath: folder)
            try! ScriptGenerator.generate(
                flowPath: repository + "/data/flows/focus-onboarding.json", count: count, steps: 50, seed: 1, into: folder)
        }
    }

    /// The pages of the loading row's flow: 2,000 (about 20 MB), 500 in the short run.
    public static let largePages = short ? 500 : 2_000
    public static let largeFlow = largeFlowBytes(pages: largePages)

    /// The ~20 MB flow of the loading row: `pages` pages of 25 fields (text, choice, duration and
    /// toggle), every display string in four languages.
    public static func largeFlowBytes(pages: Int = 2_000) -> [UInt8] {
        func localized(_ english: String) -> String {
            #"{"en": "\#(english)", "ja": "日本語の\#(english)", "de": "Deutsch \#(english)", "zh-Hant-TW": "中文 \#(english)"}"#
        }
        var text = #"{"format": "quire.flow/1", "id": "large", "title": \#(localized("A large flow")), "pages": ["#
        for page in 0..<pages {
            if page > 0 { text += ",\n" }
            text +=
                #"{"id": "p\#(page)", "title": \#(localized("Page \(page)")), "body": \#(localized("Questions of page \(page), please answer them all")), "fields": ["#
            for field in 0..<25 {
                if field > 0 { text += ",\n  " }
                let id = "f\(page)_\(field)"
                switch field % 5 {
                case 0:
                    text += #"{"id": "\#(id)", "kind": "toggle", "label": \#(localized("Toggle \(field)")), "default": false}"#
                case 1:
                    text +=
                        #"{"id": "\#(id)", "kind": "choice", "label": \#(localized("Choice \(field)")), "options": [{"id": "a", "label": \#(localized("First"))}, {"id": "b", "label": \#(localized("Second"))}, {"id": "c", "label": \#(localized("Third"))}]}"#
                case 2:
                    text +=
                        #"{"id": "\#(id)", "kind": "duration", "label": \#(localized("Duration \(field)")), "default": 1800, "minuteInterval": 5}"#
                default:
                    text +=
                        #"{"id": "\#(id)", "kind": "text", "label": \#(localized("Text \(field)")), "placeholder": \#(localized("Type here")), "required": true, "maxLength": 200, "visibleIf": {"field": "f\#(page)_0", "equals": false}}"#
                }
            }
            text += "]}"
        }
        text += "]}"
        return Array(text.utf8)
    }
}

/// The flow format as Foundation's `JSONDecoder` reads it: every key the large flow uses, with
/// display strings that are a string or an object of languages (the JSONDecoder baseline).
public struct DecodableFlow: Decodable {
    public struct Text: Decodable {
        var value: [String: String]
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let plain = try? container.decode(String.self) {
                value = ["": plain]
            } else {
                value = try container.decode([String: String].self)
            }
        }
    }
    struct Option: Decodable {
        var id: String
        var label: Text
    }
    struct Condition: Decodable {
        var field: String
        var equals: Bool
    }
    struct Field: Decodable {
        var id: String
        var kind: String
        var label: Text?
        var placeholder: Text?
        var required: Bool?
        var maxLength: Int?
        var minuteInterval: Int?
        var options: [Option]?
        var visibleIf: Condition?
    }
    struct Page: Decodable {
        var id: String
        var title: Text?
        var body: Text?
        var fields: [Field]?
    }
    var format: String
    var id: String
    var title: Text?
    var pages: [Page]
}

/// Hostile inputs whose cost was once quadratic (scripts/hostile-inputs has them as files): their
/// times are benchmark rows, set against parsing the same bytes.
public enum Hostile {
    static let textFlow =
        #"{"format": "quire.flow/1", "id": "t", "paging": {"animationMs": 0}, "pages": [{"id": "p", "fields": [{"id": "note", "kind": "text"}]}]}"#

    static func script(_ steps: [String]) -> [UInt8] {
        Array(#"{"format": "quire.session/1", "flow": \#(textFlow), "steps": [\#(steps.joined(separator: ","))]}"#.utf8)
    }

    /// 50,000 keystrokes, then an `expectEmitted` of 25,000 `valueChanged` and a `focusChanged`
    /// that misses: trying every start would cost 25,000 × 25,000 comparisons.
    public static let halfNames = script(
        [#"{"tap": "note"}"#] + Array(repeating: #"{"type": "a"}"#, count: 50_000)
            + [
                #"{"expectEmitted": ["# + Array(repeating: #""valueChanged""#, count: 25_000).joined(separator: ",")
                    + #", "focusChanged"]}"#
            ])

    /// 20 unknown state keys and 20 unknown tap targets of 65,000 characters (bad input).
    public static let longNames: [UInt8] = {
        let key = String(repeating: "x", count: 65_000)
        return script(
            (0..<20).map { #"{"expect": {"\#(key)\#($0)": 1}}"# } + (0..<20).map { #"{"tap": "\#(key)\#($0)"}"# })
    }()

    /// A flow with 5,000 unknown keys (a problem each; the first 100 listed).
    public static let manyProblems: [UInt8] = {
        let fields = (0..<5000).map { #"{"id": "f\#($0)", "kind": "text", "colour": 1}"# }.joined(separator: ",")
        return Array(#"{"format": "quire.flow/1", "id": "x", "pages": [{"id": "p", "fields": [\#(fields)]}]}"#.utf8)
    }()

    /// A word of 65,000 characters and 51 candidates, one of them 64,999 characters.
    public static let hugeWord = String(repeating: "x", count: 65_000)
    public static let candidates = (0..<50).map { "candidate\($0)" } + [String(repeating: "x", count: 64_999)]
}

/// The script folders this process has written (`Workloads.scripts`), by count.
private final class GeneratedScripts: @unchecked Sendable {
    static let shared = GeneratedScripts()
    private let lock = NSLock()
    private var written: Set<Int> = []

    /// The folder for `count` scripts, written by `write` the first time this process asks.
    func folder(count: Int, write: (String) -> Void) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bench-scripts-\(count)").path
        lock.withLock {
            if written.insert(count).inserted { write(folder) }
        }
        return folder
    }
}
