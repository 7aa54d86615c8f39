import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings
import QuireTestSupport

@Suite struct DemoFlowTests {
    @Test func theEmbeddedDemoFlowIsTheFileInData() throws {
        let file = GtkTest.packageRoot.appendingPathComponent(DemoFlow.path)
        var text = try String(contentsOf: file, encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        #expect(DemoFlow.json == text, "run scripts/embed-demo-flow")
    }

    @Test func theEmbeddedDemoFlowLoads() throws {
        let flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        #expect(flow.id == "focus-onboarding")
    }
}

@Suite struct FrameStatisticsTests {
    @Test func percentilesAreNearestRank() {
        let statistics = FrameStatistics((1...100).map(Double.init).reversed())
        #expect(statistics.percentile(50) == 50)
        #expect(statistics.percentile(99) == 99)
        #expect(statistics.summary == "frame work: 100 frames, p50 50 µs, p99 99 µs, max 100 µs")
        #expect(FrameStatistics([]).summary == "frame work: 0 frames, p50 0 µs, p99 0 µs, max 0 µs")
    }
}

@Suite struct TranslationTests {
    @Test func keysAreGDKNamesAndModifiedKeysAreLeftToGTK() {
        #expect(KeyTranslation.key(named: "Right", shift: false, control: false, alt: false) == .right)
        #expect(KeyTranslation.key(named: "ISO_Left_Tab", shift: true, control: false, alt: false) == .shiftTab)
        #expect(KeyTranslation.key(named: "Tab", shift: true, control: false, alt: false) == .shiftTab)
        #expect(KeyTranslation.key(named: "KP_Enter", shift: false, control: false, alt: false) == .return)
        #expect(KeyTranslation.key(named: "Right", shift: false, control: false, alt: true) == nil)
        #expect(KeyTranslation.key(named: "q", shift: false, control: true, alt: false) == nil)
        #expect(KeyTranslation.key(named: "a", shift: false, control: false, alt: false) == nil)
    }
}

/// `quire run` as a user starts it (on the main actor: it shows windows on the test display).
@MainActor
@Suite(.serialized) struct RunCommandTests {
    nonisolated static let binary = GtkTest.packageRoot.appendingPathComponent(".build/debug/quire")

    /// Runs quire; returns its exit status and standard error (standard output into `stdout`).
    func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval = 30) throws -> (Int32, String) {
        var ignored = ""
        return try run(arguments, environment: environment, timeout: timeout, stdout: &ignored)
    }

    func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval = 30, stdout: inout String) throws -> (
        Int32, String
    ) {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = environment
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        let run = try runProcess(Self.binary, arguments, environment: environment, timeout: timeout)
        if run.timedOut { return (-1, "timed out") }
        stdout = run.stdout
        return (run.status, run.stderr)
    }

    @Test func withoutADisplayItSaysSoAndExitsThree() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let (status, stderr) = try run(["run"], environment: environment)
        #expect(status == 3)
        #expect(stderr.contains("cannot open a display"))
    }

    @Test func aBrokenFlowIsBadInput() throws {
        let (status, stderr) = try run(["run", "/nonexistent/flow.json"], environment: ProcessInfo.processInfo.environment)
        #expect(status == 2)
        #expect(stderr.contains("/nonexistent/flow.json"))
    }

    /// The app quits after its first frame through a task on Swift's main queue: it exits only if
    /// GLib's loop drains that queue.
    @Test(GtkTest.enabled) func theAppDrawsItsFirstFrameAndQuitsThroughTheMainQueue() throws {
        let (status, stderr) = try run(["run", "--exit-after-first-frame"], environment: ProcessInfo.processInfo.environment)
        #expect(status == 0, "\(stderr)")
        #expect(!stderr.contains("frame work"))
    }

    /// `--record` onto a named pipe writes the script into it, in place, as `quire test` writes a
    /// report (it replaced the pipe with a regular file); a pipe nobody reads is exit 5, said, and
    /// stays a pipe.
    @Test(GtkTest.enabled) func aRecordingOntoANamedPipeIsWrittenIntoItInPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-record-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("recording.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        func isPipe() -> Bool {
            var info = stat()
            return stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
        }
        let environment = ProcessInfo.processInfo.environment
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        reader.arguments = ["30", "cat", fifo]
        let read = Pipe()
        reader.standardOutput = read
        try reader.run()
        usleep(200_000)  // cat has the pipe open before the app writes into it
        let (status, stderr) = try run(["run", "--record", fifo, "--exit-after-first-frame"], environment: environment)
        let text = String(decoding: readAll(read), as: UTF8.self)
        reader.waitUntilExit()
        #expect(status == 0, "\(stderr)")
        #expect(isPipe())
        let script = try JSONParser.parse(text).value
        #expect(script["format"] == .string("quire.session/1"), "\(text.prefix(300))")
        #expect(text.components(separatedBy: "quire.session/1").count == 2, "one script, written once")

        let (unread, said) = try run(["run", "--record", fifo, "--exit-after-first-frame"], environment: environment)
        #expect(unread == 5)
        #expect(said.contains("quire run: cannot write the recording: it is a named pipe that nobody reads"), "\(said)")
        #expect(isPipe())
    }

    /// `--record` onto a device node writes into the device, as onto a named pipe: the node stays
    /// a character device (a copy of /dev/null made with mknod, so a regression replaces only
    /// the copy — device 1:3, `makedev` being a C macro; without the right to make one, the case
    /// is skipped).
    @Test(GtkTest.enabled) func aRecordingOntoADeviceNodeIsWrittenIntoItInPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-record-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = folder.appendingPathComponent("null").path
        guard mknod(node, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else { return }
        func isDevice() -> Bool {
            var info = stat()
            return stat(node, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
        }
        let (status, stderr) = try run(
            ["run", "--record", node, "--exit-after-first-frame"], environment: ProcessInfo.processInfo.environment)
        #expect(status == 0, "\(stderr)")
        #expect(isDevice())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["null"], "no temporary file left")
    }

    /// `--replay` drives the window's widgets from a script and answers as `quire test` does.
    @Test(GtkTest.enabled) func aReplayedScriptPassesOrFailsWithTheHarnessCodes() throws {
        let environment = ProcessInfo.processInfo.environment
        var out = ""
        let demo = GtkTest.packageRoot.appendingPathComponent("data/sessions/demo/walkthrough.json").path
        var (status, stderr) = try run(["run", "--replay", demo], environment: environment, stdout: &out)
        #expect(status == 0, "\(stderr)")
        #expect(out.hasSuffix("1 passed, 0 failed\n"), "\(out)")
        #expect(out.contains("replayed through the widgets: "))
        let failing = GtkTest.packageRoot.appendingPathComponent("Tests/QuireHarnessTests/Fixtures/mixed/02-fail.json").path
        (status, stderr) = try run(["run", "--replay", failing], environment: environment, stdout: &out)
        #expect(status == 1, "\(stderr)")
        #expect(out.contains("FAIL") && out.hasSuffix("0 passed, 1 failed\n"), "\(out)")
        let bad = GtkTest.packageRoot.appendingPathComponent("Tests/QuireHarnessTests/Fixtures/mixed/03-bad-json.json").path
        (status, stderr) = try run(["run", "--replay", bad], environment: environment, stdout: &out)
        #expect(status == 2, "\(stderr)")
    }

    /// `--replay --trace DIR`: the harness's trace, with a picture of the window after each step.
    @Test(GtkTest.enabled) func aReplayTraceShowsTheWindowAfterEachStep() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = GtkTest.packageRoot.appendingPathComponent("data/sessions/demo/walkthrough.json").path
        var out = ""
        let (status, stderr) = try run(
            ["run", "--replay", demo, "--trace", folder.path], environment: ProcessInfo.processInfo.environment, stdout: &out)
        #expect(status == 0, "\(stderr)")
        #expect(out.contains("trace: \(folder.path)/index.html"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let page = try #require(files.first { $0.hasSuffix(".html") && $0 != "index.html" })
        let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
        let pictures = files.filter { $0.hasSuffix(".png") }
        #expect(pictures.count > 20)
        #expect(html.contains(#"<img class="shot" src="\#(pictures.sorted().first!)""#))
        let png = try Data(contentsOf: folder.appendingPathComponent(pictures[0]))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test(GtkTest.enabled) func frameStatisticsArePrintedOnExitWhenAsked() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_FRAME_STATS"] = "1"
        let (status, stderr) = try run(["run", "--exit-after-first-frame"], environment: environment)
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("frame work: 0 frames, p50 0 µs"), "\(stderr)")
    }
}
