// Fuzz target: the C API's JSON entry points, called as C calls them (NUL-terminated text,
// error out-parameters, every result freed). The first byte picks what the rest is:
//   0: a flow for quire_engine_new_from_json; on success a fixed handful of events is sent;
//   1: events, one per line, sent with quire_engine_send to an engine on
//      data/flows/focus-onboarding.json;
//   2: a snapshot for quire_engine_restore.
// An engine that exists is then read (state, presentation, page presentations, focus, result),
// snapshotted and restored, and the restored engine must give the same state and snapshot text.
// Built and run by scripts/fuzz.
import CQuire
import QuireEmbed

#if canImport(Glibc)
    import Glibc
#endif

let root: String = {
    if let value = getenv("QUIRE_FUZZ_ROOT") { return String(cString: value) }
    return String(#filePath.dropLast("/Fuzz/Targets/capi.swift".count))
}()
let flowPath = root + "/data/flows/focus-onboarding.json"

let fixedEvents = [
    #"{"tap":"button:next"}"#, #"{"key":"Tab"}"#, #"{"type":"Aki"}"#, #"{"key":"Tab"}"#, #"{"dragBegin":{}}"#,
    #"{"dragUpdate":{"dx":-500}}"#, #"{"dragEnd":{"vx":-900}}"#, #"{"tick":16.7}"#, #"{"settle":true}"#,
    #"{"tap":"button:finish"}"#,
]

/// Calls `body` with `bytes` as a NUL-terminated C string (cut at its first NUL, as C would).
func withCText<T>(_ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) -> T) -> T {
    var text = Array(bytes)
    text.append(0)
    return text.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0) }
    }
}

/// Takes an owned C string: its text, freed.
func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
    guard let text else { return nil }
    defer { quireFree(text) }
    return String(cString: text)
}

func send(_ engine: EngineHandle, _ bytes: some Collection<UInt8>) {
    var error: UnsafeMutablePointer<QuireEngineError>? = nil
    let sent = withCText(bytes) { quireEngineSend(engine, $0, &error) }
    if sent != (error == nil) { fatalError("quire_engine_send returned \(sent) with error \(error == nil ? "unset" : "set")") }
    quireEngineErrorFree(error)
}

func exercise(_ engine: EngineHandle) {
    _ = take(quireEngineGetPresentation(engine))
    let count = quireEngineGetPageCount(engine)
    for index in [-1, 0, count - 1, count] { _ = take(quireEngineGetPagePresentation(engine, index)) }
    _ = take(quireEngineGetPageID(engine))
    _ = take(quireEngineGetFocus(engine))
    _ = take(quireEngineGetOutcome(engine))
    _ = take(quireEngineGetResult(engine))
    _ = quireEngineIsCompleted(engine)
    guard let state = take(quireEngineGetState(engine)), let snapshot = take(quireEngineSnapshot(engine)) else {
        fatalError("a live engine gave no state or snapshot")
    }
    var error: UnsafeMutablePointer<QuireEngineError>? = nil
    guard let restored = withCText(Array(snapshot.utf8), { quireEngineRestore($0, &error) }) else {
        fatalError("a snapshot did not restore: \(error.map { String(cString: $0.pointee.message) } ?? "no error")\n\(snapshot)")
    }
    defer { quireEngineFree(restored) }
    if take(quireEngineGetState(restored)) != state { fatalError("the restored engine's state differs\n\(snapshot)") }
    if take(quireEngineSnapshot(restored)) != snapshot { fatalError("the restored engine's snapshot differs\n\(snapshot)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCAPI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let mode = bytes.first else { return 0 }
    let rest = bytes.dropFirst()
    var error: UnsafeMutablePointer<QuireEngineError>? = nil
    let engine: EngineHandle?
    switch mode % 3 {
    case 0:
        engine = withCText(rest) { quireEngineNewFromJSON($0, &error) }
        if let engine { for event in fixedEvents { send(engine, Array(event.utf8)) } }
    case 1:
        engine = withCText(Array(flowPath.utf8)) { quireEngineNewFromFile($0, &error) }
        guard let engine else { fatalError("the C API target's flow does not load") }
        for line in rest.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) { send(engine, line) }
    default:
        engine = withCText(rest) { quireEngineRestore($0, &error) }
    }
    if (engine == nil) == (error == nil) { fatalError("an engine \(engine == nil ? "without" : "with") an error") }
    quireEngineErrorFree(error)
    if let engine {
        exercise(engine)
        quireEngineFree(engine)
    }
    return 0
}
