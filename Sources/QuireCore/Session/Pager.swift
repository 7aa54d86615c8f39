/// The pager's state (UIPageViewController's): the page shown when settled, the continuous
/// position, a running drag or animation, and the auto-advance count.
///
/// It changes only its own fields; what to do with them is decided by the session
/// (Session+Paging.swift, Session+Decisions.swift).
struct Pager: Sendable, Equatable {
    /// The pager's width in pixels; drags are measured against it.
    var viewportWidth: Double
    /// The page shown when settled (a flow page number, always visible).
    private(set) var currentPage = 0
    /// The visible index of `currentPage`, kept as pages turn and as pages before it appear or
    /// hide, so per-event reads do not walk the page tree.
    private(set) var currentIndex = 0
    /// The continuous position in visible-page units (beyond the ends during wraps and rubber bands).
    /// A position within `wholeTolerance` of a whole page is that page (CONTRACT §6.6): a release
    /// there lands at once, and the state never shows a residue such as -7.8e-17.
    var position: Double = 0 {
        didSet {
            let whole = position.rounded()
            if whole != position, abs(position - whole) <= Self.wholeTolerance { position = whole }
        }
    }

    /// How near a whole page a position is that page.
    static let wholeTolerance = 1e-9
    var motion: Motion?
    var autoAdvance: AutoAdvance

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
    /// The visible index the animation a takeover interrupted was heading to (another page than
    /// the one shown), kept as the transition's `to` until the drag reveals a page (CONTRACT
    /// §6.6); nil once it has, and for a drag that took over nothing or a spring-back.
    var heading: Int? = nil
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
