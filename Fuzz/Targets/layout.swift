// Fuzz target: the layout reader against GTK's. Any bytes go to `LayoutXML.parse` (what
// `LayoutPolicy` judges) and to GLib's GMarkup as GtkBuilder calls it (Fuzz/gmarkup-tree.c). When
// LayoutXML accepts, GMarkup must accept too and read the same element tree (names, attributes in
// order with their values, each element's text, children in order); otherwise the target aborts
// with both trees. LayoutXML may refuse what GMarkup accepts (it is stricter; its doc comment lists
// how). Built and run by scripts/fuzz, linked with Fuzz/gmarkup-tree.c and glib-2.0.
import Glibc
import QuireCore

/// The canonical form of gmarkup-tree.c: `(NAME`, `@NAME=VALUE` lines, the children, `"TEXT`,
/// `)`; bytes below 0x20, 0x7F and `\` written as `\xHH`.
func canonical(_ root: LayoutXML.Element) -> String {
    var out: [UInt8] = []
    func escape(_ text: String) {
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
                let hex = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
    }
    // An explicit stack, as LayoutXML keeps: an element is entered, then left after its children.
    var stack: [(element: LayoutXML.Element, entered: Bool)] = [(root, false)]
    while let (element, entered) = stack.popLast() {
        if entered {
            out.append(UInt8(ascii: "\""))
            escape(element.text)
            out += Array("\n)\n".utf8)
            continue
        }
        out.append(UInt8(ascii: "("))
        escape(element.name)
        out.append(0x0A)
        for attribute in element.attributes {
            out.append(UInt8(ascii: "@"))
            escape(attribute.name)
            out.append(UInt8(ascii: "="))
            escape(attribute.value)
            out.append(0x0A)
        }
        stack.append((element, true))
        for child in element.children.reversed() { stack.append((child, false)) }
    }
    return String(decoding: out, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayout(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let root = try? LayoutXML.parse(bytes) else { return 0 }
    let ours = canonical(root)
    let raw = bytes.withUnsafeBufferPointer { quire_gmarkup_tree($0.baseAddress, $0.count)! }
    let theirs = String(cString: raw)
    free(raw)
    if ours != theirs {
        let input = String(decoding: bytes, as: UTF8.self)
        let report = "LayoutXML and GMarkup read this layout differently:\n\(input)\n--- LayoutXML\n\(ours)--- GMarkup\n\(theirs)\n"
        report.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
        abort()
    }
    return 0
}
