import Foundation
import QuireCore
import QuireHarness
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
                == "flow.json:15:19: $.pages[2].visibleIf: warning: page 'both' can never be shown: its visibleIf is false for every value the fields it names can hold [page-never-shown]\n"
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

    // MARK: Rules, formats and the lint config (docs/lint.md)

    let lintFolder = fixtures.appendingPathComponent("lint")

    @Test func everyKindOfFindingHasOneStableRuleId() {
        let ids = FlowLint.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Set(FlowLint.rules.map(\.kind)) == Set(FlowLint.Kind.allCases))
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id)") }
        // Released ids never change: the table in docs/lint.md lists these.
        #expect(FlowLint.Kind.pageNeverVisible.rule.id == "page-never-shown")
        #expect(FlowLint.Kind.notAnalysed.rule.severity == .note)
        #expect(FlowLint.Kind.missingText.rule.severity == .warning)
    }

    @Test func sha256MatchesTheStandardsVectors() {
        #expect(LintReport.sha256("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(LintReport.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            LintReport.sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func textNamesEachFindingsRuleAndTheConfigChangesSeveritiesAndSuppresses() throws {
        let plain = try CommandTests().quire(["check", "flow.json"], in: lintFolder)
        #expect(plain.status == 0)
        let lines = plain.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(plain.stderr)")
        #expect(
            lines.contains(
                "flow.json:7:58: $.pages[0].back: warning: page 'start': back false has no effect on the first page (there is no page before it) [back-without-effect]"
            ))
        #expect(
            lines.contains {
                $0.hasPrefix("flow.json:18:19: $.pages[1].visibleIf: warning: page 'both' can never be shown")
                    && $0.hasSuffix("[page-never-shown]")
            })
        #expect(lines.contains { $0.contains(": note: field 'nap': min 1200") && $0.hasSuffix("[min-unreachable]") })
        #expect(plain.stdout == "flow.json: ok: flow 'clinic', 3 pages, 4 fields, 6 warnings, 2 notes\n")

        let configured = try CommandTests().quire(["check", "--config", "lint.json", "flow.json"], in: lintFolder)
        // field-never-enabled is an error there: exit 1 without --strict.
        #expect(configured.status == 1)
        #expect(configured.stdout == "flow.json: ok: flow 'clinic', 3 pages, 4 fields, 1 error, 3 warnings, 2 notes, 1 suppressed\n")
        #expect(configured.stderr.contains("error: field 'notes' can never be enabled"))
        #expect(!configured.stderr.contains("[page-never-shown]"))
        #expect(!configured.stderr.contains("[back-without-effect]"))
        // The suppression that matched nothing is named where it is.
        #expect(configured.stderr.contains("lint.json:6:5: $.suppress[1]: note: this suppression matched no finding (remove it)"))
        #expect(configured.stderr.hasSuffix("1 of 1 flow with findings of severity error\n"))
    }

    @Test func aBrokenConfigIsRefusedAtItsPositionsWithExitCode2() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("bad.json")
        try Data(
            #"""
            {"format": "quire.lint/1", "rules": {"no-such-rule": "warning", "missing-text": "loud"},
             "suppress": [{"rule": "missing-text"}], "extra": 1}
            """#.utf8
        ).write(to: config)
        let run = try CommandTests().quire(["check", "--config", config.path, "flow.json"], in: lintFolder)
        #expect(run.status == 2)
        #expect(run.stderr.contains(":1:38: $.rules.no-such-rule: no rule 'no-such-rule'"), "\(run.stderr)")
        #expect(run.stderr.contains("$.rules.missing-text: a rule's severity is"))
        #expect(run.stderr.contains("$.suppress[0]: a suppression gives its reason"))
        #expect(run.stderr.contains("$.extra: unknown key 'extra'"))
        #expect(run.stdout.isEmpty)
    }

    @Test func sarifHasRulesRuleIdsAndRegions() throws {
        let run = try CommandTests().quire(["check", "--format", "sarif", "--config", "lint.json", "flow.json"], in: lintFolder)
        #expect(run.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")
        let sarifRun = try #require((document["runs"] as? [[String: Any]])?.first)
        let driver = try #require((sarifRun["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == FlowLint.rules.map(\.id))
        let results = try #require(sarifRun["results"] as? [[String: Any]])
        #expect(results.count == 7)  // back-without-effect is off
        let page = try #require(results.first { $0["ruleId"] as? String == "page-never-shown" })
        #expect(rules[page["ruleIndex"] as! Int]["id"] as? String == "page-never-shown")
        let location = try #require((page["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "flow.json")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 18)
        #expect(region["startColumn"] as? Int == 19)
        let suppressions = try #require(page["suppressions"] as? [[String: Any]])
        #expect(suppressions.first?["justification"] as? String == "shown once the clinic takes both")
        let enabled = try #require(results.first { $0["ruleId"] as? String == "field-never-enabled" })
        #expect(enabled["level"] as? String == "error")
        // Text findings are not printed in the other formats; the stale suppression still is.
        #expect(!run.stderr.contains("[page-never-shown]"))
    }

    @Test func gitlabFingerprintsAreUniqueAndStableWhenLinesMove() throws {
        let first = try CommandTests().quire(["check", "--format", "gitlab", "flow.json"], in: lintFolder)
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [[String: Any]])
        #expect(issues.count == 8)
        let prints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(Set(prints).count == 8)
        #expect(prints.allSatisfy { $0.count == 64 })
        // Lines added above every finding: the same fingerprints, lines one further down.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: lintFolder.appendingPathComponent("flow.json"), encoding: .utf8)
        try Data(("\n" + text).utf8).write(to: folder.appendingPathComponent("flow.json"))
        let moved = try CommandTests().quire(["check", "--format", "gitlab", "flow.json"], in: folder)
        let movedIssues = try #require(try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as? [[String: Any]])
        #expect(movedIssues.compactMap { $0["fingerprint"] as? String } == prints)
        func lines(_ issues: [[String: Any]]) -> [Int] {
            issues.map { (($0["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int ?? 0 }
        }
        #expect(lines(movedIssues) == lines(issues).map { $0 + 1 })
        #expect(Set(issues.compactMap { $0["severity"] as? String }) == ["minor", "info"])
    }
}
