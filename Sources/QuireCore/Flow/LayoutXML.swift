/// A small, strict reader of the XML a GtkBuilder layout is written in, for checking layouts
/// without GTK (`LayoutPolicy`).
///
/// **Contract:** whatever it accepts, it reads exactly as GLib's `GMarkup` does when GtkBuilder
/// calls it (`g_markup_parse_context_new` with `G_MARKUP_TREAT_CDATA_AS_TEXT`, the whole file in
/// one `g_markup_parse_context_parse`): the same elements, the same attributes in the same order
/// with the same values, the same text per element. The policy judges this tree, so a layout
/// read one way here and another way by GTK would let GTK build what the policy never saw (a
/// comment `<!-->` that ended later here than in GMarkup once hid a button bound to
/// `app.walkthrough`). The `layout` fuzz target (Fuzz/Targets/layout.swift) holds the two readers
/// to this, input by input (hence `package`: the fuzz build shares the package name, not the
/// module); where GMarkup accepts what this reader refuses, that is listed below.
///
/// It reads, as GMarkup does:
/// - elements and attributes, values in single or double quotes; text and `<![CDATA[…]]>` inside
///   the root element (CDATA as text, nothing decoded in it);
/// - comments, each ending at the first `>` whose two preceding characters are `--`, counting the
///   opening's own dashes: `<!-->` and `<!--->` are whole comments, `<!-- a -- b -->` is one;
/// - an `<?xml …?>` declaration before the root, ending at the first `?>`;
/// - the five predefined entities and character references (`&#N;`, `&#xH;`, an optional `+`) of
///   the characters GMarkup permits: U+1–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF;
/// - line ends as GMarkup normalizes them: in text, CR LF and a lone CR become LF; in attribute
///   values, CR LF, CR, LF and tab each become one space (characters written as references are
///   kept as they are).
///
/// It refuses, where GMarkup (as GtkBuilder calls it) would read on:
/// - a byte order mark, invalid UTF-8 or a NUL byte anywhere (GMarkup checks only text and names;
///   no NUL also keeps out GtkBuilder's precompiled form, which starts `GBU\0`);
/// - a DOCTYPE, any processing instruction but a leading `<?xml …?>`, any other `<!…>`, CDATA
///   outside the root, and any entity but the five;
/// - more than one root element, and an element left open at the end (GtkBuilder never calls
///   `g_markup_parse_context_end_parse`, so it does not refuse a file cut short);
/// - names of anything but ASCII letters, digits, `_ : . -` (GMarkup also takes letters of
///   other scripts);
/// - attributes not separated by space (`<a b="1"c="2">`), an attribute given twice, `<` in an
///   attribute value, more than `maxAttributes` attributes on an element;
/// - character references GMarkup's `strtoul` stretches: leading spaces, a `0x` after `&#x`,
///   more than 12 characters between `&` and `;` (leading zeros);
/// - nesting deeper than `maxDepth`, more than `maxElements` elements.
///
/// So it never expands an entity, never fetches a DTD and never opens a file: it only reads the
/// bytes it is given. It keeps no recursion (an explicit stack) and records the byte offset of
/// every element and attribute for `file:line:column` diagnostics.
///
/// **Decision:** a reader of our own rather than Foundation's `XMLParser`: `XMLParser` is
/// libxml2 underneath (FoundationXML, a library more to link into the core, the C library and
/// the static `quire`), which reads DTDs and expands entities unless told not to, and whose
/// accepted syntax is not GMarkup's; this reader is 400 lines, accepts only what both GMarkup
/// and the policy accept, and its positions are the ones `quire check` prints.
package struct LayoutXML {
    package struct Attribute {
        package var name: String
        package var value: String
        /// Where the attribute's name starts.
        var offset: Int
    }

    package final class Element {
        package let name: String
        package let attributes: [Attribute]
        /// Where its `<` is.
        let offset: Int
        package var children: [Element] = []
        /// Its text (character data and CDATA, entities decoded), outside child elements.
        package var text = ""
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

    package struct SyntaxError: Error {
        package var offset: Int
        package var message: String
    }

    /// The deepest nesting of elements read (a layout's own limits are lower; this one only keeps
    /// the reader's stack bounded).
    static let maxDepth = 256
    /// The most elements read.
    static let maxElements = 50_000
    /// The most attributes on one element (GMarkup's own limit is 1,001).
    static let maxAttributes = 1_000

    let bytes: [UInt8]
    var at = 0

    /// The root element of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Element {
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
            } else if peek("<![CDATA[") {
                throw fail("a CDATA section is not allowed outside the root element")
            } else if peek("<!") {
                throw fail("a declaration is not allowed here")
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

    /// A comment, read as GMarkup reads one: it ends at the first `>` that follows two dashes,
    /// the opening's own included, so `<!-->` and `<!--->` are whole comments.
    mutating func comment() throws(SyntaxError) {
        let start = at
        guard let end = find("-->", from: at + 2) else { throw fail("a comment is not closed with '-->'", at: start) }
        at = end + 3
    }

    /// ASCII only: GMarkup takes a non-ASCII character in a name only when it is a letter
    /// (`g_unichar_isalpha`), and GtkBuilder's names are all ASCII.
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x3A
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
                guard let open = stack.last else { throw fail("a CDATA section is not allowed outside the root element") }
                guard let end = find("]]>", from: at + 9) else { throw fail("a CDATA section is not closed with ']]>'", at: start) }
                open.text += String(decoding: bytes[(start + 9)..<end], as: UTF8.self)
                if open.text.isEmpty == false, open.textOffset == open.offset { open.textOffset = start + 9 }
                at = end + 3
            } else if peek("<!") || peek("<?") {
                throw fail("a declaration or processing instruction is not allowed inside an element")
            } else if peek("<") {
                let start = at
                at += 1
                let elementName = try name()
                var attributes: [Attribute] = []
                // Names seen on this element: a repeated one is found at once, however many.
                var names: Set<String> = []
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
                    let value = try decode(valueStart..<at, attribute: true)
                    at += 1
                    if !names.insert(attributeName).inserted {
                        throw fail("the attribute '\(attributeName)' is given twice", at: attributeStart)
                    }
                    if attributes.count >= Self.maxAttributes {
                        throw fail("<\(elementName)> has more than \(Self.maxAttributes) attributes", at: attributeStart)
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
                let text = try decode(start..<at, attribute: false)
                if open.textOffset == open.offset, let first = bytes[start..<at].firstIndex(where: { !Self.isSpace($0) }) {
                    open.textOffset = first
                }
                open.text += text
            }
            if !stack.isEmpty, at >= bytes.count { throw fail("<\(stack.last!.name)> is not closed", at: stack.last!.offset) }
        } while !stack.isEmpty
        return root!
    }

    /// Text or an attribute value with its line ends normalized and its entities and character
    /// references decoded, as GMarkup does: in text, CR LF and CR become LF; in an attribute
    /// value, CR LF, CR, LF and tab become a space. (Characters written as references stay.)
    func decode(_ range: Range<Int>, attribute: Bool) throws(SyntaxError) -> String {
        let special = { (byte: UInt8) in
            byte == UInt8(ascii: "&") || byte == 0x0D || (attribute && (byte == 0x0A || byte == 0x09))
        }
        guard bytes[range].contains(where: special) else { return String(decoding: bytes[range], as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == 0x0D {
                out.append(attribute ? 0x20 : 0x0A)
                index += index + 1 < range.upperBound && bytes[index + 1] == 0x0A ? 2 : 1
                continue
            }
            if attribute, byte == 0x0A || byte == 0x09 {
                out.append(0x20)
                index += 1
                continue
            }
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
                // The characters GMarkup permits (XML 1.1's): not U+0, a surrogate, U+FFFE or U+FFFF.
                guard let number,
                    (1...0xD7FF).contains(number) || (0xE000...0xFFFD).contains(number) || (0x10000...0x10FFFF).contains(number),
                    let scalar = Unicode.Scalar(number)
                else {
                    throw fail("'&\(entity);' is not a character", at: index)
                }
                out.append(contentsOf: String(scalar).utf8)
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
