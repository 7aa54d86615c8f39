// FoundationEssentials where the toolchain splits Foundation (Linux).
#if canImport(FoundationEssentials)
    import FoundationEssentials
    #if canImport(Glibc)
        import Glibc
    #endif
#else
    import Foundation
#endif

/// Reading a JSON document's bytes in one pass, as strictly as `JSONParser`, keeping the path
/// being read: what the flow reader (`FlowReader`) and the snapshot reader
/// (`Session.SnapshotReader`) share. A reader records problems by JSON path in its
/// `DocumentReader`, which places them in the document only when there are any; on a syntax
/// error (`JSONScanError`) the reader stops, and `JSONParser` reads the document again to name it.
package protocol JSONScanning {
    var bytes: UnsafeBufferPointer<UInt8> { get }
    var limits: JSONLimits { get }
    /// The path of the value read in its document (`$.flow` for a script's inline flow).
    var prefix: JSONPath { get }
    var at: Int { get set }
    var depth: Int { get set }
    /// The path from `prefix` to the value being read.
    var steps: [JSONStep] { get set }
    /// Decoded bytes of the last string that held escapes (`usedScratch`).
    var scratch: [UInt8] { get set }
    var usedScratch: Bool { get set }
    /// Off while a value is read a second time, so its repeated keys are reported once.
    var reportsDuplicates: Bool { get set }
    /// Where the problems go, by JSON path.
    var document: DocumentReader { get set }
}

/// The document is not well-formed JSON (or breaks a `JSONLimits` cap): `JSONParser` says why.
package struct JSONScanError: Error {
    package init() {}
}

/// One step of the path being read: a key (one of a list, decoded, or as its bytes), or an index.
package enum JSONStep {
    case key(StaticString)
    case name(String)
    /// A key written without escapes, as its bytes.
    case range(Range<Int>)
    case index(Int)
}

/// The keys of an object besides the known ones, in document order, and as a set: a
/// repeated one is found with a lookup, so 20,000 unknown keys are read in linear time.
package struct OtherKeys {
    package var names: [String] = []
    package var seen = Set<String>()
    package init() {}
}

/// The keys an object of one kind may have, as an enum: its cases, in order, are the keys
/// spelled in `names` (a typed key instead of an index into a list of names).
package protocol ObjectKey: RawRepresentable, CaseIterable where RawValue == Int {
    /// Each case's key as the document spells it, in the order of the cases.
    static var names: [StaticString] { get }
}

extension ObjectKey {
    /// The key as the document spells it.
    package var name: StaticString { Self.names[rawValue] }
}

/// Which known keys of an object were read, as bits.
package struct KeysSeen {
    package var bits: UInt32 = 0
    package init() {}
    /// False when the key was read before.
    package mutating func first(_ index: Int) -> Bool {
        let bit: UInt32 = 1 << UInt32(index)
        guard bits & bit == 0 else { return false }
        bits |= bit
        return true
    }
    package func has(_ index: Int) -> Bool { bits & (1 << UInt32(index)) != 0 }
    package func has(_ key: some ObjectKey) -> Bool { has(key.rawValue) }
}

package enum MemberKey {
    case known(Int)
    /// A key not in the list (its value not read).
    case other(String)
    /// A known key met again: reported, its value read past.
    case repeated
}

extension JSONScanning {
    // MARK: Problems and paths

    /// The path being read.
    package func path() -> JSONPath {
        var components = prefix.components
        components.reserveCapacity(components.count + steps.count + 1)
        for step in steps {
            switch step {
            case .key(let key): components.append(.key("\(key)"))
            case .name(let name): components.append(.key(name))
            case .range(let range): components.append(.key(makeString(range)))
            case .index(let index): components.append(.index(index))
            }
        }
        return JSONPath(components: components)
    }

    /// A problem with the value being read (or the member `key` of it).
    package mutating func problem(_ message: String, at key: String? = nil, onKey: Bool = false) {
        document.error(key.map { path() + $0 } ?? path(), message, onKey: onKey)
    }

    /// Whether two ranges of `bytes` hold the same bytes.
    @inline(__always) package func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        Self.equal(bytes.baseAddress! + a.lowerBound, a.count, bytes.baseAddress! + b.lowerBound, b.count)
    }

    /// Whether the `count` bytes at `a` are the `otherCount` bytes at `b` (eight at a time, then
    /// one by one).
    static func equal(_ a: UnsafePointer<UInt8>, _ count: Int, _ b: UnsafePointer<UInt8>, _ otherCount: Int) -> Bool {
        guard count == otherCount else { return false }
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self)
            guard word == UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self) else { return false }
            index += 8
        }
        while index < count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }

    @inline(__always) package func makeString(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The string here (the caller has seen its quote).
    package mutating func stringValue() throws(JSONScanError) -> String {
        skipWhitespace()
        let range = try scanString()
        return usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(range)
    }

    /// The string here, or nil after "\(what) must be a string, not …".
    package mutating func string(_ what: @autoclosure () -> String) throws(JSONScanError) -> String? {
        if try peek() == UInt8(ascii: "\"") { return try stringValue() }
        _ = document.string(try value(), at: path(), what: what())
        return nil
    }

    package mutating func bool(_ what: String) throws(JSONScanError) -> Bool? {
        let value = try value()
        if case .bool(let bool) = value { return bool }
        return document.bool(value, at: path(), what: what)
    }

    package mutating func integer(_ what: String, in range: ClosedRange<Int>) throws(JSONScanError) -> Int? {
        let value = try value()
        if let integer = value.intValue, range.contains(integer) { return integer }
        return document.integer(value, at: path(), what: what, in: range)
    }

    /// Whether the value here is an object; else it is read and reported as not one.
    package mutating func isObject(_ what: String) throws(JSONScanError) -> Bool {
        if try peek() == UInt8(ascii: "{") { return true }
        _ = document.object(try value(), at: path(), what: what)
        return false
    }

    package mutating func isArray(_ what: String) throws(JSONScanError) -> Bool {
        if try peek() == UInt8(ascii: "[") { return true }
        _ = document.array(try value(), at: path(), what: what)
        return false
    }

    /// Steps over a UTF-8 byte order mark and whitespace to the document's value; throws for an
    /// empty document.
    package mutating func startDocument() throws(JSONScanError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
    }

    /// Only whitespace may follow the document's value.
    package mutating func finishDocument() throws(JSONScanError) {
        skipWhitespace()
        guard at == bytes.count else { throw JSONScanError() }
    }

    /// Any value, as a `JSONValue`: a repeated key in it is reported and the first value kept.
    /// Without `keepingPath` no path is kept and a repeated key ends the read instead (a caller
    /// that meets it reads the document again, with a reader that names it).
    package mutating func value(keepingPath: Bool = true) throws(JSONScanError) -> JSONValue {
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            // Most objects are small (a step, an `expect`): room for a few members at once.
            var object = JSONObject(minimumCapacity: 4)
            guard try beginObject() else { return .object(object) }
            repeat {
                let (name, keyAt) = try memberName()
                if keepingPath { steps.append(.name(name)) }
                if object.position(of: name) != nil {
                    guard keepingPath else { throw JSONScanError() }
                    try duplicate(keyAt: keyAt, read: false)
                    _ = try value()
                } else {
                    object.append(name, try value(keepingPath: keepingPath))
                }
                if keepingPath { steps.removeLast() }
            } while try nextMember()
            return .object(object)
        case UInt8(ascii: "["):
            var array: [JSONValue] = []
            guard try beginArray() else { return .array(array) }
            repeat {
                if keepingPath { steps.append(.index(array.count)) }
                array.append(try value(keepingPath: keepingPath))
                if keepingPath { steps.removeLast() }
            } while try nextElement()
            return .array(array)
        case UInt8(ascii: "\""): return .string(try stringValue())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            do { return .number(try JSONGrammar.number(bytes, at: &at)) } catch { throw JSONScanError() }
        default: throw JSONScanError()
        }
    }

    /// Steps over the value here, checking it as `value()` does without building it (repeated
    /// keys are not looked for).
    package mutating func skip() throws(JSONScanError) {
        switch try peek() {
        case UInt8(ascii: "{"):
            guard try beginObject() else { return }
            repeat {
                _ = try anyKey()
                try colon()
                try skip()
            } while try nextMember()
        case UInt8(ascii: "["):
            guard try beginArray() else { return }
            repeat { try skip() } while try nextElement()
        case UInt8(ascii: "\""): _ = try scanString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            do { _ = try JSONGrammar.number(bytes, at: &at) } catch { throw JSONScanError() }
        default: throw JSONScanError()
        }
    }

    /// Reports a repeated key (the step of its member is on `steps`); its value is read past
    /// unless `read` is false (the caller reads it).
    package mutating func duplicate(keyAt: Int, read: Bool = true) throws(JSONScanError) {
        if reportsDuplicates { document.duplicateKey(path(), offset: keyAt) }
        if read { _ = try value() }
    }

    // MARK: Structure

    /// A member's key and its `:`. Unknown keys are the caller's (`others` keeps the ones met,
    /// to tell a repeated one).
    /// A member's name, read up to and including its colon, and where its key starts (for a
    /// repeated key's problem).
    package mutating func memberName() throws(JSONScanError) -> (name: String, keyAt: Int) {
        skipWhitespace()
        let keyAt = at
        let key = try keyHere()
        let name = usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(key)
        try colon()
        return (name, keyAt)
    }

    package mutating func memberKey(_ keys: [StaticString], _ seen: inout KeysSeen, others: inout OtherKeys) throws(JSONScanError)
        -> MemberKey
    {
        skipWhitespace()
        let keyAt = at
        let range = try keyHere()
        if let index = usedScratch ? scratch.withUnsafeBufferPointer({ Self.match($0, keys) }) : Self.match(bytes, range, keys) {
            try colon()
            if seen.first(index) { return .known(index) }
            steps.append(.key(keys[index]))
            try duplicate(keyAt: keyAt)
            steps.removeLast()
            return .repeated
        }
        let name = usedScratch ? String(decoding: scratch, as: UTF8.self) : makeString(range)
        try colon()
        if !others.seen.insert(name).inserted {
            steps.append(.name(name))
            try duplicate(keyAt: keyAt)
            steps.removeLast()
            return .repeated
        }
        others.names.append(name)
        return .other(name)
    }

    /// A member's key: the index of a known key, or nil when it was unknown (reported as such
    /// when `what` names the object, with a hint, and its value read past) or repeated.
    package mutating func member(_ keys: [StaticString], _ seen: inout KeysSeen, _ others: inout OtherKeys, what: String?)
        throws(JSONScanError) -> Int?
    {
        switch try memberKey(keys, &seen, others: &others) {
        case .known(let index): return index
        case .repeated: return nil
        case .other(let name):
            if let what {
                var message = "unknown key '\(name)' in \(what)"
                if let near = DocumentReader.closest(to: name, in: keys.map { "\($0)" }) { message += "; did you mean '\(near)'?" }
                problem(message, at: name, onKey: true)
            }
            steps.append(.name(name))
            _ = try value()
            steps.removeLast()
            return nil
        }
    }

    /// A member's key of the object kind `Key`, or nil as `member(_:_:_:what:)` says.
    package mutating func member<Key: ObjectKey>(_: Key.Type, _ seen: inout KeysSeen, _ others: inout OtherKeys, what: String?)
        throws(JSONScanError) -> Key?
    {
        try member(Key.names, &seen, &others, what: what).flatMap(Key.init(rawValue:))
    }

    package mutating func peek() throws(JSONScanError) -> UInt8 {
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
        return bytes[at]
    }

    /// Reads `{`; false for an empty object (whose `}` is read too).
    package mutating func beginObject() throws(JSONScanError) -> Bool {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { throw JSONScanError() }
        return try enter(UInt8(ascii: "}"))
    }

    package mutating func beginArray() throws(JSONScanError) -> Bool {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "[") else { throw JSONScanError() }
        return try enter(UInt8(ascii: "]"))
    }

    mutating func enter(_ close: UInt8) throws(JSONScanError) -> Bool {
        at += 1
        depth += 1
        guard depth <= limits.depth else { throw JSONScanError() }
        skipWhitespace()
        if at < bytes.count, bytes[at] == close {
            at += 1
            depth -= 1
            return false
        }
        return true
    }

    /// After a member: true after `,` (another member follows), false after the closing `}`.
    package mutating func nextMember() throws(JSONScanError) -> Bool { try next(UInt8(ascii: "}")) }
    package mutating func nextElement() throws(JSONScanError) -> Bool { try next(UInt8(ascii: "]")) }

    mutating func next(_ close: UInt8) throws(JSONScanError) -> Bool {
        skipWhitespace()
        guard at < bytes.count else { throw JSONScanError() }
        if bytes[at] == UInt8(ascii: ",") {
            at += 1
            return true
        }
        guard bytes[at] == close else { throw JSONScanError() }
        at += 1
        depth -= 1
        return false
    }

    /// A key, as a range of `bytes` (or decoded into `scratch` when it holds escapes).
    package mutating func anyKey() throws(JSONScanError) -> Range<Int> {
        skipWhitespace()
        return try keyHere()
    }

    /// A key at `at`, the whitespace before it skipped already (`anyKey`).
    package mutating func keyHere() throws(JSONScanError) -> Range<Int> {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw JSONScanError() }
        return try scanString()
    }

    package mutating func colon() throws(JSONScanError) {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw JSONScanError() }
        at += 1
    }

    // (`match` and `isUTF8` are static: they need only the bytes, not a copy of the reader.)

    /// The index of the word in `words` that `bytes[range]` holds, if any.
    package static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ words: [StaticString]) -> Int? {
        let start = bytes.baseAddress! + range.lowerBound
        for (index, word) in words.enumerated() where equal(start, range.count, word.utf8Start, word.utf8CodeUnitCount) {
            return index
        }
        return nil
    }

    package static func match(_ decoded: UnsafeBufferPointer<UInt8>, _ words: [StaticString]) -> Int? {
        match(decoded, 0..<decoded.count, words)
    }

    package mutating func skipWhitespace() {
        var index = at
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        at = index
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    package mutating func literal(_ word: StaticString) throws(JSONScanError) {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count, memcmp(bytes.baseAddress! + at, word.utf8Start, count) == 0 else {
            throw JSONScanError()
        }
        at += count
    }

    // MARK: Strings, as strict as `JSONParser`

    /// Reads a string from its opening quote, checking it as `JSONParser` does; returns the
    /// range of its content. When it holds escapes, the decoded bytes are in `scratch`
    /// (`usedScratch`).
    package mutating func scanString() throws(JSONScanError) -> Range<Int> {
        let base = bytes.baseAddress!
        let count = bytes.count
        let start = at + 1
        var index = start
        usedScratch = false
        // Eight bytes at a time while none is a quote, a backslash, a control character or a byte
        // of a multi-byte character. Each test may also flag bytes above a special one (a borrow
        // carries upward), never below: the lowest flagged byte is the first special one, and the
        // bytes before it are plain ASCII. A multi-byte character is checked where it is met
        // (`JSONGrammar.utf8Length`), so an ASCII text is never read twice.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index < count {
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                // (A byte under 0x20 borrows, one from 0x80 has its high bit already.)
                let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word
                let flagged = special & highBits
                if flagged != 0 {
                    index += flagged.trailingZeroBitCount / 8
                    break
                }
                index += 8
            }
            guard index < count else { break }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                guard index - start <= limits.stringBytes else { throw JSONScanError() }
                at = index + 1
                return start..<index
            }
            if byte >= 0x80 {
                // (A run of multi-byte characters is checked one after another, before the
                // eight-byte scan goes on.)
                repeat {
                    do { index += try JSONGrammar.utf8Length(bytes, at: index, end: count) } catch { throw JSONScanError() }
                } while index < count && base[index] >= 0x80
            } else if byte == UInt8(ascii: "\\") || byte < 0x20 {
                break
            } else {
                index += 1
            }
        }
        return try scanEscaped(from: start)
    }

    /// A string with escapes (or an error) from `start`, after its quote: decoded into `scratch`.
    /// The runs between escapes are copied whole and checked as UTF-8 when they hold non-ASCII
    /// bytes (a run ends at an ASCII byte, so no sequence is split between runs).
    mutating func scanEscaped(from start: Int) throws(JSONScanError) -> Range<Int> {
        let base = bytes.baseAddress!
        let count = bytes.count
        usedScratch = true
        scratch.removeAll(keepingCapacity: true)
        var run = start
        var high: UInt8 = 0
        at = start
        while true {
            while at < count {
                let byte = base[at]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                high |= byte
                at += 1
            }
            if at > run {
                if high >= 0x80 { guard Self.isUTF8(bytes, run..<at) else { throw JSONScanError() } }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<at]))
                high = 0
                guard scratch.count <= limits.stringBytes else { throw JSONScanError() }
            }
            guard at < count else { throw JSONScanError() }
            switch base[at] {
            case UInt8(ascii: "\""):
                at += 1
                return start..<(at - 1)
            case UInt8(ascii: "\\"):
                // (`at` and `scratch` are two of `self`'s properties: taken out for the call.)
                var position = at
                var decoded = scratch
                scratch = []
                let escaped = (try? JSONGrammar.decodeEscape(bytes, at: &position, into: &decoded)) != nil
                scratch = decoded
                at = position
                guard escaped, scratch.count <= limits.stringBytes else { throw JSONScanError() }
                run = at
            default: throw JSONScanError()
            }
        }
    }

    /// Whether `bytes[range]` is strict UTF-8 (no overlongs, surrogates or scalars past U+10FFFF):
    /// `JSONGrammar.utf8Length`'s rule, character by character.
    package static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
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
}
