import Foundation
import QuireCore
import Testing

@testable import QuireHarness

let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let fixtures = testsFolder.appendingPathComponent("Fixtures")
let golden = testsFolder.appendingPathComponent("Golden")

@Suite struct MatcherTests {
    func mismatches(_ expected: JSONValue, _ actual: JSONValue) -> [String] {
        var found: [Mismatch] = []
        Matcher.match(expected: expected, actual: actual, at: .root, into: &found)
        return found.map(\.description)
    }

    @Test func keysLeftOutAreNotChecked() {
        #expect(mismatches(["a": 1], ["a": 1, "b": 2]).isEmpty)
    }

    @Test func objectsMatchRecursively() {
        #expect(mismatches(["a": ["b": 1]], ["a": ["b": 2, "c": 3]]) == ["$.a.b: expected 1, got 2"])
    }

    @Test func aMissingKeyIsAMismatch() {
        #expect(mismatches(["a": ["z": 1]], ["a": ["b": 2]]) == ["$.a.z: expected 1, got (no such key)"])
    }

    @Test func arraysMustBeEqualWhole() {
        #expect(mismatches(["a": [1, 2]], ["a": [1, 2, 3]]) == ["$.a: expected [1,2], got [1,2,3]"])
        #expect(mismatches(["a": [["x": 1]]], ["a": [["x": 1, "y": 2]]]).count == 1)
    }

    @Test func numbersMatchWithinOneBillionth() {
        #expect(mismatches(["p": 0.875], ["p": .number(0.875 + 5e-10)]).isEmpty)
        #expect(mismatches(["p": 0.875], ["p": .number(0.875 + 2e-9)]).count == 1)
    }

    @Test func nullMustBeNull() {
        #expect(mismatches(["focus": nil], ["focus": "name"]) == [#"$.focus: expected null, got "name""#])
        #expect(mismatches(["focus": "name"], ["focus": nil]) == [#"$.focus: expected "name", got null"#])
    }

    @Test func anEmptyObjectOrArrayMustBeEmpty() {
        #expect(mismatches(["errors": [:]], ["errors": ["name": "required"]]).count == 1)
        #expect(mismatches(["errors": [:]], ["errors": [:]]).isEmpty)
        #expect(mismatches(["list": []], ["list": [1]]).count == 1)
    }

    @Test func expectEmittedWantsAContiguousRunInOrder() {
        let window: [SessionNotification] = [
            .pageWillChange(from: 0, to: 1), .inputDismissed(field: "a", committed: true), .valueChanged(field: "a", value: 3),
            .focusChanged(from: "a", to: nil), .pageDidChange(from: 0, to: 1, completed: true),
        ]
        func names(_ list: String...) -> [EmittedPattern] { list.map { EmittedPattern(name: $0, payload: nil) } }
        #expect(Runner.containsRun(window, names("inputDismissed", "valueChanged")))
        #expect(!Runner.containsRun(window, names("inputDismissed", "focusChanged")))
        #expect(!Runner.containsRun(window, names("valueChanged", "inputDismissed")))
        #expect(Runner.containsRun([], []))
        #expect(!Runner.containsRun([.completed(outcome: .finished)], []))
    }

    @Test func expectEmittedMatchesPayloadsPartially() {
        let window: [SessionNotification] = [
            .ignored(event: "tap", target: "button:back", reason: .disabled), .pageDidChange(from: 0, to: 1, completed: false),
        ]
        #expect(Runner.containsRun(window, [EmittedPattern(name: "ignored", payload: (["reason": "disabled"] as JSONValue).objectValue)]))
        #expect(!Runner.containsRun(window, [EmittedPattern(name: "ignored", payload: (["reason": "atEnd"] as JSONValue).objectValue)]))
        #expect(
            Runner.containsRun(window, [EmittedPattern(name: "pageDidChange", payload: (["completed": false] as JSONValue).objectValue)]))
    }

    @Test func objectMismatchesAreShownAsADiff() {
        let lines = Report.describe(Mismatch(path: .root + "errors", expected: [:], actual: ["name": "required"]))
        #expect(lines == ["$.errors: expected (-) and actual (+) differ:", "  - {}", "  + {", #"  +   "name": "required""#, "  + }"])
    }
}

@Suite struct ScriptLoaderTests {
    func diagnostics(_ text: String, file: String = "s.json") -> [String] {
        switch ScriptLoader.load(bytes: Array(text.utf8), file: fixtures.appendingPathComponent("mixed/\(file)").path, flows: FlowCache()) {
        case .bad(let diagnostics): diagnostics.map { "\($0.position): \($0.path): \($0.message)" }
        case .script: ["(loaded)"]
        case .notAScript: ["(not a script)"]
        }
    }

    @Test func anotherFormatIsNotAScript() {
        #expect(diagnostics(#"{"format": "quire.flow/1"}"#) == ["(not a script)"])
        #expect(diagnostics(#"{"anything": 1}"#) == ["(not a script)"])
    }

    @Test func anUnknownVersionOrAMissingFormatIsBadInput() {
        #expect(
            diagnostics(#"{"format": "quire.session/2", "flow": "x", "steps": []}"#)
                == ["1:12: $.format: unknown format version 'quire.session/2'; this Quire reads 'quire.session/1'"])
        #expect(diagnostics(#"{"flow": "x", "steps": []}"#) == [#"1:1: $: a session script needs "format": "quire.session/1""#])
    }

    @Test func aFlowThatCannotBeLoadedIsBadInputWithItsOwnProblems() {
        let lines = diagnostics(#"{"format": "quire.session/1", "flow": "../flows/missing.json", "steps": []}"#)
        #expect(lines.first == "1:39: $.flow: the flow '../flows/missing.json' cannot be loaded (its problems follow)")
        #expect(lines.last?.hasSuffix("cannot read the file: it does not exist") == true)
    }

    @Test func anInlineFlowIsValidatedInPlace() {
        let lines = diagnostics(#"{"format": "quire.session/1", "flow": {"format": "quire.flow/1", "id": "f", "pages": []}, "steps": []}"#)
        #expect(lines == ["1:86: $.flow.pages: a flow needs at least one page"])
    }

    @Test func stepsAreCheckedAgainstTheContractAndTheFlow() {
        let lines = diagnostics(
            #"""
            {"format": "quire.session/1", "flow": "../flows/mini.json", "steps": [
              {"tap": "name", "type": "x"}, {"key": "Enter"}, {"spin": {"component": "days", "by": 1}},
              {"select": "zzz"}, {"expectEmitted": ["valueChange"]}, {"expect": {"errors": {"name": "requird"}}},
              {"tick": -5}, {"restart": false}, 3]}
            """#)
        #expect(
            lines == [
                "2:3: $.steps[0]: a step has exactly one key, not 2 (tap, type)",
                "2:41: $.steps[1].key: unknown key 'Enter'; keys are Tab, shift+Tab, Return, Escape, BackSpace, Up, Down, Left, Right, Page_Up, Page_Down, Home, End",
                "2:74: $.steps[2].spin.component: unknown wheel 'days'; wheels are hours, minutes, seconds",
                "3:14: $.steps[3].select: no choice field of the flow has the option 'zzz'",
                "3:41: $.steps[4].expectEmitted[0]: unknown notification 'valueChange'; did you mean 'valueChanged'?",
                "3:89: $.steps[5].expect.errors.name: 'requird' is not an error code (required, minLength, maxLength, min, max)",
                "4:12: $.steps[6].tick: 'tick' takes milliseconds from 0 to 3600000, not -5",
                "4:29: $.steps[7].restart: 'restart' takes true",
                "4:37: $.steps[8]: a step must be an object with one key, not a number",
            ])
    }
}

@Suite struct RunnerTests {
    func run(_ text: String) -> ScriptResult {
        guard
            case .script(let script) = ScriptLoader.load(
                bytes: Array(text.utf8), file: fixtures.appendingPathComponent("mixed/x.json").path, flows: FlowCache())
        else {
            Issue.record("the script did not load")
            return ScriptResult(file: "", name: "", status: .skipped, milliseconds: 0)
        }
        return Runner.run(script, options: Runner.Options(recordSteps: true, trace: true))
    }

    @Test func aFailureNamesTheStepThePathTheExpectedAndTheActualValue() {
        let result = run(
            #"{"format": "quire.session/1", "flow": "../flows/mini.json", "steps": [{"tap": "name"}, {"type": "Ak"}, {"expect": {"values": {"name": "Aki"}}}, {"tap": "background"}]}"#
        )
        guard case .failed(let failure) = result.status else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.step == 3)
        #expect(failure.location.hasSuffix("mixed/x.json:1:104"))
        #expect(failure.stepJSON == #"{"expect":{"values":{"name":"Aki"}}}"#)
        #expect(failure.lines == [#"$.values.name: expected "Aki", got "Ak""#])
        #expect(failure.recent.map(\.notifications) == [["focusChanged", "inputPresented"], ["valueChanged"]])
        #expect(result.steps.count == 3)  // it stopped at the failing step
    }

    @Test func restartKeepsTheStateAndTheNotificationWindow() {
        let result = run(
            #"{"format": "quire.session/1", "flow": "../flows/mini.json", "steps": [{"tap": "pick"}, {"select": "y"}, {"restart": true}, {"expect": {"focus": "pick", "input": {"draft": "y"}}}, {"expectEmitted": ["inputPresented", "draftChanged"]}]}"#
        )
        if case .failed(let failure) = result.status { Issue.record("\(failure.lines)") }
    }

    @Test func aTraceHoldsEveryStepWithItsNotificationsAndStateDiff() {
        let result = run(
            #"{"format": "quire.session/1", "flow": "../flows/mini.json", "steps": [{"tap": "name"}, {"type": "A"}, {"expect": {"focus": null}}]}"#
        )
        let trace = result.trace!
        #expect(trace.failingStep == 3)
        #expect(trace.steps.count == 3)
        #expect(trace.steps[1].notifications == [["valueChanged": ["field": "name", "value": "A"]]])
        #expect(trace.steps[1].diff.map(\.description) == [#"$.values.name: null → "A""#])
        let html = trace.html(file: "x.json", name: "n", status: "failed")
        #expect(html.contains(#"<li id="step-3" class="fail">"#))
        #expect(html.contains("location.hash='step-3'"))
    }
}
