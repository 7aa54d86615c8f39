import Foundation
import QuireCore
import Testing

@testable import QuireHarness
import QuireTestSupport

/// A folder of scripts made for one test, removed afterwards. Scripts run against the fixtures'
/// `mini` flow, named by its absolute path so they can live anywhere.
final class Scratch {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // A folder a test locked must be opened again before it can be removed.
        if let walker = FileManager.default.enumerator(atPath: url.path) {
            while let relative = walker.nextObject() as? String {
                chmod(url.appendingPathComponent(relative).path, 0o755)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }

    enum Kind { case passing, failing, bad }

    static let flow = JSONWriter.quoted(fixtures.appendingPathComponent("flows/mini.json").path)

    /// A script at `relative` (folders are made); `name` and `description` are JSON strings as
    /// given (so tests can put escapes in them).
    func script(_ relative: String, _ kind: Kind = .passing, name: String? = nil, description: String? = nil) throws {
        let expected = kind == .failing ? "Akx" : "Aki"
        let first = kind == .bad ? #"{"tapp": "name"}"# : #"{"tap": "name"}"#
        var text = #"{"format": "quire.session/1", "#
        if let name { text += #""name": \#(name), "# }
        if let description { text += #""description": \#(description), "# }
        text += #""flow": \#(Self.flow), "steps": [\#(first), {"type": "Aki"}, {"expect": {"values": {"name": "\#(expected)"}}}]}"#
        try write(relative, text)
    }

    func write(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }
}

/// A program on PATH, if there is one.
func tool(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs a program; its status and what it printed (standard output and error together).
func runTool(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
    let run = try runProcess(URL(fileURLWithPath: executable), arguments, in: directory, mergeOutput: true)
    return (run.status, run.stdout)
}

let prove = tool("prove")
let xmllint = tool("xmllint")
/// A Python with tap.py (Debian's python3-tap, or `pip install tap.py`).
let tapPython: String? = {
    guard let python = tool("python3"), let run = try? runTool(python, ["-c", "import tap.main"]), run.status == 0 else { return nil }
    return python
}()

/// The reports as CI tools read them (issue 6, rows 8–13).
@Suite struct ReportTests {
    let command = CommandTests()

    func quire(_ arguments: [String], in directory: URL) throws -> CommandTests.Run {
        try command.quire(arguments, in: directory)
    }

    /// A folder with every kind of result, and names that look like TAP directives.
    func mixedFolder() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.script("s/a/pass.json", name: #""passes""#)
        try scratch.script("s/a/fail.json", .failing, name: #""fails""#)
        try scratch.script("s/b/bad.json", .bad)
        try scratch.script("s/b/wip # TODO.json", .bad)
        try scratch.script("s/b/x # skip me.json", .failing, name: #""issue #12 # SKIP it \\ now""#)
        try scratch.write("s/b/other.json", #"{"format": "something else"}"#)
        return scratch
    }

    // MARK: Row 8: TAP

    @Test func tapDescriptionsEscapeBackslashesAndNumberSignsAndNeverStartADirective() {
        #expect(TAPReporter.description(#"issue #12 \ x"#) == ##"issue \#12 \\ x"##)
        #expect(TAPReporter.description("wip # TODO.json") == #"wip \u0023 TODO.json"#)
        #expect(TAPReporter.description("x #skip") == #"x \u0023skip"#)
        #expect(TAPReporter.description("a\nnot ok 99") == #"a\nnot ok 99"#)
    }

    @Test func tapYAMLIsQuotedOnOneLine() {
        #expect(TAPReporter.yaml(#"a: "b" \ c"#) == #""a: \"b\" \\ c""#)
        #expect(TAPReporter.yaml(lines: ["one: 1", "two\u{1B}[2J"]) == #""one: 1\ntwo\\u001b[2J""#)
    }

    /// prove counts (`Tests=N`, `Failed: M`), its exit status, and no parse error.
    func proveReads(_ tap: String, tests: Int, failed: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try runTool(prove!, ["--exec", "cat", tap])
        #expect(!run.output.contains("Parse errors"), "\(run.output)", sourceLocation: sourceLocation)
        #expect(run.output.contains("Tests=\(tests),"), "\(run.output)", sourceLocation: sourceLocation)
        #expect(run.status == (failed > 0 ? 1 : 0), "\(run.output)", sourceLocation: sourceLocation)
        if failed > 0 {
            #expect(run.output.contains("Tests: \(tests) Failed: \(failed))"), "\(run.output)", sourceLocation: sourceLocation)
        } else {
            #expect(run.output.contains("All tests successful."), "\(run.output)", sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: prove != nil, "needs prove (Debian: perl)"))
    func proveReadsGreenFailingAndBadReports() throws {
        let scratch = try mixedFolder()
        let tap = scratch.url.appendingPathComponent("report.tap").path
        // Mixed: 1 passed, 2 failed, 2 bad.
        #expect(try quire(["test", "--plain", "--tap", tap, "s"], in: scratch.url).status == 2)
        try proveReads(tap, tests: 5, failed: 4)
        // Green.
        #expect(try quire(["test", "--plain", "--tap", tap, "s/a/pass.json"], in: scratch.url).status == 0)
        try proveReads(tap, tests: 1, failed: 0)
        // Failing only.
        #expect(try quire(["test", "--plain", "--tap", tap, "s/a"], in: scratch.url).status == 1)
        try proveReads(tap, tests: 2, failed: 1)
        // Bad only, with a name that reads as a TODO directive unless escaped.
        #expect(try quire(["test", "--plain", "--tap", tap, "s/b/wip # TODO.json"], in: scratch.url).status == 2)
        try proveReads(tap, tests: 1, failed: 1)
        // The whole fixtures' mixed folder too.
        #expect(try quire(["test", "--plain", "--tap", tap, "mixed"], in: fixtures).status == 2)
        try proveReads(tap, tests: 5, failed: 4)
    }

    @Test(.enabled(if: tapPython != nil, "needs tap.py (Debian: python3-tap)"))
    func tapPyReadsGreenFailingAndBadReports() throws {
        let scratch = try mixedFolder()
        let tap = scratch.url.appendingPathComponent("report.tap").path
        func tappy(tests: Int, failed: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let run = try runTool(tapPython!, ["-c", "import sys; from tap.main import main; sys.exit(main(sys.argv))", tap])
            #expect(run.output.contains("Ran \(tests) test"), "\(run.output)", sourceLocation: sourceLocation)
            #expect(run.status == (failed > 0 ? 1 : 0), "\(run.output)", sourceLocation: sourceLocation)
            let verdict = failed > 0 ? "FAILED (failures=\(failed))" : "OK"
            #expect(run.output.hasSuffix(verdict + "\n"), "\(run.output)", sourceLocation: sourceLocation)
        }
        _ = try quire(["test", "--plain", "--tap", tap, "s"], in: scratch.url)
        try tappy(tests: 5, failed: 4)
        _ = try quire(["test", "--plain", "--tap", tap, "s/a/pass.json"], in: scratch.url)
        try tappy(tests: 1, failed: 0)
        _ = try quire(["test", "--plain", "--tap", tap, "s/b"], in: scratch.url)
        try tappy(tests: 3, failed: 3)
    }

    // MARK: Row 9: JUnit

    @Test(.enabled(if: xmllint != nil, "needs xmllint (Debian: libxml2-utils)"))
    func theJUnitReportIsValidAgainstOurSchema() throws {
        let scratch = try mixedFolder()
        try scratch.script("s/c/hostile.json", .failing, name: #""<&>\"\u0001\u0085\uFFFE""#)
        let xml = scratch.url.appendingPathComponent("report.xml").path
        _ = try quire(["test", "--plain", "--junit", xml, "s"], in: scratch.url)
        let schema = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/junit.xsd").path
        let run = try runTool(xmllint!, ["--noout", "--schema", schema, xml])
        #expect(run.status == 0, "\(run.output)")
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(!text.contains("<properties>") && !text.contains(" file=\""))
        #expect(text.range(of: #"time="[0-9]+\.[0-9]{4,}""#, options: .regularExpression) == nil)
    }

    /// `classname`/`name` pairs of a JUnit report.
    func ids(_ xml: String) -> [String] {
        xml.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: /<testcase classname="([^"]*)" name="([^"]*)"/) else { return nil }
            return "\(match.1) \(match.2)"
        }
    }

    @Test func junitIDsComeFromThePathRelativeToTheArgumentNormalized() throws {
        var reports: [[String]] = []
        for argument in ["mixed", "./mixed", "mixed/", "mixed/./sub/.."] {
            let run = try quire(["test", "--plain", "--junit", "-", argument], in: fixtures)
            reports.append(ids(run.stdout))
        }
        #expect(reports[0] == ["mixed 01-pass", "mixed 02-fail", "mixed 03-bad-json", "mixed.sub 04-bad-step", "mixed.sub 06-emitted"])
        for report in reports.dropFirst() { #expect(report == reports[0]) }
        // A file named on its own is known by its folder and name, as when its folder was given.
        #expect(
            ids(try quire(["test", "--plain", "--junit", "-", "./mixed/sub/06-emitted.json"], in: fixtures).stdout) == ["sub 06-emitted"])
        #expect(
            ids(try quire(["test", "--plain", "--junit", "-", "mixed/sub"], in: fixtures).stdout) == ["sub 04-bad-step", "sub 06-emitted"])
    }

    @Test func aTestKeepsItsNameWhenItsScriptTurnsBad() throws {
        let scratch = try Scratch()
        try scratch.script("suite/area/case.json", name: #""a readable name""#)
        let good = ids(try quire(["test", "--plain", "--junit", "-", "suite"], in: scratch.url).stdout)
        try scratch.write("suite/area/case.json", "{ broken")
        let bad = try quire(["test", "--plain", "--junit", "-", "suite"], in: scratch.url)
        #expect(good == ["suite.area case"])
        #expect(ids(bad.stdout) == good)
        #expect(bad.stdout.contains("<error type=\"bad input\""))
    }

    @Test func junitToStandardOutputMovesTheConsoleToStandardError() throws {
        let run = try quire(["test", "--plain", "--junit", "-", "pass"], in: fixtures)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"quire\" tests=\"5\""))
        #expect(run.stdout.hasSuffix("</testsuites>\n"))
        #expect(run.stderr.hasSuffix("5 passed, 0 failed\n"))
        let both = try quire(["test", "--tap", "-", "--junit", "-", "pass"], in: fixtures)
        #expect(both.status == 2)
        #expect(both.stderr.contains("only one report can go to standard output"))
    }

    // MARK: Row 10: traces

    @Test func everyScriptGetsItsOwnTracePageWhateverItsPath() throws {
        let scratch = try Scratch()
        let scripts = ["t/a/b_c.json", "t/a_b/c.json", "t/a/日本.json", "t/a/中国.json"]
        for (index, script) in scripts.enumerated() { try scratch.script(script, .failing, name: "\"script \(index)\"") }
        _ = try quire(["test", "--plain", "--trace", "out", "t"], in: scratch.url)
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("out").path)
        let pages = files.filter { $0.hasSuffix(".html") && $0 != "index.html" }
        #expect(pages.count == 4)
        #expect(files.filter { $0.hasSuffix(".trace.json") }.count == 4)
        let index = try scratch.read("out/index.html")
        for (number, script) in scripts.enumerated() {
            // The index links each script to a page of its own that shows that script.
            guard let match = index.firstMatch(of: try Regex("<a href=\"([^\"]+)\">\(script)</a>")) else {
                Issue.record("\(script) is not linked from the index")
                continue
            }
            let page = try scratch.read("out/" + String(match.output[1].substring!))
            #expect(page.contains("<div class=\"file\">\(script)</div>"))
            #expect(page.contains("script \(number)"))
        }
    }

    @Test func theTraceIndexShowsTotalsFirstLinesAndDescriptions() throws {
        let scratch = try Scratch()
        let long = String(repeating: "word ", count: 200)
        try scratch.script("t/pass.json", name: #""passes""#, description: #""what it shows""#)
        try scratch.script("t/fail.json", .failing, name: "\"\(long)\"")
        try scratch.script("t/bad.json", .bad)
        _ = try quire(["test", "--plain", "--trace", "out", "t"], in: scratch.url)
        let index = try scratch.read("out/index.html")
        #expect(
            index.contains(
                #"<span class="status passed">1 passed</span> <span class="status failed">1 failed</span> <span class="status bad">1 bad</span>"#
            ))
        #expect(index.contains(#"<div class="desc">what it shows</div>"#))
        #expect(index.contains(#"<pre class="first">t/fail.json:1:"#))
        #expect(index.contains(#": step 3: $.values.name: expected &quot;Akx&quot;, got &quot;Aki&quot;</pre>"#))
        #expect(index.contains(#"<pre class="first">t/bad.json:1:"#))
        // Long lines wrap rather than widen the page.
        #expect(Trace.style.contains("pre{white-space:pre-wrap;overflow-wrap:anywhere"))
    }

    @Test func staleTracesAreClearedAndNothingElse() throws {
        let scratch = try Scratch()
        try scratch.script("t/one.json", .failing)
        try scratch.script("t/two.json")
        _ = try quire(["test", "--plain", "--trace", "out", "t"], in: scratch.url)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/out"))
        #expect(before.count == 5)
        try scratch.write("out/notes.html", "<p>mine</p>")
        try scratch.write("out/mine-0123456789abcdef.html", "<p>mine too</p>")
        try FileManager.default.removeItem(atPath: scratch.path + "/t/two.json")
        _ = try quire(["test", "--plain", "--trace", "out", "t"], in: scratch.url)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/out"))
        #expect(after == Set(before.filter { !$0.hasPrefix("t_two") } + ["notes.html", "mine-0123456789abcdef.html"]))
    }

    // MARK: Row 11: shards

    @Test func shardsReportEachFolderAndBadInputExactlyOnce() throws {
        let scratch = try Scratch()
        // Each folder has a script and another JSON file; whichever shard gets only the other
        // file must not call the folder empty. `none` really has no script.
        try scratch.write("one/a.json", #"{"format": "other"}"#)
        try scratch.script("one/b.json")
        try scratch.script("two/a.json")
        try scratch.write("two/b.json", #"{"format": "other"}"#)
        try scratch.write("none/x.json", #"{"format": "other"}"#)
        try scratch.write("none/y.json", #"{"format": "other"}"#)
        try scratch.script("bad/b.json", .bad)
        var bad = 0
        var passed = 0
        for k in 1...3 {
            let run = try quire(["test", "--plain", "--shard", "\(k)/3", "one", "two", "none", "bad", "missing"], in: scratch.url)
            let badHere = run.stdout.split(separator: "\n").filter { $0.hasPrefix("BAD") }
            #expect(run.status == (badHere.isEmpty ? 0 : 2), "\(run.stdout)")
            #expect(!badHere.contains("BAD   one") && !badHere.contains("BAD   two"), "\(run.stdout)")
            bad += badHere.count
            passed += run.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") }.count
        }
        let whole = try quire(["test", "--plain", "one", "two", "none", "bad", "missing"], in: scratch.url)
        #expect(whole.lastLine == "2 passed, 0 failed, 3 bad")
        #expect(bad == 3)
        #expect(passed == 2)
    }

    // MARK: Row 12: no document can forge a line

    @Test func printableEscapesEveryControlCharacterAndLeavesTheRest() {
        #expect(Printable.line("plain 日本 \\ text") == "plain 日本 \\ text")
        #expect(
            Printable.line("a\nb\rc\td\u{1B}[31m\u{7F}\u{85}\u{9B}\u{2028}\u{2029}")
                == #"a\nb\rc\td\u001b[31m\u007f\u0085\u009b\u2028\u2029"#)
        #expect(Printable.line(Printable.line("x\ny")) == Printable.line("x\ny"))
    }

    /// Names, keys and paths with line breaks and escape sequences, in every report.
    func hostileFolder() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.script("h/name.json", name: #""x\nPASS  h/forged.json — ok\r\u001b[2Knot ok 99 - forged\u2028# 9 passed""#)
        try scratch.script("h/fail.json", .failing, name: #""y\u0085BAD   h/forged.json""#)
        try scratch.write(
            "h/key.json", #"{"format": "quire.session/1", "flow": \#(Scratch.flow), "steps": [], "k\nh/key.json:9:9: $: forged": 1}"#)
        try scratch.script("h/file\nPASS  forged.json", .bad)
        return scratch
    }

    @Test func noDocumentCanForgeAConsoleLine() throws {
        let scratch = try hostileFolder()
        let run = try quire(["test", "--plain", "h"], in: scratch.url)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("PASS") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("BAD") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("FAIL") }.count == 1)
        #expect(
            !run.stdout.contains("\u{1B}") && !run.stdout.contains("\r") && !run.stdout.contains("\u{2028}")
                && !run.stdout.contains("\u{85}"))
        #expect(!lines.contains { $0.hasPrefix("h/key.json:9:9") })
        #expect(run.stdout.contains(#"PASS  h/name.json — x\nPASS  h/forged.json — ok\r\u001b[2Knot ok 99 - forged\u2028# 9 passed"#))
        #expect(run.stdout.contains(#"unknown key 'k\nh/key.json:9:9: $: forged'"#))
        #expect(run.stdout.contains(#"BAD   h/file\nPASS  forged.json"#))
        #expect(run.lastLine == "1 passed, 1 failed, 2 bad")
    }

    @Test func noDocumentCanForgeATAPTestPoint() throws {
        let scratch = try hostileFolder()
        let run = try quire(["test", "--plain", "--tap", "-", "h"], in: scratch.url)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }.count == 4)
        #expect(!lines.contains { $0.hasPrefix("not ok 99") || $0.hasPrefix("# 9 passed") })
        #expect(lines.last == "1..4")
        if let prove {
            let file = scratch.url.appendingPathComponent("report.tap")
            try Data(run.stdout.utf8).write(to: file)
            let read = try runTool(prove, ["--exec", "cat", file.path])
            #expect(read.output.contains("Tests: 4 Failed: 3)") && !read.output.contains("Parse errors"), "\(read.output)")
        }
    }

    @Test func noDocumentCanForgeATraceLine() throws {
        let scratch = try hostileFolder()
        _ = try quire(["test", "--plain", "--trace", "out", "h"], in: scratch.url)
        let index = try scratch.read("out/index.html")
        #expect(!index.contains("\u{1B}") && !index.contains("\r") && !index.contains("\u{2028}"))
        #expect(index.contains(#"x\nPASS  h/forged.json — ok\r\u001b[2Knot ok 99 - forged\u2028# 9 passed"#))
    }

    @Test func noFlowCanForgeACheckDiagnostic() throws {
        let scratch = try Scratch()
        try scratch.write(
            "f.json", #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a"}], "x\nf.json:9:9: $: forged\u001b[2K": 1}"#)
        let run = try quire(["check", "f.json"], in: scratch.url)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == #"f.json:1:63: $["x\nf.json:9:9: $: forged\u001b[2K"]: unknown key 'x\nf.json:9:9: $: forged\u001b[2K' in the flow"#
                + "\n1 of 1 flow rejected\n")
    }

    @Test func theProgressTotalCountsScriptsAndTheLineFitsTheTerminal() {
        let sink = StringSink()
        let console = ConsoleReporter(sink: sink, live: true, width: { 40 })
        console.begin(candidates: 4)
        let long = String(repeating: "n", count: 80)
        console.report(ScriptResult(file: "a.json", name: long, status: .passed, milliseconds: 0))
        console.report(ScriptResult(file: "b.json", name: "b", status: .skipped, milliseconds: 0))
        console.report(ScriptResult(file: "c.json", name: "c", status: .passed, milliseconds: 0))
        console.report(ScriptResult(file: "d.json", name: "d", status: .passed, milliseconds: 0))
        let frames = sink.text.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(frames.first == "[1/4] 1 passed, 0 failed")
        #expect(frames.last == "[3/3] 3 passed, 0 failed")
        let narrow = StringSink()
        let small = ConsoleReporter(sink: narrow, live: true, width: { 12 })
        small.begin(candidates: 1)
        small.report(ScriptResult(file: "a.json", name: "a", status: .passed, milliseconds: 0))
        #expect(narrow.text == "\r\u{1B}[K[1/1] 1 pas")
    }

    // MARK: Row 13: quire check and bad folders

    @Test func checkOnAScriptSaysInOneLineToUseQuireTest() throws {
        let run = try quire(["check", "pass/a.json"], in: fixtures)
        #expect(run.status == 2)
        #expect(run.stderr == "pass/a.json: a session script, not a flow: run it with `quire test pass/a.json`\n")
    }

    @Test func checkOnAFolderChecksEveryFlowInItAndSkipsScripts() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("flows/mini.json"), to: scratch.url.appendingPathComponent("mini.json"))
        try scratch.script("script.json")
        try scratch.write("other.json", #"{"format": "something else"}"#)
        try scratch.write("deep/broken.json", #"{"format": "quire.flow/1", "id": "b", "pages": []}"#)
        try scratch.write("deep/no-format.json", #"{"id": "n", "pages": [{"id": "a"}]}"#)
        let run = try quire(["check", "."], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.stdout == "./mini.json: ok: flow 'mini', 2 pages, 2 fields\n")
        #expect(
            run.stderr == """
                ./deep/broken.json:1:48: $.pages: a flow needs at least one page
                ./deep/no-format.json:1:1: $: the flow is missing the required key 'format'
                2 of 3 flows rejected

                """)
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent("deep"))
        #expect(try quire(["check", "."], in: scratch.url).status == 0)
        let empty = try quire(["check", "deep-none"], in: scratch.url)
        #expect(empty.stderr.hasPrefix("deep-none: cannot read the file: it does not exist\n"))
        try scratch.write("scripts-only/s.json", #"{"format": "quire.session/1"}"#)
        let none = try quire(["check", "scripts-only"], in: scratch.url)
        #expect(none.status == 2)
        #expect(none.stderr == "scripts-only: no quire.flow/1 flow in this folder\n1 of 1 flow rejected\n")
    }

    @Test func aNegativeJobCountSaysWhatIsWrong() throws {
        let run = try quire(["test", "--jobs", "-1", "pass"], in: fixtures)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --jobs takes how many scripts to run at once, at least 1; got -1\n"))
    }

    @Test func linkLoopsDanglingLinksAndUnreadableFoldersAreBadInput() throws {
        let scratch = try Scratch()
        try scratch.script("s/ok/a.json")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/s/ok/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/s/gone.json", withDestinationPath: "nowhere.json")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/s/self", withDestinationPath: "self")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/s/linked", withDestinationPath: "ok")
        try scratch.script("s/locked/b.json")
        chmod(scratch.path + "/s/locked", 0)
        // Permissions do not stop root: run as nobody then.
        var arguments = [CommandTests.binary.path, "test", "--plain", "s"]
        if getuid() == 0 { arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments }
        let run = try runTool(getuid() == 0 ? (tool("setpriv") ?? "/usr/bin/setpriv") : arguments.removeFirst(), arguments, in: scratch.url)
        #expect(
            run.output == """
                BAD   s/gone.json
                  s/gone.json: a symbolic link to nothing: its target 'nowhere.json' does not exist
                PASS  s/linked/a.json — a
                BAD   s/linked/loop
                  s/linked/loop: a symbolic link loop: it leads back to 's'
                BAD   s/locked
                  s/locked: cannot read the folder: permission denied
                PASS  s/ok/a.json — a
                BAD   s/ok/loop
                  s/ok/loop: a symbolic link loop: it leads back to 's'
                BAD   s/self
                  s/self: a symbolic link loop: its links never reach a file or folder
                2 passed, 0 failed, 5 bad

                """)
        #expect(run.status == 2)
    }
}
