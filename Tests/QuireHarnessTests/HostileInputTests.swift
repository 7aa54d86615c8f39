import Foundation
import QuireCore
import Testing

@testable import QuireHarness
import QuireTestSupport

/// Scripts made to hurt: long texts, hours of auto-advance, huge lists. Each either passes in
/// bounded memory and linear time or is reported over a limit, and never takes the run down.
@Suite struct HostileInputTests {
    static let textFlow = #"""
        {"format": "quire.flow/1", "id": "t", "paging": {"animationMs": 0},
         "pages": [{"id": "p", "fields": [{"id": "note", "kind": "text"}]}]}
        """#
    /// A tour that wraps, turning its pages every 3 s with a 200 ms move: 2,250 notifications an hour.
    static let tourFlow = #"""
        {"format": "quire.flow/1", "id": "tour", "paging": {"wrap": true, "animationMs": 200, "autoAdvanceMs": 3000},
         "pages": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}
        """#

    func script(_ flow: String, _ steps: [String]) -> String {
        #"{"format": "quire.session/1", "flow": \#(flow), "steps": [\#(steps.joined(separator: ","))]}"#
    }

    func load(_ text: String, limits: ScriptLimits = .default) -> ScriptLoad {
        ScriptLoader.load(bytes: Array(text.utf8), file: "hostile.json", flows: FlowCache(), limits: limits)
    }

    func run(_ text: String, limits: ScriptLimits = .default, trace: Bool = false, sourceLocation: SourceLocation = #_sourceLocation)
        -> ScriptResult
    {
        guard case .script(let script) = load(text, limits: limits) else {
            Issue.record("the script did not load: \(load(text, limits: limits))", sourceLocation: sourceLocation)
            return ScriptResult(file: "", name: "", status: .skipped, milliseconds: 0)
        }
        var options = Runner.Options(trace: trace)
        options.limits = limits
        return Runner.run(script, options: options)
    }

    func failureLines(_ result: ScriptResult) -> [String] {
        if case .failed(let failure) = result.status { return failure.lines }
        return []
    }

    func badLines(_ result: ScriptResult) -> [String] {
        if case .bad(let diagnostics) = result.status { return diagnostics.map(\.description) }
        return []
    }

    func passed(_ result: ScriptResult) -> Bool {
        if case .passed = result.status { return true }
        return false
    }

    /// Under a sanitizer (scripts/sanitize) memory is not measured: AddressSanitizer keeps freed
    /// memory in quarantine (256 MiB) and a shadow of every byte, so peaks say nothing about Quire.
    /// The bounds are checked in the normal run.
    static let sanitized = ProcessInfo.processInfo.environment["QUIRE_SANITIZER_BUILD"] == "1"

    /// The peak resident memory of this process so far, in bytes.
    static func peakMemory(children: Bool = false) -> Int {
        var usage = rusage()
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    // MARK: Row 14: memory

    @Test func twentyThousandInsertionsWithoutMaxLengthRunInBoundedMemory() {
        let chunk = #"{"type": "abcdefghijklmnopqrstuvwxyz012345"}"#
        // The window of the last expectEmitted asks about a payload, the heavier case.
        let text = script(
            Self.textFlow,
            [#"{"tap": "note"}"#] + Array(repeating: chunk, count: 20_000)
                + [#"{"expectEmitted": [{"valueChanged": {"field": "note"}}, "valueChanged"]}"#])
        let before = Self.peakMemory()
        let result = run(text)
        #expect(passed(result), "\(failureLines(result))")
        // Each kept notification held its own copy of the text: 3.9 GiB at the peak.
        #expect(Self.sanitized || Self.peakMemory() - before < 300 << 20)
    }

    @Test func aTraceCutsLongStringsAndKeepsBoundedDetail() {
        var limits = ScriptLimits.default
        limits.traceChanges = 50
        limits.traceNotificationsPerStep = 3
        limits.traceNotifications = 40
        let long = String(repeating: "é", count: 1500)
        let text = script(
            Self.textFlow, [#"{"tap": "note"}"#, #"{"type": "\#(long)"}"#] + Array(repeating: #"{"type": "a"}"#, count: 100))
        let trace = run(text, limits: limits, trace: true).trace!
        #expect(trace.steps.count == 102)
        let cut = "\"" + String(repeating: "é", count: 200) + "…(2600 more bytes)\""
        #expect(trace.steps[1].diff.map(\.description) == ["$.values.note: null → \(cut)"])
        #expect(
            trace.steps[1].notifications == [
                ["valueChanged": ["field": "note", "value": .string(String(repeating: "é", count: 200) + "…(2600 more bytes)")]]
            ])
        #expect(trace.steps.map(\.diff.count).reduce(0, +) == 50)
        #expect(trace.steps.last?.omittedChanges == 1)
        #expect(trace.steps.map(\.notifications.count).reduce(0, +) == 40)
        let json = JSONWriter.string(trace.json(file: "x.json", name: "n", status: "passed"))
        #expect(json.contains(#""omittedNotifications":1"#) && json.contains(#""omittedChanges":1"#))
        #expect(
            trace.html(file: "x.json", name: "n", status: "passed").contains("… and 1 more state changes (not kept: the trace's limit)"))

        // Many notifications in one step: the trace keeps a few per step.
        let tour = script(Self.tourFlow, [#"{"tick": 3600000}"#])
        let steps = run(tour, limits: limits, trace: true).trace!.steps
        #expect(steps[0].notifications.count == 3)
        #expect(steps[0].omittedNotifications == 2250 - 3)
    }

    @Test func hoursOfAutoAdvanceRunInBoundedMemory() {
        let text = script(Self.tourFlow, Array(repeating: #"{"tick": 3600000}"#, count: 300) + [#"{"expect": {"completed": null}}"#])
        let before = Self.peakMemory()
        #expect(passed(run(text)))
        #expect(Self.sanitized || Self.peakMemory() - before < 100 << 20)
    }

    // MARK: Row 14: limits

    @Test func aScriptOverTheNotificationLimitIsBadInputAtTheStepThatWentOver() {
        var limits = ScriptLimits.default
        limits.notifications = 10_000
        let text = script(Self.tourFlow, Array(repeating: #"{"tick": 3600000}"#, count: 50))
        // 2,250 notifications an hour: the fifth hour goes over.
        #expect(
            badLines(run(text, limits: limits)) == [
                "hostile.json:2:135: $.steps[4]: over a limit: the script's events have emitted 11250 notifications; a script may emit at most 10000"
            ])
    }

    @Test func notificationsAreKeptOnlyForAnExpectEmittedThatWillReadThem() {
        var limits = ScriptLimits.default
        limits.window = 100
        let typing = Array(repeating: #"{"type": "a"}"#, count: 150)
        // No expectEmitted reads them: nothing is kept, nothing goes over.
        #expect(
            passed(
                run(
                    script(Self.textFlow, [#"{"tap": "note"}"#, #"{"expectEmitted": ["focusChanged", "inputPresented"]}"#] + typing),
                    limits: limits)))
        // An expectEmitted at the end would read 151 notifications: over the limit at the 101st.
        let lines = badLines(run(script(Self.textFlow, [#"{"tap": "note"}"#] + typing + [#"{"expectEmitted": []}"#]), limits: limits))
        #expect(lines.count == 1)
        #expect(
            lines.first?.hasSuffix(
                "$.steps[99]: over a limit: 101 notifications are waiting for the next expectEmitted; at most 100 are kept (check them sooner)"
            ) == true)
    }

    @Test func aScriptOverTheStepLimitIsBadInputWhenItIsRead() {
        var limits = ScriptLimits.default
        limits.steps = 10
        guard case .bad(let diagnostics) = load(script(Self.textFlow, Array(repeating: #"{"tick": 0}"#, count: 11)), limits: limits) else {
            Issue.record("expected bad input")
            return
        }
        #expect(
            diagnostics.map(\.description) == [
                "hostile.json:2:80: $.steps: over a limit: the script has 11 steps; a script has at most 10 (split it)"
            ])
        #expect(
            {
                if case .script = load(script(Self.textFlow, Array(repeating: #"{"tick": 0}"#, count: 10)), limits: limits) {
                    true
                } else {
                    false
                }
            }())
    }

    @Test func aFailureListsAtMostAHundredNotifications() {
        let text = script(
            Self.textFlow, [#"{"tap": "note"}"#] + Array(repeating: #"{"type": "a"}"#, count: 298) + [#"{"expectEmitted": ["completed"]}"#])
        let line = failureLines(run(text)).first ?? ""
        let names = ["focusChanged", "inputPresented"] + Array(repeating: "valueChanged", count: 48)
        #expect(
            line
                == "expected [completed] as a contiguous run among the notifications since the previous expectEmitted; got 300 notifications: ["
                + names.joined(separator: ", ") + ", … 200 more …, " + Array(repeating: "valueChanged", count: 50).joined(separator: ", ")
                + "]")
        // With payloads asked about, the first and the last 50 are listed whole.
        let detailed = script(
            Self.textFlow,
            [#"{"tap": "note"}"#] + (1...298).map { _ in #"{"type": "a"}"# } + [
                #"{"expectEmitted": [{"completed": {"outcome": "finished"}}]}"#
            ])
        let detailedLine = failureLines(run(detailed)).first ?? ""
        #expect(
            detailedLine.contains(
                #"got 300 notifications: [{"focusChanged":{"from":null,"to":"note"}}, {"inputPresented":{"field":"note","view":"keyboard"}}, {"valueChanged":{"field":"note","value":"a"}}"#
            ))
        // Strings in them are cut after 200 characters.
        let value = { (length: Int) in
            String(repeating: "a", count: min(length, 200)) + (length > 200 ? "…(\(length - 200) more bytes)" : "")
        }
        #expect(
            detailedLine.hasSuffix(
                #"… 200 more …, "#
                    + (249...298).map { #"{"valueChanged":{"field":"note","value":"\#(value($0))"}}"# }.joined(separator: ", ") + "]"))
    }

    @Test func aFailingEventListsAFewOfItsNotifications() {
        let text = script(Self.tourFlow, [#"{"tick": 3600000}"#, #"{"expect": {"completed": {}}}"#])
        guard case .failed(let failure) = run(text).status else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.recent.first?.notifications.count == 21)
        #expect(failure.recent.first?.notifications.last == "… 2230 more")
    }

    @Test func aRunWithHostileScriptsStillRunsAndCountsTheOthers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let chunk = #"{"type": "abcdefghijklmnopqrstuvwxyz012345"}"#
        try Data(
            script(
                Self.textFlow, [#"{"tap": "note"}"#] + Array(repeating: chunk, count: 20_000) + [#"{"expectEmitted": ["valueChanged"]}"#]
            ).utf8
        )
        .write(to: folder.appendingPathComponent("a-long-text.json"))
        try Data(script(Self.textFlow, Array(repeating: #"{"tick": 0}"#, count: 100_001)).utf8)
            .write(to: folder.appendingPathComponent("b-too-many-steps.json"))
        try Data(script(Self.textFlow, [#"{"tap": "note"}"#, #"{"type": "hi"}"#, #"{"expect": {"values": {"note": "hi"}}}"#]).utf8)
            .write(to: folder.appendingPathComponent("c-small.json"))
        let run = try runProcess(CommandTests.binary, ["test", "--plain", "--quiet", folder.path])
        let stdout = run.stdout
        #expect(run.status == 2)
        #expect(stdout.hasSuffix("2 passed, 0 failed, 1 bad\n"), "\(stdout)")
        #expect(
            stdout.contains(
                "b-too-many-steps.json:2:80: $.steps: over a limit: the script has 100001 steps; a script has at most 100000 (split it)"))
        // The largest child this test process has waited for (every quire run of the suite).
        #expect(Self.sanitized || Self.peakMemory(children: true) < 1 << 30)
    }

    // MARK: Row 15: linear time

    func pattern(_ name: String, _ payload: JSONValue? = nil) -> EmittedPattern {
        EmittedPattern(name: name, payload: payload?.objectValue)
    }

    /// The quadratic reference: try every start.
    func naiveRun(_ window: [SessionNotification], _ patterns: [EmittedPattern]) -> Bool {
        if patterns.isEmpty { return window.isEmpty }
        guard patterns.count <= window.count else { return false }
        return (0...(window.count - patterns.count)).contains { start in
            patterns.indices.allSatisfy { patterns[$0].matches(window[start + $0]) }
        }
    }

    @Test func containsRunAgreesWithTheQuadraticReference() {
        var generator = SplitMix64(seed: 0xC0FFEE)
        let pool: [SessionNotification] = [
            .valueChanged(field: "a", value: 1), .valueChanged(field: "b", value: 1), .valueChanged(field: "a", value: 2),
            .focusChanged(from: nil, to: "a"), .draftChanged(field: "a", draft: "x"),
        ]
        let patterns: [EmittedPattern] = [
            EmittedPattern(name: "valueChanged", payload: nil), pattern("valueChanged", ["field": "a"]),
            pattern("valueChanged", ["value": 2]), EmittedPattern(name: "focusChanged", payload: nil),
            pattern("draftChanged", ["draft": "x"]),
        ]
        for _ in 0..<2000 {
            let window = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
            let list = (0..<Int.random(in: 0...4, using: &generator)).map { _ in patterns.randomElement(using: &generator)! }
            #expect(Runner.containsRun(window, list) == naiveRun(window, list), "\(window.map(\.json)) \(list)")
        }
    }

    @Test func anExpectEmittedOfFiftyThousandNamesIsLinear() {
        let window = [SessionNotification](repeating: .valueChanged(field: "a", value: 1), count: 50_000)
        let names = { (count: Int) in [EmittedPattern](repeating: EmittedPattern(name: "valueChanged", payload: nil), count: count) }
        // Trying every start costs 25,000 × 25,000 comparisons here; KMP costs 75,000 (its time
        // is a row of the benchmark suite, Benchmarks/).
        #expect(!Runner.containsRun(window, names(25_000) + [EmittedPattern(name: "focusChanged", payload: nil)]))
        #expect(Runner.containsRun(window, names(49_999)))
        #expect(!Runner.containsRun(window, names(50_001)))
        // Payload patterns are checked where the names match.
        #expect(Runner.containsRun(window, names(20_000) + [pattern("valueChanged", ["field": "a"])]))
    }

    @Test func aScriptWithThousandsOfProblemsListsAHundredAndCountsTheRest() {
        let text = script(Self.textFlow, Array(repeating: #"{"tapp": "note"}"#, count: 5000))
        guard case .bad(let diagnostics) = load(text) else {
            Issue.record("expected bad input")
            return
        }
        #expect(diagnostics.count == 101)
        #expect(diagnostics.first?.message == "unknown step 'tapp'; did you mean 'tap'?")
        #expect(diagnostics.last?.description == "hostile.json: … and 4900 more problems (a file lists its first 100)")
    }

    @Test func unknownNamesOfSixtyFiveThousandCharactersAreRejectedQuickly() {
        let key = String(repeating: "x", count: 65_000)
        let text = script(
            Self.textFlow, (0..<20).map { #"{"expect": {"\#(key)\#($0)": 1}}"# } + (0..<20).map { #"{"tap": "\#(key)\#($0)"}"# })
        guard case .bad(let diagnostics) = load(text) else {
            Issue.record("expected bad input")
            return
        }
        #expect(diagnostics.count == 40)
        // No hint for a name too long to be a misspelling (each "did you mean" compared all 65,000
        // characters before; the time is a row of the benchmark suite).
        #expect(diagnostics.allSatisfy { !$0.message.contains("did you mean") })
    }
}
