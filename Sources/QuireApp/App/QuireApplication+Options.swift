import QuireCore

extension QuireApplication {
    public struct Options: Sendable {
        public var locale: String?
        public var style: Appearance = .system
        /// Quit once the first frame is drawn (start-up checks and measurements). The quit goes
        /// through Swift's main queue, so it also proves that queue runs inside GLib's loop.
        public var exitAfterFirstFrame = false
        /// Write what the user did to this file as a session script (`--record`).
        public var record: String?
        /// The flow's file, for the recording to name (nil: the built-in demo, embedded).
        public var flowPath: String?
        /// Measure Quire's own work per animation frame and print its distribution on exit
        /// (`QUIRE_FRAME_STATS=1`; Debian's GTK has no `GDK_DEBUG=frames`).
        public var frameStats = false
        /// The launch time on GLib's monotonic clock (µs), to report the time to the first frame.
        public var measureStart: Int?
        /// Moments before the app was made (e.g. `main` entered, the command line parsed), as
        /// (name, monotonic µs): reported with the first frame as `phase NAME MS`, after the launch.
        public var startupMarks: [(String, Int)] = []
        /// After the first frame, move forward this many pages (each once the last settled), then
        /// quit: a paging workload for the frame statistics.
        public var pageThrough = 0
        /// After the first frame, perform these events through the walkthrough's widgets, one at
        /// a time once the pages have settled, printing `event N` to standard output after the
        /// N-th is handled (and saved) — the crash test kills the app between them (`--drive`).
        public var drive: [Event]?
        /// Print the walkthrough's state (settled) as `state JSON` once the first frame is drawn
        /// (`--print-state`, with `--exit-after-first-frame` for the crash test's relaunches).
        public var printState = false
        /// Measure each autosave and print their distribution on exit (`QUIRE_SAVE_STATS=1`).
        public var saveStats = false
        /// `--watch`: follow the flow file (`flowPath`) and its layouts; a save that loads is
        /// shown at once at the author's place (`FlowWatch`, `Session.reload`).
        public var watch = false
        public init() {}
    }

    public enum Appearance: String, Sendable, CaseIterable {
        case system, light, dark
    }
}
