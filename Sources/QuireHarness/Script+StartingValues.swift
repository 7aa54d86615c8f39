import QuireCore

extension ScriptLoader {
    /// A script's `values` (the answers the session starts from): an object of field ids and
    /// values each field could hold (`Session.startingValue`). **Decision:** a script is strict
    /// where the app is lenient — an unknown field or a value the field could not hold is bad
    /// input, not left at the default.
    static func startingValues(_ json: JSONValue?, flow: Flow, reader: inout DocumentReader) -> JSONObject? {
        guard let json, let object = reader.object(json, at: .root + "values", what: "values") else { return nil }
        Session.checkStartingValues(object, of: flow, at: .root + "values", reader: &reader)
        return object
    }
}

extension SessionScript {
    /// The session the script starts from: its flow, locale and viewport, with its `values`.
    public var startSession: Session {
        guard let startingValues else { return Session(flow: flow, locale: locale, viewportWidth: viewportWidth) }
        return Session(flow: flow, locale: locale, viewportWidth: viewportWidth, startingWith: startingValues)
    }
}
