// FoundationEssentials where the toolchain splits Foundation (Linux): libquire then needs neither
// Foundation's full library nor ICU, most of a headless host's memory (docs/embedding.md).
#if canImport(FoundationEssentials)
    import FoundationEssentials
    #if canImport(Glibc)
        import Glibc
    #endif
#else
    import Foundation
#endif
import Synchronization

/// Reads a flow: one pass over the document's bytes that checks everything CONTRACT §1 requires
/// and builds the `Flow` as it goes, with no `JSONValue` tree of the document.
///
/// Every problem is recorded with its JSON path (the reader keeps the path it is at as a stack of
/// steps, made a `JSONPath` only for a problem); `DocumentReader.diagnostics` then places them as
/// `file:line:column` by scanning the document again, which happens only when there is a problem.
/// A syntax error stops the reading, and `JSONParser` reads the document again to name it.
///
/// Values are read in document order. What one member needs from another is kept until the end
/// of its object: a field's conditions, default and bounds are judged once its id and kind are
/// known, and keys of its kind met before `kind`, and conditions, are read again from where they
/// start. A condition may name only earlier fields, so a field it names that is not known yet is
/// a problem either way; which one (unknown, or looking ahead) is decided at the end of the
/// document. Small parts that are rare or judged whole (`paging`, `accessory`, a default,
/// `components`, a condition's operand) are read as `JSONValue`s by the same reader and judged
/// from those.
struct FlowReader: JSONScanning {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    let folder: String?
    /// The document the bytes belong to: display strings are kept as places in it
    /// (`LocalizedText`), made `String`s only when a front asks for them.
    let source: FlowDocument?
    /// Where the problems go, by JSON path.
    var document: DocumentReader
    /// The path of the flow in its document (`$.flow` for a script's inline flow).
    let prefix: JSONPath
    var at = 0
    var depth = 0
    /// The path from the flow to the value being read.
    var steps: [JSONStep] = []
    /// Decoded bytes of the last string that held escapes.
    var scratch: [UInt8] = []
    /// Off while a value is read a second time, so its repeated keys are reported once.
    var reportsDuplicates = true

    // What is known about the fields so far.
    var fields: [Field] = []
    var pages: [Page] = []
    var pageIndex: [String: Int] = [:]
    /// Every field id met, with its ordinal (fields are numbered across the flow in document
    /// order, counting every entry of every `fields` list, whatever it holds); the first of
    /// repeated ids keeps its number. For a flow that loads, the ordinal is the field's index.
    var declared: [String: Int] = [:]
    /// For each ordinal: the page and place on it (for "the field at $.pages[p].fields[f]"),
    /// and the index of the field in `fields`, -1 while it is not built (it had problems).
    var places: [Place] = []
    var ordinal = 0
    /// Conditions naming a field that was not known yet; decided at the end of the document.
    var pending: [Pending] = []
    var hintsGiven = 0
    /// The keys of the objects `check()` is in.
    var checkedNames: [String] = []

    struct Place {
        var page: Int32
        var slot: Int32
        var built: Int32 = -1
    }

    struct Pending {
        /// The problem recorded for it, to be given its message; nil when it was only counted.
        var problem: Int?
        var name: String
        var scope: Scope
        var order: (Int, Int, Int)
    }

    struct Scope {
        /// Conditions may name fields declared before this ordinal.
        var ordinal: Int
        var what: String
        /// The field whose condition this is (nil for a page's).
        var field: String?
    }

    init(
        bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, folder: String?, source: FlowDocument?,
        document: DocumentReader, prefix: JSONPath = .root
    ) {
        self.bytes = bytes
        self.limits = limits
        self.folder = folder
        self.source = source
        self.document = document
        self.prefix = prefix
    }

    // MARK: Entry points

    /// Reads the flow in a file's bytes; a bad flow is rejected whole with every problem listed.
    static func flow(_ bytes: [UInt8], file: String, folder: String?, limits: JSONLimits) throws(DocumentError) -> Flow {
        guard JSONParser.mayScan(bytes, limits: limits) else {
            throw syntaxError(bytes, file: file, limits: limits)
        }
        let source = FlowDocument(bytes: bytes, limits: limits)
        let read: (Flow?, DocumentReader)? = bytes.withUnsafeBufferPointer { buffer in
            var reader = FlowReader(
                bytes: buffer, limits: limits, folder: folder, source: source,
                document: DocumentReader(file: file, bytes: bytes))
            do { return (try reader.readDocument(), reader.document) } catch { return nil }
        }
        guard let (flow, document) = read else { throw syntaxError(bytes, file: file, limits: limits) }
        guard !document.hasProblems, let flow else { throw DocumentError(document.diagnostics()) }
        return flow
    }

    /// Reads a flow given as a value at `path` of a document being read (a script's inline flow,
    /// a snapshot's embedded one): written out and read as any flow, its problems recorded at
    /// their paths in `reader`. Nil when there were any.
    static func flow(_ value: JSONValue, at path: JSONPath, reader: inout DocumentReader) -> Flow? {
        let bytes = JSONWriter.data(value)
        // The value was read under its document's limits already.
        let limits = JSONLimits(documentBytes: .max, depth: .max, stringBytes: .max)
        let source = FlowDocument(bytes: bytes, limits: limits)
        let before = reader
        let read: (Flow?, DocumentReader)? = bytes.withUnsafeBufferPointer { buffer in
            var flowReader = FlowReader(
                bytes: buffer, limits: limits, folder: nil, source: source, document: before, prefix: path)
            do { return (try flowReader.readDocument(), flowReader.document) } catch { return nil }
        }
        // A value written by `JSONWriter` always reads.
        guard let (flow, document) = read else { return nil }
        reader = document
        return document.hasProblems ? nil : flow
    }

    /// The syntax error `JSONParser` finds in `bytes`.
    static func syntaxError(_ bytes: [UInt8], file: String, limits: JSONLimits) -> DocumentError {
        do {
            _ = try DocumentReader.parse(file: file, bytes: bytes, limits: limits)
        } catch {
            return error
        }
        // Both read the grammar of `JSONGrammar` under the same limits.
        return DocumentError([Diagnostic.whole(file: file, message: "the document could not be read as JSON")])
    }

    // MARK: The flow

    /// `$schema`: where an editor finds the flow's JSON Schema; read as a string and ignored.
    static let topKeys: [StaticString] = ["format", "id", "title", "paging", "accessory", "pages", "$schema", "validation"]

    /// The fields a document of this size may hold, give or take: the ids' table and the places
    /// are made that big at first (a field with its display strings takes a few hundred bytes).
    var expectedFields: Int { min(bytes.count / 256, Flow.maxFields) }

    mutating func readDocument() throws(JSONScanError) -> Flow? {
        declared.reserveCapacity(expectedFields)
        places.reserveCapacity(expectedFields)
        try startDocument()
        let flow = try flowObject()
        try finishDocument()
        decidePending()
        return flow
    }

    mutating func flowObject() throws(JSONScanError) -> Flow? {
        guard try isObject("a flow") else { return nil }
        var seen = KeysSeen()
        var id: String?
        var title: LocalizedText?
        var paging = Paging()
        var accessory: [AccessoryItem]?
        var reveal = RevealMode.leave
        var others = OtherKeys()
        if try beginObject() {
            repeat {
                guard let key = try member(Self.topKeys, &seen, &others, what: "the flow") else { continue }
                steps.append(.key(Self.topKeys[key]))
                switch key {
                case 0:
                    if let text = try string("format"), text != Flow.format {
                        if text.hasPrefix("quire.flow/") {
                            problem("unknown format version '\(text)'; this Quire reads '\(Flow.format)'")
                        } else {
                            problem("format must be '\(Flow.format)', not '\(text)'")
                        }
                    }
                case 1: id = try identifier("the flow id")
                case 2: title = try localized("title")
                case 3: paging = self.paging(try value(), at: path())
                case 4: accessory = accessoryItems(try value(), at: path())
                case 5: try readPages()
                case 6: _ = try string("$schema")
                default: reveal = validation(try value(), at: path())
                }
                steps.removeLast()
            } while try nextMember()
        }
        for (key, name) in [(0, "format"), (1, "id"), (5, "pages")] where !seen.has(key) {
            problem("the flow is missing the required key '\(name)'")
        }
        guard !document.hasProblems, let id, let source else { return nil }
        var flow = Flow(
            id: id, title: title, paging: paging, accessory: accessory, pages: pages, fields: fields, reveal: reveal,
            source: source, fieldIndex: declared, pageIndex: pageIndex)
        flow.folder = folder
        return flow
    }

    mutating func readPages() throws(JSONScanError) {
        guard try isArray("pages") else { return }
        guard try beginArray() else {
            problem("a flow needs at least one page")
            return
        }
        var index = 0
        repeat {
            steps.append(.index(index))
            if index < Flow.maxPages {
                try page(index: index)
            } else {
                if index == Flow.maxPages {
                    steps.removeLast()
                    problem("a flow has at most \(Flow.maxPages) pages")
                    steps.append(.index(index))
                }
                try declarePage(index: index)
            }
            steps.removeLast()
            index += 1
        } while try nextElement()
    }

    static let pageKeys: [StaticString] = ["id", "title", "body", "visibleIf", "fields", "layout", "apply", "back"]

    mutating func page(index: Int) throws(JSONScanError) {
        let firstOrdinal = ordinal
        guard try isObject("a page") else { return }
        var seen = KeysSeen()
        var id: String?
        var title: LocalizedText?
        var body: LocalizedText?
        var visibleIf: Condition?
        var layout: String?
        var apply: PageApply?
        var back = true
        let start = fields.count
        var others = OtherKeys()
        if try beginObject() {
            repeat {
                guard let key = try member(Self.pageKeys, &seen, &others, what: "a page") else { continue }
                steps.append(.key(Self.pageKeys[key]))
                switch key {
                case 0: id = try identifier("the page id")
                case 1: title = try localized("title")
                case 2: body = try localized("body")
                case 3:
                    let scope = Scope(ordinal: firstOrdinal, what: "a page's condition", field: nil)
                    let start = try conditionStart()
                    let (prefix, steps) = (prefix, steps)
                    visibleIf = try judgeCondition(from: start, at: { Self.path(prefix, steps) }, scope: scope, order: (firstOrdinal, 0))
                case 4: try readFields(page: index, declareOnly: false)
                case 5: layout = try self.layout()
                case 6: apply = try self.apply()
                default: back = try bool("back") ?? true
                }
                steps.removeLast()
            } while try nextMember()
        }
        if !seen.has(0) { problem("a page is missing the required key 'id'") }
        guard let id else { return }
        // (`pageIndex` keeps the page's place in the document: the same as in `pages` once it loads.)
        if let earlier = pageIndex[id] {
            problem("duplicate page id '\(id)' (the page at $.pages[\(earlier)] has it too)", at: "id")
            return
        }
        pageIndex[id] = index
        pages.append(
            Page(
                id: id, title: title, body: body, visibleIf: visibleIf, fieldRange: start..<fields.count, layout: layout,
                apply: apply, back: back))
    }

    /// A page past the last one read: only its field ids are taken (repeated ones are problems).
    mutating func declarePage(index: Int) throws(JSONScanError) {
        try readOnly(member: 4, of: Self.pageKeys, startingWith: UInt8(ascii: "[")) { reader throws(JSONScanError) in
            try reader.readFields(page: index, declareOnly: true)
        }
    }

    /// An object past a limit, of which only one member is read (`take`, when its value starts
    /// with `start`); every other member, and a value that is not an object, is stepped over and
    /// checked as any value is.
    mutating func readOnly(
        member wanted: Int, of keys: [StaticString], startingWith start: UInt8,
        _ take: (inout FlowReader) throws(JSONScanError) -> Void
    ) throws(JSONScanError) {
        guard try peek() == UInt8(ascii: "{") else {
            _ = try value()
            return
        }
        var seen = KeysSeen()
        var others = OtherKeys()
        if try beginObject() {
            repeat {
                guard let key = try member(keys, &seen, &others, what: nil) else { continue }
                steps.append(.key(keys[key]))
                if key == wanted, try peek() == start {
                    try take(&self)
                } else {
                    _ = try value()
                }
                steps.removeLast()
            } while try nextMember()
        }
    }

    static let applyKeys: [StaticString] = ["label", "timeoutMs"]

    /// A page's `apply`: `label` (a display string) and `timeoutMs` (0, or 100–600000).
    mutating func apply() throws(JSONScanError) -> PageApply? {
        guard try isObject("apply") else { return nil }
        var seen = KeysSeen()
        var others = OtherKeys()
        var label: LocalizedText?
        var timeout = 0
        if try beginObject() {
            repeat {
                guard let key = try member(Self.applyKeys, &seen, &others, what: "apply") else { continue }
                steps.append(.key(Self.applyKeys[key]))
                if key == 0 {
                    label = try localized("label")
                } else if let n = try integer("timeoutMs", in: 0...PageApply.timeouts.upperBound) {
                    if n > 0 && n < PageApply.timeouts.lowerBound {
                        problem("timeoutMs must be 0 (wait for ever) or at least \(PageApply.timeouts.lowerBound), not \(n)")
                    } else {
                        timeout = n
                    }
                }
                steps.removeLast()
            } while try nextMember()
        }
        if !seen.has(0) { problem("apply is missing the required key 'label' (what the page is doing, such as 'Creating your account…')") }
        guard let label else { return nil }
        return PageApply(label: label, timeoutMs: timeout)
    }

    /// A page's `layout`: a usable path, and with a folder, a file inside it (`PageLayout`).
    mutating func layout() throws(JSONScanError) -> String? {
        guard let text = try string("layout") else { return nil }
        if let problem = PageLayout.pathProblem(text) {
            self.problem(problem)
            return nil
        }
        if let folder, case .failure(let problem) = PageLayout.resolve(text, inFolder: folder) {
            self.problem(problem.message)
            return nil
        }
        return text
    }

    /// A page's `fields` (`declareOnly`: a page past the limit, whose field ids are only taken).
    mutating func readFields(page: Int, declareOnly: Bool) throws(JSONScanError) {
        if !declareOnly { guard try isArray("fields") else { return } }
        guard try beginArray() else { return }
        var slot = 0
        var stopped: (slot: Int, message: String)?
        repeat {
            steps.append(.index(slot))
            if stopped == nil, !declareOnly {
                if slot == Flow.maxFieldsPerPage {
                    stopped = (slot, "")
                } else if fields.count >= Flow.maxFields {
                    stopped = (slot, "a flow has at most \(Flow.maxFields) fields")
                    problem(stopped!.message)
                }
            }
            places.append(Place(page: Int32(page), slot: Int32(slot)))
            if stopped == nil, !declareOnly {
                if let field = try field(page: page, ordinal: ordinal) {
                    places[ordinal].built = Int32(fields.count)
                    fields.append(field)
                }
            } else {
                try declareField(ordinal: ordinal)
            }
            ordinal += 1
            steps.removeLast()
            slot += 1
        } while try nextElement()
        if let stopped, stopped.message.isEmpty {
            steps.append(.index(stopped.slot))
            problem("a page has at most \(Flow.maxFieldsPerPage) fields (this one has \(slot))")
            steps.removeLast()
        }
    }

    /// Takes the id of a field (a string anywhere), reporting one met before.
    mutating func declare(_ id: String, ordinal: Int) {
        // (One lookup: a repeated id is entered again, then given back its first number.)
        if let earlier = declared.updateValue(ordinal, forKey: id) {
            declared[id] = earlier
            let place = places[earlier]
            let path = prefix + "pages" + Int(place.page) + "fields" + Int(place.slot)
            problem(
                "duplicate field id '\(id)' (ids are unique in the whole flow; the field at \(path) has it too)")
        }
    }

    /// A field past a limit: only its id is taken.
    mutating func declareField(ordinal: Int) throws(JSONScanError) {
        try readOnly(member: 0, of: Self.fieldKeys, startingWith: UInt8(ascii: "\"")) { reader throws(JSONScanError) in
            reader.declare(try reader.stringValue(), ordinal: ordinal)
        }
    }

    // MARK: Fields

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

    // MARK: Parts judged whole

    /// `validation`: `{"reveal": MODE}`, when errors are first shown.
    mutating func validation(_ value: JSONValue, at path: JSONPath) -> RevealMode {
        guard let object = document.object(value, at: path, what: "validation") else { return .leave }
        document.checkKeys(object, at: path, allowed: ["reveal"], what: "validation")
        guard let v = object["reveal"] else { return .leave }
        return revealMode(v, at: path + "reveal") ?? .leave
    }

    /// A `reveal` mode: leave, change or submit.
    mutating func revealMode(_ value: JSONValue, at path: JSONPath) -> RevealMode? {
        guard let text = document.string(value, at: path, what: "reveal") else { return nil }
        if let mode = RevealMode(rawValue: text) { return mode }
        document.error(path, "reveal must be 'leave', 'change' or 'submit', not '\(text)'")
        return nil
    }

    static let pagingKeys = ["wrap", "swipe", "gate", "indicator", "snapDistance", "flingVelocity", "animationMs", "autoAdvanceMs"]

    mutating func paging(_ value: JSONValue, at path: JSONPath) -> Paging {
        var paging = Paging()
        guard let object = document.object(value, at: path, what: "paging") else { return paging }
        document.checkKeys(object, at: path, allowed: Self.pagingKeys, what: "paging")
        if let v = object["wrap"], let b = document.bool(v, at: path + "wrap", what: "wrap") { paging.wrap = b }
        if let v = object["swipe"], let b = document.bool(v, at: path + "swipe", what: "swipe") { paging.swipe = b }
        if let v = object["gate"], let text = document.string(v, at: path + "gate", what: "gate") {
            if let gate = Paging.Gate(rawValue: text) {
                paging.gate = gate
            } else {
                document.error(path + "gate", "gate must be 'valid' or 'none', not '\(text)'")
            }
        }
        if let v = object["indicator"], let indicator = document.object(v, at: path + "indicator", what: "indicator") {
            let at = path + "indicator"
            document.checkKeys(indicator, at: at, allowed: ["style", "hidesForSinglePage"], what: "the indicator")
            if let v = indicator["style"], let text = document.string(v, at: at + "style", what: "style") {
                if let style = Paging.IndicatorStyle(rawValue: text) {
                    paging.indicatorStyle = style
                } else {
                    document.error(at + "style", "style must be 'dots', 'numbers' or 'none', not '\(text)'")
                }
            }
            if let v = indicator["hidesForSinglePage"],
                let b = document.bool(v, at: at + "hidesForSinglePage", what: "hidesForSinglePage")
            {
                paging.hidesForSinglePage = b
            }
        }
        if let v = object["snapDistance"], let n = document.number(v, at: path + "snapDistance", what: "snapDistance", in: 0.01...1) {
            paging.snapDistance = n
        }
        if let v = object["flingVelocity"],
            let n = document.number(v, at: path + "flingVelocity", what: "flingVelocity", in: 1...100_000)
        {
            paging.flingVelocity = n
        }
        if let v = object["animationMs"], let n = document.integer(v, at: path + "animationMs", what: "animationMs", in: 0...10_000) {
            paging.animationMs = Double(n)
        }
        if let v = object["autoAdvanceMs"],
            let n = document.integer(v, at: path + "autoAdvanceMs", what: "autoAdvanceMs", in: 0...3_600_000)
        {
            if n > 0 && n < 100 {
                document.error(path + "autoAdvanceMs", "autoAdvanceMs must be 0 (off) or at least 100, not \(n)")
            }
            paging.autoAdvanceMs = Double(n)
        }
        return paging
    }

    mutating func accessoryItems(_ value: JSONValue, at path: JSONPath) -> [AccessoryItem]? {
        guard let list = document.array(value, at: path, what: "accessory") else { return nil }
        var items: [AccessoryItem] = []
        let names = AccessoryItem.allCases.map(\.rawValue)
        for (at, entry) in list.enumerated() {
            guard let name = document.string(entry, at: path + at, what: "an accessory item") else { continue }
            guard let item = AccessoryItem(rawValue: name) else {
                var message = "unknown accessory item '\(name)'; items are \(names.joined(separator: ", "))"
                if let near = DocumentReader.closest(to: name, in: names) {
                    message = "unknown accessory item '\(name)'; did you mean '\(near)'?"
                }
                document.error(path + at, message)
                continue
            }
            if item != .flexibleSpace && item != .fixedSpace && items.contains(item) {
                document.error(path + at, "accessory item '\(name)' appears twice")
                continue
            }
            items.append(item)
        }
        return items
    }

    /// A duration's `components`: exactly `["hours", "minutes"]` or `["hours", "minutes", "seconds"]`.
    mutating func components(_ value: JSONValue, at path: JSONPath) -> [DurationComponent]? {
        guard let list = document.array(value, at: path, what: "components") else { return nil }
        var itemsOK = true
        for (at, item) in list.enumerated() where DurationComponent(rawValue: item.stringValue ?? "") == nil {
            itemsOK = false
            document.error(path + at, "a component is \"hours\", \"minutes\" or \"seconds\", not \(item)")
        }
        let names = list.compactMap(\.stringValue)
        if names == ["hours", "minutes"] { return [.hours, .minutes] }
        if names == ["hours", "minutes", "seconds"] { return [.hours, .minutes, .seconds] }
        if itemsOK {
            document.error(path, "components must be [\"hours\",\"minutes\"] or [\"hours\",\"minutes\",\"seconds\"]")
        }
        return nil
    }

    // MARK: Conditions

    /// A condition's comparisons, in the order of `comparisonKeys` and `conditionKeys`.
    enum Comparison: String, CaseIterable {
        case equals, notEquals, `in`, greaterThan, lessThan, filled
    }
    static let comparisonKeys = Comparison.allCases.map(\.rawValue)
    /// The keys of a condition object: `field`, `all`, `any`, `not`, then `comparisonKeys`.
    static let conditionKeys: [StaticString] = [
        "field", "all", "any", "not", "equals", "notEquals", "in", "greaterThan", "lessThan", "filled",
    ]

    /// Steps over the value here, checking it and reporting its repeated keys as `value()` does,
    /// without building it.
    mutating func check() throws(JSONScanError) {
        switch try peek() {
        case UInt8(ascii: "{"):
            guard try beginObject() else { return }
            // (The names of the objects being checked, one after another: this one's from `first`.)
            let first = checkedNames.count
            repeat {
                let (name, keyAt) = try memberName()
                steps.append(.name(name))
                if checkedNames[first...].contains(name) {
                    try duplicate(keyAt: keyAt, read: false)
                } else {
                    checkedNames.append(name)
                }
                try check()
                steps.removeLast()
            } while try nextMember()
            checkedNames.removeLast(checkedNames.count - first)
        case UInt8(ascii: "["):
            guard try beginArray() else { return }
            var index = 0
            repeat {
                steps.append(.index(index))
                try check()
                steps.removeLast()
                index += 1
            } while try nextElement()
        default: try skip()
        }
    }

    /// Where the condition here starts, after checking it as `value()` reads it (its repeated
    /// keys are reported now): it is judged in place once its scope is known (`judgeCondition`).
    mutating func conditionStart() throws(JSONScanError) -> Int {
        skipWhitespace()
        let start = at
        try check()
        return start
    }

    /// Judges the condition that starts at `start`, reading it again in place.
    mutating func judgeCondition(from start: Int, at path: () -> JSONPath, scope: Scope, order: (Int, Int)) throws(JSONScanError)
        -> Condition?
    {
        let (end, reports) = (at, reportsDuplicates)
        reportsDuplicates = false
        defer { (at, reportsDuplicates) = (end, reports) }
        return try condition(from: start, at: path, scope: scope, order: order)
    }

    /// What a condition object holds: where the value of each of its keys of `conditionKeys`
    /// starts (the first, when a key is repeated), and whether it has other keys.
    struct ConditionMembers {
        var seen = KeysSeen()
        var field, all, any, not: Int?
        /// The comparison, when there is one, and where its value starts.
        var comparison: (kind: Comparison, start: Int)?
        var others = false
        /// How many of `comparisonKeys` it has.
        var comparisons: Int { (seen.bits >> 4).nonzeroBitCount }
        /// Whether it has a key besides `key` (an index of `conditionKeys`).
        func hasOtherKeys(than key: Int) -> Bool { others || seen.bits & ~(1 << UInt32(key)) != 0 }
    }

    /// The members of the condition object here.
    mutating func conditionMembers() throws(JSONScanError) -> ConditionMembers {
        var members = ConditionMembers()
        guard try beginObject() else { return members }
        repeat {
            let key = try anyKey()
            let index =
                usedScratch
                ? scratch.withUnsafeBufferPointer { Self.match($0, Self.conditionKeys) } : Self.match(bytes, key, Self.conditionKeys)
            try colon()
            skipWhitespace()
            if let index {
                if members.seen.first(index) {
                    switch index {
                    case 0: members.field = at
                    case 1: members.all = at
                    case 2: members.any = at
                    case 3: members.not = at
                    default: members.comparison = (Comparison.allCases[index - 4], at)
                    }
                }
            } else {
                members.others = true
            }
            try skip()
        } while try nextMember()
        return members
    }

    /// A condition of `scope`, read at `start`; `order` places it among the flow's conditions
    /// (page, then its fields in order, each field's `visibleIf`, `enabledIf`, `requiredIf`).
    /// Its members are found first; the problems that list its keys read it whole, as a value.
    mutating func condition(from start: Int, at path: () -> JSONPath, scope: Scope, order: (Int, Int)) throws(JSONScanError)
        -> Condition?
    {
        // (Paths are made only for a problem: a condition's reads check before they report.)
        at = start
        guard try peek() == UInt8(ascii: "{") else {
            _ = document.object(try value(), at: path(), what: "a condition")
            return nil
        }
        let members = try conditionMembers()
        func object() throws(JSONScanError) -> JSONObject {
            at = start
            guard case .object(let object) = try value() else { preconditionFailure("a condition object read again") }
            return object
        }
        if let listStart = members.all ?? members.any {
            let key = members.all != nil ? "all" : "any"
            if members.hasOtherKeys(than: members.all != nil ? 1 : 2) {
                document.checkKeys(try object(), at: path(), allowed: [key], what: "an '\(key)' condition")
            }
            at = listStart
            guard try peek() == UInt8(ascii: "[") else {
                _ = document.array(try value(), at: path() + key, what: "'\(key)'")
                return nil
            }
            var partStarts: [Int] = []
            if try beginArray() {
                repeat {
                    skipWhitespace()
                    partStarts.append(at)
                    try skip()
                } while try nextElement()
            }
            if partStarts.isEmpty {
                document.error(path() + key, "'\(key)' needs at least one condition")
                return nil
            }
            var parts: [Condition] = []
            for (index, partStart) in partStarts.enumerated() {
                if let condition = try condition(from: partStart, at: { path() + key + index }, scope: scope, order: order) {
                    parts.append(condition)
                }
            }
            guard parts.count == partStarts.count else { return nil }
            return key == "all" ? .all(parts) : .any(parts)
        }
        if let inner = members.not {
            if members.hasOtherKeys(than: 3) {
                document.checkKeys(try object(), at: path(), allowed: ["not"], what: "a 'not' condition")
            }
            return try condition(from: inner, at: { path() + "not" }, scope: scope, order: order).map(Condition.not)
        }
        guard let fieldStart = members.field else {
            let before = document.problems.count + document.uncountedProblems
            document.checkKeys(
                try object(), at: path(), allowed: ["field", "all", "any", "not"] + Self.comparisonKeys, what: "a condition")
            if document.problems.count + document.uncountedProblems == before {
                document.error(
                    path(), "a condition needs 'field' with one of \(Self.comparisonKeys.joined(separator: ", ")), or 'all', 'any' or 'not'"
                )
            }
            return nil
        }
        if members.others {
            document.checkKeys(try object(), at: path(), allowed: ["field"] + Self.comparisonKeys, what: "a condition")
        }
        guard members.comparisons == 1, let (comparison, operandStart) = members.comparison else {
            // (Named in the order they are written.)
            let operators = try members.comparisons == 0 ? [] : object().keys.filter { Self.comparisonKeys.contains($0) }
            document.error(
                path(),
                operators.isEmpty
                    ? "a condition on a field needs one of \(Self.comparisonKeys.joined(separator: ", "))"
                    : "a condition has one comparison, not \(operators.joined(separator: " and "))")
            return nil
        }
        let op = comparison.rawValue
        at = fieldStart
        guard try peek() == UInt8(ascii: "\"") else {
            _ = document.string(try value(), at: path() + "field", what: "'field'")
            return nil
        }
        let name = try stringValue()
        guard let declaredOrdinal = declared[name] else {
            // Unknown, or declared further on: decided at the end of the document.
            pending.append(
                Pending(
                    problem: document.reserve(path() + "field"), name: name, scope: scope,
                    order: (order.0, order.1, pending.count)))
            return nil
        }
        if name == scope.field {
            document.error(
                path() + "field", "the condition names its own field '\(name)'; a field's conditions may name earlier fields only")
            return nil
        }
        guard declaredOrdinal < scope.ordinal else {
            document.error(path() + "field", Self.looksAhead(name, scope))
            return nil
        }
        let built = Int(places[declaredOrdinal].built)
        guard built >= 0 else { return nil }  // that field had problems of its own
        at = operandStart
        let operand = try value()
        func operandPath() -> JSONPath { path() + op }
        switch comparison {
        case .filled:
            guard case .bool(let filled) = operand else {
                _ = document.bool(operand, at: operandPath(), what: "'filled'")
                return nil
            }
            return .filled(field: built, filled)
        case .greaterThan, .lessThan:
            guard case .duration = fields[built].kind else {
                document.error(operandPath(), "'\(op)' compares durations; '\(name)' is a \(fields[built].kind.name) field")
                return nil
            }
            guard let bound = document.number(operand, at: operandPath(), what: "'\(op)'", in: -1e9...1e9) else { return nil }
            return comparison == .greaterThan ? .greaterThan(field: built, bound) : .lessThan(field: built, bound)
        case .in:
            guard let list = document.array(operand, at: operandPath(), what: "'in'") else { return nil }
            if list.isEmpty {
                document.error(operandPath(), "'in' needs at least one value")
                return nil
            }
            var values: [FieldValue] = []
            for (at, item) in list.enumerated() {
                if let value = comparable(item, at: { operandPath() + at }, field: built, name: name) { values.append(value) }
            }
            return values.count == list.count ? .oneOf(field: built, values) : nil
        case .equals, .notEquals:
            guard let value = comparable(operand, at: operandPath, field: built, name: name) else { return nil }
            return comparison == .equals ? .equals(field: built, value) : .notEquals(field: built, value)
        }
    }

    /// The path of `steps` under `prefix` (`path()`, from a copy of the steps).
    static func path(_ prefix: JSONPath, _ steps: [JSONStep]) -> JSONPath {
        var components = prefix.components
        for step in steps {
            switch step {
            case .key(let key): components.append(.key("\(key)"))
            case .name(let name): components.append(.key(name))
            case .range: preconditionFailure("a condition is inside no display string")
            case .index(let index): components.append(.index(index))
            }
        }
        return JSONPath(components: components)
    }

    static func looksAhead(_ name: String, _ scope: Scope) -> String {
        "the condition looks ahead: '\(name)' is not answered before this point (\(scope.what) may name fields of earlier pages\(scope.what.hasPrefix("a field") ? " or earlier on its own page" : " only"))"
    }

    /// Gives each condition that named a field not known when it was read its message: the
    /// field is further on, or nowhere. Hints go to the first few, in the flow's order.
    mutating func decidePending() {
        guard !pending.isEmpty else { return }
        var sortedIDs: [String]?
        for entry in pending.sorted(by: { $0.order < $1.order }) {
            let message: String
            if declared[entry.name] != nil {
                message = Self.looksAhead(entry.name, entry.scope)
            } else {
                var text = "the condition names the unknown field '\(entry.name)'"
                // Hints cost a comparison with every field: given for the first few only.
                hintsGiven += 1
                if hintsGiven <= 20 {
                    if sortedIDs == nil { sortedIDs = declared.keys.sorted() }
                    if let near = DocumentReader.closest(to: entry.name, in: sortedIDs!) { text += "; did you mean '\(near)'?" }
                }
                message = text
            }
            if let problem = entry.problem { document.setMessage(message, ofProblem: problem) }
        }
    }

    /// A value a condition compares a field with (`fields[field]`): of the field's kind (an option
    /// id for choices).
    mutating func comparable(_ value: JSONValue, at path: () -> JSONPath, field built: Int, name: String) -> FieldValue? {
        if case .null = value {
            document.error(path(), "compare with null through {\"field\": \"\(name)\", \"filled\": false}")
            return nil
        }
        if let converted = fields[built].value(from: value) { return converted }
        switch fields[built].kind {
        case .choice(let options):
            if case .string(let text) = value {
                document.error(
                    path(), "'\(text)' is not an option of '\(name)' (options: \(options.options.map(\.id).joined(separator: ", ")))")
            } else {
                document.error(path(), "'\(name)' is a choice; compare it with an option id, not \(value.typeName)")
            }
        case .text: document.error(path(), "'\(name)' is a text field; compare it with a string, not \(value.typeName)")
        case .duration: document.error(path(), "'\(name)' is a duration; compare it with a whole number of seconds, not \(value)")
        case .toggle: document.error(path(), "'\(name)' is a toggle; compare it with true or false, not \(value.typeName)")
        }
        return nil
    }

    // MARK: Values

    /// The id here (`what` names it in problems), or nil after a problem.
    mutating func identifier(_ what: String) throws(JSONScanError) -> String? {
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
        // Most ids are plain: read in place.
        if bytes[at] == UInt8(ascii: "\"") {
            let start = at + 1
            var end = start
            while end < bytes.count, Self.isIDByte(bytes[end]) { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""), end > start, end - start <= 64,
                end - start <= limits.stringBytes
            {
                at = end + 1
                return makeString(start..<end)
            }
        }
        guard let text = try string(what) else { return nil }
        return identifier(text, what)
    }

    @inline(__always) static func isIDByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == 46 || byte == 95 || byte == 45
    }

    /// `text` when it is an id: 1–64 characters from `A-Z a-z 0-9 . _ -`.
    mutating func identifier(_ text: String, _ what: String) -> String? {
        var text = text
        let valid = !text.isEmpty && text.utf8.count <= 64 && text.withUTF8 { $0.allSatisfy(Self.isIDByte) }
        guard valid else {
            if text.utf8.count > 64 && text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x20 }) {
                problem("\(what) is \(text.count) characters long; ids have at most 64")
            } else {
                problem("\(what) '\(text)' must be 1 to 64 characters from A-Z a-z 0-9 . _ -")
            }
            return nil
        }
        return text
    }

    /// A display string: checked here, kept as its place in the document, and made `String`s
    /// only when asked for (`LocalizedText.storage`, through `decodeLocalized`).
    mutating func localized(_ what: StaticString) throws(JSONScanError) -> LocalizedText? {
        skipWhitespace()
        guard at < bytes.count, let source else { throw JSONScanError() }
        let start = at
        switch bytes[at] {
        case UInt8(ascii: "\""):
            try checkedText(what)
        case UInt8(ascii: "{"):
            guard try beginObject() else {
                problem("\(what) needs at least one language")
                return nil
            }
            // The tags met: those of `knownTags` as bits, the others as ranges or decoded.
            var knownMet = KeysSeen()
            if !otherTags.isEmpty { otherTags.removeAll(keepingCapacity: true) }
            var slot = 0
            repeat {
                skipWhitespace()
                let keyAt = at
                let key = try keyHere()
                let step: JSONStep
                let repeated: Bool
                if usedScratch {
                    let text = String(decoding: scratch, as: UTF8.self)
                    step = .name(text)
                    repeated =
                        !otherTags.insert(text).inserted
                        || knownTags.indices.contains { knownMet.has($0) && makeString(knownTags[$0]) == text }
                    if !repeated, !Self.isLanguageTag(text) {
                        problem(Flow.languageTagProblem(text)!, at: text, onKey: true)
                    }
                } else {
                    step = .range(key)
                    // (Display strings list their tags in the same order: the known tag of this
                    // slot is tried first.)
                    let known =
                        slot < knownTags.count && same(knownTags[slot], key) ? slot : knownTags.firstIndex { same($0, key) }
                    if let known {
                        // (An escaped tag met before may be this one.)
                        repeated = !knownMet.first(known) || (!otherTags.isEmpty && otherTags.contains(makeString(key)))
                    } else {
                        let text = makeString(key)
                        repeated = otherTags.contains(text)
                        if !repeated, let known = newTag(key) {
                            _ = knownMet.first(known)
                        } else {
                            otherTags.insert(text)
                        }
                    }
                }
                try colon()
                if repeated {
                    steps.append(step)
                    try duplicate(keyAt: keyAt)
                    steps.removeLast()
                } else {
                    try checkedText(what, tag: step)
                }
                slot += 1
            } while try nextMember()
        default:
            let value = try value()
            problem("\(what) must be a string or an object of language tags to strings, not \(value.typeName)")
            return nil
        }
        return LocalizedText(source: source, offset: start)
    }

    /// A display string's text: a string, of at most `Flow.maxDisplayCharacters` characters.
    /// (`tag`: the language of the text, in an object of languages: the last step of its path,
    /// put on `steps` only to read a value that is not a string, or to report a problem.)
    mutating func checkedText(_ what: StaticString, tag: JSONStep? = nil) throws(JSONScanError) {
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
        func shown() -> String {
            switch tag {
            case .name(let name)?: "\(what) in '\(name)'"
            case .range(let range)?: "\(what) in '\(makeString(range))'"
            default: "\(what)"
            }
        }
        guard bytes[at] == UInt8(ascii: "\"") else {
            if let tag { steps.append(tag) }
            let value = try value()
            _ = document.string(value, at: path(), what: shown())
            if tag != nil { steps.removeLast() }
            return
        }
        let range = try scanString()
        // Characters are never more than bytes: most texts are decided without counting.
        let count = usedScratch ? scratch.count : range.count
        guard count > Flow.maxDisplayCharacters else { return }
        let characters = usedScratch ? String(decoding: scratch, as: UTF8.self).count : makeString(range).count
        if characters > Flow.maxDisplayCharacters {
            if let tag { steps.append(tag) }
            problem(
                "\(shown()) is \(characters) characters long; a display string has at most \(Flow.maxDisplayCharacters) (a longer text takes seconds to lay out)"
            )
            if tag != nil { steps.removeLast() }
        }
    }

    /// The entries of a display string `localized` read at `at`.
    mutating func decodeLocalized() throws(JSONScanError) -> [LocalizedText.Entry] {
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
        if bytes[at] == UInt8(ascii: "\"") { return [LocalizedText.Entry(tag: "", text: try stringValue())] }
        guard try beginObject() else { throw JSONScanError() }
        var entries: [LocalizedText.Entry] = []
        entries.reserveCapacity(4)
        repeat {
            let key = try anyKey()
            let tag = usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(key)
            try colon()
            entries.append(LocalizedText.Entry(tag: tag, text: try stringValue()))
        } while try nextMember()
        return entries
    }

    /// The tags of the display string being read besides those of `knownTags` it has met (and
    /// those written with escapes), decoded, to find a repeated one: a lookup a tag, so a display
    /// string of 20,000 tags is read in time linear in it.
    var otherTags = Set<String>()
    /// The first few different good tags met (a flow's display strings use the same few tags):
    /// each is checked once, and a display string's tags among them are kept as bits.
    var knownTags: [Range<Int>] = []

    /// Checks a tag not among `knownTags`; a good one is added to them while there is room, and
    /// its index returned.
    mutating func newTag(_ key: Range<Int>) -> Int? {
        guard Self.isLanguageTag(UnsafeBufferPointer(rebasing: bytes[key])) else {
            let tag = makeString(key)
            problem(Flow.languageTagProblem(tag)!, at: tag, onKey: true)
            return nil
        }
        guard knownTags.count < 16 else { return nil }
        knownTags.append(key)
        return knownTags.count - 1
    }

    /// Whether `tag` has the shape of a BCP 47 tag: a primary subtag of 2–8 ASCII letters (or
    /// `x`/`X` followed by private-use subtags), then `-`-separated subtags of 1–8 ASCII letters
    /// and digits.
    static func isLanguageTag(_ tag: String) -> Bool {
        var tag = tag
        return tag.withUTF8 { isLanguageTag($0) }
    }

    /// `isLanguageTag` over a tag's UTF-8 bytes.
    static func isLanguageTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let dash = UInt8(ascii: "-")
        @inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        var start = 0
        var first = true
        for end in 0...bytes.count where end == bytes.count || bytes[end] == dash {
            let length = end - start
            if first {
                let privateUse = length == 1 && bytes[start] | 0x20 == UInt8(ascii: "x") && end < bytes.count
                if !privateUse {
                    guard length >= 2 && length <= 8 else { return false }
                    for at in start..<end where !isLetter(bytes[at]) { return false }
                }
                first = false
            } else {
                guard length >= 1 && length <= 8 else { return false }
                for at in start..<end where !(isLetter(bytes[at]) || isDigit(bytes[at])) { return false }
            }
            start = end + 1
        }
        return true
    }

    /// Whether the last `scanString` decoded into `scratch` (it held escapes).
    var usedScratch = false
}

/// A flow's document: the `JSONValue` it was read from, or its bytes, parsed the first time
/// `Flow.document` is asked for (snapshots that embed the flow).
final class FlowDocument: @unchecked Sendable {
    /// Immutable; only `parsed` changes, under its lock. Empty for a flow built from a value.
    let bytes: [UInt8]
    private let limits: JSONLimits
    private let parsed: Mutex<JSONValue?>

    init(_ value: JSONValue) {
        bytes = []
        limits = .default
        parsed = Mutex(value)
    }

    init(bytes: [UInt8], limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
        parsed = Mutex(nil)
    }

    /// The entries of the display string read at `offset` of the bytes.
    func localizedEntries(at offset: Int) -> [LocalizedText.Entry] {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = FlowReader(
                bytes: buffer, limits: limits, folder: nil, source: nil, document: DocumentReader(file: "", bytes: []))
            reader.at = offset
            // The flow was read from these bytes under these limits, so they read again.
            return (try? reader.decodeLocalized()) ?? []
        }
    }

    var value: JSONValue {
        parsed.withLock { parsed in
            if let parsed { return parsed }
            // The flow was read from these bytes under these limits, so they parse.
            let value = (try? JSONParser.parse(bytes, limits: limits).value) ?? .null
            parsed = value
            return value
        }
    }
}
