import GtkBindings
import QuireGtk
import QuireCore

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

    /// A timer as it was: `remainingMs` is kept within `0...duration`, and a timer with nothing
    /// left does not run.
    public init(duration: Int, remainingMs: Double, isRunning: Bool) {
        self.init(duration: duration)
        self.remainingMs = remainingMs.isFinite ? min(max(0, remainingMs), Double(self.duration) * 1000) : self.remainingMs
        self.isRunning = isRunning && self.remainingMs > 0
    }

    /// A new length (the settings changed): a timer at its full length shows the new one; one
    /// that was started (running or paused part-way) goes on, and Reset brings the new length.
    public mutating func setDuration(_ seconds: Int) {
        let atFullLength = !canReset
        duration = max(0, seconds)
        if atFullLength {
            remainingMs = Double(duration) * 1000
        } else {
            remainingMs = min(remainingMs, Double(duration) * 1000)
            if remainingMs == 0 { isRunning = false }
        }
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

    /// The clock face: "25:00", "04:59", "1:05:00" (the core's `Strings.countdown`).
    public var display: String { Strings.countdown(remaining) }

    /// Ran out: counted down to zero (a timer of no length has not). It shows "Time's up" until
    /// it is reset or given a new length; the app hears the moment it happens (`FocusTimerModel.onEnded`).
    public var hasEnded: Bool { duration > 0 && remainingMs == 0 }

    /// Stopped part-way: its button says Resume, not Start.
    public var isPaused: Bool { !isRunning && remainingMs > 0 && remainingMs < Double(duration) * 1000 }

    /// What the start/pause button does now, and so what it says.
    public enum Control: Sendable, Equatable {
        case start, pause, resume
    }

    public var control: Control { isRunning ? .pause : isPaused ? .resume : .start }

    /// Whether going from `before` to `after` is the moment the timer ran out.
    public static func runsOut(from before: FocusTimer, to after: FocusTimer) -> Bool { !before.hasEnded && after.hasEnded }
}

extension FocusTimer {
    /// The timer as saved between runs (`quire.timer/1`): its length, what was left and whether it
    /// ran, at a wall-clock time (µs since the epoch). A running timer resumes from the wall clock:
    /// the time the app was closed counts, as it would for a kitchen timer.
    public struct Saved: Sendable, Equatable {
        public var duration: Int
        public var remainingMs: Double
        public var isRunning: Bool
        /// Wall-clock time of the save, µs since the Unix epoch (`g_get_real_time`).
        public var savedAt: Int64

        public init(_ timer: FocusTimer, at now: Int64) {
            duration = timer.duration
            remainingMs = timer.remainingMs
            isRunning = timer.isRunning
            savedAt = now
        }

        /// The timer at `now`: a running one has lost the time since it was saved (none if the
        /// clock went back) and stops at zero.
        public func resumed(at now: Int64) -> FocusTimer {
            var remaining = remainingMs
            if isRunning { remaining -= Double(max(0, now - savedAt)) / 1000 }
            return FocusTimer(duration: duration, remainingMs: remaining, isRunning: isRunning)
        }

        public var json: JSONValue {
            var object = JSONObject()
            object.append("format", "quire.timer/1")
            object.append("duration", .number(Double(duration)))
            object.append("remainingMs", .number(remainingMs))
            object.append("running", .bool(isRunning))
            object.append("savedAt", .number(Double(savedAt)))
            return .object(object)
        }

        /// Reads a saved timer; nil when it is not one (another format or version, a missing or
        /// mistyped key, numbers out of range).
        public init?(json: JSONValue) {
            guard json["format"] == .string("quire.timer/1"), let duration = json["duration"]?.intValue, duration >= 0,
                duration <= 366 * 86_400, let remaining = json["remainingMs"]?.numberValue, remaining.isFinite, remaining >= 0,
                let running = json["running"]?.boolValue, let savedAt = json["savedAt"]?.numberValue, savedAt.isFinite,
                abs(savedAt) < 9e15
            else { return nil }
            self.duration = duration
            remainingMs = remaining
            isRunning = running
            self.savedAt = Int64(savedAt)
        }
    }
}
