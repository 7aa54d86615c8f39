import Foundation
import QuireCore
import Synchronization
import Testing

@testable import QuireHarness

/// `{"expectAccessible": TREE}`: the current page's accessibility tree, matched exactly against
/// the core's (`Session.accessibleTree`) in `quire test`.
@Suite struct ExpectAccessibleTests {
    var demo: String {
        testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/flows/focus-onboarding.json")
            .path
    }

    func load(_ steps: String) -> ScriptLoad {
        let text = #"{"format": "quire.session/1", "flow": "\#(demo)", "steps": [\#(steps)]}"#
        return ScriptLoader.load(bytes: Array(text.utf8), file: "/tmp/accessible.json", flows: FlowCache())
    }

    func run(_ steps: String, options: Runner.Options = Runner.Options()) -> ScriptResult {
        guard case .script(let script) = load(steps) else {
            Issue.record("the script did not load: \(load(steps))")
            return ScriptResult(file: "", name: "", status: .skipped, milliseconds: 0)
        }
        return Runner.run(script, options: options)
    }

    func passed(_ result: ScriptResult) -> Bool {
        if case .passed = result.status { return true }
        return false
    }

    static let firstPage = """
        {"role": "label", "name": "Welcome"},
        {"role": "label", "name": "Focus helps you work in short, timed sessions. This takes a minute to set up."},
        {"role": "push button", "name": "Back", "states": ["disabled"]},
        {"role": "slider", "name": "Page 1 of 5", "value": "Page 1 of 5"},
        {"role": "push button", "name": "Skip"},
        {"role": "push button", "name": "Next"}
        """

    @Test func theFirstPagesTreePasses() {
        let result = run(#"{"expectAccessible": [\#(Self.firstPage)]}"#)
        #expect(passed(result), "\(result.status)")
    }

    @Test func aDifferenceFailsNamingTheElementAndShowingTheTree() {
        // Back enabled, and the body left out: two differences, element by element.
        let wrong = Self.firstPage.replacingOccurrences(of: #", "states": ["disabled"]"#, with: "")
            .replacingOccurrences(
                of: #"{"role": "label", "name": "Focus helps you work in short, timed sessions. This takes a minute to set up."},"#,
                with: "")
        let result = run(#"{"tap": "button:next"}, {"settle": true}, {"expectAccessible": [\#(wrong)]}"#)
        guard case .failed(let failure) = result.status else {
            Issue.record("expected a failure, got \(result.status)")
            return
        }
        #expect(failure.step == 3)
        // The page moved on: the tree is the About you page's, not the first page's.
        #expect(failure.lines.first == "accessible tree: expected 5 elements, got 10 elements")
        #expect(failure.lines.contains(#"  element 1: expected label "Welcome", got label "About you""#))
        #expect(failure.lines.contains(#"  element 10: expected nothing, got push button "Next""#))
        #expect(failure.lines.contains(#"    {"role":"text","name":"Name","states":["required"]}"#))
    }

    @Test func statesAreASetAndEveryKeyCounts() {
        // Written in another order, the states still match…
        let refused = #"{"tap": "button:next"}, {"settle": true}, {"tap": "button:next"}"#
        let tree = """
            {"role": "label", "name": "About you"}, {"role": "label", "name": "Tell us what to call you."},
            {"role": "label", "name": "Name"},
            {"role": "text", "name": "Name", "states": ["invalid", "required"], "describedBy": "Required"},
            {"role": "label", "name": "Required"},
            {"role": "label", "name": "Feed language"}, {"role": "push button", "name": "Feed language: English"},
            {"role": "push button", "name": "Back"}, {"role": "slider", "name": "Page 2 of 5", "value": "Page 2 of 5"},
            {"role": "push button", "name": "Skip"}, {"role": "push button", "name": "Next"}
            """
        #expect(passed(run(refused + #", {"expectAccessible": [\#(tree)]}"#)))
        // …and one left out, or a described-by left out, is a difference.
        for broken in [
            tree.replacingOccurrences(of: #""states": ["invalid", "required"]"#, with: #""states": ["required"]"#),
            tree.replacingOccurrences(of: #", "describedBy": "Required""#, with: ""),
        ] {
            guard case .failed(let failure) = run(refused + #", {"expectAccessible": [\#(broken)]}"#).status else {
                Issue.record("\(broken) passed")
                continue
            }
            #expect(
                failure.lines.contains { $0.hasPrefix(#"  element 4: expected text "Name""#) }
                    && failure.lines.contains { $0.hasSuffix(#"got text "Name" [required, invalid] described by "Required""#) },
                "\(failure.lines)")
        }
    }

    @Test func aBrokenElementIsBadInputAtItsPath() {
        guard case .bad(let diagnostics) = load(#"{"expectAccessible": [{"role": "label", "name": "x", "states": ["focused"]}]}"#)
        else {
            Issue.record("a broken state was accepted")
            return
        }
        #expect(
            diagnostics.contains {
                $0.path.description == "$.steps[0].expectAccessible[0].states[0]" && $0.message.hasPrefix("a state is one of")
            },
            "\(diagnostics)")
        guard case .bad = load(#"{"expectAccessible": {"role": "label"}}"#) else {
            Issue.record("an object for a list was accepted")
            return
        }
    }

    @Test func aFrontsCheckIsAskedAndItsLinesFailTheStep() {
        var options = Runner.Options()
        let asked = Mutex<[Int]>([])
        options.accessible = { step, expected in
            asked.withLock { $0.append(step) }
            return expected.count == 6 ? [] : ["AT-SPI tree: differs"]
        }
        #expect(passed(run(#"{"expectAccessible": [\#(Self.firstPage)]}"#, options: options)))
        guard
            case .failed(let failure) = run(#"{"tap": "button:next"}, {"settle": true}, {"expectAccessible": []}"#, options: options).status
        else {
            Issue.record("expected a failure")
            return
        }
        // The core's lines and the front's both.
        #expect(failure.lines.first == "accessible tree: expected 0 elements, got 10 elements")
        #expect(failure.lines.last == "AT-SPI tree: differs")
        #expect(asked.withLock { $0 } == [1, 3])
    }
}

extension ExpectAccessibleTests {
    /// `--update` writes the core's tree into a failing step, as JSON a script would hold.
    @Test func updateRewritesTheStepWithTheActualTree() {
        var options = Runner.Options()
        options.update = true
        let result = run(#"{"expectAccessible": [{"role": "label", "name": "Hello"}]}"#, options: options)
        #expect(passed(result), "\(result.status)")
        let rewrite = result.rewrites.first
        #expect(rewrite?.step == 0 && rewrite?.key == "expectAccessible")
        guard case .array(let tree)? = rewrite?.value else {
            Issue.record("no tree written: \(String(describing: rewrite))")
            return
        }
        #expect(tree.count == 6)
        #expect(tree.first.map { JSONWriter.string($0) } == #"{"role":"label","name":"Welcome"}"#)
        #expect(tree.last.map { JSONWriter.string($0) } == #"{"role":"push button","name":"Next"}"#)
    }
}
