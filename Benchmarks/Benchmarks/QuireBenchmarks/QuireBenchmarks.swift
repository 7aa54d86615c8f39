import Benchmark
import CJSONGlib
import Foundation
import QuireCore
import QuireHarness
import QuireWorkloads

// The rows docs/performance.md describes ("The suite and how to run it"; the README's
// "Performance" gives where each budget stands). Per-event rows run 1,000 events per iteration
// (`scalingFactor: .kilo`): times are per event, allocation counts per 1,000 events.
// `QUIRE_BENCH_SHORT=1` is the short run scripts/bench-check makes in CI.

/// A session and its notification buffer, made once per benchmark and kept across its iterations
/// (building a 50,000-field session for every iteration would dwarf 1,000 events). Benchmarks run
/// one at a time.
final class Box: @unchecked Sendable {
    var session: Session
    var buffer: [SessionNotification] = []

    init(_ session: Session, warmUp: [Event] = []) {
        self.session = session
        buffer.reserveCapacity(16)
        for event in warmUp { self.session.send(event, into: &buffer) }
    }
}

/// CPU time of this thread (or of the process, for rows that run on several threads), in
/// nanoseconds: time taken by other programs on a shared machine does not count.
func cpuNanoseconds(process: Bool = false) -> Double {
    var time = timespec()
    clock_gettime(process ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// Times `base` and `other` alternately, `rounds` times each, so both see the same machine; the
/// ratio of their median CPU times, other / base.
func sideBySide(rounds: Int, process: Bool = false, base: () -> Void, other: () -> Void) -> Double {
    var baseTimes: [Double] = []
    var otherTimes: [Double] = []
    for _ in 0..<rounds {
        var started = cpuNanoseconds(process: process)
        base()
        baseTimes.append(cpuNanoseconds(process: process) - started)
        started = cpuNanoseconds(process: process)
        other()
        otherTimes.append(cpuNanoseconds(process: process) - started)
    }
    let median = { (times: [Double]) in times.sorted()[times.count / 2] }
    return median(otherTimes) / max(1, median(baseTimes))
}

/// The metric of the side-by-side rows: a ratio in thousandths (1,000 = as fast).
let ratio = BenchmarkMetric.custom("ratio x1000", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    let short = Workloads.short
    let perEvent = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: short ? .milliseconds(300) : .seconds(2),
        maxIterations: short ? 300 : 2_000)
    let whole = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResidentDelta],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: short ? .seconds(1) : .seconds(5),
        maxIterations: short ? 5 : 30)

    // The measuring's own allocations per iteration, which every row's count includes.
    Benchmark("empty", configuration: perEvent) { benchmark in
        for index in benchmark.scaledIterations { blackHole(index) }
    }

    // MARK: Per event, on 10 … 50,000 fields

    var boxes: [String: Box] = [:]
    for fields in Workloads.fieldCounts {
        let flow = Workloads.eventFlow(fields: fields)
        // Drags need a page to reveal: at least two pages.
        let dragFlow = fields < 20 ? Workloads.eventFlow(fields: 20) : flow
        let dragFields = max(fields, 20)

        // Tab: three notifications (inputDismissed, focusChanged, inputPresented) per event.
        let tab = Box(Workloads.typingSession(flow, text: "x"), warmUp: [.key(.tab)])
        boxes["tab \(fields)"] = tab
        Benchmark("Tab send(_:into:) \(fields) fields", configuration: perEvent) { benchmark in
            for _ in benchmark.scaledIterations {
                tab.session.send(.key(.tab), into: &tab.buffer)
            }
            blackHole(tab.buffer.count)
        }

        // A value change that re-evaluates conditions: the page's toggle shows or hides its nine
        // text fields.
        let toggleEvent = Event.tap(.field("t\(flow.pages.count / 2)"))
        let toggle = Box(Workloads.middleSession(flow), warmUp: [toggleEvent])
        boxes["toggle \(fields)"] = toggle
        Benchmark("Toggle with conditions \(fields) fields", configuration: perEvent) { benchmark in
            for _ in benchmark.scaledIterations {
                toggle.session.send(toggleEvent, into: &toggle.buffer)
            }
            blackHole(toggle.buffer.count)
        }

        // dragUpdate between two offsets, back towards the previous page (from the middle page; on
        // one page there is none, so the drag rubber-bands).
        let drag = Box(Workloads.middleSession(dragFlow), warmUp: [.dragBegin, .dragUpdate(dx: 100)])
        boxes["drag \(fields)"] = drag
        Benchmark("dragUpdate \(dragFields) fields", configuration: perEvent) { benchmark in
            for index in benchmark.scaledIterations {
                drag.session.send(.dragUpdate(dx: index & 1 == 0 ? 120 : 100), into: &drag.buffer)
            }
            blackHole(drag.buffer.count)
        }
    }

    // Side by side: the largest flow against the smallest, 1,000 events at a time, alternating.
    let sideConfiguration = Benchmark.Configuration(
        metrics: [ratio], warmupIterations: 1, maxDuration: short ? .seconds(2) : .seconds(5), maxIterations: short ? 5 : 15)
    let (smallest, largest) = (Workloads.fieldCounts.first!, Workloads.fieldCounts.last!)
    let toggleSmall = Event.tap(.field("t0")), toggleLarge = Event.tap(.field("t\(largest / 10 / 2)"))
    for (row, small, large) in [
        ("Tab send(_:into:)", [Event.key(.tab)], [Event.key(.tab)]), ("Toggle with conditions", [toggleSmall], [toggleLarge]),
        ("dragUpdate", [.dragUpdate(dx: 120), .dragUpdate(dx: 100)], [.dragUpdate(dx: 120), .dragUpdate(dx: 100)]),
    ] {
        let key = row.hasPrefix("Tab") ? "tab" : row.hasPrefix("Toggle") ? "toggle" : "drag"
        let (a, b) = (boxes["\(key) \(smallest)"]!, boxes["\(key) \(largest)"]!)
        let smallSize = key == "drag" ? max(smallest, 20) : smallest
        Benchmark("ratio: \(row) \(largest) / \(smallSize) fields", configuration: sideConfiguration) { benchmark in
            let value = sideBySide(
                rounds: 51,
                base: { for index in 0..<1_000 { a.session.send(small[index % small.count], into: &a.buffer) } },
                other: { for index in 0..<1_000 { b.session.send(large[index % large.count], into: &b.buffer) } })
            benchmark.measurement(ratio, Int(value * 1000))
        }
    }

    // MARK: Typing, ticks, the convenience send

    let small = Workloads.eventFlow(fields: 10)
    // One character typed and taken back (BackSpace), so the text keeps its length and every
    // iteration does the same work: two events per iteration.
    for (name, text) in [("short text", "abc"), ("text over 15 bytes", "a text of 24 characters")] {
        let typing = Box(Workloads.typingSession(small, text: text), warmUp: [.type("x"), .key(.backSpace)])
        Benchmark("type + BackSpace \(name)", configuration: perEvent) { benchmark in
            for _ in benchmark.scaledIterations {
                typing.session.send(.type("x"), into: &typing.buffer)
                typing.session.send(.key(.backSpace), into: &typing.buffer)
            }
            blackHole(typing.buffer.count)
        }
    }

    // Ticks of one microsecond during a 10 s page animation.
    let animated = Workloads.eventFlow(fields: 20, animationMs: 10_000)
    Benchmark("tick during an animation", configuration: perEvent) { benchmark in
        var session = Session(flow: animated)
        var buffer: [SessionNotification] = []
        buffer.reserveCapacity(16)
        session.send(.tap(.button(.next)), into: &buffer)
        session.send(.tick(0.001), into: &buffer)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            session.send(.tick(0.001), into: &buffer)
            blackHole(buffer.count)
        }
    }

    // The convenience form: a new array of notifications per event.
    let convenience = Box(Workloads.typingSession(small, text: "x"))
    Benchmark("Tab send(_:) 10 fields", configuration: perEvent) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(convenience.session.send(.key(.tab)))
        }
    }

    // MARK: Snapshot + restore

    @Sendable func snapshotAndRestore(_ session: Session) {
        let bytes = session.snapshotData(includingFlow: false)
        blackHole(try! Session(restoring: bytes, flow: session.flow))
    }
    var snapshotSessions: [(Int, Session)] = []

    for fields in short ? [10_000, 50_000] : [1_000, 10_000, 50_000] {
        let flow = Workloads.eventFlow(fields: fields)
        let answered = Workloads.answeredSession(flow)
        snapshotSessions.append((fields, answered))
        Benchmark("snapshot + restore \(fields) fields", configuration: whole) { benchmark in
            for _ in benchmark.scaledIterations {
                let bytes = answered.snapshotData(includingFlow: false)
                let restored = try! Session(restoring: bytes, flow: flow)
                blackHole(restored)
            }
        }
    }

    let (snapshotSmall, snapshotLarge) = (snapshotSessions[snapshotSessions.count - 2], snapshotSessions.last!)
    Benchmark("ratio: snapshot + restore \(snapshotLarge.0) / \(snapshotSmall.0) fields", configuration: sideConfiguration) { benchmark in
        let value = sideBySide(
            rounds: short ? 3 : 7, base: { snapshotAndRestore(snapshotSmall.1) }, other: { snapshotAndRestore(snapshotLarge.1) })
        benchmark.measurement(ratio, Int(value * 1000))
    }

    // MARK: Loading a ~20 MB flow, against json-glib and Foundation on the same bytes

    let pages = Workloads.largePages
    let loadConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: short ? .seconds(2) : .seconds(10), maxIterations: short ? 5 : 20)
    @Sendable func large() -> [UInt8] { Workloads.largeFlow }
    Benchmark("load \(pages) pages x 25 fields: Quire Flow.load", configuration: loadConfiguration) { benchmark in
        let bytes = large()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! Flow.load(bytes: bytes, limits: Workloads.limits))
        }
    }
    Benchmark("load \(pages) pages x 25 fields: Quire JSON parse only", configuration: loadConfiguration) { benchmark in
        let bytes = large()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! JSONParser.parse(bytes, limits: Workloads.limits))
        }
    }
    Benchmark("load \(pages) pages x 25 fields: json-glib", configuration: loadConfiguration) { benchmark in
        let bytes = large()
        precondition(
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { quire_bench_json_glib_load($0.baseAddress, $0.count) }
            } == 1, "json-glib is not there or rejected the flow (benchmarks built without libjson-glib-dev?)")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let loaded = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { quire_bench_json_glib_load($0.baseAddress, $0.count) }
            }
            blackHole(loaded)
        }
    }
    Benchmark("load \(pages) pages x 25 fields: JSONDecoder", configuration: loadConfiguration) { benchmark in
        let data = Data(large())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! JSONDecoder().decode(DecodableFlow.self, from: data))
        }
    }
    Benchmark("load \(pages) pages x 25 fields: JSONSerialization", configuration: loadConfiguration) { benchmark in
        let data = Data(large())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! JSONSerialization.jsonObject(with: data))
        }
    }

    // Side by side: each baseline against Quire on the same bytes, alternating.
    let baselines: [(String, @Sendable ([UInt8]) -> Void)] = [
        (
            "json-glib",
            { bytes in
                blackHole(
                    bytes.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { quire_bench_json_glib_load($0.baseAddress, $0.count) }
                    })
            }
        ),
        ("JSONDecoder", { bytes in blackHole(try! JSONDecoder().decode(DecodableFlow.self, from: Data(bytes))) }),
        ("JSONSerialization", { bytes in blackHole(try! JSONSerialization.jsonObject(with: Data(bytes))) }),
    ]
    for (name, load) in baselines {
        Benchmark("ratio: load \(name) / Quire", configuration: sideConfiguration) { benchmark in
            let bytes = large()
            let value = sideBySide(
                rounds: short ? 3 : 5, base: { blackHole(try! Flow.load(bytes: bytes, limits: Workloads.limits)) },
                other: { load(bytes) })
            benchmark.measurement(ratio, Int(value * 1000))
        }
    }

    // MARK: quire test, N scripts × 50 steps (what `quire test --jobs 2 --quiet` runs, in process)

    for count in short ? [1_000, 5_000] : [1_000, 10_000] {
        let testConfiguration = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .peakMemoryResidentDelta], timeUnits: .milliseconds, warmupIterations: 1,
            maxDuration: short ? .seconds(3) : .seconds(10), maxIterations: short ? 3 : 10)
        Benchmark("quire test \(count) scripts x 50 steps", configuration: testConfiguration) { benchmark in
            let folder = Workloads.scripts(count: count)
            let candidates = Suite.discover([folder])
            benchmark.startMeasurement()
            let outcome = Suite.run(candidates, options: Suite.Options(jobs: 2), reporters: [])
            benchmark.stopMeasurement()
            precondition(outcome.summary.failed == 0 && outcome.summary.bad == 0, "generated scripts failed")
        }
    }

    // Side by side in process CPU time (the run uses two threads): linear in the number of scripts.
    let (fewScripts, manyScripts) = short ? (1_000, 5_000) : (1_000, 10_000)
    Benchmark("ratio: quire test \(manyScripts) / \(fewScripts) scripts", configuration: sideConfiguration) { benchmark in
        let (few, many) = (Suite.discover([Workloads.scripts(count: fewScripts)]), Suite.discover([Workloads.scripts(count: manyScripts)]))
        let value = sideBySide(
            rounds: 1, process: true, base: { blackHole(Suite.run(few, options: Suite.Options(jobs: 2), reporters: [])) },
            other: { blackHole(Suite.run(many, options: Suite.Options(jobs: 2), reporters: [])) })
        benchmark.measurement(ratio, Int(value * 1000))
    }

    // MARK: Hostile inputs, against parsing the same bytes (the timings that were unit-test bounds)

    let hostileConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: short ? .seconds(1) : .seconds(5), maxIterations: short ? 5 : 20)
    let hostile: [(String, [UInt8], @Sendable ([UInt8]) -> Void)] = [
        (
            "expectEmitted of 25001 names that misses over 50000 notifications", Hostile.halfNames,
            { bytes in
                guard case .script(let script) = ScriptLoader.load(bytes: bytes, file: "h.json", flows: FlowCache()) else {
                    fatalError("the script did not load")
                }
                guard case .failed = Runner.run(script).status else { fatalError("the expectEmitted matched") }
            }
        ),
        (
            "40 unknown names of 65000 characters in a script", Hostile.longNames,
            { bytes in
                guard case .bad = ScriptLoader.load(bytes: bytes, file: "h.json", flows: FlowCache()) else {
                    fatalError("not bad input")
                }
            }
        ),
        (
            "a flow with 5000 problems", Hostile.manyProblems,
            { bytes in
                let loaded = Result { () throws(DocumentError) -> Flow in try Flow.load(bytes: bytes) }
                guard case .failure(let error) = loaded else { fatalError("the flow loaded") }
                blackHole(error.diagnostics.count)
            }
        ),
    ]
    for (name, bytes, work) in hostile {
        Benchmark("ratio: hostile: \(name) / parsing it", configuration: sideConfiguration) { benchmark in
            let value = sideBySide(
                rounds: 3, base: { blackHole(try! JSONParser.parse(bytes, limits: Workloads.limits)) }, other: { work(bytes) })
            benchmark.measurement(ratio, Int(value * 1000))
        }
        Benchmark("hostile: \(name)", configuration: hostileConfiguration) { benchmark in
            for _ in benchmark.scaledIterations { work(bytes) }
        }
        Benchmark("hostile: \(name): JSON parse only", configuration: hostileConfiguration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! JSONParser.parse(bytes, limits: Workloads.limits)) }
        }
    }
    // "Did you mean" on a word of 65,000 characters against the same on a word of 9.
    for (name, word) in [("65000 characters", Hostile.hugeWord), ("9 characters", "candidat9")] {
        Benchmark("hostile: did you mean on \(name) x 200", configuration: hostileConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                for _ in 0..<200 { blackHole(DocumentReader.closest(to: word, in: Hostile.candidates)) }
            }
        }
    }
    Benchmark("ratio: did you mean on 65000 / 9 characters", configuration: sideConfiguration) { benchmark in
        let value = sideBySide(
            rounds: 5, base: { for _ in 0..<200 { blackHole(DocumentReader.closest(to: "candidat9", in: Hostile.candidates)) } },
            other: { for _ in 0..<200 { blackHole(DocumentReader.closest(to: Hostile.hugeWord, in: Hostile.candidates)) } })
        benchmark.measurement(ratio, Int(value * 1000))
    }
}
