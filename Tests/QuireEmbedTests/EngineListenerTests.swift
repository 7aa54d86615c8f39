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

    @Test func eventsListenersSendRunFirstSentFirstAfterThoseAlreadyWaiting() throws {
        let handle = try newDemoEngine()
        defer { quireEngineFree(handle) }
        let engine = try #require(Engine.from(handle))
        let log = Log()
        var told: [Event] = []
        // Told of the tap, the listener sends two ticks; told of the first, a third, while the
        // second still waits: it runs after the second.
        var sends: [Event: [Event]] = [.tap(.button(.next)): [.tick(1), .tick(2)], .tick(1): [.tick(3)]]
        _ = listen(engine, log) { event in
            told.append(event)
            for sent in sends.removeValue(forKey: event) ?? [] {
                #expect(engine.send(sent, handle: handle).isEmpty, "deferred: nothing applied yet")
            }
        }
        #expect(send(handle, #"{"tap": "button:next"}"#).sent)
        #expect(told == [.tap(.button(.next)), .tick(1), .tick(2), .tick(3)])
        #expect(sends.isEmpty)
    }

    @Test func anEngineFreedWhileListenersSentEventsWaitDropsThem() throws {
        let handle = try newDemoEngine()
        let engine = try #require(Engine.from(handle))
        let log = Log()
        var told: [Event] = []
        _ = listen(engine, log) { event in
            told.append(event)
            guard event == .tap(.button(.next)) else { return }
            _ = engine.send(.settle, handle: handle)
            _ = engine.send(.tap(.button(.next)), handle: handle)
        }
        let recorder = Recorder()
        // The observer frees the engine on the settle's notification: the second tap never runs.
        recorder.onNotification = { [unowned recorder] handle in
            guard recorder.notifications.last?.contains("pageDidChange") == true else { return }
            quireEngineFree(handle)
            #expect(Engine.from(handle) == nil, "freed: every call now acts as on NULL")
        }
        #expect(observe(handle, recorder))
        #expect(send(handle, #"{"tap": "button:next"}"#).sent)
        #expect(told == [.tap(.button(.next)), .settle])
        #expect(recorder.notifications.count == 2)
        #expect(recorder.destroyed == 1)
        #expect(log.detached == 1)
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
