/// Where a move goes: the one place that decides every page move (buttons, keys, indicator taps,
/// drags, swipes, auto-advance, finish) and every focus move (Tab, shift+Tab, Return, accessory
/// previous/next).
///
/// Every move commits the open picker's draft, so every decision reads the values as they will be
/// once it commits (an `Outlook`), without changing the session to ask. The callers apply what is
/// decided: they animate, resign, reveal and emit.
extension Session {
    // MARK: Page moves

    enum MoveRequest {
        case step(Int)
        /// The dot at this visible index, as shown (among the pages visible before an open
        /// draft commits).
        case dot(Int)
        case first
        case last
    }

    /// What asks for a move, as far as its own state goes.
    enum MoveControl {
        /// A key, or auto-advance: nothing of its own to judge.
        case key
        /// A page button: a disabled one is ignored.
        case button(enabled: Bool)
        /// The indicator (its arrows or a dot): a hidden one cannot be tapped.
        case indicator
    }

    /// An error that blocks a move: a field and its code.
    struct Blocker: Hashable {
        var field: Int
        var code: ValidationCode
    }

    enum MoveDecision {
        case ignore(IgnoreReason)
        /// The gate refuses: these errors block the move (and are to be revealed).
        case refuse([Blocker])
        /// Animate to `target` (a position, past an end for a wrapping move), which is visible
        /// page `index` once the draft commits.
        case move(target: Double, index: Int)
        /// A forward move off a page with `apply`: the host applies flow page `page` first, and
        /// the move happens once it has.
        case applyFirst(page: Int, target: Double, index: Int)
    }

    /// Decides a programmatic move (a button, a key, an indicator tap, auto-advance), from the
    /// page being headed to.
    ///
    /// When several reasons to ignore it apply, the first guard below that holds is reported, and
    /// the guards are in the documented order (CONTRACT §3, amended; docs/session-semantics.md,
    /// "Ignored events"): what the session is doing (a drag), then whether the target exists (the
    /// indicator shown, the dot among the dots shown), then the target's state (a disabled button,
    /// then the move itself: hidden, at an end, the same page).
    func decideMove(_ request: MoveRequest, by control: MoveControl = .key) -> MoveDecision {
        if case .dragging = pager.motion { return .ignore(.dragInProgress) }
        if case .indicator = control, indicatorHidden { return .ignore(.indicatorHidden) }
        if case .dot(let dot) = request, !(dot >= 0 && dot < pageCount) { return .ignore(.noSuchPage) }
        if case .button(let enabled) = control, !enabled { return .ignore(.disabled) }
        if draftChangesValue { return decideMove(request, in: Outlook(committingDraftOf: self)) }
        return decideMove(request, in: self)
    }

    /// The move itself, judged on `answers`: the values as they will be once the open draft
    /// commits (the session itself when there is no draft to commit).
    func decideMove(_ request: MoveRequest, in answers: some AnswerLookup) -> MoveDecision {
        let count = answers.visibleCount
        let heading: Double
        if case .animating(let animation) = pager.motion { heading = animation.target } else { heading = Double(currentIndex) }
        let headingIndex = Self.normalize(heading, count: count)
        let headingPage = answers.page(atVisible: headingIndex)
        let target: Double
        let index: Int
        var gateEnd: Int? = nil
        let noWayBack = !flow.pages[headingPage].back
        switch request {
        case .step(let direction):
            // (No way back: a backward step is off, even one that would wrap or is at an end.)
            if direction < 0 && noWayBack { return .ignore(.disabled) }
            guard count > 1 else { return .ignore(.atEnd) }
            let neighbour =
                direction > 0
                ? answers.nextVisiblePage(after: headingPage) ?? (flow.paging.wrap ? answers.page(atVisible: 0) : nil)
                : answers.previousVisiblePage(before: headingPage) ?? (flow.paging.wrap ? answers.page(atVisible: count - 1) : nil)
            guard neighbour != nil else { return .ignore(.atEnd) }
            target = heading + Double(direction)
            index = Self.normalize(target, count: count)
            if direction > 0 { gateEnd = headingPage + 1 }
        case .dot(let dot):
            // The dot names a page among those shown (`self`); where that page is, and whether it
            // is there at all, is judged with the draft committed (`answers`).
            let page = self.page(atVisible: dot)
            guard answers.isPageVisible(page) else { return .ignore(.hidden) }
            index = answers.visibleIndex(ofPage: page)
            target = Double(index)
        case .first:
            index = 0
            target = 0
        case .last:
            index = count - 1
            target = Double(index)
        }
        if case .step = request {
        } else {
            if index < headingIndex && noWayBack { return .ignore(.disabled) }
            guard index != headingIndex else { return .ignore(.samePage) }
            if index > headingIndex { gateEnd = answers.page(atVisible: index) }
        }
        if let gateEnd, flow.paging.gate == .valid {
            let blockers = blockers(from: headingPage, to: gateEnd, in: answers)
            if !blockers.isEmpty { return .refuse(blockers) }
        }
        // A forward move off a page with `apply` waits for the host.
        if gateEnd != nil && flow.pages[headingPage].apply != nil {
            return .applyFirst(page: headingPage, target: target, index: index)
        }
        return .move(target: target, index: index)
    }

    /// The errors of the pages in `start..<end` (flow pages): what blocks a forward move.
    func blockers(from start: Int, to end: Int, in answers: some AnswerLookup) -> [Blocker] {
        var blockers: [Blocker] = []
        var next = answers.nextPageWithErrors(from: start)
        while let page = next, page < end {
            WorkMeter.count()
            for field in flow.pages[page].fieldRange {
                if let code = answers.error(field) { blockers.append(Blocker(field: field, code: code)) }
            }
            next = answers.nextPageWithErrors(from: page + 1)
        }
        return blockers
    }

    /// The visible index a (possibly wrapped) position stands for.
    static func normalize(_ position: Double, count: Int) -> Int {
        let count = max(count, 1)
        let rounded = Int(position.rounded())
        return ((rounded % count) + count) % count
    }

    // MARK: Drags

    enum DragNeighbour {
        /// No page that way: past an end, or a single page.
        case none
        /// A page exists forward but the gate holds the page the drag started from.
        case held
        /// The page a drag that way reveals: its position and visible index.
        case open(position: Double, index: Int)

        var isOpen: Bool {
            if case .open = self { return true }
            return false
        }
    }

    /// The page a drag from `anchor` in `direction` (+1 forward, -1 back) reveals.
    func dragNeighbour(from anchor: Double, _ direction: Int) -> DragNeighbour {
        if draftChangesValue { return Self.dragNeighbour(from: anchor, direction, in: Outlook(committingDraftOf: self)) }
        return Self.dragNeighbour(from: anchor, direction, in: self)
    }

    static func dragNeighbour(from anchor: Double, _ direction: Int, in answers: some AnswerLookup) -> DragNeighbour {
        let count = answers.visibleCount
        guard count > 1 else { return .none }
        let target = anchor.rounded() + Double(direction)
        let settings = answers.flow.paging
        if !settings.wrap && !(target >= 0 && target <= Double(count - 1)) { return .none }
        // No way back: a backward drag rubber-bands as at an end.
        if direction < 0 && !answers.flow.pages[answers.page(atVisible: Self.normalize(anchor, count: count))].back { return .none }
        if direction > 0 && settings.gate == .valid {
            let page = answers.page(atVisible: Self.normalize(anchor, count: count))
            if answers.pageHasErrors(page) { return .held }
        }
        return .open(position: target, index: Self.normalize(target, count: count))
    }

    /// What a forward release on a held page is refused for.
    func dragBlockers(from anchor: Double) -> [Blocker] {
        if draftChangesValue { return dragBlockers(from: anchor, in: Outlook(committingDraftOf: self)) }
        return dragBlockers(from: anchor, in: self)
    }

    func dragBlockers(from anchor: Double, in answers: some AnswerLookup) -> [Blocker] {
        let page = answers.page(atVisible: Self.normalize(anchor, count: answers.visibleCount))
        return blockers(from: page, to: page + 1, in: answers)
    }

    enum ReleaseDecision {
        /// Snap to `target` (a position), visible page `index` once the draft commits.
        case snap(target: Double, index: Int)
        /// A forward release off a page with `apply` (flow page `page`): back to the page, and
        /// the host applies it first.
        case applyFirst(page: Int, target: Double, index: Int)
        /// A forward release on a page the gate holds: refused for these errors, then it springs
        /// back.
        case refuse([Blocker])
        /// Back to the page the drag began on (`completed: false`).
        case springBack
    }

    /// Where a released drag goes (CONTRACT §2, amended; docs/session-semantics.md, "Release").
    ///
    /// A fling (at least `flingVelocity` px/s either way) picks the nearest page in its direction
    /// from where the pager is, among the page the drag began on (`anchor`) and its neighbours: a
    /// fling back after a forward drag returns to the start page, and a fling back from inside
    /// the band beyond the revealed page lands on the revealed page, never two pages back.
    /// Otherwise the pager snaps to the neighbour the drag covered at least `snapDistance` of
    /// the width towards. A neighbour that is not there (an end) springs back; one the gate holds
    /// is refused.
    func decideRelease(_ drag: Drag, velocity vx: Double) -> ReleaseDecision {
        let settings = flow.paging
        let direction: Int
        if settings.isFling(vx) {
            // vx < 0 is towards the next page. The nearest page strictly that way from the
            // position (positions within 1e-9 of a page count as on it), kept within one page
            // of the anchor.
            let page = vx < 0 ? (pager.position + 1e-9).rounded(.down) + 1 : (pager.position - 1e-9).rounded(.up) - 1
            direction = Int(min(1, max(-1, page - drag.anchor)))
        } else {
            let covered = drag.offset(in: viewportWidth)
            direction = covered >= settings.snapDistance ? 1 : covered <= -settings.snapDistance ? -1 : 0
        }
        guard direction != 0 else { return .springBack }
        switch dragNeighbour(from: drag.anchor, direction) {
        case .open(let position, let index):
            let page = self.page(atVisible: normalize(drag.anchor))
            if direction > 0 && flow.pages[page].apply != nil { return .applyFirst(page: page, target: position, index: index) }
            return .snap(target: position, index: index)
        case .held: return .refuse(dragBlockers(from: drag.anchor))
        case .none: return .springBack
        }
    }

    // MARK: Finish

    enum FinishDecision {
        case complete
        /// A page up to this one has errors: show it with them revealed.
        case refuse(page: Int, [Blocker])
        /// Pages appeared after this one: go and show the next, revealing nothing yet.
        case advance(index: Int)
    }

    func decideFinish() -> FinishDecision {
        if draftChangesValue { return decideFinish(in: Outlook(committingDraftOf: self)) }
        return decideFinish(in: self)
    }

    func decideFinish(in answers: some AnswerLookup) -> FinishDecision {
        if let page = answers.nextPageWithErrors(from: 0), page <= pager.currentPage {
            return .refuse(page: page, blockers(from: page, to: page + 1, in: answers))
        }
        let index = answers.visibleIndex(ofPage: pager.currentPage)
        if index < answers.visibleCount - 1 { return .advance(index: index + 1) }
        return .complete
    }

    // MARK: Focus moves

    enum FocusMove {
        /// `Tab` / `shift+Tab`: not wrapping (past the ends focus leaves the chain); with nothing
        /// focused, the first / last field.
        case tab(forward: Bool)
        /// Accessory `previous` / `next`: not wrapping.
        case accessory(forward: Bool)
        /// `Return` on a text field, as its `returnKey` says.
        case returnKey
    }

    /// The field a focus move from the first responder (or nothing) goes to; nil: none.
    func focusTarget(_ move: FocusMove) -> Int? {
        let field = focusChain.hasInput ? focusChain.field : nil
        if draftChangesValue {
            return Self.focusTarget(move, from: field, onPage: pager.currentPage, in: Outlook(committingDraftOf: self))
        }
        return Self.focusTarget(move, from: field, onPage: pager.currentPage, in: self)
    }

    static func focusTarget(_ move: FocusMove, from field: Int?, onPage page: Int, in answers: some AnswerLookup) -> Int? {
        switch move {
        case .tab(let forward):
            return neighbour(of: field, onPage: page, forward: forward, wrapping: false, in: answers)
        case .accessory(let forward):
            guard let field else { return nil }
            return neighbour(of: field, onPage: page, forward: forward, wrapping: false, in: answers)
        case .returnKey:
            guard let field, case .text(let options) = answers.flow.fields[field].kind else { return nil }
            switch options.returnKey {
            case .done: return nil
            case .next: return neighbour(of: field, onPage: page, forward: true, wrapping: true, in: answers)
            case .default: return neighbour(of: field, onPage: page, forward: true, wrapping: false, in: answers)
            }
        }
    }

    /// The next (or previous) field of `page` that can become first responder.
    static func neighbour(
        of field: Int?, onPage page: Int, forward: Bool, wrapping: Bool, in answers: some AnswerLookup
    ) -> Int? {
        let range = answers.flow.pages[page].fieldRange
        guard !range.isEmpty else { return nil }
        guard let field else {
            var candidate = forward ? range.lowerBound : range.upperBound - 1
            while range.contains(candidate) {
                WorkMeter.count()
                if answers.canFocus(candidate) { return candidate }
                candidate += forward ? 1 : -1
            }
            return nil
        }
        var candidate = field
        for _ in 0..<(range.count - 1) {
            candidate += forward ? 1 : -1
            if candidate >= range.upperBound {
                guard wrapping else { return nil }
                candidate = range.lowerBound
            } else if candidate < range.lowerBound {
                guard wrapping else { return nil }
                candidate = range.upperBound - 1
            }
            WorkMeter.count()
            if answers.canFocus(candidate) { return candidate }
        }
        return nil
    }
}
