/// Parts of a flow judged whole, from their values: `paging`, `validation`, `accessory`, `components`.
extension FlowReader {

    /// `validation`: `{"reveal": MODE}`, when errors are first shown.
    mutating func validation(_ value: JSONValue, at path: JSONPath) -> RevealMode {
        guard let object = document.object(value, at: path, what: "validation") else { return .leave }
        document.checkKeys(object, at: path, allowed: ["reveal"], what: "validation")
        guard let v = object["reveal"] else { return .leave }
        return revealMode(v, at: path + "reveal") ?? .leave
    }

    /// A `reveal` mode: leave, change or submit.
    mutating func revealMode(_ value: JSONValue, at path: JSONPath) -> RevealMode? {
        guard let text = document.string(value, at: path, what: "reveal") else { return nil }
        if let mode = RevealMode(rawValue: text) { return mode }
        document.error(path, "reveal must be 'leave', 'change' or 'submit', not '\(text)'")
        return nil
    }

    static let pagingKeys = ["wrap", "swipe", "gate", "indicator", "snapDistance", "flingVelocity", "animationMs", "autoAdvanceMs"]

    mutating func paging(_ value: JSONValue, at path: JSONPath) -> Paging {
        var paging = Paging()
        guard let object = document.object(value, at: path, what: "paging") else { return paging }
        document.checkKeys(object, at: path, allowed: Self.pagingKeys, what: "paging")
        if let v = object["wrap"], let b = document.bool(v, at: path + "wrap", what: "wrap") { paging.wrap = b }
        if let v = object["swipe"], let b = document.bool(v, at: path + "swipe", what: "swipe") { paging.swipe = b }
        if let v = object["gate"], let text = document.string(v, at: path + "gate", what: "gate") {
            if let gate = Paging.Gate(rawValue: text) {
                paging.gate = gate
            } else {
                document.error(path + "gate", "gate must be 'valid' or 'none', not '\(text)'")
            }
        }
        if let v = object["indicator"], let indicator = document.object(v, at: path + "indicator", what: "indicator") {
            let at = path + "indicator"
            document.checkKeys(indicator, at: at, allowed: ["style", "hidesForSinglePage"], what: "the indicator")
            if let v = indicator["style"], let text = document.string(v, at: at + "style", what: "style") {
                if let style = Paging.IndicatorStyle(rawValue: text) {
                    paging.indicatorStyle = style
                } else {
                    document.error(at + "style", "style must be 'dots', 'numbers' or 'none', not '\(text)'")
                }
            }
            if let v = indicator["hidesForSinglePage"],
                let b = document.bool(v, at: at + "hidesForSinglePage", what: "hidesForSinglePage")
            {
                paging.hidesForSinglePage = b
            }
        }
        if let v = object["snapDistance"], let n = document.number(v, at: path + "snapDistance", what: "snapDistance", in: 0.01...1) {
            paging.snapDistance = n
        }
        if let v = object["flingVelocity"],
            let n = document.number(v, at: path + "flingVelocity", what: "flingVelocity", in: 1...100_000)
        {
            paging.flingVelocity = n
        }
        if let v = object["animationMs"], let n = document.integer(v, at: path + "animationMs", what: "animationMs", in: 0...10_000) {
            paging.animationMs = Double(n)
        }
        if let v = object["autoAdvanceMs"],
            let n = document.integer(v, at: path + "autoAdvanceMs", what: "autoAdvanceMs", in: 0...3_600_000)
        {
            if n > 0 && n < 100 {
                document.error(path + "autoAdvanceMs", "autoAdvanceMs must be 0 (off) or at least 100, not \(n)")
            }
            paging.autoAdvanceMs = Double(n)
        }
        return paging
    }

    mutating func accessoryItems(_ value: JSONValue, at path: JSONPath) -> [AccessoryItem]? {
        guard let list = document.array(value, at: path, what: "accessory") else { return nil }
        var items: [AccessoryItem] = []
        let names = AccessoryItem.allCases.map(\.rawValue)
        for (at, entry) in list.enumerated() {
            guard let name = document.string(entry, at: path + at, what: "an accessory item") else { continue }
            guard let item = AccessoryItem(rawValue: name) else {
                var message = "unknown accessory item '\(name)'; items are \(names.joined(separator: ", "))"
                if let near = DocumentReader.closest(to: name, in: names) {
                    message = "unknown accessory item '\(name)'; did you mean '\(near)'?"
                }
                document.error(path + at, message)
                continue
            }
            if item != .flexibleSpace && item != .fixedSpace && items.contains(item) {
                document.error(path + at, "accessory item '\(name)' appears twice")
                continue
            }
            items.append(item)
        }
        return items
    }

    /// A duration's `components`: exactly `["hours", "minutes"]` or `["hours", "minutes", "seconds"]`.
    mutating func components(_ value: JSONValue, at path: JSONPath) -> [DurationComponent]? {
        guard let list = document.array(value, at: path, what: "components") else { return nil }
        var itemsOK = true
        for (at, item) in list.enumerated() where DurationComponent(rawValue: item.stringValue ?? "") == nil {
            itemsOK = false
            document.error(path + at, "a component is \"hours\", \"minutes\" or \"seconds\", not \(item)")
        }
        let names = list.compactMap(\.stringValue)
        if names == ["hours", "minutes"] { return [.hours, .minutes] }
        if names == ["hours", "minutes", "seconds"] { return [.hours, .minutes, .seconds] }
        if itemsOK {
            document.error(path, "components must be [\"hours\",\"minutes\"] or [\"hours\",\"minutes\",\"seconds\"]")
        }
        return nil
    }
}
