/// Snapshots: the whole session as JSON (`quire.snapshot/1`), restorable to an equal session,
/// including a running animation, a drag, an open picker with its draft, and a completed result.
extension Session {
    public static let snapshotFormat = "quire.snapshot/1"

    /// The session as JSON. With `includingFlow` the flow document is embedded, so the snapshot
    /// restores on its own (an autosave survives an edited flow file).
    public func snapshot(includingFlow: Bool = true) -> JSONValue {
        var object = JSONObject(minimumCapacity: 14)
        object.append("format", .string(Self.snapshotFormat))
        object.append("flowID", .string(flow.id))
        if includingFlow { object.append("flow", flow.document) }
        object.append("locale", .string(locale))
        object.append("viewportWidth", .number(viewportWidth))
        object.append("values", stateValue("values")!)
        object.append("touched", .array(flow.fields.indices.filter { touched[$0] }.map { .string(flow.fieldIDs[$0]) }))
        object.append("page", .string(flow.pages[currentPage].id))
        object.append("position", .number(position))
        object.append("motion", snapshotMotion)
        object.append("input", snapshotInput)
        object.append("autoAdvance", snapshotAutoAdvance)
        object.append("completed", stateValue("completed")!)
        return .object(object)
    }

    /// The snapshot's `motion`: the running animation or drag, or null.
    var snapshotMotion: JSONValue {
        guard let motion else { return .null }
        var m = JSONObject()
        switch motion {
        case .animating(let animation):
            m.append("phase", "animating")
            m.append("announced", animation.announced.map { .number(Double($0)) } ?? .null)
            m.append("start", .number(animation.start))
            m.append("target", .number(animation.target))
            m.append("elapsedUs", .number(Double(animation.elapsed)))
        case .dragging(let drag):
            m.append("phase", "dragging")
            m.append("announced", drag.announced.map { .number(Double($0)) } ?? .null)
            m.append("anchor", .number(drag.anchor))
            m.append("dragStart", .number(drag.start))
            m.append("dx", .number(drag.dx))
            m.append("revealed", drag.revealed.map(JSONValue.number) ?? .null)
        }
        return .object(m)
    }

    /// The snapshot's `input`: the first responder with its draft, or null.
    var snapshotInput: JSONValue {
        guard let editing = input else { return .null }
        let definition = flow.fields[editing.field]
        return [
            "field": .string(definition.id), "draft": definition.json(editing.draft),
            "original": definition.json(editing.original), "selectedWheel": .number(Double(editing.selectedWheel)),
        ]
    }

    var snapshotAutoAdvance: JSONValue {
        ["active": .bool(autoAdvance.active), "elapsedUs": .number(Double(autoAdvance.elapsed))]
    }

    /// Restores a snapshot. Without `flow`, the embedded flow is loaded (and validated).
    public init(restoring snapshot: JSONValue, flow: Flow? = nil, file: String = "<snapshot>") throws(DocumentError) {
        var reader = DocumentReader(file: file, bytes: [])
        guard let session = Session.restore(snapshot, at: .root, flow: flow, reader: &reader) else {
            // Positions need the document's text: written only when there is a problem to place.
            throw DocumentError(reader.relocated(in: JSONWriter.data(snapshot)).diagnostics())
        }
        self = session
    }

    /// Restores a snapshot read from a file's bytes, with positions in diagnostics.
    public init(
        restoring bytes: [UInt8], flow: Flow? = nil, file: String = "<snapshot>", limits: JSONLimits = .snapshot
    ) throws(DocumentError) {
        // A snapshot of the given flow, as Quire writes it, is read straight from its bytes; any
        // other document (or any problem) takes the general path below, which places diagnostics.
        if let flow, let session = Session.restoreDirectly(bytes, flow: flow, limits: limits) {
            self = session
            return
        }
        self = try Session.restoreParsing(bytes, flow: flow, file: file, limits: limits)
    }

    /// The general path of `init(restoring:flow:file:limits:)`: the document parsed whole, then
    /// read key by key, every problem placed in the bytes.
    static func restoreParsing(_ bytes: [UInt8], flow: Flow?, file: String, limits: JSONLimits) throws(DocumentError) -> Session {
        let (value, parsed) = try DocumentReader.parse(file: file, bytes: bytes, limits: limits)
        var reader = parsed
        let session = Session.restore(value, at: .root, flow: flow, reader: &reader)
        try reader.finish()
        guard let session else { throw DocumentError(reader.diagnostics()) }
        return session
    }

    /// The answers and the touched marks, when the caller has read `values` and `touched` itself
    /// (`restoreDirectly`): one per field.
    struct ReadAnswers {
        var values: [FieldValue]
        /// The values' `textLength`s.
        var textLengths: [Int]
        var touched: [Bool]
    }

    static let snapshotKeys = [
        "format", "flowID", "flow", "locale", "viewportWidth", "values", "touched", "page", "position", "motion",
        "input", "autoAdvance", "completed",
    ]

    static func restore(
        _ value: JSONValue, at path: JSONPath, flow given: Flow?, reader: inout DocumentReader, read: ReadAnswers? = nil
    ) -> Session? {
        guard let object = reader.object(value, at: path, what: "a snapshot") else { return nil }
        // Another document (a flow, another version) is named as such, not listed key by key.
        switch object["format"] {
        case .string(let other)? where other != snapshotFormat:
            reader.error(
                path + "format",
                other.hasPrefix("quire.snapshot/")
                    ? "unknown format version '\(other)'; this Quire reads '\(snapshotFormat)'"
                    : "a '\(other)' document, not a snapshot ('\(snapshotFormat)')")
            return nil
        case let format? where format.stringValue == nil:
            reader.error(path + "format", "format must be '\(snapshotFormat)', not \(format.typeName)")
            return nil
        default:
            break
        }
        reader.checkKeys(
            object, at: path, allowed: snapshotKeys, required: ["format", "values", "page", "position"], what: "a snapshot")
        var flow = given
        if flow == nil {
            guard let document = object["flow"] else {
                reader.error(path, "the snapshot has no embedded 'flow'; restore it with the flow it was taken from")
                return nil
            }
            flow = Flow.load(document, at: path + "flow", reader: &reader)
        }
        guard let flow, !reader.hasProblems else { return nil }
        if let id = object["flowID"], id != .string(flow.id) {
            reader.error(path + "flowID", "the snapshot was taken from flow \(id), not '\(flow.id)'")
            return nil
        }
        let locale = object["locale"].flatMap { reader.string($0, at: path + "locale", what: "locale") } ?? "en"
        let width =
            object["viewportWidth"].flatMap { reader.number($0, at: path + "viewportWidth", what: "viewportWidth", in: Session.viewportWidths) }
            ?? 800
        // The answers are read first, so the session derives visibility and errors once, from them.
        var answers = read?.values ?? flow.fields.map(\.defaultValue)
        if read == nil, let values = object["values"].flatMap({ reader.object($0, at: path + "values", what: "values") }) {
            for (at, (id, json)) in values.enumerated() {
                // A snapshot of this flow lists its fields in flow order: the id is compared with the
                // field at the same position before it is looked up.
                guard let field = at < flow.fieldIDs.count && flow.fieldIDs[at] == id ? at : flow.fieldIndex(of: id) else {
                    reader.error(path + "values" + id, "the flow has no field '\(id)'", onKey: true)
                    continue
                }
                guard let value = flow.fields[field].value(from: json) else {
                    reader.error(path + "values" + id, "\(json) is not a value of the \(flow.fields[field].kind.name) field '\(id)'")
                    continue
                }
                answers[field] = value
            }
        }
        var session = Session(flow: flow, locale: locale, viewportWidth: width, values: answers, textLengths: read?.textLengths)
        if let read {
            session.touched = read.touched
        } else if let touched = object["touched"].flatMap({ reader.array($0, at: path + "touched", what: "touched") }) {
            for (at, entry) in touched.enumerated() {
                // The entry's path is built only for a problem.
                if case .string(let id) = entry, let field = flow.fieldIndex(of: id) {
                    session.touched[field] = true
                    continue
                }
                if entry.stringValue == nil { _ = reader.string(entry, at: path + "touched" + at, what: "a field id") }
                reader.error(path + "touched" + at, "the flow has no field \(entry)")
            }
        }

        if let page = object["page"].flatMap({ reader.string($0, at: path + "page", what: "page") }) {
            if let index = flow.pageIndex(of: page), session.pageVisible[index] {
                session.currentPage = index
            } else {
                reader.error(path + "page", "'\(page)' is not a visible page of the flow")
            }
        }
        if let position = object["position"].flatMap({ reader.number($0, at: path + "position", what: "position", in: -1e6...1e6) }) {
            session.position = position
        }
        if let motion = object["motion"], motion != .null {
            session.motion = restoreMotion(motion, at: path + "motion", reader: &reader)
        }
        if let input = object["input"], input != .null {
            session.input = restoreInput(input, at: path + "input", session: session, reader: &reader)
        }
        if let auto = object["autoAdvance"].flatMap({ reader.object($0, at: path + "autoAdvance", what: "autoAdvance") }) {
            session.autoAdvance.active = auto["active"].flatMap { reader.bool($0, at: path + "autoAdvance" + "active", what: "active") } ?? false
            session.autoAdvance.elapsed = Int64(
                auto["elapsedUs"].flatMap { reader.integer($0, at: path + "autoAdvance" + "elapsedUs", what: "elapsedUs", in: 0...maxElapsed) } ?? 0)
        }
        if let completed = object["completed"], completed != .null,
            let result = reader.object(completed, at: path + "completed", what: "completed")
        {
            let outcome = result["outcome"].flatMap(\.stringValue).flatMap(Outcome.init(rawValue:))
            let values = result["values"]?.objectValue
            if let outcome, let values {
                session.completion = Completion(outcome: outcome, values: values)
            } else {
                reader.error(path + "completed", "completed needs an outcome ('finished' or 'cancelled') and values")
            }
        }
        if !reader.hasProblems, let problem = session.placeProblem {
            reader.error(path + "position", problem)
        }
        return reader.hasProblems ? nil : session
    }

    /// Why a restored session is not somewhere its pages can be (a hand-edited snapshot), or nil.
    /// Settled, its position is its page. Moving (an animation or a drag), the page it moves to is
    /// on the pages, and so is its position — a rubber band goes at most a page beyond an end;
    /// pages that wrap take any position as the page it stands for. Every snapshot Quire writes
    /// passes; every reader of snapshots goes through here.
    var placeProblem: String? {
        let count = pageCount
        let index = currentIndex
        guard let transition else {
            if position != Double(index) {
                return "position \(JSONWriter.number(position)) is off its page (visible page \(index) of \(count), at position \(index))"
            }
            return nil
        }
        if !flow.paging.wrap, !(position >= -1 && position <= Double(count)) {
            return "position \(JSONWriter.number(position)) is off the pages (\(count) visible pages)"
        }
        if !(0..<count).contains(transition.to) {
            return "it moves to page \(transition.to), off the pages (\(count) visible pages)"
        }
        return nil
    }

    static func restoreMotion(_ value: JSONValue, at path: JSONPath, reader: inout DocumentReader) -> Motion? {
        guard let object = reader.object(value, at: path, what: "motion") else { return nil }
        func number(_ key: String) -> Double? {
            guard let entry = object[key] else {
                reader.error(path, "motion is missing '\(key)'")
                return nil
            }
            return reader.number(entry, at: path + key, what: key, in: -1e9...1e9)
        }
        var announced: Int? = nil
        if let value = object["announced"], value != .null {
            announced = reader.integer(value, at: path + "announced", what: "announced", in: 0...Flow.maxPages)
        }
        switch object["phase"]?.stringValue {
        case "animating":
            guard let start = number("start"), let target = number("target") else { return nil }
            guard let entry = object["elapsedUs"] else {
                reader.error(path, "motion is missing 'elapsedUs'")
                return nil
            }
            guard let elapsed = reader.integer(entry, at: path + "elapsedUs", what: "elapsedUs", in: 0...maxElapsed) else { return nil }
            return .animating(Animation(start: start, target: target, elapsed: Int64(elapsed), announced: announced))
        case "dragging":
            guard let anchor = number("anchor"), let dragStart = number("dragStart"), let dx = number("dx") else { return nil }
            var drag = Drag(anchor: anchor, start: dragStart, dx: dx, announced: announced)
            if let revealed = object["revealed"], revealed != .null {
                drag.revealed = reader.number(revealed, at: path + "revealed", what: "revealed", in: -1e9...1e9)
            }
            return .dragging(drag)
        default:
            reader.error(path + "phase", "phase must be 'dragging' or 'animating'")
            return nil
        }
    }

    /// The longest time a snapshot can say an animation or auto-advance wait has run (µs).
    static let maxElapsed = 1 << 50

    static func restoreInput(_ value: JSONValue, at path: JSONPath, session: Session, reader: inout DocumentReader) -> InputState? {
        guard let object = reader.object(value, at: path, what: "input") else { return nil }
        let flow = session.flow
        guard let id = object["field"]?.stringValue, let field = flow.fieldIndex(of: id) else {
            reader.error(path + "field", "input names no field of the flow")
            return nil
        }
        guard session.canFocus(field), flow.fieldTraits[field].page == session.currentPage else {
            reader.error(path + "field", "'\(id)' cannot be first responder on page '\(flow.pages[session.currentPage].id)'")
            return nil
        }
        let definition = flow.fields[field]
        let draft = object["draft"].flatMap { definition.value(from: $0) } ?? .null
        let original = object["original"].flatMap { definition.value(from: $0) } ?? .null
        let selected = object["selectedWheel"]?.intValue ?? 0
        if flow.fieldTraits[field].isPicker && draft.isNull {
            reader.error(path + "draft", "an open picker needs a draft")
            return nil
        }
        if case .duration(let options) = definition.kind, !(0..<options.components.count).contains(selected) {
            reader.error(path + "selectedWheel", "selectedWheel \(selected) is not a wheel of '\(id)'")
            return nil
        }
        return InputState(field: field, draft: draft, original: original, selectedWheel: selected)
    }
}
