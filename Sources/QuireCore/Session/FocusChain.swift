/// The first responder and its input view's state (UIKit's responder chain, one link long): which
/// field edits, the picker's draft, the value before editing, and the selected wheel.
///
/// Kept as plain fields rather than an optional struct, so taking and resigning focus write in
/// place. It changes only its own fields; who becomes first responder, and what a resign commits,
/// is decided by the session (Session+Focus.swift, Session+KeyboardFocus.swift).
struct FocusChain: Sendable, Equatable {
    /// The first responder's field; -1 for none.
    private(set) var field = -1
    /// The picker's draft (`.duration` or `.choice`); `.null` for text and with no first responder.
    var draft = FieldValue.null
    /// The value before editing; `.null` with no first responder.
    private(set) var original = FieldValue.null
    /// The selected wheel of a duration picker; 0 with no first responder.
    var wheel = 0

    /// Whether a field is first responder.
    var hasInput: Bool { field >= 0 }

    /// The first responder and its input view's state, built from the fields above.
    var input: InputState? {
        get {
            guard field >= 0 else { return nil }
            return InputState(field: field, draft: draft, original: original, selectedWheel: wheel)
        }
        set {
            guard let newValue else { return clear() }
            field = newValue.field
            draft = newValue.draft
            original = newValue.original
            wheel = newValue.selectedWheel
        }
    }

    /// `field` becomes first responder, editing from `original` with the picker's `draft`.
    mutating func take(_ field: Int, draft: FieldValue, original: FieldValue) {
        self.field = field
        self.draft = draft
        self.original = original
        wheel = 0
    }

    /// No first responder: every field back to its resting value, so equal sessions compare
    /// equal field by field.
    mutating func clear() {
        field = -1
        draft = .null
        original = .null
        wheel = 0
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
}
