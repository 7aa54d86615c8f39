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
    /// The pager's width in pixels; drags are measured against it.
    public private(set) var viewportWidth: Double
    /// Reduced motion (the desktop's "animations off", GTK's `gtk-enable-animations` false): page
    /// moves land at once instead of animating over `paging.animationMs`, and `autoAdvanceMs`
    /// does not count (auto-advance pauses; it goes on counting when this is turned off). A
    /// setting of the front, like `locale`: not part of a snapshot, set again by each front.
    public var reducedMotion = false

    // Answers.
    var values: [FieldValue]
    /// The length of each text answer in grapheme clusters (0 for other fields), kept as text is
    /// typed so a keystroke costs the same however long the answer is.
    var textLengths: [Int]
    /// Fields whose errors are shown: edited and resigned, or named by a refused gate or finish.
    var touched: [Bool]

    // Derived from the answers (rebuilt on restore, kept up to date by `propagate`).
    var pageVisible: [Bool]
    var fieldVisible: [Bool]
    var fieldEnabled: [Bool]
    var fieldRequired: [Bool]
    var fieldError: [ValidationCode?]
    var pageErrorCount: [Int32]
    var visiblePages: FenwickTree
    var pagesWithErrors: FenwickTree

    // Paging.
    /// The page shown when settled (a flow page number, always visible).
    var currentPage: Int {
        didSet { keptCurrentIndex = visiblePages.prefix(currentPage) }
    }
    /// The visible index of `currentPage`, kept as pages turn (above) and as pages before it
    /// appear or hide (`storePageVisible`), so per-event reads do not walk the page tree.
    var keptCurrentIndex = 0
    /// The continuous pager position in visible-page units (beyond the ends during wraps and rubber bands).
    var position: Double
    var motion: Motion?

    // Focus: the first responder and its input view's state, as plain fields (see `input`).
    /// The first responder's field; -1 for none.
    var inputField = -1
    /// The picker's draft (`.duration` or `.choice`); `.null` for text and with no first responder.
    var inputDraft = FieldValue.null
    /// The value before editing; `.null` with no first responder.
    var inputOriginal = FieldValue.null
    /// The selected wheel of a duration picker; 0 with no first responder.
    var inputWheel = 0

    /// The first responder and its input view's state, built from the fields above.
    var input: InputState? {
        get {
            guard inputField >= 0 else { return nil }
            return InputState(field: inputField, draft: inputDraft, original: inputOriginal, selectedWheel: inputWheel)
        }
        set {
            guard let newValue else { return clearInput() }
            inputField = newValue.field
            inputDraft = newValue.draft
            inputOriginal = newValue.original
            inputWheel = newValue.selectedWheel
        }
    }

    /// Whether a field is first responder.
    var hasInput: Bool { inputField >= 0 }

    /// No first responder: every input field back to its resting value, so equal sessions compare
    /// equal field by field.
    mutating func clearInput() {
        inputField = -1
        inputDraft = .null
        inputOriginal = .null
        inputWheel = 0
    }

    var autoAdvance: AutoAdvance
    var completion: Completion?

    // Scratch space reused across events (always empty between events).
    var queue = NodeQueue()
    /// During `send`, the caller's buffer, which `emit` appends to.
    var outbox: [SessionNotification] = []

    public init(flow: Flow, locale: String = "en", viewportWidth: Double = 800) {
        self.init(flow: flow, locale: locale, viewportWidth: viewportWidth, values: flow.fields.map(\.defaultValue))
    }

    /// A session whose answers are `values` (one per field, each a value of its field), with
    /// everything they derive evaluated once: restoring a snapshot starts here. `textLengths`,
    /// when the caller knows them, are the values' `textLength`s.
    init(flow: Flow, locale: String, viewportWidth: Double, values: [FieldValue], textLengths: [Int]? = nil) {
        self.flow = flow
        self.locale = locale
        self.viewportWidth = viewportWidth > 0 ? viewportWidth : 800
        let fieldCount = flow.fields.count
        let pageCount = flow.pages.count
        self.values = values
        self.textLengths = textLengths ?? values.map(\.textLength)
        touched = [Bool](repeating: false, count: fieldCount)
        pageVisible = [Bool](repeating: false, count: pageCount)
        fieldVisible = [Bool](repeating: false, count: fieldCount)
        fieldEnabled = [Bool](repeating: true, count: fieldCount)
        fieldRequired = [Bool](repeating: false, count: fieldCount)
        fieldError = [ValidationCode?](repeating: nil, count: fieldCount)
        pageErrorCount = [Int32](repeating: 0, count: pageCount)
        visiblePages = FenwickTree(count: pageCount)
        pagesWithErrors = FenwickTree(count: pageCount)
        currentPage = 0
        position = 0
        autoAdvance = AutoAdvance(active: flow.paging.autoAdvanceMs > 0, elapsed: 0)
        rebuildDerived()
        currentPage = visiblePages.find(0)
        keptCurrentIndex = 0
        position = 0
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
        swap(&outbox, &buffer)
        dispatch(event)
        swap(&outbox, &buffer)
    }

    mutating func emit(_ notification: SessionNotification) {
        outbox.append(notification)
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
        if !event.isClock { autoAdvance.active = false }
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
        }
    }

    /// Input during a drag (`tap`, `key`, `type`, `spin`, `select`: a draft changed or committed,
    /// text typed or erased) can change what the drag reveals, so after each such event the drag
    /// is laid out again against the pages and answers as they are now, as its next `dragUpdate`
    /// with the same offset would (docs/session-semantics.md, "Input during a drag").
    mutating func relayDragIfAny() {
        if case .dragging(let drag) = motion { updateDrag(drag) }
    }

    /// A swipe of a whole viewport width at twice the fling velocity.
    mutating func swipePage(forward: Bool, _ event: Event) {
        let width = viewportWidth
        let velocity = 2 * flow.paging.flingVelocity
        swipe(dx: forward ? -width : width, vx: forward ? -velocity : velocity, event)
    }

    /// The viewport widths a session takes, in pixels: what scripts, snapshots and the C API
    /// accept, so every session's snapshot restores.
    public static let viewportWidths: ClosedRange<Double> = 1...100_000

    /// Resizes the pager (a front's viewport changed); a running drag keeps its position. A
    /// width outside `viewportWidths` is ignored.
    public mutating func setViewportWidth(_ width: Double) {
        if Self.viewportWidths.contains(width) { viewportWidth = width }
    }
}

/// A running transition: a drag or an animation, each carrying only its own fields, so a drag's
/// offset cannot outlive the drag (in the session or in a snapshot).
enum Motion: Sendable, Hashable {
    case dragging(Drag)
    case animating(Animation)

    /// The visible index last announced with `pageWillChange` in this transition (nil: none yet).
    var announced: Int? {
        switch self {
        case .dragging(let drag): drag.announced
        case .animating(let animation): animation.announced
        }
    }
}

/// An interactive drag on the pager.
struct Drag: Sendable, Hashable {
    /// The page position the drag snaps around.
    var anchor: Double
    /// The position when the drag began, unscaled by any rubber band (see `Session.dragBegin`).
    var start: Double
    /// The latest offset in pixels, negative towards the next page.
    var dx: Double = 0
    /// The position of the page the drag reveals, if any.
    var revealed: Double? = nil
    var announced: Int?
}

/// An ease-out animation from `start` to `target` (positions), `elapsed` microseconds in.
struct Animation: Sendable, Hashable {
    var start: Double
    var target: Double
    var elapsed: Int64 = 0
    var announced: Int?
}

/// The first responder and its input view's state.
struct InputState: Sendable, Hashable {
    var field: Int
    /// The picker's draft (`.duration` or `.choice`); `.null` for text.
    var draft: FieldValue
    /// The value before editing (restored by cancel/Escape).
    var original: FieldValue
    /// The selected wheel of a duration picker (an index into its components).
    var selectedWheel: Int
}

struct AutoAdvance: Sendable, Hashable {
    var active: Bool
    /// Microseconds of ticks on the settled page.
    var elapsed: Int64
}

/// The session's result, delivered once.
public struct Completion: Sendable, Hashable {
    public var outcome: Outcome
    public var values: JSONObject
}
