/// Snapshots as bytes, the autosave's path: written straight from the session's arrays, and read
/// straight back when they are what Quire wrote for the flow at hand. Both are shortcuts with
/// the same results as the general path (`JSONWriter.data(snapshot())`, and the parse-then-read
/// restore), which stays the one that explains a problem.
extension Session {
    /// The snapshot as compact JSON: exactly the bytes of `JSONWriter.data(snapshot(includingFlow:))`,
    /// written without building the `JSONValue` tree (the answers and touched marks go from the
    /// session's arrays to the bytes).
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
        for field in values.indices {
            if field > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(flow.fieldIDs[field], into: &out)
            out.append(UInt8(ascii: ":"))
            switch values[field] {
            case .null: out.append("null")
            case .text(let text): JSONWriter.writeString(text, into: &out)
            case .duration(let seconds): JSONWriter.writeNumber(Double(seconds), into: &out)
            case .toggle(let on): out.append(on ? "true" : "false")
            case .choice: JSONWriter.write(flow.fields[field].json(values[field]), style: .compact, indent: 0, into: &out)
            }
        }
        out.append("},\"touched\":[")
        var first = true
        for field in touched.indices where touched[field] {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(flow.fieldIDs[field], into: &out)
        }
        out.append("],\"page\":")
        JSONWriter.writeString(flow.pages[currentPage].id, into: &out)
        out.append(",\"position\":")
        JSONWriter.writeNumber(position, into: &out)
        out.append(",\"motion\":")
        JSONWriter.write(snapshotMotion, style: .compact, indent: 0, into: &out)
        out.append(",\"input\":")
        JSONWriter.write(snapshotInput, style: .compact, indent: 0, into: &out)
        out.append(",\"autoAdvance\":")
        JSONWriter.write(snapshotAutoAdvance, style: .compact, indent: 0, into: &out)
        out.append(",\"completed\":")
        JSONWriter.write(stateValue("completed")!, style: .compact, indent: 0, into: &out)
        out.append(UInt8(ascii: "}"))
        return out.bytes
    }

    /// Restores a snapshot of `flow` from its bytes without parsing them into a tree: the
    /// answers and touched marks are read in place (each key compared with the field at its
    /// position in the flow before any lookup), the few other members are parsed alone and read
    /// by `restore` as usual. Nil, and the caller takes the general path, whenever the bytes are
    /// anything else than a document that path would restore without a problem: escapes,
    /// unknown or repeated keys, a value of the wrong kind, the limits reached, any syntax error.
    static func restoreDirectly(_ bytes: [UInt8], flow: Flow, limits: JSONLimits) -> Session? {
        // The answers sit two levels deep; a document within the limits can hold them.
        guard bytes.count <= limits.documentBytes, limits.depth >= 2 else { return nil }
        let read: (JSONObject, ReadAnswers)? = bytes.withUnsafeBufferPointer { buffer in
            var scanner = SnapshotScanner(bytes: buffer, limits: limits)
            return scanner.snapshot(of: flow)
        }
        guard let (object, answers) = read else { return nil }
        var reader = DocumentReader(file: "", bytes: [])
        guard let session = restore(.object(object), at: .root, flow: flow, reader: &reader, read: answers), !reader.hasProblems
        else { return nil }
        return session
    }
}

/// The reader behind `Session.restoreDirectly`: a strict scanner over the document's bytes that
/// accepts a subset of what `JSONParser` accepts and gives up (nil) on anything else.
struct SnapshotScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    var at = 0
    /// The text of the last string `plainString` read.
    var lastString = 0..<0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The top-level object: `values` and `touched` read into arrays (their places in the object
    /// hold empty stand-ins, so `restore` sees the keys), every other member parsed as it is.
    mutating func snapshot(of flow: Flow) -> (JSONObject, Session.ReadAnswers)? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var object = JSONObject(minimumCapacity: Session.snapshotKeys.count)
        var answers: (values: [FieldValue], textLengths: [Int])? = nil
        var touched: [Bool]? = nil
        while true {
            skipWhitespace()
            guard let key = plainString(), let name = Session.snapshotKeys.first(where: { matches(key, $0) }),
                object.position(of: name) == nil
            else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch name {
            case "values":
                guard let read = self.answers(of: flow) else { return nil }
                answers = read
                object.append(name, .object(JSONObject()))
            case "touched":
                guard let read = touchedMarks(of: flow) else { return nil }
                touched = read
                object.append(name, .array([]))
            default:
                guard let value = parsedValue(depth: limits.depth - 1) else { return nil }
                object.append(name, value)
            }
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            break
        }
        skipWhitespace()
        guard at == bytes.count, let answers else { return nil }
        return (
            object,
            Session.ReadAnswers(
                values: answers.values, textLengths: answers.textLengths,
                touched: touched ?? [Bool](repeating: false, count: flow.fields.count))
        )
    }

    /// `values`: one answer per field, the field's default where the object has none, with the
    /// answers' lengths in grapheme clusters (`FieldValue.textLength`).
    mutating func answers(of flow: Flow) -> (values: [FieldValue], textLengths: [Int])? {
        guard take(UInt8(ascii: "{")) else { return nil }
        let ids = flow.fieldIDs
        let traits = flow.fieldTraits
        let count = ids.count
        var values = [FieldValue](repeating: .null, count: count)
        var lengths = [Int](repeating: 0, count: count)
        var seen = [Bool](repeating: false, count: count)
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            var next = 0
            while true {
                skipWhitespace()
                guard let key = plainString(), let field = field(named: key, from: next, in: ids, of: flow), !seen[field] else {
                    return nil
                }
                seen[field] = true
                next = field + 1
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard at < bytes.count else { return nil }
                let kind = traits[field].kind
                switch bytes[at] {
                case UInt8(ascii: "n") where literal("null"):
                    break  // `.null`, as the array holds
                case UInt8(ascii: "t") where kind == .toggle && literal("true"):
                    values[field] = .toggle(true)
                case UInt8(ascii: "f") where kind == .toggle && literal("false"):
                    values[field] = .toggle(false)
                case UInt8(ascii: "\"") where kind == .text && plainString() != nil:
                    // Printable ASCII: one grapheme cluster per byte.
                    let text = UnsafeBufferPointer(rebasing: bytes[lastString])
                    values[field] = .text(String(decoding: text, as: UTF8.self))
                    lengths[field] = text.count
                default:
                    // Escaped text, a choice's option id, a duration's number: parsed alone and
                    // read as `restore` reads it; anything else is no value of the field.
                    guard let json = parsedValue(depth: limits.depth - 2), let value = flow.fields[field].value(from: json) else {
                        return nil
                    }
                    values[field] = value
                    lengths[field] = value.textLength
                }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        for field in 0..<count where !seen[field] {
            values[field] = flow.fields[field].defaultValue
            lengths[field] = values[field].textLength
        }
        return (values, lengths)
    }

    /// `touched`: the fields it names.
    mutating func touchedMarks(of flow: Flow) -> [Bool]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        let ids = flow.fieldIDs
        var touched = [Bool](repeating: false, count: ids.count)
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return touched }
        var next = 0
        while true {
            skipWhitespace()
            guard let key = plainString(), let field = field(named: key, from: next, in: ids, of: flow) else { return nil }
            touched[field] = true
            next = field + 1
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "]")) else { return nil }
            return touched
        }
    }

    /// The field whose id is the text at `key`: the fields at `next` and after it are compared
    /// first (a snapshot lists fields in flow order, `touched` skipping some), then the id is
    /// looked up.
    @inline(__always) func field(named key: Range<Int>, from next: Int, in ids: [String], of flow: Flow) -> Int? {
        if next < ids.count && matches(key, ids[next]) { return next }
        if next + 1 < ids.count && matches(key, ids[next + 1]) { return next + 1 }
        return flow.fieldIndex(of: String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self))
    }

    /// Whether the bytes at `range` are the UTF-8 of `text`.
    @inline(__always) func matches(_ range: Range<Int>, _ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == range.count else { return false }
        let equal = utf8.withContiguousStorageIfAvailable { stored in
            var at = 0
            while at < stored.count {
                if stored[at] != bytes[range.lowerBound + at] { return false }
                at += 1
            }
            return true
        }
        return equal ?? utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    mutating func skipWhitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - at >= count else { return false }
        for offset in 0..<count where bytes[at + offset] != word.utf8Start[offset] { return false }
        at += count
        return true
    }

    /// A string of printable ASCII without escapes, within the string limit: the range of its
    /// text, or nil (and nothing read) for any other string or value.
    mutating func plainString() -> Range<Int>? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                guard end - start <= limits.stringBytes else { return nil }
                at = end + 1
                lastString = start..<end
                return lastString
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            end += 1
        }
        return nil
    }

    /// The value that starts here, parsed alone by `JSONParser` (so it reads exactly as in the
    /// whole document) with `depth` levels of nesting left; nil for a syntax error or a
    /// repeated key.
    mutating func parsedValue(depth: Int) -> JSONValue? {
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            break
        default:
            return nil
        }
        guard let end = valueEnd() else { return nil }
        let limits = JSONLimits(documentBytes: self.limits.documentBytes, depth: depth, stringBytes: self.limits.stringBytes)
        guard let result = try? JSONParser.parse(Array(bytes[at..<end]), limits: limits), result.duplicateKeys.isEmpty else {
            return nil
        }
        at = end
        return result.value
    }

    /// Where the value that starts here ends, if it is well formed: after its closing quote or
    /// bracket, or before the byte that ends a number or literal.
    func valueEnd() -> Int? {
        var end = at
        var open = 0
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\""):
                end += 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                guard end < bytes.count else { return nil }
                end += 1
                if open == 0 { return end }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                end += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if open == 0 { return end }
                open -= 1
                end += 1
                if open == 0 { return end }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if open == 0 { return end }
                end += 1
            default:
                end += 1
            }
        }
        return open == 0 ? end : nil
    }
}
