extension Session {
    /// A fresh session (page one, nothing touched, no first responder) whose answers start from
    /// `values` instead of the flow's defaults — a walkthrough run again from the answers it gave
    /// last time (issue 20: `quire run`'s Ctrl+R starts from the saved settings), or a script's
    /// top-level `values`.
    ///
    /// **Decision:** a starting value is taken for a field when it is one the field could hold
    /// (`startingValue(_:for:)`); anything else — an unknown id, a value of another kind, an
    /// option the flow no longer has, text over the field's `maxLength`, a duration the wheels
    /// cannot show — leaves that field at its default, as does a field `values` leaves out. `null`
    /// clears the field. Visibility, requirements and errors are derived from the answers as on
    /// any start; errors stay hidden until the fields are touched, as in a fresh session.
    public init(flow: Flow, locale: String = "en", viewportWidth: Double = 800, startingWith values: JSONObject) {
        var answers = flow.fields.map(\.defaultValue)
        for (id, json) in values {
            guard let index = flow.fieldIndex(of: id), let value = Session.startingValue(json, for: flow.fields[index]) else { continue }
            answers[index] = value
        }
        self.init(flow: flow, locale: locale, viewportWidth: viewportWidth, values: answers)
    }

    /// The problems of `values` as strict starting values — what a script's `values` and the C
    /// API's `quire_engine_set_starting_values` accept, where the app is lenient: every member
    /// names a field of `flow` and holds a value that field could hold (`startingValue`). Each
    /// problem is reported to `reader` at `path` + the field's id.
    public static func checkStartingValues(_ values: JSONObject, of flow: Flow, at path: JSONPath, reader: inout DocumentReader) {
        for (id, json) in values {
            guard let index = flow.fieldIndex(of: id) else {
                reader.error(path + id, "the flow has no field '\(id)'", onKey: true)
                continue
            }
            let field = flow.fields[index]
            if startingValue(json, for: field) == nil {
                reader.error(path + id, "\(json) is not a value the \(field.kind.name) field '\(id)' can hold")
            }
        }
    }

    /// `json` as a starting value of `field`, or nil when the field could not hold it: not a
    /// value of its kind (`Field.value(from:)`), text longer than its `maxLength` (in grapheme
    /// clusters, as typing counts), a duration outside 0–23:59:59 or not on its wheels
    /// (`DurationOptions.isRepresentable`).
    public static func startingValue(_ json: JSONValue, for field: Field) -> FieldValue? {
        guard let value = field.value(from: json) else { return nil }
        switch (field.kind, value) {
        case (.text(let options), .text(let text)):
            if let maxLength = options.maxLength, text.count > maxLength { return nil }
        case (.duration(let options), .duration(let seconds)):
            if !options.isRepresentable(seconds) { return nil }
        default:
            break
        }
        return value
    }
}
