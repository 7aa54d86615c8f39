/// A small, strict reader of the XML a GtkBuilder layout is written in, for checking layouts
/// without GTK (`LayoutPolicy`).
///
/// It reads the subset GLib's `GMarkup` (GtkBuilder's parser) reads — elements, attributes in
/// single or double quotes, text, `<![CDATA[…]]>`, comments, an `<?xml …?>` declaration, the five
/// predefined entities and character references — and refuses everything else: a DOCTYPE, any
/// other entity, processing instructions after the start, text outside the root element. So it
/// never expands an entity, never fetches a DTD and never opens a file: it only reads the bytes it
/// is given. It keeps no recursion (an explicit stack), stops at `maxDepth` nested elements and
/// `maxElements` elements, and records the byte offset of every element and attribute for
/// `file:line:column` diagnostics.
///
/// **Decision:** a reader of our own rather than Foundation's `XMLParser`: `XMLParser` is
/// libxml2 underneath (FoundationXML, a library more to link into the core, the C library and
/// the static `quire`), which reads DTDs and expands entities unless told not to, and whose
/// accepted syntax is not GMarkup's; this reader is 300 lines, accepts exactly what both GMarkup
/// and the policy accept, and its positions are the ones `quire check` prints.
struct LayoutXML {
    struct Attribute {
        var name: String
        var value: String
        /// Where the attribute's name starts.
        var offset: Int
    }

    final class Element {
        let name: String
        let attributes: [Attribute]
        /// Where its `<` is.
        let offset: Int
        var children: [Element] = []
        /// Its text (character data and CDATA, entities decoded), outside child elements.
        var text = ""
        /// Where its first non-space text starts (for a problem with the value), or its offset.
        var textOffset: Int
        weak var parent: Element?

        init(name: String, attributes: [Attribute], offset: Int) {
            self.name = name
            self.attributes = attributes
            self.offset = offset
            self.textOffset = offset
        }

        func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
    }

    struct SyntaxError: Error {
        var offset: Int
        var message: String
    }

    /// The deepest nesting of elements read (a layout's own limits are lower; this one only keeps
    /// the reader's stack bounded).
    static let maxDepth = 256
    /// The most elements read.
    static let maxElements = 50_000

    let bytes: [UInt8]
    var at = 0

    /// The root element of `bytes`.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Element {
        var reader = LayoutXML(bytes: bytes)
        return try reader.document()
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func fail(_ message: String, at offset: Int? = nil) -> SyntaxError {
        SyntaxError(offset: offset ?? at, message: message)
    }

    func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in
            for index in 0..<count where bytes[at + index] != prefix[index] { return false }
            return true
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    mutating func skipSpace() {
        while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    }

    mutating func document() throws(SyntaxError) -> Element {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail("the file starts with a byte order mark, which GtkBuilder does not read", at: 0)
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw fail("the file is not valid UTF-8", at: Self.firstInvalidUTF8(bytes))
        }
        if let nul = bytes.firstIndex(of: 0) { throw fail("the file holds a NUL byte", at: nul) }
        skipSpace()
        if peek("<?xml") {
            guard let end = find("?>", from: at) else { throw fail("the XML declaration is not closed with '?>'") }
            at = end + 2
        }
        var root: Element?
        var count = 0
        while true {
            skipSpace()
            if at >= bytes.count { break }
            if peek("<!--") {
                try comment()
            } else if peek("<!DOCTYPE") || peek("<!doctype") {
                throw fail("a DOCTYPE is not allowed in a layout (it can define entities and name outside files)")
            } else if peek("<?") {
                throw fail("a processing instruction is not allowed here")
            } else if peek("<") {
                if root != nil { throw fail("there is more than one root element") }
                root = try element(count: &count)
            } else {
                throw fail("text outside the root element")
            }
        }
        guard let root else { throw fail("the file has no element", at: bytes.count) }
        return root
    }

    /// About where UTF-8 first goes wrong (a lead byte without its continuation bytes).
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0
            guard length > 0, index + length <= bytes.count,
                bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 })
            else { return index }
            index += length
        }
        return max(0, bytes.count - 1)
    }

    func find(_ text: StaticString, from start: Int) -> Int? {
        var reader = self
        reader.at = start
        while reader.at < bytes.count {
            if reader.peek(text) { return reader.at }
            reader.at += 1
        }
        return nil
    }

    mutating func comment() throws(SyntaxError) {
        let start = at
        guard let end = find("-->", from: at + 4) else { throw fail("a comment is not closed with '-->'", at: start) }
        at = end + 3
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    mutating func name() throws(SyntaxError) -> String {
        let start = at
        guard at < bytes.count, Self.isNameStart(bytes[at]) else { throw fail("a name is expected here") }
        while at < bytes.count, Self.isNameByte(bytes[at]) { at += 1 }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    /// An element and everything in it, without recursion: the open elements are a stack.
    mutating func element(count: inout Int) throws(SyntaxError) -> Element {
        var stack: [Element] = []
        var root: Element?
        repeat {
            if peek("</") {
                let start = at
                at += 2
                let closing = try name()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw fail("'>' is expected to end </\(closing)") }
                at += 1
                guard let open = stack.popLast() else { throw fail("</\(closing)> closes nothing", at: start) }
                if open.name != closing {
                    throw fail(
                        "</\(closing)> does not close <\(open.name)> (opened at \(SourcePosition(offset: open.offset, in: bytes)))",
                        at: start)
                }
            } else if peek("<!--") {
                try comment()
            } else if peek("<![CDATA[") {
                let start = at
                guard let end = find("]]>", from: at + 9) else { throw fail("a CDATA section is not closed with ']]>'", at: start) }
                stack.last!.text += String(decoding: bytes[(start + 9)..<end], as: UTF8.self)
                if stack.last!.text.isEmpty == false, stack.last!.textOffset == stack.last!.offset { stack.last!.textOffset = start + 9 }
                at = end + 3
            } else if peek("<!") || peek("<?") {
                throw fail("a declaration or processing instruction is not allowed inside an element")
            } else if peek("<") {
                let start = at
                at += 1
                let elementName = try name()
                var attributes: [Attribute] = []
                var selfClosing = false
                while true {
                    let before = at
                    skipSpace()
                    guard at < bytes.count else { throw fail("<\(elementName)> is not closed with '>'", at: start) }
                    if bytes[at] == UInt8(ascii: ">") {
                        at += 1
                        break
                    }
                    if peek("/>") {
                        at += 2
                        selfClosing = true
                        break
                    }
                    if at == before { throw fail("a space is expected between attributes") }
                    let attributeStart = at
                    let attributeName = try name()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else {
                        throw fail("'=' is expected after the attribute '\(attributeName)'")
                    }
                    at += 1
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                        throw fail("the value of '\(attributeName)' must be in quotes")
                    }
                    let quote = bytes[at]
                    at += 1
                    let valueStart = at
                    while at < bytes.count, bytes[at] != quote {
                        if bytes[at] == UInt8(ascii: "<") { throw fail("'<' is not allowed in an attribute value") }
                        at += 1
                    }
                    guard at < bytes.count else { throw fail("the value of '\(attributeName)' is not closed", at: valueStart) }
                    let value = try decode(valueStart..<at)
                    at += 1
                    if attributes.contains(where: { $0.name == attributeName }) {
                        throw fail("the attribute '\(attributeName)' is given twice", at: attributeStart)
                    }
                    attributes.append(Attribute(name: attributeName, value: value, offset: attributeStart))
                }
                count += 1
                if count > Self.maxElements { throw fail("the layout has more than \(Self.maxElements) elements", at: start) }
                let element = Element(name: elementName, attributes: attributes, offset: start)
                if let parent = stack.last {
                    element.parent = parent
                    parent.children.append(element)
                } else {
                    root = element
                }
                if !selfClosing {
                    if stack.count >= Self.maxDepth {
                        throw fail(
                            "elements are nested more than \(Self.maxDepth) deep (objects nest at most \(LayoutPolicy.maxDepth) deep in a layout)",
                            at: start)
                    }
                    stack.append(element)
                }
            } else {
                // Text up to the next markup.
                let start = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
                guard let open = stack.last else { throw fail("text outside the root element", at: start) }
                let text = try decode(start..<at)
                if open.textOffset == open.offset, let first = bytes[start..<at].firstIndex(where: { !Self.isSpace($0) }) {
                    open.textOffset = first
                }
                open.text += text
            }
            if !stack.isEmpty, at >= bytes.count { throw fail("<\(stack.last!.name)> is not closed", at: stack.last!.offset) }
        } while !stack.isEmpty
        return root!
    }

    /// Text with its entities and character references decoded.
    func decode(_ range: Range<Int>) throws(SyntaxError) -> String {
        guard bytes[range].contains(UInt8(ascii: "&")) else { return String(decoding: bytes[range], as: UTF8.self) }
        var out: [UInt8] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            guard let semicolon = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: ";")), semicolon - index <= 12 else {
                throw fail("'&' starts no entity (write '&amp;')", at: index)
            }
            let entity = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            switch entity {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                var number: UInt32?
                if entity.hasPrefix("#x") {
                    number = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    number = UInt32(entity.dropFirst(), radix: 10)
                } else {
                    throw fail(
                        "the entity '&\(entity);' is not one GtkBuilder reads (only &lt; &gt; &amp; &quot; &apos; and character references)",
                        at: index)
                }
                guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
                    throw fail("'&\(entity);' is not a character", at: index)
                }
                out.append(contentsOf: String(scalar).utf8)
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
