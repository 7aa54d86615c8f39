/// Fields and their kinds' keys (`fields`, `options`), read as they come.
extension FlowReader {

    static let fieldKeys: [StaticString] = [
        "id", "kind", "label", "default", "required", "visibleIf", "enabledIf", "requiredIf", "accessory", "reveal",
        "placeholder", "minLength", "maxLength", "returnKey",  // text: 10–13
        "components", "minuteInterval", "min", "max",  // duration: 14–17
        "options",  // choice: 18
    ]
    static let commonFieldKeys = 10
    static let kindNames: [StaticString] = ["text", "duration", "choice", "toggle"]
    /// The keys of each kind, as ranges of `fieldKeys`.
    static let kindKeyRanges = [10..<14, 14..<18, 18..<19, 19..<19]
    static let reservedFieldIDs = ["background"]

    /// The kind whose key `key` is (an index of `kindNames`).
    static func owner(of key: Int) -> Int { kindKeyRanges.firstIndex { $0.contains(key) }! }

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
        var kind: Int?
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
        var later: [(key: Int, offset: Int)] = []
        var unknown = OtherKeys()
        if try beginObject() {
            repeat {
                let key: Int
                switch try memberKey(Self.fieldKeys, &seen, others: &unknown) {
                case .known(let index): key = index
                case .other(let name):
                    steps.append(.name(name))
                    _ = try value()
                    steps.removeLast()
                    continue
                case .repeated: continue
                }
                steps.append(.key(Self.fieldKeys[key]))
                defer { steps.removeLast() }
                switch key {
                case 0:
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
                case 1:
                    kindRead = true
                    if try peek() == UInt8(ascii: "\"") {
                        let range = try scanString()
                        kind =
                            usedScratch
                            ? scratch.withUnsafeBufferPointer { Self.match($0, Self.kindNames) } : Self.match(bytes, range, Self.kindNames)
                        if kind == nil {
                            let name = usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(range)
                            problem("unknown field kind '\(name)'; kinds are text, duration, choice, toggle")
                        }
                    } else {
                        _ = try string("kind")
                    }
                case 2: label = try localized("label")
                case 3:
                    // `"default": null` says "no default", as leaving it out does.
                    // (`JSONValue` is `ExpressibleByNilLiteral`: `nil` is said as `.none`.)
                    let value = try value()
                    defaultJSON = value.isNull ? .none : value
                case 4: required = try bool("required") ?? false
                case 5: visibleIf = try conditionStart()
                case 6: enabledIf = try conditionStart()
                case 7: requiredIf = try conditionStart()
                case 8: accessory = accessoryItems(try value(), at: path())
                case 9: reveal = revealMode(try value(), at: path())
                default:
                    if let kind, Self.kindKeyRanges[kind].contains(key) {
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
        for key in Self.commonFieldKeys..<Self.fieldKeys.count where seen.has(key) {
            guard let kind, !Self.kindKeyRanges[kind].contains(key) else { continue }
            let name = "\(Self.fieldKeys[key])"
            problem(
                "'\(name)' belongs to \(Self.kindNames[Self.owner(of: key)]) fields, not \(Self.kindNames[kind]) fields", at: name,
                onKey: true)
        }
        for name in unknown.names {
            var message = "unknown key '\(name)' in a field"
            var allowed = (0..<Self.commonFieldKeys).map { "\(Self.fieldKeys[$0])" }
            if let kind { allowed += Self.kindKeyRanges[kind].map { "\(Self.fieldKeys[$0])" } }
            if let near = DocumentReader.closest(to: name, in: allowed) { message += "; did you mean '\(near)'?" }
            problem(message, at: name, onKey: true)
        }
        if !seen.has(0) { problem("a field is missing the required key 'id'") }
        if !seen.has(1) { problem("a field is missing the required key 'kind'") }
        if let kind {
            let end = at
            reportsDuplicates = false
            for (key, offset) in later where Self.kindKeyRanges[kind].contains(key) {
                at = offset
                steps.append(.key(Self.fieldKeys[key]))
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
        case 0:
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
        case 1:
            let options = values.duration
            if values.durationRangeOK {
                let hasMin = seen.has(16)
                if options.min > options.max {
                    let minText = hasMin ? "min \(options.min)" : "the default min \(options.min)"
                    let maxText = seen.has(17) ? "max \(options.max)" : "the default max \(options.max)"
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
        case 2:
            if !seen.has(18) { problem("a choice field is missing the required key 'options'") }
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
        default:
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
    mutating func kindValue(_ key: Int, into values: inout KindValues) throws(JSONScanError) {
        switch key {
        case 10: values.text.placeholder = try localized("placeholder")
        case 11: values.text.minLength = try integer("minLength", in: 0...Flow.maxTextLength)
        case 12: values.text.maxLength = try integer("maxLength", in: 1...Flow.maxTextLength)
        case 13:
            if let text = try string("returnKey") {
                if let key = ReturnKey(rawValue: text) {
                    values.text.returnKey = key
                } else {
                    problem("returnKey must be 'default', 'next' or 'done', not '\(text)'")
                }
            }
        case 14:
            if let components = components(try value(), at: path()) { values.duration.components = components }
        case 15:
            if let n = try integer("minuteInterval", in: 1...30) {
                if 60 % n == 0 {
                    values.duration.minuteInterval = n
                } else {
                    problem("minuteInterval \(n) does not divide 60 (use 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30)")
                }
            }
        case 16:
            if let n = try integer("min", in: 0...86_399) { values.duration.min = n } else { values.durationRangeOK = false }
        case 17:
            if let n = try integer("max", in: 0...86_399) { values.duration.max = n } else { values.durationRangeOK = false }
        default:
            values.optionsRead = true
            values.options = try options()
        }
    }

    static let optionKeys: [StaticString] = ["id", "label"]

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
                guard let key = try member(Self.optionKeys, &seen, &others, what: "an option") else { continue }
                steps.append(.key(Self.optionKeys[key]))
                if key == 0 {
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
        if !seen.has(0) { problem("an option is missing the required key 'id'") }
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
