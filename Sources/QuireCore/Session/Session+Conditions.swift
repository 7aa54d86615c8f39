/// Visibility, enablement, requiredness and validation, kept up to date incrementally.
///
/// A value change marks the conditions that name the field; they are evaluated again in document
/// order (a min-heap of node numbers), and a field whose visibility flips marks its own dependents.
/// Conditions see a hidden field as unanswered (`null`), so hiding cascades.
///
/// The same propagation runs over two stores (`Derivation`): the session's own arrays, and an
/// `Outlook` — the differences an open picker's draft would make once committed — which decisions
/// read without changing the session.
protocol Derivation: Answers {
    mutating func storeValue(_ field: Int, _ value: FieldValue)
    mutating func storePageVisible(_ page: Int, _ visible: Bool)
    mutating func storeFlags(_ field: Int, visible: Bool, enabled: Bool, required: Bool)
    mutating func storeError(_ field: Int, _ error: ValidationCode?)
    /// The nodes waiting to be evaluated again.
    var queue: NodeQueue { get set }
}

extension Answers {
    /// The value conditions see: `null` for a hidden field.
    @inline(__always) func effectiveValue(_ field: Int) -> FieldValue {
        isFieldVisible(field) ? value(field) : .null
    }

    @inline(__always) func holds(_ condition: Condition?, otherwise: Bool) -> Bool {
        guard let condition else { return otherwise }
        return condition.evaluate { self.effectiveValue($0) }
    }

    /// The error a field has now (visible and enabled fields only are validated). Inlined: called
    /// from a mutating method (`updateError`), it was handed a copy of the whole session.
    @inline(__always) func validate(_ field: Int) -> ValidationCode? {
        WorkMeter.count()
        guard isFieldVisible(field) && isFieldEnabled(field) else { return nil }
        return flow.fieldTraits[field].validate(value(field), length: textLength(field), required: isFieldRequired(field))
    }

    /// `validate` for a text field whose value is a text (`isEmpty`: it has no characters), read
    /// without the `FieldValue` around it: the same count, guard and decision (`textError`).
    @inline(__always) func validateText(_ field: Int, isEmpty: Bool) -> ValidationCode? {
        WorkMeter.count()
        guard isFieldVisible(field) && isFieldEnabled(field) else { return nil }
        return flow.fieldTraits[field].textError(isEmpty: isEmpty, length: textLength(field), required: isFieldRequired(field))
    }

    /// Fields that can become first responder (on their page; the caller checks the page).
    @inline(__always) func canFocus(_ field: Int) -> Bool {
        flow.fieldTraits[field].isEditable && isFieldVisible(field) && isFieldEnabled(field)
    }
}

extension Derivation {
    /// Sets a field's value and brings everything that depends on it up to date.
    mutating func assign(_ field: Int, _ value: FieldValue) {
        storeValue(field, value)
        updateError(field)
        if isFieldVisible(field) {
            markDependents(of: field)
            propagate()
        }
    }

    /// Whether any condition names `field`, read in place (taking `flow.graph` retains its arrays).
    @inline(__always) func hasDependents(_ field: Int) -> Bool {
        flow.graph.dependentStart[field] != flow.graph.dependentStart[field + 1]
    }

    mutating func markDependents(of field: Int) {
        let graph = flow.graph
        var at = Int(graph.dependentStart[field])
        let end = Int(graph.dependentStart[field + 1])
        while at < end {
            queue.push(graph.dependents[at])
            at += 1
        }
    }

    /// Evaluates the marked nodes in document order until none is left.
    mutating func propagate() {
        // Most value changes mark nothing (a text field no condition names): return before
        // taking the graph (which retains its arrays).
        if queue.isEmpty { return }
        let graph = flow.graph
        while let node = queue.popMin() {
            WorkMeter.count()
            let item = Int(graph.nodeItem[Int(node)])
            if item >= 0 {
                let page = item
                let visible = holds(flow.pages[page].visibleIf, otherwise: true)
                guard visible != isPageVisible(page) else { continue }
                storePageVisible(page, visible)
                for field in flow.pages[page].fieldRange { queue.push(graph.fieldNode[field]) }
            } else {
                let field = -1 - item
                if recompute(field: field) { markDependents(of: field) }
            }
        }
    }

    /// Re-evaluates a field's conditions and error; returns whether its visibility changed.
    mutating func recompute(field: Int) -> Bool {
        // Read in place: binding `flow.fields[field]` to a constant copied the whole field
        // definition (and retained everything in it) for every field a restore evaluates.
        let visible = isPageVisible(flow.fields[field].page) && holds(flow.fields[field].visibleIf, otherwise: true)
        let enabled = holds(flow.fields[field].enabledIf, otherwise: true)
        let required = flow.fields[field].required || holds(flow.fields[field].requiredIf, otherwise: false)
        let changed = visible != isFieldVisible(field)
        storeFlags(field, visible: visible, enabled: enabled, required: required)
        updateError(field)
        return changed
    }

    mutating func updateError(_ field: Int) {
        let error = validate(field)
        if error != self.error(field) { storeError(field, error) }
    }
}

/// Node numbers waiting for evaluation, smallest first (document order). A node marked twice is
/// evaluated once: conditions name only earlier fields, so a node is never marked after its turn.
struct NodeQueue: Sendable, Hashable {
    private var heap: [Int32] = []

    var isEmpty: Bool { heap.isEmpty }

    mutating func push(_ node: Int32) {
        heap.append(node)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent] > heap[child] else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// The smallest node, once (its duplicates are dropped).
    mutating func popMin() -> Int32? {
        guard let top = popOne() else { return nil }
        while heap.first == top { _ = popOne() }
        return top
    }

    private mutating func popOne() -> Int32? {
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
}

// MARK: The session's own store

extension Session: Derivation {
    @inline(__always) func value(_ field: Int) -> FieldValue { values[field] }
    @inline(__always) func isPageVisible(_ page: Int) -> Bool { pageVisible[page] }
    @inline(__always) func isFieldVisible(_ field: Int) -> Bool { fieldVisible[field] }
    @inline(__always) func isFieldEnabled(_ field: Int) -> Bool { fieldEnabled[field] }
    @inline(__always) func isFieldRequired(_ field: Int) -> Bool { fieldRequired[field] }
    @inline(__always) func error(_ field: Int) -> ValidationCode? { fieldError[field] }

    mutating func storeValue(_ field: Int, _ value: FieldValue) { values[field] = value }

    mutating func storePageVisible(_ page: Int, _ visible: Bool) {
        pageVisible[page] = visible
        visiblePages.add(page, visible ? 1 : -1)
        if page < currentPage { keptCurrentIndex += visible ? 1 : -1 }
    }

    mutating func storeFlags(_ field: Int, visible: Bool, enabled: Bool, required: Bool) {
        fieldVisible[field] = visible
        fieldEnabled[field] = enabled
        fieldRequired[field] = required
    }

    mutating func storeError(_ field: Int, _ error: ValidationCode?) {
        let old = fieldError[field]
        fieldError[field] = error
        let page = flow.fieldTraits[field].page
        if old == nil {
            pageErrorCount[page] += 1
            if pageErrorCount[page] == 1 { pagesWithErrors.add(page, 1) }
        } else if error == nil {
            pageErrorCount[page] -= 1
            if pageErrorCount[page] == 0 { pagesWithErrors.add(page, -1) }
        }
    }

    /// Evaluates every node from scratch (at start and on restore).
    mutating func rebuildDerived() {
        for page in flow.pages.indices {
            pageVisible[page] = holds(flow.pages[page].visibleIf, otherwise: true)
            for field in flow.pages[page].fieldRange {
                _ = recompute(field: field)
            }
        }
        visiblePages = FenwickTree(flags: pageVisible)
        pagesWithErrors = FenwickTree(flags: pageErrorCount.map { $0 > 0 })
        keptCurrentIndex = visiblePages.prefix(currentPage)
    }

    /// Sets a field's value for real. A first responder that became hidden or disabled resigns
    /// (committing its draft).
    mutating func setValue(_ field: Int, _ value: FieldValue) {
        assign(field, value)
        let editing = inputField
        if editing >= 0, !(fieldVisible[editing] && fieldEnabled[editing]) {
            resign(commit: true)
        }
    }

    /// What `setValue(field, .text(text))` does once the text is stored, for a text field whose
    /// text typing or `BackSpace` just changed where it is stored (`values[field]`, its length
    /// already in `textLengths[field]`; `isEmpty`: it has no characters). A field that a
    /// condition names takes `setValue` itself. Most text fields are named by none; for them no
    /// `FieldValue` is copied in and out, the error is decided by `validateText`, and nothing
    /// else changes: no condition is evaluated again, so no visibility or enablement flag
    /// changes, and the first responder (visible and enabled after every event, which
    /// `PropertyTests` check) stays. `TextPathTests` compare it with `setValue` in the states
    /// generated events reach.
    @inline(__always) mutating func textChanged(_ field: Int, isEmpty: Bool) {
        if hasDependents(field) { return setValue(field, values[field]) }
        let error = validateText(field, isEmpty: isEmpty)
        if error != fieldError[field] { storeError(field, error) }
    }

    /// Current errors of a page's fields (revealed or not), in field order.
    func errors(onPage page: Int) -> [FieldError] {
        var errors: [FieldError] = []
        for field in flow.pages[page].fieldRange {
            if let code = fieldError[field] { errors.append(FieldError(field: flow.fieldIDs[field], code: code)) }
        }
        return errors
    }
}
