/// Ids and display strings: read in place where they are plain, checked, decoded when asked for.
extension FlowReader {

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
}
