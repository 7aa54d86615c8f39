/// An input session over a flow: a deterministic state machine, `(state, event) -> (state, notifications)`.
///
/// The whole session is one value, changed only by `send`. There is no clock, randomness or I/O in
/// it: time enters as `tick` events. Answers and what they derive are kept in arrays sized at
/// load and updated in place, so focus and paging events cost the same whatever the size of the
/// flow.
public struct Session: Sendable, Equatable {
    public let flow: Flow
    /// The language presentation strings are resolved for (BCP 47).
    public var locale: String
    /// Reduced motion (the desktop's "animations off", GTK's `gtk-enable-animations` false): page
    /// moves land at once instead of animating over `paging.animationMs`, and `autoAdvanceMs`
    /// does not count (auto-advance pauses; it goes on counting when this is turned off). A
    /// setting of the front, like `locale`: not part of a snapshot, set again by each front.
    public var reducedMotion = false

    /// The answers and what they derive (visibility, enablement, requiredness, errors).
    var answers: Answers
    /// Where the pages are: the current page, the position, a drag or animation, auto-advance.
    var pager: Pager
    /// The first responder and its input view.
    var focusChain = FocusChain()
    var completion: Completion?
    /// The apply in progress (CONTRACT §6.1), if any.
    var applying: Applying?
    /// The page message of the last failed apply, shown in the notice until the next apply or
    /// page change.
    public internal(set) var applyMessage: LocalizedText?

    // Scratch space reused across events, empty between events and not part of the session's
    // value: each type compares equal whatever it holds.
    var queue = NodeQueue()
    /// During `send`, the caller's buffer, which `emit` appends to.
    var outbox = Outbox()

    /// The pager's width in pixels; drags are measured against it.
    public var viewportWidth: Double { pager.viewportWidth }

    public init(flow: Flow, locale: String = "en", viewportWidth: Double = 800) {
        self.init(flow: flow, locale: locale, viewportWidth: viewportWidth, values: flow.fields.map(\.defaultValue))
    }

    /// A session whose answers are `values` (one per field, each a value of its field), with
    /// everything they derive evaluated once: restoring a snapshot starts here. `textLengths`,
    /// when the caller knows them, are the values' `textLength`s.
    init(flow: Flow, locale: String, viewportWidth: Double, values: [FieldValue], textLengths: [Int]? = nil) {
        self.flow = flow
        self.locale = locale
        answers = Answers(pageCount: flow.pages.count, values: values, textLengths: textLengths ?? values.map(\.textLength))
        pager = Pager(viewportWidth: viewportWidth > 0 ? viewportWidth : 800, autoAdvance: flow.paging.autoAdvanceMs > 0)
        rebuildDerived()
        pager.turn(to: answers.page(atVisible: 0), index: 0)
    }

    /// Sends one event; returns what happened, in order.
    ///
    /// Convenient, not free: the returned array is new each time (3 allocations for a `Tab` that
    /// moves focus: the array and its growth). A loop that sends many events should reuse one
    /// buffer with `send(_:into:)`, which allocates nothing per event.
    @discardableResult
    public mutating func send(_ event: Event) -> [SessionNotification] {
        var buffer: [SessionNotification] = []
        send(event, into: &buffer)
        return buffer
    }

    /// Sends one event, writing notifications into `buffer` (cleared first). Reusing one buffer
    /// keeps a long replay free of per-event allocations.
    public mutating func send(_ event: Event, into buffer: inout [SessionNotification]) {
        // Emptied before the event: a text edited in place must not share its storage with the
        // previous event's `valueChanged`. (Element by element: `removeAll(keepingCapacity:)`
        // goes through the general `replaceSubrange`, a few hundred instructions an event.)
        while !buffer.isEmpty { buffer.removeLast() }
        swap(&outbox.notifications, &buffer)
        dispatch(event)
        swap(&outbox.notifications, &buffer)
    }

    mutating func emit(_ notification: SessionNotification) {
        outbox.notifications.append(notification)
    }

    mutating func ignore(_ event: Event, _ reason: IgnoreReason) {
        var target: String? = nil
        switch event {
        case .tap(let tapTarget): target = tapTarget.name
        case .key(let key): target = key.rawValue
        case .spin(let component, _): target = component.rawValue
        case .select(let id): target = id
        default: break
        }
        emit(.ignored(event: event.name, target: target, reason: reason))
    }

    mutating func dispatch(_ event: Event) {
        if case .some = completion { return ignore(event, .completed) }
        if applying != nil { return dispatchWhileApplying(event) }
        if !event.isClock && !event.isHostAnswer { pager.stopAutoAdvance() }
        switch event {
        case .tap(let target):
            tap(target, event)
            relayDragIfAny()
        case .key(let key):
            press(key, event)
            relayDragIfAny()
        case .type(let text):
            type(text, event)
            relayDragIfAny()
        case .edit(let from, let to, let text):
            edit(from: from, to: to, text, event)
            relayDragIfAny()
        case .spin(let component, let steps):
            spin(component, by: steps, event)
            relayDragIfAny()
        case .select(let option):
            select(option, event)
            relayDragIfAny()
        case .dragBegin: dragBegin(event)
        case .dragUpdate(let dx): dragUpdate(dx: dx, event)
        case .dragEnd(let vx): dragEnd(vx: vx, event)
        case .swipe(let dx, let vx): swipe(dx: dx, vx: vx, event)
        case .swipePage(let forward): swipePage(forward: forward, event)
        case .tick(let ms): tick(ms)
        case .settle: settle()
        case .applied, .applyFailed: ignore(event, .notApplying)
        }
    }

    /// Input during a drag (`tap`, `key`, `type`, `spin`, `select`: a draft changed or committed,
    /// text typed or erased) can change what the drag reveals, so after each such event the drag
    /// is laid out again against the pages and answers as they are now, as its next `dragUpdate`
    /// with the same offset would (docs/session-semantics.md, "Input during a drag").
    mutating func relayDragIfAny() {
        if case .dragging(let drag) = pager.motion { updateDrag(drag) }
    }

    /// `{"swipe": "next"}` / `"previous"`: a swipe of a whole viewport width at twice the fling
    /// velocity (`swipeGesture`).
    mutating func swipePage(forward: Bool, _ event: Event) {
        let gesture = swipeGesture(forward: forward)
        swipe(dx: gesture.dx, vx: gesture.vx, event)
    }

    /// The offset and release velocity of a whole-page swipe: the viewport's width at twice
    /// `flingVelocity`, towards the next page (negative) or the previous. What a front performs
    /// for a `swipe` of `next` or `previous`.
    public func swipeGesture(forward: Bool) -> (dx: Double, vx: Double) {
        let width = viewportWidth
        let velocity = 2 * flow.paging.flingVelocity
        return forward ? (-width, -velocity) : (width, velocity)
    }

    /// The viewport widths a session takes, in pixels: what scripts, snapshots and the C API
    /// accept, so every session's snapshot restores.
    public static let viewportWidths: ClosedRange<Double> = 1...100_000

    /// Resizes the pager (a front's viewport changed); a running drag keeps its position. A
    /// width outside `viewportWidths` is ignored.
    public mutating func setViewportWidth(_ width: Double) {
        if Self.viewportWidths.contains(width) { pager.resize(width) }
    }
}

/// The notifications of the event being sent (scratch: the caller's buffer, lent for the event).
/// Not part of the session's value, so any two compare equal.
struct Outbox: Sendable, Equatable {
    var notifications: [SessionNotification] = []

    static func == (_: Outbox, _: Outbox) -> Bool { true }
}

/// The session's result, delivered once.
public struct Completion: Sendable, Hashable {
    public var outcome: Outcome
    public var values: JSONObject
}
