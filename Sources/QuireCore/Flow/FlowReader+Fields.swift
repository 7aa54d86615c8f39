/// Fields and their kinds' keys (`fields`, `options`), read as they come.
extension FlowReader {

    /// The keys of a field: those every field has, then each kind's own.
    enum FieldKey: Int, ObjectKey {
        case id, kind, label, defaultValue, required, visibleIf, enabledIf, requiredIf, accessory, reveal
        case placeholder, minLength, maxLength, returnKey
        case components, minuteInterval, min, max
        case options
        static let names: [StaticString] = [
            "id", "kind", "label", "default", "required", "visibleIf", "enabledIf", "requiredIf", "accessory", "reveal",
            "placeholder", "minLength", "maxLength", "returnKey",
            "components", "minuteInterval", "min", "max",
            "options",
        ]

        /// The kind this key belongs to; nil for the keys every field has.
        var kind: KindName? {
            switch self {
            case .placeholder, .minLength, .maxLength, .returnKey: .text
            case .components, .minuteInterval, .min, .max: .duration
            case .options: .choice
            default: nil
            }
        }
    }

    /// The field kinds, as the `kind` key names them.
    enum KindName: Int, CaseIterable {
        case text, duration, choice, toggle
        static let names: [StaticString] = ["text", "duration", "choice", "toggle"]
        var name: StaticString { Self.names[rawValue] }
        /// The keys of this kind.
        var keys: [FieldKey] { FieldKey.allCases.filter { $0.kind == self } }
    }

    static let reservedFieldIDs = ["background"]

    /// What a field's keys of its kind hold, read as they come.
    struct KindValues {
        var text = TextOptions()
        var duration = DurationOptions()
        var durationRangeOK = true
        var options: [ChoiceOptions.Option] = []
        var optionsRead = false
    }

    mutating func field(page: Int, ordinal: Int) throws(JSONScanError) -> Field? {
        guard try isObject("a field") else { return nil }
        var seen = KeysSeen()
        var id: String?
        var kind: KindName?
        var kindRead = false
        var label: LocalizedText?
        var required = false
        /// Where the conditions start: judged once the field's id is known.
        var visibleIf, enabledIf, requiredIf: Int?
        var accessory: [AccessoryItem]?
        var reveal: RevealMode?
        var defaultJSON: JSONValue?
        var values = KindValues()
        /// Keys of a kind met before `kind`: where their values start.
        var later: [(key: FieldKey, offset: Int)] = []
        var unknown = OtherKeys()
        if try beginObject() {
            repeat {
                let key: FieldKey
                switch try memberKey(FieldKey.names, &seen, others: &unknown) {
                case .known(let index): key = FieldKey(rawValue: index)!
                case .other(let name):
                    steps.append(.name(name))
                    _ = try value()
                    steps.removeLast()
                    continue
                case .repeated: continue
                }
                steps.append(.key(key.name))
                defer { steps.removeLast() }
                switch key {
                case .id:
                    if try peek() == UInt8(ascii: "\"") {
                        let text = try stringValue()
                        declare(text, ordinal: ordinal)
                        id = identifier(text, "the field id")
                        if let valid = id, Self.reservedFieldIDs.contains(valid) {
                            problem("the field id '\(valid)' is reserved for taps on the page background")
                        }
                    } else {
                        _ = try string("the field id")
                    }
                case .kind:
                    kindRead = true
                    if try peek() == UInt8(ascii: "\"") {
                        let range = try scanString()
                        let index =
                            usedScratch
                            ? scratch.withUnsafeBufferPointer { Self.match($0, KindName.names) } : Self.match(bytes, range, KindName.names)
                        kind = index.flatMap(KindName.init(rawValue:))
                        if kind == nil {
                            let name = usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(range)
                            problem("unknown field kind '\(name)'; kinds are text, duration, choice, toggle")
                        }
                    } else {
                        _ = try string("kind")
                    }
                case .label: label = try localized("label")
                case .defaultValue:
                    // `"default": null` says "no default", as leaving it out does.
                    // (`JSONValue` is `ExpressibleByNilLiteral`: `nil` is said as `.none`.)
                    let value = try value()
                    defaultJSON = value.isNull ? .none : value
                case .required: required = try bool("required") ?? false
                case .visibleIf: visibleIf = try conditionStart()
                case .enabledIf: enabledIf = try conditionStart()
                case .requiredIf: requiredIf = try conditionStart()
                case .accessory: accessory = accessoryItems(try value(), at: path())
                case .reveal: reveal = revealMode(try value(), at: path())
                default:
                    if let kind, key.kind == kind {
                        try kindValue(key, into: &values)
                    } else {
                        if !kindRead { later.append((key, at)) }
                        _ = try value()
                    }
                }
            } while try nextMember()
        }
        // Keys of another kind name the kind they belong to; with no usable kind, keys that
        // belong to some kind are not judged.
        for key in FieldKey.allCases where seen.has(key) {
            guard let kind, let owner = key.kind, owner != kind else { continue }
            let name = "\(key.name)"
            problem("'\(name)' belongs to \(owner.name) fields, not \(kind.name) fields", at: name, onKey: true)
        }
        for name in unknown.names {
            var message = "unknown key '\(name)' in a field"
            var allowed = FieldKey.allCases.filter { $0.kind == nil }.map { "\($0.name)" }
            if let kind { allowed += kind.keys.map { "\($0.name)" } }
            if let near = DocumentReader.closest(to: name, in: allowed) { message += "; did you mean '\(near)'?" }
            problem(message, at: name, onKey: true)
        }
        if !seen.has(FieldKey.id) { problem("a field is missing the required key 'id'") }
        if !seen.has(FieldKey.kind) { problem("a field is missing the required key 'kind'") }
        if let kind {
            let end = at
            reportsDuplicates = false
            for (key, offset) in later where key.kind == kind {
                at = offset
                steps.append(.key(key.name))
                try kindValue(key, into: &values)
                steps.removeLast()
            }
            reportsDuplicates = true
            at = end
        }
        let scope = Scope(ordinal: ordinal, what: "a field's condition", field: id)
        // (The path is made only for a problem.)
        let (prefix, steps) = (prefix, steps)
        var judged: (Condition?, Condition?, Condition?)
        if let visibleIf {
            judged.0 = try judgeCondition(
                from: visibleIf, at: { Self.path(prefix, steps) + "visibleIf" }, scope: scope, order: (ordinal, 1))
        }
        if let enabledIf {
            judged.1 = try judgeCondition(
                from: enabledIf, at: { Self.path(prefix, steps) + "enabledIf" }, scope: scope, order: (ordinal, 2))
        }
        if let requiredIf {
            judged.2 = try judgeCondition(
                from: requiredIf, at: { Self.path(prefix, steps) + "requiredIf" }, scope: scope, order: (ordinal, 3))
        }
        guard let kind else { return nil }
        let fieldKind: Field.Kind
        // (A default of the right type is taken as it is: its path is made only for a problem.)
        var defaultValue = FieldValue.null
        switch kind {
        case .text:
            let options = values.text
            if let minLength = options.minLength, let maxLength = options.maxLength, minLength > maxLength {
                problem("minLength \(minLength) is greater than maxLength \(maxLength)", at: "minLength")
            }
            if let v = defaultJSON, let text = v.stringValue ?? document.string(v, at: path() + "default", what: "a text field's default") {
                if let maxLength = options.maxLength, text.count > maxLength {
                    problem("the default is \(text.count) characters; maxLength is \(maxLength)", at: "default")
                }
                if let minLength = options.minLength, !text.isEmpty, text.count < minLength {
                    problem("the default is \(text.count) characters; minLength is \(minLength)", at: "default")
                }
                defaultValue = .text(text)
            }
            fieldKind = .text(options)
        case .duration:
            let options = values.duration
            if values.durationRangeOK {
                let hasMin = seen.has(FieldKey.min)
                if options.min > options.max {
                    let minText = hasMin ? "min \(options.min)" : "the default min \(options.min)"
                    let maxText = seen.has(FieldKey.max) ? "max \(options.max)" : "the default max \(options.max)"
                    problem("\(minText) is greater than \(maxText)", at: hasMin ? "min" : "max")
                } else if options.snappedMin > options.clampedMax || options.representable(atLeast: options.min) == nil {
                    problem(
                        "no value from min \(options.min) to max \(options.max) can be shown by the wheels (minuteInterval \(options.minuteInterval))",
                        at: hasMin ? "min" : "max")
                }
            }
            if let v = defaultJSON,
                let n = v.intValue.flatMap({ (0...86_399).contains($0) ? $0 : nil })
                    ?? document.integer(v, at: path() + "default", what: "a duration's default (seconds)", in: 0...86_399)
            {
                if values.durationRangeOK && (n < options.min || n > options.max) {
                    problem("the default \(n) is outside min \(options.min) to max \(options.max)", at: "default")
                } else if !options.isRepresentable(n) {
                    let minutes = (n % 3600) / 60
                    let reason =
                        minutes % options.minuteInterval != 0
                        ? "its minutes (\(minutes)) are not a multiple of minuteInterval \(options.minuteInterval)"
                        : "it has seconds (\(n % 60)) and there is no seconds wheel"
                    problem("the default \(n) cannot be shown by the wheels: \(reason)", at: "default")
                }
                defaultValue = .duration(n)
            }
            fieldKind = .duration(options)
        case .choice:
            if !seen.has(FieldKey.options) { problem("a choice field is missing the required key 'options'") }
            let options = ChoiceOptions(options: values.options)
            if let v = defaultJSON, let text = v.stringValue ?? document.string(v, at: path() + "default", what: "a choice's default") {
                if let at = options.index(of: text) {
                    defaultValue = .choice(at)
                } else {
                    problem(
                        "the default '\(text)' is not an option (options: \(options.options.map(\.id).joined(separator: ", ")))",
                        at: "default")
                }
            }
            fieldKind = .choice(options)
        case .toggle:
            if let v = defaultJSON, let on = v.boolValue ?? document.bool(v, at: path() + "default", what: "a toggle's default") {
                defaultValue = .toggle(on)
            }
            fieldKind = .toggle
        }
        guard let id else { return nil }
        return Field(
            id: id, page: page, kind: fieldKind, label: label, defaultValue: defaultValue, required: required,
            visibleIf: judged.0, enabledIf: judged.1, requiredIf: judged.2, accessory: accessory, reveal: reveal)
    }

    /// Reads the value of `key`, a key of the field's kind.
    mutating func kindValue(_ key: FieldKey, into values: inout KindValues) throws(JSONScanError) {
        switch key {
        case .placeholder: values.text.placeholder = try localized("placeholder")
        case .minLength: values.text.minLength = try integer("minLength", in: 0...Flow.maxTextLength)
        case .maxLength: values.text.maxLength = try integer("maxLength", in: 1...Flow.maxTextLength)
        case .returnKey:
            if let text = try string("returnKey") {
                if let key = ReturnKey(rawValue: text) {
                    values.text.returnKey = key
                } else {
                    problem("returnKey must be 'default', 'next' or 'done', not '\(text)'")
                }
            }
        case .components:
            if let components = components(try value(), at: path()) { values.duration.components = components }
        case .minuteInterval:
            if let n = try integer("minuteInterval", in: 1...30) {
                if 60 % n == 0 {
                    values.duration.minuteInterval = n
                } else {
                    problem("minuteInterval \(n) does not divide 60 (use 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30)")
                }
            }
        case .min:
            if let n = try integer("min", in: 0...86_399) { values.duration.min = n } else { values.durationRangeOK = false }
        case .max:
            if let n = try integer("max", in: 0...86_399) { values.duration.max = n } else { values.durationRangeOK = false }
        case .options:
            values.optionsRead = true
            values.options = try options()
        default:
            break
        }
    }

    enum OptionKey: Int, ObjectKey {
        case id, label
        static let names: [StaticString] = ["id", "label"]
    }

    /// A choice's `options`.
    mutating func options() throws(JSONScanError) -> [ChoiceOptions.Option] {
        var options: [ChoiceOptions.Option] = []
        guard try isArray("options") else { return options }
        guard try beginArray() else {
            problem("a choice needs at least one option")
            return options
        }
        var index = 0
        var ids = Set<String>()  // (past 16 options; before, they are compared one by one)
        repeat {
            if index == Flow.maxOptions { problem("a choice has at most \(Flow.maxOptions) options") }
            steps.append(.index(index))
            if index < Flow.maxOptions, let option = try option() {
                let repeated =
                    options.count < 16 ? options.contains { $0.id == option.id } : !ids.insert(option.id).inserted
                if options.count == 15 { ids = Set(options.map(\.id) + [option.id]) }
                if !repeated {
                    options.append(option)
                } else {
                    problem("duplicate option id '\(option.id)'", at: "id")
                }
            } else if index >= Flow.maxOptions {
                _ = try value()
            }
            steps.removeLast()
            index += 1
        } while try nextElement()
        return options
    }

    /// An option: its label is judged only when its id is good.
    mutating func option() throws(JSONScanError) -> ChoiceOptions.Option? {
        guard try isObject("an option") else { return nil }
        var seen = KeysSeen()
        var id: String?
        var idRead = false
        var label: LocalizedText?
        var labelAt: Int?
        var others = OtherKeys()
        if try beginObject() {
            repeat {
                guard let key = try member(OptionKey.self, &seen, &others, what: "an option") else { continue }
                steps.append(.key(key.name))
                if key == .id {
                    id = try identifier("the option id")
                    idRead = true
                } else if idRead {
                    if id != nil { label = try localized("label") } else { _ = try value() }
                } else {
                    labelAt = at
                    _ = try value()
                }
                steps.removeLast()
            } while try nextMember()
        }
        if !seen.has(OptionKey.id) { problem("an option is missing the required key 'id'") }
        guard let id else { return nil }
        if let labelAt {
            let end = at
            at = labelAt
            reportsDuplicates = false
            steps.append(.key("label"))
            label = try localized("label")
            steps.removeLast()
            reportsDuplicates = true
            at = end
        }
        return ChoiceOptions.Option(id: id, label: label)
    }
}
