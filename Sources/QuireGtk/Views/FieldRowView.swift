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
    let kind: String
    let root: Box
    private let label = Label()
    private let errorLabel = Label()
    private let errorRevealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN, milliseconds: 150)
    private weak var host: SessionHost?

    // One of these, by kind.
    private(set) var entry: Entry?
    private var entryText: ObjectRef?
    private var insertHandler: SignalHandler?
    private var deleteHandler: SignalHandler?
    private var valueButton: Button?
    private var valueLabel: Label?
    private var toggle: Switch?
    private var toggleHandler: SignalHandler?

    private var shown: FieldPresentation?

    init(_ field: FieldPresentation, host: SessionHost) {
        id = field.id
        kind = field.kind
        self.host = host
        root = Box(GTK_ORIENTATION_VERTICAL, spacing: 4)
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
        errorRevealer.onPointer("notify::child-revealed") { [weak self] _ in
            guard let self, !self.errorRevealer.revealed, !self.errorRevealer.childRevealed else { return }
            self.errorRevealer.isVisible = false
        }

        switch field.kind {
        case "text":
            root.append(label)
            let entry = Entry()
            entry.hexpand = true
            root.append(entry)
            self.entry = entry
            // Typing is intercepted on the entry's GtkText (the GtkEditable delegate): the text
            // becomes a `type` event and the entry shows what the session then holds.
            if let text = entry.delegate {
                let owner = ObjectRef(text.pointer, .retain)
                insertHandler = owner.onInsertText { [weak self, weak owner] inserted in
                    owner?.stopEmission("insert-text")
                    guard let self else { return nil }
                    self.host?.send(.type(inserted))
                    // GtkText puts the cursor where this says once the signal returns: the end,
                    // where the session inserts.
                    return self.entry.map { Int32($0.text.unicodeScalars.count) }
                }
                // Deletions other than BackSpace (which the window turns into a key event) have
                // no event in the contract: they are refused, so entry and session stay equal.
                deleteHandler = owner.onSize("delete-text") { [weak owner] _, _ in
                    owner?.stopEmission("delete-text")
                }
                entryText = owner
            }
            let focus = FocusController()
            focus.on("enter") { [weak self] in self?.focusEntered() }
            entry.addController(focus)
            entryFocus = focus
        case "toggle":
            let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
            label.hexpand = true
            line.append(label)
            let toggle = Switch()
            toggle.valign = GTK_ALIGN_CENTER
            toggleHandler = toggle.onBool("state-set") { [weak self] _ in
                guard let self else { return true }
                self.host?.send(.tap(.field(self.id)))
                return true  // the session's answer sets the switch (in `update`)
            }
            line.append(toggle)
            self.toggle = toggle
            root.append(line)
        default:  // duration, choice: a value button that toggles the picker
            let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
            label.hexpand = true
            line.append(label)
            let button = Button(label: "")
            let valueLabel = Label()
            button.setChild(valueLabel)
            button.focusOnClick = false
            button.isFocusable = false
            button.addCSSClass("quire-value-button")
            button.onClicked { [weak self] in
                guard let self else { return }
                self.host?.send(.tap(.field(self.id)))
            }
            line.append(button)
            valueButton = button
            self.valueLabel = valueLabel
            root.append(line)
        }
        root.append(errorRevealer)
        update(field)
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
        return false
    }

    /// Text typed into the entry, as GTK inserts it (at the cursor, which stays at the end).
    func typeIntoEntry(_ text: String) -> Bool {
        guard let entry, entry.containsFocus else { return false }
        var position = Int32(entry.text.unicodeScalars.count)
        gtk_editable_insert_text(quire_editable(entry.pointer), text, -1, &position)
        return true
    }

    /// The keyboard focus entered the entry (a click, or GTK's own focus navigation): the field
    /// becomes first responder, unless it already is.
    private func focusEntered() {
        guard let host, host.session.focusedField != id else { return }
        host.send(.tap(.field(id)))
    }

    func update(_ field: FieldPresentation) {
        guard field != shown else { return }
        let old = shown
        shown = field
        if old?.label != field.label { label.text = field.label }
        root.isSensitive = field.enabled
        if let entry {
            if entry.text != field.display {
                entryText?.withBlocked(insertHandler) {
                    entryText?.withBlocked(deleteHandler) { entry.text = field.display }
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
        if let error = field.error {
            errorLabel.text = error
            errorRevealer.isVisible = true
            errorRevealer.revealed = true
        } else {
            errorRevealer.revealed = false
        }
    }
}
