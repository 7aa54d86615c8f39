// FoundationEssentials where the toolchain splits Foundation (Linux).
#if canImport(FoundationEssentials)
    import FoundationEssentials
    #if canImport(Glibc)
        import Glibc
    #endif
#else
    import Foundation
#endif

/// Snapshots: the whole session as JSON (`quire.snapshot/1`), restorable to an equal session,
/// including a running animation, a drag, an open picker with its draft, and a completed result.
/// One writer (`snapshotData`, straight from the session's arrays to the bytes) and one reader
/// (`SnapshotReader`: one pass over the bytes that reads the answers and touched marks where they
/// are and every other member as a value, and records every problem at its JSON path).
extension Session {
    public static let snapshotFormat = "quire.snapshot/1"

    /// The session as a JSON value: the bytes `snapshotData` writes, read back.
    public func snapshot(includingFlow: Bool = true) -> JSONValue {
        // Written by `snapshotData`, so they parse.
        (try? JSONParser.parse(snapshotData(includingFlow: includingFlow), limits: SnapshotReader.unlimited).value) ?? .null
    }

    /// The session as compact JSON (the answers and touched marks go from the session's arrays
    /// straight to the bytes). With `includingFlow` the flow document is embedded, so the
    /// snapshot restores on its own (an autosave survives an edited flow file).
    public func snapshotData(includingFlow: Bool = true) -> [UInt8] {
        var out = JSONOutput(capacity: 256 + 24 * flow.fields.count)
        out.append("{\"format\":")
        JSONWriter.writeString(Self.snapshotFormat, into: &out)
        out.append(",\"flowID\":")
        JSONWriter.writeString(flow.id, into: &out)
        if includingFlow {
            out.append(",\"flow\":")
            JSONWriter.write(flow.document, style: .compact, indent: 0, into: &out)
        }
        out.append(",\"locale\":")
        JSONWriter.writeString(locale, into: &out)
        out.append(",\"viewportWidth\":")
        JSONWriter.writeNumber(viewportWidth, into: &out)
        // `stateValue("values")`: every field in flow order (an empty object is written `{}`).
        out.append(",\"values\":{")
        for field in answers.values.indices {
            if field > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(flow.fieldIDs[field], into: &out)
            out.append(UInt8(ascii: ":"))
            switch answers.values[field] {
            case .null: out.append("null")
            case .text(let text): JSONWriter.writeString(text, into: &out)
            case .duration(let seconds): JSONWriter.writeNumber(Double(seconds), into: &out)
            case .toggle(let on): out.append(on ? "true" : "false")
            case .choice: JSONWriter.write(flow.fields[field].json(answers.values[field]), style: .compact, indent: 0, into: &out)
            }
        }
        out.append("},\"touched\":[")
        var first = true
        for field in answers.touched.indices where answers.touched[field] {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(flow.fieldIDs[field], into: &out)
        }
        out.append("],\"page\":")
        JSONWriter.writeString(flow.pages[pager.currentPage].id, into: &out)
        out.append(",\"position\":")
        JSONWriter.writeNumber(pager.position, into: &out)
        out.append(",\"motion\":")
        JSONWriter.write(snapshotMotion, style: .compact, indent: 0, into: &out)
        out.append(",\"input\":")
        JSONWriter.write(snapshotInput, style: .compact, indent: 0, into: &out)
        out.append(",\"autoAdvance\":")
        JSONWriter.write(snapshotAutoAdvance, style: .compact, indent: 0, into: &out)
        out.append(",\"completed\":")
        JSONWriter.write(stateValue("completed")!, style: .compact, indent: 0, into: &out)
        // Applying (CONTRACT §6.1): written only when there is something to keep.
        if let applying {
            out.append(",\"applying\":")
            let object: JSONValue = [
                "page": .string(flow.pages[applying.page].id), "index": applying.index.map { .number(Double($0)) } ?? .null,
                "target": .number(applying.target), "elapsedUs": .number(Double(applying.elapsed)),
            ]
            JSONWriter.write(object, style: .compact, indent: 0, into: &out)
        }
        if !answers.hostErrors.isEmpty {
            out.append(",\"hostErrors\":")
            var object = JSONObject()
            for field in answers.hostErrors.keys.sorted() {
                let error = answers.hostErrors[field]!
                var entry = JSONObject()
                entry.append("code", .string(error.code.rawValue))
                if let message = error.message { entry.append("message", message.json) }
                object.append(flow.fieldIDs[field], .object(entry))
            }
            JSONWriter.write(.object(object), style: .compact, indent: 0, into: &out)
        }
        if let applyMessage {
            out.append(",\"applyMessage\":")
            JSONWriter.write(applyMessage.json, style: .compact, indent: 0, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out.bytes
    }

    /// The snapshot's `motion`: the running animation or drag, or null.
    var snapshotMotion: JSONValue {
        guard let motion = pager.motion else { return .null }
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
            if let heading = drag.heading { m.append("heading", .number(Double(heading))) }
            if let at = drag.headingAt { m.append("headingAt", .number(at)) }
        }
        return .object(m)
    }

    /// The snapshot's `input`: the first responder with its draft, or null.
    var snapshotInput: JSONValue {
        guard let editing = focusChain.input else { return .null }
        let definition = flow.fields[editing.field]
        return [
            "field": .string(definition.id), "draft": definition.json(editing.draft),
            "original": definition.json(editing.original), "selectedWheel": .number(Double(editing.selectedWheel)),
            "draftChanged": .bool(editing.draftChanged),
        ]
    }

    var snapshotAutoAdvance: JSONValue {
        ["active": .bool(pager.autoAdvance.active), "elapsedUs": .number(Double(pager.autoAdvance.elapsed))]
    }

    /// Restores a snapshot given as a value. Without `flow`, the embedded flow is loaded (and
    /// validated). Diagnostics are placed in the value written as compact JSON.
    public init(restoring snapshot: JSONValue, flow: Flow? = nil, file: String = "<snapshot>") throws(DocumentError) {
        try self.init(restoring: JSONWriter.data(snapshot), flow: flow, file: file, limits: SnapshotReader.unlimited)
    }

    /// Restores a snapshot read from a file's bytes, with positions in diagnostics.
    public init(
        restoring bytes: [UInt8], flow: Flow? = nil, file: String = "<snapshot>", limits: JSONLimits = .snapshot
    ) throws(DocumentError) {
        guard JSONParser.mayScan(bytes, limits: limits) else {
            throw FlowReader.syntaxError(bytes, file: file, limits: limits)
        }
        let read: (Session?, DocumentReader)? = bytes.withUnsafeBufferPointer { buffer in
            var reader = SnapshotReader(bytes: buffer, limits: limits, document: DocumentReader(file: file, bytes: bytes))
            do { return (try reader.read(flow: flow), reader.document) } catch { return nil }
        }
        guard let (session, document) = read else { throw FlowReader.syntaxError(bytes, file: file, limits: limits) }
        guard !document.hasProblems, let session else { throw DocumentError(document.diagnostics()) }
        self = session
    }

    static let snapshotKeys = [
        "format", "flowID", "flow", "locale", "viewportWidth", "values", "touched", "page", "position", "motion",
        "input", "autoAdvance", "completed", "applying", "hostErrors", "applyMessage",
    ]

    /// Restores the snapshot whose members are in `object` (`values` and `touched` stand for
    /// themselves: `reader` reads them where they are, once the flow is known).
    static func restore(
        _ object: JSONObject, at path: JSONPath, flow given: Flow?, reader: inout SnapshotReader
    ) throws(JSONScanError) -> Session? {
        // Another document (a flow, another version) is named as such, not listed key by key.
        switch object["format"] {
        case .string(let other)? where other != snapshotFormat:
            reader.document.error(
                path + "format",
                other.hasPrefix("quire.snapshot/")
                    ? "unknown format version '\(other)'; this Quire reads '\(snapshotFormat)'"
                    : "a '\(other)' document, not a snapshot ('\(snapshotFormat)')")
            return nil
        case let format? where format.stringValue == nil:
            reader.document.error(path + "format", "format must be '\(snapshotFormat)', not \(format.typeName)")
            return nil
        default:
            break
        }
        reader.document.checkKeys(
            object, at: path, allowed: snapshotKeys, required: ["format", "values", "page", "position"], what: "a snapshot")
        var flow = given
        if flow == nil {
            guard let document = object["flow"] else {
                reader.document.error(path, "the snapshot has no embedded 'flow'; restore it with the flow it was taken from")
                return nil
            }
            flow = Flow.load(document, at: path + "flow", reader: &reader.document)
        }
        guard let flow else { return nil }
        // The answers and touched marks are read here, so that a repeated key among them refuses
        // the snapshot as any other does; their other problems are given in their turn, below.
        let held = reader.document
        reader.document = DocumentReader(file: held.file, bytes: [])
        let answers = try reader.answers(of: flow)
        let touched = try reader.touched(of: flow)
        let found = reader.document.problems
        reader.document = held
        for problem in found where problem.offset != nil { reader.document.append(problem) }
        guard !reader.document.hasProblems else { return nil }
        if let id = object["flowID"], id != .string(flow.id) {
            reader.document.error(path + "flowID", "the snapshot was taken from flow \(id), not '\(flow.id)'")
            return nil
        }
        let locale = object["locale"].flatMap { reader.document.string($0, at: path + "locale", what: "locale") } ?? "en"
        let width =
            object["viewportWidth"].flatMap {
                reader.document.number($0, at: path + "viewportWidth", what: "viewportWidth", in: Session.viewportWidths)
            } ?? 800
        for problem in found where problem.offset == nil { reader.document.append(problem) }
        // The answers are set first, so the session derives visibility and errors once, from them.
        var session = Session(
            flow: flow, locale: locale, viewportWidth: width, values: answers?.values ?? flow.fields.map(\.defaultValue),
            textLengths: answers?.textLengths)
        if let touched { session.answers.restore(touched: touched) }
        var document = reader.document
        defer { reader.document = document }
        if let page = object["page"].flatMap({ document.string($0, at: path + "page", what: "page") }) {
            if let index = flow.pageIndex(of: page), session.answers.pageVisible[index] {
                session.pager.turn(to: index, index: session.answers.visibleIndex(ofPage: index))
            } else {
                document.error(path + "page", "'\(page)' is not a visible page of the flow")
            }
        }
        let position = object["position"].flatMap { document.number($0, at: path + "position", what: "position", in: -1e6...1e6) }
        var motion: Motion? = nil
        if let json = object["motion"], json != .null { motion = restoreMotion(json, at: path + "motion", reader: &document) }
        var autoAdvance: AutoAdvance? = nil
        if let auto = object["autoAdvance"].flatMap({ document.object($0, at: path + "autoAdvance", what: "autoAdvance") }) {
            let active = auto["active"].flatMap { document.bool($0, at: path + "autoAdvance" + "active", what: "active") } ?? false
            let elapsed =
                auto["elapsedUs"].flatMap {
                    document.integer($0, at: path + "autoAdvance" + "elapsedUs", what: "elapsedUs", in: 0...maxElapsed)
                } ?? 0
            autoAdvance = AutoAdvance(active: active, elapsed: Int64(elapsed))
        }
        session.pager.restore(position: position, motion: motion, autoAdvance: autoAdvance)
        if let input = object["input"], input != .null {
            session.focusChain.restore(restoreInput(input, at: path + "input", session: session, reader: &document))
        }
        if let completed = object["completed"], completed != .null,
            let result = document.object(completed, at: path + "completed", what: "completed")
        {
            let outcome = result["outcome"].flatMap(\.stringValue).flatMap(Outcome.init(rawValue:))
            let values = result["values"]?.objectValue
            if let outcome, let values {
                session.completion = Completion(outcome: outcome, values: values)
            } else {
                document.error(path + "completed", "completed needs an outcome ('finished' or 'cancelled') and values")
            }
        }
        session.restoreApplying(object, at: path, reader: &document)
        if !document.hasProblems, let problem = session.placeProblem {
            document.error(path + "position", problem)
        }
        return document.hasProblems ? nil : session
    }

    /// `applying`, `hostErrors` and `applyMessage` (CONTRACT §6.1): a restored session is still
    /// applying, and keeps the host's errors until their fields change.
    mutating func restoreApplying(_ object: JSONObject, at path: JSONPath, reader document: inout DocumentReader) {
        if let errors = object["hostErrors"], let map = document.object(errors, at: path + "hostErrors", what: "hostErrors") {
            for (id, entry) in map {
                let at = path + "hostErrors" + id
                guard let field = flow.fieldIndex(of: id) else {
                    document.error(at, "'\(id)' is not a field of the flow")
                    continue
                }
                guard let detail = document.object(entry, at: at, what: "a host error"),
                    let code = detail["code"].flatMap({ document.string($0, at: at + "code", what: "code") })
                else { continue }
                guard Flow.isIdentifier(code) else {
                    document.error(at + "code", "'\(code)' is not an error code (an id)")
                    continue
                }
                var message: LocalizedText? = nil
                if let text = detail["message"] {
                    let read = ApplyFailure.displayText(text)
                    if let problem = read.problem { document.error(at + "message", problem) }
                    message = read.text
                }
                answers.setHostError(field, HostError(code: ValidationCode(host: code), message: message))
                updateError(field)
            }
        }
        if let text = object["applyMessage"] {
            let read = ApplyFailure.displayText(text)
            if let problem = read.problem { document.error(path + "applyMessage", problem) }
            applyMessage = read.text
        }
        guard let value = object["applying"], value != .null,
            let running = document.object(value, at: path + "applying", what: "applying")
        else { return }
        let at = path + "applying"
        guard let id = running["page"].flatMap({ document.string($0, at: at + "page", what: "page") }) else {
            return document.error(at, "applying needs 'page'")
        }
        guard let page = flow.pageIndex(of: id), flow.pages[page].apply != nil, answers.pageVisible[page] else {
            return document.error(at + "page", "'\(id)' is not a visible page with 'apply'")
        }
        var index: Int? = nil
        if let given = running["index"], given != .null {
            guard let number = document.integer(given, at: at + "index", what: "index", in: 0...max(0, pageCount - 1)) else { return }
            index = number
        }
        guard let target = running["target"].flatMap({ document.number($0, at: at + "target", what: "target", in: -1e6...1e6) }),
            let elapsed = running["elapsedUs"].flatMap({
                document.integer($0, at: at + "elapsedUs", what: "elapsedUs", in: 0...Self.maxElapsed)
            })
        else { return document.error(at, "applying needs 'target' and 'elapsedUs'") }
        let timeout = Int64(flow.pages[page].apply?.timeoutMs ?? 0) * 1000
        applying = Applying(page: page, index: index, target: target, timeout: timeout, elapsed: Int64(elapsed))
    }

    /// Why a restored session is not somewhere its pages can be (a hand-edited snapshot), or nil.
    /// Settled, its position is its page. Moving (an animation or a drag), the page it moves to is
    /// on the pages, and so is its position — a rubber band goes at most a page beyond an end;
    /// pages that wrap take any position as the page it stands for. With a picker open, the pages
    /// are also those its draft makes (a drag reveals them). Every snapshot Quire writes passes;
    /// every reader of snapshots goes through here.
    var placeProblem: String? {
        let index = currentIndex
        guard let transition else {
            if pager.position != Double(index) {
                return
                    "position \(JSONWriter.number(pager.position)) is off its page (visible page \(index) of \(pageCount), at position \(index))"
            }
            return nil
        }
        let count = draftChangesValue ? max(pageCount, Outlook(committingDraftOf: self).visibleCount) : pageCount
        if !flow.paging.wrap, !(pager.position >= -1 && pager.position <= Double(count)) {
            return "position \(JSONWriter.number(pager.position)) is off the pages (\(count) visible pages)"
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
            if let heading = object["heading"], heading != .null {
                drag.heading = reader.integer(heading, at: path + "heading", what: "heading", in: 0...Flow.maxPages)
            }
            if let at = object["headingAt"], at != .null {
                drag.headingAt = reader.number(at, at: path + "headingAt", what: "headingAt", in: -1e9...1e9)
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
        guard session.canFocus(field), flow.fieldTraits[field].page == session.pager.currentPage else {
            reader.error(path + "field", "'\(id)' cannot be first responder on page '\(flow.pages[session.pager.currentPage].id)'")
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
        // A snapshot from before `draftChanged` was kept: a draft that differs from the value
        // it opened on was changed.
        let changed = object["draftChanged"]?.boolValue ?? (draft != original)
        return InputState(field: field, draft: draft, original: original, selectedWheel: selected, draftChanged: changed)
    }
}
