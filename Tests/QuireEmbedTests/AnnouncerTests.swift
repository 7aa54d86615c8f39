import CQuire
import Testing

@testable import QuireEmbed

let recordingAnnouncer: QuireEngineAnnouncer = { engine, text, priority, userData in
    let recorder = Unmanaged<Recorder>.fromOpaque(userData!).takeUnretainedValue()
    #expect(engine != nil)
    recorder.notifications.append("\(String(cString: priority!)): \(String(cString: text!))")
}

/// `quire_engine_set_announcer`: the core's announcements (CONTRACT §6.4) handed to the host.
@Suite struct EngineAnnouncer {
    @Test func eachEventsAnnouncementsReachTheAnnouncerAfterItsNotifications() throws {
        let engine = try newDemoEngine()
        let recorder = Recorder()
        let observed = Recorder()
        #expect(observe(engine, observed))
        #expect(quireEngineSetAnnouncer(engine, recordingAnnouncer, Unmanaged.passRetained(recorder).toOpaque(), recordingDestroy))
        #expect(send(engine, #"{"tap": "button:skip"}"#).sent)
        #expect(send(engine, #"{"tap": "button:next"}"#).sent)
        #expect(send(engine, #"{"settle": true}"#).sent)
        #expect(send(engine, #"{"tap": "button:next"}"#).sent)
        #expect(send(engine, #"{"tap": "userName"}"#).sent)
        #expect(send(engine, #"{"type": "x"}"#).sent)
        #expect(
            recorder.notifications == [
                "assertive: Name is required — on page 2, About you", "polite: About you, page 2 of 5", "assertive: Name: Required",
            ])
        // Removed: released once; nothing more is announced.
        #expect(!quireEngineSetAnnouncer(engine, nil, nil, nil))
        #expect(recorder.destroyed == 1)
        #expect(send(engine, #"{"tap": "button:cancel"}"#).sent)
        #expect(recorder.notifications.count == 3)
        quireEngineFree(engine)
        #expect(observed.destroyed == 1)
    }

    @Test func aNullEngineReleasesTheUserDataAtOnce() {
        let recorder = Recorder()
        #expect(!quireEngineSetAnnouncer(nil, recordingAnnouncer, Unmanaged.passRetained(recorder).toOpaque(), recordingDestroy))
        #expect(recorder.destroyed == 1)
    }

    @Test func freeingTheEngineReleasesTheAnnouncer() throws {
        let engine = try newDemoEngine()
        let recorder = Recorder()
        #expect(quireEngineSetAnnouncer(engine, recordingAnnouncer, Unmanaged.passRetained(recorder).toOpaque(), recordingDestroy))
        #expect(send(engine, #"{"tap": "button:cancel"}"#).sent)
        #expect(recorder.notifications == ["polite: Cancelled"])
        quireEngineFree(engine)
        #expect(recorder.destroyed == 1)
    }
}
