/// What a resume restores: for a front that saves its session as it goes (the GTK app's autosave)
/// and must know when a save is due without saving on every pointer motion or frame.
///
/// A resume — a session restored from a snapshot after its process ended — starts from the
/// answers, the shown errors, the page, the first responder with its picker's draft, a completion,
/// and where the pages are going. It does not need what only the passing time changes (an
/// animation's progress, the auto-advance wait), which the resumed session runs again from the
/// event that started it. A drag in flight is not resumed at all: the pointer that held it went
/// with the process, so the resume starts from before the drag (the last resume point), and the
/// release (`dragEnd`) is what makes the drag's outcome worth saving.
public struct ResumePoint: Sendable, Equatable {
    let locale: String
    let viewportWidth: Double
    let values: [FieldValue]
    let touched: [Bool]
    let page: Int
    /// Where the pages rest (no motion), or an animation's start and target.
    let position: Double
    let target: Double?
    let input: InputState?
    let autoAdvance: Bool
    let completion: Completion?
}

extension Session {
    /// What a resume of this session would restore now; nil while a drag is in flight (a resume
    /// goes back to the last point before it). Two sessions with equal points resume the same,
    /// so a front saves when the point differs from the one it saved last: after an event that
    /// changed an answer, the focus, a draft or the page, or started, turned or landed a move —
    /// not after a `dragBegin`/`dragUpdate`, nor a `tick` that only advances an animation or the
    /// auto-advance wait. Comparing points is cheap: the arrays an event did not touch are
    /// shared, not compared element by element.
    public var resumePoint: ResumePoint? {
        var position = pager.position
        var target: Double? = nil
        switch pager.motion {
        case .dragging?: return nil
        case .animating(let animation)?:
            position = animation.start
            target = animation.target
        case nil: break
        }
        return ResumePoint(
            locale: locale, viewportWidth: viewportWidth, values: answers.values, touched: answers.touched,
            page: pager.currentPage, position: position, target: target, input: focusChain.input,
            autoAdvance: pager.autoAdvance.active, completion: completion)
    }
}
