import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// A text field's entry, edited by GTK and decided by the session. Every change the widget is
/// about to make — typing at the cursor, a selection typed over, a paste, Delete, Ctrl+BackSpace,
/// undo, an input method's commit — becomes an `edit` event (Unicode-scalar offsets, as
/// GtkEditable counts characters). An edit the session takes is let through, so the cursor,
/// the selection and the undo history stay GTK's own; one it refuses (over `maxLength`, or no
/// first responder) is stopped, and the entry goes on showing the text as it was.
///
/// Typing over a selection, pasting over it and committing over it reach GtkEditable as a
/// deletion of the selection followed by an insertion at the same place. The deletion is held
/// back until the insertion comes, so the session judges the two as one edit: a replacement
/// that would be too long leaves the selected text where it was. A deletion of the selection
/// with nothing after it (Delete, Cut) is sent at the next turn of the main loop, before
/// anything is drawn.
@MainActor
final class EntryEditing {
    let field: String
    private let editable: Editable
    private weak var host: SessionHost?
    private var insertHandler: SignalHandler?
    private var deleteHandler: SignalHandler?
    private var preeditHandler: SignalHandler?
    private var activateHandler: SignalHandler?
    private var heldDeletion: (start: Int32, end: Int32)?
    private var flush: MainLoop.IdleCall?
    /// True while an edit is being decided and applied: the view must not set the entry's text
    /// from the session then (the widget is about to make the same change itself).
    private(set) var isApplying = false

    init(field: String, editable: Editable, host: SessionHost) {
        self.field = field
        self.editable = editable
        self.host = host
        insertHandler = editable.onInsertText { [weak self] text, position in
            self?.inserting(text, at: &position)
        }
        deleteHandler = editable.onDeleteText { [weak self] start, end in
            self?.deleting(from: start, to: end)
        }
        // Return that the input method left (it commits nothing, or draws no pre-edit here): the
        // session's Return.
        activateHandler = editable.onActivate { [weak self] in
            guard let self, let host = self.host, host.session.focusedField == self.field else { return }
            host.send(.key(.return))
        }
        // An input method's composition: the keys are its own until it commits (one insertion,
        // so one `edit`) or cancels.
        preeditHandler = editable.onPreeditChanged { [weak self] preedit in
            guard let self, let host = self.host else { return }
            if !preedit.isEmpty {
                host.composingField = self.field
            } else if host.composingField == self.field {
                host.composingField = nil
            }
        }
    }

    /// Runs `body` (a view setting the text from the session) without hearing the change.
    func withoutEvents(_ body: () -> Void) {
        editable.withBlocked(insertHandler) { editable.withBlocked(deleteHandler) { body() } }
    }

    private var text: String { String(cString: gtk_editable_get_text(quire_editable(editable.pointer))) }

    private var selection: (start: Int32, end: Int32)? {
        var start: Int32 = 0
        var end: Int32 = 0
        guard gtk_editable_get_selection_bounds(quire_editable(editable.pointer), &start, &end) != 0 else { return nil }
        return (min(start, end), max(start, end))
    }

    private func inserting(_ inserted: String, at position: inout Int32) {
        if let held = heldDeletion, position == held.start || position == held.end {
            heldDeletion = nil
            flush = nil
            guard decide(from: held.start, to: held.end, inserted) else { return editable.stopEmission("insert-text") }
            // Taken: the held deletion is made now (GtkText records it for undo), and the
            // insertion goes on where the selection began.
            withoutEvents { gtk_editable_delete_text(quire_editable(editable.pointer), held.start, held.end) }
            position = held.start
            return
        }
        sendHeldDeletion()
        if !decide(from: position, to: position, inserted) { editable.stopEmission("insert-text") }
    }

    private func deleting(from start: Int32, to end: Int32) {
        let length = Int32(text.unicodeScalars.count)
        let end = end < 0 ? length : min(end, length)
        guard start < end else { return }
        sendHeldDeletion()
        if let selection, selection.start == start, selection.end == end {
            // Perhaps the first half of a replacement: held until the insertion (or the next
            // turn of the loop) says.
            editable.stopEmission("delete-text")
            heldDeletion = (start, end)
            flush = MainLoop.idle(priority: G_PRIORITY_HIGH) { [weak self] in self?.sendHeldDeletion() }
            return
        }
        if !decide(from: start, to: end, "") { editable.stopEmission("delete-text") }
    }

    /// A held deletion that no insertion followed: sent alone, and made if the session took it.
    func sendHeldDeletion() {
        guard let held = heldDeletion else { return }
        heldDeletion = nil
        flush = nil
        if decide(from: held.start, to: held.end, "") {
            withoutEvents { gtk_editable_delete_text(quire_editable(editable.pointer), held.start, held.end) }
        }
    }

    /// Sends the edit; whether the session now holds the text the widget will show once it makes
    /// the change itself.
    private func decide(from start: Int32, to end: Int32, _ replacement: String) -> Bool {
        guard let host else { return false }
        let current = text
        let scalars = current.unicodeScalars
        guard start >= 0, end >= start, Int(end) <= scalars.count else { return false }
        let lower = scalars.index(scalars.startIndex, offsetBy: Int(start))
        let upper = scalars.index(lower, offsetBy: Int(end - start))
        var expected = String(scalars[..<lower])
        expected.append(replacement)
        expected.unicodeScalars.append(contentsOf: scalars[upper...])
        isApplying = true
        defer { isApplying = false }
        // Keyboard focus was put on the entry without making it first responder (the field a
        // refused move revealed an error on): typing there focuses it first.
        if host.session.focusedField != field { host.send(.tap(.field(field))) }
        host.send(.edit(from: Int(start), to: Int(end), text: replacement))
        guard host.session.focusedField == field, case .string(let held)? = host.session.value(of: field) else { return false }
        // Scalar by scalar: `==` on String treats é and e + U+0301 as one text, but the entry
        // and the session count (and edit) scalars.
        return held.unicodeScalars.elementsEqual(expected.unicodeScalars)
    }
}
