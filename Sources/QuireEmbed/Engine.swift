import CQuire
import QuireCore

#if canImport(Glibc)
    import Glibc
#endif

/// What a `QuireEngine *` handle refers to: the session, its observer and the bookkeeping that
/// lets an observer send events or free the engine from inside a callback.
///
/// Besides the one C observer, fronts in the same process (the GTK view of
/// `quire_engine_gtk_view_new`) follow the session as listeners: each is told once per event,
/// with all of its notifications (possibly none: a tick that only moves the pager), before the
/// observer sees the first of them, so what the view shows is the new state when the app's
/// observer runs. An event a listener sends while being told is applied after the observer has
/// seen the current event, so the observer still receives every notification in order.
package final class Engine {
    package var session: Session
    var observer: Observer?
    /// Told each announcement of each event (CONTRACT §6.4); none are computed without it.
    var announcer: Announcer?
    private var listeners: [(id: Int, listener: Listener)] = []
    private var nextListenerID = 1
    /// Events listeners sent while being told (a handout is the listeners' calls for one
    /// event), applied once the current event is delivered, in order.
    private var sentWhileTelling = ReentrancyQueue<Event>()
    /// How many `send`s are delivering notifications right now (an observer may send again).
    var delivering = 0
    /// `quire_engine_free` was called while notifications were being delivered: the engine is
    /// freed when the outermost delivery ends.
    var freeRequested = false
    /// Reused across events, so sending allocates nothing when no observer is set.
    var buffer: [SessionNotification] = []
    /// The thread that created the engine, its owner: the C API refuses calls from any other
    /// (`Engine.forCall`), so two threads never run inside one engine at once.
    let owner = pthread_self()
    /// Whether the session is as it started from its flow: made from a flow (not restored from a
    /// snapshot) and sent no event yet. Only then may its starting values be set
    /// (`quire_engine_set_starting_values`).
    var fresh: Bool

    init(session: Session, fresh: Bool) {
        self.session = session
        self.fresh = fresh
    }

    /// What a listener is told: every event applied (with its notifications), and that the
    /// engine was freed (then nothing more).
    package struct Listener {
        package var changed: (Event, [SessionNotification]) -> Void
        package var detached: () -> Void

        package init(changed: @escaping (Event, [SessionNotification]) -> Void, detached: @escaping () -> Void) {
            self.changed = changed
            self.detached = detached
        }
    }

    /// Adds a listener; the id removes it.
    package func addListener(_ listener: Listener) -> Int {
        defer { nextListenerID += 1 }
        listeners.append((nextListenerID, listener))
        return nextListenerID
    }

    package func removeListener(_ id: Int) {
        listeners.removeAll { $0.id == id }
    }

    package var listenerCount: Int { listeners.count }

    /// A new handle owning a new engine; `fresh` when the session starts from its flow (not a
    /// snapshot).
    static func handle(for session: Session, fresh: Bool) -> UnsafeMutablePointer<QuireEngine> {
        let handle = UnsafeMutablePointer<QuireEngine>.allocate(capacity: 1)
        handle.initialize(to: QuireEngine(impl: Unmanaged.passRetained(Engine(session: session, fresh: fresh)).toOpaque()))
        return handle
    }

    /// The engine behind a handle; nil for NULL or a handle already freed.
    package static func from(_ handle: UnsafeMutablePointer<QuireEngine>?) -> Engine? {
        guard let handle, let impl = handle.pointee.impl else { return nil }
        let engine = Unmanaged<Engine>.fromOpaque(impl).takeUnretainedValue()
        return engine.freeRequested ? nil : engine
    }

    /// The engine behind a handle, for a call of the C API named `function`: nil for NULL, a
    /// handle already freed, or a call from a thread other than the engine's owner. That last is
    /// refused with a critical (GLib's, when GLib is in the process; else a line on stderr) and,
    /// when `error` is given, an error saying so; the engine is not touched.
    static func forCall(
        _ handle: UnsafeMutablePointer<QuireEngine>?, _ function: StaticString,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<QuireEngineError>?>? = nil
    ) -> Engine? {
        guard let handle, let impl = handle.pointee.impl else { return nil }
        let engine = Unmanaged<Engine>.fromOpaque(impl).takeUnretainedValue()
        guard pthread_equal(engine.owner, pthread_self()) != 0 else {
            let problem = "the engine is used from a thread other than the one that created it"
            CBridge.fail(error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT, "\(function): \(problem); the call was refused")
            critical(function, problem)
            return nil
        }
        return engine.freeRequested ? nil : engine
    }

    /// A programmer error reported as GLib reports one (`g_return_if_fail`'s critical, so
    /// G_DEBUG=fatal-criticals and g_test_expect_message() see it), looked up at run time: the
    /// C API itself does not need GLib.
    static func critical(_ function: StaticString, _ problem: String) {
        typealias Warning = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "g_return_if_fail_warning") {
            let warn = unsafeBitCast(symbol, to: Warning.self)
            function.withUTF8Buffer { name in
                let text = String(decoding: name, as: UTF8.self)
                warn("Quire", text, problem)
            }
        } else {
            let line = "Quire-CRITICAL **: \(function): \(problem)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
    }

    /// Releases the engine and the handle, now or (inside a delivery) when the delivery ends.
    /// Refused from a thread other than the owner's, unless `fromAnyThread` (a QuireSession's
    /// finalize, when its last reference dropped on another thread: nothing can be inside the
    /// engine then).
    static func free(_ handle: UnsafeMutablePointer<QuireEngine>?, fromAnyThread: Bool = false) {
        guard let handle, handle.pointee.impl != nil else { return }
        guard let engine = fromAnyThread ? from(handle) : forCall(handle, "quire_engine_free") else { return }
        // Listeners let go first: they hold the handle and must not use it once it is freed.
        let told = engine.listeners
        engine.listeners.removeAll()
        for entry in told { entry.listener.detached() }
        // Dropping the observer calls its destroy notifier, unless a delivery still holds it
        // (then the notifier runs when that callback has returned).
        engine.observer = nil
        engine.announcer = nil
        if engine.delivering > 0 {
            engine.freeRequested = true
            return
        }
        release(handle)
    }

    private static func release(_ handle: UnsafeMutablePointer<QuireEngine>) {
        guard let impl = handle.pointee.impl else { return }
        handle.pointee.impl = nil
        Unmanaged<Engine>.fromOpaque(impl).release()
        handle.deinitialize(count: 1)
        handle.deallocate()
    }

    /// Sends an event: tells the listeners, then delivers its notifications to the observer, one
    /// by one. Sent by a listener while it is being told, the event waits until the current one
    /// has been delivered.
    /// Returns what the event emitted (nothing when it was deferred).
    @discardableResult
    package func send(_ event: Event, handle: UnsafeMutablePointer<QuireEngine>) -> [SessionNotification] {
        guard sentWhileTelling.admit(event) else { return [] }
        fresh = false
        let before = announcer != nil ? session.errorsInView : nil
        session.send(event, into: &buffer)
        let said = announcer != nil ? session.announcements(after: event, emitted: buffer, before: before) : []
        guard !listeners.isEmpty || (observer != nil && !buffer.isEmpty) || !said.isEmpty else { return buffer }
        // A copy: an observer that sends another event reuses `buffer`.
        let notifications = buffer
        delivering += 1
        if !listeners.isEmpty {
            sentWhileTelling.begin()
            for entry in listeners {
                // Read each time: a listener may have removed another, or the engine been freed.
                guard !freeRequested, listeners.contains(where: { $0.id == entry.id }) else { continue }
                entry.listener.changed(event, notifications)
            }
            sentWhileTelling.end()
        }
        for notification in notifications {
            // Read each time: the observer may have been replaced, removed or the engine freed.
            guard !freeRequested, let current = observer else { break }
            JSONWriter.string(notification.json).withCString { text in
                current.callback(handle, text, current.userData)
            }
        }
        for announcement in said {
            guard !freeRequested, let current = announcer else { break }
            announcement.text.withCString { text in
                announcement.priority.rawValue.withCString { priority in current.callback(handle, text, priority, current.userData) }
            }
        }
        // What listeners sent meanwhile, in order, each delivered whole (still inside this
        // delivery, so the engine is released only at the outermost end).
        while !freeRequested, let next = sentWhileTelling.next() {
            send(next, handle: handle)
        }
        delivering -= 1
        if delivering == 0 && freeRequested {
            sentWhileTelling.removeAll()
            Engine.release(handle)
        }
        return notifications
    }
}

/// An observer callback with its user data; the destroy notifier runs when the last reference
/// goes (replaced, removed, engine freed, and any delivery using it has returned).
final class Observer {
    let callback: QuireEngineObserver
    let userData: UnsafeMutableRawPointer?
    let destroy: QuireDestroyNotify?

    init(callback: QuireEngineObserver, userData: UnsafeMutableRawPointer?, destroy: QuireDestroyNotify?) {
        self.callback = callback
        self.userData = userData
        self.destroy = destroy
    }

    deinit {
        destroy?(userData)
    }
}

/// An announcer callback with its user data, as `Observer`.
final class Announcer {
    let callback: QuireEngineAnnouncer
    let userData: UnsafeMutableRawPointer?
    let destroy: QuireDestroyNotify?

    init(callback: QuireEngineAnnouncer, userData: UnsafeMutableRawPointer?, destroy: QuireDestroyNotify?) {
        self.callback = callback
        self.userData = userData
        self.destroy = destroy
    }

    deinit {
        destroy?(userData)
    }
}

/// C strings and errors handed across the boundary.
enum CBridge {
    /// A copy of `text` in memory from `malloc`, for the caller to free (`quire_free`, or `free`).
    static func copy(_ text: String) -> UnsafeMutablePointer<CChar>? {
        text.withCString { strdup($0) }
    }

    /// Text from C: nil for NULL or bytes that are not UTF-8.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(validatingCString: pointer)
    }

    /// Sets `error` to a new error, GError-style: ignored when `error` is NULL, and a pointer
    /// that already holds an error is left alone (the first error wins). Each line is escaped
    /// (no control character from a document reaches the caller), and lines are joined by `\n`.
    static func fail(
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<QuireEngineError>?>?, _ code: QuireEngineErrorCode, _ lines: [String]
    ) {
        guard let error, error.pointee == nil else { return }
        guard let raw = malloc(MemoryLayout<QuireEngineError>.size) else { return }
        let made = raw.bindMemory(to: QuireEngineError.self, capacity: 1)
        let message = lines.map(Printable.line).joined(separator: "\n")
        made.initialize(to: QuireEngineError(code: Int32(bitPattern: code.rawValue), message: copy(message)))
        error.pointee = made
    }

    static func fail(
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<QuireEngineError>?>?, _ code: QuireEngineErrorCode, _ message: String
    ) {
        fail(error, code, [message])
    }
}
