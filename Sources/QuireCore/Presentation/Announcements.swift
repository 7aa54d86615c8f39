/// What a screen reader must be told after an event (CONTRACT §6.4): the things it would
/// otherwise miss because keyboard focus does not move to them. Focus changes and the values of
/// focused controls are not announced; screen readers speak those themselves.
public struct Announcement: Sendable, Hashable {
    public enum Priority: String, Sendable {
        case polite, assertive
    }

    public var text: String
    public var priority: Priority
    /// What a front's screen reader speaks: `text`, and on a page's arrival the page's body after
    /// it, as a status page's description is read with its title ("About you, page 2 of 5. Tell
    /// us what to call you."). Not part of the contract's announcement (CONTRACT §6.4): scripts,
    /// traces and the C API's `announce` see `text` and `priority` only.
    public var spoken: String

    public init(_ text: String, _ priority: Priority, spoken: String? = nil) {
        self.text = text
        self.priority = priority
        self.spoken = spoken ?? text
    }

    /// `{"text", "priority"}`, as scripts (`expectAnnounced`) and traces show it.
    public var json: JSONValue { ["text": .string(text), "priority": .string(priority.rawValue)] }
}

/// The errors shown on the page in view before an event (`Session.errorsInView`): what
/// `announcements(after:emitted:before:)` compares the page with to find an error revealed.
public struct ShownErrors: Sendable, Equatable {
    /// The page in view (a flow page index).
    let page: Int
    /// Its fields whose error is shown, with the error.
    let errors: [Int: ValidationCode]
}

extension Session {
    /// The errors shown now on the page in view; a front keeps it from before each event.
    public var errorsInView: ShownErrors {
        let page = pager.currentPage
        var errors: [Int: ValidationCode] = [:]
        for field in flow.pages[page].fieldRange where answers.touched[field] && answers.fieldVisible[field] {
            if let code = answers.fieldError[field] { errors[field] = code }
        }
        return ShownErrors(page: page, errors: errors)
    }

    /// The announcements a front makes after `event`, which emitted `emitted`, in the order their
    /// causes were emitted; `before` is `errorsInView` from before the event (nil: nothing is
    /// known of it, and no revealed error is announced). In the session's language:
    ///
    /// - a completed page change: its title and where it stands, polite ("About you, page 2 of 5");
    /// - a refused move or finish: the refusal notice's sentence when there is one, else
    ///   "LABEL: ERROR" of the first error it refused for (in page order), assertive; nothing when it
    ///   refused for no error;
    /// - an error revealed by anything but a refusal, on a field of the page in view that does not
    ///   have keyboard focus after the event: "LABEL: ERROR", polite, one per field in page order,
    ///   where the event's first resign or value change was emitted;
    /// - a `maxLength` refusal: "LABEL: ERROR", polite;
    /// - an apply starting: its label, polite; cancelled: "Stopped", polite; timed out: "No
    ///   answer in time", assertive; failed: its message, else "LABEL: ERROR" of its first field
    ///   error, assertive;
    /// - completion: "Finished" or "Cancelled", polite.
    public func announcements(
        after event: Event?, emitted: some Collection<SessionNotification>, before: ShownErrors?
    ) -> [Announcement] {
        guard let event else { return [] }
        let strings = Strings(locale: locale)
        var said: [Announcement] = []
        var refusedFields: Set<String> = []
        var revealedAt: Int? = nil
        var timedOut = false
        for notification in emitted {
            switch notification {
            case .pageDidChange(_, let to, true):
                let arrived = to < pageCount ? flow.pages[page(atVisible: to)] : nil
                let text = strings.arrivedAt(arrived?.title?.resolve(locale), to + 1, pageCount)
                let body = arrived?.body?.resolve(locale) ?? ""
                said.append(Announcement(text, .polite, spoken: body.isEmpty ? text : strings.sentences(text, body)))
            case .refused(.maxLength, let errors):
                if let first = errors.first, let line = errorLine(first) { said.append(Announcement(line, .polite)) }
            case .applyRequested(let page, _):
                if let index = flow.pageIndex(of: page), let label = flow.pages[index].apply?.label.resolve(locale) {
                    said.append(Announcement(label, .polite))
                }
            case .applyFinished(_, .cancelled):
                said.append(Announcement(strings.applyStopped, .polite))
            case .applyFinished(_, .timedOut):
                timedOut = true
                said.append(Announcement(strings.applyTimedOut, .assertive))
            case .refused(.apply, let errors):
                refusedFields.formUnion(errors.map(\.field))
                if timedOut { continue }
                if let message = applyMessage?.resolve(locale) {
                    said.append(Announcement(message, .assertive))
                } else if let first = errors.min(by: { fieldOrder($0.field) < fieldOrder($1.field) }), let line = errorLine(first) {
                    said.append(Announcement(line, .assertive))
                }
            case .refused(let reason, let errors):
                refusedFields.formUnion(errors.map(\.field))
                guard reason == .gate || reason == .finish else { continue }
                if let notice = refusalNotice(after: event, emitted: emitted, previous: nil) {
                    said.append(Announcement(notice.message, .assertive))
                } else if let first = errors.min(by: { fieldOrder($0.field) < fieldOrder($1.field) }), let line = errorLine(first) {
                    said.append(Announcement(line, .assertive))
                }
            case .inputDismissed, .valueChanged:
                if revealedAt == nil { revealedAt = said.count }
            case .completed(let outcome):
                said.append(Announcement(outcome == .finished ? strings.finished : strings.cancelled, .polite))
            default:
                break
            }
        }
        let revealed = revealedErrors(since: before, emitted: emitted, event: event, refused: refusedFields)
        said.insert(contentsOf: revealed, at: min(revealedAt ?? said.count, said.count))
        return said
    }

    /// "LABEL: ERROR" for each error shown now on the page in view that `before` did not show
    /// (or showed with another code), but those a refusal named and the field with keyboard focus.
    func revealedErrors(
        since before: ShownErrors?, emitted: some Collection<SessionNotification>, event: Event, refused: Set<String>
    ) -> [Announcement] {
        guard let before, before.page == pager.currentPage, completion == nil else { return [] }
        let now = errorsInView
        let focused: String?
        if case .field(let id) = keyboardFocus(after: event, emitted: emitted) { focused = id } else { focused = nil }
        var said: [Announcement] = []
        for field in flow.pages[now.page].fieldRange {
            guard let code = now.errors[field], before.errors[field] != code else { continue }
            let id = flow.fieldIDs[field]
            guard id != focused, !refused.contains(id), let line = errorLine(FieldError(field: id, code: code)) else { continue }
            said.append(Announcement(line, .polite))
        }
        return said
    }

    /// "LABEL: ERROR", as the field shows its label and, under itself, the error.
    func errorLine(_ error: FieldError) -> String? {
        guard let field = flow.fieldIndex(of: error.field) else { return nil }
        let definition = flow.fields[field]
        let label = definition.label?.resolve(locale) ?? definition.id
        return "\(label): \(errorText(error.code, field: field))"
    }

    func fieldOrder(_ id: String) -> Int { flow.fieldIndex(of: id) ?? Int.max }
}
