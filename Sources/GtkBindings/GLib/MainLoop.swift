import CGtk
import CGtkShim

/// GLib owns the main thread: while `g_application_run` holds it, Swift's main queue (where
/// `@MainActor` tasks and `DispatchQueue.main` work go) runs only if GLib's loop drains it. The
/// bridge watches libdispatch's main-queue handle (an eventfd) from a GLib source, so queued work
/// runs as soon as it is queued and the loop sleeps while nothing is: no polling.
public enum MainQueueBridge {
    /// Installs the source on GLib's default main context (once). Call it from the main thread of a
    /// program whose `main` is synchronous: a process that called `dispatch_main()` (an async
    /// `main`, a test runner) drains the main queue itself and must not install it.
    @MainActor
    @discardableResult
    public static func install() -> Bool {
        quire_install_main_queue_source() != 0
    }
}

/// GTK's start-up without a display check: `gtk_init_check()` is false when there is no display,
/// and creating a widget after that crashes, so nothing may be built then.
public enum Toolkit {
    @MainActor private static var initialized: Bool?

    /// Initializes GTK once; false when no display can be opened.
    @MainActor
    public static func initialize() -> Bool {
        if let initialized { return initialized }
        let ok = gtk_init_check() != 0
        initialized = ok
        return ok
    }

    /// Runs GLib's default main context until nothing is pending (tests lay out and draw this way).
    @MainActor
    public static func iterate() {
        while g_main_context_pending(nil) != 0 { g_main_context_iteration(nil, 0) }
    }

    /// Runs the loop for a while (tests wait for frames this way); returns when `until` holds or
    /// `milliseconds` have passed.
    @MainActor
    public static func run(milliseconds: Int, until done: () -> Bool = { false }) {
        let end = g_get_monotonic_time() + milliseconds * 1000
        while !done() && g_get_monotonic_time() < end {
            if g_main_context_pending(nil) != 0 {
                g_main_context_iteration(nil, 0)
            } else {
                g_usleep(1000)
            }
        }
    }
}

/// One-shot work for when GLib's loop is idle.
public enum MainLoop {
    /// A pending idle call; dropping it before it ran cancels it.
    @MainActor
    public final class IdleCall {
        fileprivate nonisolated(unsafe) var id: guint = 0
        fileprivate nonisolated(unsafe) var ran = false

        deinit {
            if !ran && id != 0 { g_source_remove(id) }
        }
    }

    private final class Work {
        let body: @MainActor () -> Void
        weak var call: IdleCall?
        init(_ body: @escaping @MainActor () -> Void) { self.body = body }
    }

    /// Runs `body` once when the loop is idle (by default at idle priority: after drawing and
    /// input; `G_PRIORITY_HIGH`: before anything else the loop has to do, drawing included).
    @MainActor
    public static func idle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE, _ body: @escaping @MainActor () -> Void) -> IdleCall {
        let call = IdleCall()
        let work = Work(body)
        work.call = call
        let data = Unmanaged.passRetained(work).toOpaque()
        call.id = g_idle_add_full(
            priority,
            { data in
                let data = CPointer(data)
                MainActor.assumeIsolated {
                    let work = Unmanaged<Work>.fromOpaque(data.raw!).takeUnretainedValue()
                    work.call?.ran = true
                    work.body()
                }
                return 0
            }, data,
            { data in
                Unmanaged<Work>.fromOpaque(data!).release()
            })
        return call
    }
}
