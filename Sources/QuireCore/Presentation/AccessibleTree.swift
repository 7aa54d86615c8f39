/// One element of the accessibility tree a front must expose for the current page
/// (`Session.accessibleTree`): what a screen reader's flat review reaches, with the role, name,
/// value, states and described-by text an AT-SPI reader reads of it. Scripts check the tree
/// with `expectAccessible` (docs/accessibility.md, "The tree a front must expose").
public struct AccessibleElement: Sendable, Hashable {
    /// The roles, as AT-SPI names them (`Atspi.Accessible.get_role_name`) for the widgets the GTK
    /// front uses on GTK 4.8.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// A page's title or body, a field's label, a field's error shown under it.
        case label
        /// A text field's entry.
        case text
        /// A duration or choice field's value button, a chrome button (Back, Skip, Next, Finish),
        /// an input toolbar's button.
        case pushButton = "push button"
        /// A toggle field's switch (GTK 4.8 maps its switch role to a check box).
        case checkBox = "check box"
        /// The page indicator.
        case slider
        /// A duration picker's wheel.
        case spinButton = "spin button"
        /// A choice picker's list, and its options.
        case list
        case listItem = "list item"
    }

    /// The states an element can have, in this order.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case required, invalid, checked, selected, disabled
    }

    public var role: Role
    public var name: String
    /// A text field's text, a slider's or wheel's value text ("Page 2 of 5", "25 minutes"); nil
    /// for every other element and for an empty entry.
    public var value: String?
    /// In `State` order, each at most once.
    public var states: [State]
    /// The text of the element a described-by relation points at: a field's error as shown.
    public var describedBy: String?

    public init(_ role: Role, _ name: String, value: String? = nil, states: [State] = [], describedBy: String? = nil) {
        self.role = role
        self.name = name
        self.value = value
        self.states = State.allCases.filter(states.contains)
        self.describedBy = describedBy
    }

    /// The keys an element's JSON may have.
    public static let keys = ["role", "name", "value", "states", "describedBy"]

    /// `{"role", "name"}` plus `value`, `states` and `describedBy` when there are any: the form
    /// `expectAccessible` is written in.
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 5)
        object.append("role", .string(role.rawValue))
        object.append("name", .string(name))
        if let value { object.append("value", .string(value)) }
        if !states.isEmpty { object.append("states", .array(states.map { .string($0.rawValue) })) }
        if let describedBy { object.append("describedBy", .string(describedBy)) }
        return .object(object)
    }

    /// An element read from its JSON (`json`'s form); the reason when it is not one.
    public static func parse(_ value: JSONValue) -> Result<AccessibleElement, AccessibleElementError> {
        guard case .object(let object) = value else { return .failure(.init(path: [], "an element is an object")) }
        for key in object.keys where !keys.contains(key) {
            return .failure(.init(path: [key], "unknown key '\(key)'; an element has \(keys.joined(separator: ", "))"))
        }
        guard case .string(let roleName)? = object["role"], let role = Role(rawValue: roleName) else {
            return .failure(
                .init(path: ["role"], "role is one of \(Role.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))"))
        }
        guard case .string(let name)? = object["name"] else { return .failure(.init(path: ["name"], "name is a string")) }
        var element = AccessibleElement(role, name)
        if let given = object["value"] {
            guard case .string(let text) = given else { return .failure(.init(path: ["value"], "value is a string")) }
            element.value = text
        }
        if let given = object["states"] {
            guard case .array(let list) = given else { return .failure(.init(path: ["states"], "states is a list")) }
            var states: [State] = []
            for (at, entry) in list.enumerated() {
                guard case .string(let stateName) = entry, let state = State(rawValue: stateName) else {
                    return .failure(
                        .init(
                            path: ["states", "\(at)"],
                            "a state is one of \(State.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))"))
                }
                guard !states.contains(state) else {
                    return .failure(.init(path: ["states", "\(at)"], "state '\(stateName)' is listed twice"))
                }
                states.append(state)
            }
            element.states = State.allCases.filter(states.contains)
        }
        if let given = object["describedBy"] {
            guard case .string(let text) = given else { return .failure(.init(path: ["describedBy"], "describedBy is a string")) }
            element.describedBy = text
        }
        return .success(element)
    }

    /// One line for reports: `push button "Next" [disabled]`, `text "Name" = "Ada" [required]
    /// described by "Required"`.
    public var line: String {
        var text = "\(role.rawValue) \(Self.quoted(name))"
        if let value { text += " = \(Self.quoted(value))" }
        if !states.isEmpty { text += " [\(states.map(\.rawValue).joined(separator: ", "))]" }
        if let describedBy { text += " described by \(Self.quoted(describedBy))" }
        return text
    }

    static func quoted(_ text: String) -> String { JSONWriter.string(.string(text)) }
}

/// Why an `expectAccessible` element does not read: where in the element, and why.
public struct AccessibleElementError: Error, Sendable {
    public var path: [String]
    public var message: String

    init(path: [String], _ message: String) {
        self.path = path
        self.message = message
    }
}

extension Session {
    /// The accessibility tree a front must expose for the current page, in reading order (the
    /// order of the GTK front's widget tree, which a screen reader's flat review follows): the
    /// page's title and body; per visible field its label, its control (name, value, states,
    /// described-by its error) and its error as shown; then the bar under the pages — Back, the
    /// indicator (unless hidden), Skip, Next or Finish (one slot: Finish while it is enabled) —
    /// and, while a field is first responder, the input panel: its toolbar's buttons, then the
    /// duration wheels or the choice list. Nothing of another page; nothing once the session has
    /// completed (the walkthrough is gone). The window's own chrome (title, Cancel, notices,
    /// progress bar) is not part of it.
    public var accessibleTree: [AccessibleElement] {
        guard completion == nil, let page = presentPage(at: currentIndex) else { return [] }
        var tree: [AccessibleElement] = []
        if let title = page.title { tree.append(AccessibleElement(.label, title)) }
        if let body = page.body { tree.append(AccessibleElement(.label, body)) }
        for field in page.fields {
            tree.append(AccessibleElement(.label, field.label))
            var states: [AccessibleElement.State] = []
            if field.required { states.append(.required) }
            if field.error != nil { states.append(.invalid) }
            if !field.enabled { states.append(.disabled) }
            switch field.kind {
            case .text:
                tree.append(
                    AccessibleElement(
                        .text, field.label, value: field.display.isEmpty ? nil : field.display, states: states,
                        describedBy: field.error))
            case .duration, .choice:
                let shown = field.display.isEmpty ? field.placeholder : field.display
                tree.append(AccessibleElement(.pushButton, "\(field.label): \(shown)", states: states, describedBy: field.error))
            case .toggle:
                if field.isOn == true { states.append(.checked) }
                tree.append(AccessibleElement(.checkBox, field.label, states: states, describedBy: field.error))
            }
            if let error = field.error { tree.append(AccessibleElement(.label, error)) }
        }
        let chrome = chrome
        func button(_ which: TapTarget.Button) -> AccessibleElement? {
            guard let shown = chrome.buttons.first(where: { $0.button == which }) else { return nil }
            return AccessibleElement(.pushButton, shown.title, states: shown.enabled ? [] : [.disabled])
        }
        if let back = button(.back) { tree.append(back) }
        if !chrome.indicatorHidden {
            tree.append(AccessibleElement(.slider, chrome.indicatorLabel, value: chrome.indicatorLabel))
        }
        if let skip = button(.skip) { tree.append(skip) }
        let finishEnabled = chrome.buttons.first { $0.button == .finish }?.enabled ?? false
        if let trailing = button(finishEnabled ? .finish : .next) { tree.append(trailing) }
        if let input = chrome.input {
            for item in input.toolbar where !item.title.isEmpty {
                tree.append(AccessibleElement(.pushButton, item.title, states: item.enabled ? [] : [.disabled]))
            }
            switch input.view {
            case .durationPicker:
                for wheel in input.wheels {
                    tree.append(AccessibleElement(.spinButton, "\(input.label), \(wheel.title)", value: wheel.valueText))
                }
            case .choiceList:
                tree.append(AccessibleElement(.list, input.label))
                for option in input.options {
                    tree.append(AccessibleElement(.listItem, option.label, states: option.selected ? [.selected] : []))
                }
            default:
                break
            }
        }
        return tree
    }
}
