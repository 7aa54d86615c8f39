import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// A whole walkthrough in a window: Cancel above the pager, the chrome below it, the progress bar and the
/// input panel overlaid (so neither moves the pages), the keys of CONTRACT §2, and keyboard focus
/// where the core says it goes (the desktop keyboard model, `KeyboardFocusing`).
///
/// Tab and shift+Tab always go through the keyboard model. With a text field first responder its
/// entry edits (BackSpace, arrows, Home, End, Delete, Ctrl+A, paste are GTK's) and Return and
/// Escape go to the session; with a picker open every key goes to the session. With focus on a
/// page control, Left/Right, Page_Up/Page_Down, Home/End move pages (the indicator handles its
/// own), and Return and Space activate the control as GTK does. Ctrl and Alt combinations are
/// left to accelerators.
@MainActor
public final class WalkthroughView: SessionView {
    public let root = Overlay()
    public let host: SessionHost
    let pager: PagerView
    let chrome: ChromeView
    let input: InputPanelView
    /// The refusal notice under Cancel's row (or the header bar), above the pages.
    let banner: NoticeBanner
    /// The spinner and label while the host applies a page; the pages insensitive meanwhile.
    let applying: ApplyingView
    /// The header bar Cancel sits in (the app's window), nil where it has its own row (embedded).
    private var cancelHeader: Widget?
    /// How Cancel goes into that header bar and out of it (GtkHeaderBar's calls, or the app's).
    private var headerPacking:
        (packStart: @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void, remove: @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void)?
    /// Cancel's row, the pages (they fill, and scroll), the inset and the chrome: the column never
    /// counts the inset in its size, so the window never grows when the panel opens.
    private let column = Column()
    /// Room made under the pages while the input panel is up, so the pages (centred) move up out
    /// from under it, as a view avoids the on-screen keyboard — at most what the pages can give
    /// up (`Column`); the page then scrolls the field into view.
    private let inset = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP, milliseconds: 200)
    private let insetSpace = Box(GTK_ORIENTATION_VERTICAL)
    private let keys = KeyController()
    /// Tab and shift+Tab while keyboard focus is in the window's header bar (Cancel, the primary
    /// menu): outside the view, so `keys` never sees them.
    private let headerKeys = KeyController()
    /// Keys nothing below took, on their way back up: Tab and Escape a text field's entry and
    /// its input method left, and Escape with nothing to dismiss (Cancel).
    private let leftoverKeys = KeyController()
    private var mapped = false
    /// Where keyboard focus goes once the pages settle: a field on a page still sliding in.
    private var pendingLanding: KeyboardFocus?
    private var retry: MainLoop.IdleCall?

    /// `externalClock`: the frame clock never feeds the session (a replay owns the time).
    public init(host: SessionHost, externalClock: Bool = false) {
        Style.install()
        self.host = host
        pager = PagerView(host: host)
        pager.externalClock = externalClock
        // The desktop's animations setting (reduced motion), unless a replay owns the time.
        if !externalClock { pager.followDesktopMotion() }
        chrome = ChromeView(host: host)
        input = InputPanelView(host: host)
        banner = NoticeBanner(host: host)
        applying = ApplyingView(pages: pager.root)
        root.addCSSClass("quire-walkthrough")
        root.setAccessibleLabel(host.session.chrome.title ?? host.session.flow.id)
        column.append(chrome.top)
        column.append(banner.revealer)
        column.append(applying.revealer)
        column.append(pager.root, .fill)
        inset.setChild(insetSpace)
        inset.canTarget = false
        // Once the room is made, the page scrolls the field whose picker is open into view.
        inset.onNotify("child-revealed") { [weak self] in self?.showFirstResponder() }
        column.append(inset, .inset)
        column.append(chrome.bar)
        root.setChild(column)
        root.addOverlay(chrome.progress)
        root.addOverlay(input.revealer)
        keys.propagationPhase = GTK_PHASE_CAPTURE
        keys.onKeyPressed { [weak self] keyval, _, state in self?.keyPressed(keyval, state) ?? false }
        root.addController(keys)
        // Escape that nothing took on its way down and back up (no field to dismiss, no popover,
        // no composition) is Cancel, as in GtkAssistant; the answers are kept as Cancel keeps
        // them. A script's Escape is the session's key (ignored with nothing focused), so replays
        // and recordings stay what the core says: the recording holds the Cancel.
        leftoverKeys.onKeyPressed { [weak self] keyval, _, state in
            guard let self, let key = KeyTranslation.key(keyval: keyval, state: state) else { return false }
            if self.isTyping { return self.textKeyLeftOver(key) }
            guard key == .escape, self.host.session.focusedField == nil else { return false }
            let emitted = self.host.send(.tap(.button(.cancel)))
            return !emitted.contains { if case .ignored = $0 { true } else { false } }
        }
        root.addController(leftoverKeys)
        // Keyboard focus starts where the core says once the window exists (GTK would pick the
        // first focusable widget otherwise).
        root.onMap { [weak self] in
            guard let self else { return }
            self.mapped = true
            self.land(self.host.session.keyboardFocus(after: nil, emitted: []))
        }
        host.attach(pager)
        host.attach(chrome)
        host.attach(input)
        host.attach(banner)
        host.attach(applying)
        host.attach(self)
        host.onAnnounce = { [weak self] said in self?.speak(said) }
    }

    /// Called with the announcements of each event once the view has spoken them (the embedding
    /// library hands them to its host).
    public var onAnnounce: (([Announcement]) -> Void)?

    /// Makes a screen reader speak what the core says must be announced after an event (CONTRACT
    /// §6.4), each with its priority where GTK can announce. Before GTK 4.14 they become one
    /// message, in the core's order, assertive when one of them is: Orca presents each message
    /// through the focused widget's description and cuts the one before it short.
    ///
    /// Once the session has completed, they are spoken from an idle, in the window: an app
    /// replaces this view then (the main window's content), and Orca drops a change of a widget
    /// that has gone (measured: "Finished" missing 1 run in 6 when spoken on Finish at once).
    func speak(_ said: [Announcement]) {
        let announce: (String, Bool) -> Void =
            host.session.completed == nil
            ? { [root] in root.announce($0, assertive: $1) } : { [root] in root.announceLater($0, assertive: $1) }
        if Widget.canAnnounce {
            for announcement in said { announce(announcement.spoken, announcement.priority == .assertive) }
        } else {
            announce(said.map(\.spoken).joined(separator: ". "), said.contains { $0.priority == .assertive })
        }
        onAnnounce?(said)
    }

    /// Puts Cancel at the start of `header` (a GtkHeaderBar: the app's window), where
    /// gnome-initial-setup has it, instead of its own row above the pages, while this view is
    /// on screen; it comes back to its row when the view leaves the window. The keyboard order is
    /// the same either way: Cancel first (docs/session-semantics.md, "Keyboard focus").
    public func placeCancel(inHeaderBar header: Widget) {
        placeCancel(
            inHeaderBar: header,
            packStart: { gtk_header_bar_pack_start(OpaquePointer(header.widget), $0) },
            remove: { gtk_header_bar_remove(OpaquePointer(header.widget), $0) })
    }

    /// The same in a header bar of another class (the app's AdwHeaderBar, which this library
    /// does not link): `packStart` and `remove` put a widget at its start and take it out.
    public func placeCancel(
        inHeaderBar header: Widget, packStart: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void,
        remove: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void
    ) {
        cancelHeader = header
        headerPacking = (packStart, remove)
        // The desktop keyboard order goes on from the header bar into the page (Cancel, then
        // the first field): Tab there follows the core's model, not GTK's widget order.
        headerKeys.propagationPhase = GTK_PHASE_CAPTURE
        headerKeys.onKeyPressed { [weak self] keyval, _, state in
            guard let self, gtk_widget_get_mapped(self.root.widget) != 0,
                let key = KeyTranslation.key(keyval: keyval, state: state), key == .tab || key == .shiftTab
            else { return false }
            self.tab(forward: key == .tab)
            return true
        }
        header.addController(headerKeys)
        root.onMap { [weak self] in self?.moveCancel(toHeader: true) }
        root.onUnmap { [weak self] in self?.moveCancel(toHeader: false) }
        if gtk_widget_get_mapped(root.widget) != 0 { moveCancel(toHeader: true) }
    }

    /// Gives the header bar back as it was (its Cancel back in the view's own row, its keys
    /// unhooked): a view that leaves the window for good says so, since it may be gone before
    /// GTK unmaps it (Ctrl+R during a walkthrough stacked a Cancel in the header bar each time).
    public func leaveHeaderBar() {
        guard let header = cancelHeader else { return }
        moveCancel(toHeader: false)
        header.removeController(headerKeys)
        cancelHeader = nil
        headerPacking = nil
    }

    private func moveCancel(toHeader: Bool) {
        guard cancelHeader != nil, let packing = headerPacking else { return }
        let cancel = chrome.cancelButton
        let inHeader = gtk_widget_get_parent(cancel.widget) != chrome.top.widget
        guard toHeader != inHeader else { return }
        if toHeader {
            gtk_box_remove(quire_box(chrome.top.pointer), cancel.widget)
            packing.packStart(cancel.widget)
            cancel.removeCSSClass("flat")
            chrome.top.isVisible = false
        } else {
            packing.remove(cancel.widget)
            chrome.top.append(cancel)
            cancel.addCSSClass("flat")
            chrome.top.isVisible = true
        }
    }

    /// The current page's name ("About you — page 2 of 5"), and a callback when it changes: the
    /// app's window title follows it (Accessibility in docs/gtk-shell.md).
    public var pageName: String { pager.accessibleName }

    /// The window's own controls around the view (the app's header-bar buttons: the timer, the
    /// primary menu), in the Tab cycle where the core's stops wrap: Tab from the last stop goes
    /// to the first of them, Tab from the last of them back to the first stop (Shift+Tab the
    /// other way). None in an embedded view, whose host owns the rest of its window.
    public var windowControls: () -> [Widget] = { [] }
    public var onPageName: ((String) -> Void)? {
        get { pager.onPageName }
        set { pager.onPageName = newValue }
    }

    /// The page views built now, by visible index.
    public var builtPages: [Int] { pager.builtPages }
    /// Whether the pager asks the frame clock for ticks now.
    public var isClockRunning: Bool { pager.isClockRunning }
    /// Frame work per tick, in µs (the app's frame statistics).
    public var onFrameWork: ((Double) -> Void)? {
        get { pager.onFrameWork }
        set { pager.onFrameWork = newValue }
    }

    public func render(_ session: Session, _ notifications: [SessionNotification]) {
        if session.chrome.input != nil {
            let covered = input.naturalHeight(forWidth: max(root.width, 1)) - chrome.bar.height
            insetSpace.setSizeRequest(height: max(covered, 0))
            if !inset.revealed {
                inset.revealed = true
                // Without an animation (reduced motion) the room is there after the next layout.
                reveal = MainLoop.idle { [weak self] in self?.showFirstResponder() }
            }
        } else {
            inset.revealed = false
        }
        guard mapped else { return }
        let event = host.lastEvent
        if event?.isClock == true {
            // The clock moves nothing keyboard focus cares about, but a field waiting for its
            // page to settle, or a page control a move disabled.
            if let pending = pendingLanding {
                if session.transition == nil && land(pending) { pendingLanding = nil }
            } else if notifications.contains(where: { if case .pageDidChange = $0 { true } else { false } }) {
                land(.unchanged)
            }
            return
        }
        let landing =
            if let notice = banner.acting, event == notice.event {
                session.keyboardFocus(afterNoticeAction: notice, emitted: notifications)
            } else {
                session.keyboardFocus(after: event, emitted: notifications)
            }
        pendingLanding = land(landing) ? nil : landing
        if pendingLanding != nil { retryLanding(attempts: 20) }
        if case .key? = event { showFocusRing() }
    }

    private var reveal: MainLoop.IdleCall?

    /// Scrolls the current page so the first responder's row is above the input panel.
    private func showFirstResponder() {
        let session = host.session
        guard let field = session.focusedField, session.chrome.input != nil else { return }
        pager.scrollToShow(field: field, onPage: session.currentIndex)
    }

    /// Tries a landing that could not be made yet again when the loop is idle (after the next
    /// layout: a panel shown, a page built), a bounded number of times.
    private func retryLanding(attempts: Int) {
        retry = MainLoop.idle { [weak self] in
            guard let self, let pending = self.pendingLanding, self.host.session.transition == nil else { return }
            if self.land(pending) {
                self.pendingLanding = nil
            } else if attempts > 1 {
                self.retryLanding(attempts: attempts - 1)
            }
        }
    }

    /// Whether GTK has laid the view out: the window and the indicator have a width (clicks
    /// land where the widgets are only after that).
    package var isLaidOut: Bool { root.width > 0 && chrome.indicator.area.width > 0 }

    /// A key press as GDK would deliver it to the window (tests); true when handled.
    /// (A replay's key goes the way GTK would take it: the window's keys first, then what a text
    /// field's entry does with the rest — Return activates it, Tab and Escape come back up.)
    func press(_ keyName: String, _ modifiers: GdkModifierType = GdkModifierType(0)) -> Bool {
        let keyval = gdk_keyval_from_name(keyName)
        if keyPressed(keyval, modifiers) { return true }
        guard isTyping, let key = KeyTranslation.key(keyval: keyval, state: modifiers) else { return false }
        if key == .return {
            host.send(.key(.return))
            return true
        }
        return textKeyLeftOver(key)
    }

    /// Whether a text field is first responder: its entry (and an input method) sees keys first.
    private var isTyping: Bool {
        host.session.focusedField != nil && host.session.chrome.input?.view == .keyboard
    }

    /// Tab, shift+Tab and Escape that a text field's entry and its input method left: the
    /// session's. (Return comes as the entry's `activate`: EntryEditing.)
    private func textKeyLeftOver(_ key: Key) -> Bool {
        switch key {
        case .tab, .shiftTab:
            tab(forward: key == .tab)
            return true
        case .escape:
            let emitted = host.send(.key(.escape))
            return !emitted.contains { if case .ignored = $0 { true } else { false } }
        default:
            return false
        }
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        // A text field's entry sees every key before the session: an input method may be
        // composing (Return commits its pre-edit, Escape drops it, Tab may pick a candidate), and
        // one that draws its pre-edit in a window of its own never tells the entry it composes.
        // What it leaves comes back: Return as the entry's activate, Tab and Escape up the tree.
        if isTyping || host.composingField != nil { return false }
        guard let key = KeyTranslation.key(keyval: keyval, state: state) else { return false }
        if key == .tab || key == .shiftTab {
            tab(forward: key == .tab)
            return true
        }
        let session = host.session
        if session.focusedField == nil {
            switch key {
            case .left, .right, .pageUp, .pageDown, .home, .end:
                // The indicator turns its own pages with these.
                if focusedStop == .indicator { return false }
            default:
                // Return and Space activate the focused control, as GTK does.
                return false
            }
        }
        let emitted = host.send(.key(key))
        // A key the session ignored goes on to GTK.
        return !emitted.contains { if case .ignored = $0 { true } else { false } }
    }
}
