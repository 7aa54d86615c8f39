import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

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
        // Paused part-way: both buttons say Resume.
        #expect(main.toggleTitle == "Resume" && header.toggleTitle == "Resume")
        model.reset()
        #expect(main.shownTime == "25:00" && header.shownTime == "25:00")
        #expect(main.toggleTitle == "Start" && header.toggleTitle == "Start")
    }

    @Test func aTimerThatRanOutSaysTimesUpInBothViews() throws {
        let flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        let model = FocusTimerModel(duration: 2)
        let main = MainView(flow: flow, locale: "en", values: JSONObject(), timer: model)
        let header = TimerHeaderButton(locale: "en", timer: model)
        #expect(!main.showsEnded)
        #expect(main.timeAccessibleLabel == "Focus timer: 2 s remaining")
        model.toggle()
        model.advance(milliseconds: 2000)
        #expect(main.showsEnded && main.shownTime == "00:00")
        #expect(header.shownTime == "Time's up")
        #expect(main.timeAccessibleLabel == "Focus timer: Time's up")
        model.reset()
        #expect(!main.showsEnded && header.shownTime == "00:02")
    }

    @Test func theSettingsShowDurationsInTheCoresOneFormat() throws {
        let flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        var values = JSONObject()
        values.append("focusTime", 1500)
        values.append("remindAfter", 90)
        let main = MainView(flow: flow, locale: "en", values: values, timer: FocusTimerModel(duration: 1500))
        #expect(main.settingTexts == ["Focus time": "25 min", "Remind me after": "1 min 30 s"])
        let japanese = MainView(flow: flow, locale: "ja", values: values, timer: FocusTimerModel(duration: 1500))
        #expect(japanese.settingTexts == ["集中時間": "25分", "リマインドまでの時間": "1分30秒"])
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
        // Through gettext: the catalogue scripts/setup compiles into .build/locale.
        #expect(Gettext.folder != nil, "no compiled catalogue: run scripts/setup (msgfmt po/ja.po into .build/locale)")
        let strings = AppStrings(locale: "ja-JP")
        #expect(strings.start == "開始")
        #expect(strings.resume == "再開")
        #expect(strings.timesUp == "時間です")
        #expect(AppStrings(locale: "en").resume == "Resume")
        #expect(AppStrings(locale: "ja").resume == "再開")
        #expect(strings.remaining("25:00") == "残り 25:00")
        #expect(AppStrings(locale: "en").remaining("25:00") == "25:00 remaining")
    }
}

/// The preferences window: the duration settings, one spin button per wheel, kept within the
/// field's bounds by the core's rule and passed on at once.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct PreferencesViewTests {
    @Test func aDurationIsEditedWithinItsBoundsAndPassedOn() throws {
        let flow = try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        var values = JSONObject()
        values.append("focusTime", 1500)
        values.append("userName", "Aki")
        let view = PreferencesView(flow: flow, locale: "en", values: values, parent: nil)
        defer { gtk_window_destroy(quire_window(view.window.pointer)) }
        var changes: [String] = []
        view.onChange = { field, seconds in changes.append("\(field)=\(seconds)") }
        let row = try #require(view.row("focusTime"))
        #expect(view.rows.count == 1)  // remindAfter has no value in these settings
        #expect(row.shownSeconds == 1500)
        row.set(.minutes, to: 40)
        #expect(changes == ["focusTime=2400"])
        // Below the field's minimum (5 min): snapped up to it, shown so.
        row.set(.minutes, to: 0)
        #expect(changes.last == "focusTime=300")
        Toolkit.iterate()
        #expect(row.shownSeconds == 300)
        row.set(.hours, to: 1)
        #expect(changes.last == "focusTime=3900")
        // Above its maximum (2 h): clamped down to it.
        row.set(.hours, to: 3)
        #expect(changes.last == "focusTime=7200")
        Toolkit.iterate()
        #expect(row.shownSeconds == 7200)
    }
}
