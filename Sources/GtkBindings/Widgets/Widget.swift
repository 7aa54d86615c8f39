import CGtk
import CGtkShim

/// An owned GtkWidget. Subclasses add the setters of their widget type; nothing here keeps state
/// of its own beyond what GTK holds.
@MainActor
open class Widget: ObjectRef {
    /// Wraps a new widget (sinks its floating reference).
    public init(new pointer: UnsafeMutablePointer<GtkWidget>?) {
        super.init(UnsafeMutableRawPointer(pointer!), .sink)
    }

    public init(new pointer: OpaquePointer?) {
        super.init(UnsafeMutableRawPointer(pointer!), .sink)
    }

    /// Wraps a widget made elsewhere (a GtkBuilder layout), with a reference of its own.
    public init(existing pointer: UnsafeMutableRawPointer) {
        super.init(pointer, .sink)
    }

    public var widget: UnsafeMutablePointer<GtkWidget> { quire_widget(pointer) }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(widget, name) }
    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }
    public func setCSSClass(_ name: String, _ on: Bool) {
        if on { addCSSClass(name) } else { removeCSSClass(name) }
    }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { if newValue != isVisible { gtk_widget_set_visible(widget, newValue ? 1 : 0) } }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { if newValue != isSensitive { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) } }
    }

    public var isFocusable: Bool {
        get { gtk_widget_get_focusable(widget) != 0 }
        set { gtk_widget_set_focusable(widget, newValue ? 1 : 0) }
    }

    public var focusOnClick: Bool {
        get { gtk_widget_get_focus_on_click(widget) != 0 }
        set { gtk_widget_set_focus_on_click(widget, newValue ? 1 : 0) }
    }

    public var canTarget: Bool {
        get { gtk_widget_get_can_target(widget) != 0 }
        set { gtk_widget_set_can_target(widget, newValue ? 1 : 0) }
    }

    public var hexpand: Bool {
        get { gtk_widget_get_hexpand(widget) != 0 }
        set { gtk_widget_set_hexpand(widget, newValue ? 1 : 0) }
    }

    public var vexpand: Bool {
        get { gtk_widget_get_vexpand(widget) != 0 }
        set { gtk_widget_set_vexpand(widget, newValue ? 1 : 0) }
    }

    public var halign: GtkAlign {
        get { gtk_widget_get_halign(widget) }
        set { gtk_widget_set_halign(widget, newValue) }
    }

    public var valign: GtkAlign {
        get { gtk_widget_get_valign(widget) }
        set { gtk_widget_set_valign(widget, newValue) }
    }

    public var opacity: Double {
        get { gtk_widget_get_opacity(widget) }
        set { if newValue != opacity { gtk_widget_set_opacity(widget, newValue) } }
    }

    public func setMargins(top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
        gtk_widget_set_margin_top(widget, top)
        gtk_widget_set_margin_bottom(widget, bottom)
        gtk_widget_set_margin_start(widget, start)
        gtk_widget_set_margin_end(widget, end)
    }

    public func setSizeRequest(width: Int32 = -1, height: Int32 = -1) {
        gtk_widget_set_size_request(widget, width, height)
    }

    public var width: Int32 { gtk_widget_get_width(widget) }
    public var height: Int32 { gtk_widget_get_height(widget) }

    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(widget, newValue) }
    }

    public func grabFocus() { _ = gtk_widget_grab_focus(widget) }
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }
    /// Whether the keyboard focus is this widget or inside it.
    public var containsFocus: Bool { gtk_widget_has_focus(widget) != 0 || gtk_widget_get_focus_child(widget) != nil }

    public func queueDraw() { gtk_widget_queue_draw(widget) }
    public func queueAllocate() { gtk_widget_queue_allocate(widget) }
    public func queueResize() { gtk_widget_queue_resize(widget) }

    public func setOverflowHidden() { gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN) }

    /// Makes `child` a child of this widget directly (containers with a custom layout).
    public func adopt(_ child: Widget) { gtk_widget_set_parent(child.widget, widget) }
    /// Undoes `adopt`.
    public func release(_ child: Widget) { gtk_widget_unparent(child.widget) }

    public func addController(_ controller: ObjectRef) {
        // gtk_widget_add_controller takes a reference of its own; the Swift owner keeps ours.
        g_object_ref(controller.pointer)
        gtk_widget_add_controller(widget, quire_event_controller(controller.pointer))
    }

    /// Undoes `addController`.
    public func removeController(_ controller: ObjectRef) {
        gtk_widget_remove_controller(widget, quire_event_controller(controller.pointer))
    }

    // Accessibility: GTK 4.8 names unnamed widgets after their type and leaks mnemonic
    // underscores into names, so views set names explicitly.
    public func setAccessibleLabel(_ label: String) { quire_accessible_set_label(pointer, label) }
    public func setAccessibleDescription(_ text: String) { quire_accessible_set_description(pointer, text) }

    /// The accessible role GTK reports for this widget.
    public var accessibleRole: GtkAccessibleRole { gtk_accessible_get_accessible_role(quire_accessible(pointer)) }

    public var name: String {
        get { String(cString: gtk_widget_get_name(widget)) }
        set { gtk_widget_set_name(widget, newValue) }
    }
}

@MainActor
public final class Box: Widget {
    public init(_ orientation: GtkOrientation, spacing: Int32 = 0) {
        super.init(new: gtk_box_new(orientation, spacing))
    }

    public override init(existing pointer: UnsafeMutableRawPointer) {
        super.init(existing: pointer)
    }

    public func append(_ child: Widget) { gtk_box_append(quire_box(pointer), child.widget) }
    public func remove(_ child: Widget) { gtk_box_remove(quire_box(pointer), child.widget) }
    public var homogeneous: Bool {
        get { gtk_box_get_homogeneous(quire_box(pointer)) != 0 }
        set { gtk_box_set_homogeneous(quire_box(pointer), newValue ? 1 : 0) }
    }
}

@MainActor
public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(new: gtk_label_new(text))
    }

    public override init(existing pointer: UnsafeMutableRawPointer) {
        super.init(existing: pointer)
    }

    /// The text as set, when a wrapped label shows it with break opportunities added.
    private var source: String?

    /// Plain text (never markup: text from documents is shown as is). A wrapping label shows long
    /// runs without a break opportunity with zero-width spaces in them (`LineBreaks`), so Pango
    /// lays it out in linear time; its accessible name is the text as set.
    public var text: String {
        get { source ?? String(cString: gtk_label_get_text(quire_label(pointer))) }
        set { if newValue != text { show(newValue) } }
    }

    private func show(_ text: String) {
        let shown = gtk_label_get_wrap(quire_label(pointer)) != 0 ? LineBreaks.breakable(text) : nil
        let wasBroken = source != nil
        source = shown == nil ? nil : text
        gtk_label_set_text(quire_label(pointer), shown ?? text)
        if shown != nil {
            quire_accessible_set_label(pointer, text)
        } else if wasBroken {
            quire_accessible_reset_label(pointer)
        }
    }

    public func setWrap(_ on: Bool = true) {
        let text = self.text
        gtk_label_set_wrap(quire_label(pointer), on ? 1 : 0)
        gtk_label_set_wrap_mode(quire_label(pointer), PANGO_WRAP_WORD_CHAR)
        if !text.isEmpty { show(text) }
    }

    public func setXAlign(_ value: Float) { gtk_label_set_xalign(quire_label(pointer), value) }
    public func setJustify(_ value: GtkJustification) { gtk_label_set_justify(quire_label(pointer), value) }
    public func setMaxWidthChars(_ value: Int32) { gtk_label_set_max_width_chars(quire_label(pointer), value) }
    public func setEllipsize(_ on: Bool) {
        gtk_label_set_ellipsize(quire_label(pointer), on ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
    }
}

@MainActor
public final class Button: Widget {
    public init(label: String) {
        super.init(new: gtk_button_new_with_label(label))
    }

    public init(iconName: String) {
        super.init(new: gtk_button_new_from_icon_name(iconName))
    }

    public override init(existing pointer: UnsafeMutableRawPointer) {
        super.init(existing: pointer)
    }

    public var label: String {
        get { gtk_button_get_label(quire_button(pointer)).map { String(cString: $0) } ?? "" }
        set { if newValue != label { gtk_button_set_label(quire_button(pointer), newValue) } }
    }

    public func setChild(_ child: Widget) { gtk_button_set_child(quire_button(pointer), child.widget) }

    public var hasFrame: Bool {
        get { gtk_button_get_has_frame(quire_button(pointer)) != 0 }
        set { gtk_button_set_has_frame(quire_button(pointer), newValue ? 1 : 0) }
    }
}

@MainActor
public final class Entry: Widget {
    public init() {
        super.init(new: gtk_entry_new())
    }

    /// A GtkEntry or a GtkText made elsewhere (a layout).
    public override init(existing pointer: UnsafeMutableRawPointer) {
        super.init(existing: pointer)
    }

    private var isText: Bool { quire_is_a(pointer, gtk_text_get_type()) != 0 }

    public var text: String {
        get { String(cString: gtk_editable_get_text(quire_editable(pointer))) }
        set { gtk_editable_set_text(quire_editable(pointer), newValue) }
    }

    public var placeholder: String {
        get {
            let text = isText ? gtk_text_get_placeholder_text(quire_text(pointer)) : gtk_entry_get_placeholder_text(quire_entry(pointer))
            return text.map { String(cString: $0) } ?? ""
        }
        set {
            guard newValue != placeholder else { return }
            if isText {
                gtk_text_set_placeholder_text(quire_text(pointer), newValue)
            } else {
                gtk_entry_set_placeholder_text(quire_entry(pointer), newValue)
            }
        }
    }

    public var cursorPosition: Int32 {
        get { gtk_editable_get_position(quire_editable(pointer)) }
        set { gtk_editable_set_position(quire_editable(pointer), newValue) }
    }

    /// The GtkText inside the entry: it emits `insert-text` / `delete-text` (GtkEditable's
    /// delegate), so views intercept typing there.
    /// (A GtkText is its own.)
    public var delegate: Borrowed? {
        if isText { return borrowed }
        return Borrowed(UnsafeMutableRawPointer(gtk_editable_get_delegate(quire_editable(pointer))))
    }
}

/// A GtkEditable that edits its own text (a GtkText, an entry's delegate): `insert-text`,
/// `delete-text` and `changed`. A delegating editable (a GtkEntry) is refused: its edits are
/// emitted on its delegate, so a handler connected to it would never run.
@MainActor
public final class Editable: ObjectRef {
    public init(_ editable: Borrowed) {
        precondition(quire_is_a(editable.pointer, gtk_editable_get_type()) != 0, "\(editable.typeName) is not a GtkEditable")
        precondition(gtk_editable_get_delegate(quire_editable(editable.pointer)) == nil, "\(editable.typeName) delegates its edits")
        super.init(editable.pointer, .retain)
    }
}

@MainActor
public final class Switch: Widget {
    public init() {
        super.init(new: gtk_switch_new())
    }

    public override init(existing pointer: UnsafeMutableRawPointer) {
        super.init(existing: pointer)
    }

    public var isOn: Bool {
        get { gtk_switch_get_active(quire_switch(pointer)) != 0 }
        set {
            if newValue != isOn { gtk_switch_set_active(quire_switch(pointer), newValue ? 1 : 0) }
            if (gtk_switch_get_state(quire_switch(pointer)) != 0) != newValue {
                gtk_switch_set_state(quire_switch(pointer), newValue ? 1 : 0)
            }
        }
    }
}

/// A GtkCheckButton (a layout's toggle).
@MainActor
public final class CheckButton: Widget {
    public override init(existing pointer: UnsafeMutableRawPointer) {
        super.init(existing: pointer)
    }

    public var isOn: Bool {
        get { gtk_check_button_get_active(quire_check_button(pointer)) != 0 }
        set { if newValue != isOn { gtk_check_button_set_active(quire_check_button(pointer), newValue ? 1 : 0) } }
    }
}

/// A GtkSpinButton: `value-changed`.
@MainActor
public final class SpinButton: Widget {}

/// A toplevel GtkWindow (or GtkApplicationWindow).
@MainActor
public final class Window: Widget {}

@MainActor
public final class ProgressBar: Widget {
    public init() {
        super.init(new: gtk_progress_bar_new())
    }

    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(quire_progress_bar(pointer)) }
        set { if newValue != fraction { gtk_progress_bar_set_fraction(quire_progress_bar(pointer), newValue) } }
    }
}

@MainActor
public final class Overlay: Widget {
    public init() {
        super.init(new: gtk_overlay_new())
    }

    public func setChild(_ child: Widget) { gtk_overlay_set_child(quire_overlay(pointer), child.widget) }
    public func addOverlay(_ child: Widget) { gtk_overlay_add_overlay(quire_overlay(pointer), child.widget) }
}

@MainActor
public final class Revealer: Widget {
    public init(_ transition: GtkRevealerTransitionType, milliseconds: UInt32 = 200) {
        super.init(new: gtk_revealer_new())
        gtk_revealer_set_transition_type(quire_revealer(pointer), transition)
        gtk_revealer_set_transition_duration(quire_revealer(pointer), milliseconds)
    }

    public func setChild(_ child: Widget) { gtk_revealer_set_child(quire_revealer(pointer), child.widget) }

    public var revealed: Bool {
        get { gtk_revealer_get_reveal_child(quire_revealer(pointer)) != 0 }
        set { if newValue != revealed { gtk_revealer_set_reveal_child(quire_revealer(pointer), newValue ? 1 : 0) } }
    }

    /// Whether the child is shown now (false once a hiding transition has finished).
    public var childRevealed: Bool { gtk_revealer_get_child_revealed(quire_revealer(pointer)) != 0 }
}

@MainActor
public final class Stack: Widget {
    public init() {
        super.init(new: gtk_stack_new())
        gtk_stack_set_hhomogeneous(quire_stack(pointer), 1)
        gtk_stack_set_vhomogeneous(quire_stack(pointer), 1)
    }

    public func add(_ child: Widget, name: String) { gtk_stack_add_named(quire_stack(pointer), child.widget, name) }
    public var visibleName: String {
        get { gtk_stack_get_visible_child_name(quire_stack(pointer)).map { String(cString: $0) } ?? "" }
        set { if newValue != visibleName { gtk_stack_set_visible_child_name(quire_stack(pointer), newValue) } }
    }
}

/// Children of which one shows at a time, the others hidden (so out of the accessibility tree
/// too): what a GtkStack without transitions does, without the GtkStackPage objects GTK 4.8 puts
/// in the accessibility tree for every page, shown or not, each a panel named "GtkStackPage"
/// (Orca 43 speaks "GtkStackPage panel" when focus enters one).
@MainActor
public final class OneShown: Widget {
    private var children: [(name: String, widget: Widget)] = []
    private let orientation: GtkOrientation

    public init(_ orientation: GtkOrientation = GTK_ORIENTATION_VERTICAL) {
        self.orientation = orientation
        super.init(new: gtk_box_new(orientation, 0))
    }

    public func add(_ child: Widget, name: String) {
        child.isVisible = children.isEmpty
        gtk_box_append(quire_box(pointer), child.widget)
        children.append((name, child))
    }

    /// Gives every child the natural length of the longest along the box (what a homogeneous
    /// GtkStack takes), so that the one shown does not change the length: call it when their
    /// contents change. A hidden widget measures 0, so each is shown while it is measured.
    public func equalizeLengths() {
        var longest: Int32 = 0
        for child in children {
            let shown = child.widget.isVisible
            child.widget.isVisible = true
            gtk_widget_set_size_request(child.widget.widget, -1, -1)
            var minimum: Int32 = 0
            var natural: Int32 = 0
            gtk_widget_measure(child.widget.widget, orientation, -1, &minimum, &natural, nil, nil)
            longest = max(longest, natural)
            child.widget.isVisible = shown
        }
        for child in children {
            if orientation == GTK_ORIENTATION_HORIZONTAL {
                gtk_widget_set_size_request(child.widget.widget, longest, -1)
            } else {
                gtk_widget_set_size_request(child.widget.widget, -1, longest)
            }
        }
    }

    /// The name of the child shown (the first added until another is chosen).
    public var visibleName: String {
        get { children.first { $0.widget.isVisible }?.name ?? "" }
        set {
            guard newValue != visibleName, children.contains(where: { $0.name == newValue }) else { return }
            for child in children { child.widget.isVisible = child.name == newValue }
        }
    }
}

/// A widget drawn with cairo by a Swift closure.
@MainActor
public final class DrawingArea: Widget {
    public typealias Draw = @MainActor (OpaquePointer, Int32, Int32) -> Void

    public init(role: GtkAccessibleRole? = nil) {
        if let role {
            super.init(new: quire_drawing_area_new_with_role(role))
        } else {
            super.init(new: gtk_drawing_area_new())
        }
    }

    /// Sets the draw function (the closure is released by GTK when replaced or when the area goes).
    public func setDraw(_ draw: @escaping Draw) {
        let data = Unmanaged.passRetained(SignalBox(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(
            quire_drawing_area(pointer),
            { _, cr, width, height, data in
                let data = CPointer(data)
                let cr = CPointer(cr)
                MainActor.assumeIsolated {
                    Unmanaged<SignalBox<Draw>>.fromOpaque(data.raw!).takeUnretainedValue().handler(OpaquePointer(cr.raw!), width, height)
                }
            }, data,
            { data in
                Unmanaged<SignalBox<Draw>>.fromOpaque(data!).release()
            })
    }

    public func setContentSize(width: Int32 = -1, height: Int32 = -1) {
        if width >= 0 { gtk_drawing_area_set_content_width(quire_drawing_area(pointer), width) }
        if height >= 0 { gtk_drawing_area_set_content_height(quire_drawing_area(pointer), height) }
    }
}

/// GtkCenterBox: a start, a centre that stays centred, an end.
@MainActor
public final class CenterBox: Widget {
    public init() {
        super.init(new: gtk_center_box_new())
    }

    public func setStart(_ child: Widget) { gtk_center_box_set_start_widget(quire_center_box(pointer), child.widget) }
    public func setCenter(_ child: Widget) { gtk_center_box_set_center_widget(quire_center_box(pointer), child.widget) }
    public func setEnd(_ child: Widget) { gtk_center_box_set_end_widget(quire_center_box(pointer), child.widget) }
}

/// GtkFixed, used as a plain container that can itself hold the keyboard focus (a GtkBox passes
/// focus to its children) and whose layout manager views replace.
@MainActor
public final class Container: Widget {
    public init() {
        super.init(new: gtk_fixed_new())
    }
}
