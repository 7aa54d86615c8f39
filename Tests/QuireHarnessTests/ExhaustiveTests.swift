import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// `expectExactly` and `expectEmittedExactly`: the exhaustive forms, as TCA's TestStore is
/// exhaustive. A value named is whole; the notifications since the last check are exactly these.
@Suite struct ExhaustiveTests {
    func mismatches(_ expected: JSONValue, _ actual: JSONValue) -> [String] {
        var found: [Mismatch] = []
        Matcher.matchExactly(expected: expected, actual: actual, at: .root, into: &found)
        return found.map(\.description)
    }

    @Test func anExtraKeyAtAnyDepthIsNamed() {
        #expect(mismatches(["a": 1], ["a": 1]).isEmpty)
        #expect(mismatches(["a": 1], ["a": 1, "b": 2]) == ["$.b: expected (no such key), got 2"])
        #expect(mismatches(["a": ["b": 1]], ["a": ["b": 1, "c": 3]]) == ["$.a.c: expected (no such key), got 3"])
        #expect(mismatches(["a": [["x": 1]]], ["a": [["x": 1, "y": 2]]]) == ["$.a[0].y: expected (no such key), got 2"])
        #expect(
            mismatches(["a": ["z": 1]], ["a": ["b": 2]]) == [
                "$.a.z: expected 1, got (no such key)", "$.a.b: expected (no such key), got 2",
            ])
    }

    @Test func scalarsArraysAndNumbersMatchAsInExpect() {
        #expect(mismatches(["p": 0.875], ["p": .number(0.875 + 5e-10)]).isEmpty)
        #expect(mismatches(["a": [1, 2]], ["a": [1, 2, 3]]) == ["$.a: expected [1,2], got [1,2,3]"])
        #expect(mismatches(["focus": nil], ["focus": "name"]) == [#"$.focus: expected null, got "name""#])
        #expect(
            mismatches(["errors": [:]], ["errors": ["name": "required"]]) == [#"$.errors.name: expected (no such key), got "required""#])
    }

    func run(_ steps: String, flow: String = #""../flows/mini.json""#) -> ScriptResult {
        let text = #"{"format": "quire.session/1", "flow": \#(flow), "steps": [\#(steps)]}"#
        guard
            case .script(let script) = ScriptLoader.load(
                bytes: Array(text.utf8), file: fixtures.appendingPathComponent("mixed/x.json").path, flows: FlowCache())
        else {
            Issue.record("the script did not load")
            return ScriptResult(file: "", name: "", status: .skipped, milliseconds: 0)
        }
        return Runner.run(script)
    }

    /// The failure's lines, without the rules that explain it (`ExplainTests` checks those).
    func failure(_ steps: String, flow: String = #""../flows/mini.json""#) -> [String] {
        if case .failed(let failure) = run(steps, flow: flow).status { return failure.lines.filter { !$0.hasPrefix("why: ") } }
        return ["(passed)"]
    }

    static let twoRequired = #"""
        {"format": "quire.flow/1", "id": "two", "paging": {"animationMs": 0, "gate": "valid"},
         "pages": [{"id": "p", "fields": [{"id": "a", "kind": "text", "required": true}, {"id": "b", "kind": "text", "required": true}]},
                   {"id": "q"}]}
        """#

    @Test func expectExactlyRejectsAnErrorOrAKeyItDidNotName() {
        // The partial form passes with one error named; the exhaustive one names the other.
        let refused = #"{"tap": "button:next"}"#
        #expect(failure(refused + #", {"expect": {"errors": {"a": "required"}}}"#, flow: Self.twoRequired) == ["(passed)"])
        #expect(
            failure(refused + #", {"expectExactly": {"errors": {"a": "required"}}}"#, flow: Self.twoRequired)
                == [#"$.errors.b: expected (no such key), got "required""#])
        #expect(
            failure(refused + #", {"expectExactly": {"errors": {"a": "required", "b": "required"}}}"#, flow: Self.twoRequired) == [
                "(passed)"
            ])
        #expect(
            failure(#"{"tap": "name"}, {"expectExactly": {"input": {"field": "name", "view": "keyboard"}}}"#).first
                == #"$.input.returnKey: expected (no such key), got "next""#)
        #expect(
            failure(#"{"tap": "name"}, {"expectExactly": {"focus": "name", "errors": {"name": "required"}}}"#)
                == [#"$.errors.name: expected "required", got (no such key)"#])
        // A key absent from the state is asserted absent by leaving it out.
        #expect(failure(#"{"tap": "name"}, {"type": "A"}, {"expectExactly": {"values": {"name": "A", "pick": null}}}"#) == ["(passed)"])
    }

    @Test func expectEmittedExactlyWantsTheWholeWindowInOrder() {
        let tap = #"{"tap": "name"}, {"type": "A"}, "#
        #expect(failure(tap + #"{"expectEmittedExactly": ["focusChanged", "inputPresented", "valueChanged"]}"#) == ["(passed)"])
        #expect(
            failure(tap + #"{"expectEmittedExactly": ["focusChanged", "inputPresented", {"valueChanged": {"value": "A"}}]}"#) == [
                "(passed)"
            ])
        // The partial form accepts a run inside; the exhaustive one names what is extra.
        #expect(failure(tap + #"{"expectEmitted": ["inputPresented"]}"#) == ["(passed)"])
        #expect(
            failure(tap + #"{"expectEmittedExactly": ["focusChanged", "inputPresented"]}"#) == [
                "expected exactly [focusChanged, inputPresented] since the previous expectEmitted; got [focusChanged, inputPresented, valueChanged]: valueChanged (notification 3) was not expected"
            ])
        #expect(
            failure(tap + #"{"expectEmittedExactly": ["inputPresented", "valueChanged"]}"#) == [
                "expected exactly [inputPresented, valueChanged] since the previous expectEmitted; got [focusChanged, inputPresented, valueChanged]: notification 1 is focusChanged, expected inputPresented"
            ])
        #expect(
            failure(tap + #"{"expectEmittedExactly": ["focusChanged", "inputPresented", "valueChanged", "focusChanged"]}"#) == [
                "expected exactly [focusChanged, inputPresented, valueChanged, focusChanged] since the previous expectEmitted; got [focusChanged, inputPresented, valueChanged]: focusChanged (entry 4) was not emitted"
            ])
        #expect(
            failure(tap + #"{"expectEmittedExactly": ["focusChanged", "inputPresented", {"valueChanged": {"value": "B"}}]}"#) == [
                #"expected exactly [focusChanged, inputPresented, {"valueChanged":{"value":"B"}}] since the previous expectEmitted; got [{"focusChanged":{"from":null,"to":"name"}}, {"inputPresented":{"field":"name","view":"keyboard"}}, {"valueChanged":{"field":"name","value":"A"}}]: notification 3 is {"valueChanged":{"field":"name","value":"A"}}, expected {"valueChanged":{"value":"B"}}"#
            ])
        #expect(
            failure(tap + #"{"expectEmittedExactly": []}"#).first?.hasPrefix(
                "expected exactly nothing since the previous expectEmitted; got [focusChanged, inputPresented, valueChanged]: focusChanged (notification 1) was not expected"
            ) == true)
    }

    @Test func eitherFormClosesTheWindowForTheOther() {
        let steps =
            #"{"tap": "name"}, {"expectEmittedExactly": ["focusChanged", "inputPresented"]}, {"type": "A"}, {"expectEmitted": ["valueChanged"]}, {"type": "B"}, {"expectEmittedExactly": ["valueChanged"]}, {"expectEmittedExactly": []}"#
        #expect(failure(steps) == ["(passed)"])
    }

    @Test func theNewStepsAreCheckedLikeTheOldOnes() {
        func problems(_ steps: String) -> [String] {
            let text = #"{"format": "quire.session/1", "flow": "../flows/mini.json", "steps": [\#(steps)]}"#
            guard
                case .bad(let diagnostics) = ScriptLoader.load(
                    bytes: Array(text.utf8), file: fixtures.appendingPathComponent("mixed/x.json").path, flows: FlowCache())
            else { return [] }
            return diagnostics.map(\.message)
        }
        #expect(problems(#"{"expectExactli": {"focus": null}}"#) == ["unknown step 'expectExactli'; did you mean 'expectExactly'?"])
        #expect(problems(#"{"expectExactly": {"fcous": null}}"#) == ["'fcous' is not part of the state; did you mean 'focus'?"])
        #expect(problems(#"{"expectExactly": {"values": {"nmae": "A"}}}"#) == ["the flow has no field 'nmae'; did you mean 'name'?"])
        #expect(problems(#"{"expectExactly": []}"#) == ["'expectExactly' must be an object, not an array"])
        #expect(
            problems(#"{"expectEmittedExactly": ["valueChange"]}"#) == ["unknown notification 'valueChange'; did you mean 'valueChanged'?"])
        #expect(problems(#"{"expectEmittedExactly": {}}"#) == ["'expectEmittedExactly' must be an array, not an object"])
    }
}
