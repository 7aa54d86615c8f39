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
        var out = JSONOutput()
        write(value, style: style, indent: 0, into: &out)
        return out.bytes
    }

    public static func number(_ number: Double) -> String {
        if number.rounded() == number && abs(number) < 1e15 {
            return String(Int(number))
        }
        return "\(number)"
    }

    /// `number(_:)`'s text appended to `out`; a whole number is written digit by digit, with no
    /// `String` made for it.
    package static func writeNumber(_ number: Double, into out: inout JSONOutput) {
        guard number.rounded() == number && abs(number) < 1e15 else {
            var text = "\(number)"
            text.withUTF8 { out.append($0) }
            return
        }
        var whole = Int(number)
        if whole < 0 {
            out.append(UInt8(ascii: "-"))
            whole = -whole
        }
        // At most 15 digits (|number| < 10^15), written backwards.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10)
                whole /= 10
            } while whole > 0
            out.append(UnsafeBufferPointer(rebasing: buffer[at...]))
        }
    }

    public static func quoted(_ text: String) -> String {
        var out = JSONOutput()
        writeString(text, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string literal: quotes, backslashes and control characters (C0, DEL, C1, U+2028
    /// and U+2029, which end lines in some readers) are escaped; everything else is copied as is.
    package static func writeString(_ text: String, into out: inout JSONOutput) {
        // Most strings (ids, ASCII answers) have nothing to escape.
        if let written = text.utf8.withContiguousStorageIfAvailable({ out.appendPlainString($0) }), written { return }
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var at = 0
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
                out.append(UnsafeBufferPointer(rebasing: bytes[plain..<at]))
                if let escape {
                    out.append(escape)
                } else if let code {
                    out.append("\\u")
                    for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int((code >> UInt32(shift)) & 0xF)]) }
                }
                at += width
                plain = at
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[plain..<count]))
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

    package static func write(_ value: JSONValue, style: Style, indent: Int, into out: inout JSONOutput) {
        switch value {
        case .null: out.append("null")
        case .bool(let bool): out.append(bool ? "true" : "false")
        case .number(let number): writeNumber(number, into: &out)
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            if items.isEmpty {
                out.append("[]")
                return
            }
            let inline = style == .compact || items.allSatisfy(isScalar)
            out.append(UInt8(ascii: "["))
            for (at, item) in items.enumerated() {
                if at > 0 { out.append(inline && style == .pretty ? ", " : ",") }
                if !inline { newline(indent + 1, into: &out) }
                write(item, style: style, indent: indent + 1, into: &out)
            }
            if !inline { newline(indent, into: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                out.append("{}")
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if style == .pretty { newline(indent + 1, into: &out) }
                writeString(key, into: &out)
                out.append(style == .pretty ? ": " : ":")
                write(item, style: style, indent: indent + 1, into: &out)
            }
            if style == .pretty { newline(indent, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ indent: Int, into out: inout JSONOutput) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out.append("  ") }
    }
}

/// The writer's output: bytes stored through a pointer into memory that grows by doubling, so
/// an append is a bounds check and a copy (an `Array` also checks that its buffer is unique, on
/// every append). `bytes` copies them out once.
package struct JSONOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    package init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always) package mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(to: count + bytes.count) }
        if bytes.count <= 16 {
            // Punctuation and short runs: a loop costs less than a call to memcpy.
            for at in 0..<bytes.count { base[count + at] = source[at] }
        } else {
            (base + count).initialize(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Appends `bytes` in quotes when none of them needs an escape in a JSON string (printable
    /// ASCII other than quote and backslash), copied as they are checked; false, and nothing
    /// appended, otherwise.
    @inline(__always) mutating func appendPlainString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if capacity - count < bytes.count + 2 { grow(to: count + bytes.count + 2) }
        let start = base + count
        start[0] = UInt8(ascii: "\"")
        for at in 0..<bytes.count {
            let byte = bytes[at]
            guard byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") else { return false }
            start[at + 1] = byte
        }
        start[bytes.count + 1] = UInt8(ascii: "\"")
        count += bytes.count + 2
        return true
    }

    @inline(__always) package mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func grow(to minimum: Int) {
        let larger = max(minimum, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { JSONWriter.string(self) }
}
