/// The focus chain and input views (UIResponder, inputView, inputAccessoryView, UIKeyInput).
extension Session {
    // MARK: Taps

    mutating func tap(_ target: TapTarget, _ event: Event) {
        switch target {
        case .field(let id): tapField(id, event)
        case .background:
            if hasInput { resign(commit: true) } else { ignore(event, .noFirstResponder) }
        case .indicatorLeft: tapIndicator(step: -1, event)
        case .indicatorRight: tapIndicator(step: 1, event)
        case .indicatorPage(let index): tapIndicator(page: index, event)
        case .button(let button): tapButton(button, event)
        case .accessory(let item): tapAccessory(item, event)
        }
    }

    /// Why a field cannot take a tap now, if it cannot, in the precedence of `IgnoreReason.Tier`:
    /// a transition, then an unknown field, then the field's state.
    func tapRefusal(_ field: Int?) -> IgnoreReason? {
        if motion != nil { return .transitionInProgress }
        guard let field else { return .unknownField }
        if flow.fieldTraits[field].page != currentPage { return .otherPage }
        if !fieldVisible[field] { return .hidden }
        if !fieldEnabled[field] { return .disabled }
        return nil
    }

    mutating func tapField(_ id: String, _ event: Event) {
        let found = flow.fieldIndex(of: id)
        if let reason = tapRefusal(found) { return ignore(event, reason) }
        guard let field = found else { return }
        let definition = flow.fields[field]
        if case .toggle = definition.kind {
            // A toggle never becomes first responder; it resigns whatever is, committing it.
            if hasInput { resign(commit: true) }
            guard tapRefusal(field) == nil else { return }
            touched[field] = true
            let value = FieldValue.toggle(values[field] != .toggle(true))
            setValue(field, value)
            emit(.valueChanged(field: id, value: definition.json(value)))
            return
        }
        if inputField == field {
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

    /// Makes `field` first responder, resigning (and committing) the current one first.
    ///
    /// From a text field or from nothing, resigning commits nothing and changes no value, so what
    /// can take focus is as it was: the focus is handed over in one step (`handFocus`), with the
    /// notifications `focusResigningFirst` would emit. An open picker commits its draft first.
    mutating func focus(_ field: Int) {
        let previous = inputField
        if previous >= 0 && flow.fieldTraits[previous].isPicker {
            discardStale()
            return focusResigningFirst(field)
        }
        let traits = flow.fieldTraits[field]
        guard canFocus(field), traits.page == currentPage else {
            // As `focusResigningFirst`: the previous field resigns, committed.
            discardStale()
            if previous >= 0 { resign(commit: true) }
            return
        }
        handFocus(from: previous, to: field, isPicker: traits.isPicker)
    }

    /// Moves the first responder from `previous` (a text field, or -1: none) to `field`, which
    /// can take it: `inputDismissed` for the previous field (committed), `focusChanged`,
    /// `inputPresented`. A text field's draft is `.null` (unless a snapshot said otherwise), so
    /// it is read before it is written.
    @inline(__always) mutating func handFocus(from previous: Int, to field: Int, isPicker: Bool) {
        inputField = field
        if isPicker {
            inputDraft = initialDraft(field)
        } else if !inputDraft.isNull {
            inputDraft = .null
        }
        inputOriginal = values[field]
        inputWheel = 0
        let id = flow.fieldIDs[field]
        let presented = SessionNotification.inputPresented(field: id, view: view(of: field))
        guard previous >= 0 else {
            discardStale()
            emit(.focusChanged(from: nil, to: id))
            return emit(presented)
        }
        // Read first: a field already touched is not written (which would check the array's
        // uniqueness on every `Tab`).
        if !touched[previous] { touched[previous] = true }
        let previousID = flow.fieldIDs[previous]
        emit(.inputDismissed(field: previousID, committed: true), .focusChanged(from: previousID, to: id), presented)
    }

    /// `focus(_:)` from an open picker: it resigns, committing its draft (which may hide or
    /// disable `field`), before `field` becomes first responder.
    mutating func focusResigningFirst(_ field: Int) {
        let previous = inputField
        if previous >= 0 { resign(commit: true, handingOff: true) }
        guard canFocus(field), flow.fieldTraits[field].page == currentPage else {
            // Committing the previous field hid or disabled this one (a tap on a field that the
            // draft hides): the tap committed and resigned.
            if previous >= 0 { emit(.focusChanged(from: flow.fieldIDs[previous], to: nil)) }
            return
        }
        inputField = field
        inputDraft = initialDraft(field)
        inputOriginal = values[field]
        inputWheel = 0
        let id = flow.fieldIDs[field]
        emit(.focusChanged(from: previous >= 0 ? flow.fieldIDs[previous] : nil, to: id))
        emit(.inputPresented(field: id, view: view(of: field)))
    }

    /// Inlined for the same reason as `neighbour(of:forward:wrapping:in:)`: a call from `focus`
    /// copied the whole session.
    @inline(__always) func initialDraft(_ field: Int) -> FieldValue {
        guard flow.fieldTraits[field].isPicker else { return .null }
        let value = values[field]
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
    /// Escape); text has no draft. The field's error is revealed from now on.
    mutating func resign(commit: Bool, handingOff: Bool = false) {
        let field = inputField
        guard field >= 0 else { return }
        let id = flow.fieldIDs[field]
        let isPicker = flow.fieldTraits[field].isPicker
        // Text has no draft: only a picker's is read (moved out before the fields are cleared).
        var draft = FieldValue.null
        if isPicker { swap(&draft, &inputDraft) }
        clearInput()
        touched[field] = true
        emit(.inputDismissed(field: id, committed: commit))
        if commit && isPicker && draft != values[field] {
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
        guard let editing = input else { return ignore(event, .noFirstResponder) }
        guard accessoryItems(of: editing.field).contains(item) else { return ignore(event, .notInAccessory) }
        switch item {
        case .previous, .next:
            guard let target = focusTargetInPlace(.accessory(forward: item == .next)) else { return ignore(event, .disabled) }
            focus(target)
        case .done:
            resign(commit: true)
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
            guard hasInput else { return ignore(event, .noFirstResponder) }
            resign(commit: !flow.fieldTraits[inputField].isPicker)
        case .backSpace:
            backSpace(event)
        case .up, .down, .left, .right, .pageUp, .pageDown, .home, .end:
            pressArrow(key, event)
        }
    }

    /// `Tab` / `shift+Tab`. (Out of `press`, which then only passes keys on, without a frame.)
    /// Past the last field (before the first) the first responder resigns, committing its
    /// draft: keyboard focus leaves the chain for the page's own controls (`keyboardFocus`).
    @inline(never) mutating func pressTab(forward: Bool, _ event: Event) {
        guard motion == nil else { return ignore(event, .transitionInProgress) }
        guard let target = focusTargetInPlace(.tab(forward: forward)) else {
            return hasInput ? resign(commit: true) : ignore(event, .noEditableField)
        }
        focus(target)
    }

    /// Arrows and paging keys: the open picker's, else page moves.
    @inline(never) mutating func pressArrow(_ key: Key, _ event: Event) {
        if let editing = input {
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
        guard hasInput else { return ignore(event, .noFirstResponder) }
        guard flow.fieldTraits[inputField].kind == .text else { return resign(commit: true) }
        if let next = focusTargetInPlace(.returnKey) { focus(next) } else { resign(commit: true) }
    }

    /// What Return shows on a text field's keyboard: `next` or `done`.
    func effectiveReturnKey(_ field: Int) -> ReturnKey {
        guard inputField == field, flow.fieldTraits[field].kind == .text else { return .done }
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
                inputWheel = wheel
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

    mutating func setDraft(_ draft: FieldValue) {
        let field = inputField
        guard field >= 0, inputDraft != draft else { return }
        inputDraft = draft
        let definition = flow.fields[field]
        emit(.draftChanged(field: definition.id, draft: definition.json(draft)))
    }

    // MARK: Pickers

    mutating func turn(_ component: DurationComponent, by steps: Int) {
        guard let editing = input, case .duration(let options) = flow.fields[editing.field].kind,
            case .duration(let seconds) = editing.draft
        else { return }
        setDraft(.duration(options.spin(seconds, component, by: steps)))
    }

    mutating func spin(_ component: DurationComponent, by steps: Int, _ event: Event) {
        guard let editing = input, case .duration(let options) = flow.fields[editing.field].kind else {
            return ignore(event, .noDurationPicker)
        }
        guard options.components.contains(component) else { return ignore(event, .noSuchWheel) }
        turn(component, by: steps)
    }

    mutating func select(_ option: String, _ event: Event) {
        guard let editing = input, case .choice(let options) = flow.fields[editing.field].kind else {
            return ignore(event, .noChoiceList)
        }
        guard let index = options.index(of: option) else { return ignore(event, .unknownOption) }
        setDraft(.choice(index))
    }

    // MARK: Text (UIKeyInput)

    mutating func type(_ text: String, _ event: Event) {
        guard hasInput else { return ignore(event, .noFirstResponder) }
        guard !text.isEmpty else { return ignore(event, .emptyText) }
        // A newline in the text acts as Return; the rest goes to whoever is first responder then.
        // Every newline cluster holds a CR or LF byte: text without one is inserted whole.
        if !Self.anyByte(of: text.utf8, { $0 == 0x0A || $0 == 0x0D }) { return insert(text, event) }
        var segment = Substring(text)
        while let newline = segment.firstIndex(where: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            insert(segment[..<newline], event)
            pressReturn(event)
            segment = segment[segment.index(after: newline)...]
        }
        insert(segment, event)
    }

    /// Generic so the common case, a `type` without a newline, inserts the event's `String` itself
    /// (without making a `Substring` of it first).
    mutating func insert(_ text: some InsertableText, _ event: Event) {
        guard !text.isEmpty else { return }
        let field = inputField
        guard field >= 0 else { return ignore(event, .noFirstResponder) }
        let traits = flow.fieldTraits[field]
        guard traits.kind == .text else { return ignore(event, .notTextInput) }
        // The new length without building the new text: only the last cluster can join the
        // inserted text (a combining mark, a second regional indicator), so only they are counted.
        let length: Int
        if values[field].lastTextByte.map({ $0 < 0x80 && $0 != 0x0D }) ?? true,
            !Self.anyByte(of: text.utf8, { $0 >= 0x80 || $0 == 0x0D || $0 == 0x0A })
        {
            // ASCII after an ASCII scalar other than CR: no grapheme rule joins them (only CR LF
            // joins two ASCII scalars, and no ASCII scalar is a prepend, extend or joiner), so
            // each byte is one cluster.
            length = textLengths[field] + text.utf8.count
        } else if case .text(let current) = values[field], let last = current.last {
            var joined = String(last)
            joined.appendText(text)
            length = textLengths[field] - 1 + joined.count
        } else {
            length = text.count
        }
        if length > traits.high {
            return emit(.refused(reason: .maxLength, errors: [FieldError(field: flow.fieldIDs[field], code: .maxLength)]))
        }
        textLengths[field] = length
        // Appended where it is stored, so the text stays its storage's only owner (the append is
        // in place); the edited text comes back for the notification. A field without a text
        // yet gets one.
        let current: String
        let words = smallASCII
        if let edited = values[field].editText({ current in
            current.appendText(text, words: words)
            return current
        }) {
            current = edited
        } else {
            var new = ""
            new.appendText(text, words: words)
            values[field] = .text(new)
            current = new
        }
        textChanged(field, isEmpty: false)
        emit(.valueChanged(field: flow.fieldIDs[field], value: .string(current)))
    }

    mutating func backSpace(_ event: Event) {
        let field = inputField
        guard field >= 0 else { return ignore(event, .noFirstResponder) }
        guard flow.fieldTraits[field].kind == .text else { return ignore(event, .notTextInput) }
        guard values[field].hasCharacters else { return ignore(event, .emptyText) }
        // Edited where it is stored, so the text stays its storage's only owner (the removal is in place).
        let words = smallASCII
        guard let text = values[field].editText({ text in
            Self.removeLastCharacter(&text, words: words)
            return text
        }) else { return }
        textLengths[field] -= 1
        textChanged(field, isEmpty: text.isEmpty)
        emit(.valueChanged(field: flow.fieldIDs[field], value: .string(text)))
    }

    /// `edit`: the first responder's text from Unicode-scalar offset `from` up to `to` replaced
    /// with `replacement`, as a text widget edits at its cursor or selection. The result is
    /// judged whole: longer than `maxLength` (grapheme clusters) and it is refused, leaving the
    /// text as it was; the edit is never cut to fit. Line breaks in `replacement` are text here
    /// (`type` is the event whose newline acts as Return).
    mutating func edit(from: Int, to: Int, _ replacement: String, _ event: Event) {
        let field = inputField
        guard field >= 0 else { return ignore(event, .noFirstResponder) }
        let traits = flow.fieldTraits[field]
        guard traits.kind == .text else { return ignore(event, .notTextInput) }
        guard from < to || !replacement.isEmpty else { return ignore(event, .emptyText) }
        let current: String
        if case .text(let text) = values[field] { current = text } else { current = "" }
        let scalars = current.unicodeScalars
        guard let start = scalars.index(scalars.startIndex, offsetBy: from, limitedBy: scalars.endIndex),
            let end = scalars.index(start, offsetBy: to - from, limitedBy: scalars.endIndex)
        else { return ignore(event, .outOfRange) }
        var edited = String(scalars[..<start])
        edited.append(replacement)
        edited.unicodeScalars.append(contentsOf: scalars[end...])
        let length = edited.count
        if length > traits.high {
            return emit(.refused(reason: .maxLength, errors: [FieldError(field: flow.fieldIDs[field], code: .maxLength)]))
        }
        // A field that had no text yet gets one even when the edit gives back what it held.
        if case .text = values[field], edited == current { return }
        values[field] = .text(edited)
        textLengths[field] = length
        textChanged(field, isEmpty: edited.isEmpty)
        emit(.valueChanged(field: flow.fieldIDs[field], value: .string(edited)))
    }

    /// `text.removeLast()`, without grapheme breaking when the last cluster is one ASCII byte: the
    /// last byte is ASCII and so is the one before it (or there is none), and they are not CR LF.
    /// No grapheme rule joins an ASCII scalar to an ASCII scalar before it but CR LF, and a
    /// non-ASCII scalar before it (a prepend) may join, so that case takes `removeLast()`.
    /// `String.removeLast()` finds the cluster's bounds twice, builds the removed `Character`, and
    /// rebuilds a small (≤ 15-byte) string through two appends; here a small ASCII text is cut
    /// as words (`SmallASCII`), any other small result is built from its bytes, and a larger one
    /// loses its last byte in place.
    static func removeLastCharacter(_ text: inout String, words: Bool = SmallASCII.isAvailable) {
        // A short ASCII text loses its last byte (or CR LF) as words (`SmallASCII`).
        if words && SmallASCII.removeLastCharacter(&text) { return }
        let (count, last, beforeLast) = text.withUTF8 { bytes in
            (bytes.count, bytes[bytes.count - 1], bytes.count > 1 ? bytes[bytes.count - 2] : 0)
        }
        guard last < 0x80, beforeLast < 0x80, !(beforeLast == 0x0D && last == 0x0A) else {
            text.removeLast()
            return
        }
        if count - 1 <= SmallASCII.capacity {
            // `String(unsafeUninitializedCapacity:)` skips validation when a small result is
            // ASCII (the common case); `String(decoding:)` always validated.
            text = text.withUTF8 { bytes in
                String(unsafeUninitializedCapacity: count - 1) { buffer in
                    _ = buffer.initialize(from: bytes[..<(count - 1)])
                    return count - 1
                }
            }
        } else {
            // The last scalar is the last byte; an index from the scalar view is known to be
            // scalar-aligned, so the removal does not align a UTF-8 index first.
            text.removeSubrange(text.unicodeScalars.index(before: text.endIndex)..<text.endIndex)
        }
    }

    /// Whether any of a text's bytes passes `test`, read from its contiguous storage when it has
    /// one (a plain loop over the buffer, not the view's iterator).
    @inline(__always) static func anyByte(of bytes: some Collection<UInt8>, _ test: (UInt8) -> Bool) -> Bool {
        bytes.withContiguousStorageIfAvailable { $0.contains(where: test) } ?? bytes.contains(where: test)
    }
}

/// What `type` inserts: the event's whole `String`, or a `Substring` of it between newlines. Each
/// is appended with the standard library's own overload for it (a generic `StringProtocol` would
/// take the `Character`-by-`Character` one).
protocol InsertableText: StringProtocol {
    /// Appends `text`; `words`: short ASCII texts may be joined as words (`SmallASCII.isAvailable`).
    static func append(_ text: Self, to string: inout String, words: Bool)
}

extension String: InsertableText {
    /// Two short ASCII texts are joined as words when `words` (`SmallASCII`), anything else by
    /// `String.append`.
    @inline(__always) static func append(_ text: String, to string: inout String, words: Bool) {
        if !(words && SmallASCII.append(text, to: &string)) { string.append(text) }
    }
}

extension Substring: InsertableText {
    @inline(__always) static func append(_ text: Substring, to string: inout String, words: Bool) {
        string.append(contentsOf: text)
    }
}

extension String {
    @inline(__always) mutating func appendText<Text: InsertableText>(_ text: Text, words: Bool = false) {
        Text.append(text, to: &self, words: words)
    }
}

extension FieldValue {
    /// A text with at least one character.
    @inline(__always) var hasCharacters: Bool {
        if case .text(let text) = self { return !text.isEmpty }
        return false
    }

    /// Edits a text value where it is stored (`values[field].editText { ... }` goes through the
    /// array's in-place access once), moving the text out for the edit so that nothing else
    /// holds it. A value that is not a text is left alone (`edit` is not called; the result is
    /// nil).
    @inline(__always) mutating func editText<Result>(_ edit: (inout String) -> Result) -> Result? {
        guard case .text = self else { return nil }
        // Moved out, not copied: a copy would leave the storage shared, and the edit would
        // copy it to a new allocation.
        guard case .text(var text) = consume self else { preconditionFailure("checked above") }
        let result = edit(&text)
        self = .text(text)
        return result
    }

    /// The last UTF-8 byte of a text value (nil: an empty text, or not a text), read from the
    /// text's contiguous storage.
    @inline(__always) var lastTextByte: UInt8? {
        guard case .text(let text) = self else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { $0.last } ?? text.utf8.last
    }
}
