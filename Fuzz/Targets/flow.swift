// Fuzz target: the flow loader. Any bytes go to `Flow.load(bytes:file:)`; a flow that loads is
// run: a session is built, sent a fixed handful of events (with a tap and some typing on each of
// its first fields), and after each one snapshotted (as JSON text) and restored, which must give
// an equal session. Built and run by scripts/fuzz.
import QuireCore

let events: [Event] = [
    .tap(.button(.next)), .key(.tab), .type("ab\u{301}"), .key(.tab), .select("a"), .spin(component: .minutes, by: 7),
    .tap(.background), .dragBegin, .dragUpdate(dx: -300), .dragEnd(vx: -900), .tick(100), .settle, .key(.return),
    .swipePage(forward: false), .tap(.indicatorPage(1)), .tick(400), .tap(.button(.finish)),
]

func checkRoundTrip(_ session: Session) {
    let snapshot = JSONWriter.data(session.snapshot())
    let restored: Session
    do {
        restored = try Session(restoring: snapshot)
    } catch {
        fatalError("a snapshot did not restore: \(error.diagnostics)\n\(String(decoding: snapshot, as: UTF8.self))")
    }
    if restored != session { fatalError("the restored session differs\n\(String(decoding: snapshot, as: UTF8.self))") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlow(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let flow = try? Flow.load(bytes: bytes, file: "<fuzz>") else { return 0 }
    var session = Session(flow: flow)
    _ = session.state
    checkRoundTrip(session)
    for field in flow.fields.prefix(3) {
        session.send(.tap(.field(field.id)))
        session.send(.type("x1"))
    }
    for event in events {
        session.send(event)
        checkRoundTrip(session)
    }
    _ = session.state
    return 0
}
