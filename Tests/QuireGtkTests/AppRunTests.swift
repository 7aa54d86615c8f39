import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// A `quire run` process with its output collected as it comes (the tests read it while the app
/// runs, and kill it at moments of their choosing).
final class AppProcess: @unchecked Sendable {
    /// Text a pipe's reader appends to on its own thread.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
        var value: String { lock.withLock { text } }
    }

    private let process: Process
    private let out = Collected()
    private let err = Collected()

    init(_ arguments: [String], home: URL, environment extra: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = RunCommandTests.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["GTK_A11Y"] = "none"
        environment["GSK_RENDERER"] = "cairo"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        outPipe.fileHandleForReading.readabilityHandler = { [out] handle in out.append(handle.availableData) }
        errPipe.fileHandleForReading.readabilityHandler = { [err] handle in err.append(handle.availableData) }
        try process.run()
    }

    var stdout: String { out.value }
    var stderr: String { err.value }
    var isRunning: Bool { process.isRunning }
    var status: Int32 { process.terminationStatus }

    /// Waits until standard output holds `text` (or `seconds` pass); whether it does.
    @discardableResult
    func wait(for text: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !stdout.contains(text) && Date() < deadline {
            if !process.isRunning { return stdout.contains(text) }
            usleep(2_000)
        }
        return stdout.contains(text)
    }

    /// Waits for the process to end by itself (at most `seconds`, then kills it).
    func waitForExit(seconds: Double = 30) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill() }
        process.waitUntilExit()
        settleOutput()
    }

    /// SIGKILL: nothing runs on the way out.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        settleOutput()
    }

    /// Lets the readers take what the pipes still hold.
    private func settleOutput() {
        usleep(30_000)
    }

    /// The lines of standard output that start with `prefix`, without it.
    func lines(_ prefix: String) -> [String] {
        stdout.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

/// `quire run` as a process: cancel, the autosave's failures, SIGKILL at random moments.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct AppRunTests {
    static let events = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("EndToEnd/crash-walkthrough.json")

    func demo() throws -> Flow { try Flow.load(json: DemoFlow.json, file: DemoFlow.path) }

    func paths(_ home: URL) -> (session: String, settings: String, timer: String) {
        (
            home.appendingPathComponent("state/quire/focus-onboarding.session.json").path,
            home.appendingPathComponent("config/quire/focus-onboarding.settings.json").path,
            home.appendingPathComponent("state/quire/focus-onboarding.timer.json").path
        )
    }

    func writeEvents(_ json: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-events-\(UUID().uuidString).json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The state a relaunch resumes with (its page move settled), or nil when it opens the main
    /// window.
    func relaunchState(_ home: URL) throws -> JSONValue? {
        let app = try AppProcess(["run", "--locale", "en", "--print-state", "--exit-after-first-frame"], home: home)
        app.waitForExit()
        #expect(app.status == 0, "\(app.stderr)")
        let line = try #require(app.lines("state ").first, "no state printed: \(app.stdout) \(app.stderr)")
        if line == "null" { return nil }
        return try JSONParser.parse(line).value
    }

    /// Cancel on the first run: the main window opens with the flow's defaults (what the user
    /// typed is not applied), they are kept as the settings, and the autosave is gone.
    @Test func cancelOnAFirstRunOpensTheMainWindowWithTheDefaults() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let events = try writeEvents(#"[{"key": "Right"}, {"tap": "userName"}, {"type": "Aki"}, {"tap": "button:cancel"}]"#)
        defer { try? FileManager.default.removeItem(at: events) }
        let app = try AppProcess(["run", "--locale", "en", "--drive", events.path], home: home)
        #expect(app.wait(for: "event 4\n"), "\(app.stdout) \(app.stderr)")
        app.kill()
        let (session, settings, _) = paths(home)
        #expect(!FileManager.default.fileExists(atPath: session))
        let saved = try JSONParser.parse(String(contentsOfFile: settings, encoding: .utf8)).value
        #expect(saved["outcome"] == "cancelled")
        #expect(saved["values"]?["userName"] == .null)
        #expect(saved["values"]?["focusTime"] == 1500)
        // The next launch opens the main window.
        #expect(try relaunchState(home) == nil)
    }

    /// An autosave that cannot be used is moved aside at launch, with a message naming both
    /// paths, and the walkthrough starts afresh.
    @Test func aCorruptAutosaveIsMovedAsideAtLaunch() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let (session, _, _) = paths(home)
        try FileManager.default.createDirectory(atPath: (session as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "\u{0}garbage".write(toFile: session, atomically: false, encoding: .utf8)
        let app = try AppProcess(["run", "--locale", "en", "--print-state", "--exit-after-first-frame"], home: home)
        app.waitForExit()
        #expect(app.status == 0)
        let folder = (session as NSString).deletingLastPathComponent
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".corrupt-") }
        try #require(aside.count == 1, "\(aside)")
        #expect(app.stderr.contains(session) && app.stderr.contains(folder + "/" + aside[0]), "\(app.stderr)")
        #expect(app.stdout.contains(#""page":{"index":0"#) || app.stdout.contains(#""page": {"index": 0"#), "\(app.stdout)")
    }

    /// A drag is saved when it is released (and when its page lands), not at its beginning nor at
    /// each of its motions: those change nothing a resume restores.
    @Test func aDragIsSavedOnItsReleaseNotWhileItMoves() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let events = try writeEvents(
            #"[{"dragBegin": {}}, {"dragUpdate": {"dx": -30}}, {"dragUpdate": {"dx": -60}}, {"dragUpdate": {"dx": -90}}, {"dragEnd": {"vx": -1000}}]"#
        )
        defer { try? FileManager.default.removeItem(at: events) }
        let app = try AppProcess(
            ["run", "--locale", "en", "--drive", events.path], home: home, environment: ["QUIRE_SAVE_STATS": "1"])
        app.waitForExit()
        #expect(app.stdout.contains("drive done"), "\(app.stdout) \(app.stderr)")
        // The release (a move under way) and the landing on page 2.
        #expect(app.stderr.contains("autosave: 2 saves,"), "\(app.stderr)")
        #expect(try relaunchState(home)?["page"]?["index"] == 1)
    }

    /// Every save failing (the state folder's place taken by a file): said once, not per event.
    @Test func anAutosaveThatCannotBeWrittenIsSaidOnce() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appendingPathComponent("state"), withIntermediateDirectories: true)
        try "in the way".write(to: home.appendingPathComponent("state/quire"), atomically: false, encoding: .utf8)
        let events = try writeEvents(#"[{"key": "Right"}, {"tap": "userName"}, {"type": "A"}, {"type": "k"}]"#)
        defer { try? FileManager.default.removeItem(at: events) }
        let app = try AppProcess(["run", "--locale", "en", "--drive", events.path], home: home)
        #expect(app.wait(for: "drive done"), "\(app.stdout) \(app.stderr)")
        app.kill()
        let said = app.stderr.components(separatedBy: "cannot save the walkthrough in progress").count - 1
        #expect(said == 1, "\(app.stderr)")
        #expect(app.stderr.contains(home.appendingPathComponent("state/quire").path))
    }

    /// The autosave's crash safety: `quire run` driven through a walkthrough is killed with
    /// SIGKILL at random moments; every relaunch resumes with the page, values, focus and open
    /// draft as of the last event it handled. `QUIRE_CRASH_SEED` repeats a run,
    /// `QUIRE_CRASH_RUNS` changes the number of kills (50).
    @Test func killedAtRandomMomentsItResumesAsOfTheLastEvent() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["QUIRE_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let runs = environment["QUIRE_CRASH_RUNS"].flatMap { Int($0) } ?? 50
        print("crash test: seed \(seed), \(runs) kills (QUIRE_CRASH_SEED=\(seed) repeats it)")
        var random = SplitMix64(seed: seed)
        let json = try JSONParser.parse(String(contentsOf: Self.events, encoding: .utf8)).value
        let events = try #require(json.arrayValue).map { item in try Event.parse(item).get() }
        // The state a relaunch resumes after each number of events, as the core has it: the
        // drive lets each page move settle before the next event; a drag in flight is not
        // resumed (no resume point), so during one the relaunch is where the drag began.
        var session = Session(flow: try demo(), locale: "en")
        var expected: [JSONValue] = [session.state]
        for event in events {
            _ = session.send(event)
            if session.resumePoint == nil {
                expected.append(expected.last!)
            } else {
                _ = session.send(.settle)
                expected.append(session.state)
            }
        }
        // The first run goes to the end, to learn how long the drive takes.
        let timing = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: timing) }
        let started = Date()
        let full = try AppProcess(["run", "--locale", "en", "--drive", Self.events.path], home: timing)
        try #require(full.wait(for: "drive done", seconds: 60), "\(full.stdout) \(full.stderr)")
        let span = Date().timeIntervalSince(started)
        full.kill()
        #expect(try relaunchState(timing) == expected.last, "the whole drive")

        var reached: [Int] = []
        for run in 0..<runs {
            let home = XDGHome.make()
            defer { try? FileManager.default.removeItem(at: home) }
            // A moment from launch to a little after the drive's end.
            let delay = Double(random.below(Int(span * 1.1 * 1000))) / 1000
            let app = try AppProcess(["run", "--locale", "en", "--drive", Self.events.path], home: home)
            usleep(UInt32(delay * 1_000_000))
            app.kill()
            let handled = app.lines("event ").compactMap { Int($0) }.max() ?? 0
            reached.append(handled)
            let state = try relaunchState(home)
            // Killed between handling an event (saved at once) and printing that it did, the
            // relaunch is one event further than the count printed.
            let ahead = handled < events.count ? expected[handled + 1] : nil
            let matches = state == expected[handled] || (ahead != nil && state == ahead)
            #expect(
                matches,
                "seed \(seed), kill \(run + 1) after \(Int(delay * 1000)) ms, \(handled) events handled: resumed \(state.map { JSONWriter.string($0) } ?? "the main window"), expected \(JSONWriter.string(expected[handled]))"
            )
        }
        print("crash test: events handled at each kill: \(reached)")
        // The kills were spread over the walkthrough, not all at its start or end.
        #expect(reached.contains { $0 > 0 && $0 < events.count }, "\(reached)")
    }
}
