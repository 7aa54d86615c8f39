import GtkBindings
import QuireCore

/// A view of the session: told after every event, it compares what it shows with the session's
/// presentation and pushes only what changed (never sending events while it renders).
@MainActor
public protocol SessionView: AnyObject {
    func render(_ session: Session, _ notifications: [SessionNotification])
}

/// Where a host's session lives when the host does not own it: an owner that others send events
/// to as well (the engine behind a `QuireEngine *` an app embeds). The store applies the events
/// the host sends and tells the host of every event applied, whoever sent it, by calling
/// `SessionHost.storeApplied`.
@MainActor
public protocol SessionStore: AnyObject {
    /// The session as it is now.
    var session: Session { get }
    /// Applies an event (the store then calls `storeApplied`); what it emitted, or nothing when the
    /// store applies it later or not at all.
    func send(_ event: Event) -> [SessionNotification]
    func setViewportWidth(_ width: Double)
    /// Reduced motion on or off (`Session.reducedMotion`, the desktop's animations setting).
    func setReducedMotion(_ on: Bool)
}

extension SessionStore {
    /// A store that keeps its session's motion as it is.
    public func setReducedMotion(_ on: Bool) {}
}

/// Holds the one session value of a window and is the only way events reach it: GTK handlers
/// translate input into `Event`s and `send` them; every view then renders from the new state.
/// It decides nothing (the core does).
///
/// With a `SessionStore`, the value lives in the store instead: events go through it, and the
/// host renders whenever the store says an event was applied — its own or anyone else's.
@MainActor
public final class SessionHost {
    /// The session the views show.
    public var session: Session { store?.session ?? local }
    private var local: Session
    private let store: SessionStore?
    private var buffer: [SessionNotification] = []
    private var views: [WeakView] = []
    /// Events sent while the views render (a handout is one render), sent after it in order.
    private var sentWhileRendering = ReentrancyQueue<Event>()
    private var delivered = false

    /// The event the views are rendering (nil: none yet, or a first render on attach). Views that
    /// ask the core where keyboard focus goes read it.
    public private(set) var lastEvent: Event?

    /// True while a view moves keyboard focus where the core said: a field's widget that takes
    /// focus then is not being tapped (a text field stays as it is until the user types).
    public var isPlacingFocus = false

    /// The text field whose entry an input method is composing in (a pre-edit on screen, not
    /// yet committed), nil when none is: while it composes, Return, Tab, Escape and every other
    /// key belong to the input method, not to the session (docs/gtk-shell.md, "Input methods").
    package var composingField: String?

    /// Called after each event with what it emitted (recording, logging).
    public var onEvent: ((Event, [SessionNotification]) -> Void)?
    /// Called once, when the session completes.
    public var onCompleted: ((Completion) -> Void)?
    /// Called after each event that has something to announce (CONTRACT §6.4), with what the
    /// core says must be announced, after the views have rendered it (keyboard focus is where the
    /// event put it). The front speaks them; it decides nothing about them.
    public var onAnnounce: (([Announcement]) -> Void)? {
        didSet { shownErrors = session.errorsInView }
    }
    /// The errors shown before the next event (`Session.errorsInView`), kept while someone
    /// listens for announcements: the core compares the page with it to find an error revealed.
    private var shownErrors: ShownErrors?
    /// Announcements of events applied but not yet rendered (a store's event during a render).
    private var unsaid: [Announcement] = []

    public init(_ session: Session) {
        local = session
        store = nil
    }

    /// A host over a session that `store` holds.
    public init(store: SessionStore) {
        local = store.session
        self.store = store
    }

    public func attach(_ view: SessionView) {
        views.append(WeakView(view: view))
        let event = lastEvent
        lastEvent = nil
        defer { lastEvent = event }
        view.render(session, [])
    }

    /// Sends one event and renders its result. An event sent while views render (a GTK signal a
    /// setter could not block) waits and runs after the render, first sent first, after any
    /// already waiting (`ReentrancyQueue`).
    @discardableResult
    public func send(_ event: Event) -> [SessionNotification] {
        guard sentWhileRendering.admit(event) else { return [] }
        if let store { return store.send(event) }
        local.send(event, into: &buffer)
        let emitted = buffer
        applied(event, emitted)
        return emitted
    }

    /// The store applied an event (sent by this host or anyone else): render it.
    public func storeApplied(_ event: Event, _ emitted: [SessionNotification]) {
        applied(event, emitted)
    }

    private func applied(_ event: Event, _ emitted: [SessionNotification]) {
        onEvent?(event, emitted)
        if onAnnounce != nil {
            unsaid += session.announcements(after: event, emitted: emitted, before: shownErrors)
            shownErrors = session.errorsInView
        }
        if sentWhileRendering.isBusy {
            // Another owner's event arrived while the views render: they render again after.
            rerender = (rerender ?? []) + emitted
            return
        }
        lastEvent = event
        render(emitted)
        if !unsaid.isEmpty {
            let said = unsaid
            unsaid = []
            onAnnounce?(said)
        }
        while let next = sentWhileRendering.next() { send(next) }
        if !delivered, let completion = session.completed {
            delivered = true
            onCompleted?(completion)
        }
    }

    /// When set, the session keeps its viewport width whatever the window's (a replayed script
    /// measures its drags against its own viewport).
    public var fixedViewport = false

    /// The pager's width changed (allocation); drags are measured against it.
    public func setViewportWidth(_ width: Double) {
        guard !fixedViewport && width != session.viewportWidth else { return }
        if let store { store.setViewportWidth(width) } else { local.setViewportWidth(width) }
    }

    /// Reduced motion (the desktop's animations off): moves land at once, auto-advance pauses.
    /// A setting, not an event (nothing is recorded or rendered for it).
    public func setReducedMotion(_ on: Bool) {
        guard on != session.reducedMotion else { return }
        if let store { store.setReducedMotion(on) } else { local.reducedMotion = on }
    }

    private func render(_ notifications: [SessionNotification]) {
        sentWhileRendering.begin()
        defer { sentWhileRendering.end() }
        views.removeAll { $0.view == nil }
        for entry in views { entry.view?.render(session, notifications) }
        while let again = rerender {
            rerender = nil
            for entry in views { entry.view?.render(session, again) }
        }
    }

    /// Notifications of events applied by a store during a render, rendered right after it. Not
    /// waiting events: the store has applied them already, so the views catch up on them before
    /// any event sent during the render runs.
    private var rerender: [SessionNotification]?

    private struct WeakView {
        weak var view: SessionView?
    }
}
