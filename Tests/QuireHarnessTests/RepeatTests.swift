import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// `quire test --repeat-each N`: every run of a script must match the first.
@Suite struct RepeatTests {
    @Test func repeatedRunsOfTheSuiteAgreeAndEachScriptIsReportedOnce() throws {
        let once = try CommandTests().quire(["test", "--plain", "mixed"])
        let thrice = try CommandTests().quire(["test", "--plain", "--repeat-each", "3", "mixed"])
        #expect(thrice.status == once.status)
        #expect(thrice.lastLine == once.lastLine)
        #expect(thrice.lastLine == "1 passed, 2 failed, 2 bad")
        var options = Suite.Options(jobs: 2)
        options.runner.repeatEach = 4
        let sessions = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sessions").path
        let outcome = Suite.run(Suite.discover([sessions]), options: options, reporters: [])
        #expect(outcome.summary.failed == 0 && outcome.summary.bad == 0 && outcome.summary.passed > 200)
    }

    @Test func aRunThatDiffersFromTheFirstIsNamedWithItsDifferences() {
        var first = ScriptResult(file: "s.json", name: "s", status: .passed, milliseconds: 1)
        first.finalState = ["page": ["index": 1]]
        first.notifications = (3, 42)
        #expect(Repeat.compare(first, first).isEmpty)
        var again = first
        again.milliseconds = 7  // time is not a difference
        #expect(Repeat.compare(first, again).isEmpty)
        again.finalState = ["page": ["index": 2]]
        again.notifications = (3, 43)
        #expect(
            Repeat.compare(first, again) == [
                "notifications: the same number (3), not the same ones", "final state:", "  $.page.index: 1 → 2",
            ])
        again = first
        again.notifications = (4, 42)
        again.status = .failed(Failure(step: 2, location: "s.json:3:5", stepJSON: "{}", lines: ["page: expected 1, got 2"], recent: []))
        #expect(Repeat.compare(first, again) == ["verdict: passed → failed at step 2: page: expected 1, got 2", "notifications: 3 → 4"])
    }

    @Test func repeatEachIsBoundedAsAUsageError() throws {
        #expect(try CommandTests().quire(["test", "--repeat-each", "0", "pass"]).status == 2)
        #expect(try CommandTests().quire(["test", "--repeat-each", "1001", "pass"]).status == 2)
    }
}
