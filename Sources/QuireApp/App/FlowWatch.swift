import CGtk
import GtkBindings
import QuireCore
import QuireGtk

/// `quire run --watch FLOW`: the flow file and its pages' layouts, watched with GFileMonitor. A
/// change is loaded once the files are quiet for `quiet` milliseconds (an editor's save is often
/// a write, a close and a rename, each heard); a load whose bytes are the ones loaded last is
/// dropped.
@MainActor
final class FlowWatch {
    /// How long the files must be quiet before a change is loaded.
    static let quiet = 15

    /// What a save gave: a flow that loads, or the problems at their `file:line:column`.
    enum Loaded {
        case flow(Flow, heardAtMicroseconds: Int)
        case problems([String], heardAtMicroseconds: Int)
    }

    let path: String
    private var monitors: [String: FileMonitor] = [:]
    private var pending: GLibTimeout?
    /// When the first change of the pending load was heard (monotonic µs).
    private var heardAt: Int = 0
    /// The flow's and layouts' bytes last loaded (or found broken), to drop a save that changed nothing.
    private var lastBytes: [[UInt8]] = []
    private let onLoad: @MainActor (Loaded) -> Void

    init(path: String, flow: Flow, onLoad: @escaping @MainActor (Loaded) -> Void) {
        self.path = path
        self.onLoad = onLoad
        lastBytes = Self.bytes(of: Self.files(path: path, flow: flow))
        watch(Self.files(path: path, flow: flow))
    }

    /// The flow file and each page's layout file.
    static func files(path: String, flow: Flow) -> [String] {
        let folder = Flow.folder(ofFile: path)
        let layouts = flow.pages.compactMap(\.layout).map { folder + "/" + $0 }
        var files = [path]
        for layout in layouts where !files.contains(layout) { files.append(layout) }
        return files
    }

    static func bytes(of files: [String]) -> [[UInt8]] {
        files.map { (try? Flow.readDocument($0)) ?? [] }
    }

    /// Watches exactly `files` (monitors of files no longer named are cancelled).
    private func watch(_ files: [String]) {
        for (file, monitor) in monitors where !files.contains(file) {
            monitor.cancel()
            monitors[file] = nil
        }
        for file in files where monitors[file] == nil {
            guard let monitor = FileMonitor(path: file) else { continue }
            monitor.onChanged { [weak self] event in
                guard event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED else { return }
                self?.changed()
            }
            monitors[file] = monitor
        }
    }

    private func changed() {
        if pending == nil { heardAt = g_get_monotonic_time() }
        pending = GLibTimeout(milliseconds: UInt32(Self.quiet)) { [weak self] in
            self?.pending = nil
            self?.load()
            return false
        }
    }

    /// Loads the flow as `quire run FLOW` does (`FlowWatch.load`), unless nothing changed.
    private func load() {
        let heard = heardAt
        switch Self.load(path) {
        case .success(let flow):
            let files = Self.files(path: path, flow: flow)
            let bytes = Self.bytes(of: files)
            watch(files)
            guard bytes != lastBytes else { return }
            lastBytes = bytes
            onLoad(.flow(flow, heardAtMicroseconds: heard))
        case .failure(let problems):
            // The files named last stay watched; the next save that loads is shown, whatever it holds.
            lastBytes = []
            onLoad(.problems(problems.lines, heardAtMicroseconds: heard))
        }
    }

    struct Problems: Error {
        var lines: [String]
    }

    /// The flow at `path` with every problem `quire run FLOW` would refuse it for: the document,
    /// the layout policy, and each layout as GTK loads it.
    static func load(_ path: String) -> Result<Flow, Problems> {
        do throws(DocumentError) {
            let bytes = try Flow.readDocument(path)
            let flow = try Flow.load(bytes: bytes, file: path, folder: Flow.folder(ofFile: path))
            let policy = flow.layoutDiagnostics(file: path, bytes: bytes)
            if !policy.isEmpty { throw DocumentError(policy) }
            if let layouts = LayoutCheck.problems(in: flow), !layouts.isEmpty {
                return .failure(Problems(lines: layouts.map { "\(path): \($0)" }))
            }
            return .success(flow)
        } catch {
            return .failure(Problems(lines: error.diagnostics.map(\.description)))
        }
    }
}
