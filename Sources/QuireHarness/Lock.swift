#if canImport(Glibc)
    import Glibc
#endif

/// A value that threads share, guarded by a `pthread_mutex_t`.
///
/// The harness's one lock. Not `Synchronization.Mutex`: on Linux that lock waits with raw futex
/// system calls, which ThreadSanitizer cannot see, so every section it guards looked like a data
/// race in a `-sanitize=thread` build. ThreadSanitizer intercepts `pthread_mutex_lock` and
/// `pthread_mutex_unlock`, so with this lock the harness runs under it with no report and no
/// suppression (docs/building.md, "Sanitizers"). It costs the same here: a few short sections a
/// script.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
