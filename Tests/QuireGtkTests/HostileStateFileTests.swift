import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// The app's state files as an attacker (or a broken disk) leaves them (issue 19): a named pipe,
/// a link to `/dev/zero`, a 2 GiB sparse file, a hand-edited position off the pages. Each is
/// refused before it is read, set aside like a corrupt file with one message, and the app starts.
@MainActor
@Suite(.serialized) struct HostileStateFileTests {
    let flow: Flow

    init() throws {
        flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
    }

    /// A storage in a fresh home; its messages; the home is removed after `body`.
    func withStorage(_ body: (AppStorage, () -> [String]) throws -> Void) throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        final class Box { var lines: [String] = [] }
        let box = Box()
        let storage = AppStorage(
            flowID: "focus-onboarding", stateFolder: home.appendingPathComponent("state/quire").path,
            configFolder: home.appendingPathComponent("config/quire").path)
        storage.report = { box.lines.append($0) }
        try FileManager.default.createDirectory(atPath: storage.stateFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: storage.configFolder, withIntermediateDirectories: true)
        try body(storage, { box.lines })
    }

    func asides(of path: String) throws -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name + ".corrupt-") }
    }

    /// Reads each of the three files through `storage` and says how long it took.
    func readAll(_ storage: AppStorage) -> (session: Session?, settings: Bool, timer: Bool, seconds: Double) {
        let start = Date()
        let session = storage.savedSession(of: flow)
        let settings = storage.settings() != nil
        let timer = storage.timer(now: 0) != nil
        return (session, settings, timer, Date().timeIntervalSince(start))
    }

    @Test func namedPipesAreSetAsideAtOnceNeverWaitedOn() throws {
        try withStorage { storage, messages in
            for path in [storage.sessionPath, storage.settingsPath, storage.timerPath] { #expect(mkfifo(path, 0o600) == 0) }
            let read = readAll(storage)
            #expect(read.session == nil && !read.settings && !read.timer)
            #expect(read.seconds < 2, "took \(read.seconds) s")
            #expect(messages().count == 3, "\(messages())")
            for (path, message) in zip([storage.sessionPath, storage.settingsPath, storage.timerPath], messages()) {
                #expect(message.contains("\(path): cannot read it: it is a named pipe (FIFO), not a regular file"), "\(message)")
                #expect((try? asides(of: path))?.count == 1)
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
    }

    @Test func aLinkToDevZeroIsRefusedBeforeAByteIsRead() throws {
        try withStorage { storage, messages in
            #expect(symlink("/dev/zero", storage.sessionPath) == 0)
            #expect(symlink("/dev/zero", storage.settingsPath) == 0)
            let read = readAll(storage)
            #expect(read.session == nil && !read.settings)
            #expect(read.seconds < 2)
            #expect(messages().count == 2)
            #expect(messages().allSatisfy { $0.contains("cannot read it: it is a character device, not a regular file") }, "\(messages())")
            // The link is moved aside; what it points to is not touched.
            let aside = try #require(try asides(of: storage.sessionPath).first)
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: storage.stateFolder + "/" + aside)
            #expect(target == "/dev/zero")
        }
    }

    @Test func aTwoGiBSparseAutosaveIsRefusedByItsSizeAlone() throws {
        try withStorage { storage, messages in
            for path in [storage.sessionPath, storage.settingsPath, storage.timerPath] {
                #expect(FileManager.default.createFile(atPath: path, contents: nil))
                #expect(truncate(path, 2 << 30) == 0)
            }
            let read = readAll(storage)
            #expect(read.session == nil && !read.settings && !read.timer)
            #expect(read.seconds < 2, "took \(read.seconds) s: it was read")
            #expect(messages().count == 3)
            #expect(messages()[0].contains("cannot read it: it is 2147483648 bytes; the limit is 268435456"), "\(messages()[0])")
            #expect(messages()[1].contains("cannot read it: it is 2147483648 bytes; the limit is 16777216"), "\(messages()[1])")
            #expect(messages()[2].contains("cannot read it: it is 2147483648 bytes; the limit is 65536"), "\(messages()[2])")
        }
    }

    /// A hand-edited autosave whose position is off the pages (or not its page) is refused like a
    /// corrupt one, even though each key has the right type.
    @Test(arguments: [
        ("99999", "position 99999 is off its page (visible page 0 of 6, at position 0)"),
        ("0.5", "position 0.5 is off its page (visible page 0 of 6, at position 0)"),
    ])
    func aPositionOffThePagesIsRefused(position: String, problem: String) throws {
        try withStorage { storage, messages in
            var snapshot = JSONWriter.string(Session(flow: flow).snapshot(includingFlow: false))
            snapshot = snapshot.replacingOccurrences(of: #""position":0"#, with: #""position":\#(position)"#)
            #expect(snapshot.contains(#""position":\#(position)"#))
            try snapshot.write(toFile: storage.sessionPath, atomically: false, encoding: .utf8)
            #expect(storage.savedSession(of: flow) == nil)
            #expect(messages().count == 1)
            #expect(messages().first?.contains(storage.sessionPath) == true, "\(messages())")
            #expect(messages().first?.contains("$.position: \(problem)") == true, "\(messages())")
            #expect((try? asides(of: storage.sessionPath))?.count == 1)
        }
    }

    @Test func aSessionWhereTheWalkthroughCanBeIsAccepted() throws {
        var session = Session(flow: flow)
        func resumed(_ session: Session) throws -> Session {
            try Session(restoring: JSONWriter.data(session.snapshot(includingFlow: false)), flow: flow)
        }
        #expect(try resumed(session).currentIndex == 0)
        _ = session.send(.tap(.button(.next)))
        // Under way to page 1.
        #expect(session.transition != nil)
        #expect(try resumed(session).transition?.to == 1)
        _ = session.send(.settle)
        #expect(try resumed(session).currentIndex == 1)
    }
}

/// `quire run` itself with hostile state files and a file-size limit: it starts, says what it set
/// aside, and a save over the limit is a "cannot save" message, not a death by SIGXFSZ.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct HostileStateRunTests {
    /// Runs `quire run ARGS` through `sh -c` (for `ulimit`), with the state and config folders in
    /// `home`; status, stdout, stderr. Killed after `timeout` seconds (then the status is -1).
    func run(_ arguments: String, home: URL, before: String = "", timeout: Double = 60) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(before) exec '\(RunCommandTests.binary.path)' run \(arguments)"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["GTK_A11Y"] = "none"
        environment["GSK_RENDERER"] = "cairo"
        process.environment = environment
        // Pipes, not files: the file-size limit of a case applies to files the process writes.
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var data = Data()
            func append(_ more: Data) { lock.withLock { data.append(more) } }
            var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
        }
        let stdout = Collected()
        let stderr = Collected()
        out.fileHandleForReading.readabilityHandler = { stdout.append($0.availableData) }
        err.fileHandleForReading.readabilityHandler = { stderr.append($0.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var status = Int32(-1)
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        } else {
            status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        }
        usleep(50_000)
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        return (status, stdout.text, stderr.text)
    }

    @Test func namedPipesForEveryStateFileDoNotStopTheAppFromStarting() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let state = home.appendingPathComponent("state/quire")
        let config = home.appendingPathComponent("config/quire")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        for path in [
            state.appendingPathComponent("focus-onboarding.session.json"), state.appendingPathComponent("focus-onboarding.timer.json"),
            config.appendingPathComponent("focus-onboarding.settings.json"),
        ] {
            #expect(mkfifo(path.path, 0o600) == 0)
        }
        let (status, stdout, stderr) = try run("--locale en --print-state --exit-after-first-frame", home: home, timeout: 30)
        #expect(status == 0, "\(stderr)")
        #expect(stdout.contains("state {"), "the walkthrough did not start: \(stdout)")
        #expect(stderr.contains("it is a named pipe (FIFO), not a regular file"), "\(stderr)")
    }

    @Test func aSaveOverTheFileSizeLimitIsCannotSaveAndLeavesNoTemporaryFile() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let events = home.appendingPathComponent("events.json")
        try #"[{"key": "Right"}, {"tap": "userName"}, {"type": "Ak"}]"#.write(to: events, atomically: true, encoding: .utf8)
        // No file may grow: every save fails with EFBIG (SIGXFSZ ignored).
        let (status, stdout, stderr) = try run("--locale en --drive '\(events.path)'", home: home, before: "ulimit -f 0;", timeout: 60)
        #expect(status == 0, "killed or failed: \(status) \(stderr)")
        #expect(stdout.contains("drive done"), "\(stdout) \(stderr)")
        #expect(stderr.contains("cannot save the walkthrough in progress to"), "\(stderr)")
        #expect(stderr.contains("File too large"), "\(stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("state/quire").path)) ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
