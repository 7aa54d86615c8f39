import Foundation
import QuireCore
import Testing
import QuireTestSupport

/// The `quire` command as a user runs it: exit codes, the console's last line, and each
/// reporter against golden output (`QUIRE_UPDATE_GOLDEN=1 swift test` rewrites the golden files).
@Suite struct CommandTests {
    typealias Run = ProcessRun

    /// The `quire` binary built beside the test bundle.
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("quire")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/quire")
    }()

    func quire(_ arguments: [String], in directory: URL = fixtures) throws -> Run {
        try runProcess(Self.binary, arguments, in: directory)
    }

    func checkGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["QUIRE_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: file)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "differs from Golden/\(name)", sourceLocation: sourceLocation)
    }

    @Test func checkRejectsALayoutThatLeavesTheFlowsFolderWithItsPositionAndExitCode2() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-check-layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "missing.ui"}, {"id": "q", "layout": "../up.ui"}]}"#
            .write(to: folder.appendingPathComponent("flow.json"), atomically: true, encoding: .utf8)
        let run = try quire(["check", "flow.json"], in: folder)
        #expect(run.status == 2)
        #expect(
            run.stderr == """
                flow.json:1:71: $.pages[0].layout: cannot read the layout 'missing.ui': it does not exist
                flow.json:1:108: $.pages[1].layout: the layout path '../up.ui' contains '..'; a layout is resolved inside the flow's folder only
                1 of 1 flow rejected

                """)
        try #"<interface><object class="GtkBox" id="page:root"/></interface>"#.write(
            to: folder.appendingPathComponent("missing.ui"), atomically: true, encoding: .utf8)
        try #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "missing.ui"}]}"#
            .write(to: folder.appendingPathComponent("flow.json"), atomically: true, encoding: .utf8)
        #expect(try quire(["check", "flow.json"], in: folder).status == 0)
    }

    @Test func theBinaryIsThere() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "\(Self.binary.path)")
    }

    @Test func allPassingExitsZeroAndEndsWithTheTotals() throws {
        let run = try quire(["test", "--plain", "pass"])
        #expect(run.status == 0)
        #expect(run.lastLine == "5 passed, 0 failed")
    }

    @Test func aFailingScriptExitsOne() throws {
        let run = try quire(["test", "--plain", "mixed/02-fail.json"])
        #expect(run.status == 1)
        #expect(run.lastLine == "0 passed, 1 failed")
    }

    @Test func badInputExitsTwoAndIsCountedApart() throws {
        let run = try quire(["test", "--plain", "mixed"])
        #expect(run.status == 2)
        #expect(run.lastLine == "1 passed, 2 failed, 2 bad")
    }

    @Test func aFolderWithNoScriptIsBadInputListedWithTheResults() throws {
        let run = try quire(["test", "--plain", "empty"])
        #expect(run.status == 2)
        #expect(run.stdout == "BAD   empty\n  empty: no quire.session/1 script in this folder\n0 passed, 0 failed, 1 bad\n")
    }

    @Test func aMissingPathIsBadInputAndTheOtherScriptsStillRun() throws {
        let run = try quire(["test", "--plain", "nowhere", "pass/a.json"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("BAD   nowhere\n  nowhere: no such file or folder\n"))
        #expect(run.lastLine == "1 passed, 0 failed, 1 bad")
    }

    @Test func quireWithNoSubcommandIsAUsageError() throws {
        let run = try quire([])
        #expect(run.status == 2)
        #expect(run.stderr.contains("USAGE: quire <subcommand>"))
    }

    @Test func aFileNamedExplicitlyMustBeAScript() throws {
        let run = try quire(["test", "--plain", "flows/mini.json"])
        #expect(run.status == 2)
        #expect(
            run.stdout.contains(
                "flows/mini.json:1:12: $.format: not a session script: its format is 'quire.flow/1', not 'quire.session/1' (check a flow with `quire check`)"
            ))
    }

    @Test(arguments: [["test"], ["test", "--shard", "3/2", "pass"], ["test", "--jobs", "0", "pass"], ["check"], ["frobnicate"]])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let run = try quire(arguments)
        #expect(run.status == 2)
        #expect(!run.stderr.isEmpty)
    }

    @Test func shardsPartitionTheSuiteDeterministically() throws {
        var seen: [String] = []
        for k in 1...3 {
            let run = try quire(["test", "--plain", "--shard", "\(k)/3", "pass"])
            #expect(run.status == 0)
            seen += run.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") }.map(String.init)
        }
        #expect(
            seen.sorted()
                == (try quire(["test", "--plain", "pass"])).stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") }.map(String.init)
                .sorted())
        #expect(Set(seen).count == 5)
    }

    @Test func theReportOrderIsStableWhateverTheJobs() throws {
        let one = try quire(["test", "--plain", "--jobs", "1", "mixed"])
        let many = try quire(["test", "--plain", "--jobs", "4", "mixed"])
        #expect(one.stdout == many.stdout)
    }

    @Test func theConsoleReportMatchesItsGoldenFile() throws {
        try checkGolden(try quire(["test", "--plain", "mixed"]).stdout, "mixed.console.txt")
    }

    @Test func theTAPReportMatchesItsGoldenFile() throws {
        let run = try quire(["test", "--plain", "--tap", "-", "mixed"])
        #expect(run.stderr.hasSuffix("1 passed, 2 failed, 2 bad\n"))
        try checkGolden(run.stdout, "mixed.tap")
    }

    @Test func theJUnitReportMatchesItsGoldenFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-junit-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try quire(["test", "--plain", "--junit", file.path, "mixed"])
        var xml = try String(contentsOf: file, encoding: .utf8)
        // Times vary from run to run: pin them before comparing.
        xml = xml.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="T""#, options: .regularExpression)
        xml = xml.replacingOccurrences(of: #"(time: |\()[0-9.]+ ms"#, with: "$1MS", options: .regularExpression)
        try checkGolden(xml, "mixed.junit.xml")
    }

    @Test func traceWritesAJSONTraceAndAPagePerScript() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try quire(["test", "--plain", "--trace", folder.path, "mixed"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        // Pages are named after the path, with a hash of it: `mixed_02-fail-<16 hex digits>.html`.
        let pattern = #"^mixed_(01-pass|02-fail|sub_06-emitted)-[0-9a-f]{16}\.(html|trace\.json)$"#
        #expect(files.count == 7)
        #expect(files.filter { $0.range(of: pattern, options: .regularExpression) != nil }.count == 6)
        #expect(files.contains("index.html"))
        let failing = try #require(files.first { $0.hasPrefix("mixed_02-fail-") && $0.hasSuffix(".trace.json") })
        let trace = try String(contentsOf: folder.appendingPathComponent(failing), encoding: .utf8)
        #expect(trace.contains(#""failingStep": 5"#))
        let page = try String(contentsOf: folder.appendingPathComponent(String(failing.dropLast(11)) + ".html"), encoding: .utf8)
        #expect(page.contains("Step 5</a> failed"))
    }

    @Test func finalStatesWritesTheLastStateOfEachScriptThatRanALine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-final-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try quire(["test", "--plain", "--final-states", file.path, "mixed"])
        #expect(run.status == 2)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(String($0)).value }
        #expect(lines.map { $0["script"] } == ["mixed/01-pass.json", "mixed/02-fail.json", "mixed/sub/06-emitted.json"])
        #expect(lines.map { $0["status"] } == ["passed", "failed", "failed"])
        // The passing script's state after its last step; the failing one's at the failing step
        // (step 5 of 6: the choice list still open, `accessory:done` not sent).
        #expect(lines[0]["state"]?["page"]?["index"] == 1)
        #expect(lines[0]["state"]?["values"]?["name"] == "Aki")
        #expect(lines[1]["state"]?["focus"] == "pick")
        #expect(lines[1]["state"]?["input"]?["draft"] == "y")
    }

    @Test func finalStatesToStandardOutputMovesTheConsoleReportToStandardError() throws {
        let run = try quire(["test", "--plain", "--final-states", "-", "pass/a.json"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix(#"{"script":"pass/a.json","status":"passed","state":{"page":"#))
        #expect(run.stderr.hasSuffix("1 passed, 0 failed\n"))
    }

    /// `quire check` on each file of the core's bad-flow corpus exits 2 and prints exactly the
    /// lines of its `.expected` file, then the count of rejected flows.
    @Test func checkRejectsEveryBadFlowWithItsMessages() throws {
        let corpus = testsFolder.deletingLastPathComponent().appendingPathComponent("QuireCoreTests/BadFlows")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 25)
        for file in files {
            let run = try quire(["check", file], in: corpus)
            let expected = try String(contentsOf: corpus.appendingPathComponent(String(file.dropLast(5)) + ".expected"), encoding: .utf8)
            #expect(run.status == 2, "\(file)")
            #expect(run.stderr == expected + "1 of 1 flow rejected\n", "\(file)")
            #expect(run.stdout.isEmpty, "\(file)")
        }
    }

    @Test func checkPrintsEveryProblemAndExitsTwo() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bad-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: bad) }
        try Data(
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [{"id": "d", "kind": "duration", "minuteInterval": 7}]}], "extra": true}"#
                .utf8
        ).write(to: bad)
        let run = try quire(["check", bad.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("$.pages[0].fields[0].minuteInterval: minuteInterval 7 does not divide 60"))
        #expect(run.stderr.contains("$.extra: unknown key 'extra' in the flow"))
        let good = try quire(["check", "flows/mini.json"])
        #expect(good.status == 0)
    }

    /// `--max-bytes` sets the largest flow `quire check` reads (16 MiB by default).
    @Test func checkReadsFlowsUpToMaxBytes() throws {
        let size = try FileManager.default.attributesOfItem(atPath: fixtures.appendingPathComponent("flows/mini.json").path)[.size] as! Int
        let over = try quire(["check", "--max-bytes", "\(size - 1)", "flows/mini.json"])
        #expect(over.status == 2)
        #expect(over.stderr.contains("flows/mini.json: the document is \(size) bytes; the limit is \(size - 1)"))
        let exact = try quire(["check", "--max-bytes", "\(size)", "flows/mini.json"])
        #expect(exact.status == 0)
        let zero = try quire(["check", "--max-bytes", "0", "flows/mini.json"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--max-bytes must be at least 1 (got 0)"))
    }
}

/// `expectScreenshot` headlessly: no window, so the step is skipped; a name that could leave its
/// folder is bad input at its position.
@Suite struct ScreenshotStepTests {
    @Test func quireTestSkipsScreenshotsAndRefusesANameThatLeavesTheFolder() throws {
        let run = try CommandTests().quire(["test", "--plain", "screenshots/walkthrough.json"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.lastLine == "1 passed, 0 failed")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-shot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let flow = fixtures.appendingPathComponent("screenshots/flow.json").path
        try Data(
            #"{"format": "quire.session/1", "flow": "\#(flow)", "steps": [{"expectScreenshot": "../up"}]}"#.utf8
        ).write(to: folder.appendingPathComponent("s.json"))
        let bad = try CommandTests().quire(["test", "--plain", "s.json"], in: folder)
        #expect(bad.status == 2)
        #expect(bad.stdout.contains("s.json:1:"), "\(bad.stdout)")
        #expect(bad.stdout.contains("$.steps[0].expectScreenshot: 'expectScreenshot' takes a name of 1 to 100 letters"))
    }
}
