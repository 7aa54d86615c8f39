import Foundation
import Testing

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
        #expect(undecided <= 1)

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
}
