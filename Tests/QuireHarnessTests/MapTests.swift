import Foundation
import QuireCore
import Testing

@testable import QuireHarness

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
        #expect(dot.contains("line\\nbreak \\u0007 bell"))
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
        let xmllint = Process()
        xmllint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        xmllint.arguments = ["--noout", svg]
        let errors = Pipe()
        xmllint.standardError = errors
        try xmllint.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        xmllint.waitUntilExit()
        #expect(xmllint.terminationStatus == 0 && said.isEmpty, "\(said)")
        // A hostile flow's SVG is XML too.
        let hostile = folder.appendingPathComponent("hostile.json")
        try Data(#"{"format": "quire.flow/1", "id": "h", "title": "]]><x/>&<!-- \u0001", "pages": [{"id": "p"}]}"#.utf8).write(to: hostile)
        #expect(try CommandTests().quire(["map", "--format", "svg", "-o", svg, hostile.path]).status == 0)
        let again = Process()
        again.executableURL = xmllint.executableURL
        again.arguments = ["--noout", svg]
        try again.run()
        again.waitUntilExit()
        #expect(again.terminationStatus == 0)
    }

    @Test func withoutGraphvizSVGExits6WithAClearMessageAndDotStillWorks() throws {
        let process = Process()
        process.executableURL = CommandTests.binary
        process.arguments = ["map", "--format", "svg", Self.demo]
        process.environment = ["PATH": "/nonexistent"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 6)
        #expect(said.contains("--format svg needs Graphviz's dot program, which is not on PATH (Debian: apt-get install graphviz)"))
        let dot = try CommandTests().quire(["map", Self.demo])
        #expect(dot.status == 0 && dot.stdout.hasPrefix("digraph quire_flow {"))
        #expect(try CommandTests().quire(["map", "no-such-flow.json"]).status == 2)
    }
}
