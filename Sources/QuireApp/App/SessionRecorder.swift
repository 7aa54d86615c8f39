import GtkBindings
import QuireGtk
import CGtk
import QuireCore

/// `quire run --record FILE`: what the user did, as a `quire.session/1` script. Every event the
/// window sent the session is a step (frame ticks included, with their exact durations), and the
/// last step expects the whole state the session ended in, so `quire test FILE` replays the
/// recording headlessly and checks that it ends the same way.
///
/// The viewport is the pager's width when the first event was sent; a window resized during the
/// recording replays its drags against that first width.
@MainActor
final class SessionRecorder {
    let path: String
    private let flow: JSONValue
    private let name: String
    private var steps: [JSONValue] = []
    private var viewportWidth: Double?
    /// The answers the session started from (a walkthrough run again), written as `values`.
    private let startingValues: JSONObject?

    /// `flowPath` is the flow file (made absolute); nil embeds the flow document (the built-in demo).
    init(path: String, flowPath: String?, flow: Flow, startingValues: JSONObject? = nil) {
        self.path = path
        self.startingValues = startingValues
        if let flowPath {
            self.flow = .string(flowPath.hasPrefix("/") ? flowPath : SessionRecorder.currentDirectory() + "/" + flowPath)
        } else {
            self.flow = flow.document
        }
        name = "recorded with quire run (\(flow.id))"
    }

    func record(_ event: Event, in session: Session) {
        if viewportWidth == nil { viewportWidth = session.viewportWidth }
        steps.append(event.json)
    }

    /// The script so far, ending with an expectation of `session`'s whole state.
    func script(endingWith session: Session) -> JSONValue {
        var object = JSONObject()
        object.append("format", "quire.session/1")
        object.append("name", .string(name))
        object.append("flow", flow)
        object.append("viewport", ["width": .number(viewportWidth ?? session.viewportWidth)])
        object.append("locale", .string(session.locale))
        // Animations off on the desktop: the replay lands moves at once as the window did.
        if session.reducedMotion { object.append("reducedMotion", .bool(true)) }
        if let startingValues { object.append("values", .object(startingValues)) }
        object.append("steps", .array(steps + [["expect": session.state]]))
        return .object(object)
    }

    /// Writes the script atomically (a temporary file renamed over the target); nil or a message.
    func write(endingWith session: Session) -> String? {
        let text = JSONWriter.string(script(endingWith: session), style: .pretty) + "\n"
        var error: UnsafeMutablePointer<GError>?
        let ok = text.withCString { g_file_set_contents(path, $0, -1, &error) }
        if ok != 0 { return nil }
        defer { g_error_free(error) }
        return error.map { String(cString: $0.pointee.message) } ?? "cannot write \(path)"
    }

    private static func currentDirectory() -> String {
        guard let directory = g_get_current_dir() else { return "." }
        defer { g_free(directory) }
        return String(cString: directory)
    }
}
