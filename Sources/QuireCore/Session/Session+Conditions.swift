/// Visibility, enablement, requiredness and validation, kept up to date incrementally.
///
/// A value change marks the conditions that name the field; they are evaluated again in document
/// order (a min-heap of node numbers), and a field whose visibility flips marks its own dependents.
/// Conditions see a hidden field as unanswered (`null`), so hiding cascades.
extension Session {
    /// The value conditions see: `null` for a hidden field.
    @inline(__always) func effectiveValue(_ field: Int) -> FieldValue {
        fieldVisible[field] ? values[field] : .null
    }

    /// Evaluates every node from scratch (at start and on restore).
    mutating func rebuildDerived() {
        for page in flow.pages.indices {
            let visible = flow.pages[page].visibleIf.map { condition in condition.evaluate { self.effectiveValue($0) } } ?? true
            pageVisible[page] = visible
            for field in flow.pages[page].fieldRange {
                _ = recompute(field: field)
            }
        }
        visiblePages = FenwickTree(flags: pageVisible)
        pagesWithErrors = FenwickTree(flags: pageErrorCount.map { $0 > 0 })
    }

    /// Sets a field's value and brings everything that depends on it up to date.
    mutating func setValue(_ field: Int, _ value: FieldValue) {
        values[field] = value
        updateError(field)
        if fieldVisible[field] {
            markDependents(of: field)
            propagate()
        }
    }

    mutating func markDependents(of field: Int) {
        let graph = flow.graph
        let start = Int(graph.dependentStart[field])
        let end = Int(graph.dependentStart[field + 1])
        var at = start
        while at < end {
            mark(graph.dependents[at])
            at += 1
        }
    }

    mutating func mark(_ node: Int32) {
        guard !dirty[Int(node)] else { return }
        dirty[Int(node)] = true
        heap.append(node)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent] > heap[child] else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    mutating func popMin() -> Int32? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left] < heap[smallest] { smallest = left }
            if right < heap.count && heap[right] < heap[smallest] { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    mutating func propagate() {
        let graph = flow.graph
        while let node = popMin() {
            WorkMeter.count()
            dirty[Int(node)] = false
            let item = Int(graph.nodeItem[Int(node)])
            if item >= 0 {
                let page = item
                let visible = flow.pages[page].visibleIf.map { condition in condition.evaluate { self.effectiveValue($0) } } ?? true
                guard visible != pageVisible[page] else { continue }
                pageVisible[page] = visible
                visiblePages.add(page, visible ? 1 : -1)
                for field in flow.pages[page].fieldRange { mark(graph.fieldNode[field]) }
            } else {
                let field = -1 - item
                if recompute(field: field) { markDependents(of: field) }
            }
        }
        // A first responder that became hidden or disabled resigns (committing its draft).
        if let input, !(fieldVisible[input.field] && fieldEnabled[input.field]) {
            resign(commit: true)
        }
    }

    /// Re-evaluates a field's conditions and error; returns whether its visibility changed.
    mutating func recompute(field: Int) -> Bool {
        let definition = flow.fields[field]
        let visible =
            pageVisible[definition.page]
            && (definition.visibleIf.map { condition in condition.evaluate { self.effectiveValue($0) } } ?? true)
        let enabled = definition.enabledIf.map { condition in condition.evaluate { self.effectiveValue($0) } } ?? true
        let required =
            definition.required
            || (definition.requiredIf.map { condition in condition.evaluate { self.effectiveValue($0) } } ?? false)
        let changed = visible != fieldVisible[field]
        fieldVisible[field] = visible
        fieldEnabled[field] = enabled
        fieldRequired[field] = required
        updateError(field)
        return changed
    }

    /// The error a field has now (visible and enabled fields only are validated).
    func validate(_ field: Int) -> ValidationCode? {
        WorkMeter.count()
        guard fieldVisible[field] && fieldEnabled[field] else { return nil }
        let value = values[field]
        let required = fieldRequired[field]
        switch flow.fields[field].kind {
        case .text(let options):
            guard case .text(let text) = value, !text.isEmpty else { return required ? .required : nil }
            if let minLength = options.minLength, text.count < minLength { return .minLength }
            if let maxLength = options.maxLength, text.count > maxLength { return .maxLength }
            return nil
        case .duration(let options):
            guard case .duration(let seconds) = value else { return required ? .required : nil }
            if seconds < options.min { return .min }
            if seconds > options.max { return .max }
            return nil
        case .choice:
            return value.isNull && required ? .required : nil
        case .toggle:
            return required && value != .toggle(true) ? .required : nil
        }
    }

    mutating func updateError(_ field: Int) {
        let error = validate(field)
        let old = fieldError[field]
        guard error != old else { return }
        fieldError[field] = error
        let page = flow.fields[field].page
        if old == nil {
            pageErrorCount[page] += 1
            if pageErrorCount[page] == 1 { pagesWithErrors.add(page, 1) }
        } else if error == nil {
            pageErrorCount[page] -= 1
            if pageErrorCount[page] == 0 { pagesWithErrors.add(page, -1) }
        }
    }

    /// Fields that can become first responder now (on their page; the caller checks the page).
    @inline(__always) func canFocus(_ field: Int) -> Bool {
        flow.fields[field].isEditable && fieldVisible[field] && fieldEnabled[field]
    }

    /// Current errors of a page's fields (revealed or not), in field order.
    func errors(onPage page: Int) -> [FieldError] {
        var errors: [FieldError] = []
        for field in flow.pages[page].fieldRange {
            if let code = fieldError[field] { errors.append(FieldError(field: flow.fields[field].id, code: code)) }
        }
        return errors
    }

    /// Shows the errors of a page's fields (a refused gate or finish names them).
    mutating func revealErrors(onPage page: Int) {
        for field in flow.pages[page].fieldRange where fieldError[field] != nil {
            touched[field] = true
        }
    }

    /// Runs `body` with the open picker's draft applied to its field, then puts the value back.
    /// The gate judges what the values will be once a move commits the draft.
    mutating func withDraftApplied<Result>(_ body: (inout Session) -> Result) -> Result {
        guard let input, flow.fields[input.field].isPicker, input.draft != values[input.field] else {
            return body(&self)
        }
        let saved = values[input.field]
        setValue(input.field, input.draft)
        let result = body(&self)
        setValue(input.field, saved)
        return result
    }
}

extension Field {
    var isPicker: Bool {
        switch kind {
        case .duration, .choice: true
        default: false
        }
    }
}
