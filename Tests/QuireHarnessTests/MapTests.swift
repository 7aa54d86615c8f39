import Foundation
import QuireCore
import Testing

@testable import QuireHarness
import QuireTestSupport

/// `quire map`: the flow as a Graphviz graph, its document text escaped, rendered to SVG by `dot`.
@Suite struct MapTests {
    static let root = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let demo = root.appendingPathComponent("data/flows/focus-onboarding.json").path

    @Test func theMapShowsPagesFieldsConditionsTheGateAndTheLint() throws {
        let flow = try Flow.load(contentsOf: fixtures.appendingPathComponent("coverage/flow.json").path)
        let dot = FlowMap(flow: flow).dot()
        #expect(dot.hasPrefix("digraph quire_flow {\n"))
        #expect(dot.contains("<B>3. both</B> Dog and cat at once <FONT COLOR=\"#c62828\">(can never be shown)</FONT>"))
        #expect(dot.contains("visibleIf: pet = dog</FONT>"))
        #expect(dot.contains("visibleIf: all(pet = dog, pet = cat) (never true)"))
        #expect(dot.contains("<B>pet</B> (choice) Which pet? <FONT COLOR=\"#c62828\">* required</FONT>"))
        #expect(dot.contains("p0 -> p1 [label=\"next (gate: valid)\""))
        #expect(dot.contains("p0 -> p3 [style=dashed, label=\"when hidden\""))
    }

    @Test func coverageColoursWhatASuiteCovered() throws {
        let path = fixtures.appendingPathComponent("coverage/flow.json").path
        let flow = try Flow.load(contentsOf: path)
        var options = Suite.Options(jobs: 1)
        options.runner.coverage = true
        let outcome = Suite.run(Suite.discover([fixtures.appendingPathComponent("coverage/scripts").path]), options: options, reporters: [])
        let document = CoverageReport.json(outcome.coverage)
        let coverage = try #require(FlowMap.Coverage.read(document, flowID: "pets", file: path))
        #expect(coverage.pages == ["start": 1, "walks": 0, "both": 0, "end": 1])
        let dot = FlowMap(flow: flow, coverage: coverage).dot()
        #expect(dot.contains("<B>1. start</B> Your pet <FONT COLOR=\"#2e7d32\">✔ current</FONT>"))
        #expect(dot.contains("<B>2. walks</B> Walks <FONT COLOR=\"#9e9e9e\">never current</FONT>"))
        #expect(dot.contains("visibleIf: pet = dog [true ✘ false ✔]"))
        #expect(FlowMap.Coverage.read(document, flowID: "other", file: path) == nil)
    }

    @Test func documentTextIsEscapedInTheGraph() throws {
        let flow = try Flow.load(
            json: #"""
                {"format": "quire.flow/1", "id": "x", "title": "</TD></TR></TABLE>>]; p9 -> p0; <B>&amp;\"'",
                 "pages": [{"id": "p", "title": "line\nbreak \u0007 bell", "fields": [
                   {"id": "t", "kind": "text", "label": "a < b & c > d"}]}]}
                """#)
        let dot = FlowMap(flow: flow).dot()
        #expect(dot.contains("&lt;/TD&gt;&lt;/TR&gt;&lt;/TABLE&gt;&gt;]; p9 -&gt; p0; &lt;B&gt;&amp;amp;&quot;&#39;"))
        #expect(dot.contains("line\\\\nbreak \\\\u0007 bell"))
        #expect(dot.contains("a &lt; b &amp; c &gt; d"))
        #expect(!dot.contains("p9 -> p0"))
        #expect(FlowMap.escape(String(repeating: "x", count: 100), limit: 60) == String(repeating: "x", count: 60) + "…")
    }

    @Test func theDemoFlowsSVGIsXMLThatXmllintAccepts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-map-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("map.svg").path
        let run = try CommandTests().quire(["map", "--format", "svg", "-o", svg, Self.demo])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<svg"))
        #expect(text.contains("focus&#45;setup") || text.contains("focus-setup"))
        let checked = try runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", svg])
        #expect(checked.status == 0 && checked.stderr.isEmpty, "\(checked.stderr)")
        // A hostile flow's SVG is XML too.
        let hostile = folder.appendingPathComponent("hostile.json")
        try Data(#"{"format": "quire.flow/1", "id": "h", "title": "]]><x/>&<!-- \u0001", "pages": [{"id": "p"}]}"#.utf8).write(to: hostile)
        #expect(try CommandTests().quire(["map", "--format", "svg", "-o", svg, hostile.path]).status == 0)
        #expect(try runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", svg]).status == 0)
    }

    @Test func graphvizEscapesAndXMLIllegalCharactersShowLiterally() throws {
        // Graphviz expands \N, \G, \E, \L, … in labels (even written &#92;N); U+FFFE and U+FFFF
        // are not XML, and dot refused the label.
        let flow = try Flow.load(
            json: #"""
                {"format": "quire.flow/1", "id": "x", "title": "a \\N b \\G c \\E \\L \\T \\H \\n \\l \\r \uFFFE \uFFFF",
                 "pages": [{"id": "p", "title": "\\\\N", "fields": [{"id": "t", "kind": "text", "label": "\\N"}]}]}
                """#)
        let dot = FlowMap(flow: flow).dot()
        #expect(dot.contains(#"a \\N b \\G c \\E \\L \\T \\H \\n \\l \\r \\ufffe \\uffff"#), "\(dot)")
        #expect(dot.contains(#"<B>1. p</B> \\\\N"#), "\(dot)")
        #expect(!dot.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF })
        // dot shows the text as written, and its SVG is XML.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-map-escapes-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flow.json")
        try Data(JSONWriter.string(flow.document).utf8).write(to: file)
        let svg = folder.appendingPathComponent("map.svg").path
        let run = try CommandTests().quire(["map", "--format", "svg", "-o", svg, file.path])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains(#"a \N b \G c \E \L \T \H \n \l \r \ufffe \uffff"#), "\(text)")
        #expect(text.contains(#"\\N"#))
        #expect(!text.contains("quire_flow b"))
        #expect(try runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", svg]).status == 0)
    }

    @Test func aRunOfConditionalPagesHasOneSkipEdgeNotAFan() throws {
        // 100 pages with a visibleIf between two without: one dashed edge, from the page before
        // the run to the page after it (a fan of 99 took dot 232 s).
        var pages = [#"{"id": "p0", "fields": [{"id": "on", "kind": "toggle"}]}"#]
        pages += (1...100).map { #"{"id": "p\#($0)", "visibleIf": {"field": "on", "equals": true}}"# }
        pages.append(#"{"id": "last"}"#)
        let flow = try Flow.load(json: #"{"format": "quire.flow/1", "id": "fan", "pages": [\#(pages.joined(separator: ","))]}"#)
        let dot = FlowMap(flow: flow).dot()
        #expect(dot.components(separatedBy: "style=dashed").count - 1 == 1)
        #expect(dot.contains("p0 -> p101 [style=dashed, label=\"when hidden\""))
        #expect(dot.components(separatedBy: "label=\"next\"").count - 1 == 101)
    }

    @Test func svgRefusesAFlowPastItsLimitsAtThePageAndDotStillWritesIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-map-large-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flow.json")
        let pages = (0...FlowMap.svgPageLimit).map { #"{"id": "p\#($0)"}"# }.joined(separator: ",\n")
        try Data(#"{"format": "quire.flow/1", "id": "large", "pages": [\#(pages)]}"#.utf8).write(to: file)
        let run = try CommandTests().quire(["map", "--format", "svg", file.path])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "\(file.path):\(FlowMap.svgPageLimit + 1):1: $.pages[500]: --format svg draws at most 500 pages and this flow has 501 (Graphviz's layout grows faster than the graph); --format dot writes the graph\n"
        )
        #expect(run.stdout.isEmpty)
        let dot = try CommandTests().quire(["map", file.path])
        #expect(dot.status == 0 && dot.stdout.hasPrefix("digraph quire_flow {"))
    }

    /// A `dot` that never ends, on PATH in a folder of its own: it writes its process id and sleeps.
    func slowDot(in folder: URL) throws -> (path: String, pidFile: URL) {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let pidFile = folder.appendingPathComponent("dot.pid")
        let script = bin.appendingPathComponent("dot")
        try Data("#!/bin/sh\ncat > /dev/null\necho $$ > '\(pidFile.path)'\nexec sleep 300\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        return (bin.path + ":/usr/bin:/bin", pidFile)
    }

    func alive(_ pid: pid_t) -> Bool {
        // Gone, or a zombie no one waited for, counts as not running; reaped is checked by its parent.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }

    func waitForPid(_ file: URL) -> pid_t? {
        for _ in 0..<500 {
            if let text = try? String(contentsOf: file, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            usleep(10_000)
        }
        return nil
    }

    @Test(.timeLimit(.minutes(1))) func dotPastItsTimeLimitIsKilledAndQuireExits6() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-map-timeout-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, pidFile) = try slowDot(in: folder)
        // The test's own environment (a sanitizer's options reach quire) with the fake dot first.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = path
        let started = Date()
        let run = try runProcess(
            CommandTests.binary,
            ["map", "--format", "svg", "--dot-timeout", "1", "-o", folder.appendingPathComponent("m.svg").path, Self.demo],
            environment: environment)
        let said = run.stderr
        #expect(run.status == 6)
        #expect(said.contains("Graphviz's dot did not finish within 1 s (--dot-timeout) and was stopped"), "\(said)")
        #expect(Date().timeIntervalSince(started) < 20)
        let pid = try #require(waitForPid(pidFile))
        #expect(!alive(pid), "dot (\(pid)) survived")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("m.svg").path))
    }

    @Test(.timeLimit(.minutes(1)), arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func anInterruptedMapStopsDot(signal: Int32, code: Int32) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-map-signal-\(getpid())-\(signal)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, pidFile) = try slowDot(in: folder)
        // The test's own environment (a sanitizer's options reach quire) with the fake dot first.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = path
        var dot: pid_t?
        let run = try runProcess(
            CommandTests.binary, ["map", "--format", "svg", "-o", folder.appendingPathComponent("m.svg").path, Self.demo],
            environment: environment
        ) { process in
            dot = self.waitForPid(pidFile)
            if let dot { #expect(self.alive(dot)) }
            kill(process.processIdentifier, signal)
        }
        let pid = try #require(dot)
        let said = run.stderr
        #expect(run.status == code, "\(said)")
        #expect(said.contains("interrupted by"), "\(said)")
        #expect(!alive(pid), "dot (\(pid)) survived")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("m.svg").path))
    }

    @Test func withoutGraphvizSVGExits6WithAClearMessageAndDotStillWorks() throws {
        let run = try runProcess(CommandTests.binary, ["map", "--format", "svg", Self.demo], environment: ["PATH": "/nonexistent"])
        let said = run.stderr
        #expect(run.status == 6)
        #expect(said.contains("--format svg needs Graphviz's dot program, which is not on PATH (Debian: apt-get install graphviz)"))
        let dot = try CommandTests().quire(["map", Self.demo])
        #expect(dot.status == 0 && dot.stdout.hasPrefix("digraph quire_flow {"))
        #expect(try CommandTests().quire(["map", "no-such-flow.json"]).status == 2)
    }
}
