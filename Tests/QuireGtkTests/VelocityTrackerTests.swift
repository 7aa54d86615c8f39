import Testing

@testable import QuireGtk

@Suite struct VelocityTrackerTests {
    @Test func velocityIsDistanceOverTheLastWindowPerSecond() {
        var tracker = VelocityTracker(window: 100)
        for step in 0...10 { tracker.add(time: Double(step) * 16, offset: Double(step) * -8) }
        // 8 px every 16 ms = 500 px/s towards the next page.
        #expect(abs(tracker.velocity(at: 160) - -500) < 1e-9)
    }

    @Test func aPointerThatRestedBeforeReleaseReleasesAtZero() {
        var tracker = VelocityTracker(window: 100)
        for step in 0...10 { tracker.add(time: Double(step) * 16, offset: Double(step) * -8) }
        #expect(tracker.velocity(at: 400) == 0)
    }

    @Test func onlyTheLastWindowCounts() {
        var tracker = VelocityTracker(window: 100)
        tracker.add(time: 0, offset: 0)
        tracker.add(time: 50, offset: -300)  // fast start…
        for step in 1...10 { tracker.add(time: 50 + Double(step) * 20, offset: -300 - Double(step)) }  // …slow end
        #expect(abs(tracker.velocity(at: 250) - -50) < 1e-9)
    }
}
