import GtkBindings
import QuireGtk
import CGtk
import CGtkShim
import QuireCore
import QuireHarness

extension QuireApplication {
    /// What `quire run --replay` found: the harness's result and how the events got in.
    public struct ReplayOutcome: Sendable {
        public var result: ScriptResult
        public var counts: ReplayDriver.Counts
        /// With `updateScreenshots`: the baselines written, in order.
        public var baselinesWritten: [String] = []
    }

    /// Replays `script` through the real widgets of a walkthrough window and quits: the harness's
    /// runner checks the script's expectations against the window's session. Nothing is saved
    /// (no autosave, no settings). Nil when no display could be opened.
    /// With `traceDirectory`, the result carries the harness's trace and a picture of the window
    /// after each step is saved beside it (`NAME-step-N.png`, named in the trace).
    /// `expectScreenshot` steps compare the window with their baselines (`SCRIPT.screenshots/`),
    /// or write them with `updateScreenshots`; `expectAccessible` steps compare the window's
    /// AT-SPI tree with theirs too (`AccessibleReplay`).
    public static func replay(
        _ script: SessionScript, options: Options = Options(), traceDirectory: String? = nil, updateScreenshots: Bool = false
    ) -> ReplayOutcome? {
        guard Toolkit.initialize() else { return nil }
        // libadwaita's stylesheet, so a replay's pictures look as the app does.
        Adwaita.initialize()
        MainQueueBridge.install()
        let app = Application(new: gtk_application_new(applicationID, G_APPLICATION_NON_UNIQUE))
        var outcome: ReplayOutcome?
        var window: ObjectRef?
        app.onActivate {
            let created = ObjectRef(UnsafeMutableRawPointer(gtk_application_window_new(quire_application(app.pointer))!), .sink)
            window = created
            let gtkWindow = quire_window(created.pointer)
            gtk_window_set_default_size(gtkWindow, Int32(min(max(script.viewportWidth, 360), 1600)), 680)
            gtk_window_set_titlebar(gtkWindow, gtk_header_bar_new())
            gtk_window_set_title(gtkWindow, script.name)
            if options.style == .dark { Adwaita.setStyle(.dark) }
            var start = script.startSession
            start.reducedMotion = script.reducedMotion
            let driver = ReplayDriver(session: start, window: created.pointer)
            gtk_window_present(gtkWindow)
            // Run once the window is up and has the keyboard focus (a field's entry takes it).
            Toolkit.run(milliseconds: 3000) { gtk_widget_get_mapped(created.widgetPointer) != 0 }
            quire_focus_toplevel(created.pointer)
            Toolkit.run(milliseconds: 2000) { gtk_window_is_active(gtkWindow) != 0 }
            var runnerOptions = Runner.Options()
            if let traceDirectory {
                let camera = TraceCamera(driver: driver, directory: traceDirectory, base: TraceCamera.baseName(script.file))
                runnerOptions.trace = true
                runnerOptions.stepImage = { index in MainActor.assumeIsolated { camera.shoot(index) } }
            }
            let baseline = ScreenshotBaseline(
                driver: driver, scriptFile: script.file, update: updateScreenshots, traceDirectory: traceDirectory)
            runnerOptions.screenshot = { step, name in MainActor.assumeIsolated { baseline.check(step: step, name: name) } }
            let accessible = AccessibleReplay(driver: driver)
            runnerOptions.accessible = { step, expected in MainActor.assumeIsolated { accessible.check(step: step, expected: expected) } }
            let result = Runner.run(script, options: runnerOptions, driver: driver)
            outcome = ReplayOutcome(result: result, counts: driver.counts, baselinesWritten: baseline.written)
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

/// Pictures of the replayed window for a trace, one per step.
@MainActor
final class TraceCamera {
    let driver: ReplayDriver
    let directory: String
    let base: String

    /// Turns GTK's own animations off for the process: a step's picture shows where that step
    /// leaves the window — an error text's revealer, a style transition finish at once, and the
    /// text cursor does not blink — not a transition on its way. The pager's motion is the
    /// session's (the script's ticks drive it) and is pictured as it stands.
    init(driver: ReplayDriver, directory: String, base: String) {
        self.driver = driver
        self.directory = directory
        self.base = base
        quire_settings_set_bool("gtk-enable-animations", 0)
        quire_settings_set_bool("gtk-cursor-blink", 0)
    }

    /// The trace's file name for a script (as the harness's trace writer names its pages).
    static func baseName(_ file: String) -> String {
        var name = file
        if name.hasPrefix("./") { name.removeFirst(2) }
        if name.hasSuffix(".json") { name.removeLast(5) }
        return String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
    }

    func shoot(_ step: Int) -> String? {
        // The picture is what GTK last painted. A step that changed anything on screen (a redraw or
        // a relayout: an error text, the input panel) has dropped that, so there is no picture
        // until a frame has laid out and painted the change — never the frame before — and the
        // same holds for a window not drawn yet: let GTK run frames until there is one.
        var picture = Screenshot.png(of: driver.root)
        for _ in 0..<25 where picture == nil {
            Toolkit.run(milliseconds: 20)
            picture = Screenshot.png(of: driver.root)
        }
        guard let png = picture else { return nil }
        let name = "\(base)-step-\(step).png"
        let ok = png.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                g_file_set_contents(directory + "/" + name, $0, buffer.count, nil)
            }
        }
        return ok != 0 ? name : nil
    }
}
