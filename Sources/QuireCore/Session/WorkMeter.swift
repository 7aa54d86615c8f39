/// Counts units of work (fields scanned, condition nodes evaluated, index operations) in debug
/// builds, so a test can show that per-event work does not grow with the size of a flow. Each
/// measurement is scoped to the calling task; release builds compile the counting away.
public final class WorkMeter: @unchecked Sendable {
    public private(set) var units = 0

    public init() {}

    // Debug builds only: a task-local value needs Swift's concurrency runtime, which would make
    // every program that loads libquire also load libswift_Concurrency and libdispatch (0.6 MiB
    // of a headless host's memory, docs/embedding.md).
    #if DEBUG
        @TaskLocal static var current: WorkMeter?
    #endif

    /// Runs `body`, counting the work the session does inside it (debug builds; a release build
    /// counts nothing and returns 0 units).
    public static func measure<R>(_ body: () throws -> R) rethrows -> (result: R, units: Int) {
        #if DEBUG
            let meter = WorkMeter()
            let result = try $current.withValue(meter) { try body() }
            return (result, meter.units)
        #else
            return (try body(), 0)
        #endif
    }

    static func count(_ units: Int = 1) {
        #if DEBUG
            current?.units += units
        #endif
    }
}
