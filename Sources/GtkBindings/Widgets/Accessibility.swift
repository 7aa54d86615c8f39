import CGtk
import CGtkShim

/// What assistive technology reads of a widget beyond its label: GtkAccessible's states,
/// properties and relations (through the C shim's non-variadic wrappers), and announcements.
///
/// GTK 4.8's AT-SPI bridge maps them: `required` → STATE_REQUIRED, `invalid` →
/// STATE_INVALID (a defunct object to Orca: not set before GTK 4.10, see the shim), `hidden` → neither VISIBLE nor SHOWING (and the widget left out of its
/// parent's children), `selected` → STATE_SELECTED, `checked` → STATE_CHECKED, described-by →
/// RELATION_DESCRIBED_BY.
@MainActor
extension Widget {
    /// `GTK_ACCESSIBLE_PROPERTY_REQUIRED`: a value must be given before the flow goes on.
    public func setAccessibleRequired(_ required: Bool) { quire_accessible_set_required(pointer, required ? 1 : 0) }

    /// `GTK_ACCESSIBLE_STATE_INVALID`: the value is refused (an error is shown). Not set before
    /// GTK 4.10, whose AT-SPI STATE_INVALID makes Orca 43 skip the widget as a zombie.
    public func setAccessibleInvalid(_ invalid: Bool) { quire_accessible_set_invalid(pointer, invalid ? 1 : 0) }

    /// `GTK_ACCESSIBLE_STATE_HIDDEN`: left out of the accessibility tree while the widget is still
    /// laid out and drawn (a page the pager keeps built beside the window).
    public func setAccessibleHidden(_ hidden: Bool) { quire_accessible_set_hidden(pointer, hidden ? 1 : 0) }

    /// `GTK_ACCESSIBLE_STATE_SELECTED`.
    public func setAccessibleSelected(_ selected: Bool) { quire_accessible_set_selected(pointer, selected ? 1 : 0) }

    /// `GTK_ACCESSIBLE_STATE_CHECKED`.
    public func setAccessibleChecked(_ checked: Bool) { quire_accessible_set_checked(pointer, checked ? 1 : 0) }

    /// `GTK_ACCESSIBLE_RELATION_DESCRIBED_BY` to `other` (an error label), or none; the text is
    /// also the accessible description (GTK 4.8 does not derive one from the relation).
    public func setAccessibleDescribedBy(_ other: Widget?, text: String?) {
        quire_accessible_set_described_by(pointer, other?.pointer)
        if let text, other != nil {
            quire_accessible_set_description(pointer, text)
        } else {
            quire_accessible_reset_description(pointer)
        }
    }

    /// The value a range (slider, spin button) reports: now within min…max, and its text.
    public func setAccessibleValue(min: Double, max: Double, now: Double, text: String) {
        quire_accessible_set_value(pointer, min, max, now, text)
    }

    /// Speaks `message` (politely) where GTK has `gtk_accessible_announce` (4.14 and later,
    /// decided when the shim is compiled); elsewhere the name changes carry the news.
    public func announce(_ message: String) { quire_accessible_announce(pointer, message) }

    /// Makes a screen reader speak `message`, assertive or polite: `gtk_accessible_announce` where
    /// GTK has it; before GTK 4.14, for a moment the description of the widget with keyboard focus
    /// in this widget's window (the window when none has it), which Orca 43 speaks.
    public func announce(_ message: String, assertive: Bool) {
        quire_announce(pointer, message, assertive ? 1 : 0)
    }

    /// `announce` from an idle, in the window this widget is in now, wherever keyboard focus is
    /// by then (this widget may have left the window meanwhile).
    public func announceLater(_ message: String, assertive: Bool) {
        quire_announce_later(pointer, message, assertive ? 1 : 0)
    }

    /// Whether `announce` speaks with the GTK built against.
    public static var canAnnounce: Bool { quire_accessible_can_announce() != 0 }
}

extension DrawingArea {
    /// Puts an invisible stand-in with `role` inside this drawn control and returns it: GTK 4.8's
    /// AT-SPI bridge gives the Value interface (now, min, max) only to range-like widget types, not
    /// to a drawing area whatever its role. The stand-in covers the area, takes no pointer input
    /// (the area's gestures keep working) and takes keyboard focus and the accessible name and
    /// value in the area's stead; the area keeps its content size and drawing.
    public func attachValueProxy(role: GtkAccessibleRole) -> Widget {
        Widget(existing: UnsafeMutableRawPointer(quire_value_area_attach(pointer, role)!))
    }
}

/// Widgets made with an accessible role other than their class's (the role is construct-only).
@MainActor
public enum AccessibleWidgets {
    /// A GtkButton that reports `role` (a list item, a radio button).
    public static func button(role: GtkAccessibleRole) -> Button {
        Button(existing: UnsafeMutableRawPointer(quire_widget_new_with_role(gtk_button_get_type(), role)!))
    }

    /// A GtkBox that reports `role` (a list).
    public static func box(_ orientation: GtkOrientation, spacing: Int32, role: GtkAccessibleRole) -> Box {
        let box = Box(existing: UnsafeMutableRawPointer(quire_widget_new_with_role(gtk_box_get_type(), role)!))
        gtk_orientable_set_orientation(OpaquePointer(box.pointer), orientation)
        gtk_box_set_spacing(quire_box(box.pointer), spacing)
        return box
    }
}
