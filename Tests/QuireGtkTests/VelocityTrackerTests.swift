import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

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

@Suite struct DotGeometryTests {
    @Test func aShortFlowShowsEveryDotCentred() {
        let geometry = DotGeometry(count: 4, position: 1)
        #expect(geometry.drawn.map(\.index) == [0, 1, 2, 3])
        #expect(geometry.drawn.allSatisfy { $0.fade == 1 })
        // 4 dots of 8 px with 10 px gaps = 62 px, centred in 100 px.
        #expect(geometry.center(0, width: 100) == 23)
        #expect(geometry.hit(x: 23 + 18 * 2, width: 100) == 2)
        #expect(geometry.hit(x: 2, width: 100) == nil)
        // Half-way between two dots is beside both (a click there steps left or right).
        #expect(geometry.hit(x: 23 + 9, width: 100) == nil)
        #expect(geometry.hit(x: 23 + 6, width: 100) == 0)
    }

    @Test func aLongFlowShowsAStripOfFiveThatFollowsThePosition() {
        let start = DotGeometry(count: 1000, position: 0)
        #expect(start.stripWidth == 5 * 8 + 4 * 10)
        #expect(start.drawn.map(\.index) == Array(0...4))
        let middle = DotGeometry(count: 1000, position: 500)
        #expect(middle.first == 498)
        #expect(middle.drawn.map(\.index) == Array(498...502))
        #expect(middle.hit(x: middle.center(500, width: 200), width: 200) == 500)
        let moving = DotGeometry(count: 1000, position: 500.5)
        // Half-way between two strips, the end dots are half faded in.
        #expect(moving.drawn.first?.index == 498 && moving.drawn.first?.fade == 0.5)
        #expect(moving.drawn.last?.index == 503 && moving.drawn.last?.fade == 0.5)
        let end = DotGeometry(count: 1000, position: 999)
        #expect(end.drawn.map(\.index) == Array(995...999))
        // Six pages: a strip of five too, so the bar fits 360 px.
        #expect(DotGeometry(count: 6, position: 0).drawn.map(\.index) == Array(0...4))
    }
}
