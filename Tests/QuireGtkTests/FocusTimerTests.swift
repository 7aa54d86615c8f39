import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

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

    @Test func aTimerStoppedPartWaySaysResumeNotStart() {
        var timer = FocusTimer(duration: 90)
        #expect(timer.control == .start && !timer.isPaused)
        timer.start()
        #expect(timer.control == .pause)
        timer.advance(milliseconds: 1000)
        timer.pause()
        #expect(timer.control == .resume && timer.isPaused)
        timer.toggle()
        #expect(timer.control == .pause)
        timer.reset()
        #expect(timer.control == .start)
        // Started and paused before a whole millisecond passed: nothing to resume.
        timer.start()
        timer.pause()
        #expect(timer.control == .start)
        // A saved timer paused part-way comes back saying Resume.
        #expect(FocusTimer(duration: 90, remainingMs: 3000, isRunning: false).control == .resume)
    }

    @Test func itEndsOnceWhenItRunsOutAndResetClearsIt() {
        var timer = FocusTimer(duration: 2)
        #expect(!timer.hasEnded)
        timer.start()
        let before = timer
        timer.advance(milliseconds: 1999)
        #expect(!timer.hasEnded && !FocusTimer.runsOut(from: before, to: timer))
        let almost = timer
        timer.advance(milliseconds: 1)
        #expect(timer.hasEnded && !timer.isRunning)
        #expect(FocusTimer.runsOut(from: almost, to: timer))
        #expect(!FocusTimer.runsOut(from: timer, to: timer))
        #expect(timer.control == .start && !timer.canStart && timer.canReset)
        // A new length does not hide it (a countdown that ran out stays so until Reset) …
        timer.setDuration(60)
        #expect(timer.hasEnded)
        // … Reset does.
        timer.reset()
        #expect(!timer.hasEnded && timer.display == "01:00")
        // A timer of no length never "ends".
        #expect(!FocusTimer(duration: 0).hasEnded)
    }
}

@MainActor
@Suite(.serialized, GtkTest.enabled)
struct FocusTimerModelTests {
    @Test func theModelSaysOnceThatItRanOutAfterItsViewsShowIt() throws {
        let model = FocusTimerModel(duration: 3)
        let flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        let main = MainView(flow: flow, locale: "en", values: JSONObject(), timer: model)
        var endings: [Bool] = []
        model.onEnded = { _ in endings.append(main.showsEnded) }
        model.toggle()
        model.advance(milliseconds: 2000)
        #expect(endings.isEmpty && !main.showsEnded)
        model.advance(milliseconds: 1500)
        #expect(endings == [true])
        model.advance(milliseconds: 1000)
        model.toggle()  // cannot start at zero
        #expect(endings == [true])
        model.reset()
        #expect(!main.showsEnded)
        // A saved timer that ran out while the app was closed shows it, but does not ring again.
        let saved = FocusTimerModel(FocusTimer(duration: 60, remainingMs: 0, isRunning: false))
        var rang = false
        saved.onEnded = { _ in rang = true }
        let again = MainView(flow: flow, locale: "en", values: JSONObject(), timer: saved)
        #expect(again.showsEnded && !rang)
    }
}
