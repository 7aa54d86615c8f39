import Foundation
import QuireCore
import QuireWorkloads

// Runs one benchmark row N times with nothing around it, for valgrind:
//   valgrind --tool=callgrind --toggle-collect='*measured*' .build/release/QuireProfile tab 10000 100000
//   valgrind --tool=dhat .build/release/QuireProfile type-long 10 100000
// Rows: tab, tab-convenience, toggle, drag, type-short, type-long, tick, snapshot, load.
// Setup runs outside `measured`, so --toggle-collect counts only the events.

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
default:
    FileHandle.standardError.write(Data("QuireProfile: unknown row '\(row)'\n".utf8))
    exit(2)
}
print(result)
