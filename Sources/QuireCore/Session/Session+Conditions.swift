/// Visibility, enablement, requiredness and validation, kept up to date incrementally.
///
/// A value change marks the conditions that name the field; they are evaluated again in document
/// order (a min-heap of node numbers), and a field whose visibility flips marks its own dependents.
/// Conditions see a hidden field as unanswered (`null`), so hiding cascades.
///
/// The same propagation runs over two stores (`Derivation`): the session's own arrays, and an
/// `Outlook` — the differences an open picker's draft would make once committed — which decisions
/// read without changing the session.
protocol Derivation: AnswerLookup {
    mutating func storeValue(_ field: Int, _ value: FieldValue)
    mutating func storePageVisible(_ page: Int, _ visible: Bool)
    mutating func storeFlags(_ field: Int, visible: Bool, enabled: Bool, required: Bool)
    mutating func storeError(_ field: Int, _ error: ValidationCode?)
    /// A host's error on the field, which stands until the field's value changes.
    func hostError(_ field: Int) -> ValidationCode?
    /// The field's value changed: its host error, if any, is dropped.
    mutating func dropHostError(_ field: Int)
    /// The nodes waiting to be evaluated again.
    var queue: NodeQueue { get set }
}

extension AnswerLookup {
    /// The value conditions see: `null` for a hidden field.
    func effectiveValue(_ field: Int) -> FieldValue {
        isFieldVisible(field) ? value(field) : .null
    }

    /// Fields that can become first responder (on their page; the caller checks the page).
    func canFocus(_ field: Int) -> Bool {
        flow.fieldTraits[field].isEditable && isFieldVisible(field) && isFieldEnabled(field)
    }
}

extension Derivation {
    /// Whether a condition holds over the effective values (`otherwise` without one). Mutating
    /// because the derivation asks while it changes the session: it reads the session in place.
    mutating func holds(_ condition: Condition?, otherwise: Bool) -> Bool {
        condition?.evaluate { effectiveValue($0) } ?? otherwise
    }

    /// Sets a field's value and brings everything that depends on it up to date.
    mutating func assign(_ field: Int, _ value: FieldValue) {
        storeValue(field, value)
        reevaluate(afterChangeOf: field)
    }

    /// Brings everything that depends on a field's value up to date once it changed: its error,
    /// then the conditions that name it.
    mutating func reevaluate(afterChangeOf field: Int) {
        dropHostError(field)
        updateError(field)
        if isFieldVisible(field) {
            markDependents(of: field)
            propagate()
        }
    }

    mutating func markDependents(of field: Int) {
        let start = Int(flow.graph.dependentStart[field])
        let end = Int(flow.graph.dependentStart[field + 1])
        for at in start..<end { queue.push(flow.graph.dependents[at]) }
    }

    /// Evaluates the marked nodes in document order until none is left.
    mutating func propagate() {
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
        let visible = isPageVisible(flow.fields[field].page) && holds(flow.fields[field].visibleIf, otherwise: true)
        let enabled = holds(flow.fields[field].enabledIf, otherwise: true)
        let required = flow.fields[field].required || holds(flow.fields[field].requiredIf, otherwise: false)
        let changed = visible != isFieldVisible(field)
        storeFlags(field, visible: visible, enabled: enabled, required: required)
        updateError(field)
        return changed
    }

    /// Brings a field's error up to date: visible and enabled fields only are validated.
    mutating func updateError(_ field: Int) {
        WorkMeter.count()
        var error: ValidationCode? = nil
        if isFieldVisible(field) && isFieldEnabled(field) {
            error =
                hostError(field)
                ?? flow.fieldTraits[field].validate(value(field), length: textLength(field), required: isFieldRequired(field))
        }
        if error != self.error(field) { storeError(field, error) }
    }
}

/// Node numbers waiting for evaluation, smallest first (document order). A node marked twice is
/// evaluated once: conditions name only earlier fields, so a node is never marked after its turn.
/// Scratch, empty between events: not part of a session's value, so any two compare equal.
struct NodeQueue: Sendable, Hashable {
    private var heap: [Int32] = []

    static func == (_: NodeQueue, _: NodeQueue) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

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
    func value(_ field: Int) -> FieldValue { answers.values[field] }
    func isPageVisible(_ page: Int) -> Bool { answers.pageVisible[page] }
    func isFieldVisible(_ field: Int) -> Bool { answers.fieldVisible[field] }
    func isFieldEnabled(_ field: Int) -> Bool { answers.fieldEnabled[field] }
    func isFieldRequired(_ field: Int) -> Bool { answers.fieldRequired[field] }
    func error(_ field: Int) -> ValidationCode? { answers.fieldError[field] }
    func hostError(_ field: Int) -> ValidationCode? { answers.hostErrors.isEmpty ? nil : answers.hostErrors[field]?.code }
    mutating func dropHostError(_ field: Int) { answers.dropHostError(field) }

    mutating func storeValue(_ field: Int, _ value: FieldValue) { answers.set(field, value) }

    mutating func storePageVisible(_ page: Int, _ visible: Bool) {
        answers.setPageVisible(page, visible)
        pager.pageVisibilityChanged(page, visible)
    }

    mutating func storeFlags(_ field: Int, visible: Bool, enabled: Bool, required: Bool) {
        answers.setFlags(field, visible: visible, enabled: enabled, required: required)
    }

    mutating func storeError(_ field: Int, _ error: ValidationCode?) {
        answers.setError(field, onPage: flow.fieldTraits[field].page, error)
    }

    /// Evaluates every node from scratch (at start).
    mutating func rebuildDerived() {
        for page in flow.pages.indices {
            answers.resetPageVisible(page, holds(flow.pages[page].visibleIf, otherwise: true))
            for field in flow.pages[page].fieldRange {
                _ = recompute(field: field)
            }
        }
        answers.rebuildPageTrees()
    }

    /// Sets a field's value for real.
    mutating func setValue(_ field: Int, _ value: FieldValue) {
        answers.set(field, value)
        answerChanged(field)
    }

    /// After `values[field]` changed (set, or a text edited where it is stored): everything that
    /// depends on it is brought up to date, and a first responder that became hidden or disabled
    /// resigns (committing its draft).
    mutating func answerChanged(_ field: Int) {
        if flow.fieldTraits[field].reveal == .change { answers.reveal(field) }
        reevaluate(afterChangeOf: field)
        let editing = focusChain.field
        if editing >= 0, !(answers.fieldVisible[editing] && answers.fieldEnabled[editing]) {
            resign(commit: true)
        }
    }

    /// Current errors of a page's fields (revealed or not), in field order.
    func errors(onPage page: Int) -> [FieldError] {
        var errors: [FieldError] = []
        for field in flow.pages[page].fieldRange {
            if let code = answers.fieldError[field] { errors.append(FieldError(field: flow.fieldIDs[field], code: code)) }
        }
        return errors
    }
}
