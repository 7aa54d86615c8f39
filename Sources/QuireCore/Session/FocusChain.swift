/// The first responder and its input view's state (UIKit's responder chain, one link long): which
/// field edits, the picker's draft, the value before editing, and the selected wheel.
///
/// Kept as plain fields rather than an optional struct, so taking and resigning focus write in
/// place. Its fields change only through its methods; who becomes first responder, and what a
/// resign commits, is decided by the session (Session+Focus.swift, Session+KeyboardFocus.swift).
struct FocusChain: Sendable, Equatable {
    /// The first responder's field; -1 for none.
    private(set) var field = -1
    /// The picker's draft (`.duration` or `.choice`); `.null` for text and with no first responder.
    private(set) var draft = FieldValue.null
    /// Whether the user changed the draft while the picker was open (a spin, a select, an arrow
    /// or page key), even back to where it began: a draft nobody changed is no answer for a
    /// field that has none (CONTRACT §6.5).
    private(set) var draftChanged = false
    /// The value before editing; `.null` with no first responder.
    private(set) var original = FieldValue.null
    /// The selected wheel of a duration picker; 0 with no first responder.
    private(set) var wheel = 0

    /// Where the first responder's last `edit` ended, to find the next one's offsets from there.
    private(set) var editPosition = EditPosition()

    /// Whether a field is first responder.
    var hasInput: Bool { field >= 0 }

    /// The first responder and its input view's state, built from the fields above.
    var input: InputState? {
        guard field >= 0 else { return nil }
        return InputState(field: field, draft: draft, original: original, selectedWheel: wheel, draftChanged: draftChanged)
    }

    /// A snapshot's first responder and input view, as they were (nil: none).
    mutating func restore(_ input: InputState?) {
        guard let input else { return clear() }
        field = input.field
        draft = input.draft
        original = input.original
        wheel = input.selectedWheel
        draftChanged = input.draftChanged
    }

    /// The user turned or picked the draft: it becomes `draft` (perhaps the same value). Whether
    /// the value changed.
    mutating func changeDraft(to draft: FieldValue) -> Bool {
        draftChanged = true
        guard self.draft != draft else { return false }
        self.draft = draft
        return true
    }

    /// A duration picker's wheel `wheel` is selected (Left, Right).
    mutating func selectWheel(_ wheel: Int) {
        self.wheel = wheel
    }

    /// Moves the draft out (a resign reads it once), leaving `.null`.
    mutating func takeDraft() -> FieldValue {
        var taken = FieldValue.null
        swap(&taken, &draft)
        return taken
    }

    /// `field` becomes first responder, editing from `original` with the picker's `draft`.
    mutating func take(_ field: Int, draft: FieldValue, original: FieldValue) {
        self.field = field
        self.draft = draft
        self.original = original
        wheel = 0
        draftChanged = false
        editPosition = EditPosition()
    }

    /// No first responder: every field back to its resting value, so equal sessions compare
    /// equal field by field.
    mutating func clear() {
        field = -1
        draft = .null
        original = .null
        wheel = 0
        draftChanged = false
        editPosition = EditPosition()
    }

    /// The first responder's last `edit` ended at scalar `scalar`, byte `byte` of its text; nil:
    /// its text changed otherwise (typing, BackSpace).
    mutating func editEnded(atScalar scalar: Int, byte: Int) {
        editPosition = EditPosition(scalar: scalar, byte: byte)
    }

    mutating func forgetEditPosition() {
        editPosition = EditPosition()
    }
}

/// The first responder and its input view's state.
struct InputState: Sendable, Hashable {
    var field: Int
    /// The picker's draft (`.duration` or `.choice`); `.null` for text.
    var draft: FieldValue
    /// The value before editing (restored by cancel/Escape).
    var original: FieldValue
    /// The selected wheel of a duration picker (an index into its components).
    var selectedWheel: Int
    /// Whether the user changed the draft while it was open (`FocusChain.draftChanged`).
    var draftChanged: Bool
}

/// A place in the first responder's text where an `edit` ended: its Unicode-scalar offset and its
/// UTF-8 offset. It only tells the next edit where to start counting, so it never makes two
/// sessions differ: any two compare equal.
struct EditPosition: Sendable, Equatable {
    var scalar = -1
    var byte = 0

    static func == (_: EditPosition, _: EditPosition) -> Bool { true }
}
