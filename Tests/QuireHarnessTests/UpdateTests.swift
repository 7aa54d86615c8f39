import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// `quire test --update` (issue 38 item 4): failing expectations rewritten in place with what the
/// session did, every other byte kept; and `"strict": true` (item 5).
@Suite struct UpdateTests {
    /// A fresh folder for one test's scripts.
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-update-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    var repository: URL { testsFolder.deletingLastPathComponent().deletingLastPathComponent() }

    func quire(_ arguments: [String], in directory: URL) throws -> CommandTests.Run {
        try CommandTests().quire(arguments, in: directory)
    }

    /// A project script with one wrong expectation: --update puts back exactly the bytes it had,
    /// says which step it rewrote, and the script then passes.
    @Test func oneWrongExpectationIsFixedAndNoOtherByteChanges() throws {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        let flow = repository.appendingPathComponent("data/flows/focus-onboarding.json").path
        let original = try String(
            contentsOf: repository.appendingPathComponent("data/sessions/duration/commit-on-done.json"), encoding: .utf8
        )
        .replacingOccurrences(of: #""flow": "../../flows/focus-onboarding.json""#, with: #""flow": "\#(flow)""#)
        let broken = original.replacingOccurrences(
            of: #""wheels": {"hours": 0, "minutes": 25}"#, with: #""wheels": {"hours": 0, "minutes": 20}"#)
        #expect(broken != original)
        let script = work.appendingPathComponent("commit-on-done.json")
        try broken.write(to: script, atomically: true, encoding: .utf8)

        let failing = try quire(["test", "--plain", "commit-on-done.json"], in: work)
        #expect(failing.status == 1)

        let update = try quire(["test", "--plain", "--update", "commit-on-done.json"], in: work)
        #expect(update.status == 0)
        #expect(update.stdout.contains("UPDATED commit-on-done.json: step 9 (expect)\n"))
        #expect(update.lastLine == "1 passed, 0 failed")
        let updated = try String(contentsOf: script, encoding: .utf8)
        #expect(updated == original)
        // Every line but the broken one was the same before the update, and is the same after it.
        let before = broken.split(separator: "\n", omittingEmptySubsequences: false)
        let after = updated.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        #expect(zip(before, after).filter { $0 != $1 }.count == 1)

        let again = try quire(["test", "--plain", "commit-on-done.json"], in: work)
        #expect(again.status == 0)
        #expect(again.lastLine == "1 passed, 0 failed")
    }

    /// Each kind of expectation is rewritten in its own terms: an expect keeps the keys it names,
    /// an expectExactly loses a key the state does not have, payload patterns keep their keys,
    /// announcements keep their priorities, and a partial object left with nothing takes the
    /// whole value (`{}` would mean "empty").
    @Test func everyKindOfExpectationIsRewrittenInItsOwnTerms() throws {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        let flow = fixtures.appendingPathComponent("flows/mini.json").path
        func script(_ steps: String) -> String {
            """
            {
              "format": "quire.session/1",
              "flow": "\(flow)",
              "steps": [
            \(steps)
              ]
            }

            """
        }
        let broken = script(
            """
                {"tap": "button:next"},
                {"expectKeyboardFocus": "button:next"},
                {"expectNotice": {"field": "pick"}},
                {"expectAnnounced": [{"text": "Name: Nope", "priority": "polite"}]},
                {"expectEmittedExactly": [{"refused": {"reason": "finish", "errors": {}}}]},
                {"expectExactly": {"errors": {"name": "required", "pick": "required"}, "focus": null}},
                {"expect": {"page": {"index": 1,   "id": "a"}, "values": {"name": null}, "input": {}}},
                {"tap": "name"}, {"type": "Aki"},
                {"expectEmitted": ["valueChanged", "focusChanged"]},
                {"expect": {"input": {"draft": 3}}},
                {"expect": {"values": {"name": "Aki"}}}
            """)
        let fixed = script(
            """
                {"tap": "button:next"},
                {"expectKeyboardFocus": "field:name"},
                {"expectNotice": null},
                {"expectAnnounced": [{"text": "name: Required", "priority": "assertive"}]},
                {"expectEmittedExactly": [{"refused": {"reason": "gate", "errors": {"name": "required"}}}]},
                {"expectExactly": {"errors": {"name": "required"}, "focus": null}},
                {"expect": {"page": {"index": 0,   "id": "a"}, "values": {"name": null}, "input": null}},
                {"tap": "name"}, {"type": "Aki"},
                {"expectEmitted": ["focusChanged", "inputPresented", "valueChanged"]},
                {"expect": {"input": {"field": "name", "view": "keyboard", "returnKey": "next", "accessory": [{"item": "previous", "enabled": false}, {"item": "next", "enabled": true}, {"item": "flexibleSpace", "enabled": true}, {"item": "done", "enabled": true}]}}},
                {"expect": {"values": {"name": "Aki"}}}
            """)
        let file = work.appendingPathComponent("kinds.json")
        try broken.write(to: file, atomically: true, encoding: .utf8)
        let update = try quire(["test", "--plain", "--update", "kinds.json"], in: work)
        #expect(update.status == 0)
        #expect(
            update.stdout.contains(
                "UPDATED kinds.json: step 2 (expectKeyboardFocus), step 3 (expectNotice), step 4 (expectAnnounced), step 5 (expectEmittedExactly), step 6 (expectExactly), step 7 (expect), step 10 (expectEmitted), step 11 (expect)\n"
            ))
        #expect(try String(contentsOf: file, encoding: .utf8) == fixed)
        // Updating again changes nothing: the script passes as it is.
        let again = try quire(["test", "--plain", "--update", "kinds.json"], in: work)
        #expect(again.status == 0)
        #expect(!again.stdout.contains("UPDATED"))
        #expect(try String(contentsOf: file, encoding: .utf8) == fixed)
    }

    /// A step that is not an expectation still fails under --update: the expectations before it
    /// are rewritten, the script is reported failed at that step, and nothing after it changes.
    @Test func aFailureThatIsNotAnExpectationStillFails() throws {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        let flow = fixtures.appendingPathComponent("flows/mini.json").path
        let text = """
            {"format": "quire.session/1", "flow": "\(flow)", "strict": true, "steps": [
              {"expect": {"page": {"index": 1}}},
              {"type": "x"},
              {"expect": {"page": {"index": 1}}}
            ]}

            """
        let file = work.appendingPathComponent("strict.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let update = try quire(["test", "--plain", "--update", "strict.json"], in: work)
        #expect(update.status == 1)
        #expect(update.stdout.contains("UPDATED strict.json: step 1 (expect)\n"))
        #expect(update.stdout.contains("strict: the event was ignored (noFirstResponder)"))
        #expect(
            try String(contentsOf: file, encoding: .utf8)
                == text.replacingOccurrences(of: #"{"expect": {"page": {"index": 1}}},"#, with: #"{"expect": {"page": {"index": 0}}},"#))
    }

    @Test func updateRefusesRepeatEach() throws {
        let run = try quire(["test", "--update", "--repeat-each", "2", "pass"], in: fixtures)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--update runs each script once"))
    }

    // MARK: The pieces

    @Test func projectionKeepsWhatMatchesAsWritten() {
        let expected: JSONValue = ["page": ["index": 1, "id": "a"], "position": 0.0000000001]
        let actual: JSONValue = ["page": ["index": 2, "id": "a", "count": 3], "position": 0]
        #expect(Update.project(expected, actual, exactly: false) == ["page": ["index": 2, "id": "a"], "position": 0.0000000001])
        #expect(
            Update.project(expected, actual, exactly: true) == ["page": ["index": 2, "id": "a", "count": 3], "position": 0.0000000001])
        #expect(Update.project(["a": 1], nil, exactly: false) == nil)
        #expect(Update.project([:], ["a": 1], exactly: false) == ["a": 1])
    }

    @Test func editsTouchOnlyTheValuesThatChange() {
        let source = Array(#"{"format": "x", "steps": [{"tap": "a"},  {"expect": {"page" : {"index":1,"id":"a"}, "focus": null}}]}"#.utf8)
        let rewritten = Update.apply(
            [Rewrite(step: 1, key: "expect", value: ["page": ["index": 2, "id": "a"], "focus": "name"])], to: source)
        #expect(
            rewritten.map { String(decoding: $0, as: UTF8.self) }
                == #"{"format": "x", "steps": [{"tap": "a"},  {"expect": {"page" : {"index":2,"id":"a"}, "focus": "name"}}]}"#)
    }
}

/// `"strict": true`: an event the session ignores is a mistake in the script unless the next step
/// expects it.
@Suite struct StrictTests {
    func run(_ steps: String, strict: Bool = true) -> ScriptResult {
        let text = #"{"format": "quire.session/1", "flow": "../flows/mini.json", "strict": \#(strict), "steps": [\#(steps)]}"#
        guard
            case .script(let script) = ScriptLoader.load(
                bytes: Array(text.utf8), file: fixtures.appendingPathComponent("mixed/x.json").path, flows: FlowCache())
        else {
            Issue.record("the script did not load")
            return ScriptResult(file: "", name: "", status: .skipped, milliseconds: 0)
        }
        return Runner.run(script)
    }

    @Test func anIgnoredEventFailsTheScriptAtThatStep() {
        let result = run(#"{"tap": "name"}, {"type": "Aki"}, {"tap": "background"}, {"type": "x"}, {"expect": {"focus": null}}"#)
        guard case .failed(let failure) = result.status else {
            Issue.record("expected a failure, got \(result.status)")
            return
        }
        #expect(failure.step == 4)
        #expect(
            failure.lines == [
                #"strict: the event was ignored (noFirstResponder): no person could do this here; fix the step, or expect it with {"expectEmitted": [{"ignored": {"reason": "noFirstResponder"}}]} as the next step"#
            ])
    }

    @Test func anIgnoredEventExpectedByTheNextStepPasses() {
        let result = run(
            #"{"type": "x"}, {"expectEmitted": [{"ignored": {"reason": "noFirstResponder"}}]}, {"tap": "button:back"}, {"expectEmittedExactly": ["ignored"]}"#
        )
        guard case .passed = result.status else {
            Issue.record("expected a pass, got \(result.status)")
            return
        }
    }

    @Test func theNextStepMustNameIgnored() {
        // An expectEmitted of something else, or an expect, does not expect the ignored event.
        for next in [#"{"expectEmitted": []}"#, #"{"expect": {"focus": null}}"#, #"{"expectEmittedExactly": ["refused"]}"#] {
            guard case .failed(let failure) = run(#"{"type": "x"}, "# + next).status else {
                Issue.record("\(next): expected a failure")
                continue
            }
            #expect(failure.step == 1, "\(next)")
        }
        // As the last step, nothing can expect it.
        guard case .failed(let failure) = run(#"{"tap": "name"}, {"type": "Aki"}, {"tap": "background"}, {"key": "BackSpace"}"#).status
        else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.step == 4)
    }

    @Test func withoutStrictAnIgnoredEventIsNoFailure() {
        guard case .passed = run(#"{"type": "x"}, {"expect": {"focus": null}}"#, strict: false).status else {
            Issue.record("expected a pass")
            return
        }
    }

    @Test func strictMustBeABoolean() {
        let text = #"{"format": "quire.session/1", "flow": "../flows/mini.json", "strict": "yes", "steps": []}"#
        guard
            case .bad(let diagnostics) = ScriptLoader.load(
                bytes: Array(text.utf8), file: fixtures.appendingPathComponent("mixed/x.json").path, flows: FlowCache())
        else {
            Issue.record("expected bad input")
            return
        }
        #expect(diagnostics.map(\.description).contains { $0.contains("$.strict: strict must be true or false") })
    }
}
