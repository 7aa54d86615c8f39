import CGtk
import CGtkShim
import GtkBindings
import Glibc

/// A repeating GLib timeout running a Swift closure until it returns false (or the owner goes).
@MainActor
final class GLibTimeout {
    typealias Tick = @MainActor () -> Bool
    private var id: guint = 0

    init(milliseconds: UInt32, _ tick: @escaping Tick) {
        let box = Unmanaged.passRetained(SignalBox(tick)).toOpaque()
        id = g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds,
            { data in
                let data = CPointer(data)
                return MainActor.assumeIsolated {
                    Unmanaged<SignalBox<Tick>>.fromOpaque(data.raw!).takeUnretainedValue().handler() ? 1 : 0
                }
            }, box,
            { data in
                Unmanaged<SignalBox<Tick>>.fromOpaque(data!).release()
            })
    }

    deinit {
        // The source may have ended itself; removing a finished source is an error in GLib.
        let id = self.id
        if id != 0, let source = g_main_context_find_source_by_id(nil, id), g_source_is_destroyed(source) == 0 {
            g_source_destroy(source)
        }
    }
}

/// Writes a line to standard output at once (measurement scripts read it while the app runs).
func printLine(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(1, $0, strlen($0)) }
}

/// The process's peak resident memory (`VmHWM`), in MiB.
func peakResidentMiB() -> Double? {
    var contents: UnsafeMutablePointer<CChar>?
    var length: Int = 0
    guard g_file_get_contents("/proc/self/status", &contents, &length, nil) != 0, let contents else { return nil }
    defer { g_free(contents) }
    for line in String(cString: contents).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter(\.isNumber)
        if let kb = Double(digits) { return kb / 1024 }
    }
    return nil
}

func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// The distribution of per-frame work, for `QUIRE_FRAME_STATS`.
struct FrameStatistics {
    let samples: [Double]

    init(_ samples: [Double]) { self.samples = samples.sorted() }

    func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(samples.count)).rounded(.up)) - 1
        return samples[min(max(rank, 0), samples.count - 1)]
    }

    /// "frame work: 31 frames, p50 42 µs, p99 180 µs, max 180 µs"
    var summary: String { summary(named: "frame work", counting: "frames") }

    func summary(named name: String, counting: String) -> String {
        func µs(_ value: Double) -> String { "\(Int(value.rounded())) µs" }
        return "\(name): \(samples.count) \(counting), p50 \(µs(percentile(50))), p99 \(µs(percentile(99))), max \(µs(samples.last ?? 0))"
    }
}

/// Runs what is asked of it once, after a window's first frame is painted (the frame clock's
/// `after-paint`, connected from the window's first tick, when the clock exists). It holds no
/// reference to the window: a window closed by the user must go (the app quits with its last
/// window, which a reference held here kept alive).
@MainActor
final class FirstFrame {
    private var actions: [@MainActor () -> Void] = []
    private var painted = false
    private var clock: ObjectRef?

    /// Runs `body` after `window`'s first frame (never, when it was already painted).
    func then(_ window: ObjectRef, _ body: @escaping @MainActor () -> Void) {
        guard !painted else { return }
        actions.append(body)
        guard actions.count == 1 else { return }
        let data = Unmanaged.passUnretained(self).toOpaque()
        gtk_widget_add_tick_callback(
            quire_widget(window.pointer),
            { widget, clock, data in
                let data = CPointer(data)
                let clock = CPointer(clock.map(UnsafeMutableRawPointer.init))
                MainActor.assumeIsolated {
                    let first = Unmanaged<FirstFrame>.fromOpaque(data.raw!).takeUnretainedValue()
                    guard let clock = clock.raw else { return }
                    let frames = FrameClock(clock)
                    frames.onAfterPaint { [weak first, weak frames] in
                        guard let first, let frames, !first.painted else { return }
                        first.painted = true
                        frames.disconnectAll()
                        let actions = first.actions
                        first.actions.removeAll()
                        for action in actions { action() }
                    }
                    first.clock = frames
                }
                return 0
            }, data, nil)
    }
}
