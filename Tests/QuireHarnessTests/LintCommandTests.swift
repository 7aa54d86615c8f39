import Foundation
import Testing

/// `quire check`'s warnings as a user meets them: positions, `--strict`'s exit code.
@Suite struct LintCommandTests {
    let folder = fixtures.appendingPathComponent("coverage")

    @Test func checkWarnsAboutAPageThatCanNeverBeShownAtItsPosition() throws {
        let run = try CommandTests().quire(["check", "flow.json"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == "flow.json: ok: flow 'pets', 4 pages, 2 fields, 1 warning\n")
        #expect(
            run.stderr
                == "flow.json:15:19: $.pages[2].visibleIf: warning: page 'both' can never be shown: its visibleIf is false for every value the fields it names can hold\n"
        )
    }

    @Test func strictFailsWithExitCode1OnAWarningAnd2StillWinsForABrokenFlow() throws {
        let strict = try CommandTests().quire(["check", "--strict", "flow.json"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.stderr.hasSuffix("1 of 1 flow with warnings (--strict)\n"))
        // Notes (a duration bound the wheels snap past) do not fail --strict: data/flows is clean.
        let flows = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/flows")
        let clean = try CommandTests().quire(["check", "--strict", "--quiet", flows.path], in: folder)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(!clean.stderr.contains("warning:"))
        let broken = try CommandTests().quire(["check", "--strict", "flow.json", "no-such.json"], in: folder)
        #expect(broken.status == 2)
    }
}
