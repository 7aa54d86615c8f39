import GtkBindings
import QuireGtk
import CAdw
import CGtk
import CGtkShim
import Glibc
import QuireHarness
import QuireCore

/// The walkthrough app behind `quire run`: a GtkApplication (`dev.quire.Quire`) whose window shows
/// a flow's walkthrough; finishing it opens the main window.
@MainActor
public final class QuireApplication {
    /// Exit codes of `run` (documented with the command).
    public static let applicationID = "dev.quire.Quire"

    private var flow: Flow
    let options: Options
    private let app: Application
    private var window: Window?
    private(set) var walkthrough: WalkthroughView?
    private var mainView: MainView?
    private var header: HeaderBar?
    /// The window's content under the header bar: toasts over the walkthrough or the main view.
    private var toasts: Widget?
    private var timer: FocusTimerModel?
    private var timerButton: TimerHeaderButton?
    /// "Time's up" spoken once focus has settled after the timer's end (`timerEnded`).
    private var endAnnouncement: MainLoop.IdleCall?
    private var actions: [String: ObjectRef] = [:]
    private var frameWork: [Double] = []
    private var firstFrame: FirstFrame?
    /// Start-up moments for `reportFirstFrame` (name, monotonic µs).
    lazy var marks: [(String, Int)] = options.startupMarks
    var pagingTimer: GLibTimeout?
    private var recorder: SessionRecorder?
    private var recordError: String?
    /// Events the walkthrough's session has heard (from its widgets or sent directly).
    private(set) var eventsHeard = 0
    private lazy var autosave = Autosave(
        storage: storage, measure: options.saveStats, current: { [weak self] in self?.walkthrough?.host.session },
        failed: { [weak self] in
            guard let self else { return }
            self.showToast(self.strings.cannotSaveWalkthrough)
        })
    var driveTimer: GLibTimeout?
    private var preferences: PreferencesView?
    /// The settings the main window shows (and the preferences edit).
    private var settingValues = JSONObject()
    private var settingsOutcome = Outcome.finished
    /// The primary menu's button (held: the header bar's reference alone is not this wrapper's).
    private var menuButton: Widget?
    /// The About dialog, made the first time it is asked for and kept (it hides on close).
    private(set) var about: Window?
    private lazy var strings = AppStrings(locale: locale)
    /// `--watch`: the files watched, the walkthrough's events since it started (what a reload
    /// replays), the values it started from, and the notice over the walkthrough.
    private var watcher: FlowWatch?
    private var heard: [HeardEvent] = []
    private var walkthroughValues = JSONObject()
    private var watchNotice: WatchNotice?

    private let storage: AppStorage
    private lazy var settingsApply = SettingsApply(storage: storage, strings: strings)

    private init(flow: Flow, options: Options) {
        self.flow = flow
        self.options = options
        storage = AppStorage(flowID: flow.id)
        app = Application(new: gtk_application_new(Self.applicationID, G_APPLICATION_NON_UNIQUE))
    }

    /// Runs the app until its last window closes; returns the process exit code. Without a
    /// display it builds nothing and returns `QuireExit.noDisplay`.
    public static func run(flow: Flow, options: Options = Options()) -> Int32 {
        guard Toolkit.initialize() else { return QuireExit.noDisplay }
        Adwaita.initialize()
        MainQueueBridge.install()
        var options = options
        if options.measureStart != nil { options.startupMarks.append(("gtk-init", Int(g_get_monotonic_time()))) }
        // The app's words and GTK's own in the session's language (AppStrings.swift, `Gettext`).
        Gettext.setProcessLanguage(AppStrings(locale: options.locale ?? userLocale()).language)
        let application = QuireApplication(flow: flow, options: options)
        return application.run()
    }

    /// The session locale: `--locale`, else the user's (LC_ALL, LC_MESSAGES, LANG), as BCP 47.
    public static func userLocale() -> String {
        guard let names = g_get_language_names(), let first = names.pointee else { return "en" }
        return Flow.languageTag(posixLocale: String(cString: first))
    }

    private func run() -> Int32 {
        app.onStartup { [weak self] in self?.startup() }
        app.onActivate { [weak self] in self?.activate() }
        let status = g_application_run(quire_g_application(app.pointer), 0, nil)
        autosave.flush()
        saveRecording(last: true)
        if options.frameStats { printError(FrameStatistics(frameWork).summary) }
        if options.saveStats { printError(FrameStatistics(autosave.times).summary(named: "autosave", counting: "saves")) }
        if options.measureStart != nil, let peak = peakResidentMiB() { printLine("peak-rss-mib \((peak * 10).rounded() / 10)") }
        if let recordError {
            printError("quire run: cannot write the recording: \(recordError)")
            return QuireExit.cannotWrite
        }
        return status
    }

    /// Writes the recording (when recording) as the walkthrough stands now; `last` when the app
    /// is exiting (a named pipe or a device is written then only).
    private func saveRecording(last: Bool) {
        guard let recorder, let session = recordedSession else { return }
        recordError = recorder.write(endingWith: session, last: last)
    }

    /// The session being recorded: the walkthrough's, or the one that completed.
    private var recordedSession: Session?

    private func startup() {
        if options.measureStart != nil { marks.append(("registered", Int(g_get_monotonic_time()))) }
        Style.install()
        Adwaita.setStyle(options.style)
        addAction("quit", accelerators: ["<Control>q"]) { [weak self] in self?.quit() }
        addAction("walkthrough", accelerators: ["<Control>r"]) { [weak self] in self?.runWalkthroughAgain() }
        addAction("back", accelerators: ["<Alt>Left"]) { [weak self] in self?.walkthrough?.host.send(.tap(.button(.back))) }
        addAction("next", accelerators: ["<Alt>Right"]) { [weak self] in self?.walkthrough?.host.send(.tap(.button(.next))) }
        addAction("skip", accelerators: ["<Alt>s"]) { [weak self] in self?.walkthrough?.host.send(.tap(.button(.skip))) }
        addAction("finish", accelerators: ["<Control>Return"]) { [weak self] in
            self?.walkthrough?.host.send(.tap(.button(.finish)))
        }
        addAction("timer-toggle", accelerators: ["<Control>t"]) { [weak self] in self?.timer?.toggle() }
        addAction("timer-reset", accelerators: ["<Control><Shift>t"]) { [weak self] in self?.timer?.reset() }
        addAction("preferences", accelerators: ["<Control>comma"]) { [weak self] in self?.showPreferences() }
        // `--record`: an `expect` of what is on screen, inserted into the recording.
        addAction("record-expect", accelerators: ["<Control>e"]) { [weak self] in self?.recordExpectation() }
        addAction("about", accelerators: []) { [weak self] in self?.showAbout() }
        // A notification's click: back to the window.
        addAction("present", accelerators: []) { [weak self] in self?.activate() }
        // The shortcuts window is each window's help overlay (`win.show-help-overlay`).
        withCStrings(["<Control>question"]) { list in
            gtk_application_set_accels_for_action(quire_application(app.pointer), "win.show-help-overlay", list)
        }
        // Ctrl+W closes the window that has focus (the main window: the app quits, saving).
        withCStrings(["<Control>w"]) { list in
            gtk_application_set_accels_for_action(quire_application(app.pointer), "window.close", list)
        }
        g_set_application_name(strings.appName)
        updateTimerActions()
        setEnabled("preferences", false)
        setEnabled("record-expect", options.record != nil)
        if options.measureStart != nil { marks.append(("startup", Int(g_get_monotonic_time()))) }
    }

    /// The timer's actions follow its state, so every button bound to them (the main view's and
    /// the popover's) is enabled and disabled together; without a timer they are off.
    private func updateTimerActions() {
        let state = timer?.timer
        setEnabled("timer-toggle", state.map { $0.isRunning || $0.canStart } ?? false)
        setEnabled("timer-reset", state?.canReset ?? false)
    }

    private func setEnabled(_ name: String, _ enabled: Bool) {
        guard let action = actions[name] else { return }
        g_simple_action_set_enabled(quire_simple_action(action.pointer), enabled ? 1 : 0)
    }

    private func addAction(_ name: String, accelerators: [String], _ handler: @escaping @MainActor () -> Void) {
        let action = SimpleAction(new: g_simple_action_new(name, nil))
        action.onActivate { _ in handler() }
        g_action_map_add_action(quire_action_map(app.pointer), OpaquePointer(action.pointer))
        actions[name] = action
        withCStrings(accelerators) { list in
            gtk_application_set_accels_for_action(quire_application(app.pointer), "app.\(name)", list)
        }
    }

    private func activate() {
        if options.measureStart != nil { marks.append(("activate", Int(g_get_monotonic_time()))) }
        if window == nil { buildWindow() }
        if let window { gtk_window_present(quire_window(window.pointer)) }
        if options.measureStart != nil { marks.append(("window-presented", Int(g_get_monotonic_time()))) }
    }

    private func buildWindow() {
        // An AdwApplicationWindow: its content is the header bar (AdwHeaderBar, the title an
        // AdwWindowTitle) over an AdwToastOverlay holding the walkthrough or the main view.
        let window = Window(new: adw_application_window_new(quire_application(app.pointer)))
        self.window = window
        let gtkWindow = quire_window(window.pointer)
        gtk_window_set_default_size(gtkWindow, 520, 680)
        let header = HeaderBar()
        self.header = header
        let toasts = Widget(new: adw_toast_overlay_new())
        toasts.vexpand = true
        self.toasts = toasts
        let content = Box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        content.append(header.bar)
        if options.watch {
            let notice = WatchNotice(window: window)
            content.append(notice.label)
            watchNotice = notice
        }
        content.append(toasts)
        adw_application_window_set_content(adwaita(window.widget), content.widget)
        // The primary menu at the end of the header bar, as GNOME's apps have it (the timer's
        // button, packed later, comes before it).
        let menu = AppChrome.primaryMenu(strings)
        menuButton = menu
        header.packEnd(menu.widget)
        if let gtkWindow { AppChrome.installShortcuts(strings, on: gtkWindow) }
        // Closed by the user: GTK's `destroy` never comes while this wrapper holds the window,
        // so the close request is when the walkthrough and the timer are saved.
        window.onCloseRequest { [weak self] in
            self?.windowClosed()
            return false
        }
        // First launch: the walkthrough (resumed where it was left); once it was finished or
        // cancelled (settings saved), the main window. A recording always starts a new
        // walkthrough (a script starts from a flow).
        if options.record == nil, !options.watch, let settings = storage.settings() {
            settingsOutcome = Outcome(rawValue: settings.outcome) ?? .finished
            showMain(settings.values)
        } else {
            // A recording, and a watched flow (whose reloads replay the events since launch),
            // start a new walkthrough.
            showWalkthrough(resume: options.record == nil && !options.watch)
        }
        if options.watch, let path = options.flowPath {
            watcher = FlowWatch(path: path, flow: flow) { [weak self] loaded in self?.flowSaved(loaded) }
        }
        if options.measureStart != nil { marks.append(("content-built", Int(g_get_monotonic_time()))) }
        let firstFrame = FirstFrame()
        self.firstFrame = firstFrame
        if options.measureStart != nil { firstFrame.then(window) { [weak self] in self?.reportFirstFrame() } }
        if options.exitAfterFirstFrame {
            // Through the main queue on purpose: see `Options.exitAfterFirstFrame`.
            firstFrame.then(window) { [weak self] in Task { @MainActor in self?.quit() } }
        }
        if options.printState {
            firstFrame.then(window) { [weak self] in self?.printState() }
        }
        if let events = options.drive {
            firstFrame.then(window) { [weak self] in self?.drive(events) }
        }
        if options.pageThrough > 0 {
            let moves = options.pageThrough
            firstFrame.then(window) { [weak self] in self?.pageThrough(moves) }
        }
    }

    private var locale: String { options.locale ?? Self.userLocale() }

    /// Runs the walkthrough from its start (the `app.walkthrough` action), with the answers given
    /// last time: the saved settings' values are the session's starting values
    /// (`Session(flow:startingWith:)`); with none saved yet, the flow's defaults.
    private func runWalkthroughAgain() {
        storage.forgetSession()
        let values = storage.settings()?.values ?? (mainView != nil ? settingValues : JSONObject())
        showWalkthrough(resume: false, startingWith: values)
    }

    private func showWalkthrough(resume: Bool, startingWith values: JSONObject = JSONObject(), reloaded: Session? = nil) {
        guard window != nil else { return }
        walkthrough?.leaveHeaderBar()
        var session = reloaded ?? Session(flow: flow, locale: locale, startingWith: values)
        if reloaded == nil, resume, let saved = storage.savedSession(of: flow), saved.completed == nil {
            session = saved
            session.locale = locale
        }
        if reloaded == nil {
            heard = []
            walkthroughValues = values
        }
        let host = SessionHost(session)
        let view = WalkthroughView(host: host)
        if let header {
            view.placeCancel(
                inHeaderBar: header.bar, packStart: { [header] in header.packStart($0) }, remove: { [header] in header.remove($0) })
        }
        // The header bar's own buttons are in the Tab cycle too, where the page's stops wrap.
        view.windowControls = { [weak self] in [self?.timerButton?.button, self?.menuButton].compactMap { $0 } }
        host.onCompleted = { [weak self] completion in self?.completed(completion) }
        let recorder: SessionRecorder? = options.record.map {
            SessionRecorder(path: $0, flowPath: options.flowPath, session: session, startingValues: values.isEmpty ? nil : values)
        }
        self.recorder = recorder
        recordedSession = session
        host.onEvent = { [weak self, weak host] event, emitted in
            guard let self, let host else { return }
            self.eventsHeard += 1
            if self.options.watch { self.heard.append(HeardEvent(event, emitted: emitted)) }
            self.settingsApply.heard(emitted, host: host)
            if let recorder {
                recorder.record(event, emitted: emitted, in: host.session)
                self.recordedSession = host.session
            }
            self.autosave.heard(event, in: host.session)
        }
        walkthrough = view
        // A walkthrough resumed while its last page was being applied: the work starts again.
        if let page = session.applyingPageID {
            settingsApply.start(page: page, values: session.visibleValues, host: host)
        }
        autosave.started(session)
        mainView = nil
        preferences?.close()
        setEnabled("preferences", false)
        setTimer(nil)
        if options.frameStats { view.onFrameWork = { [weak self] microseconds in self?.frameWork.append(microseconds) } }
        setContent(view.root)
        // The window is titled with the page shown ("About you — page 2 of 5"): a page change is
        // heard as the window's name changes (Accessibility in docs/gtk-shell.md). The header
        // bar shows the same in two lines, the page's title over its place ("Page 2 of 5"), so
        // neither is cut at 360 px or in Japanese: the core's words, not formatted here.
        showPageTitle(view)
        view.onPageName = { [weak self, weak view] _ in
            guard let self, let view, self.walkthrough === view else { return }
            self.showPageTitle(view)
        }
    }

    /// Ctrl+E while recording: what the walkthrough shows now becomes an `expect` step of the
    /// recording (`Session.onScreen`), said in a toast.
    private func recordExpectation() {
        guard let recorder, let session = walkthrough?.host.session else { return }
        let step = recorder.expectOnScreen(session)
        showToast(strings.expectationRecorded(step), seconds: 2)
        if options.drive != nil { printLine("expectation recorded as step \(step)") }
    }

    // MARK: Watching the flow (`--watch`)

    /// A save of the flow or a layout. One that loads replaces the flow: the walkthrough is
    /// rebuilt from it with the events since it started replayed (`Session.reload`), so the
    /// window shows the same page and answers; where the replay stopped, the notice says at which
    /// event and why. One that does not load leaves the running flow as it is, and the notice
    /// lists its problems at their `file:line:column`. Each prints a `watch:` line (the
    /// benchmark and the tests read them).
    private func flowSaved(_ loaded: FlowWatch.Loaded) {
        switch loaded {
        case .problems(let lines, _):
            watchNotice?.show(strings.watchNotLoaded + "\n" + lines.joined(separator: "\n"))
            printLine("watch: not loaded, the running flow stays: " + lines.joined(separator: " | "))
        case .flow(let new, let heardAt):
            flow = new
            guard let view = walkthrough else {
                // The main window: the next walkthrough (Ctrl+R) runs the new flow.
                watchNotice?.show(nil)
                printLine("watch: reloaded (the main window is shown)")
                return
            }
            let old = view.host.session
            let reload = Session.reload(
                flow: new, locale: locale, viewportWidth: old.viewportWidth, reducedMotion: old.reducedMotion,
                startingWith: walkthroughValues, events: heard)
            let total = heard.count
            // What was not replayed is gone: the window now shows where the replay stopped.
            heard.removeLast(total - reload.replayed)
            showWalkthrough(resume: false, startingWith: walkthroughValues, reloaded: reload.session)
            let replayed = "replayed \(reload.replayed) of \(total) events"
            if let stop = reload.stop {
                let event = JSONWriter.string(stop.event.json)
                watchNotice?.show(strings.watchReplayStopped(event: stop.index + 1, of: total, json: event, reason: stop.reason))
                printLine("watch: reloaded, \(replayed), stopped at event \(stop.index + 1) \(event): \(stop.reason)")
            } else {
                watchNotice?.show(nil)
            }
            let title = walkthrough?.pageName ?? ""
            watchNotice?.whenPainted { painted in
                let ms = Double(painted - heardAt) / 1000
                printLine(
                    "watch: on screen \(String(format: "%.1f", ms)) ms after the change was heard, \(replayed); painted-us \(painted); title \(title)"
                )
            }
        }
    }

    /// The walkthrough's page in the window's title (its accessible name) and the header's title.
    private func showPageTitle(_ view: WalkthroughView) {
        guard let window else { return }
        gtk_window_set_title(quire_window(window.pointer), view.pageName)
        let session = view.host.session
        let chrome = session.chrome
        // The page's own title (the flow's is the walkthrough's, not the page's), over its place.
        if let title = session.presentPage(at: session.currentIndex)?.title, !title.isEmpty {
            header?.setTitle(title, subtitle: chrome.indicatorLabel)
        } else {
            header?.setTitle(chrome.indicatorLabel, subtitle: "")
        }
    }

    /// Puts `view` under the header bar (in the toast overlay).
    private func setContent(_ view: Widget) {
        guard let toasts else { return }
        adw_toast_overlay_set_child(OpaquePointer(toasts.widget), view.widget)
    }

    /// A notice at the bottom of the window (an AdwToast), for what the app could not do.
    func showToast(_ text: String, seconds: UInt32 = 0) {
        guard let toasts, let toast = adw_toast_new(text) else { return }
        adw_toast_set_timeout(toast, seconds)
        adw_toast_overlay_add_toast(OpaquePointer(toasts.widget), toast)
    }

    /// The focus timer's length for some settings: the first duration field's value.
    private func timerDuration(_ values: JSONObject) -> Int {
        flow.fields.lazy.compactMap { field -> Int? in
            guard case .duration = field.kind, case .number(let value)? = values[field.id] else { return nil }
            return Int(value)
        }.first ?? 0
    }

    private func showMain(_ values: JSONObject) {
        guard window != nil else { return }
        settingValues = values
        // The timer runs for the walkthrough's duration, resumed as it was left (a running one
        // has gone on counting down meanwhile).
        let seconds = timerDuration(values)
        let model: FocusTimerModel
        if let saved = storage.timer(now: Int64(g_get_real_time())) {
            model = FocusTimerModel(saved)
            if saved.duration != seconds { model.setDuration(seconds) }
        } else {
            model = FocusTimerModel(duration: seconds)
        }
        setTimer(model)
        model.onStateChange = { [weak self] timer in self?.saveTimer(timer) }
        setEnabled("preferences", true)
        showMainView()
    }

    /// (Re)builds the main window's content from the settings and the timer.
    private func showMainView() {
        guard let window, let model = timer else { return }
        let view = MainView(flow: flow, locale: locale, values: settingValues, timer: model)
        mainView = view
        setContent(view.page)
        // The main window is the app's: its name (the flow's title is the walkthrough's).
        gtk_window_set_title(quire_window(window.pointer), strings.appName)
        header?.setTitle(strings.appName, subtitle: "")
        // Keyboard focus on the timer's first usable control (Start), not nowhere.
        view.focusFirstControl()
    }

    /// After the timer's actions changed (its end disables Start): focus that fell off a control
    /// goes back to the main view's first usable one.
    private func keepMainFocus() {
        guard let window, let view = mainView else { return }
        let focus = gtk_root_get_focus(OpaquePointer(quire_widget(window.pointer)))
        if focus == nil || gtk_widget_is_sensitive(focus) == 0 { view.focusFirstControl() }
    }

    /// Puts a timer in the window (its header button included), or takes it away.
    private func setTimer(_ model: FocusTimerModel?) {
        if let old = timerButton, let header {
            header.remove(old.button.widget)
        }
        timerButton = nil
        timer = model
        if let model, let header {
            let button = TimerHeaderButton(locale: locale, timer: model)
            header.packEnd(button.button.widget)
            timerButton = button
            model.onChange = { [weak self] _ in
                self?.updateTimerActions()
                self?.keepMainFocus()
            }
            model.onEnded = { [weak self] timer in self?.timerEnded(timer) }
        }
        updateTimerActions()
    }

    /// The timer ran out, as GNOME Clocks ends one: the views already show "Time's up" (the main
    /// view's alert, which a screen reader announces); a notification (`GNotification`, id
    /// `timer-ended`, urgent, its click presents the window) says so outside the window, and the
    /// display's bell rings (`gdk_display_beep`: the desktop's alert sound, or a flash).
    private func timerEnded(_ timer: FocusTimer) {
        let notification = g_notification_new(strings.timesUp)
        let length = Strings(locale: locale).duration(timer.duration, withSeconds: true)
        g_notification_set_body(notification, strings.sessionEnded(length))
        g_notification_set_priority(notification, G_NOTIFICATION_PRIORITY_URGENT)
        g_notification_set_default_action(notification, "app.present")
        g_application_send_notification(quire_g_application(app.pointer), "timer-ended", notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
        if let window, let display = gtk_widget_get_display(quire_widget(window.pointer)) { gdk_display_beep(display) }
        // Heard, too: Orca 43 on GTK 4.8 presents nothing when the alert appears (GTK emits
        // `showing` only for windows), so "Time's up" is announced (assertive), from an idle once
        // keyboard focus has moved from the disabled Start to Reset (`keepMainFocus`).
        endAnnouncement = MainLoop.idle { [weak self] in
            guard let self, let view = self.mainView else { return }
            view.page.announce(self.strings.timesUp, assertive: true)
        }
    }

    /// The About dialog over the window (`app.about`, in the primary menu).
    private func showAbout() {
        guard let window else { return }
        let dialog = about ?? AppChrome.aboutDialog(strings, parent: quire_window(window.pointer))
        about = dialog
        gtk_window_present(quire_window(dialog.pointer))
    }

    /// The walkthrough completed. Finished: its values become the settings. Cancelled (a
    /// **Decision**, as a cancelled modal sheet changes nothing): the settings from before stay;
    /// on a first run, with none before, the flow's defaults become the settings, so the app opens
    /// its main window rather than the walkthrough again. Either way the autosave goes.
    private func completed(_ completion: Completion) {
        guard let session = walkthrough?.host.session else { return }
        recordedSession = session
        saveRecording(last: false)
        storage.forgetSession()
        var values = completion.values
        if completion.outcome == .finished {
            settingsOutcome = .finished
            if !settingsApply.saved, let problem = storage.saveSettings(outcome: .finished, values: values) {
                settingsNotSaved(problem)
            }
        } else if let previous = storage.settings() {
            values = previous.values
        } else {
            values = Self.defaults(of: flow)
            settingsOutcome = .cancelled
            if let problem = storage.saveSettings(outcome: .cancelled, values: values) {
                settingsNotSaved(problem)
            }
        }
        // Keep the walkthrough alive until this event has finished rendering.
        let done = walkthrough
        done?.leaveHeaderBar()
        showMain(values)
        walkthrough = nil
        _ = done
    }

    /// What a walkthrough left as it started holds: each field's default (the values a fresh
    /// session is cancelled with).
    static func defaults(of flow: Flow) -> JSONObject {
        var fresh = Session(flow: flow)
        _ = fresh.send(.tap(.button(.cancel)))
        return fresh.completed?.values ?? JSONObject()
    }

    /// The settings could not be written: said on standard error, and in the window (a toast).
    private func settingsNotSaved(_ problem: String) {
        printError("quire run: cannot save the settings: \(problem)")
        showToast(strings.cannotSaveSettings)
    }

    private func saveTimer(_ timer: FocusTimer) {
        if let problem = storage.saveTimer(timer, now: Int64(g_get_real_time())) {
            printError("quire run: cannot save the focus timer to \(storage.timerPath): \(problem)")
        }
    }

    /// The preferences window over the main window (`app.preferences`).
    private func showPreferences() {
        guard let window, mainView != nil else { return }
        if let preferences {
            preferences.present()
            return
        }
        let view = PreferencesView(flow: flow, locale: locale, values: settingValues, parent: quire_window(window.pointer))
        view.onChange = { [weak self] field, seconds in self?.settingChanged(field, seconds) }
        view.window.onCloseRequest { [weak self] in
            self?.preferences = nil
            return false
        }
        preferences = view
        view.present()
    }

    /// A setting changed in the preferences: saved at once (atomically), shown in the main
    /// window, and the timer told its new length.
    private func settingChanged(_ field: String, _ seconds: Int) {
        settingValues[field] = .number(Double(seconds))
        if let problem = storage.saveSettings(outcome: settingsOutcome, values: settingValues) {
            settingsNotSaved(problem)
        }
        timer?.setDuration(timerDuration(settingValues))
        showMainView()
    }

    /// The window is going: the walkthrough in progress is saved as it stands, and the timer.
    private func windowClosed() {
        if let session = walkthrough?.host.session, session.completed == nil { autosave.saveIfChanged(session) }
        if let timer = timer?.timer { saveTimer(timer) }
        window = nil
    }

    func quit() {
        g_application_quit(quire_g_application(app.pointer))
    }
}
