// FoundationEssentials where the toolchain splits Foundation (Linux): libquire then needs neither
// Foundation's full library nor ICU, most of a headless host's memory (docs/embedding.md).
#if canImport(FoundationEssentials)
    import FoundationEssentials
    #if canImport(Glibc)
        import Glibc
    #endif
#else
    import Foundation
#endif

/// The pager (UIPageViewController + UIPageControl): visible pages, the gate, programmatic moves
/// with retargeting, drags with rubber band and snapping, ease-out animation driven by ticks.
///
/// Positions are in visible-page units. A wrapping move runs past an end (towards `count` or -1)
/// and is normalized when it completes; `currentPage` changes only then.
extension Session {
    /// How many pages are visible now.
    public var pageCount: Int { answers.visiblePages.total }

    /// The visible index of the current page.
    public var currentIndex: Int { pager.currentIndex }

    /// The visible index a (possibly wrapped) position stands for, among the pages visible now.
    func normalize(_ position: Double) -> Int { Self.normalize(position, count: pageCount) }

    public struct Buttons: Sendable, Hashable {
        public var back: Bool
        public var next: Bool
        public var skip: Bool
        public var finish: Bool
    }

    /// Which of the flow's buttons are enabled (CONTRACT §4).
    public var buttons: Buttons { buttons(atIndex: currentIndex) }

    /// The buttons as they are on the visible page `index`.
    /// While applying, every button is off.
    func buttons(atIndex index: Int) -> Buttons {
        let count = pageCount
        let wrap = flow.paging.wrap
        if applying != nil { return Buttons(back: false, next: false, skip: false, finish: false) }
        return Buttons(
            back: count > 1 && (wrap || index > 0) && flow.pages[page(atVisible: index)].back,
            next: count > 1 && (wrap || index < count - 1),
            skip: index < count - 1,
            finish: index == count - 1)
    }

    public var indicatorHidden: Bool {
        flow.paging.indicatorStyle == .none || (flow.paging.hidesForSinglePage && pageCount <= 1)
    }

    // MARK: Programmatic moves

    /// A button, indicator tap or key asks to move (`decideMove` judges it). During an
    /// animation the move counts from the page being headed to and retargets the animation from
    /// where it is.
    mutating func requestMove(_ request: MoveRequest, by control: MoveControl = .key, _ event: Event) {
        apply(decideMove(request, by: control), event)
    }

    mutating func apply(_ decision: MoveDecision, _ event: Event) {
        switch decision {
        case .ignore(let reason): ignore(event, reason)
        case .refuse(let blockers): refuse(.gate, blockers)
        case .move(let target, let index): animate(to: target, index: index)
        case .applyFirst(let page, let target, let index): beginApplying(page: page, index: index, target: target)
        }
    }

    /// Reveals what blocks a move and says so.
    mutating func refuse(_ reason: Refusal, _ blockers: [Blocker]) {
        for blocker in blockers { answers.reveal(blocker.field) }
        emit(.refused(reason: reason, errors: blockers.map { FieldError(field: flow.fieldIDs[$0.field], code: $0.code) }))
    }

    /// Starts (or retargets) the animation towards `target`, visible page `index` once an open
    /// draft commits. A move to another page announces it and resigns the first responder,
    /// committing its draft; a spring-back to the page shown leaves both alone.
    mutating func animate(to target: Double, index: Int) {
        let from = currentIndex
        // A move requested while an animation or a spring-back runs is a retarget, and every
        // retarget announces its target, even one announced before in this transition (CONTRACT
        // §6.6); a drag's release announces only a page its drag did not.
        var retarget = false
        if case .animating = pager.motion { retarget = true }
        var animation = Animation(start: pager.position, target: target, announced: pager.motion?.announced)
        if target != Double(from) {
            if index != animation.announced || retarget {
                animation.announced = index
                emit(.pageWillChange(from: from, to: index))
            }
            pager.animate(animation)
            if focusChain.hasInput { resign(commit: true) }
        } else {
            // Back to the page shown: still a retarget, and every retarget announces (§6.6). The
            // page announced and not reached (pageDidChange's `to`) stays the one left behind.
            if retarget { emit(.pageWillChange(from: from, to: index)) }
            pager.animate(animation)
        }
        if animationDuration <= 0 || pager.position == target { finishAnimation() }
    }

    mutating func finishAnimation() {
        guard case .animating(let finished) = pager.motion else { return }
        let from = currentIndex
        let final = normalize(finished.target)
        let completed = finished.target != Double(from)
        if completed {
            applyMessage = nil
            pager.land(on: page(atVisible: final), index: final)
        } else {
            pager.stop(at: Double(final))
        }
        if let announced = finished.announced {
            emit(.pageDidChange(from: from, to: completed ? currentIndex : announced, completed: completed))
        }
    }

    /// `paging.animationMs` in whole microseconds.
    /// 0 with `reducedMotion`: every move lands at once.
    var animationDuration: Int64 { reducedMotion ? 0 : Self.microseconds(flow.paging.animationMs) }

    /// Milliseconds to whole microseconds, rounded to the nearest (half away from zero).
    static func microseconds(_ milliseconds: Double) -> Int64 {
        Int64((milliseconds * 1000).rounded(.toNearestOrAwayFromZero))
    }

    /// The eased fraction of the running animation's time (how far the current leg has gone).
    var animationProgress: Double { pager.progress(duration: animationDuration) }

    // MARK: Clock

    /// Advances the clock. Time is kept in whole microseconds, so frame times that add up to a
    /// duration complete it on that frame.
    mutating func tick(_ milliseconds: Double) {
        advanceClock(tickWhileApplying(Self.microseconds(milliseconds)))
    }

    /// Runs the pager's animation and auto-advance for `microseconds`.
    mutating func advanceClock(_ microseconds: Int64) {
        var remaining = microseconds
        while remaining > 0 {
            if case .animating = pager.motion {
                guard let left = pager.advanceAnimation(remaining, duration: animationDuration) else { return }
                remaining = left
                finishAnimation()
            } else if pager.motion == nil && pager.autoAdvance.active && !reducedMotion && applying == nil {
                guard let left = pager.countAutoAdvance(remaining, every: Self.microseconds(flow.paging.autoAdvanceMs)) else { return }
                remaining = left
                autoAdvanceStep()
            } else {
                return
            }
        }
    }

    mutating func settle() {
        if case .animating = pager.motion { finishAnimation() }
    }

    /// `paging.autoAdvanceMs`: move on after a settled while, never past the gate or an end.
    mutating func autoAdvanceStep() {
        switch decideMove(.step(1)) {
        case .move(let target, let index): animate(to: target, index: index)
        case .applyFirst(let page, let target, let index): beginApplying(page: page, index: index, target: target)
        default: pager.stopAutoAdvance()
        }
    }

    // MARK: Drags

    mutating func dragBegin(_ event: Event) {
        guard flow.paging.swipe else { return ignore(event, .swipeDisabled) }
        if case .dragging = pager.motion { return ignore(event, .dragInProgress) }
        var anchor = Double(currentIndex)
        var heading: Int? = nil
        var headingAt: Double? = nil
        if pager.motion != nil {
            // Take over a running animation from where it is, around the nearest page of the
            // pages as they will be once an open draft commits (as every move decision reads them).
            anchor = pager.position.rounded()
            let count = draftChangesValue ? Outlook(committingDraftOf: self).visibleCount : pageCount
            if !flow.paging.wrap { anchor = min(Double(count - 1), max(0, anchor)) }
            if case .animating(let animation) = pager.motion {
                // Springing back from the band beyond the gate (or an end), the nearest page is
                // one the pager was never let reach: the anchor is the page it springs back to
                // (the content edge a scroll view bounces back to).
                let target = animation.target
                if anchor != target, target == Double(currentIndex), !dragNeighbour(from: target, anchor > target ? 1 : -1).isOpen {
                    anchor = target
                }
                // A spring-back heads to the page shown: its takeover keeps that one (§6.6).
                heading = target != Double(currentIndex) ? animation.announced ?? normalize(target) : currentIndex
                headingAt = target
            }
        }
        // Inside a rubber band, the start is kept unscaled (as if the band were not there), so
        // the position does not jump when the band scales it again.
        let offset = pager.position - anchor
        let open = offset == 0 || dragNeighbour(from: anchor, offset > 0 ? 1 : -1).isOpen
        updateDrag(
            Drag(
                anchor: anchor, start: anchor + Pager.unband(offset, open: open), announced: pager.motion?.announced, heading: heading,
                headingAt: headingAt))
    }

    mutating func dragUpdate(dx: Double, _ event: Event) {
        guard case .dragging(var drag) = pager.motion else { return ignore(event, .noDrag) }
        drag.dx = dx
        updateDrag(drag)
    }

    /// Moves the pager to where `drag` puts it, past the neighbour the flow opens that way (the
    /// gate, an end); the pager says which page to announce.
    mutating func updateDrag(_ drag: Drag) {
        let raw = drag.offset(in: viewportWidth)
        let neighbour = raw == 0 ? DragNeighbour.none : dragNeighbour(from: drag.anchor, raw > 0 ? 1 : -1)
        if let index = pager.move(drag, neighbour: neighbour, count: pageCount) {
            emit(.pageWillChange(from: currentIndex, to: index))
        }
    }

    mutating func dragEnd(vx: Double, _ event: Event) {
        guard case .dragging(let drag) = pager.motion else { return ignore(event, .noDrag) }
        switch decideRelease(drag, velocity: vx) {
        case .snap(let target, let index):
            animate(to: target, index: index)
        case .applyFirst(let page, let target, let index):
            // Back to the page first, as at a gate; then the host is asked.
            animate(to: drag.anchor, index: normalize(drag.anchor))
            beginApplying(page: page, index: index, target: target)
        case .refuse(let blockers):
            refuse(.gate, blockers)
            animate(to: drag.anchor, index: normalize(drag.anchor))
        case .springBack:
            animate(to: drag.anchor, index: normalize(drag.anchor))
        }
    }

    mutating func swipe(dx: Double, vx: Double, _ event: Event) {
        guard flow.paging.swipe else { return ignore(event, .swipeDisabled) }
        if case .dragging = pager.motion { return ignore(event, .dragInProgress) }
        dragBegin(event)
        guard case .dragging(var drag) = pager.motion else { return }
        drag.dx = dx
        updateDrag(drag)
        dragEnd(vx: vx, event)
    }

    // MARK: Buttons and indicator

    mutating func tapButton(_ button: TapTarget.Button, _ event: Event) {
        let enabled = buttons
        switch button {
        case .back: requestMove(.step(-1), by: .button(enabled: enabled.back), event)
        case .next: requestMove(.step(1), by: .button(enabled: enabled.next), event)
        case .skip: requestMove(.last, by: .button(enabled: enabled.skip), event)
        case .finish: finish(event)
        case .cancel: cancel()
        }
    }

    /// What a key does with keyboard focus on the indicator, a slider: Up and Right go on, Down
    /// and Left back (as Page_Down and Page_Up turn pages everywhere else), Home and End go to
    /// the first and last dot; nil for any other key. The event is judged as any tap is.
    public func indicatorEvent(forKey key: Key) -> Event? {
        switch key {
        case .left, .down, .pageUp: .tap(.indicatorLeft)
        case .right, .up, .pageDown: .tap(.indicatorRight)
        case .home: .tap(.indicatorPage(0))
        case .end: .tap(.indicatorPage(max(pageCount - 1, 0)))
        default: nil
        }
    }

    /// A tap on the indicator: a step left or right of the current dot, or a dot (a visible
    /// index among the dots shown).
    mutating func tapIndicator(step: Int? = nil, page: Int? = nil, _ event: Event) {
        if let step { return requestMove(.step(step), by: .indicator, event) }
        if let page { requestMove(.dot(page), by: .indicator, event) }
    }

    // MARK: Completion

    mutating func finish(_ event: Event) {
        guard pager.motion == nil else { return ignore(event, .transitionInProgress) }
        guard buttons.finish else { return ignore(event, .disabled) }
        // Finishing commits the open picker; what happens next reads the committed values.
        if focusChain.hasInput { resign(commit: true) }
        switch decideFinish() {
        case .complete:
            if flow.pages[pager.currentPage].apply != nil {
                return beginApplying(page: pager.currentPage, index: nil, target: Double(currentIndex))
            }
            completion = Completion(outcome: .finished, values: resultValues(visibleOnly: true))
            emit(.completed(outcome: .finished))
        case .refuse(let page, let blockers):
            refuse(.finish, blockers)
            let index = visibleIndex(ofPage: page)
            if index != currentIndex { animate(to: Double(index), index: index) }
        case .advance(let index):
            // Committing the open picker showed pages after this one: go and show them.
            emit(.refused(reason: .finish, errors: []))
            animate(to: Double(index), index: index)
        }
    }

    mutating func cancel() {
        if let running = pager.motion {
            let from = currentIndex
            pager.stop(at: Double(from))
            if let announced = running.announced {
                emit(.pageDidChange(from: from, to: announced, completed: false))
            }
        }
        if focusChain.hasInput { resign(commit: true) }
        completion = Completion(outcome: .cancelled, values: resultValues(visibleOnly: false))
        emit(.completed(outcome: .cancelled))
    }

    /// Values for a result: all of them, or only visible fields' (a `finished` result).
    func resultValues(visibleOnly: Bool) -> JSONObject {
        var result = JSONObject(minimumCapacity: flow.fields.count)
        for (field, definition) in flow.fields.enumerated() where !visibleOnly || answers.fieldVisible[field] {
            result.append(definition.id, definition.json(answers.values[field]))
        }
        return result
    }
}
