import CGtk
import QuireCore
import Testing

@testable import QuireGtk

/// The main window's two views of one focus timer: the panel and the header button's popover.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct MainViewTests {
    @Test func thePanelAndTheHeaderButtonShowOneTimerTogether() throws {
        let flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        let model = FocusTimerModel(duration: 1500)
        var values = JSONObject()
        values.append("focusTime", 1500)
        values.append("userName", "Aki")
        let main = MainView(flow: flow, locale: "en", values: values, timer: model)
        let header = TimerHeaderButton(locale: "en", timer: model)
        #expect(main.shownTime == "25:00" && header.shownTime == "25:00")
        #expect(main.toggleTitle == "Start" && header.toggleTitle == "Start")
        #expect(!model.isTicking)
        model.toggle()
        #expect(main.toggleTitle == "Pause" && header.toggleTitle == "Pause")
        #expect(model.isTicking)
        model.advance(milliseconds: 1000)
        #expect(main.shownTime == "24:59" && header.shownTime == "24:59")
        model.toggle()
        #expect(!model.isTicking)
        model.reset()
        #expect(main.shownTime == "25:00" && header.shownTime == "25:00")
    }

    @Test func aRunningTimerIsFedOnceASecondAndStopsAtZero() throws {
        let model = FocusTimerModel(duration: 1)
        model.toggle()
        Toolkit.run(milliseconds: 2500) { !model.timer.isRunning }
        #expect(model.timer.remaining == 0)
        #expect(!model.isTicking)
        #expect(!model.timer.canStart)
    }

    @Test func japaneseTimerWords() {
        let strings = AppStrings(locale: "ja-JP")
        #expect(strings.start == "開始")
        #expect(strings.remaining("25:00") == "残り 25:00")
        #expect(AppStrings(locale: "en").remaining("25:00") == "25:00 remaining")
    }
}
