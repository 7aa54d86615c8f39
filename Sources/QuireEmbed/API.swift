import CQuire
import QuireCore

#if canImport(Glibc)
    import Glibc
#endif

// Quire's C API. Every `@c` function here is declared in <quire.h>, which scripts/generate-header
// writes from the compiler's own C declarations of these functions and the gtk-doc comments
// below (copied as they are). Nothing reachable from C may trap: every pointer may be NULL, every
// text may be malformed, and each such case is an error or a documented no-op.

public typealias EngineHandle = UnsafeMutablePointer<QuireEngine>
public typealias ErrorOut = UnsafeMutablePointer<UnsafeMutablePointer<QuireEngineError>?>
public typealias CText = UnsafePointer<CChar>
public typealias OwnedText = UnsafeMutablePointer<CChar>

// MARK: - Creating and freeing

/// quire_engine_new_from_file:
/// @path: (type filename): the path of a `quire.flow/1` flow file
/// @error: (optional): where to put an error, or %NULL
///
/// Loads and validates a flow file and starts a session on it: on the first visible page, nothing
/// focused, locale `en`, a viewport 800 pixels wide (see quire_engine_set_locale() and
/// quire_engine_set_viewport_width()). A flow is rejected whole, with every problem listed; a
/// page's `layout` must name a file inside the flow's folder.
///
/// Returns: (transfer full) (nullable): a new engine, to free with quire_engine_free(), or %NULL
///   with @error set to %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT (@path is %NULL),
///   %QUIRE_ENGINE_ERROR_FILE, %QUIRE_ENGINE_ERROR_INVALID_JSON or %QUIRE_ENGINE_ERROR_INVALID_FLOW.
@c(quire_engine_new_from_file)
public func quireEngineNewFromFile(_ path: CText?, _ error: ErrorOut?) -> EngineHandle? {
    guard let path else {
        CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_new_from_file: path is NULL")
        return nil
    }
    let name = String(decoding: UnsafeRawBufferPointer(start: path, count: strlen(path)), as: UTF8.self)
    let bytes: [UInt8]
    switch Flow.readDocument(cPath: path, name: name) {
    case .success(let read): bytes = read
    case .failure(let problem):
        CBridge.fail(error, QUIRE_ENGINE_ERROR_FILE, diagnostics(problem))
        return nil
    }
    return makeEngine(flowBytes: bytes, file: name, folder: Flow.folder(ofFile: name), error)
}

/// quire_engine_new_from_json:
/// @json: a `quire.flow/1` flow as JSON text (UTF-8)
/// @error: (optional): where to put an error, or %NULL
///
/// Like quire_engine_new_from_file(), from text; problems are placed as `<flow>:line:column`.
/// Text has no folder: a page's `layout` path is checked as written only, and a view of the
/// session shows such pages with the built-in rows.
///
/// Returns: (transfer full) (nullable): a new engine, to free with quire_engine_free(), or %NULL
///   with @error set to %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT (@json is %NULL or not UTF-8),
///   %QUIRE_ENGINE_ERROR_INVALID_JSON or %QUIRE_ENGINE_ERROR_INVALID_FLOW.
@c(quire_engine_new_from_json)
public func quireEngineNewFromJSON(_ json: CText?, _ error: ErrorOut?) -> EngineHandle? {
    guard let text = CBridge.string(json) else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_new_from_json: json is \(json == nil ? "NULL" : "not UTF-8")")
        return nil
    }
    return makeEngine(flowBytes: Array(text.utf8), file: "<flow>", folder: nil, error)
}

func makeEngine(flowBytes bytes: [UInt8], file: String, folder: String?, _ error: ErrorOut?) -> EngineHandle? {
    do {
        let flow = try Flow.load(bytes: bytes, file: file, folder: folder)
        return Engine.handle(for: Session(flow: flow), fresh: true)
    } catch let problem {
        let code = isJSON(bytes, limits: .default) ? QUIRE_ENGINE_ERROR_INVALID_FLOW : QUIRE_ENGINE_ERROR_INVALID_JSON
        CBridge.fail(error, code, diagnostics(problem))
        return nil
    }
}

/// quire_engine_restore:
/// @snapshot_json: a `quire.snapshot/1` snapshot as JSON text, as quire_engine_snapshot() returns
/// @error: (optional): where to put an error, or %NULL
///
/// Builds an engine from a snapshot: the same flow, locale, viewport, values, page, running
/// animation or drag, open picker with its draft, and result. The new engine has no observer.
///
/// Returns: (transfer full) (nullable): a new engine, to free with quire_engine_free(), or %NULL
///   with @error set to %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT (%NULL or not UTF-8),
///   %QUIRE_ENGINE_ERROR_INVALID_JSON or %QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT.
@c(quire_engine_restore)
public func quireEngineRestore(_ snapshot_json: CText?, _ error: ErrorOut?) -> EngineHandle? {
    guard let text = CBridge.string(snapshot_json) else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT,
            "quire_engine_restore: snapshot_json is \(snapshot_json == nil ? "NULL" : "not UTF-8")")
        return nil
    }
    let bytes = Array(text.utf8)
    do {
        return Engine.handle(for: try Session(restoring: bytes, file: "<snapshot>"), fresh: false)
    } catch let problem {
        let code = isJSON(bytes, limits: .snapshot) ? QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT : QUIRE_ENGINE_ERROR_INVALID_JSON
        CBridge.fail(error, code, diagnostics(problem))
        return nil
    }
}

/// quire_engine_free:
/// @engine: (nullable) (transfer full): an engine, or %NULL (nothing happens)
///
/// Frees an engine. Its observer's destroy notifier, if any, is called. Called from inside an
/// observer, the engine stays valid until the quire_engine_send() that delivered the notification
/// returns, and no further notification is delivered; do not use @engine afterwards.
@c(quire_engine_free)
public func quireEngineFree(_ engine: EngineHandle?) {
    Engine.free(engine)
}

// Not part of the C API (no `@c`: not in <quire.h>; libquire's version script keeps the name
// local): QuireSession's finalize, which runs on whichever thread drops the session's last
// reference. Nothing else can be inside the engine then (every caller holds a reference), and the
// engine holds no thread's state, so it is released on the thread that asks, not refused as
// quire_engine_free() from another thread is (which leaked the engine).
@_cdecl("quire_private_engine_release")
package func quirePrivateEngineRelease(_ engine: EngineHandle?) {
    Engine.free(engine, fromAnyThread: true)
}

// MARK: - Events and observers

/// quire_engine_send:
/// @engine: an engine
/// @event_json: one event as JSON text, e.g. `{"tap":"button:next"}`, `{"type":"Aki"}`,
///   `{"tick":16.7}`
/// @error: (optional): where to put an error, or %NULL
///
/// Sends one event. The observer, if any, is called for each notification it emits, in order,
/// before this returns. An event that does not apply (typing with nothing focused, any event after
/// completion) is not an error: it changes nothing and emits an `ignored` notification.
///
/// Passing through a picker chooses nothing: when a choice or duration field that has no value
/// resigns (`Tab`, a tap elsewhere, a page move) and its draft was never changed while its picker
/// was open (no `spin`, `select`, or `Up`/`Down`/`Page_Up`/`Page_Down` it took), the draft is
/// dropped unless the resign is `Return` or `accessory:done`: the field stays `null` and the
/// `inputDismissed` notification says `"committed": false`.
///
/// Returns: %TRUE when the event was sent; %FALSE with @error set to
///   %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT (@engine or @event_json is %NULL, or the text is not
///   UTF-8), %QUIRE_ENGINE_ERROR_INVALID_JSON or %QUIRE_ENGINE_ERROR_INVALID_EVENT; the session is
///   then unchanged.
@c(quire_engine_send)
@discardableResult
public func quireEngineSend(_ engine: EngineHandle?, _ event_json: CText?, _ error: ErrorOut?) -> Bool {
    guard let handle = engine, let box = Engine.forCall(handle, "quire_engine_send", error) else {
        CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_send: engine is NULL")
        return false
    }
    guard let text = CBridge.string(event_json) else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_send: event_json is \(event_json == nil ? "NULL" : "not UTF-8")")
        return false
    }
    switch parseEvent(text) {
    case .success(let event):
        box.send(event, handle: handle)
        return true
    case .failure(let failure):
        CBridge.fail(error, failure.code, failure.lines)
        return false
    }
}

/// An error on its way to C.
struct EmbedFailure: Error {
    var code: QuireEngineErrorCode
    var lines: [String]
}

/// Reads one event from JSON text (CONTRACT §3).
func parseEvent(_ text: String) -> Result<Event, EmbedFailure> {
    let value: JSONValue
    let reader: DocumentReader
    do {
        (value, reader) = try DocumentReader.parse(file: "<event>", bytes: Array(text.utf8))
    } catch {
        return .failure(EmbedFailure(code: QUIRE_ENGINE_ERROR_INVALID_JSON, lines: diagnostics(error)))
    }
    if reader.hasProblems {
        return .failure(EmbedFailure(code: QUIRE_ENGINE_ERROR_INVALID_EVENT, lines: reader.diagnostics().map(\.description)))
    }
    switch Event.parse(value) {
    case .success(let event): return .success(event)
    case .failure(let problem):
        return .failure(
            EmbedFailure(
                code: QUIRE_ENGINE_ERROR_INVALID_EVENT, lines: ["<event>: \(JSONPath(components: problem.path)): \(problem.message)"]))
    }
}

/// quire_engine_set_observer:
/// @engine: (nullable): an engine
/// @observer: (nullable) (scope notified) (closure user_data) (destroy destroy): called for each
///   notification, or %NULL to remove the observer
/// @user_data: (nullable): passed to @observer
/// @destroy: (nullable): called on @user_data when it is no longer needed, or %NULL
///
/// Sets the one observer of an engine, replacing (and calling the destroy notifier of) the
/// previous one. @destroy runs once: when this observer is replaced or removed, when the engine
/// is freed, or at once when @observer or @engine is %NULL — so user data handed over is never
/// leaked. Replaced inside a callback, the old observer receives no further notification and
/// its notifier runs when that callback returns.
///
/// Returns: %TRUE when @observer was set; %FALSE when it was %NULL (the observer was removed)
///   or @engine was %NULL.
@c(quire_engine_set_observer)
@discardableResult
public func quireEngineSetObserver(
    _ engine: EngineHandle?, _ observer: QuireEngineObserver?, _ user_data: UnsafeMutableRawPointer?, _ destroy: QuireDestroyNotify?
) -> Bool {
    guard let box = Engine.forCall(engine, "quire_engine_set_observer") else {
        destroy?(user_data)
        return false
    }
    guard let observer else {
        box.observer = nil
        destroy?(user_data)
        return false
    }
    box.observer = Observer(callback: observer, userData: user_data, destroy: destroy)
    return true
}

/// quire_engine_set_announcer:
/// @engine: (nullable): an engine
/// @announcer: (nullable) (scope notified) (closure user_data) (destroy destroy): called for each
///   announcement, or %NULL to remove the announcer
/// @user_data: (nullable): passed to @announcer
/// @destroy: (nullable): called on @user_data when it is no longer needed, or %NULL
///
/// Sets the one announcer of an engine: what a host hands to its screen reader after each event
/// (`gtk_accessible_announce()`, or its own means), the same announcements every Quire front
/// makes. Replacing, removing and @destroy behave as with quire_engine_set_observer(). Without
/// an announcer, sending an event computes none.
///
/// Returns: %TRUE when @announcer was set; %FALSE when it was %NULL (the announcer was removed)
///   or @engine was %NULL.
@c(quire_engine_set_announcer)
@discardableResult
public func quireEngineSetAnnouncer(
    _ engine: EngineHandle?, _ announcer: QuireEngineAnnouncer?, _ user_data: UnsafeMutableRawPointer?, _ destroy: QuireDestroyNotify?
) -> Bool {
    guard let box = Engine.forCall(engine, "quire_engine_set_announcer") else {
        destroy?(user_data)
        return false
    }
    guard let announcer else {
        box.announcer = nil
        destroy?(user_data)
        return false
    }
    box.announcer = Announcer(callback: announcer, userData: user_data, destroy: destroy)
    return true
}

// MARK: - Reading the session

/// quire_engine_get_state:
/// @engine: (nullable): an engine
///
/// The session's state as JSON: page, position, transition, indicator, focus, input, values,
/// errors, buttons and completed — what session scripts' `expect` matches (docs/embedding.md).
///
/// Returns: (transfer full) (nullable): JSON text, to free with quire_free(); %NULL when @engine
///   is %NULL.
@c(quire_engine_get_state)
public func quireEngineGetState(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_state") else { return nil }
    return CBridge.copy(JSONWriter.string(box.session.state))
}

/// quire_engine_get_presentation:
/// @engine: (nullable): an engine
///
/// What a front renders, localized for the engine's locale, as JSON:
/// `{"chrome": {...}, "pages": [...]}` — the title, indicator, buttons, progress, the open input
/// view, and the current page with its neighbours (titles, labels, display strings, errors).
///
/// Returns: (transfer full) (nullable): JSON text, to free with quire_free(); %NULL when @engine
///   is %NULL.
@c(quire_engine_get_presentation)
public func quireEngineGetPresentation(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_presentation") else { return nil }
    return CBridge.copy(JSONWriter.string(box.session.presentation))
}

/// quire_engine_get_page_presentation:
/// @engine: (nullable): an engine
/// @index: a visible page's index, from 0
///
/// One page's presentation, as in the `pages` of quire_engine_get_presentation(), for any
/// visible page.
///
/// Returns: (transfer full) (nullable): JSON text, to free with quire_free(); %NULL when @engine
///   is %NULL or no visible page has that index.
@c(quire_engine_get_page_presentation)
public func quireEngineGetPagePresentation(_ engine: EngineHandle?, _ index: Int32) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_page_presentation"), let page = box.session.presentPage(at: Int(index)) else {
        return nil
    }
    return CBridge.copy(JSONWriter.string(page.json))
}

/// quire_engine_snapshot:
/// @engine: (nullable): an engine
///
/// The whole session as a `quire.snapshot/1` JSON document, with its flow embedded, for
/// quire_engine_restore(): save it to disk and a crash loses nothing.
///
/// Returns: (transfer full) (nullable): JSON text, to free with quire_free(); %NULL when @engine
///   is %NULL.
@c(quire_engine_snapshot)
public func quireEngineSnapshot(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_snapshot") else { return nil }
    return CBridge.copy(String(decoding: box.session.snapshotData(includingFlow: true), as: UTF8.self))
}

/// quire_engine_get_page_index:
/// @engine: (nullable): an engine
///
/// The current page's index among the visible pages (it changes when a transition completes).
///
/// Returns: the index, from 0; -1 when @engine is %NULL.
@c(quire_engine_get_page_index)
public func quireEngineGetPageIndex(_ engine: EngineHandle?) -> Int32 {
    guard let box = Engine.forCall(engine, "quire_engine_get_page_index") else { return -1 }
    return Int32(clamping: box.session.currentIndex)
}

/// quire_engine_get_page_count:
/// @engine: (nullable): an engine
///
/// How many pages are visible now (pages with a `visibleIf` come and go with the answers).
///
/// Returns: the count; -1 when @engine is %NULL.
@c(quire_engine_get_page_count)
public func quireEngineGetPageCount(_ engine: EngineHandle?) -> Int32 {
    guard let box = Engine.forCall(engine, "quire_engine_get_page_count") else { return -1 }
    return Int32(clamping: box.session.pageCount)
}

/// quire_engine_get_page_id:
/// @engine: (nullable): an engine
///
/// The current page's id, from the flow.
///
/// Returns: (transfer full) (nullable): the id, to free with quire_free(); %NULL when @engine is
///   %NULL.
@c(quire_engine_get_page_id)
public func quireEngineGetPageID(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_page_id"), let id = box.session.stateValue("page")?["id"]?.stringValue else {
        return nil
    }
    return CBridge.copy(id)
}

/// quire_engine_get_focus:
/// @engine: (nullable): an engine
///
/// The field that is first responder.
///
/// Returns: (transfer full) (nullable): its id, to free with quire_free(); %NULL when nothing is
///   focused or @engine is %NULL.
@c(quire_engine_get_focus)
public func quireEngineGetFocus(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_focus"), let id = box.session.focusedField else { return nil }
    return CBridge.copy(id)
}

/// quire_engine_is_completed:
/// @engine: (nullable): an engine
///
/// Whether the session has completed (finished or cancelled). After completion every event is
/// ignored.
///
/// Returns: %TRUE when completed; %FALSE otherwise or when @engine is %NULL.
@c(quire_engine_is_completed)
public func quireEngineIsCompleted(_ engine: EngineHandle?) -> Bool {
    Engine.forCall(engine, "quire_engine_is_completed")?.session.completed != nil
}

/// quire_engine_get_outcome:
/// @engine: (nullable): an engine
///
/// How the session completed.
///
/// Returns: (transfer full) (nullable): `"finished"` or `"cancelled"`, to free with quire_free();
///   %NULL before completion or when @engine is %NULL.
@c(quire_engine_get_outcome)
public func quireEngineGetOutcome(_ engine: EngineHandle?) -> OwnedText? {
    guard let outcome = Engine.forCall(engine, "quire_engine_get_outcome")?.session.completed?.outcome else { return nil }
    return CBridge.copy(outcome.rawValue)
}

/// quire_engine_get_result:
/// @engine: (nullable): an engine
///
/// The session's result, delivered once: `{"outcome": "finished", "values": {...}}` (values of
/// hidden fields are left out of a finished result; a cancelled one keeps them all).
///
/// Returns: (transfer full) (nullable): JSON text, to free with quire_free(); %NULL before
///   completion or when @engine is %NULL.
@c(quire_engine_get_result)
public func quireEngineGetResult(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_result"), box.session.completed != nil,
        let result = box.session.stateValue("completed")
    else {
        return nil
    }
    return CBridge.copy(JSONWriter.string(result))
}

// MARK: - Settings

/// quire_engine_set_locale:
/// @engine: (nullable): an engine
/// @locale: a BCP 47 language tag, e.g. `en` or `ja-JP`
/// @error: (optional): where to put an error, or %NULL
///
/// Sets the language of the presentation's strings (display strings fall back from the tag to its
/// language, to English, to the flow's first). The session's state does not depend on it.
///
/// Returns: %TRUE when set; %FALSE with @error set to %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT when
///   @engine or @locale is %NULL, or @locale is empty, longer than 64 bytes or not UTF-8.
@c(quire_engine_set_locale)
@discardableResult
public func quireEngineSetLocale(_ engine: EngineHandle?, _ locale: CText?, _ error: ErrorOut?) -> Bool {
    guard let box = Engine.forCall(engine, "quire_engine_set_locale", error) else {
        CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_set_locale: engine is NULL")
        return false
    }
    guard let text = CBridge.string(locale), !text.isEmpty, text.utf8.count <= 64 else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_set_locale: locale must be a language tag such as 'en' or 'ja-JP'")
        return false
    }
    box.session.locale = text
    return true
}

/// quire_engine_get_locale:
/// @engine: (nullable): an engine
///
/// The language of the presentation's strings.
///
/// Returns: (transfer full) (nullable): the tag, to free with quire_free(); %NULL when @engine is
///   %NULL.
@c(quire_engine_get_locale)
public func quireEngineGetLocale(_ engine: EngineHandle?) -> OwnedText? {
    guard let box = Engine.forCall(engine, "quire_engine_get_locale") else { return nil }
    return CBridge.copy(box.session.locale)
}

/// quire_engine_set_viewport_width:
/// @engine: (nullable): an engine
/// @width: the pager's width in pixels
/// @error: (optional): where to put an error, or %NULL
///
/// Sets the width drags are measured against (800 until set). A drag in progress keeps its
/// position.
///
/// Returns: %TRUE when set; %FALSE with @error set to %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT when
///   @engine is %NULL or @width is not a number from 1 to 100000 (what a snapshot restores).
@c(quire_engine_set_viewport_width)
@discardableResult
public func quireEngineSetViewportWidth(_ engine: EngineHandle?, _ width: Double, _ error: ErrorOut?) -> Bool {
    guard let box = Engine.forCall(engine, "quire_engine_set_viewport_width", error) else {
        CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "quire_engine_set_viewport_width: engine is NULL")
        return false
    }
    guard Session.viewportWidths.contains(width) else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT,
            "quire_engine_set_viewport_width: width must be from 1 to 100000 pixels, not \(JSONWriter.number(width))")
        return false
    }
    box.session.setViewportWidth(width)
    return true
}

/// quire_engine_get_viewport_width:
/// @engine: (nullable): an engine
///
/// The width drags are measured against.
///
/// Returns: the width in pixels; 0 when @engine is %NULL.
@c(quire_engine_get_viewport_width)
public func quireEngineGetViewportWidth(_ engine: EngineHandle?) -> Double {
    Engine.forCall(engine, "quire_engine_get_viewport_width")?.session.viewportWidth ?? 0
}

/// quire_engine_set_starting_values:
/// @engine: (nullable): an engine
/// @values_json: the answers to start from: a JSON object of field ids and values, as `values`
///   in the state, e.g. `{"userName": "Aki", "reminders": false}`
/// @error: (optional): where to put an error, or %NULL
///
/// Starts the session from these answers instead of the flow's defaults: a walkthrough run again
/// from the answers it gave last time, or a session script's top-level `values`. A field left out
/// keeps its default; `null` clears one. The session is as a new one (first visible page, nothing
/// touched or focused, errors hidden until a field is touched) with the engine's locale, viewport
/// width and reduced motion; visibility and requirements follow from the answers.
///
/// Only a session as it started from its flow takes starting values: call this after
/// quire_engine_new_from_file() or quire_engine_new_from_json(), before the first event and
/// before a view shows the engine. The values are checked as a script's `values` are: an unknown
/// field or a value the field could not hold (another kind, an option it does not have, text
/// over its `maxLength`, a duration its wheels cannot show) is an error, and nothing is set.
///
/// Returns: %TRUE when set; %FALSE with @error set to %QUIRE_ENGINE_ERROR_INVALID_ARGUMENT
///   (@engine or @values_json is %NULL, the text is not UTF-8, the engine was restored or has
///   been sent an event, or a view shows it), %QUIRE_ENGINE_ERROR_INVALID_JSON or
///   %QUIRE_ENGINE_ERROR_INVALID_VALUES (every problem, one a line,
///   `<values>:line:column: $.field: message`); the session is then unchanged.
@c(quire_engine_set_starting_values)
@discardableResult
public func quireEngineSetStartingValues(_ engine: EngineHandle?, _ values_json: CText?, _ error: ErrorOut?) -> Bool {
    let function = "quire_engine_set_starting_values"
    guard let box = Engine.forCall(engine, "quire_engine_set_starting_values", error) else {
        CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "\(function): engine is NULL")
        return false
    }
    guard let text = CBridge.string(values_json) else {
        CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "\(function): values_json is \(values_json == nil ? "NULL" : "not UTF-8")")
        return false
    }
    guard box.fresh else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT,
            "\(function): the session has already started (it was restored from a snapshot or sent an event); set its starting values before the first event"
        )
        return false
    }
    guard box.listenerCount == 0 else {
        CBridge.fail(
            error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "\(function): a view shows the engine; set its starting values before showing it")
        return false
    }
    switch parseStartingValues(text, flow: box.session.flow) {
    case .success(let values):
        let reducedMotion = box.session.reducedMotion
        box.session = Session(
            flow: box.session.flow, locale: box.session.locale, viewportWidth: box.session.viewportWidth, startingWith: values)
        box.session.reducedMotion = reducedMotion
        return true
    case .failure(let failure):
        CBridge.fail(error, failure.code, failure.lines)
        return false
    }
}

/// Reads starting values from JSON text, as the harness reads a script's `values`
/// (`ScriptLoader.startingValues`): an object whose every member names a field of `flow` and holds
/// a value that field could hold (`Session.startingValue`). Every problem is listed.
func parseStartingValues(_ text: String, flow: Flow) -> Result<JSONObject, EmbedFailure> {
    let value: JSONValue
    var reader: DocumentReader
    do {
        (value, reader) = try DocumentReader.parse(file: "<values>", bytes: Array(text.utf8))
    } catch {
        return .failure(EmbedFailure(code: QUIRE_ENGINE_ERROR_INVALID_JSON, lines: diagnostics(error)))
    }
    if let object = reader.object(value, at: .root, what: "values") {
        Session.checkStartingValues(object, of: flow, at: .root, reader: &reader)
        if !reader.hasProblems { return .success(object) }
    }
    return .failure(EmbedFailure(code: QUIRE_ENGINE_ERROR_INVALID_VALUES, lines: reader.diagnostics().map(\.description)))
}

/// quire_engine_set_reduced_motion:
/// @engine: (nullable): an engine
/// @reduced_motion: %TRUE to run with reduced motion
///
/// Runs the session with reduced motion, as a front whose desktop has animations off: a page
/// move lands at once (no transition for ticks to drive) and auto-advance pauses; %FALSE, the
/// default, brings both back. It is a front's setting, not the session's state: a snapshot does
/// not hold it (set it again on a restored engine), and a GTK view showing the engine sets it
/// from the desktop's `gtk-enable-animations` (turn that off in a GTK host instead).
@c(quire_engine_set_reduced_motion)
public func quireEngineSetReducedMotion(_ engine: EngineHandle?, _ reduced_motion: Bool) {
    Engine.forCall(engine, "quire_engine_set_reduced_motion")?.session.reducedMotion = reduced_motion
}

/// quire_engine_get_reduced_motion:
/// @engine: (nullable): an engine
///
/// Whether the session runs with reduced motion (quire_engine_set_reduced_motion()).
///
/// Returns: %TRUE with reduced motion; %FALSE otherwise or when @engine is %NULL.
@c(quire_engine_get_reduced_motion)
public func quireEngineGetReducedMotion(_ engine: EngineHandle?) -> Bool {
    Engine.forCall(engine, "quire_engine_get_reduced_motion")?.session.reducedMotion ?? false
}

// MARK: - Memory and versions

/// quire_free:
/// @memory: (nullable): text returned by Quire, or %NULL (nothing happens)
///
/// Frees text that a `quire_` function returned with `(transfer full)`. Such text comes from
/// malloc(), so free() and g_free() free it too.
@c(quire_free)
public func quireFree(_ memory: UnsafeMutableRawPointer?) {
    free(memory)
}

/// quire_engine_error_free:
/// @error: (nullable) (transfer full): an error, or %NULL (nothing happens)
///
/// Frees an error and its message.
@c(quire_engine_error_free)
public func quireEngineErrorFree(_ error: UnsafeMutablePointer<QuireEngineError>?) {
    guard let error else { return }
    free(error.pointee.message)
    free(error)
}

/// quire_get_major_version:
///
/// The library's major version, which may differ from the headers' #QUIRE_MAJOR_VERSION.
///
/// Returns: the major version.
@c(quire_get_major_version)
public func quireGetMajorVersion() -> UInt32 { QuireVersion.major }

/// quire_get_minor_version:
///
/// The library's minor version.
///
/// Returns: the minor version.
@c(quire_get_minor_version)
public func quireGetMinorVersion() -> UInt32 { QuireVersion.minor }

/// quire_get_micro_version:
///
/// The library's micro version.
///
/// Returns: the micro version.
@c(quire_get_micro_version)
public func quireGetMicroVersion() -> UInt32 { QuireVersion.micro }

/// The library's version; the headers' QUIRE_*_VERSION macros and meson-helper's project version
/// must say the same (a test checks them).
public enum QuireVersion {
    public static let major: UInt32 = 0
    public static let minor: UInt32 = 1
    public static let micro: UInt32 = 0
}

// MARK: - Helpers

/// Whether `bytes` parse as JSON (within `limits`): tells a JSON error from a document error.
func isJSON(_ bytes: [UInt8], limits: JSONLimits) -> Bool {
    (try? JSONParser.parse(bytes, limits: limits)) != nil
}

func diagnostics(_ error: DocumentError) -> [String] {
    error.diagnostics.isEmpty ? ["the document was rejected"] : error.diagnostics.map(\.description)
}
