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
}
