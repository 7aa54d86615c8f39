import GtkBindings
import QuireGtk
import CGtk
import CGtkShim
import QuireCore
import QuireHarness

/// Drives a walkthrough's real widgets from a session script (`quire run --replay`): each event
/// is turned into what a user's input would do to the widgets — a click on the field's entry,
/// value button or switch, on a chrome or toolbar button, on an indicator dot or beside it, on an
/// option; a key press through the window's key handler; text inserted into the focused entry; a
/// wheel turned; a drag through the pager's drag steps — and the session hears whatever those
/// widgets send. Only what no widget could do (a tap on a field that is not on screen or not
/// enabled, on a hidden indicator, on a button a user cannot click, typing with no entry focused)
/// goes to the session directly, and so do `tick` and `settle`: the script owns the clock, the
/// frame clock is not used.
///
/// The harness's runner checks the script's expectations against the window's session, so a
/// replay ends exactly as the headless harness says when the widgets translate input faithfully.
public final class ReplayDriver: SessionDriver {
    /// How the events of the replay reached the session.
    public struct Counts: Sendable, Equatable {
        /// Events that went through a widget.
        public var throughWidgets = 0
        /// Events no widget could produce, sent to the session directly.
        public var direct = 0
        /// Clock events (`tick`, `settle`).
        public var clock = 0
    }

    private let state: State
    public private(set) var counts = Counts()

    /// Opens the walkthrough of `session` in `window` (replacing its content); `afterEvent` runs
    /// after every event once GTK has caught up (screenshots for a trace).
    @MainActor
    public init(session: Session, window: UnsafeMutableRawPointer) {
        state = State(window: window)
        state.show(session)
    }

    public var session: Session {
        let state = self.state
        return MainActor.assumeIsolated { state.view.host.session }
    }

    /// The walkthrough's root widget now (screenshots).
    @MainActor
    public var root: Widget { state.view.root }

    public func replace(with session: Session) {
        let state = self.state
        MainActor.assumeIsolated { state.show(session) }
    }

    public func send(_ event: Event, into buffer: inout [SessionNotification]) {
        let state = self.state
        let (notifications, route) = MainActor.assumeIsolated { state.deliver(event) }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: notifications)
        switch route {
        case .widget: counts.throughWidgets += 1
        case .direct: counts.direct += 1
        case .clock: counts.clock += 1
        }
    }

    enum Route: Sendable { case widget, direct, clock }

    /// The main-actor side: the window and the view.
    @MainActor
    final class State {
        let window: UnsafeMutableRawPointer
        var view: WalkthroughView!
        private var heard: [SessionNotification] = []
        private var heardEvents = 0

        init(window: UnsafeMutableRawPointer) {
            self.window = window
        }

        func show(_ session: Session) {
            let host = SessionHost(session)
            host.fixedViewport = true
            let view = WalkthroughView(host: host, externalClock: true)
            host.onEvent = { [weak self] _, notifications in
                self?.heard.append(contentsOf: notifications)
                self?.heardEvents += 1
            }
            self.view = view
            gtk_window_set_child(quire_window(window), view.root.widget)
            // Clicks land where the widgets are: wait for the first layout.
            Toolkit.run(milliseconds: 3000) { view.isLaidOut }
            settle()
        }

        /// Lets GTK lay out, map and draw what the last event changed.
        func settle() {
            Toolkit.iterate()
        }

        func deliver(_ event: Event) -> ([SessionNotification], Route) {
            heard.removeAll(keepingCapacity: true)
            heardEvents = 0
            var route = Route.widget
            if event.isClock {
                route = .clock
                view.host.send(event)
            } else if !translate(event) || heardEvents == 0 {
                // No widget could produce it, or the widget's input did not reach the session.
                if heardEvents == 0 {
                    route = .direct
                    view.host.send(event)
                }
            }
            settle()
            return (heard, route)
        }

        /// Performs the user's input for `event` on the widgets; false when no widget can.
        private func translate(_ event: Event) -> Bool { view.perform(event) }
    }
}
