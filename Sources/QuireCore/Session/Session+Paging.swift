import Foundation

/// The pager (UIPageViewController + UIPageControl): visible pages, the gate, programmatic moves
/// with retargeting, drags with rubber band and snapping, ease-out animation driven by ticks.
///
/// Positions are in visible-page units. A wrapping move runs past an end (towards `count` or -1)
/// and is normalized when it completes; `currentPage` changes only then.
extension Session {
    /// How many pages are visible now.
    public var pageCount: Int { visiblePages.total }

    /// The visible index of the current page.
    public var currentIndex: Int { visiblePages.prefix(currentPage) }

    func visibleIndex(ofPage page: Int) -> Int { visiblePages.prefix(page) }

    func page(atVisible index: Int) -> Int { visiblePages.find(index) }

    /// The visible index a (possibly wrapped) position stands for.
    func normalize(_ position: Double) -> Int {
        let count = max(pageCount, 1)
        let rounded = Int(position.rounded())
        return ((rounded % count) + count) % count
    }

    /// Whether a page exists one step from the page at `position`.
    func canStep(from position: Double, _ direction: Int) -> Bool {
        let count = pageCount
        guard count > 1 else { return false }
        if flow.paging.wrap { return true }
        let target = Int(position.rounded()) + direction
        return target >= 0 && target < count
    }

    func coordinateExists(_ position: Double) -> Bool {
        let count = pageCount
        if flow.paging.wrap { return count > 1 }
        return position >= 0 && position <= Double(count - 1)
    }

    public struct Buttons: Sendable, Hashable {
        public var back: Bool
        public var next: Bool
        public var skip: Bool
        public var finish: Bool
    }

    /// Which of the flow's buttons are enabled (CONTRACT §4).
    public var buttons: Buttons {
        let count = pageCount
        let index = currentIndex
        let wrap = flow.paging.wrap
        return Buttons(
            back: count > 1 && (wrap || index > 0),
            next: count > 1 && (wrap || index < count - 1),
            skip: index < count - 1,
            finish: index == count - 1)
    }

    public var indicatorHidden: Bool {
        flow.paging.indicatorStyle == .none || (flow.paging.hidesForSinglePage && pageCount <= 1)
    }

    // MARK: Programmatic moves

    enum MoveRequest {
        case step(Int)
        /// A visible index (an indicator dot).
        case page(Int)
        /// A page of the flow, wherever it is among visible pages.
        case flowPage(Int)
        case first
        case last
    }

    enum MoveDecision {
        case ignore(IgnoreReason)
        case refuse([FieldError])
        case move(Double)
    }

    /// A button, indicator tap or key asks to move. During an animation the move counts from the
    /// page being headed to and retargets the animation from where it is.
    mutating func requestMove(_ request: MoveRequest, _ event: Event) {
        if motion?.phase == .dragging {
            ignore(event, .dragInProgress)
            return
        }
        // Judged as the values will be once the move commits an open picker's draft. A dot is
        // the page the user sees now: it is found before the draft is applied.
        var request = request
        if case .page(let index) = request, index >= 0 && index < pageCount {
            let page = page(atVisible: index)
            request = .flowPage(page)
        }
        let decision = withDraftApplied { session in session.decideMove(request) }
        switch decision {
        case .ignore(let reason): ignore(event, reason)
        case .refuse(let errors): emit(.refused(reason: .gate, errors: errors))
        case .move(let target): animate(to: target)
        }
    }

    mutating func decideMove(_ request: MoveRequest) -> MoveDecision {
        let count = pageCount
        let heading = motion?.target ?? Double(currentIndex)
        let headingIndex = normalize(heading)
        let target: Double
        let passed: Range<Int>?
        switch request {
        case .step(let direction):
            guard canStep(from: heading, direction) else { return .ignore(.atEnd) }
            target = heading + Double(direction)
            passed = direction > 0 ? headingIndex..<(headingIndex + 1) : nil
        case .page, .flowPage, .first, .last:
            let index: Int
            switch request {
            case .page(let page): index = page
            case .flowPage(let page):
                // Committing the draft hid the page that was tapped.
                guard pageVisible[page] else { return .ignore(.hidden) }
                index = visibleIndex(ofPage: page)
            case .first: index = 0
            default: index = count - 1
            }
            guard index >= 0 && index < count else { return .ignore(.noSuchPage) }
            guard index != headingIndex else { return .ignore(.samePage) }
            target = Double(index)
            passed = index > headingIndex ? headingIndex..<index : nil
        }
        if let passed, flow.paging.gate == .valid {
            let errors = gateErrors(passing: passed)
            if !errors.isEmpty { return .refuse(errors) }
        }
        return .move(target)
    }

    /// The errors of the visible pages in `range` (reveals them): what blocks a forward move.
    mutating func gateErrors(passing range: Range<Int>) -> [FieldError] {
        guard pagesWithErrors.total > 0 else { return [] }
        let firstPage = page(atVisible: range.lowerBound)
        let endPage = range.upperBound < pageCount ? page(atVisible: range.upperBound) : flow.pages.count
        var ordinal = pagesWithErrors.prefix(firstPage)
        var errors: [FieldError] = []
        while ordinal < pagesWithErrors.total {
            let page = pagesWithErrors.find(ordinal)
            guard page < endPage else { break }
            WorkMeter.count()
            revealErrors(onPage: page)
            errors.append(contentsOf: self.errors(onPage: page))
            ordinal += 1
        }
        return errors
    }

    /// Starts (or retargets) the animation towards `target`.
    mutating func animate(to target: Double) {
        let from = currentIndex
        var next = motion ?? Motion(phase: .animating)
        next.phase = .animating
        next.start = position
        next.target = target
        next.elapsed = 0
        // A phase keeps only its own fields, so a snapshot holds the whole motion.
        next.anchor = 0
        next.dragStart = 0
        next.dx = 0
        next.revealed = nil
        motion = next
        let targetIndex = normalize(target)
        if target != Double(from) && targetIndex != next.announced {
            motion?.announced = targetIndex
            emit(.pageWillChange(from: from, to: targetIndex))
            // Changing page resigns the first responder, committing its draft.
            if input != nil { resign(commit: true) }
        }
        if flow.paging.animationMs <= 0 || position == target { finishAnimation() }
    }

    mutating func finishAnimation() {
        guard let finished = motion else { return }
        let from = currentIndex
        let final = normalize(finished.target)
        let completed = finished.target != Double(from)
        motion = nil
        position = Double(final)
        if completed {
            if input != nil { resign(commit: true) }
            currentPage = page(atVisible: final)
            position = Double(currentIndex)
            autoAdvance.elapsed = 0
        }
        if let announced = finished.announced {
            emit(.pageDidChange(from: from, to: completed ? currentIndex : announced, completed: completed))
        }
    }

    static func easeOutCubic(_ t: Double) -> Double {
        let clamped = min(1, max(0, t))
        let rest = 1 - clamped
        return 1 - rest * rest * rest
    }

    /// The eased fraction of the running animation's time (how far the current leg has gone).
    var animationProgress: Double {
        guard let motion, motion.phase == .animating else { return 0 }
        let duration = flow.paging.animationMs
        return duration > 0 ? Self.easeOutCubic(motion.elapsed / duration) : 1
    }

    // MARK: Clock

    mutating func tick(_ milliseconds: Double) {
        var remaining = milliseconds
        repeat {
            if let running = motion, running.phase == .animating {
                let need = flow.paging.animationMs - running.elapsed
                if remaining >= need {
                    remaining -= need
                    finishAnimation()
                } else {
                    motion?.elapsed += remaining
                    position = running.start + (running.target - running.start) * animationProgress
                    remaining = 0
                }
            } else if motion == nil && autoAdvance.active {
                let need = flow.paging.autoAdvanceMs - autoAdvance.elapsed
                if remaining >= need {
                    remaining -= need
                    autoAdvance.elapsed = 0
                    autoAdvanceStep()
                } else {
                    autoAdvance.elapsed += remaining
                    remaining = 0
                }
            } else {
                remaining = 0
            }
        } while remaining > 0
    }

    mutating func settle() {
        if motion?.phase == .animating { finishAnimation() }
    }

    /// `paging.autoAdvanceMs`: move on after a settled while, never past the gate or an end.
    mutating func autoAdvanceStep() {
        let index = currentIndex
        guard canStep(from: Double(index), 1),
            flow.paging.gate == .none || pageErrorCount[currentPage] == 0
        else {
            autoAdvance.active = false
            return
        }
        animate(to: Double(index + 1))
    }

    // MARK: Drags

    mutating func dragBegin(_ event: Event) {
        guard flow.paging.swipe else { return ignore(event, .swipeDisabled) }
        if motion?.phase == .dragging { return ignore(event, .dragInProgress) }
        var drag = motion ?? Motion(phase: .dragging)
        if motion == nil {
            drag.anchor = Double(currentIndex)
        } else {
            // Take over a running animation from where it is, around the nearest page.
            var anchor = position.rounded()
            if !flow.paging.wrap { anchor = min(Double(pageCount - 1), max(0, anchor)) }
            drag.anchor = anchor
        }
        drag.phase = .dragging
        drag.start = 0
        drag.target = 0
        drag.elapsed = 0
        drag.dragStart = position
        drag.dx = 0
        drag.revealed = nil
        motion = drag
        // Taking over inside a rubber band: `dragStart` is kept unscaled (as if the band were not
        // there), so the position does not jump when the band scales it again.
        let offset = position - drag.anchor
        if !dragDirectionOpen(from: drag.anchor, offset: offset) { motion?.dragStart = drag.anchor + offset / 0.35 }
        updateDrag()
    }

    mutating func dragUpdate(dx: Double, _ event: Event) {
        guard motion?.phase == .dragging else { return ignore(event, .noDrag) }
        motion?.dx = dx
        updateDrag()
    }

    /// Whether a forward drag from the page at `anchor` is held back by the gate.
    mutating func gateHoldsDrag(at anchor: Double) -> Bool {
        guard flow.paging.gate == .valid else { return false }
        let page = page(atVisible: normalize(anchor))
        return withDraftApplied { session in session.pageErrorCount[page] > 0 }
    }

    /// Whether a drag `offset` pages from `anchor` moves freely (towards a page it may reveal)
    /// rather than in a rubber band (past an end, or forward on a page the gate holds).
    mutating func dragDirectionOpen(from anchor: Double, offset: Double) -> Bool {
        if offset > 0 { return canStep(from: anchor, 1) && !gateHoldsDrag(at: anchor) }
        if offset < 0 { return canStep(from: anchor, -1) }
        return true
    }

    mutating func updateDrag() {
        guard let drag = motion, drag.phase == .dragging else { return }
        let current = Double(currentIndex)
        let raw = (drag.dragStart - drag.anchor) - drag.dx / viewportWidth
        let open = dragDirectionOpen(from: drag.anchor, offset: raw)
        let offset = min(1, max(-1, open ? raw : raw * 0.35))
        position = drag.anchor + offset
        var revealed: Double? = nil
        if open && position != current {
            let coordinate = position > current ? (position - 1e-9).rounded(.up) : (position + 1e-9).rounded(.down)
            if coordinate != current && coordinateExists(coordinate) { revealed = coordinate }
        }
        motion?.revealed = revealed
        if let revealed {
            let index = normalize(revealed)
            if index != drag.announced {
                motion?.announced = index
                emit(.pageWillChange(from: currentIndex, to: index))
                if input != nil { resign(commit: true) }
            }
        }
    }

    mutating func dragEnd(vx: Double, _ event: Event) {
        guard let drag = motion, drag.phase == .dragging else { return ignore(event, .noDrag) }
        let intended = (drag.dragStart - drag.anchor) - drag.dx / viewportWidth
        let fling = flow.paging.flingVelocity
        let snap = flow.paging.snapDistance
        // A fling picks the page in its direction from where the pager is: a fling back after a
        // forward drag returns to the page the drag started from, as UIKit's paging does.
        var direction = 0
        if vx <= -fling {
            direction = intended < 0 ? 0 : 1
        } else if vx >= fling {
            direction = intended > 0 ? 0 : -1
        } else if intended >= snap {
            direction = 1
        } else if intended <= -snap {
            direction = -1
        }
        var target = drag.anchor
        if direction != 0 && canStep(from: drag.anchor, direction) {
            if direction > 0 && flow.paging.gate == .valid {
                let index = normalize(drag.anchor)
                let errors = withDraftApplied { session in session.gateErrors(passing: index..<(index + 1)) }
                if errors.isEmpty {
                    target = drag.anchor + 1
                } else {
                    emit(.refused(reason: .gate, errors: errors))
                }
            } else {
                target = drag.anchor + Double(direction)
            }
        }
        animate(to: target)
    }

    mutating func swipe(dx: Double, vx: Double, _ event: Event) {
        guard flow.paging.swipe else { return ignore(event, .swipeDisabled) }
        if motion?.phase == .dragging { return ignore(event, .dragInProgress) }
        dragBegin(event)
        motion?.dx = dx
        updateDrag()
        dragEnd(vx: vx, event)
    }

    // MARK: Buttons and indicator

    mutating func tapButton(_ button: TapTarget.Button, _ event: Event) {
        let enabled = buttons
        switch button {
        case .back:
            guard enabled.back else { return ignore(event, .disabled) }
            requestMove(.step(-1), event)
        case .next:
            guard enabled.next else { return ignore(event, .disabled) }
            requestMove(.step(1), event)
        case .skip:
            guard enabled.skip else { return ignore(event, .disabled) }
            requestMove(.last, event)
        case .finish:
            finish(event)
        case .cancel:
            cancel()
        }
    }

    mutating func tapIndicator(_ request: MoveRequest, _ event: Event) {
        guard !indicatorHidden else { return ignore(event, .indicatorHidden) }
        requestMove(request, event)
    }

    // MARK: Completion

    mutating func finish(_ event: Event) {
        guard motion == nil else { return ignore(event, .transitionInProgress) }
        guard buttons.finish else { return ignore(event, .disabled) }
        if input != nil { resign(commit: true) }
        guard pagesWithErrors.total > 0 else {
            if currentIndex != pageCount - 1 {
                // Committing the open picker showed pages after this one: go and show them.
                emit(.refused(reason: .finish, errors: []))
                animate(to: Double(currentIndex + 1))
                return
            }
            completion = Completion(outcome: .finished, values: resultValues(visibleOnly: true))
            emit(.completed(outcome: .finished))
            return
        }
        let page = pagesWithErrors.find(0)
        revealErrors(onPage: page)
        emit(.refused(reason: .finish, errors: errors(onPage: page)))
        let index = visibleIndex(ofPage: page)
        if index != currentIndex { animate(to: Double(index)) }
    }

    mutating func cancel() {
        if let running = motion {
            let from = currentIndex
            motion = nil
            position = Double(from)
            if let announced = running.announced {
                emit(.pageDidChange(from: from, to: announced, completed: false))
            }
        }
        if input != nil { resign(commit: true) }
        completion = Completion(outcome: .cancelled, values: resultValues(visibleOnly: false))
        emit(.completed(outcome: .cancelled))
    }

    /// Values for a result: all of them, or only visible fields' (a `finished` result).
    func resultValues(visibleOnly: Bool) -> JSONObject {
        var result = JSONObject(minimumCapacity: flow.fields.count)
        for (field, definition) in flow.fields.enumerated() where !visibleOnly || fieldVisible[field] {
            result.append(definition.id, definition.json(values[field]))
        }
        return result
    }
}
