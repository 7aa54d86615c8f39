/// Serializes `JSONValue`s. Whole numbers print without a fraction; other numbers print the
/// shortest text that reads back to the same `Double`, so snapshots round-trip exactly.
public enum JSONWriter {
    public enum Style: Sendable {
        case compact
        /// Two-space indentation; arrays of scalars stay on one line.
        case pretty
    }

    public static func string(_ value: JSONValue, style: Style = .compact) -> String {
        String(decoding: data(value, style: style), as: UTF8.self)
    }

    /// The value as UTF-8 bytes. The output is built by appending bytes to one buffer, so writing
    /// takes time linear in its size.
    public static func data(_ value: JSONValue, style: Style = .compact) -> [UInt8] {
        var out: [UInt8] = []
        write(value, style: style, indent: 0, into: &out)
        return out
    }

    public static func number(_ number: Double) -> String {
        if number.rounded() == number && abs(number) < 1e15 {
            return String(Int(number))
        }
        return "\(number)"
    }

    /// `number(_:)`'s text appended to `out`; a whole number is written digit by digit, with no
    /// `String` made for it.
    static func writeNumber(_ number: Double, into out: inout [UInt8]) {
        guard number.rounded() == number && abs(number) < 1e15 else {
            out.append(contentsOf: "\(number)".utf8)
            return
        }
        var whole = Int(number)
        if whole < 0 {
            out.append(UInt8(ascii: "-"))
            whole = -whole
        }
        // At most 15 digits (|number| < 10^15), written backwards into a fixed-size buffer.
        var digits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10)
                whole /= 10
            } while whole > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string literal: quotes, backslashes and control characters (C0, DEL, C1, U+2028
    /// and U+2029, which end lines in some readers) are escaped; everything else is copied as is.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings (ids, ASCII answers) have nothing to escape: one copy.
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                guard byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") else { break }
                at += 1
            }
            if at == bytes.count {
                out.append(contentsOf: bytes)
                return
            }
            // From the first byte that may need an escape on.
            var plain = 0
            let count = bytes.count
            while at < count {
                let byte = bytes[at]
                var escape: StaticString? = nil
                var code: UInt32? = nil
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00..<0x20, 0x7F: code = UInt32(byte)
                case 0xC2 where at + 1 < count && bytes[at + 1] >= 0x80 && bytes[at + 1] <= 0x9F:
                    code = UInt32(bytes[at + 1])  // C1 controls, U+0080–U+009F
                    width = 2
                case 0xE2 where at + 2 < count && bytes[at + 1] == 0x80 && (bytes[at + 2] == 0xA8 || bytes[at + 2] == 0xA9):
                    code = bytes[at + 2] == 0xA8 ? 0x2028 : 0x2029
                    width = 3
                default: break
                }
                guard escape != nil || code != nil else {
                    at += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<at]))
                if let escape {
                    escape.withUTF8Buffer { out.append(contentsOf: $0) }
                } else if let code {
                    out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
                    for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int((code >> UInt32(shift)) & 0xF)]) }
                }
                at += width
                plain = at
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): items.isEmpty
        case .object(let object): object.isEmpty
        default: true
        }
    }

    static func write(_ value: JSONValue, style: Style, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number): writeNumber(number, into: &out)
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            let inline = style == .compact || items.allSatisfy(isScalar)
            out.append(UInt8(ascii: "["))
            for (at, item) in items.enumerated() {
                if at > 0 { out.append(contentsOf: (inline && style == .pretty ? ", " : ",").utf8) }
                if !inline { newline(indent + 1, into: &out) }
                write(item, style: style, indent: indent + 1, into: &out)
            }
            if !inline { newline(indent, into: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if style == .pretty { newline(indent + 1, into: &out) }
                writeString(key, into: &out)
                out.append(contentsOf: (style == .pretty ? ": " : ":").utf8)
                write(item, style: style, indent: indent + 1, into: &out)
            }
            if style == .pretty { newline(indent, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ indent: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out.append(contentsOf: [0x20, 0x20]) }
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { JSONWriter.string(self) }
}
