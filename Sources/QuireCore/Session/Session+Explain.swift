/// Why the session decided what it shows: which rule of the flow (a condition, `required`, a
/// length or range, a page's `back`, the gate) decided a page's or a field's visibility, a
/// field's enabled state or error, the buttons or a refusal, and the values that rule read.
///
/// The harness asks for these when an expectation fails (issue 38, "failures that explain
/// themselves") and places each rule in the flow's file: the session names the rule by its JSON
/// path, it does not know files. Explaining reads the session; it changes nothing.
public struct Explanation: Sendable, Hashable {
    /// A field's value as a rule read it.
    public struct Read: Sendable, Hashable {
        public var field: String
        /// The value the rule saw: `null` for a hidden field.
        public var value: JSONValue
        /// The field was hidden, so the rule saw it as unanswered.
        public var hidden: Bool
    }

    /// What was decided: `page 'extra' hidden`, `field 'email' disabled`, `Next refused by the gate`.
    public var decision: String
    /// The rule that decided: `its visibleIf`, `userName is required`.
    public var rule: String
    /// Where the rule is written in the flow (`$.pages[2].visibleIf`); nil for a rule of the
    /// engine (the first page has no Back) or the host's.
    public var path: JSONPath?
    /// The values the rule read, in the order it names them.
    public var reads: [Read] = []

    public init(decision: String, rule: String, path: JSONPath?, reads: [Read] = []) {
        self.decision = decision
        self.rule = rule
        self.path = path
        self.reads = reads
    }

    /// `page 'extra' hidden: its visibleIf (LOCATION) read more = false`; `location` is where
    /// `path` is in the flow's file (the caller finds it), left out when nil.
    public func text(location: String?) -> String {
        var text = "\(decision): \(rule)"
        if let location { text += " (\(location))" }
        if !reads.isEmpty {
            text +=
                " read "
                + reads.map { read in
                    "\(read.field) = \(JSONWriter.string(read.value))" + (read.hidden ? " (hidden)" : "")
                }.joined(separator: ", ")
        }
        return text
    }
}

extension Session {
    /// Whether page `page` (an index of `flow.pages`) is shown now.
    public func isShown(page: Int) -> Bool { answers.pageVisible[page] }
    /// Whether field `field` (an index of `flow.fields`) is shown now.
    public func isShown(field: Int) -> Bool { answers.fieldVisible[field] }
    /// Whether field `field` is enabled now.
    public func isEnabled(field: Int) -> Bool { answers.fieldEnabled[field] }

    /// The values `condition` reads now, each field once, in the order the condition names them.
    func reads(of condition: Condition) -> [Explanation.Read] {
        flow.fieldsNamed(by: condition).map { field in
            let visible = answers.fieldVisible[field]
            return Explanation.Read(
                field: flow.fieldIDs[field], value: flow.fields[field].json(visible ? answers.values[field] : .null), hidden: !visible)
        }
    }

    /// Why page `page` (an index of `flow.pages`) is shown or hidden now.
    public func explainPageVisibility(_ page: Int) -> Explanation {
        let definition = flow.pages[page]
        let shown = answers.pageVisible[page]
        let decision = "page '\(definition.id)' \(shown ? "shown" : "hidden")"
        guard let condition = definition.visibleIf else {
            return Explanation(decision: decision, rule: "it has no visibleIf", path: nil)
        }
        return Explanation(
            decision: decision, rule: "its visibleIf", path: JSONPath.root + "pages" + page + "visibleIf", reads: reads(of: condition))
    }

    /// Why the flow has the pages it has now: each page with a `visibleIf`, in order (pages
    /// without one are always shown). Empty when no page has one.
    public var explainPageCount: [Explanation] {
        flow.pages.indices.filter { flow.pages[$0].visibleIf != nil }.map(explainPageVisibility)
    }

    /// Why field `field` (an index of `flow.fields`) is shown or hidden now: its page's
    /// `visibleIf` when the page is hidden, else its own.
    public func explainFieldVisibility(_ field: Int) -> Explanation {
        let definition = flow.fields[field]
        let shown = answers.fieldVisible[field]
        let decision = "field '\(definition.id)' \(shown ? "shown" : "hidden")"
        if !answers.pageVisible[definition.page] {
            var page = explainPageVisibility(definition.page)
            page.decision = decision + ", as " + page.decision
            return page
        }
        guard let condition = definition.visibleIf else {
            return Explanation(decision: decision, rule: "it has no visibleIf", path: nil)
        }
        return Explanation(
            decision: decision, rule: "its visibleIf", path: flow.path(ofField: field) + "visibleIf", reads: reads(of: condition))
    }

    /// Why field `field` is enabled or disabled now.
    public func explainFieldEnabled(_ field: Int) -> Explanation {
        let definition = flow.fields[field]
        let decision = "field '\(definition.id)' \(answers.fieldEnabled[field] ? "enabled" : "disabled")"
        guard let condition = definition.enabledIf else {
            return Explanation(decision: decision, rule: "it has no enabledIf", path: nil)
        }
        return Explanation(
            decision: decision, rule: "its enabledIf", path: flow.path(ofField: field) + "enabledIf", reads: reads(of: condition))
    }

    /// Why field `field` has the error it has now, or none: hidden and disabled fields are not
    /// validated; `required` errors come from `required` or `requiredIf`, the others from the
    /// field's own key of that name (`minLength`, `maxLength`, `min`, `max`) or the host.
    public func explainError(_ field: Int) -> Explanation {
        let definition = flow.fields[field]
        let fieldPath = flow.path(ofField: field)
        if !answers.fieldVisible[field] {
            var why = explainFieldVisibility(field)
            why.decision = "'\(definition.id)' is not validated: " + why.decision
            return why
        }
        if !answers.fieldEnabled[field] {
            var why = explainFieldEnabled(field)
            why.decision = "'\(definition.id)' is not validated: " + why.decision
            return why
        }
        let value = Explanation.Read(field: definition.id, value: definition.json(answers.values[field]), hidden: false)
        guard let code = answers.fieldError[field] else {
            let required = answers.fieldRequired[field]
            if !required, let condition = definition.requiredIf {
                return Explanation(
                    decision: "'\(definition.id)' has no error", rule: "it is not required: its requiredIf",
                    path: fieldPath + "requiredIf", reads: reads(of: condition) + [value])
            }
            return Explanation(
                decision: "'\(definition.id)' has no error", rule: required ? "its value passes its rules" : "it is not required",
                path: required ? fieldPath + "required" : fieldPath, reads: [value])
        }
        let shown = answers.touched[field] ? "" : " (not revealed yet)"
        if code == .required {
            if definition.required {
                return Explanation(
                    decision: "'\(definition.id)' \(code)\(shown)", rule: "\(definition.id) is required", path: fieldPath + "required")
            }
            if let condition = definition.requiredIf {
                return Explanation(
                    decision: "'\(definition.id)' \(code)\(shown)", rule: "\(definition.id) is required by its requiredIf",
                    path: fieldPath + "requiredIf", reads: reads(of: condition))
            }
        }
        if answers.hostErrors[field]?.code == code {
            return Explanation(
                decision: "'\(definition.id)' \(code)\(shown)", rule: "the host's error, kept until the value changes", path: nil)
        }
        return Explanation(
            decision: "'\(definition.id)' \(code)\(shown)", rule: "its \(code)", path: fieldPath + code.rawValue, reads: [value])
    }

    /// Why a move or Finish was refused: each blocking field's rule. `move` names what was
    /// refused (`Next`, `the swipe`); see `moveName(of:)`.
    public func explainRefusal(_ reason: Refusal, errors: [FieldError], move: String) -> [Explanation] {
        let decision =
            switch reason {
            case .gate: "\(move) refused by the gate"
            case .finish: "\(move) refused: a page has errors"
            case .maxLength: "\(move) refused"
            case .apply: "\(move) refused by the host"
            }
        return errors.map { error in
            guard let field = flow.fieldIndex(of: error.field) else {
                return Explanation(decision: decision, rule: "\(error.field) \(error.code)", path: nil)
            }
            var why = explainError(field)
            why.decision = decision
            if why.rule.hasPrefix("its ") { why.rule = "\(error.field) " + why.rule.dropFirst(4) }
            if error.code != .required && answers.hostErrors[field]?.code != error.code {
                why.rule = "\(error.field) fails its \(error.code)"
            }
            return why
        }
    }

    /// What an event asks to move, as a refusal names it: `Next`, `Back`, `Skip`, `Finish`, `the
    /// swipe`, `the indicator`, `the key Return`.
    public static func moveName(of event: Event) -> String {
        switch event {
        case .tap(.button(let button)): button.rawValue.prefix(1).uppercased() + button.rawValue.dropFirst()
        case .tap(.indicatorLeft), .tap(.indicatorRight), .tap(.indicatorPage): "the indicator"
        case .tap(.accessory(let item)): "the accessory's \(item.rawValue)"
        case .key(let key): "the key \(key.rawValue)"
        case .swipe, .swipePage, .dragEnd: "the swipe"
        case .applied: "the host's acceptance"
        default: "the move"
        }
    }

    /// Why a button is on or off now (CONTRACT §4): `back`, `next`, `skip` or `finish`.
    public func explainButton(_ button: TapTarget.Button) -> Explanation {
        let enabled: Bool
        let state = buttons
        switch button {
        case .back: enabled = state.back
        case .next: enabled = state.next
        case .skip: enabled = state.skip
        case .finish: enabled = state.finish
        case .cancel: enabled = true
        }
        let decision = "\(button.rawValue) \(enabled ? "on" : "off")"
        let count = pageCount
        let index = currentIndex
        let where_ = "on visible page \(index + 1) of \(count)"
        if applying != nil {
            return Explanation(decision: decision, rule: "every button is off while the host applies the page", path: nil)
        }
        switch button {
        case .back:
            let page = pager.currentPage
            if !flow.pages[page].back {
                return Explanation(
                    decision: decision, rule: "page '\(flow.pages[page].id)' says \"back\": false",
                    path: JSONPath.root + "pages" + page + "back")
            }
            if !flow.paging.wrap && index == 0 {
                return Explanation(decision: decision, rule: "the first page has no Back (paging.wrap is false)", path: nil)
            }
            return Explanation(decision: decision, rule: count > 1 ? where_ : "only one page is shown", path: nil)
        case .next:
            if count <= 1 { return Explanation(decision: decision, rule: "only one page is shown", path: nil) }
            if !flow.paging.wrap && index == count - 1 {
                return Explanation(decision: decision, rule: "the last page has no Next (paging.wrap is false), \(where_)", path: nil)
            }
            return Explanation(decision: decision, rule: where_, path: nil)
        case .skip, .finish, .cancel:
            return Explanation(decision: decision, rule: where_, path: nil)
        }
    }
}
