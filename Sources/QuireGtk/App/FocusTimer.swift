/// The main window's focus timer (the seeds' countdown with start / pause / reset and an `mm:ss`
/// display): a value changed only by its methods, time given to it as milliseconds (`advance`),
/// so it is tested without a clock. The app feeds it once a second while it runs.
public struct FocusTimer: Sendable, Equatable {
    /// The length of one session, in seconds (the walkthrough's duration).
    public private(set) var duration: Int
    /// What is left, in milliseconds.
    public private(set) var remainingMs: Double
    public private(set) var isRunning = false

    public init(duration: Int) {
        self.duration = max(0, duration)
        remainingMs = Double(self.duration) * 1000
    }

    /// Seconds left, rounded up (a timer showing 0:00 is done).
    public var remaining: Int { Int((remainingMs / 1000).rounded(.up)) }

    /// Start/pause is disabled at zero; reset is disabled when there is nothing to reset.
    public var canStart: Bool { remainingMs > 0 }
    public var canReset: Bool { isRunning || remainingMs != Double(duration) * 1000 }

    public mutating func start() {
        if canStart { isRunning = true }
    }

    public mutating func pause() { isRunning = false }

    public mutating func toggle() {
        if isRunning { pause() } else { start() }
    }

    public mutating func reset() {
        isRunning = false
        remainingMs = Double(duration) * 1000
    }

    /// Time passed while running; the timer stops at zero.
    public mutating func advance(milliseconds: Double) {
        guard isRunning, milliseconds > 0 else { return }
        remainingMs = max(0, remainingMs - milliseconds)
        if remainingMs == 0 { isRunning = false }
    }

    /// "25:00", "4:59", "1:05:00": `mm:ss`, or `h:mm:ss` from an hour up.
    public var display: String { FocusTimer.format(remaining) }

    public static func format(_ seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let secs = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(two(minutes)):\(two(secs))"
    }
}
