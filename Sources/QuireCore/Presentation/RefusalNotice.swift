/// What a front says when a refused move's error is out of sight (docs/session-semantics.md,
/// "Refusal notices"): a refused Skip, dot tap or Ctrl+Return on the welcome page reveals the
/// name's error on page 2, which the user cannot see. The notice names the field and its page
/// ("Name is required — on page 2, About you"), and carries the move that goes there.
///
/// Like keyboard focus, a notice is decided here from an event and what it emitted, so every
/// front shows the same one and scripts check it (`expectNotice`); it is not part of the session
/// (a snapshot does not keep it).
public struct RefusalNotice: Sendable, Hashable {
    /// The field whose error the refusal revealed first.
    public var field: String
    public var code: ValidationCode
    /// The field's page, as a visible index (0-based, as `page.index` in the state).
    public var page: Int
    /// The page's title, cut to `quotedLimit` characters; nil when the page has none.
    public var pageTitle: String?
    /// The sentence to show and announce: "Name is required — on page 2, About you".
    public var message: String
    /// The title of the button that goes there: "Go to page 2".
    public var actionTitle: String

    /// How many characters (grapheme clusters) of a field's label or a page's title a notice
    /// quotes; a longer one is cut and ends in "…", so a notice costs the same whatever the flow
    /// says.
    public static let quotedLimit = 80

    /// The move that goes to the field's page: `indicator:N`. It is never refused: the page is
    /// the first with an error among those the refused move would have passed, so going there
    /// passes none (and a backward move is always allowed).
    public var event: Event { .tap(.indicatorPage(page)) }

    /// `{"field", "code", "page", "pageTitle", "message", "action"}`, what `expectNotice` matches.
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 6)
        object.append("field", .string(field))
        object.append("code", .string(code.rawValue))
        object.append("page", .number(Double(page)))
        object.append("pageTitle", pageTitle.map(JSONValue.string) ?? .null)
        object.append("message", .string(message))
        object.append("action", .string(actionTitle))
        return .object(object)
    }

    /// The keys of `json`, for checking a script's `expectNotice`.
    public static let keys = ["field", "code", "page", "pageTitle", "message", "action"]
}

/// The refusal notice a front shows, from event to event. The notice's memory is the core's
/// (rule 4 of `Session.refusalNotice`: an ignored event keeps the notice shown): a front holds
/// this value and has it follow each event, and shows `notice`.
public struct NoticeShown: Sendable, Equatable {
    /// The notice shown now; nil when none is.
    public private(set) var notice: RefusalNotice?

    public init() {}

    /// Follows `event`, which `session` handled (emitting `emitted`; nil: the session has just
    /// started or been restored). True when the notice changed.
    @discardableResult
    public mutating func follow(_ event: Event?, emitted: some Collection<SessionNotification>, in session: Session) -> Bool {
        let next = session.refusalNotice(after: event, emitted: emitted, previous: notice)
        defer { notice = next }
        return next != notice
    }
}

extension Session {
    /// The notice to show after `event` (nil: the session has just started or been restored),
    /// given what it emitted and the notice shown before it:
    ///
    /// 1. a refused move or finish whose first revealed error is on a page other than the one the
    ///    pager shows or is going to: a notice naming that field and page;
    /// 2. any other refusal of a move or finish: none (its error is in sight, and keyboard focus
    ///    goes to the field);
    /// 3. an event that was accepted — it emitted anything but `ignored`, a `maxLength` refusal
    ///    or a spring-back's `pageDidChange(completed: false)` — or completion: none;
    /// 4. anything else (an ignored event, a tick that only moves an animation): the previous
    ///    notice stays.
    func refusalNotice(
        after event: Event?, emitted: some Collection<SessionNotification>, previous: RefusalNotice?
    ) -> RefusalNotice? {
        guard event != nil, completion == nil else { return nil }
        var accepted = false
        var destination: Int? = nil
        var refusal: [FieldError]? = nil
        for notification in emitted {
            switch notification {
            case .ignored: break
            case .refused(.maxLength, _): break
            case .refused(_, let errors):
                if refusal == nil { refusal = errors }
            case .pageDidChange(_, _, false): break
            case .pageWillChange(_, let to):
                destination = to
                accepted = true
            default: accepted = true
            }
        }
        if let refusal {
            guard let first = refusal.first, let field = flow.fieldIndex(of: first.field) else { return nil }
            let page = flowPage(ofField: field)
            guard isPageVisible(page) else { return nil }
            let index = visibleIndex(ofPage: page)
            if index == (destination ?? currentIndex) { return nil }
            return notice(field: field, code: first.code, page: page, index: index)
        }
        return accepted ? nil : previous
    }

    /// The flow page that holds field `field` (pages hold consecutive ranges of fields).
    func flowPage(ofField field: Int) -> Int {
        var low = 0
        var high = flow.pages.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if flow.pages[middle].fieldRange.lowerBound <= field { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Whether keyboard focus can go to field `field` after a move: its page is the one the
    /// pager shows or is going to.
    /// Where keyboard focus goes after a refusal notice's action (`notice.event`, "Go to page
    /// 2") was sent and emitted `emitted`: the field the notice names, once the move heads to its
    /// page — the person pressed the button to fix that field (keyboard focus used to land on the
    /// page dots, and typing went nowhere). Otherwise, as after any event.
    public func keyboardFocus(afterNoticeAction notice: RefusalNotice, emitted: some Collection<SessionNotification>) -> KeyboardFocus {
        let general = keyboardFocus(after: notice.event, emitted: emitted)
        guard focusedField == nil, completion == nil, let field = flow.fieldIndex(of: notice.field),
            answers.fieldVisible[field], answers.fieldEnabled[field]
        else { return general }
        var destination: Int? = nil
        for notification in emitted {
            if case .pageWillChange(_, let to) = notification { destination = to }
        }
        return isOnPage(field: notice.field, destination: destination) ? .field(notice.field) : general
    }

    func isOnPage(field id: String, destination: Int?) -> Bool {
        guard let field = flow.fieldIndex(of: id) else { return false }
        let page = flowPage(ofField: field)
        return isPageVisible(page) && visibleIndex(ofPage: page) == (destination ?? currentIndex)
    }

    func notice(field: Int, code: ValidationCode, page: Int, index: Int) -> RefusalNotice {
        let strings = Strings(locale: locale)
        let definition = flow.fields[field]
        let label = RefusalNotice.quoted(definition.label?.resolve(locale) ?? definition.id)
        let title = flow.pages[page].title.map { RefusalNotice.quoted($0.resolve(locale)) }
        let problem: String
        switch (code, definition.kind) {
        case (.required, .toggle): problem = strings.noticeMustBeOn(label)
        case (.required, _): problem = strings.noticeRequired(label)
        default: problem = strings.noticeProblem(label, errorText(code, field: field))
        }
        return RefusalNotice(
            field: definition.id, code: code, page: index, pageTitle: title,
            message: strings.notice(problem, page: index + 1, title: title),
            actionTitle: strings.goToPage(index + 1))
    }
}

extension RefusalNotice {
    /// `text` cut to `quotedLimit` grapheme clusters, ending in "…" when cut.
    static func quoted(_ text: String) -> String {
        var end = text.startIndex
        var count = 0
        while end < text.endIndex {
            if count == quotedLimit { return String(text[..<end]) + "…" }
            end = text.index(after: end)
            count += 1
        }
        return text
    }
}

extension Strings {
    /// "Name is required"; "名前を入力してください".
    func noticeRequired(_ label: String) -> String { japanese ? "「\(label)」を入力してください" : "\(label) is required" }
    /// "Terms must be turned on".
    func noticeMustBeOn(_ label: String) -> String { japanese ? "「\(label)」をオンにしてください" : "\(label) must be turned on" }
    /// "Name: Use at least 2 characters".
    func noticeProblem(_ label: String, _ error: String) -> String { japanese ? "「\(label)」: \(error)" : "\(label): \(error)" }

    /// "Name is required — on page 2, About you"; "Name is required — on page 2" for a page
    /// without a title; "2ページ目（あなたについて）: 「名前」を入力してください".
    func notice(_ problem: String, page: Int, title: String?) -> String {
        let title = title.flatMap { $0.isEmpty ? nil : $0 }
        if japanese {
            return title.map { "\(page)ページ目（\($0)）: \(problem)" } ?? "\(page)ページ目: \(problem)"
        }
        return title.map { "\(problem) — on page \(page), \($0)" } ?? "\(problem) — on page \(page)"
    }

    /// "Go to page 2"; "2ページ目へ".
    func goToPage(_ page: Int) -> String { japanese ? "\(page)ページ目へ" : "Go to page \(page)" }
}
