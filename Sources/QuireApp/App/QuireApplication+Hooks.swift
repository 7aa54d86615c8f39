import CGtk
import GtkBindings
import QuireCore
import QuireGtk

// The hidden options of `quire run` that tests and measurements drive the app with
// (`--exit-after-first-frame`, `--print-state`, `--drive`, `--page-through`,
// `QUIRE_MEASURE_T0_US`): what they print and do once the first frame is drawn.
extension QuireApplication {
    /// Time to the first frame, for measurements: `QUIRE_MEASURE_T0_US` is the launch time on the
    /// monotonic clock (µs); the first painted frame prints `first-frame-ms`, the exit `peak-rss-mib`.
    func reportFirstFrame() {
        guard let t0 = options.measureStart else { return }
        func ms(_ time: Int) -> Double { (Double(time - t0) / 100).rounded() / 10 }
        for (name, time) in marks { printLine("phase \(name) \(ms(time))") }
        printLine("first-frame-ms \(ms(Int(g_get_monotonic_time())))")
    }

    /// `--print-state`: the walkthrough's state, its page move settled, as one line of JSON.
    func printState() {
        guard var session = walkthrough?.host.session else {
            printLine("state null")
            return
        }
        _ = session.send(.settle)
        printLine("state " + JSONWriter.string(session.state))
    }

    /// `--drive`: the events through the widgets, each once the pages have settled; `event N` is
    /// printed once the N-th has been handled (and so saved; its drawing follows); then it quits.
    func drive(_ events: [Event]) {
        var next = 0
        driveTimer = GLibTimeout(milliseconds: 5) { [weak self] in
            guard let self, let view = self.walkthrough else { return false }
            if view.host.session.pagerPresentation.needsClock { return true }
            guard next < events.count else {
                printLine("drive done")
                // Watching, the window stays for the saves to come (the benchmark, the tests).
                if !self.options.watch { self.quit() }
                return false
            }
            let event = events[next]
            next += 1
            // What no widget could do goes to the session directly, as in a replay.
            let heard = self.eventsHeard
            if !view.perform(event) || self.eventsHeard == heard { view.host.send(event) }
            printLine("event \(next)")
            return true
        }
    }

    /// `--page-through N`: N moves forward, each once the last has settled, driven by the real
    /// frame clock (the frame statistics measure them); then quit.
    func pageThrough(_ moves: Int) {
        var sent = 0
        pagingTimer = GLibTimeout(milliseconds: 30) { [weak self] in
            guard let self, let host = self.walkthrough?.host else { return false }
            if host.session.pagerPresentation.needsClock { return true }
            if sent == moves {
                self.quit()
                return false
            }
            sent += 1
            host.send(.tap(.button(.next)))
            return true
        }
    }
}
