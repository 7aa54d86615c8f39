import ArgumentParser
import Foundation
import QuireCore
import QuireHarness

#if QUIRE_GTK
    import QuireApp
    import QuireGtk
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a flow's walkthrough in a GTK 4 window.",
        discussion: """
            Without FLOW, runs the built-in demo walkthrough (data/flows/focus-app.json, \
            compiled into quire). The window follows the user's locale (LANG, LC_ALL, LC_MESSAGES) \
            unless --locale is given. Finishing the walkthrough opens the main window (a focus \
            timer set from the walkthrough); the next launch opens it directly. A walkthrough in \
            progress is saved as it goes and resumes.

            Keys: the arrows, Page_Up/Page_Down, Home/End, Tab, Return, Escape and BackSpace act as \
            in a session script; Alt+Left/Alt+Right go back/next, Alt+S skips, Ctrl+Return \
            finishes, Ctrl+R runs the walkthrough again, Ctrl+E (with --record) inserts an expect of \
            what is on screen into the recording, Ctrl+T starts or pauses the focus timer, \
            Ctrl+Shift+T resets it, Ctrl+Q quits.

            Exit codes: 0 the window was closed; 2 bad input (a broken flow, a missing file) or a \
            usage error; 3 no display could be opened; 4 this quire was built without GTK 4; 5 the \
            --record file could not be written.
            """)

    @Argument(help: "A flow file (quire.flow/1); the demo walkthrough when left out.")
    var flow: String?

    @Option(help: "The language of Quire's strings and the flow's texts (BCP 47, e.g. en, ja).")
    var locale: String?

    @Option(help: "Light or dark style: system, light or dark.")
    var style: String = "system"

    @Option(
        help: ArgumentHelp(
            "Write what you do to FILE as a session script (quire.session/1) that quire test replays.",
            discussion:
                "Written when the walkthrough completes and when the app quits; its last step expects the state the session ended in.",
            valueName: "FILE"))
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Replay a session script through the window's widgets and check its expectations, as quire test does.",
            discussion: "Prints the harness's report and exits with its codes: 0 passed, 1 failed, 2 bad input.",
            valueName: "SCRIPT"))
    var replay: String?

    @Option(
        help: ArgumentHelp(
            "With --replay: write the trace quire test --trace writes, with a picture of the window after each step, into DIR.",
            valueName: "DIR"))
    var trace: String?

    @Flag(
        help: ArgumentHelp(
            "With --replay: write each expectScreenshot's baseline (SCRIPT.screenshots/NAME.png) from the window instead of comparing."
        ))
    var updateScreenshots = false

    @Flag(
        help: ArgumentHelp(
            "Follow FLOW and its page layouts: a save that loads is shown at once, at the page and with the answers you had; a save that does not load leaves the window running and shows its problems.",
            discussion: "Each reload prints a `watch:` line. Starts a new walkthrough (no resume); not with --record or --replay."))
    var watch = false

    @Flag(help: .hidden)
    var exitAfterFirstFrame = false

    @Option(help: .hidden)
    var pageThrough = 0

    /// Tests: a JSON array of events performed through the widgets after the first frame, then quit.
    @Option(help: .hidden)
    var drive: String?

    /// Tests: print the walkthrough's settled state once the first frame is drawn.
    @Flag(help: .hidden)
    var printState = false

    func validate() throws {
        if trace != nil && replay == nil { throw ValidationError("--trace goes with --replay") }
        if updateScreenshots && replay == nil { throw ValidationError("--update-screenshots goes with --replay") }
        if watch && flow == nil { throw ValidationError("--watch needs a FLOW file to watch") }
        if watch && (replay != nil || record != nil) { throw ValidationError("--watch cannot be combined with --record or --replay") }
        if !["system", "light", "dark"].contains(style) {
            throw ValidationError("--style must be system, light or dark")
        }
        // The rule a recording's `locale` is read with, so `--record` never writes a script that
        // `quire test` rejects.
        if let locale, let problem = Flow.languageTagProblem(locale) { throw ValidationError("--locale: \(problem)") }
    }

    func run() throws {
        if let replay {
            try runReplay(replay)
            return
        }
        let loaded: Flow
        do throws(DocumentError) {
            if let flow {
                let bytes = try Flow.readDocument(flow)
                loaded = try Flow.load(bytes: bytes, file: flow, folder: Flow.folder(ofFile: flow))
                // The layout policy, exactly as `quire check` applies it and before GTK reads any
                // layout: the same verdict, the same messages, and no display needed to get them.
                let problems = loaded.layoutDiagnostics(file: flow, bytes: bytes)
                if !problems.isEmpty { throw DocumentError(problems) }
            } else {
                loaded = try demoFlow()
            }
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        }
        let drivenEvents = try drive.map { try Self.events($0) }
        StartupMarks.add("flow-loaded")
        #if QUIRE_GTK
            try checkLayouts(of: loaded, file: flow ?? DemoFlow.path)
            let code = MainActor.assumeIsolated { () -> Int32 in
                var options = QuireApplication.Options()
                options.locale = locale
                options.style = QuireApplication.Appearance(rawValue: style) ?? .system
                options.exitAfterFirstFrame = exitAfterFirstFrame
                options.record = record
                options.flowPath = flow
                options.watch = watch
                options.frameStats = (ProcessInfo.processInfo.environment["QUIRE_FRAME_STATS"] ?? "0") != "0"
                options.measureStart = ProcessInfo.processInfo.environment["QUIRE_MEASURE_T0_US"].flatMap { Int($0) }
                StartupMarks.add("options")
                options.startupMarks = StartupMarks.all
                options.pageThrough = pageThrough
                options.drive = drivenEvents
                options.printState = printState
                options.saveStats = (ProcessInfo.processInfo.environment["QUIRE_SAVE_STATS"] ?? "0") != "0"
                return QuireApplication.run(flow: loaded, options: options)
            }
            if code == QuireExit.noDisplay {
                printError(
                    "quire run: cannot open a display (DISPLAY or WAYLAND_DISPLAY is unset or unreachable); "
                        + "run it in a desktop session, or under Xvfb (xvfb-run quire run)")
                throw ExitCode(QuireExit.noDisplay)
            }
            if code != 0 { throw ExitCode(code) }
        #else
            _ = (loaded, drivenEvents)
            printError(
                "quire run: this quire was built without its GTK 4 app (no gtk4 or no libadwaita-1 found by pkg-config "
                    + "when it was built, or QUIRE_GTK=0); install libgtk-4-dev and libadwaita-1-dev (scripts/setup) and build again")
            throw ExitCode(QuireExit.noGTK)
        #endif
    }

    private func runReplay(_ path: String) throws {
        let script: SessionScript
        switch ScriptLoader.load(path, flows: FlowCache(), explicitly: true) {
        case .script(let loaded): script = loaded
        case .bad(let diagnostics):
            for diagnostic in diagnostics { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        case .notAScript(let format):
            printError("\(path): not a session script (format \(format ?? "missing"))")
            throw ExitCode(QuireExit.badInput)
        }
        #if QUIRE_GTK
            var traces: TraceWriter?
            if let trace {
                do {
                    traces = try TraceWriter(directory: trace)
                } catch {
                    printError("quire run: cannot create the trace folder '\(trace)': \(error.localizedDescription)")
                    throw ExitCode(QuireExit.badInput)
                }
            }
            let policy = script.flow.layoutProblems()
            if !policy.isEmpty {
                for (page, problem) in policy {
                    printError(Printable.line("\(path) (its flow): $.pages[\(page)].layout: \(problem.message)"))
                }
                throw ExitCode(QuireExit.badInput)
            }
            try checkLayouts(of: script.flow, file: "\(path) (its flow)")
            let traceDirectory = trace
            let updateScreenshots = self.updateScreenshots
            let outcome = MainActor.assumeIsolated { () -> QuireApplication.ReplayOutcome? in
                var options = QuireApplication.Options()
                options.style = QuireApplication.Appearance(rawValue: style) ?? .system
                return QuireApplication.replay(
                    script, options: options, traceDirectory: traceDirectory, updateScreenshots: updateScreenshots)
            }
            guard let outcome else {
                printError("quire run: cannot open a display; run it under Xvfb (xvfb-run quire run --replay …)")
                throw ExitCode(QuireExit.noDisplay)
            }
            let sink = FileSink.standardOutput()
            let console = ConsoleReporter(sink: sink, live: false)
            var summary = Summary()
            console.begin(candidates: 1)
            console.report(outcome.result)
            if case .passed = outcome.result.status { summary.passed = 1 } else { summary.failed = 1 }
            let counts = outcome.counts
            for written in outcome.baselinesWritten { sink.write(Printable.line("screenshot baseline written: \(written)") + "\n") }
            sink.write(
                "replayed through the widgets: \(counts.throughWidgets) events; sent directly (no widget could): \(counts.direct); clock: \(counts.clock)\n"
            )
            if let traces, let trace {
                traces.write(outcome.result)
                traces.finish(summary)
                if traces.problem == nil { sink.write("trace: \(trace)/index.html\n") }
            }
            console.finish(summary)
            if let problem = traces?.problem {
                printError("quire run: \(problem)")
                throw ExitCode(QuireExit.badInput)
            }
            if summary.failed > 0 { throw ExitCode(QuireExit.failed) }
        #else
            _ = script
            printError(
                "quire run: this quire was built without its GTK 4 app; install libgtk-4-dev and libadwaita-1-dev (scripts/setup) "
                    + "and build again")
            throw ExitCode(QuireExit.noGTK)
        #endif
    }

    #if QUIRE_GTK
        /// The page layouts of a flow are loaded before a window opens; any problem (an id that
        /// names no field, a widget of the wrong type, a signal handler) is bad input. Without a
        /// display nothing is checked here: opening the window reports that.
        private func checkLayouts(of flow: Flow, file: String) throws {
            // Only a flow with layouts needs GTK this early (GTK is initialized once: a failed
            // attempt here is the no-display exit).
            guard flow.folder != nil, flow.pages.contains(where: { $0.layout != nil }) else { return }
            guard let problems = MainActor.assumeIsolated({ LayoutCheck.problems(in: flow) }) else {
                printError(
                    "quire run: cannot open a display (DISPLAY or WAYLAND_DISPLAY is unset or unreachable); "
                        + "run it in a desktop session, or under Xvfb (xvfb-run quire run)")
                throw ExitCode(QuireExit.noDisplay)
            }
            guard !problems.isEmpty else { return }
            for problem in problems { printError(Printable.line("\(file): \(problem)")) }
            throw ExitCode(QuireExit.badInput)
        }
    #endif

    /// `--drive FILE`: a JSON array of events; bad input exits 2 with where and why.
    static func events(_ path: String) throws -> [Event] {
        func fail(_ message: String) throws -> Never {
            printError(Printable.line("\(path): \(message)"))
            throw ExitCode(QuireExit.badInput)
        }
        let value: JSONValue
        do {
            value = try DocumentReader.parse(file: path, bytes: try Flow.readDocument(path)).0
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        }
        guard case .array(let items) = value else { try fail("$: expected an array of events, not \(value.typeName)") }
        var events: [Event] = []
        for (at, item) in items.enumerated() {
            switch Event.parse(item) {
            case .success(let event): events.append(event)
            case .failure(let error): try fail("$[\(at)]: \(error.message)")
            }
        }
        return events
    }

    private func demoFlow() throws(DocumentError) -> Flow {
        #if QUIRE_GTK
            return try Flow.load(json: DemoFlow.json, file: DemoFlow.path)
        #else
            // Without GTK there is no window to show it in; `run` reports that after this.
            return try Flow.load(json: #"{"format": "quire.flow/1", "id": "none", "pages": [{"id": "p"}]}"#)
        #endif
    }
}
