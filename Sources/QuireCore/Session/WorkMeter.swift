/// Counts units of work (fields scanned, condition nodes evaluated, index operations) in debug
/// builds, so a test can show that per-event work does not grow with the size of a flow. Each
/// measurement is scoped to the calling task; release builds compile the counting away.
public final class WorkMeter: @unchecked Sendable {
    public private(set) var units = 0

    public init() {}

    @TaskLocal static var current: WorkMeter?

    /// Runs `body`, counting the work the session does inside it.
    public static func measure<R>(_ body: () throws -> R) rethrows -> (result: R, units: Int) {
        let meter = WorkMeter()
        let result = try $current.withValue(meter) { try body() }
        return (result, meter.units)
    }

    static func count(_ units: Int = 1) {
        #if DEBUG
            current?.units += units
        #endif
    }
}
