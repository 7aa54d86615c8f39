/// The keys of a `duration` field and the arithmetic of its picker wheels (a countdown-mode
/// `UIDatePicker`): hours 0–23, minutes 0–59 in steps of `minuteInterval`, optional seconds 0–59.
public struct DurationOptions: Sendable, Hashable {
    public var components: [DurationComponent] = [.hours, .minutes]
    public var minuteInterval = 1
    public var min = 60
    public var max = 86_340

    public static let defaultComponents: [DurationComponent] = [.hours, .minutes]

    public var hasSeconds: Bool { components.contains(.seconds) }

    /// Whether the wheels can show `seconds` exactly.
    public func isRepresentable(_ seconds: Int) -> Bool {
        guard seconds >= 0, seconds < 86_400 else { return false }
        let minutes = (seconds % 3600) / 60
        return minutes % minuteInterval == 0 && (hasSeconds || seconds % 60 == 0)
    }

    /// The largest value the wheels can show.
    public var largestRepresentable: Int {
        23 * 3600 + (59 / minuteInterval) * minuteInterval * 60 + (hasSeconds ? 59 : 0)
    }

    /// The smallest value the wheels can show that is at least `seconds`; nil if none.
    public func representable(atLeast seconds: Int) -> Int? {
        let value = Swift.max(0, seconds)
        var hours = value / 3600
        var minutes = (value % 3600) / 60
        var secs = value % 60
        if !hasSeconds && secs > 0 {
            secs = 0
            minutes += 1
        }
        if minutes % minuteInterval != 0 {
            minutes = (minutes / minuteInterval + 1) * minuteInterval
            secs = 0
        }
        if minutes >= 60 {
            minutes = 0
            secs = 0
            hours += 1
        }
        guard hours < 24 else { return nil }
        return hours * 3600 + minutes * 60 + secs
    }

    /// The largest value the wheels can show that is at most `seconds`; nil if none.
    public func representable(atMost seconds: Int) -> Int? {
        guard seconds >= 0 else { return nil }
        let value = Swift.min(seconds, largestRepresentable)
        let hours = value / 3600
        var minutes = (value % 3600) / 60
        var secs = hasSeconds ? value % 60 : 0
        if minutes % minuteInterval != 0 {
            minutes = (minutes / minuteInterval) * minuteInterval
            secs = hasSeconds ? 59 : 0
        }
        return hours * 3600 + minutes * 60 + secs
    }

    /// The smallest selectable value: `min` snapped up to what the wheels show.
    public var snappedMin: Int { representable(atLeast: min) ?? min }
    /// The largest selectable value: `max` clamped down to what the wheels show.
    public var clampedMax: Int { representable(atMost: max) ?? max }

    /// A wheel position snapped into `min...max` (CONTRACT §2: snap up below min, clamp down above max).
    public func snap(_ seconds: Int) -> Int {
        if seconds < min { return snappedMin }
        if seconds > max { return clampedMax }
        return seconds
    }

    /// The value a wheel shows for `seconds`.
    public func wheel(_ component: DurationComponent, of seconds: Int) -> Int {
        switch component {
        case .hours: seconds / 3600
        case .minutes: (seconds % 3600) / 60
        case .seconds: seconds % 60
        }
    }

    /// The values wheel `component` offers: those some value between `snappedMin` and
    /// `clampedMax` shows on it, so a wheel never offers a value the picker cannot take (the hours
    /// wheel of a field whose `max` is 2 h offers 0, 1 and 2). Minutes narrow only when the range
    /// lies within one hour, seconds only within one minute.
    public func reachable(_ component: DurationComponent) -> [Int] {
        let low = snappedMin
        let high = Swift.max(clampedMax, low)
        let sameHour = low / 3600 == high / 3600
        let sameMinute = sameHour && wheel(.minutes, of: low) == wheel(.minutes, of: high)
        switch component {
        case .hours:
            return Array(wheel(.hours, of: low)...wheel(.hours, of: high))
        case .minutes:
            let all = Array(stride(from: 0, to: 60, by: minuteInterval))
            guard sameHour else { return all }
            return all.filter { $0 >= wheel(.minutes, of: low) && $0 <= wheel(.minutes, of: high) }
        case .seconds:
            guard sameMinute else { return Array(0...59) }
            return Array(wheel(.seconds, of: low)...wheel(.seconds, of: high))
        }
    }

    /// How far one step of wheel `component` goes: `minuteInterval` for minutes, else 1.
    public func wheelStep(_ component: DurationComponent) -> Int {
        component == .minutes ? minuteInterval : 1
    }

    /// Turns one wheel by `steps` (wrapping within the wheel, never carrying), then snaps into range.
    public func spin(_ seconds: Int, _ component: DurationComponent, by steps: Int) -> Int {
        var hours = wheel(.hours, of: seconds)
        var minutes = wheel(.minutes, of: seconds)
        var secs = wheel(.seconds, of: seconds)
        switch component {
        case .hours:
            hours = ((hours + steps % 24) % 24 + 24) % 24
        case .minutes:
            let positions = 60 / minuteInterval
            let position = minutes / minuteInterval
            minutes = (((position + steps % positions) % positions + positions) % positions) * minuteInterval
        case .seconds:
            secs = ((secs + steps % 60) % 60 + 60) % 60
        }
        return snap(hours * 3600 + minutes * 60 + (hasSeconds ? secs : 0))
    }
}
