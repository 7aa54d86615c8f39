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

/// The fast path of `Flow.load(bytes:)`: reads a flow straight from its bytes in one pass, with no
/// `JSONValue` tree, no JSON paths and no positions.
///
/// It accepts only what the loader accepts, and gives up (`Bail`) at the first thing it does not
/// like: a syntax error, a limit, a duplicate key, any problem the loader would report, or a
/// form it does not read (an escape in a key or an id). `Flow.load` then runs the full path
/// (`JSONParser` and `FlowLoader`), which finds every problem and says where: diagnostics come
/// only from there, so they are the same as ever. A flow that loads here is equal to the one the
/// full path builds (`FlowReaderTests` compares both on every flow in data/ and on mutated ones).
///
/// Valid flows name only earlier fields in conditions, so one pass is enough: a field is known
/// once it is read, and a condition naming any other field is a problem (the full path says
/// whether it is unknown or looks ahead).
struct FlowReader {
    struct Bail: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    let folder: String?
    /// The document the bytes belong to: display strings are kept as places in it
    /// (`LocalizedText`), made `String`s only when a front asks for them.
    let source: FlowDocument?
    var at = 0
    var depth = 0
    /// Decoded bytes of the last string that held escapes or non-ASCII text.
    var scratch: [UInt8] = []

    var fields: [Field] = []
    var pages: [Page] = []
    var fieldIndex: [String: Int] = [:]
    var pageIndex: [String: Int] = [:]

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, folder: String?, source: FlowDocument?) {
        self.bytes = bytes
        self.limits = limits
        self.folder = folder
        self.source = source
    }

    /// The flow in `bytes`, or nil when the full path must read it.
    static func flow(_ bytes: [UInt8], folder: String?, limits: JSONLimits) -> Flow? {
        guard bytes.count <= limits.documentBytes, JSONParser.otherEncoding(bytes) == nil else { return nil }
        let source = FlowDocument(bytes: bytes, limits: limits)
        let read: (FlowReader, id: String, title: LocalizedText?, paging: Paging, accessory: [AccessoryItem]?)? =
            bytes.withUnsafeBufferPointer { buffer in
                var reader = FlowReader(bytes: buffer, limits: limits, folder: folder, source: source)
                reader.scratch.reserveCapacity(256)
                reader.recentTexts = [RecentText?](repeating: nil, count: 1024)
                guard let (id, title, paging, accessory) = try? reader.document() else { return nil }
                return (reader, id, title, paging, accessory)
            }
        guard let read else { return nil }
        var flow = Flow(
            id: read.id, title: read.title, paging: read.paging, accessory: read.accessory, pages: read.0.pages,
            fields: read.0.fields, source: source, fieldIndex: read.0.fieldIndex,
            pageIndex: read.0.pageIndex)
        flow.folder = folder
        return flow
    }

    // MARK: The flow

    static let topKeys: [StaticString] = ["format", "id", "title", "paging", "accessory", "pages"]

    mutating func document() throws(Bail) -> (String, LocalizedText?, Paging, [AccessoryItem]?) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        guard try beginObject() else { throw Bail() }
        var seen = Seen()
        var id: String?
        var title: LocalizedText?
        var paging = Paging()
        var accessory: [AccessoryItem]?
        repeat {
            let key = try seen.key(try memberKey(Self.topKeys))
            switch key {
            case 0: guard try stringValue() == Flow.format else { throw Bail() }
            case 1: id = try identifier()
            case 2: title = try localized()
            case 3: paging = try self.paging()
            case 4: accessory = try accessoryItems()
            default: try readPages()
            }
        } while try nextMember()
        skipWhitespace()
        guard at == bytes.count, seen.has(0), seen.has(5), let id else { throw Bail() }
        return (id, title, paging, accessory)
    }

    mutating func readPages() throws(Bail) {
        guard try beginArray() else { throw Bail() }
        repeat {
            guard pages.count < Flow.maxPages else { throw Bail() }
            let page = try self.page(index: pages.count)
            guard pageIndex.updateValue(pages.count, forKey: page.id) == nil else { throw Bail() }
            pages.append(page)
        } while try nextElement()
    }

    static let pageKeys: [StaticString] = ["id", "title", "body", "visibleIf", "fields", "layout"]

    mutating func page(index: Int) throws(Bail) -> Page {
        guard try beginObject() else { throw Bail() }
        var seen = Seen()
        var id: String?
        var title: LocalizedText?
        var body: LocalizedText?
        var visibleIf: Condition?
        var layout: String?
        let start = fields.count
        repeat {
            switch try seen.key(try memberKey(Self.pageKeys)) {
            case 0: id = try identifier()
            case 1: title = try localized()
            case 2: body = try localized()
            case 3: visibleIf = try condition(before: start)
            case 4:
                if try beginArray() {
                    repeat {
                        guard fields.count < Flow.maxFields, fields.count - start < Flow.maxFieldsPerPage else { throw Bail() }
                        try field(page: index)
                    } while try nextElement()
                }
            default:
                let text = try stringValue()
                if PageLayout.pathProblem(text) != nil { throw Bail() }
                if let folder, case .failure = PageLayout.resolve(text, inFolder: folder) { throw Bail() }
                layout = text
            }
        } while try nextMember()
        guard let id else { throw Bail() }
        return Page(id: id, title: title, body: body, visibleIf: visibleIf, fieldRange: start..<fields.count, layout: layout)
    }

    static let fieldKeys: [StaticString] = [
        "id", "kind", "label", "default", "required", "visibleIf", "enabledIf", "requiredIf", "accessory",
        "placeholder", "minLength", "maxLength", "returnKey",  // text: 9–12
        "components", "minuteInterval", "min", "max",  // duration: 13–16
        "options",  // choice: 17
    ]
    static let kindNames: [StaticString] = ["text", "duration", "choice", "toggle"]

    /// Reads a field and adds it to `fields`.
    mutating func field(page: Int) throws(Bail) {
        guard try beginObject() else { throw Bail() }
        let ordinal = fields.count
        var seen = Seen()
        var id: String?
        var kind = -1
        var label: LocalizedText?
        var defaultJSON: JSONValue?
        var required = false
        var visibleIf: Condition?
        var enabledIf: Condition?
        var requiredIf: Condition?
        var accessory: [AccessoryItem]?
        var text = TextOptions()
        var duration = DurationOptions()
        var choices: [ChoiceOptions.Option] = []
        repeat {
            switch try seen.key(try memberKey(Self.fieldKeys)) {
            case 0: id = try identifier()
            case 1:
                guard let name = try keywordValue(Self.kindNames) else { throw Bail() }
                kind = name
            case 2: label = try localized()
            case 3:
                // `"default": null` says "no default", as leaving it out does.
                let value = try scalar()
                if case .null = value { defaultJSON = nil } else { defaultJSON = value }
            case 4: required = try bool()
            case 5: visibleIf = try condition(before: ordinal)
            case 6: enabledIf = try condition(before: ordinal)
            case 7: requiredIf = try condition(before: ordinal)
            case 8: accessory = try accessoryItems()
            case 9: text.placeholder = try localized()
            case 10: text.minLength = try integer(in: 0...Flow.maxTextLength)
            case 11: text.maxLength = try integer(in: 1...Flow.maxTextLength)
            case 12:
                guard let key = ReturnKey(rawValue: try stringValue()) else { throw Bail() }
                text.returnKey = key
            case 13:
                // Exactly ["hours", "minutes"] or ["hours", "minutes", "seconds"].
                var names: [DurationComponent] = []
                guard try beginArray() else { throw Bail() }
                repeat {
                    guard let component = DurationComponent(rawValue: try stringValue()) else { throw Bail() }
                    names.append(component)
                } while try nextElement()
                guard names == [.hours, .minutes] || names == [.hours, .minutes, .seconds] else { throw Bail() }
                duration.components = names
            case 14:
                let n = try integer(in: 1...30)
                guard 60 % n == 0 else { throw Bail() }
                duration.minuteInterval = n
            case 15: duration.min = try integer(in: 0...86_399)
            case 16: duration.max = try integer(in: 0...86_399)
            default: choices = try options()
            }
        } while try nextMember()
        guard let id, kind >= 0, !FlowLoader.reservedFieldIDs.contains(id) else { throw Bail() }
        // Keys of another kind.
        let kindBits: UInt32 = [0b1111 << 9, 0b1111 << 13, 1 << 17, 0][kind]
        guard seen.bits & (0b11_1111_1110_0000_0000 & ~kindBits) == 0 else { throw Bail() }
        let fieldKind: Field.Kind
        var defaultValue = FieldValue.null
        switch kind {
        case 0:
            if let minLength = text.minLength, let maxLength = text.maxLength, minLength > maxLength { throw Bail() }
            if let defaultJSON {
                guard case .string(let value) = defaultJSON else { throw Bail() }
                if let maxLength = text.maxLength, value.count > maxLength { throw Bail() }
                if let minLength = text.minLength, !value.isEmpty, value.count < minLength { throw Bail() }
                defaultValue = .text(value)
            }
            fieldKind = .text(text)
        case 1:
            if duration.min > duration.max || duration.snappedMin > duration.clampedMax
                || duration.representable(atLeast: duration.min) == nil
            {
                throw Bail()
            }
            if let defaultJSON {
                guard let n = defaultJSON.intValue, (0...86_399).contains(n), n >= duration.min, n <= duration.max,
                    duration.isRepresentable(n)
                else { throw Bail() }
                defaultValue = .duration(n)
            }
            fieldKind = .duration(duration)
        case 2:
            guard seen.has(17) else { throw Bail() }
            let options = ChoiceOptions(options: choices)
            if let defaultJSON {
                guard case .string(let value) = defaultJSON, let at = options.index(of: value) else { throw Bail() }
                defaultValue = .choice(at)
            }
            fieldKind = .choice(options)
        default:
            if let defaultJSON {
                guard case .bool(let on) = defaultJSON else { throw Bail() }
                defaultValue = .toggle(on)
            }
            fieldKind = .toggle
        }
        guard fieldIndex.updateValue(ordinal, forKey: id) == nil else { throw Bail() }
        fields.append(
            Field(
                id: id, page: page, kind: fieldKind, label: label, defaultValue: defaultValue, required: required,
                visibleIf: visibleIf, enabledIf: enabledIf, requiredIf: requiredIf, accessory: accessory))
    }

    static let optionKeys: [StaticString] = ["id", "label"]

    mutating func options() throws(Bail) -> [ChoiceOptions.Option] {
        var options: [ChoiceOptions.Option] = []
        guard try beginArray() else { throw Bail() }
        repeat {
            guard options.count < Flow.maxOptions, try beginObject() else { throw Bail() }
            var seen = Seen()
            var id: String?
            var label: LocalizedText?
            repeat {
                if try seen.key(try memberKey(Self.optionKeys)) == 0 { id = try identifier() } else { label = try localized() }
            } while try nextMember()
            guard let id, !options.contains(where: { $0.id == id }) else { throw Bail() }
            options.append(.init(id: id, label: label))
        } while try nextElement()
        return options
    }

    static let pagingKeys: [StaticString] = [
        "wrap", "swipe", "gate", "indicator", "snapDistance", "flingVelocity", "animationMs", "autoAdvanceMs",
    ]
    static let indicatorKeys: [StaticString] = ["style", "hidesForSinglePage"]

    mutating func paging() throws(Bail) -> Paging {
        var paging = Paging()
        guard try beginObject() else { return paging }
        var seen = Seen()
        repeat {
            switch try seen.key(try memberKey(Self.pagingKeys)) {
            case 0: paging.wrap = try bool()
            case 1: paging.swipe = try bool()
            case 2:
                guard let gate = Paging.Gate(rawValue: try stringValue()) else { throw Bail() }
                paging.gate = gate
            case 3:
                if try beginObject() {
                    var inner = Seen()
                    repeat {
                        if try inner.key(try memberKey(Self.indicatorKeys)) == 0 {
                            guard let style = Paging.IndicatorStyle(rawValue: try stringValue()) else { throw Bail() }
                            paging.indicatorStyle = style
                        } else {
                            paging.hidesForSinglePage = try bool()
                        }
                    } while try nextMember()
                }
            case 4: paging.snapDistance = try number(in: 0.01...1)
            case 5: paging.flingVelocity = try number(in: 1...100_000)
            case 6: paging.animationMs = Double(try integer(in: 0...10_000))
            default:
                let n = try integer(in: 0...3_600_000)
                guard n == 0 || n >= 100 else { throw Bail() }
                paging.autoAdvanceMs = Double(n)
            }
        } while try nextMember()
        return paging
    }

    mutating func accessoryItems() throws(Bail) -> [AccessoryItem] {
        var items: [AccessoryItem] = []
        guard try beginArray() else { return items }
        repeat {
            guard let item = AccessoryItem(rawValue: try stringValue()) else { throw Bail() }
            if item != .flexibleSpace && item != .fixedSpace && items.contains(item) { throw Bail() }
            items.append(item)
        } while try nextElement()
        return items
    }

    /// A display string: a string, or an object of language tags to strings.
    /// A display string: checked here, kept as its place in the document, and made `String`s
    /// only when asked for (`LocalizedText.storage`, through `decodeLocalized`).
    mutating func localized() throws(Bail) -> LocalizedText {
        skipWhitespace()
        guard at < bytes.count, let source else { throw Bail() }
        let start = at
        if bytes[at] == UInt8(ascii: "\"") {
            try checkedText()
            // Longer than the cap in bytes (quotes and escapes included): the full path counts.
            if at - start > Flow.maxDisplayCharacters { throw Bail() }
        } else {
            guard try beginObject() else { throw Bail() }
            tagRanges.removeAll(keepingCapacity: true)
            repeat {
                let key = try plainKey()
                for earlier in tagRanges where same(earlier, key) { throw Bail() }
                tagRanges.append(key)
                try checkLanguageTag(key, slot: tagRanges.count - 1)
                try colon()
                let text = at
                try checkedText()
                if at - text > Flow.maxDisplayCharacters { throw Bail() }
            } while try nextMember()
        }
        return LocalizedText(source: source, offset: start)
    }

    /// Reads a string as `stringValue` does (the same checks) without making it a `String`.
    mutating func checkedText() throws(Bail) {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Bail() }
        let range = try scanString()
        if !usedScratch && nonASCII { guard isUTF8(range) else { throw Bail() } }
    }

    /// The entries of a display string `localized` read at `at` (so every check holds).
    mutating func decodeLocalized() throws(Bail) -> [LocalizedText.Entry] {
        skipWhitespace()
        guard at < bytes.count else { throw Bail() }
        if bytes[at] == UInt8(ascii: "\"") { return [LocalizedText.Entry(tag: "", text: try decodedText())] }
        guard try beginObject() else { throw Bail() }
        var entries: [LocalizedText.Entry] = []
        entries.reserveCapacity(4)
        repeat {
            let key = try plainKey()
            let tag = makeString(key)
            try colon()
            entries.append(LocalizedText.Entry(tag: tag, text: try decodedText()))
        } while try nextMember()
        return entries
    }

    /// A string checked before (by `checkedText`), as text.
    mutating func decodedText() throws(Bail) -> String {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Bail() }
        let range = try scanString()
        return usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(range)
    }

    /// The tags of the display string being read, to find a duplicate.
    var tagRanges: [Range<Int>] = []
    /// Tags checked so far (the first few different ones): a flow's display strings use the same
    /// few tags, each checked once.
    var knownTags: [Range<Int>] = []

    /// (`slot`: where the tag is in its display string; display strings list their tags in the
    /// same order, so the tag checked for that slot is tried first.)
    mutating func checkLanguageTag(_ key: Range<Int>, slot: Int) throws(Bail) {
        if slot < knownTags.count, same(knownTags[slot], key) { return }
        for known in knownTags where same(known, key) { return }
        guard FlowLoader.isLanguageTag(UnsafeBufferPointer(rebasing: bytes[key])) else { throw Bail() }
        if knownTags.count < 16 { knownTags.append(key) }
    }

    /// Whether two ranges of `bytes` hold the same bytes.
    @inline(__always) func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && memcmp(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, a.count) == 0
    }

    // MARK: Conditions

    static let conditionKeys: [StaticString] = [
        "all", "any", "not", "field", "equals", "notEquals", "in", "greaterThan", "lessThan", "filled",
    ]

    /// A condition that may name the fields read before field number `ordinal`.
    mutating func condition(before ordinal: Int) throws(Bail) -> Condition {
        guard try beginObject() else { throw Bail() }
        var seen = Seen()
        var parts: [Condition] = []
        var inner: Condition?
        var name: String?
        var operand: JSONValue?
        var list: [JSONValue] = []
        repeat {
            let key = try seen.key(try memberKey(Self.conditionKeys))
            switch key {
            case 0, 1:
                guard try beginArray() else { throw Bail() }
                repeat { parts.append(try condition(before: ordinal)) } while try nextElement()
            case 2: inner = try condition(before: ordinal)
            case 3: name = try stringValue()
            case 6:
                guard try beginArray() else { throw Bail() }
                repeat { list.append(try scalar()) } while try nextElement()
            default: operand = try scalar()
            }
        } while try nextMember()
        switch seen.bits {
        case 1 << 0: return .all(parts)
        case 1 << 1: return .any(parts)
        case 1 << 2: return .not(inner!)
        default: break
        }
        // `field` and one comparison.
        let op = seen.bits & ~(1 << 3)
        guard seen.has(3), op != 0, op & (op - 1) == 0, op & 0b111 == 0, let name, let index = fieldIndex[name],
            index < ordinal
        else { throw Bail() }
        let field = fields[index]
        @inline(__always) func comparable(_ value: JSONValue) throws(Bail) -> FieldValue {
            guard value != .null, let converted = field.value(from: value) else { throw Bail() }
            return converted
        }
        switch op {
        case 1 << 4: return .equals(field: index, try comparable(operand!))
        case 1 << 5: return .notEquals(field: index, try comparable(operand!))
        case 1 << 6:
            var values: [FieldValue] = []
            values.reserveCapacity(list.count)
            for item in list { values.append(try comparable(item)) }
            return .oneOf(field: index, values)
        case 1 << 7, 1 << 8:
            guard case .duration = field.kind, case .number(let bound) = operand!, (-1e9...1e9).contains(bound) else {
                throw Bail()
            }
            return op == 1 << 7 ? .greaterThan(field: index, bound) : .lessThan(field: index, bound)
        default:
            guard case .bool(let filled) = operand! else { throw Bail() }
            return .filled(field: index, filled)
        }
    }

    // MARK: Values

    mutating func identifier() throws(Bail) -> String {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Bail() }
        let start = at + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            let valid =
                (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == 46 || byte == 95
                || byte == 45
            guard valid else { break }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end > start, end - start <= min(64, limits.stringBytes) else {
            throw Bail()
        }
        at = end + 1
        return makeString(start..<end)
    }

    /// A string naming one of `words` (compared as bytes), or nil for another string.
    mutating func keywordValue(_ words: [StaticString]) throws(Bail) -> Int? {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Bail() }
        let range = try scanString()
        return usedScratch || nonASCII ? nil : match(range, words)
    }

    mutating func stringValue() throws(Bail) -> String {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Bail() }
        let range = try scanString()
        if usedScratch { return String(decoding: scratch, as: UTF8.self) }
        // Up to 15 bytes a String is stored inline; longer ones are allocated, so a text met
        // before (an option label, a field label in each language) is shared instead.
        if range.count <= 15 {
            if nonASCII { guard isUTF8(range) else { throw Bail() } }
            return makeString(range)
        }
        let slot = textSlot(range)
        if let cached = recentTexts[slot], same(cached.bytes, range) { return cached.text }
        if nonASCII { guard isUTF8(range) else { throw Bail() } }
        let text = makeString(range)
        recentTexts[slot] = RecentText(bytes: range, text: text)
        return text
    }

    /// A text read from the document and where (its bytes were checked then).
    struct RecentText {
        var bytes: Range<Int>
        var text: String
    }

    /// Texts longer than 15 bytes read so far, by a hash of their bytes (a slot holds the last one).
    /// (1,024 slots, made by `flow`.)
    var recentTexts: [RecentText?] = []

    /// The slot of a text of at least 16 bytes: a hash of its length and its first and last 8 bytes.
    @inline(__always) func textSlot(_ range: Range<Int>) -> Int {
        let start = UnsafeRawPointer(bytes.baseAddress! + range.lowerBound)
        let first = start.loadUnaligned(as: UInt64.self)
        let last = start.loadUnaligned(fromByteOffset: range.count - 8, as: UInt64.self)
        var hash = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(range.count)
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: hash >> 54)
    }

    /// Whether `bytes[range]` is strict UTF-8 (no overlongs, surrogates or scalars past U+10FFFF),
    /// as `JSONParser` reads it.
    func isUTF8(_ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            do { index += try JSONGrammar.utf8Length(bytes, at: index, end: range.upperBound) } catch { return false }
        }
        return true
    }

    @inline(__always) func makeString(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func bool() throws(Bail) -> Bool {
        guard case .bool(let value) = try scalar() else { throw Bail() }
        return value
    }

    mutating func number(in range: ClosedRange<Double>) throws(Bail) -> Double {
        guard case .number(let value) = try scalar(), range.contains(value) else { throw Bail() }
        return value
    }

    mutating func integer(in range: ClosedRange<Int>) throws(Bail) -> Int {
        guard let value = try scalar().intValue, range.contains(value) else { throw Bail() }
        return value
    }

    /// A string, number, boolean or null (an array or object is not read here).
    mutating func scalar() throws(Bail) -> JSONValue {
        skipWhitespace()
        guard at < bytes.count else { throw Bail() }
        switch bytes[at] {
        case UInt8(ascii: "\""): return .string(try stringValue())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw Bail()
        }
    }

    // MARK: Structure

    /// Which keys of an object were read, as bits, so a key read twice gives up.
    struct Seen {
        var bits: UInt32 = 0
        mutating func key(_ index: Int) throws(Bail) -> Int {
            let bit: UInt32 = 1 << UInt32(index)
            guard bits & bit == 0 else { throw Bail() }
            bits |= bit
            return index
        }
        func has(_ index: Int) -> Bool { bits & (1 << UInt32(index)) != 0 }
    }

    /// Reads `{`; false for an empty object (whose `}` is read too).
    mutating func beginObject() throws(Bail) -> Bool {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { throw Bail() }
        return try enter(UInt8(ascii: "}"))
    }

    mutating func beginArray() throws(Bail) -> Bool {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "[") else { throw Bail() }
        return try enter(UInt8(ascii: "]"))
    }

    @inline(__always) mutating func enter(_ close: UInt8) throws(Bail) -> Bool {
        at += 1
        depth += 1
        guard depth <= limits.depth else { throw Bail() }
        skipWhitespace()
        if at < bytes.count, bytes[at] == close {
            at += 1
            depth -= 1
            return false
        }
        return true
    }

    /// After a member: true after `,` (another member follows), false after the closing `}`.
    mutating func nextMember() throws(Bail) -> Bool { try next(UInt8(ascii: "}")) }
    mutating func nextElement() throws(Bail) -> Bool { try next(UInt8(ascii: "]")) }

    @inline(__always) mutating func next(_ close: UInt8) throws(Bail) -> Bool {
        skipWhitespace()
        guard at < bytes.count else { throw Bail() }
        if bytes[at] == UInt8(ascii: ",") {
            at += 1
            return true
        }
        guard bytes[at] == close else { throw Bail() }
        at += 1
        depth -= 1
        return false
    }

    /// A member's key, which must be one of `keys`, and its `:`; returns the key's index.
    mutating func memberKey(_ keys: [StaticString]) throws(Bail) -> Int {
        let range = try plainKey()
        guard let index = match(range, keys) else { throw Bail() }
        try colon()
        return index
    }

    /// A key written without escapes (the full path reads the others), as a range of `bytes`.
    mutating func plainKey() throws(Bail) -> Range<Int> {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Bail() }
        let range = try scanString()
        guard !usedScratch, !nonASCII else { throw Bail() }
        return range
    }

    mutating func colon() throws(Bail) {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw Bail() }
        at += 1
    }

    func match(_ range: Range<Int>, _ words: [StaticString]) -> Int? {
        let count = range.count
        for (index, word) in words.enumerated() where word.utf8CodeUnitCount == count {
            if memcmp(bytes.baseAddress! + range.lowerBound, word.utf8Start, count) == 0 { return index }
        }
        return nil
    }

    @inline(__always) mutating func skipWhitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(Bail) {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count, memcmp(bytes.baseAddress! + at, word.utf8Start, count) == 0 else { throw Bail() }
        at += count
    }

    // MARK: Strings and numbers, as strict as `JSONParser`

    /// Whether the last `scanString` decoded into `scratch` (it held escapes).
    var usedScratch = false
    /// Whether the last string read in place holds non-ASCII bytes, not checked yet: only
    /// `stringValue` turns such a string into text, checking it is UTF-8 as it does. Keys, ids,
    /// tags and keywords are compared with ASCII, so non-ASCII bytes never match them.
    var nonASCII = false

    /// Reads a string from its opening quote; returns the range of its content. When it holds
    /// escapes, the checked and decoded bytes are in `scratch` (`usedScratch`).
    mutating func scanString() throws(Bail) -> Range<Int> {
        let base = bytes.baseAddress!
        let count = bytes.count
        let start = at + 1
        var index = start
        var high: UInt8 = 0
        usedScratch = false
        // Eight bytes at a time while none is a quote, a backslash or a control character (each
        // test is exact for the word; the loop below finds which byte it was).
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var highWord: UInt64 = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highBits != 0 { break }
            highWord |= word
            index += 8
        }
        if highWord & highBits != 0 { high = 0x80 }
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                guard index - start <= limits.stringBytes else { throw Bail() }
                at = index + 1
                nonASCII = high >= 0x80
                return start..<index
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            index += 1
        }
        // Escapes (or an error): decoded into `scratch`. The runs between escapes are copied whole
        // and checked as UTF-8 when they hold non-ASCII bytes (a run ends at an ASCII byte, so no
        // sequence is split between runs: one cut short fails the check, as byte by byte).
        usedScratch = true
        nonASCII = false
        scratch.removeAll(keepingCapacity: true)
        var run = start
        at = index
        while true {
            while at < count {
                let byte = base[at]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                high |= byte
                at += 1
            }
            if at > run {
                if high >= 0x80 { guard isUTF8(run..<at) else { throw Bail() } }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<at]))
                high = 0
                guard scratch.count <= limits.stringBytes else { throw Bail() }
            }
            guard at < count else { throw Bail() }
            switch base[at] {
            case UInt8(ascii: "\""):
                at += 1
                return start..<(at - 1)
            case UInt8(ascii: "\\"):
                try escape()
                guard scratch.count <= limits.stringBytes else { throw Bail() }
                run = at
            default: throw Bail()
            }
        }
    }

    mutating func escape() throws(Bail) {
        do { try JSONGrammar.decodeEscape(bytes, at: &at, into: &scratch) } catch { throw Bail() }
    }

    mutating func parseNumber() throws(Bail) -> Double {
        do { return try JSONGrammar.number(bytes, at: &at) } catch { throw Bail() }
    }
}

/// A flow's document: the `JSONValue` it was read from, or the bytes of a flow the fast path
/// read, parsed the first time `Flow.document` is asked for (snapshots that embed the flow).
final class FlowDocument: @unchecked Sendable {
    /// Immutable; only `parsed` changes, under its lock.
    private let bytes: [UInt8]
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

    /// The entries of the display string the fast path read at `offset` of the bytes.
    func localizedEntries(at offset: Int) -> [LocalizedText.Entry] {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = FlowReader(bytes: buffer, limits: limits, folder: nil, source: nil)
            reader.at = offset
            // The fast path read this display string under these limits, so it reads again.
            return (try? reader.decodeLocalized()) ?? []
        }
    }

    var value: JSONValue {
        parsed.withLock { parsed in
            if let parsed { return parsed }
            // The fast path read these bytes under these limits, so they parse.
            let value = (try? JSONParser.parse(bytes, limits: limits).value) ?? .null
            parsed = value
            return value
        }
    }
}
