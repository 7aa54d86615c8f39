// Fuzz target: the session-script loader plus a replay. Any bytes go to
// `ScriptLoader.load(bytes:file:flows:)` as if they were a script in data/sessions/ (so a
// relative "flow" path names the repository's flows); a script that loads is run with
// `Runner.run`, with steps and a trace recorded. Built and run by scripts/fuzz.
import QuireCore
import QuireHarness

#if canImport(Glibc)
    import Glibc
#endif

let root: String = {
    if let value = getenv("QUIRE_FUZZ_ROOT") { return String(cString: value) }
    return String(#filePath.dropLast("/Fuzz/Targets/script.swift".count))
}()
let file = root + "/data/sessions/fuzz/input.json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // A cache per input: a cache kept across inputs holds flows whose indirect-enum conditions
    // LeakSanitizer cannot see the references to (Swift stores them with tag bits in the pointer),
    // so it reports them as leaked whenever an input leaves anything allocated.
    let flows = FlowCache()
    guard case .script(let script) = ScriptLoader.load(bytes: bytes, file: file, flows: flows) else { return 0 }
    var options = Runner.Options(recordSteps: true, trace: true)
    options.finalState = true
    _ = Runner.run(script, options: options)
    return 0
}
