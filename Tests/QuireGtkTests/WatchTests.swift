import Foundation
import QuireCore
import Testing

@testable import QuireApp

/// `quire run --watch FLOW` with real files under Xvfb (issue 38 item 2): a save that loads is
/// shown at the author's place, a broken save leaves the window running with the problem's
/// position shown, and a save that removes what an event used stops the replay there.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct WatchTests {
    @Test func aSavedTitleIsFollowedABrokenSaveKeepsTheWindowAndAGoneFieldStopsTheReplay() throws {
        let home = XDGHome.make()
        defer { try? FileManager.default.removeItem(at: home) }
        let flow = home.appendingPathComponent("flow.json")
        let demo = try String(contentsOf: GtkTest.packageRoot.appendingPathComponent("data/flows/focus-onboarding.json"), encoding: .utf8)
        try demo.write(to: flow, atomically: false, encoding: .utf8)
        let events = home.appendingPathComponent("events.json")
        try #"[{"tap": "button:next"}, {"tap": "userName"}, {"type": "Aki"}]"#.write(to: events, atomically: false, encoding: .utf8)
        let app = try AppProcess(["run", "--locale", "en", "--watch", flow.path, "--drive", events.path], home: home)
        defer { app.kill() }
        #expect(app.wait(for: "drive done\n"), "\(app.stdout) \(app.stderr)")

        // A title change on the page the author is on, written in place: on screen, there.
        let edited = demo.replacingOccurrences(of: #""en": "About you""#, with: #""en": "About you, edited""#)
        #expect(edited != demo)
        try edited.write(to: flow, atomically: false, encoding: .utf8)
        #expect(app.wait(for: "title About you, edited — page 2 of 5\n"), "\(app.stdout) \(app.stderr)")
        let shown = try #require(app.lines("watch: on screen ").last)
        // Every event since launch replayed (the three driven and the frame ticks of the move).
        let counts = try #require(shown.split(separator: "replayed ").last?.split(separator: " events").first)
        let parts = counts.split(separator: " of ")
        #expect(parts.count == 2 && parts[0] == parts[1] && Int(parts[0]) ?? 0 >= 3, "\(shown)")

        // A broken save (a comma dropped): the window keeps running, the notice names the place.
        let broken = edited.replacingOccurrences(of: #""id": "profile","#, with: #""id": "profile""#)
        #expect(broken != edited)
        try broken.write(to: flow, atomically: false, encoding: .utf8)
        #expect(app.wait(for: "watch: notice "), "\(app.stdout) \(app.stderr)")
        let line = Self.line(of: #""id": "profile""#, in: broken)
        let notice = try #require(app.lines("watch: notice ").last)
        // The parser stops at the key after the missing comma, on the next line.
        #expect(notice.contains("\(flow.path):\(line + 2):7: $.pages[1]: unexpected"), "\(notice)")
        #expect(app.isRunning)

        // Saved with the field renamed, through a rename as editors save: the replay stops at the
        // tap on the field that is gone, and the notice says so.
        let renamed = edited.replacingOccurrences(of: #""id": "userName""#, with: #""id": "who""#)
        let temporary = home.appendingPathComponent("flow.json.tmp")
        try renamed.write(to: temporary, atomically: false, encoding: .utf8)
        _ = rename(temporary.path, flow.path)
        #expect(app.wait(for: #"{"tap":"userName"}: ignored now (unknownField)"#), "\(app.stdout) \(app.stderr)")
        let stopped = try #require(app.lines("watch: notice ").last)
        #expect(stopped.contains(#"{"tap":"userName"}: ignored now (unknownField)"#), "\(stopped)")
        // The events from it on (the tap, the typing) are not replayed: the field is gone. (Frame
        // ticks heard after the typing, if any, make the total larger; the count stays below it.)
        #expect(app.wait(for: "watch: reloaded, "), "\(app.stdout)")
        let reloaded = try #require(app.lines("watch: reloaded, ").last)
        let replayed = reloaded.split(separator: "replayed ").last?.split(separator: " events").first?.split(separator: " of ")
        let done = replayed.flatMap { $0.count == 2 ? (Int($0[0]), Int($0[1])) : nil }
        #expect(done.map { ($0.0 ?? 0) >= 1 && ($0.0 ?? 0) <= ($0.1 ?? 0) - 2 } == true, "\(reloaded)")
        #expect(app.wait(for: "title About you, edited — page 2 of 5\n"))
        #expect(app.isRunning)
    }

    /// The 0-based line of the first occurrence of `text`.
    static func line(of text: String, in document: String) -> Int {
        let before = document.range(of: text).map { document[..<$0.lowerBound] } ?? ""
        return before.filter { $0 == "\n" }.count
    }
}
