/// The release velocity of a drag, from its recent samples (what GtkGestureSwipe computes, kept
/// here so the pager's drag and its touchpad scroll share it and tests can pin it).
///
/// Velocity is the distance covered over the last `window` ms before the release, per second; a
/// pointer that rested longer than `window` before letting go releases at 0.
public struct VelocityTracker: Sendable {
    public var window: Double
    private var samples: [(time: Double, offset: Double)] = []

    public init(window: Double = 100) {
        self.window = window
    }

    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// Adds the offset at a time (ms, any monotonic origin).
    public mutating func add(time: Double, offset: Double) {
        if let last = samples.last, time < last.time { samples.removeAll(keepingCapacity: true) }
        samples.append((time, offset))
        // Keep what the window needs plus one older sample to interpolate from.
        while samples.count > 2 && samples[1].time < time - window { samples.removeFirst() }
    }

    /// Pixels per second at release time `time`.
    public func velocity(at time: Double) -> Double {
        guard let last = samples.last, time - last.time <= window else { return 0 }
        guard let first = samples.first(where: { $0.time >= time - window && $0.time < last.time }) else { return 0 }
        let elapsed = last.time - first.time
        guard elapsed > 0 else { return 0 }
        return (last.offset - first.offset) / elapsed * 1000
    }
}
