import GtkBindings
import QuireGtk
import CGtk
import QuireCore
import QuireHarness

/// `quire run --record FILE`: what the user did, as a `quire.session/1` script. Every event the
/// window sent the session is a step (frame ticks included, with their exact durations), and the
/// last step expects the whole state the session ended in, so `quire test FILE` replays the
/// recording headlessly and checks that it ends the same way. After an event that made
/// announcements (CONTRACT §6.4: what a screen reader was made to say), an `expectAnnounced`
/// step holds them, so the replay checks what was heard too.
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
    /// The errors shown before the next event, which the announcements are judged against.
    private var shown: ShownErrors

    /// `flowPath` is the flow file (made absolute); nil embeds the flow document (the built-in demo).
    init(path: String, flowPath: String?, session: Session, startingValues: JSONObject? = nil) {
        let flow = session.flow
        self.path = path
        shown = session.errorsInView
        self.startingValues = startingValues
        if let flowPath {
            self.flow = .string(flowPath.hasPrefix("/") ? flowPath : SessionRecorder.currentDirectory() + "/" + flowPath)
        } else {
            self.flow = flow.document
        }
        name = "recorded with quire run (\(flow.id))"
    }

    /// `event` was sent, emitted `emitted` and left `session`.
    func record(_ event: Event, emitted: [SessionNotification], in session: Session) {
        if viewportWidth == nil { viewportWidth = session.viewportWidth }
        steps.append(event.json)
        let said = session.announcements(after: event, emitted: emitted, before: shown)
        shown = session.errorsInView
        if !said.isEmpty { steps.append(["expectAnnounced": .array(said.map(\.json))]) }
    }

    /// Inserts an `expect` of what is on screen now (`Session.onScreen`): the "expect what is on
    /// screen" key (Ctrl+E). Returns its step number (1-based).
    @discardableResult
    func expectOnScreen(_ session: Session) -> Int {
        if viewportWidth == nil { viewportWidth = session.viewportWidth }
        steps.append(["expect": .object(session.onScreen)])
        return steps.count
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

    /// Writes the script as `quire test` writes its reports (`ReportFile`): a regular file (or
    /// none yet) through a temporary file renamed over it, whole or not at all; a named pipe or a
    /// device in place, never replaced by a regular file, and only when `last` (the app is
    /// exiting), since a reader there would get every write one after the other. Nil, or why the
    /// recording could not be written.
    func write(endingWith session: Session, last: Bool) -> String? {
        if !last && ReportFile.writesInPlace(path) { return nil }
        let text = JSONWriter.string(script(endingWith: session), style: .pretty) + "\n"
        switch ReportFile.create(path, what: "the recording") {
        case .failure(let error):
            return error.reason
        case .success(let file):
            file.write(text)
            return file.commit()?.reason
        }
    }

    private static func currentDirectory() -> String {
        guard let directory = g_get_current_dir() else { return "." }
        defer { g_free(directory) }
        return String(cString: directory)
    }
}
