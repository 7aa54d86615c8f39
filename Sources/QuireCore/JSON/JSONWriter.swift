/// Serializes `JSONValue`s. Whole numbers print without a fraction; other numbers print the
/// shortest text that reads back to the same `Double`, so snapshots round-trip exactly.
public enum JSONWriter {
    public enum Style: Sendable {
        case compact
        /// Two-space indentation; arrays of scalars stay on one line.
        case pretty
    }

    public static func string(_ value: JSONValue, style: Style = .compact) -> String {
        var out = ""
        write(value, style: style, indent: 0, into: &out)
        return out
    }

    public static func data(_ value: JSONValue, style: Style = .compact) -> [UInt8] {
        Array(string(value, style: style).utf8)
    }

    public static func number(_ number: Double) -> String {
        if number.rounded() == number && abs(number) < 1e15 {
            return String(Int(number))
        }
        return "\(number)"
    }

    public static func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, into: &out)
        return out
    }

    static func writeString(_ text: String, into out: inout String) {
        out.append("\"")
        var plainStart = text.unicodeScalars.startIndex
        var index = plainStart
        let scalars = text.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                out.append(escape)
                index = scalars.index(after: index)
                plainStart = index
            } else {
                index = scalars.index(after: index)
            }
        }
        out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
        out.append("\"")
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): items.isEmpty
        case .object(let object): object.isEmpty
        default: true
        }
    }

    private static func write(_ value: JSONValue, style: Style, indent: Int, into out: inout String) {
        switch value {
        case .null: out.append("null")
        case .bool(let bool): out.append(bool ? "true" : "false")
        case .number(let number): out.append(Self.number(number))
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            if items.isEmpty {
                out.append("[]")
                return
            }
            let inline = style == .compact || items.allSatisfy(isScalar)
            out.append("[")
            for (at, item) in items.enumerated() {
                if at > 0 { out.append(inline && style == .pretty ? ", " : ",") }
                if !inline { newline(indent + 1, into: &out) }
                write(item, style: style, indent: indent + 1, into: &out)
            }
            if !inline { newline(indent, into: &out) }
            out.append("]")
        case .object(let object):
            if object.isEmpty {
                out.append("{}")
                return
            }
            out.append("{")
            var first = true
            for (key, item) in object {
                if !first { out.append(",") }
                first = false
                if style == .pretty { newline(indent + 1, into: &out) }
                writeString(key, into: &out)
                out.append(style == .pretty ? ": " : ":")
                write(item, style: style, indent: indent + 1, into: &out)
            }
            if style == .pretty { newline(indent, into: &out) }
            out.append("}")
        }
    }

    private static func newline(_ indent: Int, into out: inout String) {
        out.append("\n")
        out.append(String(repeating: "  ", count: indent))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { JSONWriter.string(self) }
}
