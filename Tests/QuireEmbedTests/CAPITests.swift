import CQuire
import Foundation
import QuireCore
import Testing

@testable import QuireEmbed

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let demoFlowPath = repositoryRoot.appendingPathComponent("data/flows/focus-onboarding.json").path

/// What the C API returned as owned text, freed here.
func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
    guard let text else { return nil }
    defer { quireFree(text) }
    return String(cString: text)
}

func json(_ text: String?) -> JSONValue? {
    text.flatMap { try? JSONParser.parse($0).value }
}

/// Calls `body` with a fresh error out-pointer; returns its code and message, and frees it.
func withError<R>(_ body: (ErrorOut) -> R) -> (result: R, code: QuireEngineErrorCode?, message: String?) {
    var error: UnsafeMutablePointer<QuireEngineError>? = nil
    let result = body(&error)
    defer { quireEngineErrorFree(error) }
    guard let error else { return (result, nil, nil) }
    return (
        result, QuireEngineErrorCode(rawValue: UInt32(bitPattern: error.pointee.code)), error.pointee.message.map { String(cString: $0) }
    )
}

func newDemoEngine() throws -> EngineHandle {
    try #require(demoFlowPath.withCString { quireEngineNewFromFile($0, nil) })
}

func send(_ engine: EngineHandle?, _ event: String) -> (sent: Bool, code: QuireEngineErrorCode?, message: String?) {
    let outcome = withError { error in event.withCString { quireEngineSend(engine, $0, error) } }
    return (outcome.result, outcome.code, outcome.message)
}

/// Collects what an observer sees, and counts destroy notifications.
final class Recorder {
    var notifications: [String] = []
    var destroyed = 0
    /// Run inside the callback, after recording (to send, free or replace from an observer).
    var onNotification: ((EngineHandle) -> Void)? = nil
}

let recordingObserver: QuireEngineObserver = { engine, text, userData in
    let recorder = Unmanaged<Recorder>.fromOpaque(userData!).takeUnretainedValue()
    recorder.notifications.append(String(cString: text!))
    if let engine { recorder.onNotification?(engine) }
}

/// Releases the recorder's retain and counts the call.
let recordingDestroy: QuireDestroyNotify = { userData in
    let recorder = Unmanaged<Recorder>.fromOpaque(userData!).takeRetainedValue()
    recorder.destroyed += 1
}

func observe(_ engine: EngineHandle?, _ recorder: Recorder) -> Bool {
    quireEngineSetObserver(engine, recordingObserver, Unmanaged.passRetained(recorder).toOpaque(), recordingDestroy)
}

@Suite struct CreatingEngines {
    @Test func aFlowFileStartsOnTheFirstPageWithNothingFocused() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let state = try #require(json(take(quireEngineGetState(engine))))
        #expect(state["page"] == ["index": 0, "id": "intro", "count": 5])
        #expect(state["focus"] == .null)
        #expect(quireEngineGetPageIndex(engine) == 0)
        #expect(quireEngineGetPageCount(engine) == 5)
        #expect(take(quireEngineGetPageID(engine)) == "intro")
        #expect(take(quireEngineGetFocus(engine)) == nil)
        #expect(take(quireEngineGetLocale(engine)) == "en")
        #expect(!quireEngineIsCompleted(engine))
    }

    @Test func aFlowAsJSONTextWorksLikeTheFile() throws {
        let text = try String(contentsOfFile: demoFlowPath, encoding: .utf8)
        let fromText = try #require(text.withCString { quireEngineNewFromJSON($0, nil) })
        let fromFile = try newDemoEngine()
        defer {
            quireEngineFree(fromText)
            quireEngineFree(fromFile)
        }
        #expect(take(quireEngineGetState(fromText)) == take(quireEngineGetState(fromFile)))
    }

    @Test func aNullPathIsAnInvalidArgument() {
        let outcome = withError { quireEngineNewFromFile(nil, $0) }
        #expect(outcome.result == nil)
        #expect(outcome.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        #expect(outcome.message == "quire_engine_new_from_file: path is NULL")
    }

    @Test func aMissingFileOrAFolderIsAFileError() {
        let missing = withError { error in "/nonexistent/flow.json".withCString { quireEngineNewFromFile($0, error) } }
        #expect(missing.result == nil)
        #expect(missing.code == QUIRE_ENGINE_ERROR_FILE)
        #expect(missing.message == "/nonexistent/flow.json: cannot read the file: it does not exist")
        let folder = withError { error in repositoryRoot.path.withCString { quireEngineNewFromFile($0, error) } }
        #expect(folder.code == QUIRE_ENGINE_ERROR_FILE)
        #expect(folder.message?.hasSuffix("cannot read the file: it is a directory") == true)
    }

    @Test func textThatIsNotJSONIsAJSONErrorAndABadFlowAFlowErrorWithEveryProblem() {
        let notJSON = withError { error in "{\"format\": ".withCString { quireEngineNewFromJSON($0, error) } }
        #expect(notJSON.result == nil)
        #expect(notJSON.code == QUIRE_ENGINE_ERROR_INVALID_JSON)
        #expect(notJSON.message?.hasPrefix("<flow>:1:") == true)

        let badFlow = withError { error in
            #"{"format": "quire.flow/1", "id": "x y", "pages": []}"#.withCString { quireEngineNewFromJSON($0, error) }
        }
        #expect(badFlow.result == nil)
        #expect(badFlow.code == QUIRE_ENGINE_ERROR_INVALID_FLOW)
        let lines = badFlow.message?.split(separator: "\n") ?? []
        #expect(lines.count >= 2, "every problem, one a line: \(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("<flow>:1:") })
    }

    @Test func textThatIsNotUTF8IsAnInvalidArgument() {
        let bytes: [CChar] = [0x7B, CChar(bitPattern: 0xFF), 0x7D, 0]
        let outcome = withError { error in bytes.withUnsafeBufferPointer { quireEngineNewFromJSON($0.baseAddress, error) } }
        #expect(outcome.result == nil)
        #expect(outcome.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        #expect(outcome.message == "quire_engine_new_from_json: json is not UTF-8")
    }

    @Test func aDocumentNestedTooDeepIsAJSONErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let outcome = withError { error in deep.withCString { quireEngineNewFromJSON($0, error) } }
        #expect(outcome.result == nil)
        #expect(outcome.code == QUIRE_ENGINE_ERROR_INVALID_JSON)
    }

    @Test func anErrorAlreadySetIsLeftAloneAndANullErrorPointerIsFine() {
        var error: UnsafeMutablePointer<QuireEngineError>? = nil
        #expect(quireEngineNewFromFile(nil, &error) == nil)
        let first = error
        #expect("{".withCString { quireEngineNewFromJSON($0, &error) } == nil)
        #expect(error == first)
        #expect(error.map { String(cString: $0.pointee.message) } == "quire_engine_new_from_file: path is NULL")
        quireEngineErrorFree(error)
        #expect(quireEngineNewFromFile(nil, nil) == nil)
        quireEngineErrorFree(nil)
        quireFree(nil)
        quireEngineFree(nil)
    }
}

@Suite struct SendingEvents {
    @Test func anEventChangesTheStateAsInTheCore() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        var session = Session(flow: try Flow.load(contentsOf: demoFlowPath))
        for event in [#"{"tap": "button:next"}"#, #"{"settle": true}"#, #"{"tap": "userName"}"#, #"{"type": "Aki"}"#] {
            #expect(send(engine, event).sent)
            session.send(try Event.parse(try JSONParser.parse(event).value).get())
        }
        #expect(json(take(quireEngineGetState(engine))) == session.state)
        #expect(take(quireEngineGetFocus(engine)) == "userName")
        #expect(take(quireEngineGetPageID(engine)) == "profile")
    }

    @Test func badEventsAreErrorsAndChangeNothing() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let before = take(quireEngineGetState(engine))

        let nullEngine = send(nil, #"{"tap": "button:next"}"#)
        #expect(!nullEngine.sent && nullEngine.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        #expect(nullEngine.message == "quire_engine_send: engine is NULL")

        let nullEvent = withError { quireEngineSend(engine, nil, $0) }
        #expect(!nullEvent.result && nullEvent.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        #expect(nullEvent.message == "quire_engine_send: event_json is NULL")

        let notJSON = send(engine, #"{"tap": "#)
        #expect(!notJSON.sent && notJSON.code == QUIRE_ENGINE_ERROR_INVALID_JSON)

        let unknown = send(engine, #"{"tapp": "button:next"}"#)
        #expect(!unknown.sent && unknown.code == QUIRE_ENGINE_ERROR_INVALID_EVENT)
        #expect(unknown.message?.contains("did you mean 'tap'?") == true)

        let twoKeys = send(engine, #"{"tap": "button:next", "key": "Tab"}"#)
        #expect(!twoKeys.sent && twoKeys.code == QUIRE_ENGINE_ERROR_INVALID_EVENT)

        let duplicate = send(engine, #"{"tap": "button:next", "tap": "button:back"}"#)
        #expect(!duplicate.sent && duplicate.code == QUIRE_ENGINE_ERROR_INVALID_EVENT)

        let control = send(engine, "{\"tapp\u{1B}[2J\": 1}")
        #expect(control.message?.contains("\u{1B}") == false, "no control character reaches the caller")

        #expect(take(quireEngineGetState(engine)) == before)
    }

    @Test func eventsThatDoNotApplyAreIgnoredNotErrors() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let recorder = Recorder()
        #expect(observe(engine, recorder))
        #expect(send(engine, #"{"type": "nobody is focused"}"#).sent)
        #expect(recorder.notifications == [#"{"ignored":{"event":"type","reason":"noFirstResponder"}}"#])
    }

    @Test func afterCompletionEveryEventIsIgnoredAndTheResultStays() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let recorder = Recorder()
        #expect(observe(engine, recorder))
        #expect(send(engine, #"{"tap": "button:cancel"}"#).sent)
        #expect(recorder.notifications == [#"{"completed":{"outcome":"cancelled"}}"#])
        #expect(quireEngineIsCompleted(engine))
        #expect(take(quireEngineGetOutcome(engine)) == "cancelled")
        let result = try #require(json(take(quireEngineGetResult(engine))))
        #expect(result["outcome"] == "cancelled")
        let state = take(quireEngineGetState(engine))
        recorder.notifications = []
        #expect(send(engine, #"{"tap": "button:next"}"#).sent)
        #expect(recorder.notifications == [#"{"ignored":{"event":"tap","target":"button:next","reason":"completed"}}"#])
        #expect(take(quireEngineGetState(engine)) == state)
    }
}

@Suite struct Observers {
    @Test func theObserverSeesEveryNotificationInOrderAsJSON() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let recorder = Recorder()
        #expect(observe(engine, recorder))
        #expect(send(engine, #"{"tap": "button:next"}"#).sent)
        #expect(send(engine, #"{"settle": true}"#).sent)
        #expect(
            recorder.notifications == [
                #"{"pageWillChange":{"from":0,"to":1}}"#, #"{"pageDidChange":{"from":0,"to":1,"completed":true}}"#,
            ])
    }

    @Test func theDestroyNotifierRunsOnceWhenReplacedRemovedOrFreed() throws {
        let engine = try newDemoEngine()
        let first = Recorder()
        let second = Recorder()
        #expect(observe(engine, first))
        #expect(observe(engine, second))
        #expect(first.destroyed == 1 && second.destroyed == 0)
        #expect(!quireEngineSetObserver(engine, nil, nil, nil))
        #expect(second.destroyed == 1)
        let third = Recorder()
        #expect(observe(engine, third))
        quireEngineFree(engine)
        #expect(third.destroyed == 1)
        #expect(first.destroyed == 1 && second.destroyed == 1)
    }

    @Test func userDataHandedOverWithoutAnEngineOrObserverIsReleasedAtOnce() {
        let recorder = Recorder()
        #expect(!observe(nil, recorder))
        #expect(recorder.destroyed == 1)
        let other = Recorder()
        #expect(!quireEngineSetObserver(nil, nil, Unmanaged.passRetained(other).toOpaque(), recordingDestroy))
        #expect(other.destroyed == 1)
    }

    @Test func anObserverMayFreeTheEngineTheRestIsDroppedAndTheNotifierRunsAfterTheCallback() throws {
        let engine = try newDemoEngine()
        let recorder = Recorder()
        var destroyedDuringCallback = -1
        recorder.onNotification = { [unowned recorder] handle in
            quireEngineFree(handle)
            destroyedDuringCallback = recorder.destroyed
            // Freed: every call now acts as on NULL.
            #expect(quireEngineGetState(handle) == nil)
        }
        #expect(observe(engine, recorder))
        #expect(send(engine, #"{"tap": "button:next"}"#).sent)
        #expect(recorder.notifications.count == 1, "pageWillChange only; pageDidChange is dropped")
        #expect(destroyedDuringCallback == 0)
        #expect(recorder.destroyed == 1)
    }

    @Test func anObserverMaySendEventsTheirNotificationsArriveInside() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let recorder = Recorder()
        recorder.onNotification = { [unowned recorder] handle in
            if recorder.notifications.count == 1 { _ = send(handle, #"{"type": "ignored: nothing is focused"}"#) }
        }
        #expect(observe(engine, recorder))
        #expect(send(engine, #"{"swipe": "next"}"#).sent)
        #expect(recorder.notifications.first?.hasPrefix(#"{"pageWillChange""#) == true)
        #expect(recorder.notifications.dropFirst().first?.hasPrefix(#"{"ignored""#) == true)
        #expect(recorder.notifications.last?.hasPrefix(#"{"pageDidChange""#) == true)
    }

    @Test func anObserverReplacedInsideACallbackGetsNoMore() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let first = Recorder()
        let second = Recorder()
        first.onNotification = { handle in _ = observe(handle, second) }
        #expect(observe(engine, first))
        #expect(send(engine, #"{"swipe": "next"}"#).sent)
        #expect(first.notifications.count == 1 && first.destroyed == 1)
        #expect(second.notifications.count >= 1)
    }
}

@Suite struct SnapshotsAndSettings {
    @Test func aSnapshotRestoresAnEqualSessionMidAnimationWithAPickerOpen() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        for event in [
            #"{"tap": "button:next"}"#, #"{"settle": true}"#, #"{"tap": "feedLanguage"}"#, #"{"select": "ja"}"#, #"{"tick": 40}"#,
        ] {
            #expect(send(engine, event).sent)
        }
        #expect(quireEngineSetLocale(engine, "ja", nil))
        let snapshot = try #require(take(quireEngineSnapshot(engine)))
        let restored = try #require(snapshot.withCString { quireEngineRestore($0, nil) })
        defer { quireEngineFree(restored) }
        #expect(take(quireEngineGetState(restored)) == take(quireEngineGetState(engine)))
        #expect(take(quireEngineGetPresentation(restored)) == take(quireEngineGetPresentation(engine)))
        #expect(take(quireEngineGetLocale(restored)) == "ja")
    }

    @Test func aBrokenSnapshotIsAnErrorOfItsKind() {
        let notJSON = withError { error in "snapshot".withCString { quireEngineRestore($0, error) } }
        #expect(notJSON.result == nil && notJSON.code == QUIRE_ENGINE_ERROR_INVALID_JSON)
        let notASnapshot = withError { error in "{}".withCString { quireEngineRestore($0, error) } }
        #expect(notASnapshot.result == nil && notASnapshot.code == QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT)
        let null = withError { quireEngineRestore(nil, $0) }
        #expect(null.result == nil && null.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
    }

    @Test func theLocaleChangesThePresentationNotTheState() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        let state = take(quireEngineGetState(engine))
        #expect(quireEngineSetLocale(engine, "ja-JP", nil))
        let presentation = try #require(json(take(quireEngineGetPresentation(engine))))
        #expect(presentation["chrome"]?["title"] == "Focus へようこそ")
        #expect(presentation["pages"]?.arrayValue?.first?["id"] == "intro")
        #expect(take(quireEngineGetState(engine)) == state)
        for bad in ["", String(repeating: "x", count: 65)] {
            let outcome = withError { error in bad.withCString { quireEngineSetLocale(engine, $0, error) } }
            #expect(!outcome.result && outcome.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        }
        #expect(withError { quireEngineSetLocale(engine, nil, $0) }.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        #expect(take(quireEngineGetLocale(engine)) == "ja-JP")
    }

    @Test func theViewportWidthMustBeAPositiveNumber() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        for bad in [0, -1, .nan, .infinity] as [Double] {
            let outcome = withError { quireEngineSetViewportWidth(engine, bad, $0) }
            #expect(!outcome.result && outcome.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
        }
        #expect(quireEngineGetViewportWidth(engine) == 800)
        #expect(quireEngineSetViewportWidth(engine, 400, nil))
        #expect(quireEngineGetViewportWidth(engine) == 400)
        #expect(send(engine, #"{"dragBegin": {}}"#).sent)
        #expect(send(engine, #"{"dragUpdate": {"dx": -200}}"#).sent)
        #expect(json(take(quireEngineGetState(engine)))?["position"] == 0.5)
    }

    @Test func pagePresentationsExistForVisiblePagesOnly() throws {
        let engine = try newDemoEngine()
        defer { quireEngineFree(engine) }
        #expect(json(take(quireEngineGetPagePresentation(engine, 1)))?["id"] == "profile")
        #expect(quireEngineGetPagePresentation(engine, 5) == nil)
        #expect(quireEngineGetPagePresentation(engine, -1) == nil)
        #expect(quireEngineGetPagePresentation(nil, 0) == nil)
    }

    @Test func everyGetterAnswersNullForANullEngine() {
        #expect(quireEngineGetState(nil) == nil)
        #expect(quireEngineGetPresentation(nil) == nil)
        #expect(quireEngineSnapshot(nil) == nil)
        #expect(quireEngineGetPageIndex(nil) == -1)
        #expect(quireEngineGetPageCount(nil) == -1)
        #expect(quireEngineGetPageID(nil) == nil)
        #expect(quireEngineGetFocus(nil) == nil)
        #expect(!quireEngineIsCompleted(nil))
        #expect(quireEngineGetOutcome(nil) == nil)
        #expect(quireEngineGetResult(nil) == nil)
        #expect(quireEngineGetLocale(nil) == nil)
        #expect(quireEngineGetViewportWidth(nil) == 0)
        #expect(withError { quireEngineSetViewportWidth(nil, 100, $0) }.code == QUIRE_ENGINE_ERROR_INVALID_ARGUMENT)
    }

    @Test func theLibraryVersionIsTheHeadersVersion() {
        #expect(quireGetMajorVersion() == UInt32(QUIRE_MAJOR_VERSION))
        #expect(quireGetMinorVersion() == UInt32(QUIRE_MINOR_VERSION))
        #expect(quireGetMicroVersion() == UInt32(QUIRE_MICRO_VERSION))
    }
}
