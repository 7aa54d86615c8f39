import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// The harness's memoized and table-driven lookups against what they stand for, on many
/// inputs: flow paths worked out once per folder, a flow named in many spellings, the ring of
/// recent events, step and notification names, file names.
@Suite struct LookupTests {
    // MARK: Flow paths

    @Test func flowPathsWorkedOutOncePerFolderAreThoseWorkedOutEachTime() {
        let folders = [
            "", "/", "/tmp/", "/tmp/a/", "/tmp//a/", "/tmp/./a/", "/tmp/a/../b/", "data/", "./data/", "data/sessions/",
            "../x/", "a b/", "%20/", "é/", "data//s/",
        ]
        let names = ["s.json", "t.json", "x", "s.json.json", "a b.json"]
        let relatives = [
            "flow.json", "../flows/mini.json", "./flow.json", "sub/../flow.json", "/abs/flow.json", "/abs/../x.json", "a//b.json",
            "..", ".", "flows/", "é.json", "%41.json",
        ]
        var random = SplitMix64(seed: 12)
        let cache = FlowCache()
        for _ in 0..<3_000 {
            let file = folders[random.below(folders.count)] + names[random.below(names.count)]
            let relative = relatives[random.below(relatives.count)]
            #expect(cache.resolvedPath(relative, from: file) == FlowCache.resolve(relative, from: file), "\(file) → \(relative)")
        }
        // Paths whose last part is not a file name are worked out each time, the same way.
        for file in ["/tmp/a/", "data/.", "data/..", ".", "..", ""] {
            #expect(cache.resolvedPath("flow.json", from: file) == FlowCache.resolve("flow.json", from: file))
        }
    }

    @Test func aFlowNamedInManySpellingsIsLoadedOnceAndKeyedAsBefore() throws {
        let flows = FlowCache()
        let path = fixtures.appendingPathComponent("flows/mini.json").path
        let folder = fixtures.appendingPathComponent("flows").path
        let spellings = [path, folder + "/./mini.json", folder + "//mini.json", folder + "/../flows/mini.json"]
        for spelling in spellings {
            #expect(FlowCache.key(of: spelling) == URL(fileURLWithPath: spelling).standardizedFileURL.path)
            guard case .success(let flow) = flows.flow(at: spelling) else {
                Issue.record("\(spelling) did not load")
                continue
            }
            #expect(flow.id == (try Flow.load(contentsOf: path)).id)
        }
        guard case .failure(let error) = flows.flow(at: folder + "/missing.json") else {
            Issue.record("a missing flow loaded")
            return
        }
        #expect(error.diagnostics.last?.message.contains("does not exist") == true)
    }
}

extension LookupTests {
    // MARK: Recent events, notification codes, file names

    @Test func theRingOfRecentEventsListsWhatTheListDid() throws {
        let flow = try Flow.load(contentsOf: fixtures.appendingPathComponent("flows/mini.json").path)
        var random = SplitMix64(seed: 13)
        let events: [Event] = [.key(.tab), .type("x"), .tap(.button(.next)), .tap(.button(.back)), .key(.backSpace), .settle, .tick(5)]
        // Lists cut back after 3 and 16 entries as well as the runner's 65,536.
        for capacity in 1...7 {
            for kept in [3, 16, 1 << 16] {
                listsWhatTheListDid(flow: flow, capacity: capacity, kept: kept, &random, events)
            }
        }
        var none = RecentEvents(capacity: 0)
        none.record(step: 0, [])
        #expect(none.inOrder.isEmpty)
    }

    private func listsWhatTheListDid(flow: Flow, capacity: Int, kept: Int, _ random: inout SplitMix64, _ events: [Event]) {
        var session = Session(flow: flow)
        var ring = RecentEvents(capacity: capacity, kept: kept)
        var list: [(step: Int, codes: [UInt8])] = []
        for step in 0..<300 {
            let notifications = session.send(events[random.below(events.count)])
            // The list as the runner kept it before.
            if list.count == capacity { list.removeFirst() }
            list.append((step, notifications.map { NotificationCode.of($0.name) }))
            ring.record(step: step, notifications)
            #expect(ring.inOrder.map(\.step) == list.map(\.step))
            #expect(ring.inOrder.map(\.codes) == list.map(\.codes))
        }
    }

    /// A step's name is looked up through `Check.table` as `Check(rawValue:)` (the `switch` it
    /// replaced) finds it: every name, near misses, and names canonically equal in other bytes.
    @Test func aStepNameIsTheCheckItNames() {
        let names = ScriptLoader.Check.allCases.map(\.rawValue) + Event.names
        var probes = ["", "?"]
        for name in names {
            probes += [name, name.uppercased(), String(name.dropLast()), name + " ", "\u{301}" + name, name + "\u{301}"]
            probes.append(String(name.map { (c: Character) -> Character in c == "K" ? "\u{212A}" : c }))
        }
        for probe in probes {
            #expect(
                ScriptLoader.Check.table.index(of: probe).map { ScriptLoader.Check.cases[$0] } == ScriptLoader.Check(rawValue: probe),
                "\(probe)")
            #expect(Event.Kind(name: probe) == Event.Kind(rawValue: probe), "\(probe)")
        }
        #expect(
            ScriptLoader.Check.table.index(of: "expect\u{212A}eyboardFocus").map { ScriptLoader.Check.cases[$0] } == .expectKeyboardFocus)
    }

    @Test func aKindsCodeIsItsNamesCode() {
        for kind in SessionNotification.Kind.allCases {
            #expect(NotificationCode.of(kind) == NotificationCode.of(kind.rawValue))
            #expect(NotificationCode.name(NotificationCode.of(kind)) == kind.rawValue)
        }
        let near = SessionNotification.names.flatMap { [$0, $0.uppercased(), String($0.dropLast()), $0 + " ", "\u{301}" + $0] }
        for name in near + ["", "?", "valueChanged\u{0}"] {
            #expect(NotificationCode.kind(named: name) == SessionNotification.Kind(rawValue: name), "\(name)")
        }
    }

    @Test func aFoundFilesNameIsWhatNSStringSaysItIs() {
        // The walker's paths: a folder as named (any spelling), `/` unless it ends in one, a name
        // from the folder's listing (never empty, `.` or `..`, never holding `/`).
        let folders = ["/", "/tmp", "/tmp/", "data", "data/", "./data", "../x//y", "a b", "é/日本", "~", "%20", "x/./y/../z"]
        let names = ["s.json", "a b.json", ".json", "x~", "~", "%20.json", "a\\b.json", "日本.json", "é.json", "...", ".hidden"]
        var random = SplitMix64(seed: 14)
        for _ in 0..<5_000 {
            let folder = folders[random.below(folders.count)]
            var path = folder.hasSuffix("/") ? folder : folder + "/"
            for _ in 0..<random.below(3) { path += names[random.below(names.count)] + "/" }
            path += names[random.below(names.count)]
            #expect(FileWalker.lastComponent(of: path) == (path as NSString).lastPathComponent, "\(path)")
        }
        for path in ["s.json", "data/sessions/", "a/b//"] {
            #expect(FileWalker.lastComponent(of: path) == (path as NSString).lastPathComponent, "\(path)")
        }
    }
}
