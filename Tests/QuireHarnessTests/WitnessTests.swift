import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// `quire generate-sessions --cover`: witness scripts that pass and reach what they claim, the
/// lint's unreachable page reported at the lint's own position, the same output every time.
@Suite struct WitnessTests {
    @Test func witnessesPassCoverAllButTheNeverShownPageAndAgreeWithTheLint() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-witness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let flow = fixtures.appendingPathComponent("coverage/flow.json").path
        let out = folder.appendingPathComponent("suite").path
        let generated = try CommandTests().quire(["generate-sessions", "--cover", flow, "--walks", "600", out])
        #expect(generated.status == 0, "\(generated.stderr)")
        let lines = generated.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("wrote ") == true)
        // The page the lint proves never shown, and its condition's true branch, at the lint's position.
        let lint = try CommandTests().quire(["check", flow])
        let warning = try #require(lint.stderr.split(separator: "\n").first { $0.contains("[page-never-shown]") })
        let position = String(warning.prefix { $0 != "$" })  // "…/flow.json:15:19: "
        let trueBranch = position + "$.pages[2].visibleIf: unreachable: visibleIf was never true"
        #expect(lines.contains { $0.hasPrefix(trueBranch) && $0.hasSuffix("[page-never-shown]") }, "\(generated.stdout)")
        #expect(lines.contains { $0.contains("$.pages[2]: unreachable: page 'both' was never current") })

        // The last page has no field and the gate passes no page with errors: `finish` is never
        // refused, so it is no coverage item at all (`FlowCoverage.finishNeverRefused`).
        #expect(FlowCoverage.finishNeverRefused(try Flow.load(contentsOf: flow)))
        #expect(!generated.stdout.contains("'finish'"), "\(generated.stdout)")

        // The suite passes, and covers every item but those (and what the search left undecided).
        let run = try CommandTests().quire(["test", "--plain", "--coverage", out])
        #expect(run.status == 0, "\(run.stdout)")
        let undecided = lines.filter { $0.contains(": undecided: ") }.count
        let report = run.stdout.components(separatedBy: "  not covered:\n")
        #expect(report.count == 2, "\(run.stdout)")
        let gaps = report.last!.split(separator: "\n").filter { $0.hasPrefix("    ") }
        #expect(gaps.count == 2 + undecided, "\(gaps)")
        #expect(gaps.contains { $0.hasSuffix("$.pages[2]: page 'both' was never current") })
        #expect(gaps.contains { $0.hasSuffix("$.pages[2].visibleIf: visibleIf was never true") })
        #expect(undecided == 0, "\(generated.stdout)")

        // Deterministic: the same scripts again.
        let again = folder.appendingPathComponent("again").path
        _ = try CommandTests().quire(["generate-sessions", "--cover", flow, "--walks", "600", again])
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: again).sorted()))
        for name in names {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: again + "/" + name)))
        }
    }

    /// The demo flows (the onboarding, and the app's with an apply page and a last page with no
    /// way back): every item reached, none proved or undecided, and the suite covers 100%. Their
    /// refusal of `finish` is no item: the gate proves it never happens (three quick swipes on
    /// the held page once passed the gate; `data/sessions/pinned/a-takeover-past-the-gate-stays-gated.json`).
    @Test(arguments: ["focus-onboarding.json", "focus-app.json"])
    func theDemoFlowsAreCoveredCompletely(file: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-witness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let flow = MapTests.root.appendingPathComponent("data/flows/" + file).path
        #expect(FlowCoverage.finishNeverRefused(try Flow.load(contentsOf: flow)))
        let out = folder.appendingPathComponent("suite").path
        let generated = try CommandTests().quire(["generate-sessions", "--cover", flow, out])
        #expect(generated.status == 0, "\(generated.stderr)")
        let lines = generated.stdout.split(separator: "\n").map(String.init)
        // "wrote N witness scripts to DIR: R of T coverage items reached in W walks of at most S steps"
        let first = try #require(lines.first)
        let counts = first.components(separatedBy: ": ").last!.split(separator: " ")
        #expect(first.hasPrefix("wrote ") && counts.count > 3 && counts[0] == counts[2], "\(generated.stdout)")
        #expect(lines.count == 1, "\(generated.stdout)")

        let run = try CommandTests().quire(["test", "--plain", "--coverage", out])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(!run.stdout.contains("not covered"), "\(run.stdout)")
        #expect(run.stdout.contains("  refusals    100% "), "\(run.stdout)")
    }

    /// The gate's proof, checked the other way: random walks over the demo flows with the
    /// search's events — bursts of three with no tick between, which build up retargets,
    /// takeovers and rubber bands — never get `finish` refused.
    @Test(arguments: ["focus-onboarding.json", "focus-app.json"])
    func randomWalksNeverGetFinishRefusedWhereTheGateProvesIt(file: String) throws {
        let flow = try Flow.load(contentsOf: MapTests.root.appendingPathComponent("data/flows/" + file).path)
        try #require(FlowCoverage.finishNeverRefused(flow))
        let events = WitnessSearch.events(for: flow)
        var random = SplitMix64(seed: 7)
        var buffer: [SessionNotification] = []
        var refusedFinish = 0
        var refusedGate = 0
        for _ in 0..<1500 {
            var session = Session(flow: flow)
            var sent = 0
            while sent < 60 {
                let event = events[random.below(events.count)]
                for _ in 0..<(random.below(4) == 0 ? 3 : 1) {
                    session.send(event, into: &buffer)
                    sent += 1
                    for notification in buffer {
                        if case .refused(.finish, _) = notification { refusedFinish += 1 }
                        if case .refused(.gate, _) = notification { refusedGate += 1 }
                    }
                }
            }
        }
        #expect(refusedFinish == 0)
        #expect(refusedGate > 0, "the walks never even met the gate")
    }

    /// Where the argument does not hold, `finish` can be refused and the search finds it: a
    /// backward wrap reaches the last page past no gate, and a last page with a required field
    /// can be finished empty.
    @Test(arguments: [
        (#"{"gate": "valid", "wrap": true, "animationMs": 0}"#, #"{"id": "end", "title": "Thanks"}"#),
        (
            #"{"gate": "valid", "animationMs": 0}"#,
            #"{"id": "end", "title": "Thanks", "fields": [{"id": "note", "kind": "text", "label": "Note", "required": true}]}"#
        ),
    ])
    func aReachableRefusalOfFinishGetsAWitness(paging: String, lastPage: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-witness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let flow = folder.appendingPathComponent("flow.json").path
        let text = """
            {"format": "quire.flow/1", "id": "wrap", "title": "Wrap", "paging": \(paging),
             "pages": [
               {"id": "start", "title": "Start"},
               {"id": "name", "title": "Name",
                "fields": [{"id": "name", "kind": "text", "label": "Name", "required": true}]},
               \(lastPage)
             ]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: flow))
        // The argument does not claim it (the search alone would hide an unsound claim: it stops
        // once only proved items are left, but may have reached this one first).
        #expect(!FlowCoverage.finishNeverRefused(try Flow.load(contentsOf: flow)))
        let out = folder.appendingPathComponent("suite").path
        let generated = try CommandTests().quire(["generate-sessions", "--cover", flow, "--walks", "600", out])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(!generated.stdout.contains("'finish'"), "\(generated.stdout)")
        let run = try CommandTests().quire(["test", "--plain", "--coverage", out])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(!run.stdout.contains("refused for 'finish'"), "\(run.stdout)")
    }
}
