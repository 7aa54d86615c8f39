import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// One field of a page, from its `FieldPresentation`: a text entry, a value button that opens a
/// picker (duration, choice), or a switch (toggle); its label; its error, revealed below it.
///
/// Input becomes events (typing → `type`, a click → `tap`); values come back only from the
/// session. Setters run with the widget's own handlers blocked, so nothing echoes.
@MainActor
final class FieldRowView {
    let id: String
    let kind: FieldPresentation.Kind
    /// The row (built-in), or the input widget (a layout's).
    let root: Widget
    /// The field's label (read by tests).
    let label: Label
    private let errorLabel: Label
    private let errorRevealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN, milliseconds: 150)
    private weak var host: SessionHost?

    // One of these, by kind.
    private(set) var entry: Entry?
    private var editing: EntryEditing?
    private var valueButton: Button?
    private var valueLabel: Label?
    private var toggle: Switch?
    private var toggleHandler: SignalHandler?
    private var check: CheckButton?
    private var checkHandler: SignalHandler?
    /// A layout's widgets: its label and error label are optional, and the error is shown by
    /// showing its label rather than by a revealer.
    private var bound = false
    private var hasLabel = true
    private var hasErrorLabel = true

    private var shown: FieldPresentation?

    init(_ field: FieldPresentation, host: SessionHost) {
        id = field.id
        kind = field.kind
        self.host = host
        label = Label()
        errorLabel = Label()
        let root = Box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        self.root = root
        root.addCSSClass("quire-field")
        label.setXAlign(0)
        label.setWrap()
        label.addCSSClass("quire-field-label")
        errorLabel.setXAlign(0)
        errorLabel.setWrap()
        errorLabel.addCSSClass("error")
        errorLabel.addCSSClass("caption")
        errorRevealer.setChild(errorLabel)
        // A hidden error is gone from the accessible tree too (not an empty label), once it has
        // slid away.
        errorRevealer.isVisible = false
        errorRevealer.onNotify("child-revealed") { [weak self] in
            guard let self, !self.errorRevealer.revealed, !self.errorRevealer.childRevealed else { return }
            self.errorRevealer.isVisible = false
        }

        switch field.kind {
        case .text:
            root.append(label)
            let entry = Entry()
            entry.hexpand = true
            root.append(entry)
            bindEntry(entry)
        case .toggle:
            let toggle = Switch()
            toggle.valign = GTK_ALIGN_CENTER
            bindSwitch(toggle)
            placeBesideLabel(toggle, in: root)
        default:  // duration, choice: a value button that toggles the picker
            let button = Button(label: "")
            let valueLabel = Label()
            button.setChild(valueLabel)
            button.addCSSClass("quire-value-button")
            bindButton(button, valueLabel: valueLabel)
            placeBesideLabel(button, in: root)
        }
        root.append(errorRevealer)
        update(field)
    }

    /// A long label's minimum width, in characters (GTK's `width-chars`): 140–160 px, well
    /// within the 312 px a row has in a 360 px window.
    static let longLabelMinimumCharacters: Int32 = 20

    /// A switch's or value button's row: the label beside the control (a horizontal box), or
    /// above it when the core says the label is long (`FieldPresentation.stacksLabel`).
    private var line: Box?
    private var control: Widget?
    private var stacked = false

    private func placeBesideLabel(_ control: Widget, in root: Box) {
        let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        label.hexpand = true
        line.append(label)
        line.append(control)
        root.append(line)
        self.line = line
        self.control = control
    }

    /// Puts the label above its control (`stacked`) or beside it. Above, the label wraps across
    /// the row's width and the control follows it at the row's end, where a short row has it.
    /// Beside a control, GTK 4.8 asks a horizontal box's wrapping label for its width at each
    /// height the page is measured at (width-for-height), and the label answers each by a binary
    /// search over widths, a Pango layout of the whole text at each step: a 2,000-character
    /// label took 5–10 s to show (docs/gtk-shell.md, "Window sizes").
    private func arrange(stacked: Bool) {
        guard let line, let control, let root = root as? Box, stacked != self.stacked else { return }
        self.stacked = stacked
        if stacked {
            line.remove(label)
            line.remove(control)
            line.isVisible = false
            gtk_box_insert_child_after(quire_box(root.pointer), label.widget, nil)
            gtk_box_insert_child_after(quire_box(root.pointer), control.widget, label.widget)
            control.halign = GTK_ALIGN_END
        } else {
            root.remove(label)
            root.remove(control)
            control.halign = GTK_ALIGN_FILL
            line.append(label)
            line.append(control)
            line.isVisible = true
        }
    }

    /// A field shown by a page layout's widgets (`PageLayout`): `parts.input` is an entry or
    /// text, a switch or check button, or a button, as the core's binding rules allow; the label
    /// and error label are optional.
    init(_ field: FieldPresentation, layout parts: LoadedLayout.Parts, host: SessionHost) {
        id = field.id
        kind = field.kind
        self.host = host
        bound = true
        label = parts.label.map { Label(existing: $0) } ?? Label()
        hasLabel = parts.label != nil
        errorLabel = parts.error.map { Label(existing: $0) } ?? Label()
        hasErrorLabel = parts.error != nil
        switch parts.role {
        case .textInput:
            let entry = Entry(existing: parts.input)
            root = entry
            bindEntry(entry)
        case .toggle where quire_is_a(parts.input, gtk_switch_get_type()) != 0:
            let toggle = Switch(existing: parts.input)
            root = toggle
            bindSwitch(toggle)
        case .toggle:
            let check = CheckButton(existing: parts.input)
            root = check
            checkHandler = check.onToggled { [weak self] in
                guard let self else { return }
                self.host?.send(.tap(.field(self.id)))
                // The session's answer sets the box, whatever the click did to it.
                if let isOn = self.shown?.isOn { check.withBlocked(self.checkHandler) { check.isOn = isOn } }
            }
            self.check = check
        default:
            let button = Button(existing: parts.input)
            root = button
            let valueLabel = Label()
            button.setChild(valueLabel)
            bindButton(button, valueLabel: valueLabel)
        }
        update(field)
    }

    private func bindEntry(_ entry: Entry) {
        self.entry = entry
        // The entry's GtkText (the GtkEditable delegate) edits; each change is an `edit` the
        // session decides (EntryEditing).
        if let text = entry.delegate, let host {
            editing = EntryEditing(field: id, editable: Editable(text), host: host)
        }
        let focus = FocusController()
        focus.onEnter { [weak self] in self?.focusEntered() }
        entry.addController(focus)
        entryFocus = focus
        // A click into an entry that has keyboard focus but is not first responder (where a
        // refused move put it) makes it first responder too.
        let click = ClickGesture()
        click.propagationPhase = GTK_PHASE_CAPTURE
        click.onPressed { [weak self] _, _, _ in
            guard let self, let host = self.host, host.session.focusedField != self.id else { return }
            host.send(.tap(.field(self.id)))
        }
        entry.addController(click)
        entryClick = click
    }

    private var entryClick: ClickGesture?

    /// A layout's field appears and disappears with `visibleIf`: its widgets are shown or hidden.
    func setShown(_ visible: Bool) {
        root.isVisible = visible
        if hasLabel { label.isVisible = visible }
        if hasErrorLabel && !visible { errorLabel.isVisible = false }
        if hasErrorLabel && visible { errorLabel.isVisible = shown?.error != nil }
    }

    private func bindSwitch(_ toggle: Switch) {
        toggleHandler = toggle.onStateSet { [weak self] _ in
            guard let self else { return true }
            self.host?.send(.tap(.field(self.id)))
            return true  // the session's answer sets the switch (in `update`)
        }
        self.toggle = toggle
    }

    /// The field's own widget, where keyboard focus rests on it: the entry, the value button
    /// (without opening its picker), the switch or check button.
    var ownWidget: Widget? { entry ?? valueButton ?? toggle ?? check }

    private func bindButton(_ button: Button, valueLabel: Label) {
        // A long value (an option's label) is cut with an ellipsis: the row keeps fitting a
        // narrow window (docs/gtk-shell.md, "Window sizes"); the picker shows it whole.
        valueLabel.setEllipsize(true)
        // Keyboard focus may rest on it (a picker closed with Done); a click leaves focus where
        // the core puts it.
        button.focusOnClick = false
        button.isFocusable = true
        button.onClicked { [weak self] in
            guard let self else { return }
            self.host?.send(.tap(.field(self.id)))
        }
        valueButton = button
        self.valueLabel = valueLabel
    }

    private var entryFocus: FocusController?

    /// A click on the field as a user makes it: the entry takes the keyboard focus, the value
    /// button is clicked, the switch flips. False when the field cannot be reached (insensitive)
    /// or the click would not reach the session (the entry has the focus already).
    func activate() -> Bool {
        guard root.isSensitive else { return false }
        if let entry {
            if entry.containsFocus { return false }
            entry.grabFocus()
            return true
        }
        if let valueButton {
            quire_signal_emit(valueButton.pointer, "clicked")
            return true
        }
        if let toggle {
            toggle.isOn = !toggle.isOn
            return true
        }
        if let check {
            check.isOn = !check.isOn
            return true
        }
        return false
    }

    /// Text typed into the entry at its end, as GTK inserts typing at the cursor (a replay's
    /// `type`; its newlines are the window's Return, sent by the caller).
    func typeIntoEntry(_ text: String) -> Bool {
        guard let entry, entry.containsFocus else { return false }
        var position = Int32(entry.text.unicodeScalars.count)
        entry.cursorPosition = position
        gtk_editable_insert_text(quire_editable(entry.pointer), text, -1, &position)
        return true
    }

    /// A range of the entry replaced as a user does it (a replay's `edit`): the range selected,
    /// then typed over (or deleted).
    func editEntry(from: Int, to: Int, _ text: String) -> Bool {
        guard let entry, entry.containsFocus else { return false }
        let editable = quire_editable(entry.pointer)
        let length = entry.text.unicodeScalars.count
        guard to <= length else {
            // Past the end: the session says so (outOfRange), as it would to any front.
            host?.send(.edit(from: from, to: to, text: text))
            return true
        }
        if from < to {
            gtk_editable_select_region(editable, Int32(from), Int32(to))
            gtk_editable_delete_text(editable, Int32(from), Int32(to))
        }
        if text.isEmpty {
            editing?.sendHeldDeletion()
            if from == to { host?.send(.edit(from: from, to: to, text: text)) }
        } else {
            var position = Int32(from)
            gtk_editable_insert_text(editable, text, -1, &position)
        }
        return true
    }

    /// The keyboard focus entered the entry (a click, or GTK's own focus navigation): the field
    /// becomes first responder, unless it already is.
    private func focusEntered() {
        guard let host, !host.isPlacingFocus, host.session.focusedField != id else { return }
        host.send(.tap(.field(id)))
    }

    /// What assistive technology reads of the field's own widget: `required`, and with a revealed
    /// error `invalid` plus a described-by relation to the error label; its description is the
    /// core's (`accessibleDescription`: the error, else "Required" for a required field). A
    /// layout without an error label describes the input by the text alone.
    private func updateAccessibility(_ field: FieldPresentation, old: FieldPresentation?) {
        guard let widget = ownWidget else { return }
        if old?.required != field.required { widget.setAccessibleRequired(field.required) }
        if old == nil || old?.error != field.error {
            widget.setAccessibleInvalid(field.error != nil)
            if let error = field.error, hasErrorLabel {
                // The label's text is set before the relation names it.
                errorLabel.text = error
                widget.setAccessibleDescribedBy(errorLabel, text: error)
            } else {
                widget.setAccessibleDescribedBy(nil, text: nil)
            }
        }
        if old == nil || old?.accessibleDescription != field.accessibleDescription || old?.error != field.error {
            if let description = field.accessibleDescription {
                widget.setAccessibleDescription(description)
            } else {
                quire_accessible_reset_description(widget.pointer)
            }
        }
    }

    func update(_ field: FieldPresentation) {
        guard field != shown else { return }
        let old = shown
        shown = field
        if old?.label != field.label {
            if !bound {
                arrange(stacked: field.stacksLabel)
                // A long label is at least `longLabelMinimumCharacters` wide: GTK 4.8 measures a
                // wrapping label's minimum width by laying its text out at width 0, one character
                // a line (30–80 ms for 2,000 characters, again after every resize), and the window
                // then asks its height at that width.
                gtk_label_set_width_chars(quire_label(label.pointer), field.stacksLabel ? Self.longLabelMinimumCharacters : -1)
            }
            label.text = field.label
        }
        root.isSensitive = field.enabled
        if let entry {
            // While an edit is applied the widget makes the change itself (its cursor and undo
            // history stay its own); otherwise the entry shows what the session holds.
            if !entry.text.unicodeScalars.elementsEqual(field.display.unicodeScalars) && editing?.isApplying != true {
                if let editing {
                    editing.withoutEvents { entry.text = field.display }
                } else {
                    entry.text = field.display
                }
                entry.cursorPosition = -1
            }
            entry.placeholder = field.placeholder
            entry.setAccessibleLabel(field.label)
            entry.setCSSClass("error", field.error != nil)
        }
        if let valueButton, let valueLabel {
            valueLabel.text = field.display.isEmpty ? field.placeholder : field.display
            valueLabel.setCSSClass("dim-label", field.display.isEmpty)
            valueButton.setCSSClass("quire-editing", field.focused)
            valueButton.setCSSClass("error", field.error != nil)
            valueButton.setAccessibleLabel("\(field.label): \(valueLabel.text)")
        }
        if let toggle, let isOn = field.isOn {
            toggle.withBlocked(toggleHandler) { toggle.isOn = isOn }
            toggle.setAccessibleLabel(field.label)
        }
        if let check, let isOn = field.isOn {
            check.withBlocked(checkHandler) { check.isOn = isOn }
            check.setAccessibleLabel(field.label)
        }
        updateAccessibility(field, old: old)
        if bound {
            // A layout's error label shows while there is an error; without one, the input's
            // tooltip says it.
            if hasErrorLabel {
                errorLabel.text = field.error ?? ""
                errorLabel.isVisible = field.error != nil
            } else {
                root.tooltip = field.error
            }
            root.setCSSClass("error", field.error != nil)
            return
        }
        if let error = field.error {
            errorLabel.text = error
            errorRevealer.isVisible = true
            errorRevealer.revealed = true
        } else {
            errorRevealer.revealed = false
        }
    }
}
