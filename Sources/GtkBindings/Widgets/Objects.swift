import CGtk
import CGtkShim

/// An owned GtkApplication: `startup`, `activate`.
@MainActor
public final class Application: ObjectRef {
    public init(new pointer: UnsafeMutablePointer<GtkApplication>?) {
        super.init(UnsafeMutableRawPointer(pointer!), .full)
    }
}

/// An owned GSimpleAction: `activate (parameter)`.
@MainActor
public final class SimpleAction: ObjectRef {
    public init(new pointer: OpaquePointer?) {
        super.init(UnsafeMutableRawPointer(pointer!), .full)
    }
}

/// A widget's GdkFrameClock, with a reference of its own: `paint`, `after-paint`.
@MainActor
public final class FrameClock: ObjectRef {
    public init(_ clock: UnsafeMutableRawPointer) {
        precondition(quire_is_a(clock, gdk_frame_clock_get_type()) != 0, "not a GdkFrameClock")
        super.init(clock, .retain)
    }
}
