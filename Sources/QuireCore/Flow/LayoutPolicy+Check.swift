/// Checking a layout file's bytes against the policy, without a flow: elements, classes,
/// properties, values, children and limits (`LayoutPolicy.check`).
extension LayoutPolicy {

    /// An object of a checked layout.
    public struct Object: Sendable, Hashable {
        public var id: String?
        public var className: String
        /// Where its `<object` is.
        public var offset: Int
        /// A direct child of `<interface>`.
        public var topLevel: Bool
    }

    /// A problem at a byte offset of the layout.
    public struct Problem: Sendable, Hashable {
        public var offset: Int
        public var message: String
    }

    /// What checking a layout's bytes found: its objects (when it could be read), and every
    /// problem in document order.
    public struct Checked: Sendable {
        public var objects: [Object] = []
        public var problems: [Problem] = []
        /// Problems found beyond those kept (`problemLimit` of them are listed).
        public var more = 0
    }

    /// Checks a layout's bytes against the policy (no flow needed: classes, properties, values,
    /// children, limits).
    public static func check(_ bytes: [UInt8]) -> Checked {
        let root: LayoutXML.Element
        do {
            root = try LayoutXML.parse(bytes)
        } catch {
            return Checked(problems: [Problem(offset: error.offset, message: "not a well-formed layout: \(error.message)")])
        }
        var checker = Checker(bytes: bytes)
        checker.interface(root)
        checker.references()
        if root.name == "interface" {
            for object in root.children where object.name == "object" {
                let (width, height) = extent(of: object)
                if max(width, height) > maxExtent {
                    checker.problem(
                        object.offset,
                        "the layout asks for a page \(width) × \(height) pixels (its margins, spacings and size requests add up); at most \(maxExtent) either way"
                    )
                }
            }
        }
        var checked = Checked(objects: checker.objects, problems: checker.problems)
        checked.problems.sort { $0.offset < $1.offset }
        return checked
    }

    struct Checker {
        /// The layout's text (for positions named in messages).
        let bytes: [UInt8]
        var objects: [Object] = []
        var problems: [Problem] = []
        var ids: [String: (offset: Int, className: String)] = [:]
        /// Object references to resolve once every id is known: the id, the classes it may be,
        /// where, and what refers.
        var referencesToCheck: [(id: String, classes: [String], offset: Int, what: String)] = []
        var depthReported = false
        var countReported = false

        mutating func problem(_ offset: Int, _ message: String) {
            problems.append(Problem(offset: offset, message: message))
        }

        mutating func onlyAttributes(_ element: LayoutXML.Element, _ allowed: [String], why: [String: String] = [:]) {
            for attribute in element.attributes where !allowed.contains(attribute.name) {
                let reason =
                    why[attribute.name].map { ": \($0)" } ?? (allowed.isEmpty ? "" : " (allowed: \(allowed.joined(separator: ", ")))")
                problem(attribute.offset, "the attribute '\(attribute.name)' is not allowed on <\(element.name)>\(reason)")
            }
        }

        /// Elements that are never allowed, and why.
        static func forbidden(_ name: String) -> String? {
            switch name {
            case "menu", "submenu", "item", "section":
                "a <\(name)> is not allowed in a layout: menus reach the application's actions"
            case "template": "a <template> is not allowed in a layout: it defines a class"
            case "binding", "closure", "lookup", "constant":
                "a <\(name)> is not allowed in a layout: expressions and bindings are code, and a layout holds none"
            default: nil
            }
        }

        mutating func unexpected(_ element: LayoutXML.Element, in parent: String, allowed: [String]) {
            if element.name == "signal" {
                let handler = element.attribute("handler")?.value ?? ""
                problem(element.offset, PageLayout.signalProblem(handler).message)
            } else if let reason = Self.forbidden(element.name) {
                problem(element.offset, reason)
            } else {
                problem(
                    element.offset,
                    "the element <\(element.name)> is not allowed in <\(parent)> (allowed: \(allowed.joined(separator: ", ")))")
            }
        }

        mutating func noText(_ element: LayoutXML.Element) {
            if element.text.contains(where: { !$0.isWhitespace }) {
                problem(element.textOffset, "<\(element.name)> holds text where only elements may be")
            }
        }

        mutating func interface(_ root: LayoutXML.Element) {
            guard root.name == "interface" else {
                problem(root.offset, "the root element is <\(root.name)>; a layout is an <interface>")
                return
            }
            onlyAttributes(
                root, [], why: ["domain": "translations are looked up in catalogs outside the flow's folder; give texts in the flow"])
            noText(root)
            for child in root.children {
                switch child.name {
                case "requires":
                    requires(child)
                case "object":
                    object(child, depth: 1, topLevel: true, parent: nil)
                default:
                    unexpected(child, in: "interface", allowed: ["object", "requires"])
                }
            }
        }

        mutating func requires(_ element: LayoutXML.Element) {
            onlyAttributes(element, ["lib", "version"])
            noText(element)
            for child in element.children { unexpected(child, in: "requires", allowed: []) }
            if let lib = element.attribute("lib"), lib.value != "gtk" {
                problem(lib.offset, "a layout requires only lib=\"gtk\", not '\(lib.value)'")
            }
            if let version = element.attribute("version"), !gtkVersions.contains(version.value) {
                problem(version.offset, "a layout requires GTK version \(gtkVersions.joined(separator: " or ")), not '\(version.value)'")
            }
        }

        mutating func object(_ element: LayoutXML.Element, depth: Int, topLevel: Bool, parent: String?) {
            if objects.count >= maxObjects {
                if !countReported {
                    problem(element.offset, "the layout has more than \(maxObjects) objects")
                    countReported = true
                }
                return
            }
            if depth > maxDepth {
                if !depthReported {
                    problem(element.offset, "objects are nested more than \(maxDepth) deep")
                    depthReported = true
                }
                return
            }
            onlyAttributes(
                element, ["class", "id"],
                why: [
                    "type-func": "it names a function to call", "constructor": "it builds the object from another",
                ])
            noText(element)
            let className = element.attribute("class")?.value ?? ""
            var id = element.attribute("id")?.value
            if element.attribute("class") == nil { problem(element.offset, "an <object> needs a class") }
            if let attribute = element.attribute("id") {
                if attribute.value.isEmpty {
                    problem(attribute.offset, "an object id cannot be empty")
                    id = nil
                } else if attribute.value.utf8.count > maxIDBytes {
                    problem(attribute.offset, "the object id is \(attribute.value.utf8.count) bytes long; ids have at most \(maxIDBytes)")
                    id = nil
                } else if attribute.value.hasPrefix("___") {
                    problem(attribute.offset, "ids starting with '___' are GtkBuilder's own")
                    id = nil
                } else if let earlier = ids[attribute.value] {
                    let first = SourcePosition(offset: earlier.offset, in: bytes)
                    problem(attribute.offset, "the id '\(attribute.value)' is used twice (first at \(first))")
                    id = nil
                } else {
                    ids[attribute.value] = (element.offset, className)
                }
            }
            objects.append(Object(id: id, className: className, offset: element.offset, topLevel: topLevel))
            let rule = classes[className]
            if !className.isEmpty, rule == nil {
                problem(element.offset, PageLayout.typeProblem(className)?.message ?? "")
            }
            if let rule, !topLevel, !rule.isWidget {
                problem(element.offset, "a \(className) is not a widget: it can only be a top-level object")
            }
            let properties = properties(of: className)
            var childCounts: [String: Int] = [:]
            var allowed = ["child", "property", "style"]
            if className == "GtkSizeGroup" { allowed = ["property", "widgets"] }
            if let parent, classes[parent]?.children.layout.isEmpty == false { allowed.append("layout") }
            for child in element.children {
                switch child.name {
                case "property" where allowed.contains("property"):
                    if rule != nil { property(child, of: className, allowed: properties) }
                case "child" where allowed.contains("child"):
                    let type = child.attribute("type")?.value ?? ""
                    childCounts[type, default: 0] += 1
                    childElement(child, of: className, rule: rule, count: childCounts[type]!, depth: depth)
                case "style" where allowed.contains("style"):
                    style(child)
                case "layout" where allowed.contains("layout"):
                    layout(child, in: parent!)
                case "widgets" where allowed.contains("widgets"):
                    widgets(child)
                default:
                    unexpected(child, in: "object", allowed: allowed.sorted())
                }
            }
        }

        mutating func childElement(_ element: LayoutXML.Element, of className: String, rule: Class?, count: Int, depth: Int) {
            onlyAttributes(element, ["type"], why: ["internal-child": "a layout builds its own widgets only"])
            noText(element)
            let objectsIn = element.children.filter { $0.name == "object" }
            for other in element.children where other.name != "object" { unexpected(other, in: "child", allowed: ["object"]) }
            if objectsIn.count != 1 {
                problem(element.offset, "a <child> holds exactly one <object>, not \(objectsIn.count)")
            }
            if let rule {
                let type = element.attribute("type")
                if let type {
                    if let most = rule.children.typed[type.value] {
                        if count > most { problem(element.offset, "a \(className) takes at most \(most) child of type '\(type.value)'") }
                    } else {
                        let types = rule.children.typed.keys.sorted()
                        problem(
                            type.offset,
                            "a \(className) takes no child of type '\(type.value)'"
                                + (types.isEmpty ? "" : " (its child types: \(types.joined(separator: ", ")))"))
                    }
                } else if rule.children.plain == 0 {
                    let types = rule.children.typed.keys.sorted()
                    problem(
                        element.offset,
                        types.isEmpty
                            ? "a \(className) takes no children"
                            : "a \(className) takes children of a type only (\(types.joined(separator: ", ")))")
                } else if count > rule.children.plain {
                    problem(element.offset, "a \(className) takes at most \(rule.children.plain) child")
                }
            }
            for object in objectsIn { self.object(object, depth: depth + 1, topLevel: false, parent: className) }
        }

        mutating func property(_ element: LayoutXML.Element, of className: String, allowed: [String: Value], layoutOf parent: String? = nil)
        {
            onlyAttributes(
                element, ["name", "translatable", "context", "comments"],
                why: [
                    "bind-source": "bindings are not allowed in a layout", "bind-property": "bindings are not allowed in a layout",
                    "bind-flags": "bindings are not allowed in a layout",
                ])
            for child in element.children {
                problem(
                    child.offset,
                    child.name == "object"
                        ? "a property's value cannot be an object in a layout" : "a <property> holds text only, not <\(child.name)>")
            }
            guard let nameAttribute = element.attribute("name") else {
                problem(element.offset, "a <property> needs a name")
                return
            }
            if let translatable = element.attribute("translatable"), !["no", "false", "0"].contains(translatable.value.lowercased()) {
                problem(
                    translatable.offset,
                    "a translatable text is looked up in translation catalogs outside the flow's folder; give texts in the flow (translatable=\"no\" or none)"
                )
            }
            // GTK reads '_' in a property name as '-'.
            let name = String(nameAttribute.value.map { $0 == "_" ? "-" : $0 })
            let owner = parent.map { "a child of a \($0)" } ?? "a \(className)"
            guard let value = allowed[name] else {
                if let reason = refusal(of: name) {
                    problem(nameAttribute.offset, "the property '\(name)' is not allowed in a layout: \(reason)")
                } else {
                    var message = "the property '\(name)' is not one \(owner) may set in a layout"
                    if let near = DocumentReader.closest(to: name, in: Array(allowed.keys)) { message += "; did you mean '\(near)'?" }
                    problem(nameAttribute.offset, message)
                }
                return
            }
            if let message = Self.problem(with: element.text, as: value) {
                problem(element.textOffset, "\(className).\(name): \(message)")
            }
            if case .object(let kinds) = value {
                referencesToCheck.append((element.text, kinds, element.textOffset, "\(className).\(name)"))
            }
        }

        /// Why `text` is not a value of `type`; nil when it is.
        static func problem(with text: String, as type: Value) -> String? {
            switch type {
            case .bool:
                let words = ["true", "false", "yes", "no", "t", "f", "y", "n", "1", "0"]
                return words.contains(text.lowercased()) ? nil : "'\(clip(text))' is not true or false"
            case .int(let range):
                guard let number = Int(text), text.first != "+" else { return "'\(clip(text))' is not a whole number" }
                return range.contains(number) ? nil : "\(number) is not between \(range.lowerBound) and \(range.upperBound)"
            case .double(let range):
                let decimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
                guard decimal, let number = Double(text) else { return "'\(clip(text))' is not a number" }
                return range.contains(number) ? nil : "\(text) is not between \(range.lowerBound) and \(range.upperBound)"
            case .text:
                let count = text.count
                return count > maxTextCharacters
                    ? "the text is \(count) characters long; a layout's texts have at most \(maxTextCharacters) (a longer text takes seconds to lay out)"
                    : nil
            case .name:
                if text.utf8.count > 128 { return "the name is \(text.utf8.count) bytes long; names have at most 128" }
                return text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? "the name holds a control character" : nil
            case .choice(let nicks):
                return nicks.contains(text) ? nil : "'\(clip(text))' is not one of \(nicks.joined(separator: ", "))"
            case .flags(let nicks):
                let parts = text.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
                if let bad = parts.first(where: { !nicks.contains($0) }) {
                    return "'\(clip(bad))' is not one of \(nicks.joined(separator: ", "))"
                }
                return nil
            case .object:
                return text.isEmpty ? "an object id is expected" : nil
            }
        }

        static func clip(_ text: String) -> String { text.count > 40 ? String(text.prefix(40)) + "…" : text }

        mutating func style(_ element: LayoutXML.Element) {
            onlyAttributes(element, [])
            noText(element)
            for child in element.children {
                guard child.name == "class" else {
                    unexpected(child, in: "style", allowed: ["class"])
                    continue
                }
                onlyAttributes(child, ["name"])
                noText(child)
                for inner in child.children { unexpected(inner, in: "class", allowed: []) }
                guard let name = child.attribute("name") else {
                    problem(child.offset, "a style <class> needs a name")
                    continue
                }
                let valid =
                    !name.value.isEmpty && name.value.utf8.count <= 64
                    && name.value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
                if !valid {
                    problem(name.offset, "'\(Self.clip(name.value))' is not a style class name (letters, digits, '-' and '_', at most 64)")
                }
            }
        }

        mutating func layout(_ element: LayoutXML.Element, in parent: String) {
            onlyAttributes(element, [])
            noText(element)
            let allowed = classes[parent]?.children.layout ?? [:]
            for child in element.children {
                if child.name == "property" {
                    property(child, of: parent, allowed: allowed, layoutOf: parent)
                } else {
                    unexpected(child, in: "layout", allowed: ["property"])
                }
            }
        }

        mutating func widgets(_ element: LayoutXML.Element) {
            onlyAttributes(element, [])
            noText(element)
            for child in element.children {
                guard child.name == "widget" else {
                    unexpected(child, in: "widgets", allowed: ["widget"])
                    continue
                }
                onlyAttributes(child, ["name"])
                noText(child)
                if let name = child.attribute("name") {
                    referencesToCheck.append((name.value, [], name.offset, "GtkSizeGroup's widget"))
                } else {
                    problem(child.offset, "a <widget> needs the name (id) of a widget")
                }
            }
        }

        /// Every object reference names an object of the layout, of a class it may be.
        mutating func references() {
            for reference in referencesToCheck where !reference.id.isEmpty {
                guard let target = ids[reference.id] else {
                    problem(reference.offset, "\(reference.what): no object of the layout has the id '\(reference.id)'")
                    continue
                }
                let isWidget = classes[target.className]?.isWidget ?? true
                if reference.classes.isEmpty ? !isWidget : !reference.classes.contains(target.className) {
                    let wanted = reference.classes.isEmpty ? "a widget" : reference.classes.joined(separator: " or ")
                    problem(reference.offset, "\(reference.what): '\(reference.id)' is a \(target.className), not \(wanted)")
                }
            }
        }
    }
}
