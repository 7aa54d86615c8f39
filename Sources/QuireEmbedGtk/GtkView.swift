import GtkBindings
import CGtk
import CGtkShim
import CQuire
import QuireCore
import QuireEmbed
import QuireGtk

#if canImport(Glibc)
    import Glibc
#endif

// The GTK view of an embedded session: QuireGtk's walkthrough view (pager, indicator, rows, input
// panel, buttons, page layouts) over the session a `QuireEngine *` holds. Built into libquire
// only when GTK 4 is there (Package.swift); <quire-gtk.h> declares it (scripts/generate-header).

/// quire_engine_gtk_view_new:
/// @engine: (nullable): an engine
///
/// A GTK 4 widget that shows the engine's session and sends it what the user does: the pager with
/// its pages (or their page layouts), the page indicator, the buttons, the input panel, the keys
/// and drags of the walkthrough. It shows every event applied to @engine, whoever sent it: events
/// sent with quire_engine_send() while the widget is shown update it, and the observer sees the
/// events the widget sends (pointer and keys, and the frame clock's `tick`s while a page moves).
/// When the session completes, the observer receives `completed` and the widget keeps showing the
/// last page as it was, insensitive (it takes no more input), with the CSS class `completed`:
/// what comes next is the app's to show.
///
/// The widget does not own @engine: free the engine only after the widget is destroyed. Freed
/// before, the widget keeps showing the last state, insensitive, and sends nothing more. Once the
/// widget is destroyed it no longer touches @engine. Call it after gtk_init(), on the process's
/// first thread (the one GTK runs on).
///
/// Returns: (transfer floating) (nullable): a new `GtkWidget *` with a floating reference, to
///   pack into a container like any widget (or to sink with g_object_ref_sink()); %NULL when
///   @engine is %NULL or freed, GTK is not initialized, or this is not the process's first thread.
@c(quire_engine_gtk_view_new)
public func quireEngineGtkViewNew(_ engine: EngineHandle?) -> UnsafeMutablePointer<GtkWidget>? {
    guard let engine, Engine.from(engine) != nil else { return nil }
    // GTK runs on the process's first thread, which is Swift's main actor there; anywhere else
    // MainActor.assumeIsolated would trap, so the call is refused instead.
    guard quire_is_main_thread() != 0 else { return nil }
    let handle = CPointerBox(UnsafeMutableRawPointer(engine))
    let outer = MainActor.assumeIsolated {
        EmbeddedView.make(handle.raw.assumingMemoryBound(to: QuireEngine.self)).map(CPointerBox.init)
    }
    return outer?.raw.assumingMemoryBound(to: GtkWidget.self)
}

/// A `SessionStore` over an engine: the host's events go to the engine, and every event the
/// engine applies (the host's or the C API's) reaches the host.
@MainActor
final class EngineStore: SessionStore {
    private var engine: Engine?
    private var handle: EngineHandle?
    private var listener = 0
    /// The session when the engine was freed (shown from then on).
    private var last: Session
    weak var host: SessionHost?
    /// The engine was freed.
    var onDetached: (() -> Void)?

    init(engine: Engine, handle: EngineHandle) {
        self.engine = engine
        self.handle = handle
        last = engine.session
        listener = engine.addListener(
            Engine.Listener(
                changed: { [weak self] event, notifications in
                    MainActor.assumeIsolated { self?.host?.storeApplied(event, notifications) }
                },
                detached: { [weak self] in
                    MainActor.assumeIsolated { self?.engineFreed() }
                }))
    }

    var isAttached: Bool { engine != nil }

    var session: Session { engine?.session ?? last }

    func send(_ event: Event) -> [SessionNotification] {
        guard let engine, let handle else { return [] }
        // The host renders when the engine tells it (storeApplied).
        return engine.send(event, handle: handle)
    }

    func setViewportWidth(_ width: Double) {
        engine?.session.setViewportWidth(width)
    }

    func setReducedMotion(_ on: Bool) {
        engine?.session.reducedMotion = on
    }

    /// Stops listening (the widget is destroyed).
    func detach() {
        engine?.removeListener(listener)
        release()
    }

    private func engineFreed() {
        release()
        onDetached?()
    }

    private func release() {
        if let engine { last = engine.session }
        engine = nil
        handle = nil
    }
}

/// What a widget returned by `quire_engine_gtk_view_new` owns: the store, the host and the
/// walkthrough view. The outer widget (a plain GtkBox) owns this object, and nothing in Swift owns
/// the outer widget, so its life is the C app's: when its last reference goes (or it is
/// destroyed), `destroy` releases this object and the listener with it.
@MainActor
final class EmbeddedView {
    nonisolated static let key = "quire-embedded-view"
    let outer: UnsafeMutableRawPointer
    let store: EngineStore
    let host: SessionHost
    let walkthrough: WalkthroughView

    init(engine: Engine, handle: EngineHandle) {
        store = EngineStore(engine: engine, handle: handle)
        host = SessionHost(store: store)
        store.host = host
        walkthrough = WalkthroughView(host: host)
        walkthrough.root.hexpand = true
        walkthrough.root.vexpand = true
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        outer = UnsafeMutableRawPointer(box)
        gtk_widget_add_css_class(box, "quire-view")
        gtk_widget_set_name(box, "quire-view")
        gtk_box_append(quire_box(outer), walkthrough.root.widget)
        store.onDetached = { [weak self] in self?.engineFreed() }
        // Completed: the last page stays as it was, and takes no more input (the core ignores
        // any event now; the app decides what comes next, as `quire run` does).
        host.onCompleted = { [weak self] _ in self?.showCompleted() }
        if host.session.completed != nil { showCompleted() }
        g_object_set_data_full(quire_object(outer), EmbeddedView.key, Unmanaged.passRetained(self).toOpaque(), releaseEmbeddedView)
        // `destroy` on the outer widget: drops the view (its data's destroy notifier releases it).
        let widget = outer
        Widget.onDestroy(unowned: widget) { g_object_set_data(quire_object(widget), EmbeddedView.key, nil) }
    }

    /// The engine was freed while the widget lives: it shows the last state and takes no input.
    private func engineFreed() {
        gtk_widget_set_sensitive(quire_widget(outer), 0)
    }

    private func showCompleted() {
        gtk_widget_add_css_class(quire_widget(outer), "completed")
        gtk_widget_set_sensitive(quire_widget(outer), 0)
    }

    /// A new widget over an engine (on the main actor); nil when the engine is freed or GTK is not
    /// initialized.
    static func make(_ handle: EngineHandle) -> UnsafeMutableRawPointer? {
        guard let engine = Engine.from(handle), gtk_is_initialized() != 0 else { return nil }
        return EmbeddedView(engine: engine, handle: handle).outer
    }

    /// The view behind a widget from `quire_engine_gtk_view_new` (tests).
    static func of(_ widget: UnsafeMutableRawPointer) -> EmbeddedView? {
        guard let data = g_object_get_data(quire_object(widget), key) else { return nil }
        return Unmanaged<EmbeddedView>.fromOpaque(data).takeUnretainedValue()
    }
}

/// Releases the view when the outer widget lets go of it: it stops listening to the engine first.
private let releaseEmbeddedView: GDestroyNotify = { data in
    guard let data else { return }
    let pointer = CPointerBox(data)
    MainActor.assumeIsolated {
        let view = Unmanaged<EmbeddedView>.fromOpaque(pointer.raw).takeRetainedValue()
        view.store.detach()
    }
}

/// A C pointer carried into `MainActor.assumeIsolated` (we are on the main thread already).
private struct CPointerBox: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }
}
