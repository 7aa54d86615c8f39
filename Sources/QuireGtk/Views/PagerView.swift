import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// The pager (UIPageViewController): pages side by side, moved by the session's continuous
/// `position`. Page `i` stands at `(i - position)` widths from the left edge (a GtkCustomLayout
/// places them); only the current page, its neighbours and the pages an animation passes are
/// built. Drags (GtkGestureDrag) and touchpad scrolls become `dragBegin/Update/End`, clicks on
/// the page background `tap background`; while the session needs the clock, the widget's frame
/// clock feeds it `tick`s (frame-time deltas in ms, from GDK's microseconds) and stops asking
/// for frames as soon as nothing moves.
@MainActor
final class PagerView: SessionView {
    let root: Container
    private weak var host: SessionHost?
    /// Built pages by visible index, with the slot (a position, possibly -1 or count when
    /// wrapping) each stands at.
    private var pages: [Int: (slot: Int, view: PageView)] = [:]
    private var position = 0.0
    private var shownPager: PagerPresentation?

    // Drag: begun once the pointer moved past the threshold horizontally.
    private let drag = DragGesture()
    private let click = ClickGesture()
    private let scroll = ScrollController(GTK_EVENT_CONTROLLER_SCROLL_HORIZONTAL)
    private var dragging = false
    private var dragSeen = false
    private var velocity = VelocityTracker()
    private var scrollOffset = 0.0
    private var scrolling = false
    static let dragThreshold = 8.0

    // Clock.
    private var tickID: guint = 0
    private var lastFrameTime: Int?

    /// When set, the frame clock never feeds the session: time comes from elsewhere (a replayed
    /// script's ticks).
    var externalClock = false

    /// Frame work measured per tick (µs), for the app's own frame statistics.
    var onFrameWork: ((Double) -> Void)?

    init(host: SessionHost) {
        self.host = host
        root = Container()
        root.addCSSClass("quire-pager")
        root.hexpand = true
        root.vexpand = true
        // The pages are a container: keyboard focus rests on their fields and the page's
        // controls, never on the pager itself (KeyboardFocusing).
        root.isFocusable = false
        root.setOverflowHidden()
        // Labelled with the current page's name once rendered (updateAccessibility).
        root.setAccessibleLabel("Pages")
        g_object_set_data(quire_object(root.pointer), PagerView.dataKey, Unmanaged.passUnretained(self).toOpaque())
        gtk_widget_set_layout_manager(root.widget, gtk_custom_layout_new(nil, pagerMeasure, pagerAllocate))

        drag.onDragBegin { [weak self] _, _ in self?.dragBegan() }
        drag.onDragUpdate { [weak self] dx, dy in self?.dragMoved(dx: dx, dy: dy) }
        drag.onDragEnd { [weak self] dx, dy in self?.dragEnded(dx: dx, dy: dy) }
        drag.onCancel { [weak self] _ in self?.dragEnded(dx: nil, dy: nil) }
        root.addController(drag)

        click.onReleased { [weak self] _, _, _ in self?.clicked() }
        root.addController(click)

        scroll.onScrollBegin { [weak self] in self?.scrollBegan() }
        scroll.onScroll { [weak self] dx, dy in self?.scrolled(dx: dx, dy: dy) ?? false }
        scroll.onScrollEnd { [weak self] in self?.scrollEnded() }
        root.addController(scroll)
    }

    deinit {
        let pointer = root.pointer
        g_object_set_data(quire_object(pointer), PagerView.dataKey, nil)
        if tickID != 0 { gtk_widget_remove_tick_callback(quire_widget(pointer), tickID) }
    }

    nonisolated static let dataKey = "quire-pager-view"

    /// The row of a field on a built page (the page shown now is what a user can reach), built
    /// now if the page has not built it yet.
    func row(for field: String, onPage index: Int) -> FieldRowView? {
        pages[index]?.view.row(for: field)
    }

    /// The row of a field on a built page, if built: for asking where keyboard focus is, which
    /// builds nothing.
    func builtRow(for field: String, onPage index: Int) -> FieldRowView? {
        pages[index]?.view.builtRow(for: field)
    }

    /// Scrolls a built page so that a field's row is in view.
    func scrollToShow(field: String, onPage index: Int) {
        pages[index]?.view.scrollToShow(field: field)
    }

    /// The page view at a visible index, if built (tests).
    func pageView(at index: Int) -> PageView? { pages[index]?.view }

    /// The entry of a text field on a built page.
    func entry(for field: String) -> Entry? {
        for (_, page) in pages { if let entry = page.view.entry(for: field) { return entry } }
        return nil
    }

    /// Built pages, by visible index (tests: only the current page and neighbours exist).
    var builtPages: [Int] { pages.keys.sorted() }

    var isClockRunning: Bool { tickID != 0 }

    // MARK: Rendering

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        render(session, buildingEverything: false)
    }

    /// Builds, updates and drops pages. Only pages on screen are built or dropped at once; the
    /// neighbours that may be needed next are built (and pages gone off screen dropped) right
    /// after, when the main loop is idle — after the frame is drawn — so neither the first frame
    /// nor an animation frame pays for pages nobody sees yet.
    private func render(_ session: Session, buildingEverything: Bool) {
        let pager = session.pagerPresentation
        position = pager.position
        // Which pages to keep built, and where, is the core's decision (`Session.pageSlots`).
        let slots = session.pageSlots
        var wanted: [Int: PageSlot] = [:]
        for slot in slots { wanted[slot.index] = slot }
        var deferred = false
        for (index, built) in pages where wanted[index] == nil {
            if !buildingEverything && abs(Double(built.slot) - pager.position) >= 1 {
                deferred = true  // off screen: dropped when the loop is idle
                continue
            }
            root.release(built.view.root)
            pages[index] = nil
        }
        for slot in slots {
            if let built = pages[slot.index] {
                guard let page = session.presentPage(at: slot.index) else { continue }
                built.view.update(page)
                pages[slot.index] = (slot.slot, built.view)
            } else if !buildingEverything && !slot.onScreen {
                deferred = true  // not on screen yet: built when the loop is idle
            } else if let host, let page = session.presentPage(at: slot.index) {
                let view = PageView(page, host: host)
                root.adopt(view.root)
                pages[slot.index] = (slot.slot, view)
            }
        }
        if deferred && pendingBuild == nil {
            pendingBuild = MainLoop.idle { [weak self] in
                guard let self else { return }
                self.pendingBuild = nil
                if let session = self.host?.session { self.render(session, buildingEverything: true) }
            }
        }
        if pager != shownPager {
            shownPager = pager
            root.queueAllocate()
        }
        updateAccessibility(session)
        if pager.needsClock && !externalClock { startClock() }
    }

    private var pendingBuild: MainLoop.IdleCall?

    // MARK: Accessibility

    /// The page name the pager is labelled with ("About you — page 2 of 5").
    private(set) var accessibleName = ""
    /// Called when the page name changes (the app's window title follows it).
    var onPageName: ((String) -> Void)?
    /// Built pages left out of the accessibility tree, by visible index.
    private var hiddenPages: [Int: Bool] = [:]

    /// The pager is labelled with the current page's name (the core's `pageName`; the arrival is
    /// announced with the core's announcements, `WalkthroughView.speak`); only the current page is in the accessibility tree (the
    /// neighbours built for swiping are `hidden`, though laid out and drawn while they slide in).
    private func updateAccessibility(_ session: Session) {
        let name = session.chrome.pageName
        if name != accessibleName {
            accessibleName = name
            root.setAccessibleLabel(name)
            onPageName?(name)
        }
        let current = session.currentIndex
        hiddenPages = hiddenPages.filter { pages[$0.key] != nil }
        for (index, page) in pages {
            let hidden = index != current
            if hiddenPages[index] != hidden {
                hiddenPages[index] = hidden
                page.view.root.setAccessibleHidden(hidden)
            }
        }
    }

    // MARK: Reduced motion

    private var settings: ObjectRef?

    /// Follows the desktop's `gtk-enable-animations`: off, the session's moves land at once and
    /// auto-advance pauses (`Session.reducedMotion`, decided in the core); on again, both come back
    /// (a paused auto-advance goes on counting, so the clock is asked for again).
    func followDesktopMotion() {
        guard settings == nil, let pointer = gtk_settings_get_default() else { return }
        let settings = ObjectRef(UnsafeMutableRawPointer(pointer), .retain)
        self.settings = settings
        settings.onNotify("gtk-enable-animations") { [weak self] in self?.applyDesktopMotion() }
        applyDesktopMotion()
    }

    private func applyDesktopMotion() {
        guard let host else { return }
        host.setReducedMotion(quire_settings_get_bool("gtk-enable-animations") == 0)
        render(host.session, [])
    }

    /// Whether a built page is left out of the accessibility tree (tests).
    func isAccessibleHidden(_ index: Int) -> Bool? { hiddenPages[index] }

    // MARK: Layout (GtkCustomLayout callbacks)

    fileprivate func measure(_ orientation: GtkOrientation, forSize: Int32) -> (Int32, Int32) {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        for (_, page) in pages {
            var childMinimum: Int32 = 0
            var childNatural: Int32 = 0
            gtk_widget_measure(page.view.root.widget, orientation, forSize, &childMinimum, &childNatural, nil, nil)
            minimum = max(minimum, childMinimum)
            natural = max(natural, childNatural)
        }
        return (minimum, natural)
    }

    fileprivate func allocate(width: Int32, height: Int32) {
        host?.setViewportWidth(Double(width))
        for (_, page) in pages {
            let x = ((Double(page.slot) - position) * Double(width)).rounded()
            var allocation = GtkAllocation(x: Int32(x), y: 0, width: width, height: height)
            // Pages wholly outside the viewport are not drawn.
            gtk_widget_set_child_visible(page.view.root.widget, abs(x) < Double(width) ? 1 : 0)
            gtk_widget_size_allocate(page.view.root.widget, &allocation, -1)
        }
    }

    // MARK: Clock

    private func startClock() {
        guard tickID == 0 else { return }
        lastFrameTime = gtk_widget_get_frame_clock(root.widget).map { gdk_frame_clock_get_frame_time($0) }
        tickID = gtk_widget_add_tick_callback(root.widget, pagerTick, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    fileprivate func tick(frameTime: Int) -> Bool {
        guard let host else { return false }
        defer { lastFrameTime = frameTime }
        if let last = lastFrameTime, frameTime > last {
            let started = g_get_monotonic_time()
            host.send(.tick(Double(frameTime - last) / 1000))
            onFrameWork?(Double(g_get_monotonic_time() - started))
        }
        if host.session.pagerPresentation.needsClock { return true }
        tickID = 0
        lastFrameTime = nil
        return false
    }

    // MARK: Input

    private func dragBegan() {
        dragging = false
        dragSeen = false
        velocity.reset()
    }

    private func dragMoved(dx: Double, dy: Double) {
        guard let host else { return }
        if !dragging {
            if dragSeen { return }
            if abs(dx) >= PagerView.dragThreshold && abs(dx) > abs(dy) && host.session.pagerPresentation.swipeEnabled {
                dragSeen = true
                drag.claim()
                beginDrag()
            } else if abs(dy) >= PagerView.dragThreshold {
                dragSeen = true  // a vertical drag is not the pager's
                drag.deny()
                return
            } else {
                return
            }
        }
        moveDrag(dx: dx, time: Double(drag.currentEventTime))
    }

    private func dragEnded(dx: Double?, dy: Double?) {
        guard dragging else { return }
        var vx = 0.0
        if let dx {
            let now = Double(drag.currentEventTime)
            velocity.add(time: now, offset: dx)
            vx = velocity.velocity(at: now)
        }
        endDrag(vx: vx)
    }

    // The drag as the session hears it, once a gesture (or a touchpad scroll) is recognized as
    // the pager's: begin, the offset since the start at a time (ms), the release velocity.

    func beginDrag() {
        dragging = true
        velocity.reset()
        host?.send(.dragBegin)
    }

    func moveDrag(dx: Double, time: Double) {
        velocity.add(time: time, offset: dx)
        host?.send(.dragUpdate(dx: dx))
    }

    func endDrag(vx: Double) {
        dragging = false
        host?.send(.dragEnd(vx: vx))
    }

    /// A click on the pages' background (not on a control).
    func clickBackground() {
        host?.send(.tap(.background))
    }

    private func clicked() {
        guard !dragSeen else { return }
        clickBackground()
    }

    private func scrollBegan() {
        guard let host, host.session.pagerPresentation.swipeEnabled else { return }
        scrolling = true
        scrollOffset = 0
        beginDrag()
    }

    private func scrolled(dx: Double, dy: Double) -> Bool {
        guard let host else { return false }
        if scroll.unitIsWheel {
            // A mouse wheel's horizontal click: one page, as a swipe.
            guard dx != 0 else { return false }
            host.send(.swipePage(forward: dx > 0))
            return true
        }
        guard scrolling else { return false }
        // Touchpad deltas are in surface pixels; scrolling right reveals the next page.
        scrollOffset -= dx
        moveDrag(dx: scrollOffset, time: Double(scroll.currentEventTime))
        return true
    }

    private func scrollEnded() {
        guard scrolling else { return }
        scrolling = false
        endDrag(vx: velocity.velocity(at: Double(scroll.currentEventTime)))
    }
}

private func pagerView(_ widget: UnsafeMutablePointer<GtkWidget>?) -> PagerView? {
    guard let widget, let data = g_object_get_data(quire_object(widget), PagerView.dataKey) else { return nil }
    return Unmanaged<PagerView>.fromOpaque(data).takeUnretainedValue()
}

private let pagerMeasure: GtkCustomMeasureFunc = { widget, orientation, forSize, minimum, natural, _, _ in
    let widget = CPointer(UnsafeMutableRawPointer(widget))
    let (low, high) = MainActor.assumeIsolated { () -> (Int32, Int32) in
        pagerView(widget.raw?.assumingMemoryBound(to: GtkWidget.self))?.measure(orientation, forSize: forSize) ?? (0, 0)
    }
    minimum?.pointee = low
    natural?.pointee = high
}

private let pagerAllocate: GtkCustomAllocateFunc = { widget, width, height, _ in
    let widget = CPointer(UnsafeMutableRawPointer(widget))
    MainActor.assumeIsolated {
        pagerView(widget.raw?.assumingMemoryBound(to: GtkWidget.self))?.allocate(width: width, height: height)
    }
}

private let pagerTick: GtkTickCallback = { _, clock, data in
    let clock = CPointer(clock)
    let data = CPointer(data)
    return MainActor.assumeIsolated {
        let time = gdk_frame_clock_get_frame_time(clock.raw.map(OpaquePointer.init))
        return Unmanaged<PagerView>.fromOpaque(data.raw!).takeUnretainedValue().tick(frameTime: time) ? 1 : 0
    }
}
