import CGtk
import CGtkShim

/// A Swift closure handed to GLib as a signal handler's data. GLib owns it: it is passed retained
/// to `g_signal_connect_data` and released in the destroy notifier, which GLib calls when the
/// handler is disconnected or the instance is finalized (swift-cross-ui once freed an unretained
/// box too early; this one cannot be).
package final class SignalBox<Handler> {
    package let handler: Handler
    package init(_ handler: Handler) { self.handler = handler }
}

/// Releases a box when GLib lets go of a handler.
private func releaseBox(_ data: gpointer?, _ closure: UnsafeMutablePointer<GClosure>?) {
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

private let releaseBoxNotify: GClosureNotify = { data, closure in releaseBox(data, closure) }

/// A C pointer carried into `MainActor.assumeIsolated` (we are on the main thread already).
public struct CPointer: @unchecked Sendable {
    public let raw: UnsafeMutableRawPointer?
    public init(_ raw: UnsafeMutableRawPointer?) { self.raw = raw }
    public init(_ opaque: OpaquePointer?) { raw = opaque.map(UnsafeMutableRawPointer.init) }
}

private func box<Handler>(_ data: CPointer, _: Handler.Type) -> Handler {
    Unmanaged<SignalBox<Handler>>.fromOpaque(data.raw!).takeUnretainedValue().handler
}

/// A connected handler, for blocking it while a view sets the widget itself.
public struct SignalHandler: Hashable, Sendable {
    public let id: gulong
}

// Every signal the shell connects has a typed helper below, on the wrapper of the class that
// declares the signal, its name written once, here: a closure with the signal's real parameters,
// and a C entry point with the signal's real C signature. There is no public way to connect a
// signal by name, so a name cannot be paired with the wrong signature (GtkGesture::cancel
// connected as `void (gpointer, gpointer)` once read its NULL GdkEventSequence as the user data,
// and crashed on every ordinary click). `connect` checks each signature against GLib's own
// (`g_signal_query`) as well, so a mistake in this table fails at once, by name.

/// The fundamental type of a signal's argument or result, named as GLib registers it.
enum SignalValue: String, Sendable {
    case none = "void"
    case boolean = "gboolean"
    case int = "gint"
    case uint = "guint"
    case flags = "GFlags"
    case double = "gdouble"
    case string = "gchararray"
    case pointer = "gpointer"
    case boxed = "GBoxed"
    case param = "GParam"
    case variant = "GVariant"
    case interface = "GInterface"
    case enumeration = "GEnum"

    var type: GType { g_type_from_name(rawValue) }
}

/// What a C entry point reads: the signal's result and its arguments between the instance and
/// the user data.
struct SignalSignature: Sendable, CustomStringConvertible {
    let returns: SignalValue
    let parameters: [SignalValue]

    init(_ parameters: [SignalValue] = [], returns: SignalValue = .none) {
        self.parameters = parameters
        self.returns = returns
    }

    var description: String {
        "(\(parameters.map(\.rawValue).joined(separator: ", "))) -> \(returns.rawValue)"
    }
}

/// Why `signal` on `instance` does not have `expected`'s signature; nil when it has it (the
/// number of arguments, their fundamental types and the result's). Nothing is allocated when
/// they agree: every connect asks.
func signalMismatch(_ instance: UnsafeMutableRawPointer, _ signal: String, _ expected: SignalSignature) -> String? {
    let type = quire_type_of(instance)
    var id: guint = 0
    var detail: GQuark = 0
    guard g_signal_parse_name(signal, type, &id, &detail, 1) != 0, id != 0 else {
        return "no signal \(signal) on \(String(cString: g_type_name(type)))"
    }
    var query = GSignalQuery()
    g_signal_query(id, &query)
    let count = Int(query.n_params)
    let returns = quire_signal_fundamental(query.return_type)
    if count == expected.parameters.count, returns == expected.returns.type,
        (0..<count).allSatisfy({ quire_signal_fundamental(query.param_types[$0]) == expected.parameters[$0].type })
    {
        return nil
    }
    let names = (0..<count).map { String(cString: g_type_name(quire_signal_fundamental(query.param_types[$0]))) }
    let actual = "(\(names.joined(separator: ", "))) -> \(String(cString: g_type_name(returns)))"
    return "\(String(cString: g_type_name(type)))::\(signal) is \(actual), its handler reads \(expected)"
}

/// A C entry point for one signal signature and the Swift closure type it calls. GTK emits on
/// the main thread, so each enters the main actor synchronously (`MainActor.assumeIsolated`),
/// never through a task GLib would not run.
private struct SignalEntry<Handler>: @unchecked Sendable {
    /// The typed C function, as GCallback's untyped pointer (the one cast).
    let function: UnsafeRawPointer
    let signature: SignalSignature

    init<Function>(_ function: Function, _ signature: SignalSignature) {
        self.function = unsafeBitCast(function, to: UnsafeRawPointer.self)
        self.signature = signature
    }
}

typealias VoidHandler = @MainActor () -> Void
typealias PredicateHandler = @MainActor () -> Bool
typealias PointHandler = @MainActor (Double, Double) -> Void
typealias ScrollHandler = @MainActor (Double, Double) -> Bool
typealias PressHandler = @MainActor (Int32, Double, Double) -> Void
typealias KeyHandler = @MainActor (UInt32, UInt32, GdkModifierType) -> Bool
typealias BoolHandler = @MainActor (Bool) -> Bool
typealias IntPairHandler = @MainActor (Int32, Int32) -> Void
typealias PointerHandler = @MainActor (OpaquePointer?) -> Void
typealias InsertTextHandler = @MainActor (String, inout Int32) -> Void
typealias StringHandler = @MainActor (String) -> Void

/// `void (*) (gpointer instance, gpointer data)`.
private let voidEntry = SignalEntry<VoidHandler>(
    { (_: gpointer?, data: gpointer?) in
        let data = CPointer(data)
        MainActor.assumeIsolated { box(data, VoidHandler.self)() }
    } as @convention(c) (gpointer?, gpointer?) -> Void,
    SignalSignature())

/// `gboolean (*) (gpointer instance, gpointer data)`.
private let predicateEntry = SignalEntry<PredicateHandler>(
    { (_: gpointer?, data: gpointer?) -> gboolean in
        let data = CPointer(data)
        return MainActor.assumeIsolated { box(data, PredicateHandler.self)() ? 1 : 0 }
    } as @convention(c) (gpointer?, gpointer?) -> gboolean,
    SignalSignature(returns: .boolean))

/// `void (*) (gpointer, GParamSpec *, gpointer)`: `notify::PROPERTY`; the handler knows the property.
private let notifyEntry = SignalEntry<VoidHandler>(
    { (_: gpointer?, _: OpaquePointer?, data: gpointer?) in
        let data = CPointer(data)
        MainActor.assumeIsolated { box(data, VoidHandler.self)() }
    } as @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void,
    SignalSignature([.param]))

/// `void (*) (gpointer, double, double, gpointer)`.
private let pointEntry = SignalEntry<PointHandler>(
    { (_: gpointer?, x: Double, y: Double, data: gpointer?) in
        let data = CPointer(data)
        MainActor.assumeIsolated { box(data, PointHandler.self)(x, y) }
    } as @convention(c) (gpointer?, Double, Double, gpointer?) -> Void,
    SignalSignature([.double, .double]))

/// `gboolean (*) (gpointer, double, double, gpointer)`.
private let scrollEntry = SignalEntry<ScrollHandler>(
    { (_: gpointer?, x: Double, y: Double, data: gpointer?) -> gboolean in
        let data = CPointer(data)
        return MainActor.assumeIsolated { box(data, ScrollHandler.self)(x, y) ? 1 : 0 }
    } as @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean,
    SignalSignature([.double, .double], returns: .boolean))

/// `void (*) (gpointer, int, double, double, gpointer)`.
private let pressEntry = SignalEntry<PressHandler>(
    { (_: gpointer?, n: Int32, x: Double, y: Double, data: gpointer?) in
        let data = CPointer(data)
        MainActor.assumeIsolated { box(data, PressHandler.self)(n, x, y) }
    } as @convention(c) (gpointer?, Int32, Double, Double, gpointer?) -> Void,
    SignalSignature([.int, .double, .double]))

/// `gboolean (*) (gpointer, guint, guint, GdkModifierType, gpointer)`.
private let keyEntry = SignalEntry<KeyHandler>(
    { (_: gpointer?, keyval: guint, keycode: guint, state: GdkModifierType, data: gpointer?) -> gboolean in
        let data = CPointer(data)
        return MainActor.assumeIsolated { box(data, KeyHandler.self)(keyval, keycode, state) ? 1 : 0 }
    } as @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean,
    SignalSignature([.uint, .uint, .flags], returns: .boolean))

/// `gboolean (*) (gpointer, gboolean, gpointer)`.
private let boolEntry = SignalEntry<BoolHandler>(
    { (_: gpointer?, value: gboolean, data: gpointer?) -> gboolean in
        let data = CPointer(data)
        return MainActor.assumeIsolated { box(data, BoolHandler.self)(value != 0) ? 1 : 0 }
    } as @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean,
    SignalSignature([.boolean], returns: .boolean))

/// `void (*) (gpointer, int, int, gpointer)`.
private let intPairEntry = SignalEntry<IntPairHandler>(
    { (_: gpointer?, a: Int32, b: Int32, data: gpointer?) in
        let data = CPointer(data)
        MainActor.assumeIsolated { box(data, IntPairHandler.self)(a, b) }
    } as @convention(c) (gpointer?, Int32, Int32, gpointer?) -> Void,
    SignalSignature([.int, .int]))

/// `void (*) (gpointer, GdkEventSequence *, gpointer)`: a gesture's `cancel` (NULL for a mouse).
private let sequenceEntry = SignalEntry<PointerHandler>(
    { (_: gpointer?, sequence: OpaquePointer?, data: gpointer?) in
        let data = CPointer(data)
        let sequence = CPointer(sequence)
        MainActor.assumeIsolated { box(data, PointerHandler.self)(sequence.raw.map(OpaquePointer.init)) }
    } as @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void,
    SignalSignature([.boxed]))

/// `void (*) (gpointer, GVariant *, gpointer)`: an action's `activate` (NULL without a parameter).
private let variantEntry = SignalEntry<PointerHandler>(
    { (_: gpointer?, parameter: OpaquePointer?, data: gpointer?) in
        let data = CPointer(data)
        let parameter = CPointer(parameter)
        MainActor.assumeIsolated { box(data, PointerHandler.self)(parameter.raw.map(OpaquePointer.init)) }
    } as @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void,
    SignalSignature([.variant]))

/// `void (*) (gpointer, const char *text, int length, int *position, gpointer)`: `insert-text`;
/// the text is `length` bytes of UTF-8 (all of it when negative); the handler reads and may move
/// `*position` (characters).
private let insertTextEntry = SignalEntry<InsertTextHandler>(
    { (_: gpointer?, text: UnsafePointer<CChar>?, length: Int32, position: UnsafeMutablePointer<Int32>?, data: gpointer?) in
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
            let pointee = position.raw?.assumingMemoryBound(to: Int32.self)
            var at = pointee?.pointee ?? 0
            box(data, InsertTextHandler.self)(string, &at)
            pointee?.pointee = at
        }
    } as @convention(c) (gpointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?, gpointer?) -> Void,
    SignalSignature([.string, .int, .pointer]))

/// `void (*) (gpointer, const char *, gpointer)`: a signal with one string (NULL read as "").
private let stringEntry = SignalEntry<StringHandler>(
    { (_: gpointer?, text: UnsafePointer<CChar>?, data: gpointer?) in
        let data = CPointer(data)
        let string = text.map { String(cString: $0) } ?? ""
        MainActor.assumeIsolated { box(data, StringHandler.self)(string) }
    } as @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void,
    SignalSignature([.string]))

typealias FileMonitorHandler = @MainActor (GFileMonitorEvent) -> Void

/// `void (*) (GFileMonitor *, GFile *file, GFile *other, GFileMonitorEvent, gpointer)`.
private let fileMonitorEntry = SignalEntry<FileMonitorHandler>(
    { (_: gpointer?, _: OpaquePointer?, _: OpaquePointer?, event: GFileMonitorEvent, data: gpointer?) in
        let data = CPointer(data)
        MainActor.assumeIsolated { box(data, FileMonitorHandler.self)(event) }
    } as @convention(c) (gpointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void,
    SignalSignature([.interface, .interface, .enumeration]))

/// The one connect: checks the signal's signature against the entry's, then hands GLib the
/// boxed closure (released by GLib). Returns the handler id.
private func connectSignal<Handler>(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ entry: SignalEntry<Handler>, _ handler: Handler
) -> gulong {
    if let mismatch = signalMismatch(instance, signal, entry.signature) { preconditionFailure(mismatch) }
    let data = Unmanaged.passRetained(SignalBox(handler) as AnyObject).toOpaque()
    let id = quire_signal_connect(instance, signal, entry.function, data, releaseBoxNotify, 0)
    precondition(id != 0, "cannot connect \(signal) on \(Borrowed(instance).typeName)")
    return id
}

extension ObjectRef {
    /// Connects a handler this wrapper owns (disconnected when the wrapper goes).
    fileprivate func connect<Handler>(_ signal: String, _ entry: SignalEntry<Handler>, _ handler: Handler) -> SignalHandler {
        let id = connectSignal(pointer, signal, entry, handler)
        handlerIDs.append(id)
        return SignalHandler(id: id)
    }

    /// `GObject::notify::PROPERTY`: the property changed.
    @discardableResult
    public func onNotify(_ property: String, _ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        let objectClass = g_type_class_peek(quire_type_of(pointer))?.assumingMemoryBound(to: GObjectClass.self)
        precondition(g_object_class_find_property(objectClass, property) != nil, "no property \(property) on \(borrowed.typeName)")
        return connect("notify::\(property)", notifyEntry, handler as VoidHandler)
    }

    /// Stops the signal being emitted now from reaching its default handler (an edit a view
    /// turned into an event instead).
    public func stopEmission(_ signal: String) { g_signal_stop_emission_by_name(pointer, signal) }

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

// MARK: The typed helpers, one per signal, on the wrapper of the class that declares it

extension Widget {
    /// `GtkWidget::map`: the widget is shown on screen.
    @discardableResult
    public func onMap(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("map", voidEntry, handler as VoidHandler)
    }

    /// `GtkWidget::unmap`: the widget is no longer shown (taken out of its window).
    @discardableResult
    public func onUnmap(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("unmap", voidEntry, handler as VoidHandler)
    }

    /// `GtkWidget::destroy`: the widget is being destroyed (a window closed).
    @discardableResult
    public func onDestroy(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("destroy", voidEntry, handler as VoidHandler)
    }

    /// `GtkWidget::destroy` on a widget no Swift wrapper owns (an embedding app's): the handler
    /// lives as long as the widget, released by GLib when it is finalized.
    public static func onDestroy(unowned widget: UnsafeMutableRawPointer, _ handler: @escaping @MainActor () -> Void) {
        precondition(quire_is_a(widget, gtk_widget_get_type()) != 0, "not a GtkWidget")
        _ = connectSignal(widget, "destroy", voidEntry, handler as VoidHandler)
    }
}

extension Window {
    /// `GtkWindow::close-request` → stop: the user asked to close the window (its close button,
    /// Alt+F4). GTK destroys it when the handler returns false; the app's own wrapper still holds
    /// it then, so `destroy` alone does not say the window went.
    @discardableResult
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) -> SignalHandler {
        connect("close-request", predicateEntry, handler as PredicateHandler)
    }
}

extension FileMonitor {
    /// `GFileMonitor::changed`: the file changed, was created, deleted or moved.
    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor (GFileMonitorEvent) -> Void) -> SignalHandler {
        connect("changed", fileMonitorEntry, handler as FileMonitorHandler)
    }
}

extension Button {
    /// `GtkButton::clicked`.
    @discardableResult
    public func onClicked(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("clicked", voidEntry, handler as VoidHandler)
    }
}

extension CheckButton {
    /// `GtkCheckButton::toggled`.
    @discardableResult
    public func onToggled(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("toggled", voidEntry, handler as VoidHandler)
    }
}

extension Switch {
    /// `GtkSwitch::state-set (state) -> handled`: true keeps GTK from setting the state itself.
    @discardableResult
    public func onStateSet(_ handler: @escaping @MainActor (_ state: Bool) -> Bool) -> SignalHandler {
        connect("state-set", boolEntry, handler as BoolHandler)
    }
}

extension SpinButton {
    /// `GtkSpinButton::value-changed`.
    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("value-changed", voidEntry, handler as VoidHandler)
    }
}

extension Editable {
    /// `GtkEditable::insert-text (text, length, position)`: the text about to be inserted, and
    /// where (characters); the handler may move `position`, where the cursor goes after the
    /// insertion.
    @discardableResult
    public func onInsertText(_ handler: @escaping @MainActor (_ text: String, _ position: inout Int32) -> Void) -> SignalHandler {
        connect("insert-text", insertTextEntry, handler as InsertTextHandler)
    }

    /// `GtkEditable::delete-text (start, end)`: the characters about to be deleted (end -1: to the end).
    @discardableResult
    public func onDeleteText(_ handler: @escaping @MainActor (_ start: Int32, _ end: Int32) -> Void) -> SignalHandler {
        connect("delete-text", intPairEntry, handler as IntPairHandler)
    }

    /// `GtkText::preedit-changed (preedit)`: an input method's composition (the pre-edit text,
    /// shown in the entry but not yet in its text) changed; "" when it ended. On the GtkText
    /// that a GtkEntry delegates to.
    @discardableResult
    public func onPreeditChanged(_ handler: @escaping @MainActor (_ preedit: String) -> Void) -> SignalHandler {
        connect("preedit-changed", stringEntry, handler as StringHandler)
    }

    /// `GtkText::activate`: Return reached the text after its input method left it.
    @discardableResult
    public func onActivate(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("activate", voidEntry, handler as VoidHandler)
    }

    /// `GtkEditable::changed`: the text changed.
    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("changed", voidEntry, handler as VoidHandler)
    }
}

extension Gesture {
    /// `GtkGesture::cancel (sequence)`: the gesture was cancelled (another claimed the pointer);
    /// `sequence` is the GdkEventSequence, nil for a mouse.
    @discardableResult
    public func onCancel(_ handler: @escaping @MainActor (_ sequence: OpaquePointer?) -> Void) -> SignalHandler {
        connect("cancel", sequenceEntry, handler as PointerHandler)
    }
}

extension DragGesture {
    /// `GtkGestureDrag::drag-begin (x, y)`: where the drag starts, in the widget.
    @discardableResult
    public func onDragBegin(_ handler: @escaping @MainActor (_ x: Double, _ y: Double) -> Void) -> SignalHandler {
        connect("drag-begin", pointEntry, handler as PointHandler)
    }

    /// `GtkGestureDrag::drag-update (dx, dy)`: the offset from the start.
    @discardableResult
    public func onDragUpdate(_ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void) -> SignalHandler {
        connect("drag-update", pointEntry, handler as PointHandler)
    }

    /// `GtkGestureDrag::drag-end (dx, dy)`: the offset from the start where it ended.
    @discardableResult
    public func onDragEnd(_ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Void) -> SignalHandler {
        connect("drag-end", pointEntry, handler as PointHandler)
    }
}

extension ClickGesture {
    /// `GtkGestureClick::pressed (n, x, y)`: the number of presses so far, and where.
    @discardableResult
    public func onPressed(_ handler: @escaping @MainActor (_ n: Int32, _ x: Double, _ y: Double) -> Void) -> SignalHandler {
        connect("pressed", pressEntry, handler as PressHandler)
    }

    /// `GtkGestureClick::released (n, x, y)`.
    @discardableResult
    public func onReleased(_ handler: @escaping @MainActor (_ n: Int32, _ x: Double, _ y: Double) -> Void) -> SignalHandler {
        connect("released", pressEntry, handler as PressHandler)
    }
}

extension KeyController {
    /// `GtkEventControllerKey::key-pressed (keyval, keycode, state) -> handled`.
    @discardableResult
    public func onKeyPressed(
        _ handler: @escaping @MainActor (_ keyval: UInt32, _ keycode: UInt32, _ state: GdkModifierType) -> Bool
    ) -> SignalHandler {
        connect("key-pressed", keyEntry, handler as KeyHandler)
    }
}

extension ScrollController {
    /// `GtkEventControllerScroll::scroll-begin`: a touchpad's continuous scroll starts.
    @discardableResult
    public func onScrollBegin(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("scroll-begin", voidEntry, handler as VoidHandler)
    }

    /// `GtkEventControllerScroll::scroll (dx, dy) -> handled`.
    @discardableResult
    public func onScroll(_ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Bool) -> SignalHandler {
        connect("scroll", scrollEntry, handler as ScrollHandler)
    }

    /// `GtkEventControllerScroll::scroll-end`.
    @discardableResult
    public func onScrollEnd(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("scroll-end", voidEntry, handler as VoidHandler)
    }
}

extension FocusController {
    /// `GtkEventControllerFocus::enter`: the keyboard focus moved into the widget.
    @discardableResult
    public func onEnter(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("enter", voidEntry, handler as VoidHandler)
    }

    /// `GtkEventControllerFocus::leave`: the keyboard focus left the widget.
    @discardableResult
    public func onLeave(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("leave", voidEntry, handler as VoidHandler)
    }
}

extension Application {
    /// `GApplication::startup`.
    @discardableResult
    public func onStartup(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("startup", voidEntry, handler as VoidHandler)
    }

    /// `GApplication::activate`.
    @discardableResult
    public func onActivate(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("activate", voidEntry, handler as VoidHandler)
    }
}

extension SimpleAction {
    /// `GSimpleAction::activate (parameter)`: the GVariant parameter, nil for an action without one.
    @discardableResult
    public func onActivate(_ handler: @escaping @MainActor (_ parameter: OpaquePointer?) -> Void) -> SignalHandler {
        connect("activate", variantEntry, handler as PointerHandler)
    }
}

extension FrameClock {
    /// `GdkFrameClock::paint`: a frame is being painted.
    @discardableResult
    public func onPaint(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("paint", voidEntry, handler as VoidHandler)
    }

    /// `GdkFrameClock::after-paint`: a frame was painted.
    @discardableResult
    public func onAfterPaint(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("after-paint", voidEntry, handler as VoidHandler)
    }
}
