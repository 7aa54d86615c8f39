import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// Failures that explain themselves (issue 38 item 3): a failed expectation about the page, a
/// field's visibility or enabled state, the buttons, the errors or `completed` names the rule
/// that decided, at its `file:line:column` in the flow, with the values it read.
@Suite struct ExplainTests {
    /// Lines are numbered from 1: each rule a test names sits on a line of its own.
    static let flow = """
        {"format": "quire.flow/1", "id": "explain", "paging": {"animationMs": 0, "gate": "valid"},
         "pages": [
          {"id": "start",
           "fields": [
            {"id": "more", "kind": "toggle", "default": false},
            {"id": "userName", "kind": "text", "required": true},
            {"id": "email", "kind": "text", "minLength": 3,
             "enabledIf": {"field": "more", "equals": true}},
            {"id": "nick", "kind": "text",
             "visibleIf": {"field": "more", "equals": true}}
           ]},
          {"id": "extra",
           "visibleIf": {"field": "more", "equals": true}},
          {"id": "end", "back": false}
         ]}

        """

    /// A folder holding `flow.json`, for one test.
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Self.flow.write(to: url.appendingPathComponent("flow.json"), atomically: true, encoding: .utf8)
        return url
    }

    /// The failure's lines for `steps` run against `flow.json` (["(passed)"] when it passed).
    func failure(_ steps: String) throws -> [String] {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        let text = #"{"format": "quire.session/1", "flow": "flow.json", "steps": [\#(steps)]}"#
        let file = work.appendingPathComponent("s.json").path
        guard case .script(let script) = ScriptLoader.load(bytes: Array(text.utf8), file: file, flows: FlowCache()) else {
            Issue.record("the script did not load")
            return []
        }
        guard case .failed(let failure) = Runner.run(script).status else { return ["(passed)"] }
        // The flow's name as the report shows it: the path the script resolved, normalized.
        let flowFile = FileWalker.normalized(work.appendingPathComponent("flow.json").path)
        return failure.lines.map { $0.replacingOccurrences(of: flowFile, with: "flow.json") }
    }

    @Test func aPageCountNamesTheHidingConditionAndTheValueItRead() throws {
        #expect(
            try failure(#"{"expect": {"page": {"count": 3}}}"#) == [
                "$.page.count: expected 3, got 2",
                "why: page 'extra' hidden: its visibleIf (flow.json:13:17) read more = false",
            ])
        // Once the condition holds, the same rule explains the other count, with the new value.
        #expect(
            try failure(#"{"tap": "more"}, {"expect": {"page": {"count": 2}}}"#) == [
                "$.page.count: expected 2, got 3",
                "why: page 'extra' shown: its visibleIf (flow.json:13:17) read more = true",
            ])
    }

    @Test func aPageExpectedButHiddenIsNamed() throws {
        #expect(
            try failure(
                #"{"tap": "userName"}, {"type": "A"}, {"tap": "button:next"}, {"settle": true}, {"expect": {"page": {"id": "extra"}}}"#)
                == [
                    #"$.page.id: expected "extra", got "end""#,
                    "why: page 'extra' hidden: its visibleIf (flow.json:13:17) read more = false",
                ])
    }

    @Test func aMoveTheGateRefusedNamesTheRuleAndItsStep() throws {
        #expect(
            try failure(#"{"tap": "button:next"}, {"settle": true}, {"expect": {"page": {"index": 1}}}"#) == [
                "$.page.index: expected 1, got 0",
                "why: step 1: Next refused by the gate: userName is required (flow.json:6:52)",
            ])
        // A swipe is named as one; a refusal on a page since left explains nothing.
        #expect(
            try failure(#"{"swipe": "next"}, {"expect": {"page": {"id": "end"}}}"#).last
                == "why: step 1: the swipe refused by the gate: userName is required (flow.json:6:52)")
        #expect(
            try failure(
                #"{"tap": "button:next"}, {"tap": "userName"}, {"type": "A"}, {"tap": "button:next"}, {"expect": {"page": {"index": 0}}}"#
            ) == ["$.page.index: expected 0, got 1"])
    }

    /// Without a gate, Finish is refused on the last page and the session shows the page with
    /// the error: the refusal stays the explanation. The flow is inline: the rule is placed in
    /// the script.
    @Test func completedNamesTheRefusedFinish() throws {
        let text = """
            {"format": "quire.session/1",
             "flow": {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0, "gate": "none"},
                      "pages": [{"id": "a", "fields": [{"id": "name", "kind": "text", "required": true}]}, {"id": "b"}]},
             "steps": [{"tap": "button:next"}, {"tap": "button:finish"}, {"expect": {"completed": {"outcome": "finished"}}}]}
            """
        guard case .script(let script) = ScriptLoader.load(bytes: Array(text.utf8), file: "inline.json", flows: FlowCache()),
            case .failed(let failure) = Runner.run(script).status
        else {
            Issue.record("the script did not load, or passed")
            return
        }
        #expect(failure.lines.last == "why: step 2: Finish refused: a page has errors: name is required (inline.json:3:87)")
    }

    @Test func aFieldsVisibilityAndEnabledStateNameTheirConditions() throws {
        #expect(
            try failure(#"{"tap": "nick"}, {"expect": {"focus": "nick"}}"#) == [
                #"$.focus: expected "nick", got null"#,
                "why: field 'nick' hidden: its visibleIf (flow.json:10:19) read more = false",
            ])
        #expect(
            try failure(#"{"tap": "email"}, {"expect": {"focus": "email"}}"#) == [
                #"$.focus: expected "email", got null"#,
                "why: field 'email' disabled: its enabledIf (flow.json:8:19) read more = false",
            ])
    }

    @Test func errorsNameTheirRuleOrWhyThereIsNone() throws {
        // Disabled: not validated.
        #expect(
            try failure(#"{"tap": "button:next"}, {"expect": {"errors": {"email": "minLength"}}}"#) == [
                #"$.errors.email: expected "minLength", got (no such key)"#,
                "why: 'email' is not validated: field 'email' disabled: its enabledIf (flow.json:8:19) read more = false",
            ])
        // Not revealed yet: the error is there, waiting for a move or a change.
        #expect(
            try failure(#"{"expect": {"errors": {"userName": "required"}}}"#) == [
                #"$.errors.userName: expected "required", got (no such key)"#,
                "why: 'userName' required (not revealed yet): userName is required (flow.json:6:52)",
            ])
        // A length: the field's own key, and the value it judged.
        #expect(
            try failure(#"{"tap": "more"}, {"tap": "email"}, {"type": "ab"}, {"tap": "background"}, {"expect": {"errors": {}}}"#).last
                == #"why: 'email' minLength: its minLength (flow.json:7:50) read email = "ab""#)
    }

    @Test func buttonsNameTheirRule() throws {
        #expect(
            try failure(#"{"expect": {"buttons": {"back": true}}}"#) == [
                "$.buttons.back: expected true, got false",
                "why: back off: the first page has no Back (paging.wrap is false)",
            ])
        #expect(
            try failure(#"{"tap": "userName"}, {"type": "A"}, {"tap": "button:next"}, {"expect": {"buttons": {"back": true}}}"#) == [
                "$.buttons.back: expected true, got false",
                #"why: back off: page 'end' says "back": false (flow.json:14:25)"#,
            ])
    }

    /// A mismatch no rule decides (a value) explains nothing, and a passing step nothing.
    @Test func aValueExplainsNothing() throws {
        #expect(
            try failure(#"{"tap": "userName"}, {"type": "A"}, {"expect": {"values": {"userName": "B"}}}"#) == [
                #"$.values.userName: expected "B", got "A""#
            ])
    }

    /// The explanation reaches TAP, JUnit and the trace as well as the console.
    @Test func everyReportCarriesTheExplanation() throws {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        try #"{"format": "quire.session/1", "flow": "flow.json", "steps": [{"expect": {"page": {"count": 3}}}]}"#.write(
            to: work.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let run = try CommandTests().quire(
            ["test", "--plain", "--tap", "out.tap", "--junit", "out.xml", "--trace", "trace", "s.json"], in: work)
        #expect(run.status == 1)
        let why = "page 'extra' hidden: its visibleIf (flow.json:13:17) read more = false"
        #expect(run.stdout.contains("    why: " + why + "\n"))
        #expect(try String(contentsOf: work.appendingPathComponent("out.tap"), encoding: .utf8).contains(why))
        #expect(
            try String(contentsOf: work.appendingPathComponent("out.xml"), encoding: .utf8).contains(
                "its visibleIf (flow.json:13:17) read more = false"))
        let traces = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("trace").path)
        let json = try #require(traces.first { $0.hasSuffix(".trace.json") })
        #expect(try String(contentsOf: work.appendingPathComponent("trace/" + json), encoding: .utf8).contains(why))
    }
}
