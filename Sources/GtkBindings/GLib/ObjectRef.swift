import CGtk
import CGtkShim

/// The one owner of one reference to a GObject (rhx/SwiftGtk's and swift-cross-ui's rule): it takes
/// or sinks a reference when it is made and drops it in `deinit`, after disconnecting the signal
/// handlers it connected (so no GLib callback reaches a Swift object that is gone).
///
/// GTK code is `@MainActor`; `deinit` is not isolated, so it touches only the pointer and the
/// handler ids, which never change after the main actor wrote them.
@MainActor
open class ObjectRef {
    /// The instance, as GLib's `gpointer`.
    nonisolated(unsafe) public let pointer: UnsafeMutableRawPointer
    nonisolated(unsafe) var handlerIDs: [gulong] = []

    public enum Ownership {
        /// The caller hands over a full reference (constructors of plain GObjects: controllers,
        /// layout managers, the application).
        case full
        /// Widgets: sink the floating reference, or add one when the object is not floating
        /// (a window, which GTK itself keeps until it is destroyed).
        case sink
        /// Add a reference of our own to a borrowed pointer.
        case retain
    }

    public init(_ pointer: UnsafeMutableRawPointer, _ ownership: Ownership) {
        precondition(quire_is_object(pointer) != 0, "not a GObject")
        self.pointer = pointer
        switch ownership {
        case .full: break
        case .sink: g_object_ref_sink(pointer)
        case .retain: g_object_ref(pointer)
        }
    }

    deinit {
        for id in handlerIDs where g_signal_handler_is_connected(pointer, id) != 0 {
            g_signal_handler_disconnect(pointer, id)
        }
        g_object_unref(pointer)
    }

    /// A pointer that does not own a reference, for C calls.
    public var borrowed: Borrowed { Borrowed(pointer) }

    /// Data attached to the GObject by key (not retained; used to find an owner from a callback).
    func setData(_ key: String, _ value: UnsafeMutableRawPointer?) {
        g_object_set_data(quire_object(pointer), key, value)
    }
}

/// A GObject pointer we do not own (a callback's argument, a parent, a child GTK made): never
/// unreferenced, valid only while its owner keeps it.
public struct Borrowed: Hashable, @unchecked Sendable {
    public let pointer: UnsafeMutableRawPointer

    public init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }

    public init?(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    /// The GType name ("GtkLabel"), for messages and tests.
    public var typeName: String {
        String(cString: g_type_name_from_instance(pointer.assumingMemoryBound(to: GTypeInstance.self)))
    }
}

/// Watches a GObject's finalization without owning it (`g_object_weak_ref`), as libadwaita's
/// `g_assert_finalize_object` does: tests use it to check that wrappers let go.
@MainActor
public final class FinalizationWatch {
    final class Flag { var finalized = false }
    private nonisolated(unsafe) let flag = Flag()
    private nonisolated(unsafe) let target: UnsafeMutableRawPointer?
    private nonisolated(unsafe) let context: UnsafeMutableRawPointer

    public init(_ object: UnsafeMutableRawPointer) {
        target = object
        context = Unmanaged.passRetained(flag).toOpaque()
        g_object_weak_ref(quire_object(object), finalizationNotify, context)
    }

    public var finalized: Bool { flag.finalized }

    deinit {
        // Remove the weak reference while the object lives, then drop the flag.
        if let target, !flag.finalized {
            g_object_weak_unref(quire_object(target), finalizationNotify, context)
        }
        Unmanaged<Flag>.fromOpaque(context).release()
    }
}

/// One function for `g_object_weak_ref` and `g_object_weak_unref` (they match by function and data).
private let finalizationNotify: GWeakNotify = { data, _ in
    guard let data else { return }
    Unmanaged<FinalizationWatch.Flag>.fromOpaque(data).takeUnretainedValue().finalized = true
}
