// FoundationEssentials where the toolchain splits Foundation (Linux).
#if canImport(FoundationEssentials)
    import FoundationEssentials
    #if canImport(Glibc)
        import Glibc
    #endif
#else
    import Foundation
#endif

/// The reader of snapshots: the top-level members are read in one pass, each parsed as a value
/// but `values` and `touched` (one entry per field: thousands), which are checked and stepped
/// over, then read in place once the flow is known (each id compared with the field at its
/// position before any lookup, answers made straight from the bytes).
struct SnapshotReader: JSONScanning {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    let prefix = JSONPath.root
    var at = 0
    var depth = 0
    var steps: [JSONStep] = []
    var scratch: [UInt8] = []
    var usedScratch = false
    var reportsDuplicates = true
    var document: DocumentReader
    /// Where `values` and `touched` start, until they are read.
    var unread: [(name: String, offset: Int)] = []

    /// For a value Quire wrote itself: only its own size caps it.
    static let unlimited = JSONLimits(documentBytes: .max, depth: .max, stringBytes: .max)

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, document: DocumentReader) {
        self.bytes = bytes
        self.limits = limits
        self.document = document
    }

    mutating func read(flow: Flow?) throws(JSONScanError) -> Session? {
        try startDocument()
        let session = try snapshot(flow: flow)
        try finishDocument()
        // A member not read (the snapshot was refused before it) is read now for its repeated keys.
        for (name, offset) in unread {
            at = offset
            steps = [.name(name)]
            _ = try value()
        }
        return session
    }

    mutating func snapshot(flow: Flow?) throws(JSONScanError) -> Session? {
        guard try isObject("a snapshot") else { return nil }
        var object = JSONObject(minimumCapacity: Session.snapshotKeys.count)
        if try beginObject() {
            repeat {
                let (name, keyAt) = try memberName()
                steps.append(.name(name))
                if object.position(of: name) != nil {
                    try duplicate(keyAt: keyAt)
                } else if name == "values" || name == "touched" {
                    unread.append((name, at))
                    try skip()
                    object.append(name, .null)
                } else {
                    object.append(name, try value())
                }
                steps.removeLast()
            } while try nextMember()
        }
        let end = at
        defer { at = end }
        return try Session.restore(object, at: .root, flow: flow, reader: &self)
    }

    /// Moves to the unread member `name`: false when the snapshot has none.
    mutating func seek(_ name: StaticString) -> Bool {
        guard let index = unread.firstIndex(where: { $0.name == "\(name)" }) else { return false }
        at = unread[index].offset
        unread.remove(at: index)
        steps = [.key(name)]
        return true
    }

    /// `values`: one answer per field (the field's default where it has none), with the answers'
    /// lengths in grapheme clusters (`FieldValue.textLength`); nil without `values`.
    mutating func answers(of flow: Flow) throws(JSONScanError) -> (values: [FieldValue], textLengths: [Int])? {
        guard seek("values") else { return nil }
        defer { steps = [] }
        guard try isObject("values") else { return nil }
        let ids = flow.fieldIDs
        let traits = flow.fieldTraits
        let count = ids.count
        var values = [FieldValue](repeating: .null, count: count)
        var lengths = [Int](repeating: 0, count: count)
        var seen = [Bool](repeating: false, count: count)
        var unknown = Set<String>()
        var next = 0
        if try beginObject() {
            repeat {
                skipWhitespace()
                let keyAt = at
                let key = try anyKey()
                // (A key without escapes is its field's id: its path step is its bytes, and
                // the id is made as a `String` only for a problem.)
                let escaped = usedScratch ? String(decoding: scratch, as: UTF8.self) : nil
                let field = if let escaped { flow.fieldIndex(of: escaped) } else { self.field(named: key, from: next, of: flow) }
                try colon()
                steps.append(escaped.map(JSONStep.name) ?? .range(key))
                defer { steps.removeLast() }
                guard let field else {
                    let id = escaped ?? makeString(key)
                    if unknown.insert(id).inserted {
                        problem("the flow has no field '\(id)'", onKey: true)
                        _ = try value()
                    } else {
                        try duplicate(keyAt: keyAt)
                    }
                    continue
                }
                guard !seen[field] else {
                    try duplicate(keyAt: keyAt)
                    continue
                }
                seen[field] = true
                next = field + 1
                let kind = traits[field].kind
                switch try peek() {
                case UInt8(ascii: "n"):
                    try literal("null")
                case UInt8(ascii: "t") where kind == .toggle:
                    try literal("true")
                    values[field] = .toggle(true)
                case UInt8(ascii: "f") where kind == .toggle:
                    try literal("false")
                    values[field] = .toggle(false)
                case UInt8(ascii: "\"") where kind == .text:
                    let text = try scanString()
                    if usedScratch {
                        values[field] = .text(String(decoding: scratch, as: UTF8.self))
                        lengths[field] = values[field].textLength
                    } else {
                        values[field] = .text(makeString(text))
                        // ASCII with no escapes (so no CR LF): one grapheme cluster per byte.
                        let ascii = UnsafeBufferPointer(rebasing: bytes[text]).allSatisfy { $0 < 0x80 }
                        lengths[field] = ascii ? text.count : values[field].textLength
                    }
                default:
                    // A choice's option id, a duration's number: read as `JSONValue` and converted.
                    let json = try value()
                    guard let value = flow.fields[field].value(from: json) else {
                        problem("\(json) is not a value of the \(flow.fields[field].kind.name) field '\(ids[field])'")
                        values[field] = flow.fields[field].defaultValue
                        lengths[field] = values[field].textLength
                        continue
                    }
                    values[field] = value
                    lengths[field] = value.textLength
                }
            } while try nextMember()
        }
        for field in 0..<count where !seen[field] {
            values[field] = flow.fields[field].defaultValue
            lengths[field] = values[field].textLength
        }
        return (values, lengths)
    }

    /// `touched`: the fields it names; nil without `touched`.
    mutating func touched(of flow: Flow) throws(JSONScanError) -> [Bool]? {
        guard seek("touched") else { return nil }
        defer { steps = [] }
        guard try isArray("touched") else { return nil }
        var touched = [Bool](repeating: false, count: flow.fieldIDs.count)
        var index = 0
        var next = 0
        if try beginArray() {
            repeat {
                steps.append(.index(index))
                if try peek() == UInt8(ascii: "\"") {
                    let key = try scanString()
                    let field =
                        usedScratch
                        ? flow.fieldIndex(of: String(decoding: scratch, as: UTF8.self)) : self.field(named: key, from: next, of: flow)
                    if let field {
                        touched[field] = true
                        next = field + 1
                    } else {
                        let id = usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(key)
                        problem("the flow has no field \(JSONValue.string(id))")
                    }
                } else {
                    let entry = try value()
                    _ = document.string(entry, at: path(), what: "a field id")
                    problem("the flow has no field \(entry)")
                }
                steps.removeLast()
                index += 1
            } while try nextElement()
        }
        return touched
    }

    /// The field whose id is the text at `key`: the fields at `next` and after it are compared
    /// first (a snapshot lists fields in flow order, `touched` skipping some), then the id is
    /// looked up.
    func field(named key: Range<Int>, from next: Int, of flow: Flow) -> Int? {
        let ids = flow.fieldIDs
        if next < ids.count && matches(key, ids[next]) { return next }
        if next + 1 < ids.count && matches(key, ids[next + 1]) { return next + 1 }
        return flow.fieldIndex(of: makeString(key))
    }

    /// Whether the bytes at `range` are the UTF-8 of `text`.
    func matches(_ range: Range<Int>, _ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == range.count else { return false }
        return utf8.withContiguousStorageIfAvailable { stored in
            memcmp(stored.baseAddress!, bytes.baseAddress! + range.lowerBound, range.count) == 0
        } ?? utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[range]))
    }
}
