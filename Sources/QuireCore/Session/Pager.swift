/// The pager's state (UIPageViewController's): the page shown when settled, the continuous
/// position, a running drag or animation, and the auto-advance count.
///
/// Its fields change only through its methods, which hold the pager's own arithmetic (the
/// rubber band, the easing, an animation's leg of a tick, the auto-advance count); where to move
/// and what to announce is decided by the session (Session+Paging.swift, Session+Decisions.swift).
struct Pager: Sendable, Equatable {
    /// The pager's width in pixels; drags are measured against it.
    private(set) var viewportWidth: Double
    /// The page shown when settled (a flow page number, always visible).
    private(set) var currentPage = 0
    /// The visible index of `currentPage`, kept as pages turn and as pages before it appear or
    /// hide, so per-event reads do not walk the page tree.
    private(set) var currentIndex = 0
    /// The continuous position in visible-page units (beyond the ends during wraps and rubber bands).
    /// A position within `wholeTolerance` of a whole page is that page (CONTRACT §6.6): a release
    /// there lands at once, and the state never shows a residue such as -7.8e-17.
    private(set) var position: Double = 0 {
        didSet {
            let whole = position.rounded()
            if whole != position, abs(position - whole) <= Self.wholeTolerance { position = whole }
        }
    }

    /// How near a whole page a position is that page.
    static let wholeTolerance = 1e-9
    private(set) var motion: Motion?
    private(set) var autoAdvance: AutoAdvance

    init(viewportWidth: Double, autoAdvance: Bool) {
        self.viewportWidth = viewportWidth
        self.autoAdvance = AutoAdvance(active: autoAdvance, elapsed: 0)
    }

    /// Settles on `page`, the visible page `index`.
    mutating func turn(to page: Int, index: Int) {
        currentPage = page
        currentIndex = index
    }

    /// A page's visibility changed: one before the current page moves the current index.
    mutating func pageVisibilityChanged(_ page: Int, _ visible: Bool) {
        if page < currentPage { currentIndex += visible ? 1 : -1 }
    }

    mutating func resize(_ width: Double) { viewportWidth = width }

    // MARK: Motion

    /// Runs `animation` from where the pager is (a new move, a retarget, a spring-back).
    mutating func animate(_ animation: Animation) { motion = .animating(animation) }

    /// Moves `update` to where its offset puts the pager — rubber-banded where `neighbour`, the
    /// page the flow opens that way, is not open — and makes it the running motion. The page it
    /// reveals is the one next to the position, away from the page shown, at most one page from
    /// the anchor: the anchor itself or the open neighbour. Returns the visible index (of
    /// `count` pages) to announce when the drag reveals a page it had not announced.
    mutating func move(_ update: Drag, neighbour: Session.DragNeighbour, count: Int) -> Int? {
        var drag = update
        let raw = drag.offset(in: viewportWidth)
        position = drag.anchor + Self.band(raw, open: raw == 0 || neighbour.isOpen)
        let current = Double(currentIndex)
        drag.revealed = nil
        var announce: Int? = nil
        // A takeover keeps its target until the finger moves (CONTRACT §6.6): at touch-down
        // (no offset yet) it reveals nothing, wherever the interrupted animation left the pager.
        if position != current && !(drag.heading != nil && drag.dx == 0) {
            var coordinate = position > current ? (position - 1e-9).rounded(.up) : (position + 1e-9).rounded(.down)
            coordinate = min(drag.anchor + 1, max(drag.anchor - 1, coordinate))
            if coordinate != current {
                if coordinate == drag.anchor {
                    drag.revealed = coordinate
                    announce = Session.normalize(coordinate, count: count)
                } else if case .open(let at, let index) = neighbour, at == coordinate {
                    drag.revealed = coordinate
                    announce = index
                }
            }
        }
        var announced: Int? = nil
        if let index = announce, index != drag.announced {
            drag.announced = index
            announced = index
        }
        // `to` changes only when the drag reveals a different page than the takeover's target.
        if let revealed = drag.revealed, Session.normalize(revealed, count: count) != drag.heading {
            drag.heading = nil
            drag.headingAt = nil
        }
        motion = .dragging(drag)
        return announced
    }

    /// Ends any motion, standing at `position` (a spring-back landed, a cancel).
    mutating func stop(at position: Double) {
        motion = nil
        self.position = position
    }

    /// A completed move lands on flow page `page`, the visible page `index`: settled there, and
    /// auto-advance counts again from zero.
    mutating func land(on page: Int, index: Int) {
        motion = nil
        turn(to: page, index: index)
        position = Double(index)
        autoAdvance.elapsed = 0
    }

    /// The running animation advanced by `microseconds` of its `duration`: the microseconds
    /// left over once it has reached its end (the caller lands it), or nil while it runs on.
    mutating func advanceAnimation(_ microseconds: Int64, duration: Int64) -> Int64? {
        guard case .animating(var animation) = motion else { return microseconds }
        let need = duration - animation.elapsed
        if microseconds >= need { return microseconds - need }
        animation.elapsed += microseconds
        motion = .animating(animation)
        position = animation.start + (animation.target - animation.start) * progress(duration: duration)
        return nil
    }

    /// The eased fraction of the running animation's time (how far the current leg has gone).
    func progress(duration: Int64) -> Double {
        guard case .animating(let animation) = motion else { return 0 }
        return duration > 0 ? Self.easeOutCubic(Double(animation.elapsed) / Double(duration)) : 1
    }

    static func easeOutCubic(_ t: Double) -> Double {
        let clamped = min(1, max(0, t))
        let rest = 1 - clamped
        return 1 - rest * rest * rest
    }

    // MARK: The rubber band

    /// How much of a drag past the way open (past an end, or beyond the neighbour) moves the pager.
    static let rubberBand = 0.35

    /// How far a drag moves the pager for a raw offset of `raw` pages: freely up to the neighbour
    /// when the way is `open`, then at `rubberBand` of the further drag by at most one more page;
    /// at `rubberBand` from the start when it is not.
    static func band(_ raw: Double, open: Bool) -> Double {
        let distance = abs(raw)
        let banded = open ? (distance <= 1 ? distance : 1 + min(1, (distance - 1) * rubberBand)) : min(1, distance * rubberBand)
        return raw < 0 ? -banded : banded
    }

    /// The raw offset that `band` maps to `offset` (a drag taking over keeps its position).
    static func unband(_ offset: Double, open: Bool) -> Double {
        let distance = abs(offset)
        let raw = open ? (distance <= 1 ? distance : 1 + (distance - 1) / rubberBand) : distance / rubberBand
        return offset < 0 ? -raw : raw
    }

    // MARK: Auto-advance

    /// The user did something: auto-advance stops (it never resumes in this session).
    mutating func stopAutoAdvance() { autoAdvance.active = false }

    /// Counts `microseconds` of a settled wait towards a move every `interval`: the microseconds
    /// left over when the wait is over (the count starts again), or nil while it goes on.
    mutating func countAutoAdvance(_ microseconds: Int64, every interval: Int64) -> Int64? {
        let need = interval - autoAdvance.elapsed
        if microseconds >= need {
            autoAdvance.elapsed = 0
            return microseconds - need
        }
        autoAdvance.elapsed += microseconds
        return nil
    }

    // MARK: Restoring

    /// A snapshot's pager: its position, motion and auto-advance, as they were.
    mutating func restore(position: Double?, motion: Motion?, autoAdvance: AutoAdvance?) {
        if let position { self.position = position }
        self.motion = motion
        if let autoAdvance { self.autoAdvance = autoAdvance }
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
    /// The visible index the animation a takeover interrupted was heading to (the page shown for
    /// a spring-back), kept as the transition's `to` until the drag reveals another page (CONTRACT
    /// §6.6): nothing is revealed before the finger moves; nil once another page is revealed, and
    /// for a drag that took over nothing.
    var heading: Int? = nil
    /// Where that animation was heading, as a position (with `wrap`, the lap it ran on): the
    /// transition's `progress` is the fraction of the way there. Nil with `heading`.
    var headingAt: Double? = nil

    /// The drag's offset in pages from its anchor, before any rubber band, on a pager
    /// `viewportWidth` pixels wide.
    func offset(in viewportWidth: Double) -> Double { (start - anchor) - dx / viewportWidth }
}

/// An ease-out animation from `start` to `target` (positions), `elapsed` microseconds in.
struct Animation: Sendable, Hashable {
    var start: Double
    var target: Double
    var elapsed: Int64 = 0
    var announced: Int?
}

struct AutoAdvance: Sendable, Hashable {
    var active: Bool
    /// Microseconds of ticks on the settled page.
    var elapsed: Int64
}
