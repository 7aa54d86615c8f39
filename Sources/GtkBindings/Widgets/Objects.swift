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

/// A GFileMonitor on one file (`g_file_monitor_file`, moves watched: an editor's save that
/// renames a new file over the old one is seen), with its rate limit off: `changed`.
public final class FileMonitor: ObjectRef {
    /// Nil when the file's folder cannot be watched.
    public init?(path: String) {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let monitor = g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return nil }
        g_file_monitor_set_rate_limit(monitor, 0)
        super.init(UnsafeMutableRawPointer(monitor), .full)
    }

    /// Stops watching (no `changed` after this).
    public func cancel() { g_file_monitor_cancel(pointer.assumingMemoryBound(to: GFileMonitor.self)) }
}

/// A widget's GdkFrameClock, with a reference of its own: `paint`, `after-paint`.
@MainActor
public final class FrameClock: ObjectRef {
    public init(_ clock: UnsafeMutableRawPointer) {
        precondition(quire_is_a(clock, gdk_frame_clock_get_type()) != 0, "not a GdkFrameClock")
        super.init(clock, .retain)
    }
}
