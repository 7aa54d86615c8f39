import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// The desktop keyboard model in the window: the core decides where keyboard focus goes
/// (`Session.keyboardFocus(after:emitted:)`) and which stop Tab reaches
/// (`Session.keyboardStep(from:forward:)`); this puts GTK's focus on the widget that stands for
/// the answer. Focus rests on a field's widget, a page control, a toggle or an open picker's
/// selected wheel or option: never on a container.
extension WalkthroughView {
    /// The widget that stands for a stop now (nil: not shown). `building`: a toggle's row not
    /// built yet is built (focus goes there); without, it is nil (asking where focus is).
    func widget(for stop: KeyboardStop, building: Bool = true) -> Widget? {
        switch stop {
        case .toggle(let id):
            let index = host.session.currentIndex
            return (building ? pager.row(for: id, onPage: index) : pager.builtRow(for: id, onPage: index))?.ownWidget
        case .back: return chrome.button(.back)
        case .indicator: return chrome.indicator.focusWidget
        case .skip: return chrome.button(.skip)
        case .next: return chrome.button(.next)
        case .finish: return chrome.button(.finish)
        case .cancel: return chrome.button(.cancel)
        case .notice: return banner.notice == nil ? nil : banner.button
        }
    }

    /// The widget that stands for a field: the first responder's input (its entry, its picker's
    /// selected wheel or option), else the field's own widget.
    func widget(forField id: String) -> Widget? {
        let session = host.session
        guard let row = pager.row(for: id, onPage: session.currentIndex) else { return nil }
        if session.focusedField == id, let input = session.chrome.input, input.field == id {
            switch input.view {
            case .durationPicker:
                if let selected = input.wheels.first(where: \.isSelectedWheel), let wheel = self.input.wheels.wheel(selected.component) {
                    return wheel.focusWidget
                }
            case .choiceList:
                if let selected = input.options.first(where: \.selected), let button = self.input.choices.button(for: selected.id) {
                    return button
                }
            case .keyboard:
                break
            }
        }
        return row.ownWidget
    }

    /// GTK's focus widget in this view's window.
    var focusWidget: UnsafeMutablePointer<GtkWidget>? {
        guard let root = gtk_widget_get_root(self.root.widget) else { return nil }
        return gtk_root_get_focus(root)
    }

    func hasFocus(_ widget: Widget) -> Bool {
        guard let focus = focusWidget else { return false }
        return focus == widget.widget || gtk_widget_is_ancestor(focus, widget.widget) != 0
    }

    /// The stop keyboard focus is on now, if any.
    var focusedStop: KeyboardStop? {
        host.session.keyboardStops(noticeShown: banner.notice != nil).stops.first { stop in
            widget(for: stop, building: false).map(hasFocus) ?? false
        }
    }

    /// The field whose own widget has keyboard focus while it is not first responder (a picker
    /// closed with Done or Escape, a field a refused move revealed an error on).
    var focusedFieldWidget: String? {
        let session = host.session
        guard session.focusedField == nil else { return nil }
        for field in session.presentPage(at: session.currentIndex)?.fields ?? [] where field.kind != .toggle {
            if let widget = pager.builtRow(for: field.id, onPage: session.currentIndex)?.ownWidget, hasFocus(widget) { return field.id }
        }
        return nil
    }

    /// Whether keyboard focus rests somewhere a keyboard user can act: a focusable, visible,
    /// sensitive widget of this view.
    var focusIsUsable: Bool {
        // Cancel may be in the window's header bar, outside the view.
        guard let focus = focusWidget, gtk_widget_is_ancestor(focus, root.widget) != 0 || focus == chrome.cancelButton.widget
        else { return false }
        return gtk_widget_get_focusable(focus) != 0 && gtk_widget_is_sensitive(focus) != 0 && gtk_widget_is_drawable(focus) != 0
    }

    /// Puts keyboard focus where the core said. False when the widget for it is not there yet
    /// (a field on a page still sliding in): the caller tries again when the pages settle.
    @discardableResult
    func land(_ focus: KeyboardFocus) -> Bool {
        host.isPlacingFocus = true
        defer { host.isPlacingFocus = false }
        switch focus {
        case .field(let id):
            // A widget not on screen yet (an input panel still sliding up) does not take focus.
            guard let widget = widget(forField: id), widget.isSensitive else { return false }
            if !hasFocus(widget) { return gtk_widget_grab_focus(widget.widget) != 0 }
        case .stop(let stop):
            guard let widget = widget(for: stop) else { return land(.stop(host.session.primaryStop)) }
            if !hasFocus(widget) { return gtk_widget_grab_focus(widget.widget) != 0 }
        case .stay(let stop):
            if focusedStop != nil && focusIsUsable { return true }
            return land(.stop(stop))
        case .unchanged:
            if !focusIsUsable { return land(.stay(orElse: host.session.primaryStop)) }
        case .completed:
            break
        }
        return true
    }

    /// Shows the focus ring: keyboard focus moved because of a key.
    func showFocusRing() {
        guard let root = gtk_widget_get_root(self.root.widget).map(UnsafeMutableRawPointer.init),
            quire_is_a(root, gtk_window_get_type()) != 0
        else { return }
        gtk_window_set_focus_visible(quire_window(root), 1)
    }

    /// Tab (`forward`) or shift+Tab, as the desktop keyboard model says
    /// (docs/session-semantics.md, "Keyboard focus").
    func tab(forward: Bool) {
        let key: Key = forward ? .tab : .shiftTab
        let session = host.session
        if session.focusedField != nil {
            host.send(.key(key))
        } else if let field = focusedFieldWidget {
            for event in session.tabEvents(fromFieldWidget: field, forward: forward) { host.send(event) }
        } else if !tabAmongWindowControls(forward: forward) {
            switch session.keyboardStep(from: focusedStop, forward: forward, noticeShown: banner.notice != nil) {
            case .stop(let stop): land(.stop(stop))
            case .chain: host.send(.key(key))
            }
        }
        showFocusRing()
    }

    /// Tab where the core's stops wrap, or on one of the window's own controls
    /// (`windowControls`): true when it moved focus there or from there.
    private func tabAmongWindowControls(forward: Bool) -> Bool {
        let controls = windowControls().filter { gtk_widget_get_visible($0.widget) != 0 && gtk_widget_is_sensitive($0.widget) != 0 }
        guard !controls.isEmpty else { return false }
        let stops = host.session.keyboardStops(noticeShown: banner.notice != nil).stops
        if let at = controls.firstIndex(where: hasFocus) {
            let next = at + (forward ? 1 : -1)
            if controls.indices.contains(next) { return gtk_widget_grab_focus(controls[next].widget) != 0 }
            guard let stop = forward ? stops.first : stops.last else { return false }
            return land(.stop(stop))
        }
        // From the last stop forward (the first backward), where the core's cycle wraps.
        guard let stop = focusedStop, stop == (forward ? stops.last : stops.first),
            case .stop(let wrapped) = host.session.keyboardStep(from: stop, forward: forward, noticeShown: banner.notice != nil),
            wrapped == (forward ? stops.first : stops.last)
        else { return false }
        return gtk_widget_grab_focus((forward ? controls.first : controls.last)!.widget) != 0
    }
}
