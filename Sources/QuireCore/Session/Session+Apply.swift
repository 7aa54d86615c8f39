/// Applying a page's answers through the host (CONTRACT §6.1; docs/session-semantics.md,
/// "Applying a page"): a forward move off a page with `apply` asks the host first, and happens
/// only once the host answers `applied`. The session does no I/O: it emits `applyRequested` and
/// waits for an event, with time passing only through `tick`, so every race is scripted exactly.

/// An apply in progress: the page, the move it waits for, and how long it has waited.
struct Applying: Sendable, Hashable {
    /// The flow page being applied.
    let page: Int
    /// The visible index the move heads to once applied; nil: `finish`.
    let index: Int?
    /// Where the pager goes then (past an end for a wrapping move).
    let target: Double
    /// The page's `timeoutMs` in microseconds (0: none).
    let timeout: Int64
    /// Ticks since the apply began, in microseconds.
    private(set) var elapsed: Int64 = 0

    init(page: Int, index: Int?, target: Double, timeout: Int64, elapsed: Int64 = 0) {
        self.page = page
        self.index = index
        self.target = target
        self.timeout = timeout
        self.elapsed = elapsed
    }

    /// The time left before it times out (nil: it waits for ever).
    var timeLeft: Int64? { timeout > 0 ? max(0, timeout - elapsed) : nil }

    var hasTimedOut: Bool { timeout > 0 && elapsed >= timeout }

    mutating func wait(_ microseconds: Int64) { elapsed += microseconds }

    /// `elapsedMs`, as the state shows it.
    var elapsedMs: Double { Double(elapsed) / 1000 }
}

/// A host's error on a field (an `applyFailed`): shown until the field's value changes.
struct HostError: Sendable, Hashable {
    var code: ValidationCode
    var message: LocalizedText?
}

extension Session {
    /// Whether the session is waiting for its host to apply a page.
    public var isApplying: Bool { applying != nil }

    /// The id of the page being applied, if any.
    public var applyingPageID: String? { applying.map { flow.pages[$0.page].id } }

    /// The values an apply hands its host (`applyRequested`'s `values`): the visible fields',
    /// as a `finished` result holds them. A front that restores a session still applying starts
    /// the host's work again with these.
    public var visibleValues: JSONObject { resultValues(visibleOnly: true) }

    /// The label of the apply in progress, in the session's language (what a front shows beside
    /// its spinner).
    public var applyLabel: String? { applying.flatMap { flow.pages[$0.page].apply?.label.resolve(locale) } }

    /// A forward move off `page` that passed the gate: the first responder resigns (committing,
    /// as a page change would) and the host is asked to apply the page.
    mutating func beginApplying(page: Int, index: Int?, target: Double) {
        if focusChain.hasInput { resign(commit: true) }
        let timeout = Int64(flow.pages[page].apply?.timeoutMs ?? 0) * 1000
        applyMessage = nil
        applying = Applying(page: page, index: index, target: target, timeout: timeout)
        emit(.applyRequested(page: flow.pages[page].id, values: resultValues(visibleOnly: true)))
    }

    /// An event while applying: the clock runs, Cancel and Escape stop the apply, the host
    /// answers; everything else waits (`applying`).
    mutating func dispatchWhileApplying(_ event: Event) {
        switch event {
        case .tick(let ms): tick(ms)
        case .settle: settle()
        case .tap(.button(.cancel)), .key(.escape): stopApplying(.cancelled)
        case .applied(let page): applied(page, event)
        case .applyFailed(let failure): applyFailed(failure, event)
        default: ignore(event, .applying)
        }
    }

    /// Ends the apply in progress without the move it waited for.
    mutating func stopApplying(_ outcome: ApplyOutcome) {
        guard let running = applying else { return }
        applying = nil
        emit(.applyFinished(page: flow.pages[running.page].id, outcome: outcome))
        if outcome == .timedOut { emit(.refused(reason: .apply, errors: [])) }
    }

    /// The apply in progress for `page`, if there is one.
    func applyingPage(_ page: String) -> Applying? {
        guard let running = applying, flow.pages[running.page].id == page else { return nil }
        return running
    }

    mutating func applied(_ page: String, _ event: Event) {
        guard let running = applyingPage(page) else { return ignore(event, .notApplying) }
        applying = nil
        emit(.applyFinished(page: page, outcome: .applied))
        if let index = running.index {
            animate(to: running.target, index: index)
        } else {
            completion = Completion(outcome: .finished, values: resultValues(visibleOnly: true))
            emit(.completed(outcome: .finished))
        }
    }

    mutating func applyFailed(_ failure: ApplyFailure, _ event: Event) {
        guard let running = applyingPage(failure.page) else { return ignore(event, .notApplying) }
        // Every field named must be a visible field of the page, or nothing happens.
        var fields: [(field: Int, error: HostError)] = []
        for error in failure.errors {
            guard let field = flow.fieldIndex(of: error.field), flow.fieldTraits[field].page == running.page,
                answers.fieldVisible[field]
            else { return ignore(event, .unknownField) }
            fields.append((field, HostError(code: error.code, message: error.message)))
        }
        fields.sort { $0.field < $1.field }
        applying = nil
        emit(.applyFinished(page: failure.page, outcome: .failed))
        for (field, error) in fields {
            answers.setHostError(field, error)
            updateError(field)
            answers.reveal(field)
        }
        applyMessage = failure.message
        emit(.refused(reason: .apply, errors: fields.map { FieldError(field: flow.fieldIDs[$0.field], code: $0.error.code) }))
    }

    /// Advances the apply's clock with the pager's: the part of `microseconds` before a timeout
    /// runs first, then the timeout ends the apply, then the rest runs.
    mutating func tickWhileApplying(_ microseconds: Int64) -> Int64 {
        guard var running = applying else { return microseconds }
        let step = running.timeLeft.map { min($0, microseconds) } ?? microseconds
        advanceClock(step)
        running.wait(step)
        applying = running
        guard running.hasTimedOut else { return 0 }
        stopApplying(.timedOut)
        return microseconds - step
    }
}
