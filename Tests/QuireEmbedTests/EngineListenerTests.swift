import CQuire
import QuireCore
import Testing

@testable import QuireEmbed

/// Listeners: fronts in the same process (the GTK view) that follow an engine besides its one C
/// observer.
@Suite struct EngineListeners {
    /// What a listener was told, as `event: notification names`.
    final class Log {
        var lines: [String] = []
        var detached = 0
    }

    func listen(_ engine: Engine, _ log: Log, onChange: @escaping (Event) -> Void = { _ in }) -> Int {
        engine.addListener(
            Engine.Listener(
                changed: { event, notifications in
                    log.lines.append("\(event): \(notifications.map(\.name))")
                    onChange(event)
                },
                detached: { log.detached += 1 }))
    }

    @Test func aListenerIsToldOfEveryEventEvenOneWithoutNotifications() throws {
        let handle = try newDemoEngine()
        defer { quireEngineFree(handle) }
        let engine = try #require(Engine.from(handle))
        let log = Log()
        _ = listen(engine, log)
        #expect(send(handle, #"{"tap": "button:next"}"#).sent)
        #expect(send(handle, #"{"tick": 16}"#).sent)
        #expect(log.lines.count == 2)
        #expect(log.lines[0].hasSuffix(": [\"pageWillChange\"]"))
        #expect(log.lines[1].hasSuffix(": []"), "a tick mid-animation emits nothing, but moved the pager")
    }

    @Test func theListenerIsToldBeforeTheObserverSeesTheFirstNotification() throws {
        let handle = try newDemoEngine()
        defer { quireEngineFree(handle) }
        let engine = try #require(Engine.from(handle))
        let log = Log()
        _ = listen(engine, log)
        let recorder = Recorder()
        var toldWhenObserved: [Int] = []
        recorder.onNotification = { _ in toldWhenObserved.append(log.lines.count) }
        #expect(observe(handle, recorder))
        #expect(send(handle, #"{"swipe": "next"}"#).sent)
        #expect(recorder.notifications.count == 2)
        #expect(toldWhenObserved == [1, 1])
    }

    @Test func anEventAListenerSendsWaitsUntilTheObserverHasSeenTheCurrentOne() throws {
        let handle = try newDemoEngine()
        defer { quireEngineFree(handle) }
        let engine = try #require(Engine.from(handle))
        let log = Log()
        var sentOnce = false
        _ = listen(engine, log) { event in
            guard !sentOnce else { return }
            sentOnce = true
            let emitted = engine.send(.settle, handle: handle)
            #expect(emitted.isEmpty, "deferred: nothing applied yet")
        }
        let recorder = Recorder()
        #expect(observe(handle, recorder))
        #expect(send(handle, #"{"tap": "button:next"}"#).sent)
        // The observer saw the tap's notification, then the settle's, in order.
        #expect(
            recorder.notifications == [
                #"{"pageWillChange":{"from":0,"to":1}}"#, #"{"pageDidChange":{"from":0,"to":1,"completed":true}}"#,
            ])
        #expect(log.lines.count == 2)
        #expect(quireEngineGetPageIndex(handle) == 1)
    }

    @Test func freeingTheEngineDetachesItsListenersOnce() throws {
        let handle = try newDemoEngine()
        let engine = try #require(Engine.from(handle))
        let log = Log()
        _ = listen(engine, log)
        quireEngineFree(handle)
        #expect(log.detached == 1)
        #expect(engine.listenerCount == 0)
    }

    @Test func aRemovedListenerHearsNothingMore() throws {
        let handle = try newDemoEngine()
        defer { quireEngineFree(handle) }
        let engine = try #require(Engine.from(handle))
        let log = Log()
        let id = listen(engine, log)
        engine.removeListener(id)
        #expect(send(handle, #"{"tap": "button:next"}"#).sent)
        #expect(log.lines.isEmpty)
        #expect(engine.listenerCount == 0)
    }
}
