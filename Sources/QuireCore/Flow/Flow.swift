/// A loaded, validated `quire.flow/1` document: a paged walkthrough or form.
///
/// Built only by `Flow.load` (or decoded through `Codable`, which runs the same validation), so a
/// `Flow` value is always whole and consistent. Fields are numbered across the flow in document
/// order; the session works with those numbers, never with id lookups, on its hot paths.
public struct Flow: Sendable, Equatable {
    public static let format = "quire.flow/1"

    public let id: String
    public let title: LocalizedText?
    public let paging: Paging
    /// The flow's accessory toolbar; a field's own `accessory` wins over it.
    public let accessory: [AccessoryItem]?
    public let pages: [Page]
    /// `validation.reveal`: when errors are first shown, for fields without their own `reveal`.
    public let reveal: RevealMode
    /// Every field of every page, in document order.
    public let fields: [Field]
    /// The document the flow was loaded from (snapshots embed it). A flow read by the fast path
    /// (`FlowReader`) keeps its bytes and parses them the first time this is asked for.
    public var document: JSONValue { source.value }
    let source: FlowDocument
    /// The bytes the flow was read from — its file as it was when read — or nil for a flow built
    /// from a value (`Codable`): what a report that points into the file must read, since the
    /// file may have changed since.
    public var sourceBytes: [UInt8]? { source.bytes.isEmpty ? nil : source.bytes }

    /// Whether `other` was read from the same bytes as this flow (the same reading, or bytes
    /// equal byte for byte), so the same items sit at the same places in both.
    public func isSameReading(as other: Flow) -> Bool {
        source === other.source || (!source.bytes.isEmpty && source.bytes == other.source.bytes)
    }
    /// The folder the flow was loaded from, where its pages' layouts are found (`PageLayout`);
    /// nil for a flow given as text or restored from a snapshot, whose layouts are not used.
    public internal(set) var folder: String?

    let fieldIndexByID: [String: Int]
    let pageIndexByID: [String: Int]
    /// The dependency graph of conditions, in document order (see `Session+Conditions`).
    let graph: DependencyGraph
    /// What events read of each field, stored apart from `fields` so a hot path loads a few bytes
    /// instead of copying a whole `Field` (its strings, options and conditions).
    let fieldIDs: [String]
    let fieldTraits: [FieldTraits]

    init(
        id: String, title: LocalizedText?, paging: Paging, accessory: [AccessoryItem]?, pages: [Page],
        fields: [Field], reveal: RevealMode = .leave, document: JSONValue
    ) {
        var fieldIndex = [String: Int](minimumCapacity: fields.count)
        for (at, field) in fields.enumerated() { fieldIndex[field.id] = at }
        var pageIndex = [String: Int](minimumCapacity: pages.count)
        for (at, page) in pages.enumerated() { pageIndex[page.id] = at }
        self.init(
            id: id, title: title, paging: paging, accessory: accessory, pages: pages, fields: fields, reveal: reveal,
            source: FlowDocument(document), fieldIndex: fieldIndex, pageIndex: pageIndex)
    }

    /// With the id indexes already built (the fast path builds them as it reads).
    init(
        id: String, title: LocalizedText?, paging: Paging, accessory: [AccessoryItem]?, pages: [Page],
        fields: [Field], reveal: RevealMode = .leave, source: FlowDocument, fieldIndex: [String: Int],
        pageIndex: [String: Int]
    ) {
        self.id = id
        self.reveal = reveal
        self.title = title
        self.paging = paging
        self.accessory = accessory
        self.pages = pages
        self.fields = fields
        self.source = source
        fieldIndexByID = fieldIndex
        pageIndexByID = pageIndex
        graph = DependencyGraph(pages: pages, fields: fields)
        fieldIDs = fields.map(\.id)
        fieldTraits = fields.map { FieldTraits($0, reveal: $0.reveal ?? reveal) }
    }

    public func fieldIndex(of id: String) -> Int? { fieldIndexByID[id] }

    /// Whether `text` has the form of an id: 1–64 characters from `A-Z a-z 0-9 . _ -`.
    public static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy(FlowReader.isIDByte)
    }
    public func pageIndex(of id: String) -> Int? { pageIndexByID[id] }

    public static func == (lhs: Flow, rhs: Flow) -> Bool {
        lhs.id == rhs.id && lhs.paging == rhs.paging && lhs.pages == rhs.pages && lhs.fields == rhs.fields
            && lhs.title == rhs.title && lhs.accessory == rhs.accessory && lhs.reveal == rhs.reveal
    }
}

/// `paging`: how pages move (CONTRACT §1–§2).
/// A field's kind and page: what most events need to know about a field.
struct FieldTraits: Sendable, Hashable {
    /// The kind without its settings: the presentation's kind (one byte, like any enum without
    /// payloads).
    typealias Kind = FieldPresentation.Kind

    let kind: Kind
    let page: Int
    /// The bounds validation checks: `minLength`/`maxLength` of text (0 and `Int.max` when
    /// absent), `min`/`max` of a duration.
    let low: Int
    let high: Int
    /// When its error is first shown: its own `reveal`, else the flow's.
    let reveal: RevealMode

    init(_ field: Field, reveal: RevealMode) {
        kind = Kind(field.kind)
        page = field.page
        self.reveal = reveal
        switch field.kind {
        case .text(let options):
            low = options.minLength ?? 0
            high = options.maxLength ?? .max
        case .duration(let options):
            low = options.min
            high = options.max
        case .choice, .toggle:
            low = 0
            high = .max
        }
    }

    /// The error a value has for this field, given its length in grapheme clusters (for text)
    /// and whether the field is required now.
    func validate(_ value: FieldValue, length: Int, required: Bool) -> ValidationCode? {
        switch value {
        case .text(let text) where kind == .text:
            return textError(isEmpty: text.isEmpty, length: length, required: required)
        case .duration(let seconds) where kind == .duration:
            if seconds < low { return .min }
            if seconds > high { return .max }
            return nil
        case .toggle(let on) where kind == .toggle:
            return required && !on ? .required : nil
        case .null:
            return required ? .required : nil
        default:
            return nil
        }
    }

    /// The error of a text value of this text field: `validate`'s decision for text.
    @inline(__always) func textError(isEmpty: Bool, length: Int, required: Bool) -> ValidationCode? {
        if isEmpty { return required ? .required : nil }
        if length < low { return .minLength }
        if length > high { return .maxLength }
        return nil
    }

    /// Text, duration and choice fields can become first responder; toggles cannot.
    @inline(__always) var isEditable: Bool { kind != .toggle }
    /// Duration and choice fields edit a draft in a picker.
    @inline(__always) var isPicker: Bool { kind == .duration || kind == .choice }
}

public struct Paging: Sendable, Hashable {
    public enum Gate: String, Sendable, Hashable, CaseIterable {
        /// Forward moves need the pages they leave or pass over to be valid.
        case valid
        /// No gate: every move is allowed.
        case none
    }

    public enum IndicatorStyle: String, Sendable, Hashable, CaseIterable {
        case dots, numbers, none
    }

    public var wrap = false
    public var swipe = true
    public var gate = Gate.valid
    public var indicatorStyle = IndicatorStyle.dots
    public var hidesForSinglePage = true
    public var snapDistance = 0.5
    public var flingVelocity = 400.0
    public var animationMs = 250.0
    public var autoAdvanceMs = 0.0

    public init() {}

    /// Whether a drag released at `vx` px/s is a fling: at least `flingVelocity` either way (a
    /// fling picks the page in its direction whatever the distance covered).
    public func isFling(_ vx: Double) -> Bool { abs(vx) >= flingVelocity }
}

/// One page of a flow. Its fields are `flow.fields[fieldRange]`.
public struct Page: Sendable, Hashable {
    public let id: String
    public let title: LocalizedText?
    public let body: LocalizedText?
    public let visibleIf: Condition?
    public let fieldRange: Range<Int>
    /// A GtkBuilder layout for the page, relative to the flow's folder (`PageLayout`).
    public var layout: String? = nil
    /// The host must accept the page's answers before a forward move leaves it (CONTRACT §6.1).
    public var apply: PageApply? = nil
    /// `"back": false`: once on this page there is no backward move (CONTRACT §6.3).
    public var back: Bool = true
}

/// A page's `apply`: what the front says while the host works, and how long the session waits.
public struct PageApply: Sendable, Hashable {
    /// What is being done ("Creating your account…").
    public let label: LocalizedText
    /// 0: wait for ever; else 100–600000 ms of ticks before the apply times out.
    public let timeoutMs: Int

    public static let timeouts = 100...600_000
}

/// When a field's error is first shown (CONTRACT §6.2): `validation.reveal` for the flow, a
/// field's own `reveal` over it.
public enum RevealMode: String, Sendable, Hashable, CaseIterable {
    /// Once the field has been first responder and resigned, a toggle tapped, or a refusal.
    case leave
    /// Also as soon as the field's value changes.
    case change
    /// Only by a refusal (the gate, `finish`, an apply).
    case submit
}

/// An item of an input accessory toolbar (UIKit's `inputAccessoryView` as a `UIToolbar`).
public enum AccessoryItem: String, Sendable, Hashable, CaseIterable {
    case previous, next, flexibleSpace, fixedSpace, done, cancel

    public static let standard: [AccessoryItem] = [.previous, .next, .flexibleSpace, .done]

    static let cases = allCases
    static let table = NameTable(cases.map(\.rawValue))
}

/// The key a text field's Return acts as (`returnKey`).
public enum ReturnKey: String, Sendable, Hashable, CaseIterable {
    case `default`, next, done
}

/// A wheel of the duration picker.
public enum DurationComponent: String, Sendable, Hashable, CaseIterable {
    case hours, minutes, seconds
}

public struct Field: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case text(TextOptions)
        case duration(DurationOptions)
        case choice(ChoiceOptions)
        case toggle

        public var name: String {
            switch self {
            case .text: "text"
            case .duration: "duration"
            case .choice: "choice"
            case .toggle: "toggle"
            }
        }
    }

    public let id: String
    /// The page the field is on.
    public let page: Int
    public let kind: Kind
    public let label: LocalizedText?
    /// The value the field starts with (`.null` when the flow gives no `default`).
    public let defaultValue: FieldValue
    public let required: Bool
    public let visibleIf: Condition?
    public let enabledIf: Condition?
    public let requiredIf: Condition?
    public let accessory: [AccessoryItem]?
    /// The field's own `reveal`; nil: the flow's `validation.reveal`.
    public var reveal: RevealMode? = nil

    /// Text, duration and choice fields can become first responder; toggles never do.
    public var isEditable: Bool {
        if case .toggle = kind { return false }
        return true
    }
}

public struct TextOptions: Sendable, Hashable {
    public var placeholder: LocalizedText?
    public var minLength: Int?
    public var maxLength: Int?
    public var returnKey: ReturnKey = .default
}

public struct ChoiceOptions: Sendable, Hashable {
    public struct Option: Sendable, Hashable {
        public let id: String
        public let label: LocalizedText?
    }

    public var options: [Option]

    public func index(of id: String) -> Int? { options.firstIndex { $0.id == id } }
}

/// A field's value. Choices hold the index of their option; JSON shows its id.
public enum FieldValue: Sendable, Hashable {
    case null
    case text(String)
    case duration(Int)
    case choice(Int)
    case toggle(Bool)

    /// Equal values; texts are equal only scalar by scalar (never by canonical equivalence, as
    /// `String ==` judges): é and e + U+0301 are different answers (`JSONValue ==`).
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.text(let a), .text(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.duration(let a), .duration(let b)): a == b
        case (.choice(let a), .choice(let b)): a == b
        case (.toggle(let a), .toggle(let b)): a == b
        default: false
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Grapheme clusters in a text value; 0 for anything else.
    var textLength: Int {
        if case .text(let text) = self { return text.count }
        return 0
    }

    /// Set: not null, and not empty text.
    public var isFilled: Bool {
        switch self {
        case .null: false
        case .text(let text): !text.isEmpty
        default: true
        }
    }
}

extension Field {
    /// The value as contract JSON: a string, a number of seconds, an option id, a bool or null.
    public func json(_ value: FieldValue) -> JSONValue {
        switch value {
        case .null: .null
        case .text(let text): .string(text)
        case .duration(let seconds): .number(Double(seconds))
        case .toggle(let on): .bool(on)
        case .choice(let option):
            if case .choice(let options) = kind, options.options.indices.contains(option) {
                .string(options.options[option].id)
            } else {
                .null
            }
        }
    }

    /// Reads a value of this field's kind from JSON; nil when it is not one.
    public func value(from json: JSONValue) -> FieldValue? {
        switch (kind, json) {
        case (_, .null): return .null
        case (.text, .string(let text)): return .text(text)
        case (.duration, .number): return json.intValue.map(FieldValue.duration)
        case (.toggle, .bool(let on)): return .toggle(on)
        case (.choice(let options), .string(let id)): return options.index(of: id).map(FieldValue.choice)
        default: return nil
        }
    }
}

/// A display string: one text, or texts by BCP 47 language tag.
public struct LocalizedText: Sendable, Hashable {
    /// A tag and its text. Stored as a struct, not a tuple: an array of tuples is destroyed through
    /// generic tuple metadata, looked up at run time, which was a tenth of loading a large flow.
    struct Entry: Sendable, Hashable {
        let tag: String
        let text: String
    }

    /// The entries, or (read by the fast path, `FlowReader`) where they are in the flow's
    /// document: loading then makes no `String` for display strings, and a front makes those it
    /// shows (Presentation resolves only the current page's).
    enum Form: Sendable {
        case entries([Entry])
        case source(FlowDocument, offset: Int)
    }

    let form: Form

    /// The entries, made from the document for a display string the fast path read.
    var storage: [Entry] {
        switch form {
        case .entries(let entries): entries
        case .source(let document, let offset): document.localizedEntries(at: offset)
        }
    }

    /// (tag, text) in document order; a plain string has the single tag "".
    public var entries: [(tag: String, text: String)] { storage.map { ($0.tag, $0.text) } }

    public init(_ text: String) { form = .entries([Entry(tag: "", text: text)]) }
    public init(entries: [(tag: String, text: String)]) { form = .entries(entries.map { Entry(tag: $0.tag, text: $0.text) }) }
    init(storage: [Entry]) { form = .entries(storage) }
    init(source: FlowDocument, offset: Int) { form = .source(source, offset: offset) }

    /// Fallback: the exact tag, then shorter prefixes of it (`ja-JP` → `ja`), then `en`, then the first.
    public func resolve(_ locale: String) -> String {
        let storage = storage
        if storage.count == 1 { return storage[0].text }
        var tag = locale.lowercased()
        while !tag.isEmpty {
            if let hit = storage.first(where: { $0.tag.lowercased() == tag }) { return hit.text }
            guard let dash = tag.lastIndex(of: "-") else { break }
            tag = String(tag[..<dash])
        }
        if let english = storage.first(where: { $0.tag.lowercased() == "en" }) { return english.text }
        return storage.first?.text ?? ""
    }

    /// Its JSON form: a string, or an object of language tags to strings.
    public var json: JSONValue {
        let storage = storage
        if storage.count == 1 && storage[0].tag.isEmpty { return .string(storage[0].text) }
        var object = JSONObject()
        for entry in storage { object.append(entry.tag, .string(entry.text)) }
        return .object(object)
    }

    public static func == (lhs: LocalizedText, rhs: LocalizedText) -> Bool {
        if case .source(let left, let at) = lhs.form, case .source(let right, let other) = rhs.form, left === right,
            at == other
        {
            return true
        }
        return lhs.storage == rhs.storage
    }

    public func hash(into hasher: inout Hasher) {
        for entry in storage {
            hasher.combine(entry.tag)
            hasher.combine(entry.text)
        }
    }
}

/// A condition over earlier answers (`visibleIf`, `enabledIf`, `requiredIf`), compiled to field numbers.
public indirect enum Condition: Sendable, Hashable {
    case equals(field: Int, FieldValue)
    case notEquals(field: Int, FieldValue)
    case oneOf(field: Int, [FieldValue])
    case greaterThan(field: Int, Double)
    case lessThan(field: Int, Double)
    case filled(field: Int, Bool)
    case all([Condition])
    case any([Condition])
    case not(Condition)

    /// Calls `body` with every field the condition names.
    func forEachField(_ body: (Int) -> Void) {
        switch self {
        case .equals(let field, _), .notEquals(let field, _), .oneOf(let field, _), .greaterThan(let field, _),
            .lessThan(let field, _), .filled(let field, _):
            body(field)
        case .all(let conditions), .any(let conditions):
            for condition in conditions { condition.forEachField(body) }
        case .not(let condition):
            condition.forEachField(body)
        }
    }

    /// The steps evaluating the condition takes at most, what the lint's budget counts: one a
    /// node, one a value compared (each value of `in`), one more per 16 bytes of a text compared
    /// (texts compare scalar by scalar).
    var cost: Int {
        func value(_ value: FieldValue) -> Int {
            if case .text(let text) = value { return 1 + text.utf8.count / 16 }
            return 1
        }
        switch self {
        case .equals(_, let expected), .notEquals(_, let expected): return 1 + value(expected)
        case .oneOf(_, let options): return options.reduce(1) { $0 + value($1) }
        case .greaterThan, .lessThan, .filled: return 1
        case .all(let conditions), .any(let conditions): return conditions.reduce(1) { $0 + $1.cost }
        case .not(let condition): return 1 + condition.cost
        }
    }

    /// Evaluates against the effective value of each field (`.null` for a hidden field).
    func evaluate(_ value: (Int) -> FieldValue) -> Bool {
        switch self {
        case .equals(let field, let expected):
            let actual = value(field)
            return !actual.isNull && actual == expected
        case .notEquals(let field, let expected):
            return value(field) != expected
        case .oneOf(let field, let options):
            let actual = value(field)
            return !actual.isNull && options.contains(actual)
        case .greaterThan(let field, let bound):
            if case .duration(let seconds) = value(field) { return Double(seconds) > bound }
            return false
        case .lessThan(let field, let bound):
            if case .duration(let seconds) = value(field) { return Double(seconds) < bound }
            return false
        case .filled(let field, let filled):
            return value(field).isFilled == filled
        case .all(let conditions):
            return conditions.allSatisfy { $0.evaluate(value) }
        case .any(let conditions):
            return conditions.contains { $0.evaluate(value) }
        case .not(let condition):
            return !condition.evaluate(value)
        }
    }
}

/// Which conditions must be evaluated again when a field's effective value changes.
///
/// Nodes are pages and fields in document order (a page before its fields). Conditions name only
/// earlier fields, so the graph is acyclic and evaluating dirty nodes in node order is enough.
struct DependencyGraph: Sendable, Equatable {
    /// Node number of each page and field.
    let pageNode: [Int32]
    let fieldNode: [Int32]
    /// For each node: a page (`>= 0`: page index) or a field (`< 0`: `-1 - field index`).
    let nodeItem: [Int32]
    /// Dependents of each field, as node numbers (CSR layout: `dependents[start[f]..<start[f+1]]`).
    let dependentStart: [Int32]
    let dependents: [Int32]

    init(pages: [Page], fields: [Field]) {
        var pageNode = [Int32](repeating: 0, count: pages.count)
        var fieldNode = [Int32](repeating: 0, count: fields.count)
        var nodeItem: [Int32] = []
        nodeItem.reserveCapacity(pages.count + fields.count)
        for (pageIndex, page) in pages.enumerated() {
            pageNode[pageIndex] = Int32(nodeItem.count)
            nodeItem.append(Int32(pageIndex))
            for field in page.fieldRange {
                fieldNode[field] = Int32(nodeItem.count)
                nodeItem.append(-1 - Int32(field))
            }
        }
        var lists = [[Int32]](repeating: [], count: fields.count)
        func add(_ condition: Condition?, node: Int32) {
            condition?.forEachField { field in
                if lists[field].last != node { lists[field].append(node) }
            }
        }
        for (pageIndex, page) in pages.enumerated() {
            add(page.visibleIf, node: pageNode[pageIndex])
            for field in page.fieldRange {
                add(fields[field].visibleIf, node: fieldNode[field])
                add(fields[field].enabledIf, node: fieldNode[field])
                add(fields[field].requiredIf, node: fieldNode[field])
            }
        }
        var start: [Int32] = [0]
        var flat: [Int32] = []
        for list in lists {
            flat.append(contentsOf: list)
            start.append(Int32(flat.count))
        }
        self.pageNode = pageNode
        self.fieldNode = fieldNode
        self.nodeItem = nodeItem
        self.dependentStart = start
        self.dependents = flat
    }

    var nodeCount: Int { nodeItem.count }
}
