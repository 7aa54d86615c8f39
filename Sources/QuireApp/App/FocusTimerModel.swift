import GtkBindings
import QuireGtk
import CGtk
import CGtkShim

/// A view of the focus timer, told whenever it changes.
@MainActor
protocol FocusTimerView: AnyObject {
    func show(_ timer: FocusTimer)
}

/// The one focus timer of the main window, shared by its views (the panel and the header
/// button's popover: two views of one model, as an ObservableObject shared by SwiftUI views).
/// While it runs, a GLib timeout feeds it once a second with the time really passed; stopped, it
/// has no source at all, so the app is idle.
@MainActor
final class FocusTimerModel {
    private(set) var timer: FocusTimer
    private var views: [WeakTimerView] = []
    private var sourceID: guint = 0
    private var lastTime: Int = 0
    /// Called after every change (the app updates its actions' enabled state).
    var onChange: ((FocusTimer) -> Void)?
    /// Called after a change of state worth keeping across runs — started, paused, reset, a new
    /// length, run out — but not for the seconds ticking away (a running timer is resumed from the
    /// wall clock).
    var onStateChange: ((FocusTimer) -> Void)?
    /// Called once when the timer runs out (counting down to zero while it runs, not when a saved
    /// timer that ran out meanwhile is loaded), after its views show it: the app sends the
    /// notification and rings the bell.
    var onEnded: ((FocusTimer) -> Void)?

    init(duration: Int) {
        timer = FocusTimer(duration: duration)
    }

    /// A timer as it was saved (it goes on ticking if it was running).
    init(_ timer: FocusTimer) {
        self.timer = timer
        updateClock()
    }

    deinit {
        if sourceID != 0 { g_source_remove(sourceID) }
    }

    func attach(_ view: FocusTimerView) {
        views.append(WeakTimerView(view: view))
        view.show(timer)
    }

    var isTicking: Bool { sourceID != 0 }

    func toggle() { change { $0.toggle() } }
    func reset() { change { $0.reset() } }
    func setDuration(_ seconds: Int) { change { $0.setDuration(seconds) } }

    /// Time passed (tests call it directly; the timeout calls it once a second).
    func advance(milliseconds: Double) { change { $0.advance(milliseconds: milliseconds) } }

    private func change(updatingClock: Bool = true, _ body: (inout FocusTimer) -> Void) {
        let before = timer
        body(&timer)
        if updatingClock { updateClock() }
        guard timer != before else { return }
        views.removeAll { $0.view == nil }
        for entry in views { entry.view?.show(timer) }
        onChange?(timer)
        // A tick only counts down; it is a state change when it stops the timer.
        if updatingClock || timer.isRunning != before.isRunning { onStateChange?(timer) }
        if FocusTimer.runsOut(from: before, to: timer) { onEnded?(timer) }
    }

    private func updateClock() {
        if timer.isRunning && sourceID == 0 {
            lastTime = g_get_monotonic_time()
            sourceID = g_timeout_add_full(
                G_PRIORITY_DEFAULT, 1000,
                { data in
                    let data = CPointer(data)
                    return MainActor.assumeIsolated {
                        Unmanaged<FocusTimerModel>.fromOpaque(data.raw!).takeUnretainedValue().second() ? 1 : 0
                    }
                }, Unmanaged.passUnretained(self).toOpaque(), nil)
        } else if !timer.isRunning && sourceID != 0 {
            g_source_remove(sourceID)
            sourceID = 0
        }
    }

    /// The timeout: feeds the time really passed; false (GLib removes the source) once stopped.
    private func second() -> Bool {
        let now = g_get_monotonic_time()
        let elapsed = Double(now - lastTime) / 1000
        lastTime = now
        change(updatingClock: false) { $0.advance(milliseconds: elapsed) }
        if timer.isRunning { return true }
        sourceID = 0
        return false
    }

    private struct WeakTimerView {
        weak var view: FocusTimerView?
    }
}
