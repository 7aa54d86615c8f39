import CGtk
import CGtkShim

/// An owned GtkEventController (gestures, key and scroll controllers). Controllers are plain
/// GObjects: their constructors return a full reference.
@MainActor
open class Controller: ObjectRef {
    public init(new pointer: OpaquePointer?) {
        super.init(UnsafeMutableRawPointer(pointer!), .full)
    }

    public var controller: OpaquePointer { quire_event_controller(pointer)! }

    public var propagationPhase: GtkPropagationPhase {
        get { gtk_event_controller_get_propagation_phase(quire_event_controller(pointer)) }
        set { gtk_event_controller_set_propagation_phase(quire_event_controller(pointer), newValue) }
    }

    /// The time (ms, GDK's clock) of the event being handled.
    public var currentEventTime: UInt32 { gtk_event_controller_get_current_event_time(quire_event_controller(pointer)) }

    /// The modifiers of the event being handled.
    public var currentModifiers: GdkModifierType {
        gtk_event_controller_get_current_event_state(quire_event_controller(pointer))
    }
}

/// A GtkGesture: `cancel (sequence)` when another gesture claims the pointer sequence.
@MainActor
open class Gesture: Controller {
    public override init(new pointer: OpaquePointer?) {
        precondition(pointer.map { quire_is_a(UnsafeMutableRawPointer($0), gtk_gesture_get_type()) != 0 } ?? false, "not a GtkGesture")
        super.init(new: pointer)
    }
}

/// GtkGestureDrag: `drag-begin (x, y)`, `drag-update (dx, dy)`, `drag-end (dx, dy)`.
@MainActor
public final class DragGesture: Gesture {
    public init() {
        super.init(new: gtk_gesture_drag_new())
        quire_gesture_set_touch_and_mouse(pointer)
    }

    /// Claims the pointer sequence (other gestures, e.g. a button's click, are cancelled).
    public func claim() { gtk_gesture_set_state(quire_gesture(pointer), GTK_EVENT_SEQUENCE_CLAIMED) }
    /// Gives the sequence up (the drag ends without effect).
    public func deny() { gtk_gesture_set_state(quire_gesture(pointer), GTK_EVENT_SEQUENCE_DENIED) }

    public var button: UInt32 {
        get { gtk_gesture_single_get_button(quire_gesture_single(pointer)) }
        set { gtk_gesture_single_set_button(quire_gesture_single(pointer), newValue) }
    }
}

/// GtkGestureClick: `pressed (n, x, y)`, `released (n, x, y)`.
@MainActor
public final class ClickGesture: Gesture {
    public init() {
        super.init(new: gtk_gesture_click_new())
    }
}

/// GtkEventControllerKey: `key-pressed (keyval, keycode, state) → handled`.
@MainActor
public final class KeyController: Controller {
    public init() {
        super.init(new: gtk_event_controller_key_new())
    }
}

/// GtkEventControllerScroll: `scroll-begin`, `scroll (dx, dy) → handled`, `scroll-end`.
@MainActor
public final class ScrollController: Controller {
    public init(_ flags: GtkEventControllerScrollFlags) {
        super.init(new: gtk_event_controller_scroll_new(flags))
    }

    /// Whether the scroll being handled is a discrete wheel click (as opposed to a touchpad's
    /// continuous deltas, which come between `scroll-begin` and `scroll-end`).
    public var unitIsWheel: Bool {
        gtk_event_controller_scroll_get_unit(quire_event_controller_scroll(pointer)) == GDK_SCROLL_UNIT_WHEEL
    }
}
