/// What every decision reads: the answers and what they derive, either as they are (the session)
/// or as they will be once the open picker's draft commits (an `Outlook`).
protocol AnswerLookup {
    var flow: Flow { get }
    func value(_ field: Int) -> FieldValue
    func isPageVisible(_ page: Int) -> Bool
    func isFieldVisible(_ field: Int) -> Bool
    func isFieldEnabled(_ field: Int) -> Bool
    func isFieldRequired(_ field: Int) -> Bool
    func error(_ field: Int) -> ValidationCode?
    /// A text answer's length in grapheme clusters.
    func textLength(_ field: Int) -> Int

    /// How many pages are visible.
    var visibleCount: Int { get }
    /// How many visible pages come before `page` (its visible index when it is visible).
    func visibleIndex(ofPage page: Int) -> Int
    /// The page at a visible index (`0..<visibleCount`).
    func page(atVisible index: Int) -> Int
    /// The first visible page after `page`, if any.
    func nextVisiblePage(after page: Int) -> Int?
    /// The last visible page before `page`, if any.
    func previousVisiblePage(before page: Int) -> Int?
    /// Whether a page has a field with an error (revealed or not).
    func pageHasErrors(_ page: Int) -> Bool
    /// The first page at or after `page` that has errors, if any.
    func nextPageWithErrors(from page: Int) -> Int?
}

extension Session: AnswerLookup {
    func textLength(_ field: Int) -> Int { answers.textLengths[field] }
    var visibleCount: Int { answers.visibleCount }
    func visibleIndex(ofPage page: Int) -> Int { answers.visibleIndex(ofPage: page) }
    func page(atVisible index: Int) -> Int { answers.page(atVisible: index) }
    func nextVisiblePage(after page: Int) -> Int? { answers.nextVisiblePage(after: page) }
    func previousVisiblePage(before page: Int) -> Int? { answers.previousVisiblePage(before: page) }
    func pageHasErrors(_ page: Int) -> Bool { answers.pageHasErrors(page) }
    func nextPageWithErrors(from page: Int) -> Int? { answers.nextPageWithErrors(from: page) }

    /// Whether the open picker's draft is an answer that leaving the field (a move, Tab, a tap
    /// elsewhere) commits: the field has a value already, or the user changed the draft. A draft
    /// nobody changed on a field with no value is dropped (CONTRACT §6.5).
    var draftIsAnswer: Bool {
        let field = focusChain.field
        guard field >= 0 else { return false }
        return focusChain.draftChanged || !answers.values[field].isNull
    }

    /// Whether leaving the open picker would change its field's value (its draft is an answer,
    /// and differs): only then do decisions need an `Outlook`.
    var draftChangesValue: Bool {
        let field = focusChain.field
        guard field >= 0, flow.fieldTraits[field].isPicker, draftIsAnswer else { return false }
        return focusChain.draft != answers.values[field]
    }
}

/// The differences an open picker's draft makes once committed, over the session as it is. Its
/// size follows what the draft changes (the same nodes a commit would evaluate), not the flow.
struct Outlook: Derivation, AnswerLookup {
    struct FieldState: Hashable {
        var visible: Bool
        var enabled: Bool
        var required: Bool
        var error: ValidationCode?
    }

    let base: Session
    var queue = NodeQueue()
    private var answered: (field: Int, value: FieldValue)? = nil
    /// Pages whose visibility differs from the session's.
    private var pages: [Int: Bool] = [:]
    private var fields: [Int: FieldState] = [:]
    /// Per page: errors added (positive) or removed (negative) relative to the session.
    private var errorDelta: [Int: Int] = [:]

    /// The session as it will be once its open picker's draft commits. Built without touching
    /// the session: the draft's consequences are propagated into the overlay.
    init(committingDraftOf session: Session) {
        base = session
        if session.draftChangesValue { assign(session.focusChain.field, session.focusChain.draft) }
    }

    var flow: Flow { base.flow }

    func value(_ field: Int) -> FieldValue {
        if let answered, answered.field == field { return answered.value }
        return base.answers.values[field]
    }
    func isPageVisible(_ page: Int) -> Bool { pages[page] ?? base.answers.pageVisible[page] }
    func isFieldVisible(_ field: Int) -> Bool { fields[field]?.visible ?? base.answers.fieldVisible[field] }
    func isFieldEnabled(_ field: Int) -> Bool { fields[field]?.enabled ?? base.answers.fieldEnabled[field] }
    func isFieldRequired(_ field: Int) -> Bool { fields[field]?.required ?? base.answers.fieldRequired[field] }
    func error(_ field: Int) -> ValidationCode? { fields[field].map(\.error) ?? base.answers.fieldError[field] }
    /// The draft's field drops its host error; other fields keep theirs.
    func hostError(_ field: Int) -> ValidationCode? { answered?.field == field ? nil : base.hostError(field) }
    mutating func dropHostError(_ field: Int) {}
    /// Drafts are picker values: text answers are the session's.
    func textLength(_ field: Int) -> Int { base.answers.textLengths[field] }

    mutating func storeValue(_ field: Int, _ value: FieldValue) { answered = (field, value) }
    mutating func storePageVisible(_ page: Int, _ visible: Bool) { pages[page] = visible }

    private func state(_ field: Int) -> FieldState {
        fields[field]
            ?? FieldState(
                visible: base.answers.fieldVisible[field], enabled: base.answers.fieldEnabled[field],
                required: base.answers.fieldRequired[field], error: base.answers.fieldError[field])
    }

    mutating func storeFlags(_ field: Int, visible: Bool, enabled: Bool, required: Bool) {
        var changed = state(field)
        changed.visible = visible
        changed.enabled = enabled
        changed.required = required
        fields[field] = changed
    }

    mutating func storeError(_ field: Int, _ error: ValidationCode?) {
        var changed = state(field)
        let page = flow.fieldTraits[field].page
        if changed.error == nil { errorDelta[page, default: 0] += 1 }
        if error == nil { errorDelta[page, default: 0] -= 1 }
        changed.error = error
        fields[field] = changed
    }

    /// +1 for a page the draft shows, -1 for one it hides, 0 otherwise.
    private func visibilityChange(_ page: Int) -> Int {
        guard let visible = pages[page], visible != base.answers.pageVisible[page] else { return 0 }
        return visible ? 1 : -1
    }

    var visibleCount: Int { base.visibleCount + pages.keys.reduce(0) { $0 + visibilityChange($1) } }

    func visibleIndex(ofPage page: Int) -> Int {
        base.visibleIndex(ofPage: page) + pages.keys.reduce(0) { $1 < page ? $0 + visibilityChange($1) : $0 }
    }

    func page(atVisible index: Int) -> Int {
        // The smallest page with `index + 1` visible pages up to and including it.
        var low = 0
        var high = flow.pages.count - 1
        while low < high {
            let middle = (low + high) / 2
            let upTo = visibleIndex(ofPage: middle) + (isPageVisible(middle) ? 1 : 0)
            if upTo > index { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Pages the draft shows, in `range`.
    private func shownPages(in range: ClosedRange<Int>) -> some Sequence<Int> {
        pages.keys.lazy.filter { range.contains($0) && visibilityChange($0) > 0 }
    }

    func nextVisiblePage(after page: Int) -> Int? {
        var candidate = base.nextVisiblePage(after: page)
        while let hidden = candidate, !isPageVisible(hidden) { candidate = base.nextVisiblePage(after: hidden) }
        let shown = page + 1 <= flow.pages.count - 1 ? shownPages(in: (page + 1)...(flow.pages.count - 1)).min() : nil
        return [candidate, shown].compactMap { $0 }.min()
    }

    func previousVisiblePage(before page: Int) -> Int? {
        var candidate = base.previousVisiblePage(before: page)
        while let hidden = candidate, !isPageVisible(hidden) { candidate = base.previousVisiblePage(before: hidden) }
        let shown = page - 1 >= 0 ? shownPages(in: 0...(page - 1)).max() : nil
        return [candidate, shown].compactMap { $0 }.max()
    }

    func pageHasErrors(_ page: Int) -> Bool { base.answers.pageErrorCount[page] + Int32(errorDelta[page] ?? 0) > 0 }

    func nextPageWithErrors(from page: Int) -> Int? {
        var candidate = base.nextPageWithErrors(from: page)
        while let cleared = candidate, !pageHasErrors(cleared) { candidate = base.nextPageWithErrors(from: cleared + 1) }
        let added = errorDelta.keys.lazy.filter { $0 >= page && self.base.answers.pageErrorCount[$0] == 0 && self.pageHasErrors($0) }.min()
        return [candidate, added].compactMap { $0 }.min()
    }
}
