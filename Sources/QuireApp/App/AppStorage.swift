import GtkBindings
import QuireGtk
import CGtk
import Glibc
import QuireCore

/// Where the app keeps what outlives a window, per flow (by its id):
///
/// - `$XDG_STATE_HOME/quire/FLOW.session.json` — the walkthrough in progress: a session snapshot
///   (`quire.snapshot/1`), rewritten atomically after every user event and every finished page
///   move, before the event's result is drawn, so closing the window or killing the process loses
///   nothing; removed when the walkthrough completes.
/// - `$XDG_STATE_HOME/quire/FLOW.timer.json` — the focus timer (`quire.timer/1`): its duration,
///   what was left and whether it ran, at a wall-clock time, so a relaunch resumes it.
/// - `$XDG_CONFIG_HOME/quire/FLOW.settings.json` — the settings (`{"format": "quire.settings/1",
///   "flow": ID, "outcome": …, "values": {…}}`): a finished walkthrough's values, the flow's
///   defaults after a first walkthrough was cancelled, or what the preferences changed since;
///   while the file is there, the app opens its main window instead of the walkthrough.
///
/// A file that is there but cannot be used (unreadable, not a regular file, over its size limit,
/// corrupt, another format version, not fitting the flow, a place off the pages) is never
/// deleted or overwritten: it is moved aside to
/// `PATH.corrupt-YYYYMMDD-HHMMSS` with a message naming both paths. If even that fails, the app
/// leaves it and does not write that file in this run.
@MainActor
final class AppStorage {
    let flowID: String
    let stateFolder: String
    let configFolder: String
    /// Where messages go (standard error; tests collect them).
    var report: (String) -> Void = { printError($0) }
    /// Files that could not be moved aside: left alone for the rest of the run.
    private(set) var untouchable: Set<String> = []

    init(flowID: String, stateFolder: String? = nil, configFolder: String? = nil) {
        self.flowID = flowID
        self.stateFolder = stateFolder ?? String(cString: g_get_user_state_dir()) + "/quire"
        self.configFolder = configFolder ?? String(cString: g_get_user_config_dir()) + "/quire"
    }

    var sessionPath: String { stateFolder + "/" + flowID + ".session.json" }
    var timerPath: String { stateFolder + "/" + flowID + ".timer.json" }
    var settingsPath: String { configFolder + "/" + flowID + ".settings.json" }

    // MARK: The walkthrough in progress

    /// The saved walkthrough of `flow`, if there is one that can be resumed. One that cannot is
    /// moved aside (with a message); one that had completed is ignored.
    func savedSession(of flow: Flow) -> Session? {
        guard let bytes = contents(sessionPath, what: "the saved walkthrough", maxBytes: Self.maxSessionBytes) else { return nil }
        let session: Session
        do {
            session = try Session(restoring: bytes, flow: flow, file: sessionPath)
        } catch {
            setAside(sessionPath, what: "the saved walkthrough", problem: error.diagnostics.first?.description ?? "unreadable")
            return nil
        }
        return session
    }

    /// The largest files read back: a snapshot as large as any Quire writes (`JSONLimits.snapshot`);
    /// settings as large as a document (`JSONLimits.default`, a value per field); a timer is a
    /// few numbers.
    static let maxSessionBytes = JSONLimits.snapshot.documentBytes
    static let maxSettingsBytes = JSONLimits.default.documentBytes
    static let maxTimerBytes = 64 << 10

    /// Saves the walkthrough; nil or what went wrong (the previous save is then kept). Atomic
    /// (a temporary file renamed over the old one) without waiting for the disk: a killed
    /// process leaves the last save whole, and the save is cheap enough for every event.
    @discardableResult
    func save(_ session: Session) -> String? {
        write(
            String(decoding: session.snapshotData(includingFlow: false), as: UTF8.self), to: sessionPath, folder: stateFolder,
            durable: false)
    }

    func forgetSession() {
        if !untouchable.contains(sessionPath) { _ = unlink(sessionPath) }
    }

    // MARK: Settings

    /// The settings saved before (outcome and values), if any. A file that cannot be read is moved
    /// aside (with a message) and counts as none.
    func settings() -> (outcome: String, values: JSONObject)? {
        guard let bytes = contents(settingsPath, what: "the settings", maxBytes: Self.maxSettingsBytes) else { return nil }
        let value: JSONValue
        do {
            value = try DocumentReader.parse(file: settingsPath, bytes: bytes).0
        } catch {
            setAside(settingsPath, what: "the settings", problem: error.diagnostics.first?.description ?? "unreadable")
            return nil
        }
        guard case .object(let object) = value, object["format"] == .string("quire.settings/1"),
            case .string(let outcome)? = object["outcome"], Outcome(rawValue: outcome) != nil, case .object(let values)? = object["values"]
        else {
            let format = value["format"]?.stringValue.map { "'\($0)'" } ?? "missing"
            setAside(
                settingsPath, what: "the settings",
                problem: "\(settingsPath): not quire.settings/1 settings with an outcome and values (format \(format))")
            return nil
        }
        return (outcome, values)
    }

    @discardableResult
    func saveSettings(outcome: Outcome, values: JSONObject) -> String? {
        write(settingsText(outcome: outcome, values: values), to: settingsPath, folder: configFolder)
    }

    /// The settings file's text.
    func settingsText(outcome: Outcome, values: JSONObject) -> String {
        var object = JSONObject()
        object.append("format", "quire.settings/1")
        object.append("flow", .string(flowID))
        object.append("outcome", .string(outcome.rawValue))
        object.append("values", .object(values))
        return JSONWriter.string(.object(object), style: .pretty) + "\n"
    }

    /// Saves the settings in the background (GIO): `done` gets nil or what went wrong. The
    /// demo flow's last page applies its answers so (docs/app.md, "Saving the settings").
    func saveSettingsInBackground(values: JSONObject, done: @escaping @MainActor (String?) -> Void) -> FileWrite? {
        if untouchable.contains(settingsPath) {
            done("\(settingsPath) is set aside for this run")
            return nil
        }
        guard g_mkdir_with_parents(configFolder, 0o700) == 0 else {
            done("cannot create the folder \(configFolder): \(String(cString: strerror(errno)))")
            return nil
        }
        return FileWrite(path: settingsPath, contents: Array(settingsText(outcome: .finished, values: values).utf8), done: done)
    }

    // MARK: The focus timer

    /// The timer saved before, resumed at `now` (wall-clock µs); nil when there is none (a file
    /// that cannot be read is moved aside with a message).
    func timer(now: Int64) -> FocusTimer? {
        guard let bytes = contents(timerPath, what: "the focus timer", maxBytes: Self.maxTimerBytes) else { return nil }
        do {
            let value = try DocumentReader.parse(file: timerPath, bytes: bytes).0
            if let saved = FocusTimer.Saved(json: value) { return saved.resumed(at: now) }
            let format = value["format"]?.stringValue.map { "'\($0)'" } ?? "missing"
            setAside(timerPath, what: "the focus timer", problem: "\(timerPath): not a quire.timer/1 timer (format \(format))")
        } catch {
            setAside(timerPath, what: "the focus timer", problem: error.diagnostics.first?.description ?? "unreadable")
        }
        return nil
    }

    @discardableResult
    func saveTimer(_ timer: FocusTimer, now: Int64) -> String? {
        write(JSONWriter.string(FocusTimer.Saved(timer, at: now).json) + "\n", to: timerPath, folder: stateFolder)
    }

    // MARK: Files

    /// The bytes of the file at `path`; nil when there is none, or when it cannot be read (then it
    /// is moved aside, with a message naming `what` it held). Read as every document is
    /// (`RegularFile`): a named pipe, a device, a folder or a link to one is refused before it is
    /// opened, and a file over `maxBytes` before a byte of it is read, so no state file can hang
    /// the start-up or fill the memory.
    private func contents(_ path: String, what: String, maxBytes: Int) -> [UInt8]? {
        switch RegularFile.read(path, maxBytes: maxBytes) {
        case .success(let bytes): return bytes
        case .failure(.missing): return nil
        case .failure(let problem):
            setAside(path, what: what, problem: "\(path): cannot read it: \(problem.reason(limit: maxBytes))")
            return nil
        }
    }

    /// Moves a file that cannot be used out of the way (`PATH.corrupt-YYYYMMDD-HHMMSS`, a number
    /// added if that is taken) and says so; if it cannot be moved, says that and leaves it alone.
    private func setAside(_ path: String, what: String, problem: String) {
        let aside = Self.asidePath(for: path)
        if rename(path, aside) == 0 {
            report("quire run: \(what) \(path) cannot be used (\(problem)); moved it to \(aside) and started without it")
        } else {
            let reason = String(cString: strerror(errno))
            untouchable.insert(path)
            report(
                "quire run: \(what) \(path) cannot be used (\(problem)), and it cannot be moved to \(aside) (\(reason)); "
                    + "it is left as it is and not written in this run")
        }
    }

    /// `PATH.corrupt-YYYYMMDD-HHMMSS` in local time; `-2`, `-3`, … after it when taken.
    static func asidePath(for path: String) -> String {
        let now = g_date_time_new_now_local()
        defer { g_date_time_unref(now) }
        let stamp =
            g_date_time_format(now, "%Y%m%d-%H%M%S").map { text in
                defer { g_free(text) }
                return String(cString: text)
            } ?? "0"
        let base = "\(path).corrupt-\(stamp)"
        var candidate = base
        var number = 2
        while access(candidate, F_OK) == 0 {
            candidate = "\(base)-\(number)"
            number += 1
        }
        return candidate
    }

    /// Writes atomically (a temporary file renamed over the target). `durable` also waits for the
    /// disk before the rename (`g_file_set_contents`); without it the write survives the process
    /// being killed but not necessarily a power cut.
    private func write(_ text: String, to path: String, folder: String, durable: Bool = true) -> String? {
        if untouchable.contains(path) { return nil }
        guard g_mkdir_with_parents(folder, 0o700) == 0 else {
            return "cannot create the folder \(folder): \(String(cString: strerror(errno)))"
        }
        var error: UnsafeMutablePointer<GError>?
        let flags =
            durable
            ? GFileSetContentsFlags(
                rawValue: G_FILE_SET_CONTENTS_CONSISTENT.rawValue | G_FILE_SET_CONTENTS_DURABLE.rawValue
                    | G_FILE_SET_CONTENTS_ONLY_EXISTING.rawValue) : G_FILE_SET_CONTENTS_CONSISTENT
        let ok = text.withCString { g_file_set_contents_full(path, $0, -1, flags, 0o600, &error) }
        if ok != 0 { return nil }
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "cannot write \(path)"
    }
}

/// Says that saves fail once, not at every event: the first failure is reported, the next ones
/// only after a save has succeeded in between.
struct FailureReport {
    private(set) var failing = false

    /// The message to print for this save's result, if any.
    mutating func note(_ problem: String?, _ message: (String) -> String) -> String? {
        guard let problem else {
            failing = false
            return nil
        }
        if failing { return nil }
        failing = true
        return message(problem)
    }
}
