/// The presentation as JSON, for fronts outside Swift (the C library hands it to C, Python, GJS
/// and Vala as text). Keys follow the Swift properties; every key is always present (`null` when
/// there is nothing), so a reader never needs to ask whether a key exists.
extension Session {
    /// `{"chrome": {…}, "pages": [{…}, …]}`: the chrome and the pages a pager builds (the current
    /// page and its neighbours, in order).
    public var presentation: JSONValue {
        var object = JSONObject(minimumCapacity: 2)
        object.append("chrome", chrome.json)
        object.append("pages", .array(presentNeighbourhood().map(\.json)))
        return .object(object)
    }
}

extension PagePresentation {
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 5)
        object.append("id", .string(id))
        object.append("index", .number(Double(index)))
        object.append("title", title.map(JSONValue.string) ?? .null)
        object.append("body", body.map(JSONValue.string) ?? .null)
        object.append("fields", .array(fields.map(\.json)))
        return .object(object)
    }
}

extension FieldPresentation {
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 12)
        object.append("id", .string(id))
        object.append("kind", .string(kind.rawValue))
        object.append("label", .string(label))
        object.append("display", .string(display))
        object.append("placeholder", .string(placeholder))
        object.append("enabled", .bool(enabled))
        object.append("focused", .bool(focused))
        object.append("required", .bool(required))
        object.append("error", error.map(JSONValue.string) ?? .null)
        object.append("errorCode", errorCode.map { .string($0.rawValue) } ?? .null)
        object.append("isOn", isOn.map(JSONValue.bool) ?? .null)
        object.append("accessibleDescription", accessibleDescription.map(JSONValue.string) ?? .null)
        return .object(object)
    }
}

extension ChromePresentation {
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 7)
        object.append("title", title.map(JSONValue.string) ?? .null)
        object.append(
            "indicator",
            [
                "count": .number(Double(indicatorCount)), "current": .number(Double(indicatorCurrent)),
                "hidden": .bool(indicatorHidden), "style": .string(indicatorStyle.rawValue), "label": .string(indicatorLabel),
            ])
        object.append("pageName", .string(pageName))
        object.append("buttons", .array(buttons.map(\.json)))
        object.append("progress", .number(progress))
        object.append("input", input?.json ?? .null)
        object.append("completed", completed.map { .string($0.rawValue) } ?? .null)
        return .object(object)
    }
}

extension ButtonPresentation {
    public var json: JSONValue {
        ["button": .string(button.rawValue), "title": .string(title), "enabled": .bool(enabled)]
    }
}

extension InputPresentation {
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 8)
        object.append("field", .string(field))
        object.append("view", .string(view.rawValue))
        object.append("label", .string(label))
        object.append("draftDisplay", draftDisplay.map(JSONValue.string) ?? .null)
        object.append("wheels", .array(wheels.map(\.json)))
        object.append("options", .array(options.map(\.json)))
        object.append("toolbar", .array(toolbar.map(\.json)))
        object.append("returnKeyTitle", returnKeyTitle.map(JSONValue.string) ?? .null)
        return .object(object)
    }
}

extension WheelPresentation {
    public var json: JSONValue {
        [
            "component": .string(component.rawValue), "title": .string(title), "values": .array(values.map { .number(Double($0)) }),
            "selectedIndex": .number(Double(selectedIndex)), "isSelectedWheel": .bool(isSelectedWheel),
            "valueText": .string(valueText),
        ]
    }
}

extension OptionPresentation {
    public var json: JSONValue {
        ["id": .string(id), "label": .string(label), "selected": .bool(selected)]
    }
}

extension ToolbarItemPresentation {
    public var json: JSONValue {
        ["item": .string(item.rawValue), "title": .string(title), "enabled": .bool(enabled)]
    }
}
