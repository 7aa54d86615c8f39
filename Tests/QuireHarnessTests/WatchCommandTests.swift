import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// `quire test --watch PATH…` (issue 38 item 2): after the first run, each script whose file,
/// flow or layout changed is run again, and only those.
@Suite struct WatchCommandTests {
    /// Standard output collected while the process runs.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
        var value: String { lock.withLock { text } }

        /// Waits until the text holds `needle` `count` times (at most 20 s).
        func wait(for needle: String, count: Int = 1) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while value.components(separatedBy: needle).count - 1 < count && Date() < deadline { usleep(5_000) }
            return value.components(separatedBy: needle).count - 1 >= count
        }
    }

    static let waiting = "watch: waiting for a script, flow or layout to change (Ctrl+C stops)\n"

    @Test func aChangedFlowRunsItsScriptsAgainAndAChangedScriptItself() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("quire-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let flow = #"{"format": "quire.flow/1", "id": "w", "pages": [{"id": "a"}, {"id": "b"}]}"#
        func write(_ text: String, _ name: String) throws {
            try text.write(to: work.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        func script(_ flow: String, count: Int) -> String {
            #"{"format": "quire.session/1", "flow": "\#(flow)", "steps": [{"expect": {"page": {"count": \#(count)}}}]}"#
        }
        try write(flow, "one.json")
        try write(flow, "two.json")
        try write(script("one.json", count: 2), "a.json")
        try write(script("two.json", count: 2), "b.json")

        let process = Process()
        process.executableURL = CommandTests.binary
        process.arguments = ["test", "--plain", "--watch", "--watch-rounds", "2", "."]
        process.currentDirectoryURL = work
        let pipe = Pipe()
        let output = Output()
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in output.append(handle.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        #expect(output.wait(for: Self.waiting), "\(output.value)")
        #expect(output.value.contains("2 passed, 0 failed\n"))

        // A third page in one flow: its script (only) runs again, and now fails.
        try write(#"{"format": "quire.flow/1", "id": "w", "pages": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}"#, "one.json")
        #expect(output.wait(for: Self.waiting, count: 2), "\(output.value)")
        let first = output.value.components(separatedBy: Self.waiting)[1]
        #expect(first.hasPrefix("watch: one.json changed; running 1 script again\nFAIL  ./a.json"), "\(first)")
        #expect(first.hasSuffix("0 passed, 1 failed\n"), "\(first)")
        #expect(!first.contains("b.json"))

        // The other script, saved by rename with a wrong count: it alone runs again.
        try write(script("two.json", count: 3), "b.json.tmp")
        _ = rename(work.appendingPathComponent("b.json.tmp").path, work.appendingPathComponent("b.json").path)
        #expect(output.wait(for: Self.waiting, count: 3), "\(output.value)")
        let second = output.value.components(separatedBy: Self.waiting)[2]
        #expect(second.hasPrefix("watch: b.json changed; running 1 script again\nFAIL  ./b.json"), "\(second)")
        #expect(!second.contains("a.json"))
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
    }
}
