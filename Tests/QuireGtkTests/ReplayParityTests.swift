import CGtk
import CGtkShim
import Foundation
import QuireCore
import QuireHarness
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// Every script in data/sessions, replayed through the real widgets (`ReplayDriver`), ends
/// exactly as the headless harness says: the same verdict, the same final state.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct ReplayParityTests {
    static func scripts() -> [String] {
        let root = GtkTest.packageRoot.appendingPathComponent("data/sessions")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".json") } ?? []
        return files.sorted()
    }

    @Test func everyScriptEndsAsTheHeadlessHarnessSays() throws {
        let flows = FlowCache()
        let window = ObjectRef(UnsafeMutableRawPointer(gtk_window_new()!), .sink)
        gtk_window_set_default_size(quire_window(window.pointer), 800, 600)
        gtk_window_present(quire_window(window.pointer))
        defer { gtk_window_destroy(quire_window(window.pointer)) }
        var total = ReplayDriver.Counts()
        var replayed = 0
        for path in Self.scripts() {
            guard case .script(let script) = ScriptLoader.load(path, flows: flows) else { continue }
            let headless = DirectDriver(Session(flow: script.flow, locale: script.locale, viewportWidth: script.viewportWidth))
            let expected = Runner.run(script, driver: headless)
            let driver = ReplayDriver(
                session: Session(flow: script.flow, locale: script.locale, viewportWidth: script.viewportWidth), window: window.pointer)
            if replayed == 0 {
                quire_focus_toplevel(window.pointer)
                Toolkit.run(milliseconds: 2000) { gtk_window_is_active(quire_window(window.pointer)) != 0 }
            }
            let replay = Runner.run(script, driver: driver)
            replayed += 1
            let name = String(path.dropFirst(GtkTest.packageRoot.path.count + 1))
            #expect(verdict(replay) == verdict(expected), "\(name): \(failureText(replay))")
            #expect(driver.session.state == headless.session.state, "\(name): the replay ends in another state")
            total.throughWidgets += driver.counts.throughWidgets
            total.direct += driver.counts.direct
            total.clock += driver.counts.clock
        }
        #expect(replayed > 150)
        // Most input reaches the session through the widgets.
        #expect(total.throughWidgets > 4 * total.direct, "\(total)")
        print("replayed \(replayed) scripts: \(total.throughWidgets) events through widgets, \(total.direct) direct, \(total.clock) clock")
    }

    private func verdict(_ result: ScriptResult) -> String {
        switch result.status {
        case .passed: return "passed"
        case .failed(let failure): return "failed at step \(failure.step)"
        default: return "\(result.status)"
        }
    }

    private func failureText(_ result: ScriptResult) -> String {
        if case .failed(let failure) = result.status { return failure.summary + " " + failure.lines.joined(separator: " | ") }
        return ""
    }
}
