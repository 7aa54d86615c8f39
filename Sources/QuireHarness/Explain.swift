import QuireCore

/// Failures that explain themselves (issue 38): under a failed `expect` or `expectExactly` about
/// the page, the errors, the buttons, `completed` or the focus, the rules that decided what the
/// session shows — asked of the session (`Session.explain…`), which names each rule by its JSON
/// path — placed at their `file:line:column` in the flow (or in the script, for an inline flow).
enum Explain {
    /// The most lines one failure gets.
    static let limit = 12

    /// The last refusal on the page shown: what was refused and why. Dropped when a move lands
    /// on another page, so a kept refusal is why the session is still where it is.
    struct Refusal {
        var step: Int
        var move: String
        var reason: QuireCore.Refusal
        var errors: [FieldError]
    }

    /// The refusal kept after an event: one it emitted (a refused Finish that then shows the
    /// page with the error keeps its refusal, though it moved), else none once a move landed on
    /// another page, else the one kept before.
    static func refusal(after event: Event, at step: Int, emitted: [SessionNotification], kept: Refusal?) -> Refusal? {
        var kept = kept
        for notification in emitted {
            if case .pageDidChange(_, _, completed: true) = notification { kept = nil }
        }
        for notification in emitted {
            if case .refused(let reason, let errors) = notification, !errors.isEmpty {
                kept = Refusal(step: step, move: Session.moveName(of: event), reason: reason, errors: errors)
            }
        }
        return kept
    }

    /// Lines (`why: …`) explaining `mismatches` of a failed expectation; empty when none of
    /// them is about something a rule decides.
    static func lines(for mismatches: [Mismatch], session: Session, script: SessionScript, refusal: Refusal?) -> [String] {
        var explanations: [Explanation] = []
        var refusalUsed = false
        func add(_ explanation: Explanation) {
            if !explanations.contains(explanation) { explanations.append(explanation) }
        }
        func addRefusal() {
            guard let refusal, !refusalUsed else { return }
            refusalUsed = true
            for explanation in session.explainRefusal(refusal.reason, errors: refusal.errors, move: refusal.move) {
                var at = explanation
                at.decision = "step \(refusal.step + 1): " + at.decision
                add(at)
            }
        }
        let flow = session.flow
        for mismatch in mismatches {
            let keys = mismatch.path.components.map { component -> String? in
                if case .key(let key) = component { return key }
                return nil
            }
            guard let top = keys.first ?? nil else { continue }
            switch top {
            case "page", "indicator":
                let sub = keys.count > 1 ? keys[1] : nil
                if sub == "count" || sub == nil || mismatch.expected.map(isObject) == true {
                    session.explainPageCount.forEach(add)
                }
                if sub != "count" {
                    // Where the script expected to be: a hidden page is why it is not there.
                    if case .string(let id)? = mismatch.expected, sub == "id", let page = flow.pageIndex(of: id),
                        !session.isShown(page: page)
                    {
                        add(session.explainPageVisibility(page))
                    }
                    addRefusal()
                }
            case "errors":
                var fields: [String] = []
                if keys.count > 1, let id = keys[1] {
                    fields = [id]
                } else {
                    for value in [mismatch.expected, mismatch.actual] {
                        if case .object(let object)? = value { fields += object.map(\.key) }
                    }
                }
                for id in fields {
                    if let field = flow.fieldIndex(of: id) { add(session.explainError(field)) }
                }
            case "buttons":
                var names: [String] = []
                if keys.count > 1, let name = keys[1] {
                    names = [name]
                } else if case .object(let object)? = mismatch.expected {
                    names = object.map(\.key)
                }
                for name in names {
                    if let button = TapTarget.Button(rawValue: name) { add(session.explainButton(button)) }
                }
            case "completed":
                addRefusal()
            case "focus":
                if case .string(let id)? = mismatch.expected, let field = flow.fieldIndex(of: id) {
                    if !session.isShown(field: field) {
                        add(session.explainFieldVisibility(field))
                    } else if !session.isEnabled(field: field) {
                        add(session.explainFieldEnabled(field))
                    }
                }
            default:
                continue
            }
        }
        guard !explanations.isEmpty else { return [] }
        let located = locate(explanations.map(\.path), script: script, flow: flow)
        var lines = zip(explanations, located).map { "why: " + $0.text(location: $1) }
        if lines.count > limit {
            let more = lines.count - limit
            lines.removeLast(more)
            lines.append("why: … \(more) more")
        }
        return lines
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    /// `file:line:column` of each path in the flow's file, or of `$.flow` + path in the script
    /// for an inline flow; nil for no path.
    static func locate(_ paths: [JSONPath?], script: SessionScript, flow: Flow) -> [String?] {
        let file: String
        let bytes: [UInt8]
        let prefix: [JSONPath.Component]
        if let flowFile = script.flowFile, let source = flow.sourceBytes {
            file = FileWalker.normalized(flowFile)
            bytes = source
            prefix = []
        } else if script.flowFile == nil {
            file = script.file
            bytes = script.source
            prefix = [.key("flow")]
        } else {
            return paths.map { $0.map(\.description) }
        }
        let full = paths.map { $0.map { JSONPath(components: prefix + $0.components) } }
        let wanted = full.compactMap { $0 }
        let locations = JSONParser.locate(bytes, paths: wanted)
        let offsets = wanted.map { locations.valueOffset($0) }
        let positions = SourcePosition.positions(of: offsets, in: bytes)
        var next = 0
        return full.map { path in
            guard path != nil else { return nil }
            defer { next += 1 }
            return "\(file):\(positions[offsets[next]]!)"
        }
    }
}
