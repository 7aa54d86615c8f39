/// What a page layout (a GtkBuilder `.ui` file) may hold: the one policy `quire check` applies
/// without GTK and `quire run` applies before GTK sees the file, so both give the same verdict on
/// every layout (docs/flow-format.md, "What a layout may hold").
///
/// An allowlist of everything: elements, attributes, object classes, each class's properties and
/// the values they take, children and their types, and limits on depth, objects and text. What
/// is not listed is refused, with a reason and the position in the file. In particular nothing
/// in a layout can name a file, a URI, a resource, an icon or a translation catalog (so GTK never
/// opens anything outside the flow's folder because of a layout), connect a signal, build an
/// expression or binding, or reach the application's actions or menus (`action-name`,
/// `action-target`, `menu-model`, `extra-menu`, `<menu>`).
public enum LayoutPolicy {
    /// How deep objects may nest (an object in a `<child>` of an object is one deeper). GTK lays
    /// widgets out recursively: 12,000 nested boxes overflowed its stack.
    public static let maxDepth = 32
    /// How many objects a layout may create.
    public static let maxObjects = 1_000
    /// The longest text a layout may put on screen (`label`, `tooltip-text`, `placeholder-text`,
    /// `text`), in characters: the same cap as the flow's display strings.
    public static let maxTextCharacters = Flow.maxDisplayCharacters
    /// The longest object id, in UTF-8 bytes.
    public static let maxIDBytes = 256
    /// How many problems a layout lists; the rest are counted in a last line.
    public static let problemLimit = 20

    /// The version a layout's `<requires lib="gtk" version="…"/>` may ask for.
    public static let gtkVersions = ["4.0"]

    // MARK: Values

    /// What a property's text must be. Numbers are written in decimal, booleans as GtkBuilder
    /// reads them, enumerations by their nicks; ranges are narrower than GTK's own where a larger
    /// value would cost (a margin of 30,000 pixels makes a window of that size).
    public enum Value: Sendable, Hashable {
        case bool
        case int(ClosedRange<Int>)
        case double(ClosedRange<Double>)
        /// Text shown on screen, at most `maxTextCharacters`.
        case text
        /// A short name (a widget's CSS name), at most 128 bytes, no control characters.
        case name
        case choice([String])
        /// `|`-separated nicks of a flags type.
        case flags([String])
        /// The id of another object of the layout, of one of these classes (empty: any widget).
        case object([String])
    }

    static let align = Value.choice(["fill", "start", "end", "center", "baseline"])
    static let orientation = Value.choice(["horizontal", "vertical"])
    static let size = Value.int(-1...4_000)
    static let spacing = Value.int(0...1_000)
    static let fraction = Value.double(0...1)
    static let chars = Value.int(-1...1_000)
    static let purpose = Value.choice([
        "free-form", "alpha", "digits", "number", "phone", "url", "email", "name", "password", "pin", "terminal",
    ])
    static let hints = Value.flags([
        "none", "spellcheck", "no-spellcheck", "word-completion", "lowercase", "uppercase-chars", "uppercase-words",
        "uppercase-sentences", "inhibit-osk", "vertical-writing", "emoji", "no-emoji", "private",
    ])

    /// Properties every widget may set.
    public static let widgetProperties: [String: Value] = [
        "visible": .bool, "sensitive": .bool, "can-focus": .bool, "focusable": .bool, "focus-on-click": .bool,
        "can-target": .bool, "receives-default": .bool, "has-tooltip": .bool, "tooltip-text": .text,
        "halign": align, "valign": align, "hexpand": .bool, "vexpand": .bool, "hexpand-set": .bool, "vexpand-set": .bool,
        "margin-top": spacing, "margin-bottom": spacing, "margin-start": spacing, "margin-end": spacing,
        "width-request": size, "height-request": size, "name": .name, "opacity": fraction,
        "overflow": .choice(["visible", "hidden"]),
    ]

    /// How a class takes children (`<child>`): how many without a type, and which types.
    public struct Children: Sendable, Hashable {
        /// At most this many children without a `type` (0: none).
        public var plain: Int
        /// Child types and how many of each.
        public var typed: [String: Int] = [:]
        /// Properties its children may set in `<layout>` (its layout manager's child properties).
        public var layout: [String: Value] = [:]

        static let none = Children(plain: 0)
        static let one = Children(plain: 1)
        static let many = Children(plain: Int.max)
    }

    /// A class a layout may create: the properties it may set besides the widget ones, and its children.
    public struct Class: Sendable, Hashable {
        public var isWidget = true
        public var properties: [String: Value]
        public var children: Children
    }

    /// Every class a layout may create (GtkBuilder `class` names, GTK 4.8's properties).
    public static let classes: [String: Class] = [
        "GtkBox": Class(
            properties: [
                "orientation": orientation, "spacing": spacing, "homogeneous": .bool,
                "baseline-position": .choice(["top", "center", "bottom"]),
            ],
            children: .many),
        "GtkCenterBox": Class(
            properties: ["orientation": orientation, "baseline-position": .choice(["top", "center", "bottom"])],
            children: Children(plain: 0, typed: ["start": 1, "center": 1, "end": 1])),
        "GtkGrid": Class(
            properties: [
                "orientation": orientation, "row-spacing": spacing, "column-spacing": spacing, "row-homogeneous": .bool,
                "column-homogeneous": .bool, "baseline-row": .int(0...1_000),
            ],
            children: Children(
                plain: Int.max,
                layout: ["column": .int(0...1_000), "row": .int(0...1_000), "column-span": .int(1...1_000), "row-span": .int(1...1_000)])),
        "GtkFrame": Class(properties: ["label": .text, "label-xalign": fraction], children: Children(plain: 1, typed: ["label": 1])),
        "GtkExpander": Class(
            properties: ["label": .text, "expanded": .bool, "use-underline": .bool], children: Children(plain: 1, typed: ["label": 1])),
        "GtkOverlay": Class(
            properties: [:], children: Children(plain: 1, typed: ["overlay": Int.max], layout: ["measure": .bool, "clip-overlay": .bool])),
        "GtkRevealer": Class(
            properties: [
                "reveal-child": .bool, "transition-duration": .int(0...10_000),
                "transition-type": .choice([
                    "none", "crossfade", "slide-right", "slide-left", "slide-up", "slide-down", "swing-right", "swing-left", "swing-up",
                    "swing-down",
                ]),
            ],
            children: .one),
        "GtkScrolledWindow": Class(
            properties: [
                "hscrollbar-policy": .choice(["always", "automatic", "never", "external"]),
                "vscrollbar-policy": .choice(["always", "automatic", "never", "external"]),
                "min-content-width": size, "min-content-height": size, "max-content-width": size, "max-content-height": size,
                "propagate-natural-width": .bool, "propagate-natural-height": .bool, "has-frame": .bool, "kinetic-scrolling": .bool,
                "overlay-scrolling": .bool, "window-placement": .choice(["top-left", "bottom-left", "top-right", "bottom-right"]),
            ],
            children: .one),
        "GtkViewport": Class(properties: ["scroll-to-focus": .bool], children: .one),
        "GtkSeparator": Class(properties: ["orientation": orientation], children: .none),
        "GtkLabel": Class(
            properties: [
                "label": .text, "use-underline": .bool, "wrap": .bool, "wrap-mode": .choice(["word", "char", "word-char"]),
                "natural-wrap-mode": .choice(["inherit", "none", "word"]), "justify": .choice(["left", "right", "center", "fill"]),
                "xalign": fraction, "yalign": fraction, "ellipsize": .choice(["none", "start", "middle", "end"]), "lines": chars,
                "width-chars": chars, "max-width-chars": chars, "selectable": .bool, "single-line-mode": .bool,
                "mnemonic-widget": .object([]),
            ],
            children: .none),
        "GtkEntry": Class(
            properties: [
                "placeholder-text": .text, "text": .text, "visibility": .bool,
                "has-frame": .bool, "activates-default": .bool, "xalign": fraction, "input-purpose": purpose, "input-hints": hints,
                "overwrite-mode": .bool, "truncate-multiline": .bool, "enable-emoji-completion": .bool, "editable": .bool,
                "width-chars": chars, "max-width-chars": chars,
            ],
            children: .none),
        "GtkText": Class(
            properties: [
                "placeholder-text": .text, "text": .text, "visibility": .bool,
                "activates-default": .bool, "xalign": fraction, "input-purpose": purpose, "input-hints": hints,
                "overwrite-mode": .bool, "truncate-multiline": .bool, "enable-emoji-completion": .bool,
                "propagate-text-width": .bool, "editable": .bool, "width-chars": chars, "max-width-chars": chars,
            ],
            children: .none),
        "GtkSwitch": Class(properties: ["active": .bool, "state": .bool], children: .none),
        "GtkCheckButton": Class(
            properties: [
                "label": .text, "use-underline": .bool, "active": .bool, "inconsistent": .bool, "group": .object(["GtkCheckButton"]),
            ],
            children: .none),
        "GtkButton": Class(properties: ["label": .text, "use-underline": .bool, "has-frame": .bool], children: .one),
        "GtkSizeGroup": Class(
            isWidget: false, properties: ["mode": .choice(["none", "horizontal", "vertical", "both"])], children: .none),
    ]

    /// The most a layout's margins, spacings and size requests may add up to, either way (pixels):
    /// each is capped on its own, and this caps their sum, so no layout asks for a window larger
    /// than the largest size request.
    public static let maxExtent = 4_000

    /// The least size an object's margins, spacings and size requests ask for (pixels), its
    /// children's added along a box's orientation (both ways in a grid) and the largest taken
    /// across. Values that are not numbers count 0 (they are refused on their own).
    static func extent(of object: LayoutXML.Element) -> (width: Int, height: Int) {
        var horizontal = true
        var children: [(width: Int, height: Int, column: Int, row: Int)] = []
        let className = object.attribute("class")?.value ?? ""
        let properties = numbers(in: object, allowed: Self.properties(of: className), orientation: &horizontal)
        for child in object.children where child.name == "child" {
            for inner in child.children where inner.name == "object" {
                let (width, height) = extent(of: inner)
                var cell: [String: Int] = [:]
                var unused = true
                for layout in inner.children where layout.name == "layout" {
                    cell = numbers(in: layout, allowed: classes[className]?.children.layout ?? [:], orientation: &unused)
                }
                children.append((width, height, cell["column"] ?? 0, cell["row"] ?? 0))
            }
        }
        let gaps = max(children.count - 1, 0)
        var contentWidth = children.map(\.width).max() ?? 0
        var contentHeight = children.map(\.height).max() ?? 0
        switch className {
        case "GtkBox", "GtkCenterBox":
            let spacing = (properties["spacing"] ?? 0) * gaps
            if horizontal {
                contentWidth = children.reduce(spacing) { $0 + $1.width }
            } else {
                contentHeight = children.reduce(spacing) { $0 + $1.height }
            }
        case "GtkGrid":
            // Each column as wide as its widest child, each row as tall as its tallest.
            var columns: [Int: Int] = [:]
            var rows: [Int: Int] = [:]
            for child in children {
                columns[child.column] = max(columns[child.column] ?? 0, child.width)
                rows[child.row] = max(rows[child.row] ?? 0, child.height)
            }
            contentWidth = columns.values.reduce((properties["column-spacing"] ?? 0) * max(columns.count - 1, 0), +)
            contentHeight = rows.values.reduce((properties["row-spacing"] ?? 0) * max(rows.count - 1, 0), +)
        default:
            break
        }
        let requestWidth = max(properties["width-request"] ?? 0, properties["min-content-width"] ?? 0)
        let requestHeight = max(properties["height-request"] ?? 0, properties["min-content-height"] ?? 0)
        let width = (properties["margin-start"] ?? 0) + (properties["margin-end"] ?? 0) + max(requestWidth, contentWidth)
        let height = (properties["margin-top"] ?? 0) + (properties["margin-bottom"] ?? 0) + max(requestHeight, contentHeight)
        return (min(width, 1 << 40), min(height, 1 << 40))
    }

    /// The positive whole-number properties of an element (`<property name>` children, '_' read
    /// as '-') within their ranges in `allowed` (values out of range are refused on their own),
    /// and whether its orientation is horizontal.
    static func numbers(in element: LayoutXML.Element, allowed: [String: Value], orientation horizontal: inout Bool) -> [String: Int] {
        var found: [String: Int] = [:]
        for child in element.children where child.name == "property" {
            guard let name = child.attribute("name")?.value else { continue }
            let key = String(name.map { $0 == "_" ? "-" : $0 })
            let text = Substring(child.text).trimmingSpaces
            if key == "orientation" { horizontal = text != "vertical" }
            if case .int(let range)? = allowed[key], let number = Int(text), number > 0, range.contains(number) { found[key] = number }
        }
        return found
    }

    /// The classes, sorted (for messages).
    public static let classNames = classes.keys.sorted()

    /// The properties `className` may set (its own and, for a widget, the widget ones).
    public static func properties(of className: String) -> [String: Value] {
        guard let rule = classes[className] else { return [:] }
        return rule.isWidget ? rule.properties.merging(widgetProperties) { own, _ in own } : rule.properties
    }

    /// Why a property that is not on the list is refused, when there is a reason beyond "not
    /// listed": it reaches actions or menus, names a file or resource, or holds markup.
    static func refusal(of property: String) -> String? {
        if ["action-name", "action-target", "detailed-action-name"].contains(property) {
            return "it would let a widget trigger the application's actions (a layout only shows fields; Quire binds widgets by id)"
        }
        if property == "max-length" {
            return "GTK would cut what the entry shows, not the answer; a text field's length is the flow's to decide (maxLength)"
        }
        if ["menu-model", "extra-menu", "menu", "popover"].contains(property) {
            return "menus reach the application's actions"
        }
        let fileWords = ["icon", "file", "uri", "resource", "paintable", "texture", "image", "gicon", "pixbuf", "im-module", "cursor"]
        // A substring search over UTF-8 (String.contains(String) would make libquire load the
        // _StringProcessing and _RegexParser runtime libraries for this one call).
        let bytes = property.utf8
        if fileWords.contains(where: { word in bytes.indices.contains { start in bytes[start...].starts(with: word.utf8) } }) {
            return "it names an icon, a file, a URI or a resource, and a layout may not make GTK open anything"
        }
        if property.hasSuffix("markup") {
            return "markup can hold links that open other programs; use 'label' or 'tooltip-text' (plain text)"
        }
        if property.hasPrefix("bind-") || property == "buffer" || property == "completion" || property == "attributes" || property == "tabs"
        {
            return "it needs an object or a structure a layout cannot create"
        }
        return nil
    }

    // MARK: Checking a file

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

    // MARK: Against a flow

    /// The role the core's binding rules give an object of `className` (`PageLayout.WidgetRole`).
    public static func role(of className: String) -> PageLayout.WidgetRole {
        switch className {
        case "GtkEntry", "GtkText": .textInput
        case "GtkSwitch", "GtkCheckButton": .toggle
        case "GtkButton": .button
        case "GtkLabel": .label
        default: .other
        }
    }

    /// Every problem of a layout's bytes as the layout of page `page` of `flow`: the policy
    /// (`check`), then the bindings of its ids (`PageLayout.binding`, the widget kinds, the root
    /// at the top level, a widget for every field). Each message starts with `name:line:column: `
    /// (the layout file as named in messages); at most `problemLimit`, then a count of the rest.
    public static func problems(in bytes: [UInt8], named name: String, page: Int, of flow: Flow) -> [LayoutError] {
        problems(checked: check(bytes), in: bytes, named: name, page: page, of: flow)
    }

    /// `problems(in:named:page:of:)` for a layout already `check`ed: a layout that several pages
    /// name is read and checked once, and only its bindings are judged page by page.
    static func problems(checked: Checked, in bytes: [UInt8], named name: String, page: Int, of flow: Flow) -> [LayoutError] {
        var checked = checked
        var missing: [Problem] = []
        // Bindings only for a file that could be read.
        if !(checked.problems.count == 1 && checked.problems[0].message.hasPrefix("not a well-formed layout")) {
            var bound: Set<PageLayout.Binding> = []
            for object in checked.objects {
                guard let id = object.id else { continue }
                let binding: PageLayout.Binding
                switch PageLayout.binding(forID: id, page: page, in: flow) {
                case .success(let found): binding = found
                case .failure(let problem):
                    checked.problems.append(Problem(offset: object.offset, message: problem.message))
                    continue
                }
                guard classes[object.className] != nil else { continue }
                guard classes[object.className]?.isWidget != false else {
                    checked.problems.append(
                        Problem(offset: object.offset, message: "the object '\(id)' is a \(object.className), not a widget"))
                    continue
                }
                bound.insert(binding)
                if let problem = PageLayout.widgetProblem(
                    id: id, binding: binding, role: role(of: object.className), typeName: object.className, in: flow)
                {
                    checked.problems.append(Problem(offset: object.offset, message: problem.message))
                    continue
                }
                if binding == .root, !object.topLevel {
                    checked.problems.append(
                        Problem(
                            offset: object.offset,
                            message: "the widget 'page:root' is inside another widget; it must be a top-level object of the layout"))
                }
            }
            // What the layout lacks comes last, placed at its first object (or its start).
            let root = checked.objects.first(where: \.topLevel)?.offset ?? 0
            missing = PageLayout.missing(bound, page: page, in: flow).map { Problem(offset: root, message: $0.message) }
        }
        let ordered =
            checked.problems.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
            + missing
        let listed = ordered.prefix(problemLimit)
        let positions = SourcePosition.positions(of: listed.map(\.offset), in: bytes)
        var errors = listed.map { LayoutError("\(name):\(positions[$0.offset]!): \($0.message)") }
        if ordered.count > problemLimit {
            errors.append(
                LayoutError("\(name): … and \(ordered.count - problemLimit) more problems (a layout lists its first \(problemLimit))"))
        }
        return errors
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

extension Flow {
    /// The name a page's layout has in messages: its path from the flow's folder, joined to the
    /// folder (`data/flows/layouts/profile.ui`), so it can be opened from where Quire was run.
    public func layoutName(_ path: String) -> String {
        guard let folder, folder != "." else { return path }
        return folder == "/" ? "/" + path : folder + "/" + path
    }

    /// Every problem with the page layouts of a flow loaded from a file: each layout is read
    /// again from the flow's folder (`PageLayout.resolve`) and checked (`LayoutPolicy.problems`).
    /// Empty for a flow with no folder (given as text: its layouts are not used).
    public func layoutProblems() -> [(page: Int, problem: LayoutError)] {
        guard let folder else { return [] }
        var found: [(Int, LayoutError)] = []
        // Each layout file is read and checked once, however many pages name it.
        var read: [String: Result<(bytes: [UInt8], checked: LayoutPolicy.Checked), LayoutError>] = [:]
        for (index, page) in pages.enumerated() {
            guard let path = page.layout else { continue }
            if read[path] == nil {
                read[path] = PageLayout.resolve(path, inFolder: folder).map { ($0.bytes, LayoutPolicy.check($0.bytes)) }
            }
            switch read[path]! {
            case .failure(let problem): found.append((index, problem))
            case .success(let file):
                for problem in LayoutPolicy.problems(checked: file.checked, in: file.bytes, named: layoutName(path), page: index, of: self)
                {
                    found.append((index, problem))
                }
            }
        }
        return found
    }

    /// `layoutProblems` as diagnostics of the flow file whose text is `bytes`: each at its page's
    /// `layout` key (`file:line:column: $.pages[N].layout: LAYOUT:line:column: message`).
    public func layoutDiagnostics(file: String, bytes: [UInt8]) -> [Diagnostic] {
        let problems = layoutProblems()
        guard !problems.isEmpty else { return [] }
        guard (try? DocumentReader.parse(file: file, bytes: bytes)) != nil else {
            return problems.map { Diagnostic.whole(file: file, message: "$.pages[\($0.page)].layout: \($0.problem.message)") }
        }
        var reader = DocumentReader(file: file, bytes: bytes)
        for (page, problem) in problems { reader.error(.root + "pages" + page + "layout", problem.message) }
        return reader.diagnostics()
    }
}
