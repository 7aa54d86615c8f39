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

    /// The keys of the flow object. `$schema`: where an editor finds the flow's JSON Schema;
    /// read as a string and ignored.
    enum FlowKey: Int, ObjectKey {
        case format, id, title, paging, accessory, pages, schema, validation
        static let names: [StaticString] = ["format", "id", "title", "paging", "accessory", "pages", "$schema", "validation"]
    }

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
                guard let key = try member(FlowKey.self, &seen, &others, what: "the flow") else { continue }
                steps.append(.key(key.name))
                switch key {
                case .format:
                    if let text = try string("format"), text != Flow.format {
                        if text.hasPrefix("quire.flow/") {
                            problem("unknown format version '\(text)'; this Quire reads '\(Flow.format)'")
                        } else {
                            problem("format must be '\(Flow.format)', not '\(text)'")
                        }
                    }
                case .id: id = try identifier("the flow id")
                case .title: title = try localized("title")
                case .paging: paging = self.paging(try value(), at: path())
                case .accessory: accessory = accessoryItems(try value(), at: path())
                case .pages: try readPages()
                case .schema: _ = try string("$schema")
                case .validation: reveal = validation(try value(), at: path())
                }
                steps.removeLast()
            } while try nextMember()
        }
        for key in [FlowKey.format, .id, .pages] where !seen.has(key) {
            problem("the flow is missing the required key '\(key.name)'")
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

    enum PageKey: Int, ObjectKey {
        case id, title, body, visibleIf, fields, layout, apply, back
        static let names: [StaticString] = ["id", "title", "body", "visibleIf", "fields", "layout", "apply", "back"]
    }

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
                guard let key = try member(PageKey.self, &seen, &others, what: "a page") else { continue }
                steps.append(.key(key.name))
                switch key {
                case .id: id = try identifier("the page id")
                case .title: title = try localized("title")
                case .body: body = try localized("body")
                case .visibleIf:
                    let scope = Scope(ordinal: firstOrdinal, what: "a page's condition", field: nil)
                    let start = try conditionStart()
                    let (prefix, steps) = (prefix, steps)
                    visibleIf = try judgeCondition(from: start, at: { Self.path(prefix, steps) }, scope: scope, order: (firstOrdinal, 0))
                case .fields: try readFields(page: index, declareOnly: false)
                case .layout: layout = try self.layout()
                case .apply: apply = try self.apply()
                case .back: back = try bool("back") ?? true
                }
                steps.removeLast()
            } while try nextMember()
        }
        if !seen.has(PageKey.id) { problem("a page is missing the required key 'id'") }
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
        try readOnly(member: PageKey.fields, startingWith: UInt8(ascii: "[")) { reader throws(JSONScanError) in
            try reader.readFields(page: index, declareOnly: true)
        }
    }

    /// An object past a limit, of which only one member is read (`take`, when its value starts
    /// with `start`); every other member, and a value that is not an object, is stepped over and
    /// checked as any value is.
    mutating func readOnly<Key: ObjectKey>(
        member wanted: Key, startingWith start: UInt8,
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
                guard let key = try member(Key.self, &seen, &others, what: nil) else { continue }
                steps.append(.key(key.name))
                if key == wanted, try peek() == start {
                    try take(&self)
                } else {
                    _ = try value()
                }
                steps.removeLast()
            } while try nextMember()
        }
    }

    enum ApplyKey: Int, ObjectKey {
        case label, timeoutMs
        static let names: [StaticString] = ["label", "timeoutMs"]
    }

    /// A page's `apply`: `label` (a display string) and `timeoutMs` (0, or 100–600000).
    mutating func apply() throws(JSONScanError) -> PageApply? {
        guard try isObject("apply") else { return nil }
        var seen = KeysSeen()
        var others = OtherKeys()
        var label: LocalizedText?
        var timeout = 0
        if try beginObject() {
            repeat {
                guard let key = try member(ApplyKey.self, &seen, &others, what: "apply") else { continue }
                steps.append(.key(key.name))
                if key == .label {
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
        try readOnly(member: FieldKey.id, startingWith: UInt8(ascii: "\"")) { reader throws(JSONScanError) in
            reader.declare(try reader.stringValue(), ordinal: ordinal)
        }
    }

    /// Whether the last `scanString` decoded into `scratch` (it held escapes).
    var usedScratch = false

    /// The tags of the display string being read besides those of `knownTags` it has met (and
    /// those written with escapes), decoded, to find a repeated one: a lookup a tag, so a display
    /// string of 20,000 tags is read in time linear in it.
    var otherTags = Set<String>()
    /// The first few different good tags met (a flow's display strings use the same few tags):
    /// each is checked once, and a display string's tags among them are kept as bits.
    var knownTags: [Range<Int>] = []
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
