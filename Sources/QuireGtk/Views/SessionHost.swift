import QuireCore

/// A view of the session: told after every event, it compares what it shows with the session's
/// presentation and pushes only what changed (never sending events while it renders).
@MainActor
public protocol SessionView: AnyObject {
    func render(_ session: Session, _ notifications: [SessionNotification])
}

/// Holds the one session value of a window and is the only way events reach it: GTK handlers
/// translate input into `Event`s and `send` them; every view then renders from the new state.
/// It decides nothing (the core does).
@MainActor
public final class SessionHost {
    public private(set) var session: Session
    private var buffer: [SessionNotification] = []
    private var views: [WeakView] = []
    private var rendering = false
    private var queued: [Event] = []
    private var delivered = false

    /// Called after each event with what it emitted (recording, logging).
    public var onEvent: ((Event, [SessionNotification]) -> Void)?
    /// Called once, when the session completes.
    public var onCompleted: ((Completion) -> Void)?

    public init(_ session: Session) {
        self.session = session
    }

    public func attach(_ view: SessionView) {
        views.append(WeakView(view: view))
        view.render(session, [])
    }

    /// Sends one event and renders its result. An event sent while views render (a GTK signal a
    /// setter could not block) runs after the render, in order.
    @discardableResult
    public func send(_ event: Event) -> [SessionNotification] {
        if rendering {
            queued.append(event)
            return []
        }
        session.send(event, into: &buffer)
        let emitted = buffer
        onEvent?(event, emitted)
        render(emitted)
        if !queued.isEmpty {
            let pending = queued
            queued.removeAll()
            for next in pending { send(next) }
        }
        if !delivered, let completion = session.completed {
            delivered = true
            onCompleted?(completion)
        }
        return emitted
    }

    /// When set, the session keeps its viewport width whatever the window's (a replayed script
    /// measures its drags against its own viewport).
    public var fixedViewport = false

    /// The pager's width changed (allocation); drags are measured against it.
    public func setViewportWidth(_ width: Double) {
        if !fixedViewport && width != session.viewportWidth { session.setViewportWidth(width) }
    }

    private func render(_ notifications: [SessionNotification]) {
        rendering = true
        defer { rendering = false }
        views.removeAll { $0.view == nil }
        for entry in views { entry.view?.render(session, notifications) }
    }

    private struct WeakView {
        weak var view: SessionView?
    }
}
