import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// What the app keeps between runs, and what it does with a file it cannot use: moved aside with
/// a message naming both paths, never deleted or overwritten.
@MainActor
@Suite(.serialized) struct AppStorageTests {
    let home = XDGHome.make()
    let flow: Flow

    init() throws {
        flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
    }

    func storage(_ collect: @escaping (String) -> Void) -> AppStorage {
        let storage = AppStorage(
            flowID: "focus-onboarding", stateFolder: home.appendingPathComponent("state/quire").path,
            configFolder: home.appendingPathComponent("config/quire").path)
        storage.report = collect
        return storage
    }

    func put(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func asides(of path: String) throws -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name + ".corrupt-") }
            .map { folder + "/" + $0 }
    }

    /// Runs `body` with a storage whose messages are collected.
    func withStorage(_ body: (AppStorage, () -> [String]) throws -> Void) throws {
        defer { try? FileManager.default.removeItem(at: home) }
        final class Box { var lines: [String] = [] }
        let box = Box()
        try body(storage { box.lines.append($0) }, { box.lines })
    }

    @Test func aCorruptAutosaveIsMovedAsideWithAMessageNamingBothPaths() throws {
        try withStorage { storage, messages in
            try put(#"{"format": "quire.snapshot/1", "#, at: storage.sessionPath)
            #expect(storage.savedSession(of: flow) == nil)
            let aside = try #require(try asides(of: storage.sessionPath).first)
            #expect(!FileManager.default.fileExists(atPath: storage.sessionPath))
            #expect(try String(contentsOfFile: aside, encoding: .utf8) == #"{"format": "quire.snapshot/1", "#)
            #expect(aside.range(of: #"\.corrupt-\d{8}-\d{6}$"#, options: .regularExpression) != nil, "\(aside)")
            #expect(messages().count == 1)
            #expect(messages()[0].contains(storage.sessionPath) && messages()[0].contains(aside), "\(messages())")
            // The next save writes a new file; the one set aside stays.
            #expect(storage.save(Session(flow: flow)) == nil)
            #expect(FileManager.default.fileExists(atPath: aside))
        }
    }

    @Test func anAutosaveOfAFutureVersionIsMovedAsideNotRead() throws {
        try withStorage { storage, messages in
            var snapshot = JSONWriter.string(Session(flow: flow).snapshot(includingFlow: false))
            snapshot = snapshot.replacingOccurrences(of: "quire.snapshot/1", with: "quire.snapshot/2")
            try put(snapshot, at: storage.sessionPath)
            #expect(storage.savedSession(of: flow) == nil)
            #expect(try asides(of: storage.sessionPath).count == 1)
            #expect(messages().count == 1 && messages()[0].contains("quire.snapshot/2"), "\(messages())")
        }
    }

    /// A name taken by something unreadable (here a folder) is moved aside too; a second one in
    /// the same second gets a number.
    @Test func anUnreadableAutosaveIsMovedAsideAndTwoInOneSecondGetTwoNames() throws {
        try withStorage { storage, messages in
            try FileManager.default.createDirectory(atPath: storage.sessionPath, withIntermediateDirectories: true)
            #expect(storage.savedSession(of: flow) == nil)
            try put("not JSON", at: storage.sessionPath)
            #expect(storage.savedSession(of: flow) == nil)
            let moved = try asides(of: storage.sessionPath)
            #expect(moved.count == 2, "\(moved)")
            #expect(messages().count == 2)
        }
    }

    @Test func aMissingAutosaveIsNoMessage() throws {
        try withStorage { storage, messages in
            #expect(storage.savedSession(of: flow) == nil)
            #expect(messages().isEmpty)
        }
    }

    @Test func aGoodAutosaveResumes() throws {
        try withStorage { storage, messages in
            var session = Session(flow: flow)
            _ = session.send(.tap(.button(.next)))
            _ = session.send(.settle)
            _ = session.send(.tap(.field("feedLanguage")))
            _ = session.send(.key(.down))
            #expect(storage.save(session) == nil)
            let resumed = try #require(storage.savedSession(of: flow))
            #expect(resumed.state == session.state)
            #expect(messages().isEmpty)
        }
    }

    @Test func corruptSettingsAreMovedAsideAndCountAsNone() throws {
        try withStorage { storage, messages in
            try put(#"{"format": "quire.settings/9", "outcome": "finished", "values": {}}"#, at: storage.settingsPath)
            #expect(storage.settings() == nil)
            #expect(try asides(of: storage.settingsPath).count == 1)
            #expect(messages().count == 1 && messages()[0].contains(storage.settingsPath), "\(messages())")
        }
    }

    @Test func settingsRoundTrip() throws {
        try withStorage { storage, _ in
            var values = JSONObject()
            values.append("focusTime", 2400)
            #expect(storage.saveSettings(outcome: .cancelled, values: values) == nil)
            let read = try #require(storage.settings())
            #expect(read.outcome == "cancelled" && read.values == values)
        }
    }

    /// A running timer saved a minute ago has lost that minute; a paused one has not.
    @Test func theTimerIsKeptAndARunningOneResumesFromTheWallClock() throws {
        try withStorage { storage, messages in
            var timer = FocusTimer(duration: 1500)
            timer.start()
            timer.advance(milliseconds: 100_000)
            let savedAt: Int64 = 1_700_000_000_000_000
            #expect(storage.saveTimer(timer, now: savedAt) == nil)
            let later = try #require(storage.timer(now: savedAt + 60_000_000))
            #expect(later.isRunning && later.remainingMs == 1_400_000 - 60_000 && later.duration == 1500)
            // Long after it ran out: at zero, stopped.
            let done = try #require(storage.timer(now: savedAt + 3_600_000_000))
            #expect(!done.isRunning && done.remainingMs == 0)
            // A clock set back takes nothing off.
            #expect(storage.timer(now: savedAt - 5_000_000)?.remainingMs == 1_400_000)
            timer.pause()
            #expect(storage.saveTimer(timer, now: savedAt) == nil)
            let paused = try #require(storage.timer(now: savedAt + 60_000_000))
            #expect(!paused.isRunning && paused.remainingMs == 1_400_000)
            #expect(messages().isEmpty)
        }
    }

    @Test func aTimerFileOfAnotherFormatIsMovedAside() throws {
        try withStorage { storage, messages in
            try put(#"{"format": "quire.timer/2", "duration": 60}"#, at: storage.timerPath)
            #expect(storage.timer(now: 0) == nil)
            #expect(try asides(of: storage.timerPath).count == 1)
            #expect(messages().count == 1 && messages()[0].contains("quire.timer/2"), "\(messages())")
        }
    }
}

@Suite struct FailureReportTests {
    /// A save failing is said once; again only after a save worked in between.
    @Test func aFailureIsSaidOnceUntilASaveWorks() {
        var report = FailureReport()
        let say = { (problem: String) in "failed: \(problem)" }
        #expect(report.note("disk full", say) == "failed: disk full")
        #expect(report.note("disk full", say) == nil)
        #expect(report.note("another", say) == nil)
        #expect(report.note(nil, say) == nil)
        #expect(report.note(nil, say) == nil)
        #expect(report.note("disk full", say) == "failed: disk full")
    }
}

@Suite struct FocusTimerLengthTests {
    /// A new length shows at once on a timer at its full length; a started one goes on and Reset
    /// brings the new length.
    @Test func aNewLengthAppliesAtOnceOnlyToATimerNotStarted() {
        var fresh = FocusTimer(duration: 1500)
        fresh.setDuration(2400)
        #expect(fresh.remaining == 2400 && !fresh.isRunning)
        var started = FocusTimer(duration: 1500)
        started.start()
        started.advance(milliseconds: 60_000)
        started.setDuration(2400)
        #expect(started.remaining == 1440 && started.isRunning)
        started.reset()
        #expect(started.remaining == 2400)
        // Shorter than what is left: what is left shrinks with it.
        var long = FocusTimer(duration: 1500)
        long.start()
        long.advance(milliseconds: 1000)
        long.setDuration(600)
        #expect(long.remaining == 600)
    }

    @Test func aSavedTimerOutOfRangeIsNotATimer() {
        #expect(
            FocusTimer.Saved(json: ["format": "quire.timer/1", "duration": -1, "remainingMs": 0, "running": false, "savedAt": 0]) == nil)
        #expect(
            FocusTimer.Saved(json: ["format": "quire.timer/1", "duration": 60, "remainingMs": 0, "running": "yes", "savedAt": 0]) == nil)
        let good = FocusTimer.Saved(json: ["format": "quire.timer/1", "duration": 60, "remainingMs": 90_000, "running": true, "savedAt": 5])
        // More left than the length: kept within it.
        #expect(good?.resumed(at: 5).remainingMs == 60_000)
    }
}

@MainActor
@Suite struct CancelDefaultsTests {
    /// A first walkthrough cancelled leaves the flow's defaults as the settings.
    @Test func theDefaultsAreWhatAFreshWalkthroughHolds() throws {
        let defaults = QuireApplication.defaults(of: try Flow.load(json: DemoFlow.json, file: DemoFlow.path))
        #expect(defaults["focusTime"] == 1500)
        #expect(defaults["feedLanguage"] == "en")
        #expect(defaults["reminders"] == true)
        #expect(defaults["userName"] == .null)
    }
}
