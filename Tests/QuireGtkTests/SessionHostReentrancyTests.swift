import QuireCore
import Testing

@testable import QuireGtk

/// `SessionHost` when a view sends while it renders (a GTK signal a setter could not block): the
/// event waits, and runs after the render, in the order sent. No widgets: views that only record.
@MainActor
@Suite struct SessionHostReentrancyTests {
    /// A view that records each render and, rendering an event, sends what `sends` says.
    @MainActor final class SendingView: SessionView {
        let host: SessionHost
        var sends: [Event: [Event]] = [:]
        /// Called once while rendering the event, after its sends.
        var during: [Event: () -> Void] = [:]
        /// What each render rendered: the host's event and the notifications' names.
        var renders: [(event: Event?, notifications: [String])] = []
        private var rendering = false
        var nested = 0

        init(_ host: SessionHost) {
            self.host = host
            host.attach(self)
            renders.removeAll()
        }

        func render(_ session: Session, _ notifications: [SessionNotification]) {
            if rendering { nested += 1 }
            rendering = true
            defer { rendering = false }
            renders.append((host.lastEvent, notifications.map(\.name)))
            guard let event = host.lastEvent else { return }
            for sent in sends.removeValue(forKey: event) ?? [] {
                #expect(host.send(sent).isEmpty, "sent during a render: waits, nothing applied yet")
            }
            during.removeValue(forKey: event)?()
        }
    }

    /// A store another owner sends to as well; it tells the host of every event it applies.
    @MainActor final class Store: SessionStore {
        var session: Session
        weak var host: SessionHost?

        init(_ session: Session) { self.session = session }

        func send(_ event: Event) -> [SessionNotification] {
            var emitted: [SessionNotification] = []
            session.send(event, into: &emitted)
            host?.storeApplied(event, emitted)
            return emitted
        }

        func setViewportWidth(_ width: Double) { session.setViewportWidth(width) }
    }

    func record(_ host: SessionHost) -> () -> [Event] {
        var events: [Event] = []
        host.onEvent = { event, _ in events.append(event) }
        return { events }
    }

    @Test func eventsSentDuringARenderRunAfterItFirstSentFirst() throws {
        let host = SessionHost(Session(flow: try GtkTest.pages(4)))
        let view = SendingView(host)
        let events = record(host)
        let next = Event.tap(.button(.next))
        // next's render sends two ticks; the first tick's render sends a third while the second
        // still waits: it runs after the second.
        view.sends = [next: [.tick(1), .tick(2)], .tick(1): [.tick(3)]]
        #expect(!host.send(next).isEmpty)
        #expect(events() == [next, .tick(1), .tick(2), .tick(3)])
        #expect(view.renders.map(\.event) == [next, .tick(1), .tick(2), .tick(3)])
        #expect(view.nested == 0, "no render ran inside another")
        #expect(view.sends.isEmpty)
    }

    @Test func anEventAStoreAppliesDuringARenderIsRenderedBeforeTheWaitingSends() throws {
        let store = Store(Session(flow: try GtkTest.pages(4)))
        let host = SessionHost(store: store)
        store.host = host
        let view = SendingView(host)
        let events = record(host)
        let next = Event.tap(.button(.next))
        view.sends = [next: [.tick(1)]]
        // Another owner's event, applied while the views render `next`.
        view.during = [next: { _ = store.send(.settle) }]
        _ = host.send(next)
        #expect(events() == [next, .settle, .tick(1)])
        #expect(view.renders.count == 3)
        #expect(view.renders[0].notifications == ["pageWillChange"])
        #expect(view.renders[1].notifications == ["pageDidChange"], "the settle, rendered again right after")
        #expect(view.renders[2].event == .tick(1))
        #expect(view.nested == 0)
    }
}
