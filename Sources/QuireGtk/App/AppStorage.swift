import CGtk
import Glibc
import QuireCore

/// Where the app keeps what outlives a window, per flow (by its id):
///
/// - `$XDG_STATE_HOME/quire/FLOW.session.json` — the walkthrough in progress: a session snapshot
///   (`quire.snapshot/1`), rewritten atomically after every user event and every finished page
///   move, so closing the window or killing the process loses nothing; removed when the walkthrough
///   completes.
/// - `$XDG_CONFIG_HOME/quire/FLOW.settings.json` — the settings the finished walkthrough chose
///   (`{"format": "quire.settings/1", "flow": ID, "outcome": …, "values": {…}}`); while it says
///   `finished`, the app opens its main window instead of the walkthrough.
@MainActor
struct AppStorage {
    let flowID: String
    let stateFolder: String
    let configFolder: String

    init(flowID: String) {
        self.flowID = flowID
        stateFolder = String(cString: g_get_user_state_dir()) + "/quire"
        configFolder = String(cString: g_get_user_config_dir()) + "/quire"
    }

    var sessionPath: String { stateFolder + "/" + flowID + ".session.json" }
    var settingsPath: String { configFolder + "/" + flowID + ".settings.json" }

    // MARK: The walkthrough in progress

    /// The saved walkthrough of `flow`, if there is one that still fits the flow.
    func savedSession(of flow: Flow) -> Session? {
        guard let bytes = read(sessionPath) else { return nil }
        do {
            return try Session(restoring: bytes, flow: flow, file: sessionPath)
        } catch {
            printError("quire run: ignoring the saved walkthrough \(sessionPath): \(error.diagnostics.first?.description ?? "unreadable")")
            return nil
        }
    }

    /// Saves the walkthrough; nil or what went wrong.
    @discardableResult
    func save(_ session: Session) -> String? {
        write(JSONWriter.string(session.snapshot(includingFlow: false)), to: sessionPath, folder: stateFolder)
    }

    func forgetSession() { _ = unlink(sessionPath) }

    // MARK: Settings

    /// The outcome and values of the walkthrough finished before, if any.
    func settings() -> (outcome: String, values: JSONValue)? {
        guard let bytes = read(settingsPath), let value = try? DocumentReader.parse(file: settingsPath, bytes: bytes).0,
            case .object(let object) = value, object["format"] == .string("quire.settings/1"),
            case .string(let outcome)? = object["outcome"], let values = object["values"]
        else { return nil }
        return (outcome, values)
    }

    @discardableResult
    func saveSettings(_ completion: Completion) -> String? {
        var object = JSONObject()
        object.append("format", "quire.settings/1")
        object.append("flow", .string(flowID))
        object.append("outcome", .string(completion.outcome.rawValue))
        object.append("values", .object(completion.values))
        return write(JSONWriter.string(.object(object), style: .pretty) + "\n", to: settingsPath, folder: configFolder)
    }

    // MARK: Files

    private func read(_ path: String) -> [UInt8]? {
        var contents: UnsafeMutablePointer<CChar>?
        var length: Int = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
        defer { g_free(contents) }
        return contents.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// Writes atomically (a temporary file renamed over the target, `g_file_set_contents`).
    private func write(_ text: String, to path: String, folder: String) -> String? {
        guard g_mkdir_with_parents(folder, 0o700) == 0 else { return "cannot create \(folder)" }
        var error: UnsafeMutablePointer<GError>?
        let ok = text.withCString { g_file_set_contents(path, $0, -1, &error) }
        if ok != 0 { return nil }
        defer { g_error_free(error) }
        return error.map { String(cString: $0.pointee.message) } ?? "cannot write \(path)"
    }
}
