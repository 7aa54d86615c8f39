import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// A script read in one pass takes a step written as one read before, against the same flow
/// file, from `FlowCache`'s memo (`StepMemo`). What it takes must be what reading the step would
/// give: never a step that had a problem, never a step checked against another flow.
@Suite struct StepMemoTests {
    static let mini = fixtures.appendingPathComponent("flows/mini.json").path
    static let onboarding = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/flows/focus-onboarding.json").path

    static func script(flow: String, steps: [String]) -> [UInt8] {
        Array(#"{"format": "quire.session/1", "flow": \#(JSONWriter.quoted(flow)), "steps": [\#(steps.joined(separator: ", "))]}"#.utf8)
    }

    static func load(_ bytes: [UInt8], _ flows: FlowCache, file: String = "memo.json") -> ScriptLoad {
        ScriptLoader.load(bytes: bytes, file: file, flows: flows)
    }

    static func messages(_ load: ScriptLoad) -> [String] {
        guard case .bad(let diagnostics) = load else { return [] }
        return diagnostics.map(\.message)
    }

    @Test func aStepReadBeforeIsTheSameStepAndIsKeptOnce() throws {
        let flows = FlowCache()
        let steps = [#"{"tap": "name"}"#, #"{"type": "Aki"}"#, #"{"expect": {"values": {"name": "Aki"}}}"#, #"{"tap": "name"}"#]
        let bytes = Self.script(flow: Self.mini, steps: steps)
        guard case .script(let first) = Self.load(bytes, flows), case .script(let again) = Self.load(bytes, flows) else {
            Issue.record("the script does not load")
            return
        }
        #expect(flows.withStepMemo { $0.count } == 3)
        #expect(again.steps.map { "\($0)" } == first.steps.map { "\($0)" })
        guard case .script(let tree) = ScriptLoader.loadTree(bytes: bytes, file: "memo.json", flows: FlowCache(), limits: .default) else {
            Issue.record("the script does not load as a tree")
            return
        }
        #expect(again.steps.map { "\($0)" } == tree.steps.map { "\($0)" })
    }

    /// A step whose check records a problem (and still gives a step) is not kept: the next
    /// script with it is bad input too, with the same message.
    @Test(arguments: [#"{"expect": {"nope": 1}}"#, #"{"tap": "nome"}"#, #"{"expectKeyboardFocus": "field:"}"#])
    func aStepWithAProblemIsNeverKept(_ step: String) throws {
        let flows = FlowCache()
        let bytes = Self.script(flow: Self.mini, steps: [#"{"tick": 16}"#, step])
        let first = Self.messages(Self.load(bytes, flows))
        #expect(!first.isEmpty)
        #expect(Self.messages(Self.load(bytes, flows)) == first)
        #expect(flows.withStepMemo { $0.count } == 1)
    }

    @Test func aStepIsCheckedAgainstItsOwnFlow() throws {
        let flows = FlowCache()
        guard case .script = Self.load(Self.script(flow: Self.mini, steps: [#"{"tap": "name"}"#]), flows) else {
            Issue.record("the script does not load against mini")
            return
        }
        let other = Self.messages(Self.load(Self.script(flow: Self.onboarding, steps: [#"{"tap": "name"}"#]), flows))
        #expect(other.contains { $0.hasPrefix("the flow has no field 'name'") })
    }

    /// The same step with a repeated key, or other bytes around it, is read from its own bytes.
    @Test func onlyTheSameBytesAreTheSameStep() throws {
        let flows = FlowCache()
        guard case .script = Self.load(Self.script(flow: Self.mini, steps: [#"{"tick": 16}"#]), flows) else {
            Issue.record("the script does not load")
            return
        }
        let repeated = Self.messages(Self.load(Self.script(flow: Self.mini, steps: [#"{"tick": 16, "tick": 16}"#]), flows))
        #expect(repeated.contains { $0.contains("tick") })
        let twoKeys = Self.messages(Self.load(Self.script(flow: Self.mini, steps: [#"{"tick": 16, "settle": true}"#]), flows))
        #expect(twoKeys.contains { $0.hasPrefix("a step has exactly one key") })
        guard case .script(let spaced) = Self.load(Self.script(flow: Self.mini, steps: [#"{ "tick" : 16 }"#]), flows) else {
            Issue.record("the spaced step does not load")
            return
        }
        #expect(spaced.steps.map { "\($0)" } == ["\(SessionScript.Step.event(.tick(16)))"])
        #expect(flows.withStepMemo { $0.count } == 2)
    }

    /// At most `FlowCache.memoLimit` steps are kept, each of at most `StepMemo.longest` bytes.
    @Test func theMemoIsBounded() throws {
        let flows = FlowCache()
        let ticks = (1...(FlowCache.memoLimit + 100)).map { #"{"tick": \#($0)}"# }
        guard case .script(let script) = Self.load(Self.script(flow: Self.mini, steps: ticks), flows) else {
            Issue.record("the script does not load")
            return
        }
        #expect(script.steps.count == ticks.count)
        #expect(flows.withStepMemo { $0.count } == FlowCache.memoLimit)

        let small = FlowCache()
        let long = #"{"type": "\#(String(repeating: "a", count: StepMemo.longest))"}"#
        guard case .script = Self.load(Self.script(flow: Self.mini, steps: [long, #"{"tick": 1}"#]), small) else {
            Issue.record("the script with a long step does not load")
            return
        }
        #expect(small.withStepMemo { $0.count } == 1)
    }
}
