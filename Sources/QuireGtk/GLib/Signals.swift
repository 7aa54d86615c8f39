import CGtk
import CGtkShim

/// A Swift closure handed to GLib as a signal handler's data. GLib owns it: it is passed retained
/// to `g_signal_connect_data` and released in the destroy notifier, which GLib calls when the
/// handler is disconnected or the instance is finalized (swift-cross-ui once freed an unretained
/// box too early; this one cannot be).
final class SignalBox<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }
}

/// Releases a box when GLib lets go of a handler.
private func releaseBox(_ data: gpointer?, _ closure: UnsafeMutablePointer<GClosure>?) {
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

private let releaseBoxNotify: GClosureNotify = { data, closure in releaseBox(data, closure) }

/// A C pointer carried into `MainActor.assumeIsolated` (we are on the main thread already).
struct CPointer: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer?
    init(_ raw: UnsafeMutableRawPointer?) { self.raw = raw }
    init(_ opaque: OpaquePointer?) { raw = opaque.map(UnsafeMutableRawPointer.init) }
}

private func box<Handler>(_ data: CPointer, _: Handler.Type) -> Handler {
    Unmanaged<SignalBox<Handler>>.fromOpaque(data.raw!).takeUnretainedValue().handler
}

/// A connected handler, for blocking it while a view sets the widget itself.
public struct SignalHandler: Hashable, Sendable {
    public let id: gulong
}

// C entry points, one per signal signature. GTK emits on the main thread, so each enters the
// main actor synchronously (`MainActor.assumeIsolated`), never through a task GLib would not run.
typealias VoidHandler = @MainActor () -> Void
typealias PointHandler = @MainActor (Double, Double) -> Void
typealias ScrollHandler = @MainActor (Double, Double) -> Bool
typealias PressHandler = @MainActor (Int32, Double, Double) -> Void
typealias KeyHandler = @MainActor (UInt32, UInt32, GdkModifierType) -> Bool
typealias BoolHandler = @MainActor (Bool) -> Bool
typealias SizeHandler = @MainActor (Int32, Int32) -> Void
typealias VariantHandler = @MainActor (OpaquePointer?) -> Void
typealias TextHandler = @MainActor (String) -> Int32?

private let voidEntry: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, VoidHandler.self)() }
}
private let pointEntry: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, PointHandler.self)(x, y) }
}
private let scrollEntry: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, x, y, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, ScrollHandler.self)(x, y) ? 1 : 0 }
}
private let pressEntry: @convention(c) (gpointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, PressHandler.self)(n, x, y) }
}
private let keyEntry: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
    _, keyval, keycode, state, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, KeyHandler.self)(keyval, keycode, state) ? 1 : 0 }
}
private let boolEntry: @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean = { _, value, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, BoolHandler.self)(value != 0) ? 1 : 0 }
}
private let sizeEntry: @convention(c) (gpointer?, Int32, Int32, gpointer?) -> Void = { _, width, height, data in
    let data = CPointer(data)
    return MainActor.assumeIsolated { box(data, SizeHandler.self)(width, height) }
}
/// `notify::PROPERTY` and `GSimpleAction::activate` have one pointer argument before the data.
private let pointerEntry: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, argument, data in
    let data = CPointer(data)
    let argument = CPointer(argument)
    return MainActor.assumeIsolated { box(data, VariantHandler.self)(argument.raw.map(OpaquePointer.init)) }
}

/// `GtkEditable::insert-text (text, length, position*)`.
private let insertTextEntry: @convention(c) (gpointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?, gpointer?) -> Void = {
    _, text, length, position, data in
    let data = CPointer(data)
    let position = CPointer(position.map(UnsafeMutableRawPointer.init))
    let string: String
    if let text {
        let bytes = length < 0 ? strlen(text) : Int(length)
        string = text.withMemoryRebound(to: UInt8.self, capacity: bytes) {
            String(decoding: UnsafeBufferPointer(start: $0, count: bytes), as: UTF8.self)
        }
    } else {
        string = ""
    }
    MainActor.assumeIsolated {
        if let moved = box(data, TextHandler.self)(string) {
            position.raw?.assumingMemoryBound(to: Int32.self).pointee = moved
        }
    }
}

extension ObjectRef {
    private func connect<Handler, Entry>(
        _ signal: String, entry: Entry, after: Bool, _ handler: Handler
    ) -> SignalHandler {
        let data = Unmanaged.passRetained(SignalBox(handler) as AnyObject).toOpaque()
        // The one cast from a typed C function to GCallback's untyped pointer.
        let function = unsafeBitCast(entry, to: UnsafeRawPointer.self)
        let id = quire_signal_connect(pointer, signal, function, data, releaseBoxNotify, after ? 1 : 0)
        precondition(id != 0, "no signal \(signal) on \(borrowed.typeName)")
        handlerIDs.append(id)
        return SignalHandler(id: id)
    }

    /// A signal with no arguments: `clicked`, `activate`, `changed`, `drag-begin`-less controllers.
    @discardableResult
    public func on(_ signal: String, after: Bool = false, _ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect(signal, entry: voidEntry, after: after, handler as VoidHandler)
    }

    /// Two doubles, no result: `drag-begin`, `drag-update`, `drag-end`, `decelerate`.
    @discardableResult
    public func onPoint(_ signal: String, _ handler: @escaping @MainActor (Double, Double) -> Void) -> SignalHandler {
        connect(signal, entry: pointEntry, after: false, handler as PointHandler)
    }

    /// `scroll` (dx, dy) → handled.
    @discardableResult
    public func onScroll(_ handler: @escaping @MainActor (Double, Double) -> Bool) -> SignalHandler {
        connect("scroll", entry: scrollEntry, after: false, handler as ScrollHandler)
    }

    /// `pressed` / `released` of a click gesture: (presses, x, y).
    @discardableResult
    public func onPress(_ signal: String, _ handler: @escaping @MainActor (Int32, Double, Double) -> Void) -> SignalHandler {
        connect(signal, entry: pressEntry, after: false, handler as PressHandler)
    }

    /// `key-pressed` (keyval, keycode, modifiers) → handled.
    @discardableResult
    public func onKey(_ signal: String, _ handler: @escaping @MainActor (UInt32, UInt32, GdkModifierType) -> Bool) -> SignalHandler {
        connect(signal, entry: keyEntry, after: false, handler as KeyHandler)
    }

    /// A boolean argument and a boolean result: `GtkSwitch::state-set`.
    @discardableResult
    public func onBool(_ signal: String, _ handler: @escaping @MainActor (Bool) -> Bool) -> SignalHandler {
        connect(signal, entry: boolEntry, after: false, handler as BoolHandler)
    }

    /// `insert-text` of a GtkEditable: the inserted text; the handler may return where the cursor
    /// goes after the signal (in characters).
    @discardableResult
    public func onInsertText(_ handler: @escaping @MainActor (String) -> Int32?) -> SignalHandler {
        connect("insert-text", entry: insertTextEntry, after: false, handler as TextHandler)
    }

    /// Stops the signal being emitted now from reaching its default handler (an edit a view
    /// turned into an event instead).
    public func stopEmission(_ signal: String) { g_signal_stop_emission_by_name(pointer, signal) }

    /// Two ints: `GtkDrawingArea::resize`, `GtkEditable::delete-text (start, end)`.
    @discardableResult
    public func onSize(_ signal: String, _ handler: @escaping @MainActor (Int32, Int32) -> Void) -> SignalHandler {
        connect(signal, entry: sizeEntry, after: false, handler as SizeHandler)
    }

    /// One pointer argument: `notify::PROPERTY` (a GParamSpec) or an action's `activate` (a GVariant).
    @discardableResult
    public func onPointer(_ signal: String, _ handler: @escaping @MainActor (OpaquePointer?) -> Void) -> SignalHandler {
        connect(signal, entry: pointerEntry, after: false, handler as VariantHandler)
    }

    /// Runs `body` with a handler blocked, so a view setting its own widget does not hear itself.
    public func withBlocked<T>(_ handler: SignalHandler?, _ body: () -> T) -> T {
        guard let handler else { return body() }
        g_signal_handler_block(pointer, handler.id)
        defer { g_signal_handler_unblock(pointer, handler.id) }
        return body()
    }

    /// Disconnects every handler this wrapper connected.
    public func disconnectAll() {
        for id in handlerIDs where g_signal_handler_is_connected(pointer, id) != 0 { g_signal_handler_disconnect(pointer, id) }
        handlerIDs.removeAll()
    }

    /// Disconnects one handler now (its box is released by GLib).
    public func disconnect(_ handler: SignalHandler) {
        guard let index = handlerIDs.firstIndex(of: handler.id) else { return }
        handlerIDs.remove(at: index)
        if g_signal_handler_is_connected(pointer, handler.id) != 0 { g_signal_handler_disconnect(pointer, handler.id) }
    }
}
