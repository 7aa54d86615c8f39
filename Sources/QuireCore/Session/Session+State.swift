/// The session's state as the JSON of CONTRACT §4: what `expect` matches, what recordings carry
/// and what the C API returns. Each key can be built alone, so a partial match builds only what
/// it checks.
extension Session {
    /// The state's top-level keys, in the order they are written: the one list `expect`, the
    /// docs and the fronts read.
    public enum StateKey: String, Sendable, Hashable, CaseIterable {
        case page, position, transition, indicator, focus, input, values, errors, buttons, completed, applying
    }

    public static let stateKeys = StateKey.allCases.map(\.rawValue)
    static let stateKeyCases = StateKey.allCases
    package static let stateKeyTable = NameTable(stateKeys)

    /// The whole state.
    public var state: JSONValue {
        var object = JSONObject(minimumCapacity: Self.stateKeys.count)
        for key in StateKey.allCases { object.append(key.rawValue, stateValue(key)) }
        return .object(object)
    }

    /// One top-level key of the state; nil for a key the state does not have.
    public func stateValue(_ key: String) -> JSONValue? {
        guard let index = Self.stateKeyTable.index(of: key) else { return nil }
        return stateValue(Self.stateKeyCases[index])
    }

    /// One top-level key of the state.
    public func stateValue(_ key: StateKey) -> JSONValue {
        switch key {
        case .page:
            return [
                "index": .number(Double(currentIndex)), "id": .string(flow.pages[pager.currentPage].id),
                "count": .number(Double(pageCount)),
            ]
        case .position:
            return .number(pager.position)
        case .transition:
            return transitionJSON
        case .indicator:
            return [
                "count": .number(Double(pageCount)), "current": .number(Double(currentIndex)),
                "hidden": .bool(indicatorHidden),
            ]
        case .focus:
            return focusChain.hasInput ? .string(flow.fieldIDs[focusChain.field]) : .null
        case .input:
            return inputJSON
        case .values:
            let fields = flow.fields
            var object = JSONObject(minimumCapacity: fields.count)
            for field in fields.indices { object.append(flow.fieldIDs[field], fields[field].json(answers.values[field])) }
            return .object(object)
        case .errors:
            var object = JSONObject()
            for error in shownErrors { object.append(error.field, .string(error.code.rawValue)) }
            return .object(object)
        case .buttons:
            let enabled = buttons
            return [
                "back": .bool(enabled.back), "next": .bool(enabled.next), "skip": .bool(enabled.skip),
                "finish": .bool(enabled.finish),
            ]
        case .completed:
            guard let completion else { return .null }
            return ["outcome": .string(completion.outcome.rawValue), "values": .object(completion.values)]
        case .applying:
            guard let applying else { return .null }
            return [
                "page": .string(flow.pages[applying.page].id),
                "to": applying.index.map { .number(Double($0)) } ?? .string("finish"),
                "elapsedMs": .number(applying.elapsedMs),
            ]
        }
    }

    /// Revealed errors of visible fields, in field order.
    public var shownErrors: [FieldError] {
        var errors: [FieldError] = []
        for field in flow.fields.indices where answers.touched[field] {
            if let code = answers.fieldError[field] { errors.append(FieldError(field: flow.fieldIDs[field], code: code)) }
        }
        return errors
    }

    public struct TransitionState: Sendable, Hashable {
        public var from: Int
        public var to: Int
        public var progress: Double
        public var interactive: Bool
    }

    /// The running transition, or nil when settled.
    public var transition: TransitionState? {
        guard let motion = pager.motion else { return nil }
        let from = currentIndex
        switch motion {
        case .animating(let animation):
            // The fraction of the distance from the page to the target covered so far: it does not
            // restart when a move is retargeted. A spring-back (target = page) reports its leg.
            let distance = animation.target - Double(from)
            guard distance != 0 else {
                return TransitionState(from: from, to: from, progress: animationProgress, interactive: false)
            }
            let covered = min(1, max(0, (pager.position - Double(from)) / distance))
            return TransitionState(
                from: from, to: animation.announced ?? normalize(animation.target), progress: covered, interactive: false)
        case .dragging(let drag):
            let distance = abs(pager.position - Double(from))
            guard let revealed = drag.revealed else {
                // A takeover keeps the interrupted animation's target until it reveals a page, and
                // reports the fraction of the way there (the distance moved, for a spring-back's).
                guard let at = drag.headingAt, at != Double(from) else {
                    return TransitionState(from: from, to: drag.heading ?? from, progress: min(1, distance), interactive: true)
                }
                let covered = min(1, max(0, (pager.position - Double(from)) / (at - Double(from))))
                return TransitionState(from: from, to: drag.heading ?? from, progress: covered, interactive: true)
            }
            let span = abs(revealed - Double(from))
            return TransitionState(
                from: from, to: drag.announced ?? normalize(revealed), progress: span > 0 ? min(1, distance / span) : 0,
                interactive: true)
        }
    }

    var transitionJSON: JSONValue {
        guard let transition else { return .null }
        return [
            "from": .number(Double(transition.from)), "to": .number(Double(transition.to)),
            "progress": .number(transition.progress), "interactive": .bool(transition.interactive),
        ]
    }

    var inputJSON: JSONValue {
        guard let editing = focusChain.input else { return .null }
        let field = editing.field
        let definition = flow.fields[field]
        var object = JSONObject(minimumCapacity: 7)
        object.append("field", .string(definition.id))
        object.append("view", .string(view(of: field).rawValue))
        switch definition.kind {
        case .duration(let options):
            object.append("draft", definition.json(editing.draft))
            if case .duration(let seconds) = editing.draft {
                var wheels = JSONObject()
                for component in options.components {
                    wheels.append(component.rawValue, .number(Double(options.wheel(component, of: seconds))))
                }
                object.append("wheels", .object(wheels))
            }
            object.append("selectedWheel", .string(options.components[editing.selectedWheel].rawValue))
        case .choice:
            object.append("draft", definition.json(editing.draft))
        case .text:
            object.append("returnKey", .string(effectiveReturnKey(field).rawValue))
        case .toggle:
            break
        }
        object.append(
            "accessory",
            .array(
                accessoryItems(of: field).map { item in
                    ["item": .string(item.rawValue), "enabled": .bool(isAccessoryEnabled(item, field: field))]
                }))
        return .object(object)
    }

    /// The first responder's field id, if any.
    public var focusedField: String? { focusChain.hasInput ? flow.fieldIDs[focusChain.field] : nil }

    /// A field's value as contract JSON.
    public func value(of fieldID: String) -> JSONValue? {
        guard let field = flow.fieldIndex(of: fieldID) else { return nil }
        return flow.fields[field].json(answers.values[field])
    }

    public var completed: Completion? { completion }
}
