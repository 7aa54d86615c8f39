import Foundation
import QuireCore
import Testing

@testable import QuireHarness
import QuireTestSupport

/// `quire test --coverage`: what a suite exercised of its flows, merged across scripts and jobs.
@Suite struct CoverageTests {
    let folder = fixtures.appendingPathComponent("coverage")

    func coverage(_ paths: [String], jobs: Int = 1) -> [FlowCoverage] {
        var options = Suite.Options(jobs: jobs)
        options.runner.coverage = true
        let outcome = Suite.run(Suite.discover(paths.map { folder.appendingPathComponent($0).path }), options: options, reporters: [])
        #expect(outcome.summary.failed == 0 && outcome.summary.bad == 0)
        return outcome.coverage
    }

    /// The `walks` page's condition: (seen true, seen false).
    func walksBranch(_ coverage: FlowCoverage) -> (Int, Int) {
        let at = coverage.sites.firstIndex { $0.path.description == "$.pages[1].visibleIf" }!
        return (coverage.siteTrue[at], coverage.siteFalse[at])
    }

    @Test func aBranchNoScriptTakesIsHalfCoveredAndOneMoreScriptCoversIt() throws {
        let one = coverage(["scripts"])
        #expect(one.count == 1)
        let cat = try #require(one.first)
        #expect(cat.file.hasSuffix("Fixtures/coverage/flow.json"))
        #expect(cat.scripts == 1)
        let (taken, notTaken) = walksBranch(cat)
        #expect(taken == 0 && notTaken > 0)  // 50%: only "false" was seen
        #expect(cat.gaps.contains { $0.path.description == "$.pages[1].visibleIf" && $0.message == "visibleIf was never true" })
        #expect(cat.pageCurrent == [1, 0, 0, 1])
        #expect(cat.codeHits(field: 0, .required) > 0)  // Next on the empty page revealed it
        #expect(cat.refusals[Refusal.allCases.firstIndex(of: .gate)!] == 1)

        let both = try #require(coverage(["scripts", "more"]).first)
        #expect(both.scripts == 2)
        let (nowTaken, stillNotTaken) = walksBranch(both)
        #expect(nowTaken > 0 && stillNotTaken > notTaken)  // 100%: the dog script saw both
        #expect(!both.gaps.contains { $0.path.description == "$.pages[1].visibleIf" })
        #expect(both.pageCurrent == [2, 1, 0, 1])
        // The page no answer can show stays uncovered, as the lint says.
        #expect(both.gaps.contains { $0.message == "page 'both' was never current" })
    }

    /// An event that was ignored changed nothing: the session is not read after it, so it adds
    /// no sighting of a condition's outcome (docs/coverage.md, "Decisions").
    @Test func anIgnoredEventAddsNoSighting() throws {
        func run(_ steps: String) throws -> FlowCoverage {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quire-coverage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            try Data(contentsOf: folder.appendingPathComponent("flow.json")).write(to: scratch.appendingPathComponent("flow.json"))
            let script = #"{"format": "quire.session/1", "flow": "flow.json", "steps": [\#(steps)]}"#
            try Data(script.utf8).write(to: scratch.appendingPathComponent("script.json"))
            var options = Suite.Options(jobs: 1)
            options.runner.coverage = true
            let outcome = Suite.run(Suite.discover([scratch.path]), options: options, reporters: [])
            #expect(outcome.summary.passed == 1)
            return try #require(outcome.coverage.first)
        }
        let plain = try run(#"{"tap": "button:next"}"#)
        let ignoredFirst = try run(
            #"{"tap": "button:back"}, {"expectEmitted": ["ignored"]}, {"tap": "button:back"}, {"tap": "button:next"}"#)
        #expect(walksBranch(plain).1 > 0)
        #expect(ignoredFirst.siteTrue == plain.siteTrue && ignoredFirst.siteFalse == plain.siteFalse)
        #expect(ignoredFirst.pageCurrent == plain.pageCurrent)
    }

    @Test func coverageMergedOverJobsIsTheSameAsOverOneJob() throws {
        let sessions = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sessions").path
        func run(_ jobs: Int) -> [FlowCoverage] {
            var options = Suite.Options(jobs: jobs)
            options.runner.coverage = true
            return Suite.run(Suite.discover([sessions]), options: options, reporters: []).coverage
        }
        let serial = run(1)
        let parallel = run(2)
        #expect(serial.count >= 10)
        #expect(serial.map(\.file) == parallel.map(\.file))
        #expect(CoverageReport.lcov(serial) == CoverageReport.lcov(parallel))
        #expect(JSONWriter.string(CoverageReport.json(serial)) == JSONWriter.string(CoverageReport.json(parallel)))
    }

    @Test func shardsMergedFromTheirCoverageFilesAreTheUnshardedCoverage() throws {
        let sessions = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sessions").path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quire-coverage-shards-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func run(_ shard: (Int, Int)) -> [FlowCoverage] {
            var options = Suite.Options(jobs: 2)
            options.shard = shard
            options.runner.coverage = true
            return Suite.run(Suite.discover([sessions]), options: options, reporters: []).coverage
        }
        let whole = run((1, 1))
        var files: [String] = []
        for k in 1...2 {
            let part = run((k, 2))
            // Each shard alone misses something the whole suite covers.
            #expect(CoverageReport.lcov(part) != CoverageReport.lcov(whole))
            let file = scratch.appendingPathComponent("shard\(k).json").path
            try Data((JSONWriter.string(CoverageReport.json(part), style: .pretty) + "\n").utf8).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        let merged = try CoverageReport.merge(files)
        #expect(whole.count >= 10)
        #expect(merged.map(\.file) == whole.map(\.file))
        #expect(merged.map(\.scripts) == whole.map(\.scripts))
        #expect(JSONWriter.string(CoverageReport.json(merged)) == JSONWriter.string(CoverageReport.json(whole)))
        #expect(CoverageReport.lcov(merged) == CoverageReport.lcov(whole))
        #expect(CoverageReport.console(merged) == CoverageReport.console(whole))
        // The same shard twice counts twice: counters add up.
        let twice = try CoverageReport.merge([files[0], files[0]])
        let once = try CoverageReport.merge([files[0]])
        #expect(twice.map(\.scripts) == once.map { $0.scripts * 2 })
        #expect(twice.map(\.pageCurrent) == once.map { $0.pageCurrent.map { $0 * 2 } })
    }

    @Test func theMergeCommandWritesWhatTheUnshardedRunWrites() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quire-coverage-merge-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }
        let command = CommandTests()
        let whole = try command.quire(
            ["test", "--plain", "--coverage-json", path("whole.json"), "--coverage-lcov", path("whole.info"), "scripts", "more"], in: folder
        )
        #expect(whole.status == 0)
        for k in 1...2 {
            let shard = try command.quire(
                ["test", "--plain", "--shard", "\(k)/2", "--coverage-json", path("\(k).json"), "scripts", "more"], in: folder)
            #expect(shard.status == 0)
        }
        let merge = try command.quire(
            [
                "coverage", "merge", path("1.json"), path("2.json"), "--coverage-json", path("merged.json"), "--coverage-lcov",
                path("merged.info"),
            ],
            in: folder)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(
            try String(contentsOfFile: path("merged.json"), encoding: .utf8) == String(contentsOfFile: path("whole.json"), encoding: .utf8))
        #expect(
            try String(contentsOfFile: path("merged.info"), encoding: .utf8) == String(contentsOfFile: path("whole.info"), encoding: .utf8))
        // The summary is the one the unsharded run printed after its totals.
        let summary = try #require(whole.stdout.range(of: "2 passed, 0 failed\n")).upperBound
        #expect(merge.stdout == String(whole.stdout[summary...]))
        #expect(merge.stdout.hasPrefix("coverage of flow.json (flow 'pets', 2 scripts):\n  pages        75% (3/4)\n"))

        // Coverage of another version of the flow is bad input, named where it does not fit.
        let text = try String(contentsOfFile: path("1.json"), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"id\": \"walks\"", with: "\"id\": \"runs\"").utf8).write(
            to: URL(fileURLWithPath: path("old.json")))
        let stale = try command.quire(["coverage", "merge", path("old.json"), path("2.json")], in: folder)
        #expect(stale.status == 2)
        #expect(stale.stderr.contains("old.json:"))
        #expect(stale.stderr.contains("$.flows[0].pages[1]: the page does not match the flow file 'flow.json' as it is now"))
        let notCoverage = try command.quire(["coverage", "merge", "flow.json"], in: folder)
        #expect(notCoverage.status == 2)
        #expect(notCoverage.stderr.contains("not a coverage file"))
    }

    @Test func theLcovTracefileNamesTheFlowsLinesAndBranches() throws {
        let text = CoverageReport.lcov(coverage(["scripts", "more"]))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "TN:")
        #expect(lines.contains("SF:" + folder.appendingPathComponent("flow.json").path))
        // The walks condition is on line 13 of flow.json; the impossible one on line 15.
        #expect(lines.contains { $0.hasPrefix("BRDA:13,0,0,") && !$0.hasSuffix(",0") })
        #expect(lines.contains { $0.hasPrefix("BRDA:13,0,1,") && !$0.hasSuffix(",0") })
        #expect(lines.contains("BRDA:15,1,0,0"))
        #expect(lines.contains("BRF:4") && lines.contains("BRH:3"))
        #expect(lines.contains("DA:14,0"))  // the page 'both'
        #expect(lines.last == "end_of_record")
    }

    @Test func theCommandWritesJSONAndLcovThatGenhtmlRenders() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quire-coverage-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let json = scratch.appendingPathComponent("c.json").path
        let lcov = scratch.appendingPathComponent("c.info").path
        let run = try CommandTests().quire(
            ["test", "--plain", "--jobs", "2", "--coverage-json", json, "--coverage-lcov", lcov, "scripts", "more"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout.contains("2 passed, 0 failed\ncoverage of flow.json (flow 'pets', 2 scripts):\n  pages        75% (3/4)\n"))
        #expect(run.stdout.contains("    flow.json:14:5: $.pages[2]: page 'both' was never current\n"))
        let document = try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8)).value
        guard case .object(let root) = document, case .array(let flows)? = root["flows"], case .object(let flow)? = flows.first else {
            Issue.record("not a coverage document")
            return
        }
        #expect(root["format"] == .string("quire.coverage/1"))
        #expect(flow["id"] == .string("pets"))
        // genhtml (Debian's lcov) renders the tracefile with its branches, without a complaint.
        let genhtml = try runProcess(
            URL(fileURLWithPath: "/usr/bin/genhtml"),
            ["--branch-coverage", "--quiet", "-o", scratch.appendingPathComponent("html").path, lcov])
        let said = genhtml.stderr
        #expect(genhtml.status == 0, "\(said)")
        #expect(said.isEmpty, "\(said)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("html/index.html").path))
    }
}
