import CJSONGlib
import Foundation
import QuireCore
import QuireWorkloads

// Runs one benchmark row N times with nothing around it, for valgrind:
//   valgrind --tool=callgrind --toggle-collect='*measured*' .build/release/QuireProfile tab 10000 100000
//   valgrind --tool=dhat .build/release/QuireProfile type-long 10 100000
// Rows: tab, tab-convenience, toggle, drag, type-short, type-long, tick, snapshot, load.
// Setup runs outside `measured`, so --toggle-collect counts only the events.
// `load-ratio PAGES ROUNDS` is bench-check's "ratio: load json-glib / Quire" alone, without
// valgrind: json-glib and Quire load the same flow alternately, ROUNDS times each, and it prints
// the ratio of their median CPU times (json-glib / Quire, higher is faster), then both medians.

let arguments = CommandLine.arguments
guard arguments.count == 4, let size = Int(arguments[2]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: QuireProfile ROW FIELDS COUNT\n".utf8))
    exit(2)
}

@inline(never) func measured(_ session: inout Session, _ events: [Event], _ count: Int) -> Int {
    var buffer: [SessionNotification] = []
    buffer.reserveCapacity(16)
    var total = 0
    for index in 0..<count {
        session.send(events[index % events.count], into: &buffer)
        total &+= buffer.count
    }
    return total
}

@inline(never) func measuredConvenience(_ session: inout Session, _ event: Event, _ count: Int) -> Int {
    var total = 0
    for _ in 0..<count { total &+= session.send(event).count }
    return total
}

@inline(never) func measuredSnapshot(_ session: Session, _ count: Int) -> Int {
    var total = 0
    for _ in 0..<count {
        let bytes = session.snapshotData(includingFlow: false)
        let restored = try! Session(restoring: bytes, flow: session.flow)
        total &+= bytes.count + (restored == session ? 1 : 0)
    }
    return total
}

@inline(never) func measuredLoad(_ bytes: [UInt8], _ count: Int) -> Int {
    var total = 0
    for _ in 0..<count { total &+= try! Flow.load(bytes: bytes, limits: Workloads.limits).fields.count }
    return total
}

/// The CPU time of this thread, in nanoseconds.
func cpuNanoseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

func loadRatio(_ bytes: [UInt8], rounds: Int) -> (ratio: Double, quire: Double, jsonGlib: Double) {
    func jsonGlib() -> Int32 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { quire_bench_json_glib_load($0.baseAddress, $0.count) }
        }
    }
    guard jsonGlib() == 1 else {
        FileHandle.standardError.write(Data("QuireProfile: built without json-glib (apt-get install libjson-glib-dev)\n".utf8))
        exit(2)
    }
    var quireTimes: [Double] = []
    var jsonGlibTimes: [Double] = []
    for _ in 0..<rounds {
        var started = cpuNanoseconds()
        _ = try! Flow.load(bytes: bytes, limits: Workloads.limits)
        quireTimes.append(cpuNanoseconds() - started)
        started = cpuNanoseconds()
        _ = jsonGlib()
        jsonGlibTimes.append(cpuNanoseconds() - started)
    }
    let median = { (times: [Double]) in times.sorted()[times.count / 2] }
    return (median(jsonGlibTimes) / median(quireTimes), median(quireTimes) / 1e6, median(jsonGlibTimes) / 1e6)
}

let row = arguments[1]
var result = 0
switch row {
case "tab", "tab-convenience":
    var session = Workloads.typingSession(Workloads.eventFlow(fields: size), text: "x")
    result = row == "tab" ? measured(&session, [.key(.tab)], count) : measuredConvenience(&session, .key(.tab), count)
case "toggle":
    let flow = Workloads.eventFlow(fields: size)
    var session = Workloads.middleSession(flow)
    result = measured(&session, [.tap(.field("t\(flow.pages.count / 2)"))], count)
case "drag":
    var session = Workloads.middleSession(Workloads.eventFlow(fields: size))
    session.send(.dragBegin)
    session.send(.dragUpdate(dx: 100))
    result = measured(&session, [.dragUpdate(dx: 120), .dragUpdate(dx: 100)], count)
case "type-short", "type-long":
    var session = Workloads.typingSession(
        Workloads.eventFlow(fields: size), text: row == "type-short" ? "abc" : "a text of 24 characters")
    result = measured(&session, [.type("x"), .key(.backSpace)], count)
case "tick":
    var session = Session(flow: Workloads.eventFlow(fields: size, animationMs: 10_000))
    session.send(.tap(.button(.next)))
    result = measured(&session, [.tick(0.001)], count)
case "snapshot":
    result = measuredSnapshot(Workloads.answeredSession(Workloads.eventFlow(fields: size)), count)
case "load":
    result = measuredLoad(Workloads.largeFlowBytes(pages: size), count)
case "load-ratio":
    let (ratio, quire, jsonGlib) = loadRatio(Workloads.largeFlowBytes(pages: size), rounds: count)
    print(String(format: "json-glib / Quire %.2f× (Quire %.1f ms, json-glib %.1f ms)", ratio, quire, jsonGlib))
    exit(0)
default:
    FileHandle.standardError.write(Data("QuireProfile: unknown row '\(row)'\n".utf8))
    exit(2)
}
print(result)
