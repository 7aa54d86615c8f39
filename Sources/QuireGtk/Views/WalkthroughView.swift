import CGtk
import CGtkShim
import QuireCore

/// A whole walkthrough in a window: Cancel above the pager, the chrome below it, the progress bar and the
/// input panel overlaid (so neither moves the pages), the keys of CONTRACT §2, and the session's
/// first responder mirrored into GTK's keyboard focus.
///
/// Keys go to the session while GTK's focus is on the pages (the pager itself or a field's entry);
/// when the user has moved it to a control of its own (a button, a switch, the indicator), that
/// control handles them as GTK does. Ctrl and Alt combinations are left to accelerators.
@MainActor
public final class WalkthroughView: SessionView {
    public let root = Overlay()
    public let host: SessionHost
    let pager: PagerView
    let chrome: ChromeView
    let input: InputPanelView
    private let column = Box(GTK_ORIENTATION_VERTICAL)
    /// Room made under the pages while the input panel is up, so the pages (centred) move up out
    /// from under it, as a view avoids the on-screen keyboard.
    private let inset = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP, milliseconds: 200)
    private let insetSpace = Box(GTK_ORIENTATION_VERTICAL)
    private let keys = KeyController()
    private var focusedField: String?

    /// `externalClock`: the frame clock never feeds the session (a replay owns the time).
    public init(host: SessionHost, externalClock: Bool = false) {
        Style.install()
        self.host = host
        pager = PagerView(host: host)
        pager.externalClock = externalClock
        chrome = ChromeView(host: host)
        input = InputPanelView(host: host)
        root.addCSSClass("quire-walkthrough")
        root.setAccessibleLabel(host.session.chrome.title ?? host.session.flow.id)
        column.append(chrome.top)
        column.append(pager.root)
        inset.setChild(insetSpace)
        inset.canTarget = false
        column.append(inset)
        column.append(chrome.bar)
        root.setChild(column)
        root.addOverlay(chrome.progress)
        root.addOverlay(input.revealer)
        keys.propagationPhase = GTK_PHASE_CAPTURE
        keys.onKey("key-pressed") { [weak self] keyval, _, state in self?.keyPressed(keyval, state) ?? false }
        root.addController(keys)
        // The first focus goes to the pages once the window exists (GTK would pick the first
        // focusable control otherwise).
        root.on("map") { [weak self] in
            guard let self else { return }
            self.focusedField = nil
            self.mirrorFocus(self.host.session, initial: true)
        }
        host.attach(pager)
        host.attach(chrome)
        host.attach(input)
        host.attach(self)
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
        mirrorFocus(session)
        if session.chrome.input != nil {
            let covered = input.naturalHeight(forWidth: max(root.width, 1)) - chrome.bar.height
            insetSpace.setSizeRequest(height: max(covered, 0))
            inset.revealed = true
        } else {
            inset.revealed = false
        }
    }

    /// Gives GTK's keyboard focus to what the session's first responder is: a text field's entry,
    /// else the pager (so arrows, Tab, Return and Escape keep reaching the session), unless the
    /// user put the focus on a control outside the pages.
    private func mirrorFocus(_ session: Session, initial: Bool = false) {
        let field = session.focusedField
        defer { focusedField = field }
        if let field, let entry = pager.entry(for: field) {
            if !entry.containsFocus { entry.grabFocus() }
            return
        }
        guard initial || field != focusedField || !focusIsOutsidePages else { return }
        if initial || focusIsOnPages || focusWidget == nil { if !pager.root.hasFocus { pager.root.grabFocus() } }
    }

    private var focusWidget: UnsafeMutablePointer<GtkWidget>? {
        guard let root = gtk_widget_get_root(self.root.widget) else { return nil }
        return gtk_root_get_focus(root)
    }

    private var focusIsOnPages: Bool {
        guard let focus = focusWidget else { return false }
        return focus == pager.root.widget || gtk_widget_is_ancestor(focus, pager.root.widget) != 0
    }

    private var focusIsOutsidePages: Bool { focusWidget != nil && !focusIsOnPages }

    /// A key press as GDK would deliver it to the window (tests); true when handled.
    func press(_ keyName: String, _ modifiers: GdkModifierType = GdkModifierType(0)) -> Bool {
        keyPressed(gdk_keyval_from_name(keyName), modifiers)
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        guard let key = KeyTranslation.key(keyval: keyval, state: state) else { return false }
        var handled = false
        if focusIsOutsidePages {
            // Escape on a control of the window's own brings the keyboard back to the pages.
            guard key == .escape else { return false }
            pager.root.grabFocus()
            handled = true
        }
        let emitted = host.send(.key(key))
        // A key the session ignored (Tab on a page without fields, Left in a text field) goes on
        // to GTK: focus moves to the buttons, the entry moves its cursor.
        let ignored = emitted.contains { if case .ignored = $0 { return true } else { return false } }
        return handled || !ignored
    }
}
