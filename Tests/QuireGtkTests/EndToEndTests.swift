import Foundation
import Testing
import QuireCore
import QuireTestSupport

/// `quire run` met as a person and a screen reader meet it. What a screen reader sees: the accessible tree read over AT-SPI by a Python
/// client (python3-gi, gir1.2-atspi-2.0) while the app runs under the test's display and session
/// bus. The page indicator is a named slider, each field has its label and value, the toolbar's
/// buttons are named, and buttons are operable through their accessible actions.
///
/// On the main actor, like every suite that shows windows on the shared test display, so no two
/// of them run at once (the X input focus and the pointer are the display's).
@MainActor
@Suite(.serialized, GtkTest.enabled, .enabled(if: SystemPython.withAtspi != nil, "needs python3 with gi and Atspi"))
struct EndToEndTests {
    static let walker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("EndToEnd/atspi-walk.py")
}

/// A new temporary folder standing for the user's home (XDG state and config) in one test.
enum XDGHome {
    static func make() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-home-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// The system Python, if it has the GObject introspection bindings and the Atspi typelib (the
/// Python first on PATH may be another one).
enum SystemPython {
    static let hasXdotool = FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")

    static let withAtspi: String? = {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] {
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let check = Process()
            check.executableURL = URL(fileURLWithPath: candidate)
            check.arguments = ["-c", "import gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi"]
            check.standardError = FileHandle.nullDevice
            check.standardOutput = FileHandle.nullDevice
            guard (try? check.run()) != nil else { continue }
            check.waitUntilExit()
            if check.terminationStatus == 0 { return candidate }
        }
        return nil
    }()
}

extension EndToEndTests {
    /// The demo flow (five pages): the built-in demo but for its apply and its last page.
    static let demo = GtkTest.packageRoot.appendingPathComponent("data/flows/focus-onboarding.json").path

    /// Runs the app on `flow` (the demo flow unless given), then the walker's steps against it; returns the lines of
    /// each dump.
    /// The app's XDG state and config folders (its autosave and settings) are `home`'s, a new
    /// temporary folder unless given: runs share them only when a test says so.
    func walk(
        _ steps: [String], flow: String = EndToEndTests.demo, arguments: [String] = [], waitForExit: Bool = false, home: URL? = nil
    ) throws -> [[String]] {
        let ownHome = home == nil
        let home = home ?? XDGHome.make()
        defer { if ownHome { try? FileManager.default.removeItem(at: home) } }
        let app = Process()
        app.executableURL = RunCommandTests.binary
        app.arguments = ["run", "--locale", "en", flow] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["GTK_A11Y"] = nil
        environment["GSK_RENDERER"] = "cairo"
        app.environment = environment
        app.standardOutput = FileHandle.nullDevice
        app.standardError = FileHandle.nullDevice
        try app.run()
        defer {
            // SIGKILL: the app inherits the test runner's signal mask, which blocks SIGTERM.
            kill(app.processIdentifier, SIGKILL)
            app.waitUntilExit()
        }
        let walker = Process()
        walker.executableURL = URL(fileURLWithPath: SystemPython.withAtspi!)
        walker.arguments = [Self.walker.path, String(app.processIdentifier)] + steps
        // The tests' G_DEBUG=fatal-warnings is for Quire: AT-SPI's client library warns about
        // apps that left the bus (killed by earlier tests) and would abort on it.
        var walkerEnvironment = ProcessInfo.processInfo.environment
        walkerEnvironment["G_DEBUG"] = nil
        walker.environment = walkerEnvironment
        let out = Pipe()
        walker.standardOutput = out
        try walker.run()
        let data = readAll(out)
        walker.waitUntilExit()
        if waitForExit {
            let deadline = Date().addingTimeInterval(10)
            while app.isRunning && Date() < deadline { usleep(20_000) }
            #expect(!app.isRunning, "the app did not quit")
        }
        #expect(walker.terminationStatus == 0)
        var dumps: [[String]] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "== dump" { dumps.append([]) } else if !line.isEmpty, !dumps.isEmpty { dumps[dumps.count - 1].append(String(line)) }
        }
        return dumps
    }

    /// Whether a node with this role and name is in the dump (with this text; with each of
    /// `states`, of those the walker reports: selected, checked, required, invalid-entry).
    func has(_ dump: [String], _ role: String, _ name: String, text: String? = nil, states: [String] = []) -> Bool {
        dump.contains { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let have = parts.count >= 4 ? parts[3].split(separator: ",").map(String.init) : []
            return parts.count >= 3 && parts[0] == role && parts[1] == name && (text == nil || parts[2] == text)
                && states.allSatisfy(have.contains)
        }
    }

    func indicator(_ dump: [String]) -> String? {
        dump.first { $0.hasPrefix("slider\t") }.map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[1]) }
    }

    /// A pointer drag across the pages (X events through xdotool) becomes dragBegin/Update/End:
    /// the pager snaps to the next page and the indicator says so.
    @Test(.enabled(if: SystemPython.hasXdotool, "needs xdotool")) func draggingThePagesMovesToTheNextPage() throws {
        let dumps = try walk([
            "dump", "drag 420 300 80 300", "wait slider:Page 2 of 5", "dump", "drag 100 300 420 300", "wait slider:Page 1 of 5", "dump",
        ])
        try #require(dumps.count == 3)
        #expect(indicator(dumps[0]) == "Page 1 of 5")
        #expect(indicator(dumps[1]) == "Page 2 of 5")
        #expect(indicator(dumps[2]) == "Page 1 of 5")
    }

    /// The whole walkthrough with the keyboard alone: arrows page (focus starts on Next), Tab
    /// goes on to the header bar's primary menu (where the page's stops wrap), Cancel and then
    /// into the fields (the desktop keyboard order), typed text and Escape, the toggle's page,
    /// Ctrl+Return finishes and the main view opens.
    @Test(.enabled(if: SystemPython.hasXdotool, "needs xdotool")) func theWalkthroughCanBeDoneWithTheKeyboardAlone() throws {
        let dumps = try walk([
            "key Right", "wait slider:Page 2 of 5", "key Tab", "wait push button:Main Menu[focused]", "key Tab",
            "wait push button:Cancel[focused]", "key Tab", "wait panel:Name", "type Aki", "key Escape", "sleep 1", "dump",
            "key Right", "wait slider:Page 3 of 5", "key Tab", "key Tab", "key Tab", "wait panel:Focus time", "key Up", "key Return",
            "wait push button:Focus time: 1 h 25 min", "dump",
            "key End", "wait slider:Page 5 of 5", "dump", "key ctrl+Return", "wait push button:Run the walkthrough again", "dump",
        ])
        try #require(dumps.count == 4)
        #expect(has(dumps[0], "text", "Name", text: "Aki"))
        #expect(indicator(dumps[0]) == "Page 2 of 5")
        #expect(indicator(dumps[1]) == "Page 3 of 5")
        #expect(has(dumps[1], "push button", "Focus time: 1 h 25 min"))  // Up turns the first (hours) wheel
        #expect(indicator(dumps[2]) == "Page 5 of 5")
        #expect(has(dumps[3], "push button", "Run the walkthrough again"))
        #expect(has(dumps[3], "label", "Aki"))
    }

    /// `--record` writes what the user did; `quire test` replays it headlessly to the same state
    /// (the recording's last step expects the whole state the window's session ended in).
    @Test(.enabled(if: SystemPython.hasXdotool, "needs xdotool")) func aRecordedSessionReplaysHeadlesslyToTheSameState() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-recorded-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try walk(
            [
                "key Right", "wait slider:Page 2 of 5", "key Tab", "key Tab", "key Tab", "wait panel:Name", "type Aki", "key BackSpace",
                "key Escape",
                "drag 420 300 80 300", "wait slider:Page 3 of 5", "key Tab", "key Tab", "key Tab", "wait panel:Focus time", "key Up",
                "key Right",
                "key Up",
                "key Return", "key Left", "wait slider:Page 2 of 5", "key ctrl+q",
            ], arguments: ["--record", file.path], waitForExit: true)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""dragEnd""#))
        #expect(text.contains(#""userName": "Ak""#))
        // What was heard is in the recording, after the event that made it heard, and the
        // replay checks it: arriving on page 2, then on page 3 after the drag.
        let steps = try #require(JSONParser.parse(text).value["steps"]?.arrayValue)
        let heard = steps.compactMap { $0["expectAnnounced"]?.arrayValue }.flatMap { $0 }.compactMap { $0["text"]?.stringValue }
        #expect(heard.prefix(2) == ["About you, page 2 of 5", "Your focus time, page 3 of 5"], "\(heard)")
        #expect(heard.last == "About you, page 2 of 5", "\(heard)")
        let replay = Process()
        replay.executableURL = RunCommandTests.binary
        replay.arguments = ["test", "--plain", file.path]
        let out = Pipe()
        replay.standardOutput = out
        try replay.run()
        let output = String(decoding: readAll(out), as: UTF8.self)
        replay.waitUntilExit()
        #expect(replay.terminationStatus == 0, "\(output)")
        #expect(output.hasSuffix("1 passed, 0 failed\n"))
    }

    /// The walkthrough autosaves: killed with SIGKILL while the choice list is open, the next
    /// launch resumes on the same page with the name typed, the picker open and its draft kept.
    @Test(.enabled(if: SystemPython.hasXdotool, "needs xdotool")) func theWalkthroughResumesAfterTheProcessIsKilled() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try walk(
            [
                "key Right", "wait slider:Page 2 of 5", "key Tab", "key Tab", "key Tab", "wait panel:Name", "type Aki", "key Tab",
                "wait panel:Feed language", "key Down", "wait list item:日本語[selected]",
            ], home: home)
        // walk() ends the app with SIGKILL: nothing ran on the way out.
        let dumps = try walk(["dump"], home: home)
        try #require(dumps.count == 1)
        #expect(indicator(dumps[0]) == "Page 2 of 5")
        #expect(has(dumps[0], "text", "Name", text: "Aki"))
        #expect(has(dumps[0], "push button", "Done"))
        #expect(has(dumps[0], "list item", "日本語", states: ["selected"]))
        #expect(!has(dumps[0], "list item", "English", states: ["selected"]))
    }

    /// Finishing saves the settings: the next launch opens the main window, not the walkthrough.
    @Test(.enabled(if: SystemPython.hasXdotool, "needs xdotool")) func aFinishedWalkthroughOpensTheMainWindowNextTime() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try walk(
            [
                "key Right", "wait slider:Page 2 of 5", "key Tab", "key Tab", "key Tab", "wait panel:Name", "type Aki", "key Escape",
                "key End",
                "wait slider:Page 5 of 5", "key ctrl+Return", "wait push button:Run the walkthrough again", "dump",
            ],
            home: home)
        try #require(first.count == 1)
        #expect(has(first[0], "push button", "Run the walkthrough again"))
        let second = try walk(["dump"], home: home)
        try #require(second.count == 1)
        #expect(has(second[0], "push button", "Run the walkthrough again"))
        #expect(has(second[0], "label", "Aki"))
        #expect(indicator(second[0]) == nil)
        // The focus timer, set from the walkthrough's duration, in the panel and the header.
        #expect(has(second[0], "label", "Focus timer: 25 min remaining"))
        #expect(has(second[0], "push button", "Focus timer: 25 min remaining"))
    }

    @Test func aScreenReaderSeesTheIndicatorTheFieldsAndTheToolbar() throws {
        let dumps = try walk([
            "dump",
            "press push button:Next", "wait slider:Page 2 of 5", "dump",
            "press push button:Feed language: English", "wait list item:English[selected]", "dump",
        ])
        try #require(dumps.count == 3)
        // The first page: the indicator is a slider named after the page; the buttons are named.
        #expect(has(dumps[0], "slider", "Page 1 of 5"))
        #expect(has(dumps[0], "push button", "Next"))
        #expect(has(dumps[0], "push button", "Back"))
        // No input panel while nothing is first responder: no toolbar for a screen reader either.
        #expect(!has(dumps[0], "push button", "Done"))
        // Next, through its accessible action: page 2 with its fields' labels and values.
        #expect(has(dumps[1], "slider", "Page 2 of 5"))
        #expect(has(dumps[1], "label", "Name"))
        #expect(has(dumps[1], "text", "Name"))
        #expect(has(dumps[1], "push button", "Feed language: English"))
        // The choice list opened: the toolbar's buttons and the options.
        #expect(has(dumps[2], "push button", "Done"))
        #expect(has(dumps[2], "push button", "Previous"))
        #expect(has(dumps[2], "list item", "English", states: ["selected"]))
        #expect(has(dumps[2], "list item", "日本語"))
        #expect(!has(dumps[2], "list item", "日本語", states: ["selected"]))
        // No operable node is named after its GType (GTK 4.8's fallback for unnamed widgets).
        for dump in dumps {
            let unnamed = dump.filter { line in
                let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return ["push button", "slider", "check box", "text", "spin button"].contains(parts[0])
                    && (parts[1].isEmpty || parts[1].hasPrefix("Gtk"))
            }
            #expect(unnamed.isEmpty, "\(unnamed)")
        }
    }

    /// Cancel on a walkthrough run again from the main window: back to the main window with the
    /// settings from before, the settings file untouched.
    @Test func cancelOnAWalkthroughRunAgainKeepsTheSettingsFromBefore() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let settings = home.appendingPathComponent("config/quire/focus-onboarding.settings.json")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        let before =
            #"{"format": "quire.settings/1", "flow": "focus-onboarding", "outcome": "finished", "values": {"userName": "Aki", "feedLanguage": "ja", "focusTime": 2400, "reminders": false}}"#
        try before.write(to: settings, atomically: true, encoding: .utf8)
        let dumps = try walk(
            [
                // Run again from the answers: reminders off hides the reminder page.
                "press push button:Run the walkthrough again", "wait slider:Page 1 of 4", "dump",
                "press push button:Cancel", "wait push button:Run the walkthrough again", "dump",
            ], home: home)
        try #require(dumps.count == 2)
        #expect(has(dumps[0], "push button", "Cancel"))
        #expect(has(dumps[1], "label", "Aki"))
        #expect(has(dumps[1], "label", "Focus timer: 40 min remaining"))
        #expect(try String(contentsOf: settings, encoding: .utf8) == before)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("state/quire/focus-onboarding.session.json").path))
    }

    /// A running focus timer is kept across runs and has gone on from the wall clock meanwhile.
    @Test func aRunningTimerResumesFromTheWallClockAfterARelaunch() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/quire")
        let state = home.appendingPathComponent("state/quire")
        for folder in [config, state] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try #"{"format": "quire.settings/1", "flow": "focus-onboarding", "outcome": "finished", "values": {"focusTime": 1500}}"#
            .write(to: config.appendingPathComponent("focus-onboarding.settings.json"), atomically: true, encoding: .utf8)
        // Saved running with 25:00 left, ten minutes ago.
        let tenMinutesAgo = Int64(Date().timeIntervalSince1970 * 1_000_000) - 600_000_000
        try #"{"format": "quire.timer/1", "duration": 1500, "remainingMs": 1500000, "running": true, "savedAt": \#(tenMinutesAgo)}"#
            .write(to: state.appendingPathComponent("focus-onboarding.timer.json"), atomically: true, encoding: .utf8)
        let dumps = try walk(["dump"], home: home)
        try #require(dumps.count == 1)
        let shown = dumps[0].first { $0.hasPrefix("label\tFocus timer: ") } ?? ""
        // Its accessible name says the time in the core's words (issue 20).
        #expect(
            shown.contains("Focus timer: 15 min remaining") || shown.contains("Focus timer: 14 min 59 s remaining")
                || shown.contains("Focus timer: 14 min 58 s remaining"), "\(dumps[0])")
        #expect(has(dumps[0], "push button", "Pause"))
    }
}
