import CGtk
import CGtkShim
import GtkBindings

/// `--watch`'s notice over the walkthrough: what the last save did, when it is worth saying (the
/// problems of a save that does not load, or where a reload's replay stopped), hidden otherwise;
/// and the window's frame clock, which says when a reloaded flow is on screen.
@MainActor
final class WatchNotice {
    let label = Label()
    /// Held weakly: a window closed by the user must go (the app quits with its last window).
    private weak var window: Window?
    private var clock: FrameClock?

    init(window: Window) {
        self.window = window
        label.setWrap()
        label.setXAlign(0)
        label.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        label.addCSSClass("quire-watch-notice")
        gtk_label_set_selectable(quire_label(label.pointer), 1)
        label.isVisible = false
    }

    /// Shows `text`, or hides the notice (nil). What it shows is printed as a `watch: notice`
    /// line, read back from the label (the tests and the author's terminal).
    func show(_ text: String?) {
        label.text = text ?? ""
        label.isVisible = text != nil
        if label.isVisible { printLine("watch: notice " + label.text.split(separator: "\n").joined(separator: " | ")) }
    }

    /// Runs `body` with the monotonic time (µs) once the window's next frame is painted.
    func whenPainted(_ body: @escaping @MainActor (Int) -> Void) {
        guard let window, let clock = gtk_widget_get_frame_clock(quire_widget(window.pointer)) else { return }
        let frames = FrameClock(UnsafeMutableRawPointer(clock))
        self.clock?.disconnectAll()
        self.clock = frames
        frames.onAfterPaint { [weak frames] in
            frames?.disconnectAll()
            body(g_get_monotonic_time())
        }
        gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_PAINT)
    }
}
