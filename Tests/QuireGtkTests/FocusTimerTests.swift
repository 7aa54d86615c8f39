import Testing

@testable import QuireGtk

@Suite struct FocusTimerTests {
    @Test func itShowsMinutesAndSecondsOrHoursFromAnHourUp() {
        #expect(FocusTimer(duration: 1500).display == "25:00")
        #expect(FocusTimer(duration: 299).display == "04:59")
        #expect(FocusTimer(duration: 3900).display == "1:05:00")
        #expect(FocusTimer(duration: 0).display == "00:00")
    }

    @Test func itCountsDownOnlyWhileRunning() {
        var timer = FocusTimer(duration: 60)
        timer.advance(milliseconds: 5000)
        #expect(timer.remaining == 60)
        timer.start()
        timer.advance(milliseconds: 1000)
        #expect(timer.display == "00:59")
        timer.advance(milliseconds: 400)
        #expect(timer.display == "00:59")  // rounded up: 58.6 s left
        timer.pause()
        timer.advance(milliseconds: 10_000)
        #expect(timer.remaining == 59)
    }

    @Test func itStopsAtZeroAndCannotStartThere() {
        var timer = FocusTimer(duration: 2)
        timer.start()
        timer.advance(milliseconds: 5000)
        #expect(timer.remaining == 0)
        #expect(!timer.isRunning)
        #expect(!timer.canStart)
        timer.start()
        #expect(!timer.isRunning)
        #expect(FocusTimer(duration: 0).canStart == false)
    }

    @Test func resetRestoresTheDurationAndStops() {
        var timer = FocusTimer(duration: 90)
        #expect(!timer.canReset)
        timer.start()
        #expect(timer.canReset)
        timer.advance(milliseconds: 30_000)
        timer.reset()
        #expect(!timer.isRunning)
        #expect(timer.display == "01:30")
        #expect(!timer.canReset)
    }
}
