import CGtk
import GtkBindings
import QuireCore

/// The walkthrough's autosave: when a change is written, what the file holds, a save put off to
/// the loop's idle moment, and a failure said once.
///
/// A save is made at once after every event that changed what a resume restores (the core's
/// resume point: answers, focus, a draft, the page, a move started, turned or landed), so the
/// event's result is on disk before it is drawn and a kill loses nothing the user saw. Not after
/// a drag's motion (a resume starts from before a drag in flight; its release is saved) nor a
/// frame that only advances an animation; a completing event is not saved (completion removes
/// the file). A frame that lands a page (or starts an auto-advance) is saved once the loop is
/// idle, right after that frame is drawn, not inside it: a save is a snapshot and a file write
/// (2 ms on a 1,000-page flow), which would be most of the frame's work. A kill before it resumes
/// from the move under way, which lands on the same page.
@MainActor
final class Autosave {
    private let storage: AppStorage
    /// The walkthrough's session now (nil: none running), for a save put off to the idle moment.
    private let current: @MainActor () -> Session?
    /// Said in the window when a save fails (once, until a save works again).
    private let failed: @MainActor () -> Void
    private let measure: Bool
    /// How long each save took (µs), when measuring (`QUIRE_SAVE_STATS=1`).
    private(set) var times: [Double] = []
    private var report = FailureReport()
    /// What the file holds, as a resume would restore it (nil: not known, save at the next change).
    private var savedPoint: ResumePoint?
    private var pending: MainLoop.IdleCall?

    init(
        storage: AppStorage, measure: Bool, current: @escaping @MainActor () -> Session?,
        failed: @escaping @MainActor () -> Void
    ) {
        self.storage = storage
        self.measure = measure
        self.current = current
        self.failed = failed
    }

    /// A walkthrough started with `session`: what the file holds now (this session, resumed, or
    /// nothing, which resumes the same as a fresh walkthrough).
    func started(_ session: Session) {
        savedPoint = session.resumePoint
    }

    /// The walkthrough's session heard `event` and is now `session`.
    func heard(_ event: Event, in session: Session) {
        guard session.completed == nil else { return }
        if case .tick = event {
            if pending == nil { pending = MainLoop.idle { [weak self] in self?.flush() } }
        } else {
            pending = nil
            saveIfChanged(session)
        }
    }

    /// The save put off to the loop's idle moment, now: when that moment comes, or when the app
    /// quits first (`--drive`, Ctrl+Q).
    func flush() {
        guard pending != nil else { return }
        pending = nil
        if let session = current(), session.completed == nil { saveIfChanged(session) }
    }

    /// Saves the walkthrough if a resume would now restore something else than the last save
    /// (`Session.resumePoint`); not while a drag is in flight.
    func saveIfChanged(_ session: Session) {
        guard let point = session.resumePoint, point != savedPoint else { return }
        if save(session) { savedPoint = point }
    }

    /// Saves the walkthrough now; a failure is reported once (again only after a save worked).
    /// True when it was saved.
    private func save(_ session: Session) -> Bool {
        let start = measure ? g_get_monotonic_time() : 0
        let problem = storage.save(session)
        if measure { times.append(Double(g_get_monotonic_time() - start)) }
        let path = storage.sessionPath
        if let message = report.note(
            problem,
            { problem in
                "quire run: cannot save the walkthrough in progress to \(path): \(problem); the last save is kept "
                    + "(said once, until a save works again)"
            })
        {
            printError(message)
            failed()
        }
        return problem == nil
    }
}
