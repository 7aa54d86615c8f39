/// The focus chain and input views (UIResponder, inputView, inputAccessoryView, UIKeyInput).
extension Session {
    // MARK: Taps

    mutating func tap(_ target: TapTarget, _ event: Event) {
        switch target {
        case .field(let id): tapField(id, event)
        case .background:
            if focusChain.hasInput { resign(commit: true) } else { ignore(event, .noFirstResponder) }
        case .indicatorLeft: tapIndicator(step: -1, event)
        case .indicatorRight: tapIndicator(step: 1, event)
        case .indicatorPage(let index): tapIndicator(page: index, event)
        case .button(let button): tapButton(button, event)
        case .accessory(let item): tapAccessory(item, event)
        }
    }

    /// Why a field cannot take a tap now, if it cannot, in the documented precedence of reasons:
    /// a transition, then an unknown field, then the field's state.
    func tapRefusal(_ field: Int?) -> IgnoreReason? {
        if pager.motion != nil { return .transitionInProgress }
        guard let field else { return .unknownField }
        if flow.fieldTraits[field].page != pager.currentPage { return .otherPage }
        if !answers.fieldVisible[field] { return .hidden }
        if !answers.fieldEnabled[field] { return .disabled }
        return nil
    }

    mutating func tapField(_ id: String, _ event: Event) {
        let found = flow.fieldIndex(of: id)
        if let reason = tapRefusal(found) { return ignore(event, reason) }
        guard let field = found else { return }
        let definition = flow.fields[field]
        if case .toggle = definition.kind {
            // A toggle never becomes first responder; it resigns whatever is, committing it.
            if focusChain.hasInput { resign(commit: true) }
            guard tapRefusal(field) == nil else { return }
            revealOnLeaving(field)
            let value = FieldValue.toggle(answers.values[field] != .toggle(true))
            setValue(field, value)
            emit(.valueChanged(field: id, value: definition.json(value)))
            return
        }
        if focusChain.field == field {
            // A second tap toggles a picker (commit and resign); a text field stays first responder.
            if flow.fieldTraits[field].isPicker { resign(commit: true) }
            return
        }
        focus(field)
    }

    // MARK: Becoming and resigning first responder

    func view(of field: Int) -> InputView {
        switch flow.fieldTraits[field].kind {
        case .duration: .durationPicker
        case .choice: .choiceList
        default: .keyboard
        }
    }

    /// Makes `field` first responder, resigning (and committing) the current one first. The
    /// commit may hide or disable `field` (a tap on a field that the draft hides): then the move
    /// only committed and resigned.
    mutating func focus(_ field: Int) {
        let previous = focusChain.field
        if previous >= 0 { resign(commit: true, handingOff: true) }
        guard canFocus(field), flow.fieldTraits[field].page == pager.currentPage else {
            if previous >= 0 { emit(.focusChanged(from: flow.fieldIDs[previous], to: nil)) }
            return
        }
        focusChain.take(field, draft: initialDraft(field), original: answers.values[field])
        let id = flow.fieldIDs[field]
        emit(.focusChanged(from: previous >= 0 ? flow.fieldIDs[previous] : nil, to: id))
        emit(.inputPresented(field: id, view: view(of: field)))
    }

    /// The draft a picker opens with: the field's value, else the snapped `min` (a duration) or
    /// the first option (a choice); `.null` for text.
    func initialDraft(_ field: Int) -> FieldValue {
        let value = answers.values[field]
        switch flow.fields[field].kind {
        case .duration(let options):
            if case .duration = value { return value }
            return .duration(options.snappedMin)
        case .choice:
            if case .choice = value { return value }
            return .choice(0)
        default:
            return .null
        }
    }

    /// Resigns the first responder. Pickers commit their draft unless `commit` is false (cancel,
    /// Escape) — or unless the field has no value and nobody changed the draft while it was open
    /// and the resign is not `explicit` (`done`, Return): passing through a picker chooses nothing
    /// (CONTRACT §6.5). Text has no draft. The field's error is revealed from now on.
    /// A field left (resigned, or a toggle tapped) shows its error from now on, unless its
    /// errors show only on a refusal (`reveal: "submit"`, CONTRACT §6.2).
    mutating func revealOnLeaving(_ field: Int) {
        if flow.fieldTraits[field].reveal != .submit { answers.reveal(field) }
    }

    mutating func resign(commit: Bool, explicit: Bool = false, handingOff: Bool = false) {
        let field = focusChain.field
        guard field >= 0 else { return }
        let id = flow.fieldIDs[field]
        let isPicker = flow.fieldTraits[field].isPicker
        let commit = commit && (!isPicker || explicit || draftIsAnswer)
        // Text has no draft: only a picker's is read (moved out before the fields are cleared).
        let draft = isPicker ? focusChain.takeDraft() : .null
        focusChain.clear()
        revealOnLeaving(field)
        emit(.inputDismissed(field: id, committed: commit))
        if commit && isPicker && draft != answers.values[field] {
            setValue(field, draft)
            emit(.valueChanged(field: id, value: flow.fields[field].json(draft)))
        }
        if !handingOff { emit(.focusChanged(from: id, to: nil)) }
    }

    /// The input accessory toolbar of a field: its own, else the flow's, else the standard one.
    public func accessoryItems(of field: Int) -> [AccessoryItem] {
        flow.fields[field].accessory ?? flow.accessory ?? AccessoryItem.standard
    }

    func isAccessoryEnabled(_ item: AccessoryItem, field: Int) -> Bool {
        switch item {
        case .previous: focusTarget(.accessory(forward: false)) != nil
        case .next: focusTarget(.accessory(forward: true)) != nil
        default: true
        }
    }

    // MARK: Accessory toolbar

    mutating func tapAccessory(_ item: AccessoryItem, _ event: Event) {
        guard let editing = focusChain.input else { return ignore(event, .noFirstResponder) }
        guard accessoryItems(of: editing.field).contains(item) else { return ignore(event, .notInAccessory) }
        switch item {
        case .previous, .next:
            guard let target = focusTarget(.accessory(forward: item == .next)) else { return ignore(event, .disabled) }
            focus(target)
        case .done:
            resign(commit: true, explicit: true)
        case .cancel:
            // Pickers restore the value from before editing; text keeps what was typed.
            resign(commit: !flow.fieldTraits[editing.field].isPicker)
        case .flexibleSpace, .fixedSpace:
            ignore(event, .notAButton)
        }
    }

    // MARK: Keys

    mutating func press(_ key: Key, _ event: Event) {
        switch key {
        case .tab, .shiftTab:
            pressTab(forward: key == .tab, event)
        case .return:
            pressReturn(event)
        case .escape:
            guard focusChain.hasInput else { return ignore(event, .noFirstResponder) }
            resign(commit: !flow.fieldTraits[focusChain.field].isPicker)
        case .backSpace:
            backSpace(event)
        case .up, .down, .left, .right, .pageUp, .pageDown, .home, .end:
            pressArrow(key, event)
        }
    }

    /// `Tab` / `shift+Tab`. Past the last field (before the first) the first responder resigns, committing its
    /// draft: keyboard focus leaves the chain for the page's own controls (`keyboardFocus`).
    mutating func pressTab(forward: Bool, _ event: Event) {
        guard pager.motion == nil else { return ignore(event, .transitionInProgress) }
        guard let target = focusTarget(.tab(forward: forward)) else {
            return focusChain.hasInput ? resign(commit: true) : ignore(event, .noEditableField)
        }
        focus(target)
    }

    /// Arrows and paging keys: the open picker's, else page moves.
    mutating func pressArrow(_ key: Key, _ event: Event) {
        if let editing = focusChain.input {
            arrow(key, in: editing, event)
        } else {
            switch key {
            case .left, .pageUp: requestMove(.step(-1), event)
            case .right, .pageDown: requestMove(.step(1), event)
            case .home: requestMove(.first, event)
            case .end: requestMove(.last, event)
            default: ignore(event, .noAction)
            }
        }
    }

    mutating func pressReturn(_ event: Event) {
        guard focusChain.hasInput else { return ignore(event, .noFirstResponder) }
        guard flow.fieldTraits[focusChain.field].kind == .text else { return resign(commit: true, explicit: true) }
        if let next = focusTarget(.returnKey) { focus(next) } else { resign(commit: true) }
    }

    /// What Return shows on a text field's keyboard: `next` or `done`.
    func effectiveReturnKey(_ field: Int) -> ReturnKey {
        guard focusChain.field == field, flow.fieldTraits[field].kind == .text else { return .done }
        return focusTarget(.returnKey) != nil ? .next : .done
    }

    mutating func arrow(_ key: Key, in editing: InputState, _ event: Event) {
        switch flow.fields[editing.field].kind {
        case .duration(let options):
            switch key {
            case .up, .down:
                turn(options.components[editing.selectedWheel], by: key == .up ? 1 : -1)
            case .pageUp, .pageDown:
                // A page: a quarter turn of the wheel (6 hours, 15 minutes, 15 seconds).
                let component = options.components[editing.selectedWheel]
                let rows =
                    switch component {
                    case .hours: 24
                    case .minutes: 59 / max(options.minuteInterval, 1) + 1
                    case .seconds: 60
                    }
                turn(component, by: (key == .pageUp ? 1 : -1) * max(rows / 4, 1))
            case .left, .right:
                let wheel = editing.selectedWheel + (key == .right ? 1 : -1)
                guard wheel >= 0 && wheel < options.components.count else { return ignore(event, .atEnd) }
                focusChain.selectWheel(wheel)
            default:
                ignore(event, .firstResponderActive)
            }
        case .choice(let options):
            guard key == .up || key == .down, case .choice(let current) = editing.draft else {
                return ignore(event, .firstResponderActive)
            }
            let next = current + (key == .down ? 1 : -1)
            guard next >= 0 && next < options.options.count else { return ignore(event, .atEnd) }
            setDraft(.choice(next))
        default:
            ignore(event, .firstResponderActive)
        }
    }

    /// The user turned or picked the open picker's draft to `draft` (perhaps the value it had).
    mutating func setDraft(_ draft: FieldValue) {
        let field = focusChain.field
        guard field >= 0, focusChain.changeDraft(to: draft) else { return }
        let definition = flow.fields[field]
        emit(.draftChanged(field: definition.id, draft: definition.json(draft)))
    }

    // MARK: Pickers

    mutating func turn(_ component: DurationComponent, by steps: Int) {
        guard let editing = focusChain.input, case .duration(let options) = flow.fields[editing.field].kind,
            case .duration(let seconds) = editing.draft
        else { return }
        setDraft(.duration(options.spin(seconds, component, by: steps)))
    }

    mutating func spin(_ component: DurationComponent, by steps: Int, _ event: Event) {
        guard let editing = focusChain.input, case .duration(let options) = flow.fields[editing.field].kind else {
            return ignore(event, .noDurationPicker)
        }
        guard options.components.contains(component) else { return ignore(event, .noSuchWheel) }
        turn(component, by: steps)
    }

    mutating func select(_ option: String, _ event: Event) {
        guard let editing = focusChain.input, case .choice(let options) = flow.fields[editing.field].kind else {
            return ignore(event, .noChoiceList)
        }
        guard let index = options.index(of: option) else { return ignore(event, .unknownOption) }
        setDraft(.choice(index))
    }

    // MARK: Text (UIKeyInput)

    mutating func type(_ text: String, _ event: Event) {
        guard focusChain.hasInput else { return ignore(event, .noFirstResponder) }
        // Nothing typed into a picker: it takes no text at all (`notTextInput`, the activity
        // tier) before there being none (`emptyText`, the target's state).
        guard !text.isEmpty else { return ignore(event, flow.fieldTraits[focusChain.field].kind == .text ? .emptyText : .notTextInput) }
        // A newline in the text acts as Return; the rest goes to whoever is first responder then.
        guard Self.holdsNewline(text) else { return insert(text, event) }
        for (index, segment) in Self.typedSegments(text).enumerated() {
            if index > 0 { pressReturn(event) }
            insert(String(segment), event)
        }
    }

    /// The pieces of a typed text between its newlines, each newline a press of Return: LF, CR LF
    /// and CR only (a vertical tab, a form feed, NEL, U+2028 and U+2029 are text). One decision
    /// for every front that types (the GTK replay types the same pieces).
    public static func typedSegments(_ text: String) -> [Substring] {
        guard holdsNewline(text) else { return [Substring(text)] }
        return text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// Whether a typed text has a newline: every one holds a CR or LF byte.
    static func holdsNewline(_ text: String) -> Bool {
        text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D })
    }

    mutating func insert(_ text: String, _ event: Event) {
        guard !text.isEmpty else { return }
        let field = focusChain.field
        guard field >= 0 else { return ignore(event, .noFirstResponder) }
        let traits = flow.fieldTraits[field]
        guard traits.kind == .text else { return ignore(event, .notTextInput) }
        // The new length without counting the whole text again: only the last cluster can join
        // the inserted text (a combining mark, a second regional indicator).
        let length: Int
        if case .text(let current) = answers.values[field], let last = current.last {
            length = answers.textLengths[field] - 1 + (String(last) + text).count
        } else {
            length = text.count
        }
        if length > traits.high {
            return emit(.refused(reason: .maxLength, errors: [FieldError(field: flow.fieldIDs[field], code: .maxLength)]))
        }
        focusChain.forgetEditPosition()
        let edited = answers.editText(field, clusters: length, scalars: text.unicodeScalars.count) { $0.append(text) }
        answerChanged(field)
        emit(.valueChanged(field: flow.fieldIDs[field], value: .string(edited)))
    }

    mutating func backSpace(_ event: Event) {
        let field = focusChain.field
        guard field >= 0 else { return ignore(event, .noFirstResponder) }
        guard flow.fieldTraits[field].kind == .text else { return ignore(event, .notTextInput) }
        guard case .text(let text) = answers.values[field], let last = text.last else { return ignore(event, .emptyText) }
        let removed = last.unicodeScalars.count
        focusChain.forgetEditPosition()
        let edited = answers.editText(field, clusters: answers.textLengths[field] - 1, scalars: -removed) {
            $0.removeSubrange($0.index(before: $0.endIndex)...)
        }
        answerChanged(field)
        emit(.valueChanged(field: flow.fieldIDs[field], value: .string(edited)))
    }

    /// `edit`: the first responder's text from Unicode-scalar offset `from` up to `to` replaced
    /// with `replacement`, as a text widget edits at its cursor or selection. The result is
    /// judged whole: longer than `maxLength` (grapheme clusters) and it is refused, leaving the
    /// text as it was; the edit is never cut to fit. Line breaks in `replacement` are text here
    /// (`type` is the event whose newline acts as Return).
    ///
    /// Its cost follows the edit, not the text: the offsets are found from the nearer end (at
    /// once in ASCII text), the text is changed where it is stored, and the new length is counted
    /// over the clusters the edit touches (`TextEdit`).
    mutating func edit(from: Int, to: Int, _ replacement: String, _ event: Event) {
        let field = focusChain.field
        guard field >= 0 else { return ignore(event, .noFirstResponder) }
        let traits = flow.fieldTraits[field]
        guard traits.kind == .text else { return ignore(event, .notTextInput) }
        guard from < to || !replacement.isEmpty else { return ignore(event, .emptyText) }
        guard from >= 0, from <= to, to <= answers.scalarCounts[field] else { return ignore(event, .outOfRange) }
        let hadText: Bool
        if case .text = answers.values[field] { hadText = true } else { hadText = false }
        var text = ""
        if case .text(let current) = answers.values[field] { text = current }
        let plan = TextEdit(text, scalarCount: answers.scalarCounts[field], from: from, to: to, replacement, near: focusChain.editPosition)
        // A field that had no text yet gets one even when the edit gives back what it held.
        if hadText && plan.changesNothing { return }
        let length = answers.textLengths[field] + plan.lengthChange
        if length > traits.high {
            return emit(.refused(reason: .maxLength, errors: [FieldError(field: flow.fieldIDs[field], code: .maxLength)]))
        }
        text = ""
        let edited = answers.editText(field, clusters: length, scalars: replacement.unicodeScalars.count - (to - from)) {
            plan.apply(to: &$0)
        }
        focusChain.editEnded(atScalar: from + replacement.unicodeScalars.count, byte: plan.lowerByte + replacement.utf8.count)
        answerChanged(field)
        emit(.valueChanged(field: flow.fieldIDs[field], value: .string(edited)))
    }

}

/// One `edit` of a text, worked out before it is made: where its Unicode-scalar offsets are,
/// whether it changes anything, and how many grapheme clusters it adds or removes.
///
/// The length change is counted over a window of the old and the new text: from the start of the
/// cluster the edit begins in, to the first cluster boundary after the edit where both texts
/// break alike again. Outside the window nothing changes: whether a boundary falls between two
/// scalars depends only on what comes before it, and the text before the window is untouched.
struct TextEdit {
    let lower: String.Index
    let upper: String.Index
    /// `lower` in UTF-8 bytes.
    let lowerByte: Int
    let replacement: String
    let changesNothing: Bool
    let lengthChange: Int

    init(_ text: String, scalarCount: Int, from: Int, to: Int, _ replacement: String, near position: EditPosition = EditPosition()) {
        self.replacement = replacement
        lower = Self.index(text, scalarCount: scalarCount, offset: from, near: position)
        upper = from == to ? lower : text.unicodeScalars.index(lower, offsetBy: to - from)
        lowerByte = text.utf8.distance(from: text.startIndex, to: lower)
        changesNothing = text.unicodeScalars[lower..<upper].elementsEqual(replacement.unicodeScalars)
        lengthChange = changesNothing ? 0 : Self.lengthChange(text, lower, upper, replacement)
    }

    /// The index of scalar `offset`: at once when the text is ASCII (one byte a scalar), else
    /// walked from the nearest of the text's start, its end and where the last edit ended.
    static func index(_ text: String, scalarCount: Int, offset: Int, near position: EditPosition = EditPosition()) -> String.Index {
        let bytes = text.utf8
        if scalarCount == bytes.count { return bytes.index(bytes.startIndex, offsetBy: offset) }
        var base = (scalar: 0, index: text.startIndex)
        if scalarCount - offset < offset { base = (scalarCount, text.endIndex) }
        if position.scalar >= 0, position.scalar <= scalarCount, position.byte <= bytes.count,
            abs(offset - position.scalar) < abs(offset - base.scalar)
        {
            let index = bytes.index(bytes.startIndex, offsetBy: position.byte)
            // On a scalar's first byte (or the end), as every position an edit leaves is.
            if index == bytes.endIndex || bytes[index] & 0xC0 != 0x80 { base = (position.scalar, index) }
        }
        return text.unicodeScalars.index(base.index, offsetBy: offset - base.scalar)
    }

    /// Clusters added (positive) or removed by replacing `lower..<upper` with `replacement`.
    static func lengthChange(_ text: String, _ lower: String.Index, _ upper: String.Index, _ replacement: String) -> Int {
        // The start of the cluster holding the scalar before the edit (an edit can join it).
        let start = lower > text.startIndex ? text.index(before: text.index(after: text.unicodeScalars.index(before: lower))) : lower
        let oldEditEnd = text.utf8.distance(from: start, to: upper)
        let tailBytes = text.utf8.distance(from: upper, to: text.endIndex)
        // The new text is built from `start` with a piece of the old tail, longer each time the
        // walk runs off the piece's end before the texts agree again.
        var piece = 64
        while true {
            let whole = piece >= tailBytes
            var tailEnd = whole ? text.endIndex : text.utf8.index(upper, offsetBy: piece)
            // On a scalar's first byte.
            while tailEnd < text.endIndex && text.utf8[tailEnd] & 0xC0 == 0x80 { tailEnd = text.utf8.index(after: tailEnd) }
            var edited = String(text.unicodeScalars[start..<lower])
            edited.append(replacement)
            let newEditEnd = edited.utf8.count
            edited.unicodeScalars.append(contentsOf: text.unicodeScalars[upper..<tailEnd])
            let shift = newEditEnd - oldEditEnd
            var old = start
            var new = edited.startIndex
            var oldOffset = 0
            var newOffset = 0
            var change = 0
            while true {
                if oldOffset >= oldEditEnd && newOffset == oldOffset + shift { return change }
                if oldOffset < oldEditEnd || newOffset > oldOffset + shift {
                    old = text.index(after: old)
                    oldOffset = text.utf8.distance(from: start, to: old)
                    change -= 1
                } else {
                    new = edited.index(after: new)
                    newOffset = edited.utf8.distance(from: edited.startIndex, to: new)
                    change += 1
                    // The end of a piece is no boundary of the new text: a longer piece decides.
                    if new == edited.endIndex && !whole { break }
                }
            }
            piece *= 4
        }
    }

    func apply(to text: inout String) {
        text.unicodeScalars.replaceSubrange(lower..<upper, with: replacement.unicodeScalars)
    }
}

extension FieldValue {
    /// Edits a text value where it is stored, so that the text stays its storage's only owner
    /// and the edit happens in place; a field with no text yet (`null`) starts from "". Returns
    /// the edited text.
    mutating func editText(_ edit: (inout String) -> Void) -> String {
        var text = ""
        if case .text(let current) = self { text = current }
        // Nothing else may hold the text during the edit, or it would be copied.
        self = .null
        edit(&text)
        self = .text(text)
        return text
    }
}
