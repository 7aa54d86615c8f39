import CGtk
import CGtkShim
import QuireCore
import QuireHarness

extension QuireApplication {
    /// What `quire run --replay` found: the harness's result and how the events got in.
    public struct ReplayOutcome: Sendable {
        public var result: ScriptResult
        public var counts: ReplayDriver.Counts
    }

    /// Replays `script` through the real widgets of a walkthrough window and quits: the harness's
    /// runner checks the script's expectations against the window's session. Nothing is saved
    /// (no autosave, no settings). Nil when no display could be opened.
    public static func replay(_ script: SessionScript, options: Options = Options()) -> ReplayOutcome? {
        guard Toolkit.initialize() else { return nil }
        MainQueueBridge.install()
        let app = ObjectRef(UnsafeMutableRawPointer(gtk_application_new(applicationID, G_APPLICATION_NON_UNIQUE)!), .full)
        var outcome: ReplayOutcome?
        var window: ObjectRef?
        app.on("activate") {
            let created = ObjectRef(UnsafeMutableRawPointer(gtk_application_window_new(quire_application(app.pointer))!), .sink)
            window = created
            let gtkWindow = quire_window(created.pointer)
            gtk_window_set_default_size(gtkWindow, Int32(min(max(script.viewportWidth, 360), 1600)), 680)
            gtk_window_set_titlebar(gtkWindow, gtk_header_bar_new())
            gtk_window_set_title(gtkWindow, script.name)
            if options.style == .dark { quire_settings_set_prefer_dark(1) }
            let driver = ReplayDriver(
                session: Session(flow: script.flow, locale: script.locale, viewportWidth: script.viewportWidth), window: created.pointer)
            gtk_window_present(gtkWindow)
            // Run once the window is up and has the keyboard focus (a field's entry takes it).
            Toolkit.run(milliseconds: 3000) { gtk_widget_get_mapped(created.widgetPointer) != 0 }
            quire_focus_toplevel(created.pointer)
            Toolkit.run(milliseconds: 2000) { gtk_window_is_active(gtkWindow) != 0 }
            let result = Runner.run(script, options: Runner.Options(), driver: driver)
            outcome = ReplayOutcome(result: result, counts: driver.counts)
            gtk_window_destroy(gtkWindow)
            g_application_quit(quire_g_application(app.pointer))
        }
        _ = g_application_run(quire_g_application(app.pointer), 0, nil)
        _ = window
        return outcome
    }
}

extension ObjectRef {
    var widgetPointer: UnsafeMutablePointer<GtkWidget> { quire_widget(pointer) }
}
