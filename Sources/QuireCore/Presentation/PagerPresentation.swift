/// What a pager front needs each frame: where the pages are, and whether the clock matters.
///
/// A front asks for ticks (a frame-clock callback) only while `needsClock` holds, so an idle
/// window does no work per frame.
public struct PagerPresentation: Sendable, Hashable {
    /// The continuous position in visible-page units (CONTRACT §4 `position`): page `i` is drawn
    /// at `(i - position)` viewport widths from the pager's left edge.
    public var position: Double
    /// Visible pages.
    public var count: Int
    /// Whether moves wrap around the ends (`paging.wrap`): pages then also stand at `-1` and `count`.
    public var wraps: Bool
    /// A drag (or touchpad scroll) is moving the pages.
    public var isDragging: Bool
    /// `tick` events change the session now: an animation runs, or auto-advance is counting.
    public var needsClock: Bool
    /// Whether a drag may begin (`paging.swipe`, and the session is not complete).
    public var swipeEnabled: Bool
}

extension Session {
    public var pagerPresentation: PagerPresentation {
        var animating = false
        var dragging = false
        switch pager.motion {
        case .animating: animating = true
        case .dragging: dragging = true
        case nil: break
        }
        // Reduced motion pauses auto-advance: nothing counts, so no clock is asked for.
        let counting = pager.motion == nil && pager.autoAdvance.active && !reducedMotion
        return PagerPresentation(
            position: pager.position, count: pageCount, wraps: flow.paging.wrap, isDragging: dragging,
            needsClock: completion == nil && (animating || counting),
            swipeEnabled: flow.paging.swipe && completion == nil)
    }
}
