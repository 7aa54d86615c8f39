/// A JSONPath-style location inside a document: `$.pages[2].fields[0].id`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component]

    public static let root = JSONPath(components: [])

    public init(components: [Component] = []) {
        self.components = components
    }

    public func appending(_ key: String) -> JSONPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    public func appending(_ index: Int) -> JSONPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    public static func + (path: JSONPath, key: String) -> JSONPath { path.appending(key) }
    public static func + (path: JSONPath, index: Int) -> JSONPath { path.appending(index) }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainKey(key) {
                    text += "." + key
                } else {
                    text += "[" + JSONWriter.quoted(key) + "]"
                }
            }
        }
        return text
    }

    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= 48 && first <= 57) else { return false }
        return key.utf8.allSatisfy { byte in
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95
                || byte == 45
        }
    }
}

/// A 1-based line and column; the column counts Unicode scalars, as editors do.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of a byte offset in a UTF-8 document. Only called on the error path.
    public init(offset: Int, in bytes: [UInt8]) {
        self = Self.positions(of: [offset], in: bytes)[offset]!
    }

    /// The positions of many offsets in one pass over the document. A byte order mark at the
    /// start is not a column.
    public static func positions(of offsets: [Int], in bytes: [UInt8]) -> [Int: SourcePosition] {
        var result: [Int: SourcePosition] = [:]
        let sorted = Array(Set(offsets)).sorted()
        var line = 1
        var column = 1
        var at = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        for offset in sorted {
            let end = min(max(offset, at), bytes.count)
            while at < end {
                let byte = bytes[at]
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                at += 1
            }
            result[offset] = SourcePosition(line: line, column: column)
        }
        return result
    }

    public var description: String { "\(line):\(column)" }
}

/// One problem found in a document, with where and why.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible, Error {
    public var file: String
    public var position: SourcePosition
    public var path: JSONPath
    public var message: String

    public init(file: String, position: SourcePosition, path: JSONPath, message: String) {
        self.file = file
        self.position = position
        self.path = path
        self.message = message
    }

    /// A problem with a file as a whole (it cannot be read, it is a folder with no script):
    /// printed as `file: message`, with no position or path.
    public static func whole(file: String, message: String) -> Diagnostic {
        Diagnostic(file: file, position: SourcePosition(line: 0, column: 0), path: .root, message: message)
    }

    /// `file:line:column: $.json.path: message` (`file: message` for a problem with a whole file),
    /// always one line: control characters from the file name, keys or quoted values are escaped.
    public var description: String {
        Printable.line(position.line == 0 ? "\(file): \(message)" : "\(file):\(position): \(path): \(message)")
    }
}

/// Text from documents and file names made safe for one line of a report, so that no document
/// can forge a line or drive the terminal.
public enum Printable {
    /// Whether a scalar must not reach a report as it is: C0 and C1 control characters, DEL,
    /// the Unicode line and paragraph separators.
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (value >= 0x7F && value <= 0x9F) || value == 0x2028 || value == 0x2029
    }

    /// `text` with every control character written as `\n`, `\r`, `\t` or `\uXXXX` (as in JSON).
    /// Other text, backslashes included, is left alone, so escaping twice changes nothing.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
        }
        return String(out)
    }
}

/// A document rejected whole, with every problem found in it.
public struct DocumentError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
