import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// The harness's own check behind `restart`: a session that does not come back equal fails the
/// step with what differs. The core's restore is exact, so a restore that loses something is
/// simulated by replacing it.
@Suite struct RestartCheckTests {
    /// The fixture flow (a bad fixture fails the test that reads it, not the whole run).
    let flow: Flow

    init() throws {
        flow = try Flow.load(contentsOf: fixtures.appendingPathComponent("flows/mini.json").path)
    }

    /// A session with "Aki" typed into the required name.
    func session(locale: String = "en") -> Session {
        var session = Session(flow: flow, locale: locale)
        session.send(.tap(.field("name")))
        session.send(.type("Aki"))
        return session
    }

    @Test func anEqualRestoreReportsNothing() {
        var session = session(locale: "ja")
        let before = session
        #expect(Runner.restart(&session, flow: flow).isEmpty)
        #expect(session == before)
    }

    @Test func aRestoreThatChangesTheStateIsReportedWithTheDifferences() {
        var session = session()
        let lines = Runner.restart(&session, flow: flow) { snapshot, flow throws(DocumentError) in
            var restored = try Runner.restore(snapshot, flow)
            restored.send(.key(.backSpace))
            return restored
        }
        #expect(lines == ["restart changed the session", #"  $.values.name: "Aki" → "Ak""#])
        // The script goes on with the restored session, as a front would.
        #expect(session.value(of: "name") == "Ak")
    }

    @Test func aRestoreThatLosesTheLocaleIsReported() {
        var session = session(locale: "ja")
        let lines = Runner.restart(&session, flow: flow) { snapshot, flow throws(DocumentError) in
            var restored = try Runner.restore(snapshot, flow)
            restored.locale = "en"
            return restored
        }
        #expect(lines == ["restart changed the session", #"  locale: "ja" → "en""#])
    }

    @Test func aSnapshotThatDoesNotRestoreIsReported() {
        var session = session()
        let lines = Runner.restart(&session, flow: flow) { _, _ throws(DocumentError) in
            try Runner.restore(Array("{}".utf8), flow)
        }
        #expect(lines.first == "restart failed: the snapshot did not restore")
        #expect(lines.count > 1)
    }
}

extension CommandTests {
    /// `--shard K/N` takes every N-th script of the stable order, starting at the K-th: with
    /// pass/a…e, shard 1/2 runs a, c and e and shard 2/2 runs b and d, the same on every run.
    @Test func shardOneOfTwoRunsTheOddScriptsOfTheStableOrder() throws {
        func ran(_ shard: String) throws -> [String] {
            let run = try quire(["test", "--plain", "--jobs", "2", "--shard", shard, "pass"])
            #expect(run.status == 0)
            return run.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") }.map {
                String($0.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        let first = try ran("1/2")
        #expect(first == ["pass/a.json", "pass/c.json", "pass/e.json"])
        #expect(try ran("2/2") == ["pass/b.json", "pass/d.json"])
        #expect(try ran("1/2") == first)
        let last = try quire(["test", "--plain", "--shard", "1/2", "pass"]).lastLine
        #expect(last == "3 passed, 0 failed")
    }
}
