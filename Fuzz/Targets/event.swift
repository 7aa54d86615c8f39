// Fuzz target: event JSON. The bytes are parsed as JSON and then as an event
// (`Event.parse(_:)`, what scripts and `quire_engine_send` use); an event that parses must write
// back to JSON that parses to the same event, and is sent to a session on a small flow. The text
// is also read as a key name and a tap target. Built and run by scripts/fuzz.
import QuireCore

let flow: Flow = {
    do {
        return try Flow.load(
            json: #"""
                {"format": "quire.flow/1", "id": "events", "paging": {"animationMs": 50, "wrap": true},
                 "pages": [
                  {"id": "a", "fields": [{"id": "name", "kind": "text", "maxLength": 8},
                                         {"id": "color", "kind": "choice", "options": [{"id": "red"}, {"id": "blue"}]},
                                         {"id": "on", "kind": "toggle"}]},
                  {"id": "b", "fields": [{"id": "d", "kind": "duration", "components": ["hours", "minutes", "seconds"]}]},
                  {"id": "c"}]}
                """#)
    } catch {
        fatalError("the event target's flow does not load: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    _ = Key(gdkName: text)
    _ = TapTarget(text)
    guard let value = try? JSONParser.parse(bytes).value else { return 0 }
    guard case .success(let event) = Event.parse(value) else { return 0 }
    let written = JSONWriter.data(event.json)
    guard let reread = try? JSONParser.parse(written).value, case .success(let again) = Event.parse(reread) else {
        fatalError("\(event) wrote JSON that does not parse back: \(String(decoding: written, as: UTF8.self))")
    }
    if again != event { fatalError("\(event) wrote JSON that parses to \(again)") }
    var session = Session(flow: flow)
    for first in [Event.tap(.field("name")), .tap(.field("d")), .tap(.button(.next)), .tap(.field("d"))] {
        session.send(first)
        session.send(event)
    }
    return 0
}
