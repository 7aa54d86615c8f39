/// The pieces of JSON's grammar that both readers need, decided once: `JSONParser`, which names
/// every problem, and `FlowReader`, the flows' fast path, which gives up at the first one and
/// leaves the naming to the parser. Each piece reports what went wrong as a small enum; the
/// parser turns it into its message.
package enum JSONGrammar {
    enum EscapeProblem: Error {
        /// The document ends inside the escape.
        case truncated
        /// The byte after the backslash starts no escape.
        case unknown(UInt8)
        case needsHexDigits
        case loneHighSurrogate
        case loneLowSurrogate
        case notAScalar
    }

    /// Decodes the escape whose backslash is at `at`, appending its UTF-8 to `out`, and moves
    /// `at` past it (a surrogate pair is one escape).
    @inline(__always)
    static func decodeEscape<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at: inout Int, into out: inout [UInt8]
    ) throws(EscapeProblem) where Bytes.Index == Int {
        at += 1
        guard at < bytes.count else { throw .truncated }
        let byte = bytes[at]
        at += 1
        switch byte {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(bytes, at: &at)
            if scalar >= 0xD800 && scalar < 0xDC00 {
                // A high surrogate must be followed by an escaped low surrogate.
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                    throw .loneHighSurrogate
                }
                at += 2
                let low = try hex4(bytes, at: &at)
                guard low >= 0xDC00 && low < 0xE000 else { throw .loneHighSurrogate }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw .loneLowSurrogate
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .notAScalar }
            out.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw .unknown(byte)
        }
    }

    @inline(__always)
    static func hex4<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at: inout Int) throws(EscapeProblem) -> UInt32
    where Bytes.Index == Int {
        guard at + 4 <= bytes.count else { throw .truncated }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw .needsHexDigits
            }
            value = value << 4 | digit
            at += 1
        }
        return value
    }

    package enum UTF8Problem: Error {
        /// The byte cannot start a character.
        case badLead
        /// The character runs past `end`.
        case cutOff
        /// A continuation byte the lead byte needs is missing (`length` bytes in all).
        case missingContinuation(length: Int)
        case overlongOrSurrogate
    }

    /// The length of the multi-byte UTF-8 character whose lead byte (≥ 0x80) is at `at`, ending
    /// by `end`, checked strictly: no overlongs, no surrogates, nothing above U+10FFFF. These are
    /// the well-formed sequences of the Unicode standard (table 3-7): the lead byte sets the
    /// length and the range of the second byte, which is what rules out the three.
    @inline(__always)
    package static func utf8Length<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at: Int, end: Int) throws(UTF8Problem) -> Int
    where Bytes.Index == Int {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[at] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: throw .badLead
        }
        guard at + length <= end else { throw .cutOff }
        for offset in 1..<length where bytes[at + offset] & 0xC0 != 0x80 { throw .missingContinuation(length: length) }
        guard second.contains(bytes[at + 1]) else { throw .overlongOrSurrogate }
        return length
    }

    enum NumberProblem: Error {
        case noDigitAfterMinus, leadingZero, noDigitAfterPoint, noDigitInExponent
        /// Not finite as a `Double`.
        case outOfRange
        /// An integer past 2^53, which a `Double` would round.
        case inexactInteger
    }

    /// Reads the number that starts at `at` (a `-` or a digit) and moves `at` past it.
    @inline(__always)
    static func number<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at: inout Int) throws(NumberProblem) -> Double
    where Bytes.Index == Int {
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }
        let start = at
        var integer = true
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else { throw .noDigitAfterMinus }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < bytes.count, isDigit(bytes[at]) { throw .leadingZero }
        } else {
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            integer = false
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else { throw .noDigitAfterPoint }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            integer = false
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, isDigit(bytes[at]) else { throw .noDigitInExponent }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if integer && at - start <= 15 {
            var value = 0
            var digitAt = start
            let negative = bytes[digitAt] == UInt8(ascii: "-")
            if negative { digitAt += 1 }
            while digitAt < at {
                value = value * 10 + Int(bytes[digitAt] - 48)
                digitAt += 1
            }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .outOfRange }
        // An integer written out whole is meant exactly; beyond 2^53 a Double would round it
        // (9007199254740993 reads as ...992), so compare the digits, not the value.
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        if integer && (digits.count > 16 || (digits.count == 16 && digits > "9007199254740992")) { throw .inexactInteger }
        return value
    }
}
