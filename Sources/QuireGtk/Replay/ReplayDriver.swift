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
            Toolkit.run(milliseconds: 3000) { view.root.width > 0 && view.chrome.indicator.area.width > 0 }
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
        private func translate(_ event: Event) -> Bool {
            let session = view.host.session
            switch event {
            case .tap(let target):
                switch target {
                case .field(let id):
                    guard let row = view.pager.row(for: id, onPage: session.currentIndex), session.transition == nil else {
                        return false
                    }
                    return row.activate()
                case .background:
                    view.pager.clickBackground()
                    return true
                case .indicatorLeft, .indicatorRight, .indicatorPage:
                    guard let x = view.chrome.indicator.clickX(for: target) else { return false }
                    view.chrome.indicator.clicked(x: x)
                    return true
                case .button(let button):
                    guard let widget = view.chrome.button(button), widget.isSensitive else { return false }
                    quire_signal_emit(widget.pointer, "clicked")
                    return true
                case .accessory(let item):
                    guard session.chrome.input != nil, let widget = view.input.accessory.button(for: item), widget.isSensitive else {
                        return false
                    }
                    quire_signal_emit(widget.pointer, "clicked")
                    return true
                }
            case .key(let key):
                let name = key == .shiftTab ? "ISO_Left_Tab" : key.rawValue
                let modifiers = key == .shiftTab ? GDK_SHIFT_MASK : GdkModifierType(0)
                _ = view.press(name, modifiers)
                return true
            case .type(let text):
                guard let field = session.focusedField, let row = view.pager.row(for: field, onPage: session.currentIndex) else {
                    return false
                }
                return row.typeIntoEntry(text)
            case .spin(let component, let steps):
                guard session.chrome.input?.view == .durationPicker, let wheel = view.input.wheels.wheel(component) else { return false }
                wheel.spin(steps)
                return true
            case .select(let option):
                guard session.chrome.input?.view == .choiceList, let button = view.input.choices.button(for: option) else {
                    return false
                }
                quire_signal_emit(button.pointer, "clicked")
                return true
            // One pointer: a drag begins (or a swipe happens) only when none is under way, and
            // only a drag under way moves or ends.
            case .dragBegin:
                guard !session.pager.isDragging else { return false }
                view.pager.beginDrag()
                return true
            case .dragUpdate(let dx):
                guard session.pager.isDragging else { return false }
                view.pager.moveDrag(dx: dx, time: 0)
                return true
            case .dragEnd(let vx):
                guard session.pager.isDragging else { return false }
                view.pager.endDrag(vx: vx)
                return true
            case .swipe(let dx, let vx):
                guard !session.pager.isDragging else { return false }
                swipe(dx: dx, vx: vx)
                return true
            case .swipePage(let forward):
                guard !session.pager.isDragging else { return false }
                let width = session.viewportWidth
                let velocity = 2 * session.flow.paging.flingVelocity
                swipe(dx: forward ? -width : width, vx: forward ? -velocity : velocity)
                return true
            case .tick, .settle:
                return false
            }
        }

        private func swipe(dx: Double, vx: Double) {
            view.pager.beginDrag()
            view.pager.moveDrag(dx: dx, time: 0)
            view.pager.endDrag(vx: vx)
        }
    }
}
