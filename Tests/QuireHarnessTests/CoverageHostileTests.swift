import Foundation
import QuireCore
import Testing

@testable import QuireHarness
import QuireTestSupport

/// Hostile coverage files and runs (issue 34): `quire coverage merge` given entries that name
/// other files, huge counts and two spellings of one flow; `quire test --coverage` while its flow
/// file is rewritten; flows in folders whose names genhtml cannot take. Each command runs under a
/// time limit and an address-space limit, and must answer 0, 1 or 2 — never a crash.
@Suite struct CoverageHostileTests {
    let fixture = fixtures.appendingPathComponent("coverage")

    /// `quire` run with `arguments` in `directory`, killed after `seconds` and limited to 2 GiB
    /// of address space (not under a sanitizer, whose shadow memory needs more).
    func quire(_ arguments: [String], in directory: URL, seconds: Int = 60) throws -> CommandTests.Run {
        let limit = HostileInputTests.sanitized ? [] : ["/usr/bin/prlimit", "--as=\(2 << 30)", "--"]
        return try runProcess(
            URL(fileURLWithPath: "/usr/bin/timeout"), ["-s", "KILL", "\(seconds)"] + limit + [CommandTests.binary.path] + arguments,
            in: directory)
    }

    /// A scratch folder with the fixture's flow at `flow.json` and its cat script in `scripts/`.
    func scratch(_ name: String = "quire-coverage-hostile") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try copyFixture(into: folder)
        return folder
    }

    func copyFixture(into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try Data(contentsOf: fixture.appendingPathComponent("flow.json")).write(to: folder.appendingPathComponent("flow.json"))
        try Data(contentsOf: fixture.appendingPathComponent("scripts/cat.json")).write(
            to: folder.appendingPathComponent("scripts/cat.json"))
    }

    /// The fixture's coverage after its cat script, as `quire test --coverage-json` writes it.
    func coverageEntry(in folder: URL) throws -> [String: Any] {
        let run = try quire(["test", "--plain", "--coverage-json", "cov.json", "scripts"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("cov.json"))) as! [String: Any]
        return (root["flows"] as! [[String: Any]])[0]
    }

    func writeCoverage(_ entries: [[String: Any]], to file: URL) throws {
        let root: [String: Any] = ["format": "quire.coverage/1", "flows": entries]
        try JSONSerialization.data(withJSONObject: root).write(to: file)
    }

    // MARK: quire coverage merge

    /// An entry may name any file: the merge says where (the entry's position) and why, and never
    /// what the file holds. A named pipe is not waited on.
    @Test func anEntryNamingAFileThatIsNoFlowIsRefusedWithoutItsContent() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("SECRET-TOKEN=hunter2\nnot json at all\n".utf8).write(to: folder.appendingPathComponent("secret.txt"))
        try Data(#"{"format": "quire.flow/1", "id": "x", "title": "SECRET-TITLE", "pages": 7}"#.utf8).write(
            to: folder.appendingPathComponent("bad-flow.json"))
        #expect(mkfifo(folder.appendingPathComponent("pipe.json").path, 0o600) == 0)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.json"), withIntermediateDirectories: true)
        let names = ["secret.txt", "bad-flow.json", "pipe.json", "dir.json", "missing.json", "/etc/passwd"]
        try writeCoverage(names.map { ["file": $0, "id": "x"] }, to: folder.appendingPathComponent("hostile.json"))
        let run = try quire(["coverage", "merge", "hostile.json"], in: folder, seconds: 20)
        #expect(run.status == 2, "\(run.stderr)")
        for (index, name) in names.enumerated() {
            #expect(run.stderr.contains("$.flows[\(index)].file: the flow '\(name)' cannot be loaded: "), "\(run.stderr)")
        }
        #expect(
            run.stderr.contains(
                "'secret.txt' cannot be loaded: it is not a valid quire.flow/1 flow (1 problem, the first at line 1, column 1;"))
        #expect(run.stderr.contains("'pipe.json' cannot be loaded: cannot read the file: it is a named pipe"), "\(run.stderr)")
        #expect(run.stderr.contains("'dir.json' cannot be loaded: cannot read the file: it is a directory"), "\(run.stderr)")
        // Positions are in the coverage file, and nothing of the files named is echoed.
        #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("hostile.json:1:") }, "\(run.stderr)")
        #expect(!run.stderr.contains("SECRET") && !run.stderr.contains("hunter2") && !run.stderr.contains("root:"), "\(run.stderr)")
    }

    /// Counts add up to at most 2^53 (what a coverage file holds exactly): thousands of entries
    /// each claiming 2^53 saturate instead of overflowing Swift's trapping arithmetic (SIGILL).
    @Test func hugeCountsSaturateAndCountsPastTheLimitAreRefusedAtTheirPosition() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var entry = try coverageEntry(in: folder)
        entry["scripts"] = FlowCoverage.maxCount
        var pages = entry["pages"] as! [[String: Any]]
        pages[0]["current"] = FlowCoverage.maxCount
        entry["pages"] = pages
        try writeCoverage(Array(repeating: entry, count: 2000), to: folder.appendingPathComponent("huge.json"))
        let run = try quire(["coverage", "merge", "huge.json", "huge.json", "--coverage-json", "merged.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("coverage of flow.json (flow 'pets', 9007199254740992 scripts):"))
        let merged = try String(contentsOf: folder.appendingPathComponent("merged.json"), encoding: .utf8)
        #expect(merged.contains(#""current" : 9007199254740992"#) || merged.contains(#""current": 9007199254740992"#))
        // The merged file merges again (its counts are within the limit).
        let again = try quire(["coverage", "merge", "merged.json", "merged.json"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")

        entry["scripts"] = 1e300
        try writeCoverage([entry], to: folder.appendingPathComponent("over.json"))
        let over = try quire(["coverage", "merge", "over.json"], in: folder)
        #expect(over.status == 2)
        #expect(over.stderr.contains("over.json:1:"), "\(over.stderr)")
        #expect(over.stderr.contains("$.flows[0].scripts: "), "\(over.stderr)")
    }

    /// `link/../flow.json` is read as `quire test` names it, `flow.json`, whatever `link` points
    /// at: one flow, counted twice — not two flows of one name whose counters could not add up.
    @Test func twoSpellingsOfOneFlowAreOneFlow() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let entry = try coverageEntry(in: folder)
        // `link` leads to a folder whose parent holds another flow with the same id.
        let elsewhere = folder.appendingPathComponent("elsewhere/sub")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data(#"{"format": "quire.flow/1", "id": "pets", "pages": [{"id": "start"}]}"#.utf8).write(
            to: folder.appendingPathComponent("elsewhere/flow.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "elsewhere/sub")
        var other = entry
        other["file"] = "link/../flow.json"
        var dotted = entry
        dotted["file"] = "./scripts/../flow.json"
        try writeCoverage([entry, other, dotted], to: folder.appendingPathComponent("spellings.json"))
        let run = try quire(["coverage", "merge", "spellings.json", "--coverage-json", "-"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let flows = root["flows"] as! [[String: Any]]
        #expect(flows.count == 1)
        #expect(flows.first?["file"] as? String == "flow.json")
        #expect(flows.first?["scripts"] as? Int == 3)
    }

    /// Entries that do not fit their flow are refused by the lengths of their lists, before any
    /// work in the flow's size, and the flow is read once for them all.
    @Test func manyEntriesNamingOneFlowReadItOnce() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var flows = CoverageReport.MergeFlows()
        let file = folder.appendingPathComponent("flow.json").path
        let bytes = Array(
            try JSONSerialization.data(
                withJSONObject: ["format": "quire.coverage/1", "flows": Array(repeating: ["file": file, "id": "pets"], count: 50)]))
        #expect(throws: DocumentError.self) { try CoverageReport.read(bytes, file: "short.json", flows: &flows) }
        #expect(flows.loaded.count == 1)
        do {
            _ = try CoverageReport.read(bytes, file: "short.json", flows: &flows)
        } catch {
            #expect(error.diagnostics.count > 100)  // pages, fields and conditions of each entry; 100 listed, then a count
            #expect(error.diagnostics.first?.description.hasPrefix("short.json:1:") == true)
        }
    }

    // MARK: quire test --coverage

    /// Every job of a run is held to the first reading of a flow file: a reading that differs
    /// gets no coverage template, so no counters of two versions are ever added up.
    @Test func aFlowReadOtherwiseLaterGetsNoTemplate() throws {
        let templates = CoverageTemplates()
        let text = try String(contentsOf: fixture.appendingPathComponent("flow.json"), encoding: .utf8)
        let first = try Flow.load(json: text, file: "flow.json")
        let same = try Flow.load(json: text, file: "flow.json")
        let changed = try Flow.load(json: text.replacingOccurrences(of: "\"walks\"", with: "\"runs\""), file: "flow.json")
        #expect(templates.template(file: "flow.json", flow: first) != nil)
        #expect(templates.template(file: "./flow.json", flow: same)?.flow.isSameReading(as: first) == true)
        #expect(templates.template(file: "flow.json", flow: changed) == nil)
    }

    /// Positions in the reports come from the bytes the flow was read from, not the file as it
    /// is when the reports are written.
    @Test func reportsPointIntoTheFlowAsItWasRead() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = Suite.Options(jobs: 1)
        options.runner.coverage = true
        let outcome = Suite.run(Suite.discover([folder.appendingPathComponent("scripts").path]), options: options, reporters: [])
        let before = CoverageReport.lcov(outcome.coverage)
        #expect(before.contains("BRDA:13,0,1,"))
        // The flow now has two lines more at its top, and another page.
        let text = try String(contentsOf: folder.appendingPathComponent("flow.json"), encoding: .utf8)
        try Data(("\n\n" + text.replacingOccurrences(of: "\"pages\": [", with: "\"pages\": [{\"id\": \"new\"},")).utf8).write(
            to: folder.appendingPathComponent("flow.json"))
        #expect(CoverageReport.lcov(outcome.coverage) == before)
        #expect(
            CoverageReport.console(outcome.coverage).contains(
                "    \(outcome.coverage[0].file):13:5: $.pages[1]: page 'walks' was never current"))
    }

    /// The flow file is rewritten (atomically, between versions with other pages and fields)
    /// all through `--coverage` runs on two jobs: each run ends by itself with 0, 1 or 2, and a
    /// script that read another version is reported as such (it crashed 3 runs in 4).
    @Test func aFlowRewrittenDuringACoverageRunIsNeverACrash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-coverage-churn-\(UUID().uuidString)")
        let scripts = folder.appendingPathComponent("s")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func flow(_ pages: Int) -> Data {
            let list = (0..<pages).map { page in
                let fields = (0..<pages).map { #"{"id": "f\#(page)_\#($0)", "kind": "text", "label": "T"}"# }.joined(separator: ",")
                let condition = page == 1 ? #", "visibleIf": {"field": "f0_0", "filled": false}"# : ""
                return #"{"id": "p\#(page)", "fields": [\#(fields)]\#(condition)}"#
            }
            return Data(
                #"{"format": "quire.flow/1", "id": "churn", "paging": {"animationMs": 0}, "pages": [\#(list.joined(separator: ","))]}"#.utf8
            )
        }
        let flowFile = folder.appendingPathComponent("flow.json")
        try flow(3).write(to: flowFile)
        for index in 0..<400 {
            try Data(
                #"{"format": "quire.session/1", "flow": "../flow.json", "steps": [{"key": "End"}, {"tap": "f0_0"}, {"type": "x"}]}"#.utf8
            )
            .write(to: scripts.appendingPathComponent(String(format: "s%03d.json", index)))
        }
        let stop = Locked(false)
        let stopped = DispatchSemaphore(value: 0)
        let versions = (3...7).map(flow)
        Thread {
            var turn = 0
            while !stop.withLock({ $0 }) {
                try? versions[turn % versions.count].write(to: flowFile, options: .atomic)
                turn += 1
                usleep(500)
            }
            stopped.signal()
        }.start()
        defer {
            stop.withLock { $0 = true }
            stopped.wait()
        }
        var changedSeen = 0
        for _ in 0..<6 {
            let run = try quire(
                ["test", "--plain", "--jobs", "2", "--coverage-json", "cov.json", "--coverage-lcov", "cov.info", "s"], in: folder,
                seconds: 60)
            #expect([0, 1, 2].contains(run.status), "exit \(run.status): \(run.stderr.suffix(2000))")
            if run.status == 2 {
                #expect(run.stdout.contains("the flow file changed while the tests ran"), "\(run.stdout.suffix(2000))")
                changedSeen += 1
            }
            // Whatever was counted is one version's coverage: the file merges back.
            if run.status != 2 || run.stdout.contains("coverage of flow.json") {
                let merge = try quire(["coverage", "merge", "cov.json"], in: folder)
                #expect([0, 2].contains(merge.status), "\(merge.stderr)")
            }
        }
        // Not asserted (timing decides), but said when a run never met a change.
        if changedSeen == 0 { print("note: no run read two versions of the flow this time") }
    }

    // MARK: lcov source names

    /// lcov cannot escape a name, and genhtml writes names into its pages as they are: a flow
    /// whose path holds `"` (an attribute in genhtml's HTML) or a control character (genhtml
    /// stops the whole report) is left out of the tracefile with a message, and genhtml renders
    /// the rest.
    @Test func flowsWhosePathsGenhtmlCannotTakeAreLeftOutOfLcovAndTheRestRenders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-coverage-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["plain", "a\"onmouseover=\"x", "tab\tand\u{1}"]
        for name in names { try copyFixture(into: folder.appendingPathComponent(name)) }
        let run = try quire(
            ["test", "--plain", "--coverage-lcov", "cov.info", "--coverage-json", "cov.json"] + names.map { "\($0)/scripts" }, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "quire test: the lcov coverage leaves out the flow '\(folder.path)/a\"onmouseover=\"x/flow.json': its path holds '\"', which genhtml writes into its HTML pages unescaped"
            ), "\(run.stderr)")
        #expect(run.stderr.contains("/tab\\tand\\u0001/flow.json': its path holds the control character U+0009"), "\(run.stderr)")
        let lcov = try String(contentsOf: folder.appendingPathComponent("cov.info"), encoding: .utf8)
        #expect(lcov.split(separator: "\n").filter { $0.hasPrefix("SF:") } == ["SF:\(folder.path)/plain/flow.json"])
        // The JSON keeps all three.
        let json = try String(contentsOf: folder.appendingPathComponent("cov.json"), encoding: .utf8)
        #expect(json.components(separatedBy: "\"file\"").count == 4)

        let genhtml = try runProcess(
            URL(fileURLWithPath: "/usr/bin/genhtml"),
            ["--branch-coverage", "--quiet", "-o", folder.appendingPathComponent("html").path, "cov.info"], in: folder)
        let said = genhtml.stderr
        #expect(genhtml.status == 0, "\(said)")
        #expect(said.isEmpty, "\(said)")
        var pages = 0
        let walker = FileManager.default.enumerator(atPath: folder.appendingPathComponent("html").path)
        while let page = walker?.nextObject() as? String {
            guard page.hasSuffix(".html") else { continue }
            pages += 1
            let html = try String(contentsOf: folder.appendingPathComponent("html/\(page)"), encoding: .utf8)
            #expect(!html.contains("onmouseover"), "\(page)")
        }
        #expect(pages > 0)
    }

    @Test func lcovNameProblemsAreTheCharactersGenhtmlMishandles() {
        for bad in ["/a\"b", "/a<b", "/a>b", "/a&b", "/a'b", "/a\nb", "/a\u{7F}b", "/a\u{85}b", "/a\u{FFFD}b"] {
            #expect(CoverageReport.lcovNameProblem(bad) != nil, "\(bad)")
        }
        for good in ["/a b", "/é—ü", "/a#b%c", "/a\\b", "/a:b,c"] {
            #expect(CoverageReport.lcovNameProblem(good) == nil, "\(good)")
        }
    }

    // MARK: quire test's memory

    /// The flow cache lets the flows read longest ago go past `FlowCache.flowBytes`, keeping the
    /// newest whatever its size.
    @Test func theFlowCacheKeepsABoundedNumberOfBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-flow-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let padding = String(repeating: " ", count: 1 << 20)
        let cache = FlowCache()
        for index in 0..<12 {
            let path = folder.appendingPathComponent("f\(index).json").path
            try Data(#"{"format": "quire.flow/1", "id": "f\#(index)", "pages": [{"id": "p"}]}\#(padding)"#.utf8).write(
                to: URL(fileURLWithPath: path))
            #expect((try? cache.flow(at: path).get())?.id == "f\(index)")
            #expect(cache.kept.bytes <= FlowCache.flowBytes)
        }
        #expect(cache.kept.flows < 12)
        #expect(cache.kept.flows >= 1)
        // A flow let go is read again when named again.
        #expect((try? cache.flow(at: folder.appendingPathComponent("f0.json").path).get())?.id == "f0")
    }
}
