import CGtk
import CGtkShim
import CQuire
import Foundation
import QuireCore
import Testing

@testable import QuireEmbed
@testable import QuireEmbedGtk
@testable import QuireGtk
@testable import GtkBindings

/// `quire_engine_gtk_view_new`: the walkthrough view over an engine a C app owns. These need a
/// display (`scripts/test` runs them under Xvfb with G_DEBUG=fatal-warnings).
@MainActor
enum Display {
    static let available: Bool = Toolkit.initialize()
    nonisolated static let enabled = ConditionTrait.enabled("needs a display (run under Xvfb)") { await MainActor.run { available } }
    nonisolated static let demoFlow = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/flows/focus-onboarding.json").path
}

/// An engine over the demo flow and a view of it, sunk (as a container would).
@MainActor
final class Fixture {
    let handle: EngineHandle
    let widget: UnsafeMutableRawPointer
    var view: EmbeddedView { EmbeddedView.of(widget)! }
    var engine: Engine { Engine.from(handle)! }

    init() throws {
        handle = try #require(Display.demoFlow.withCString { quireEngineNewFromFile($0, nil) })
        // EmbeddedView.make is quire_engine_gtk_view_new behind its thread check: Swift Testing's
        // main actor does not run on the process's first thread (the C example tests that path).
        widget = try #require(EmbeddedView.make(handle))
        #expect(quire_is_floating(widget) != 0, "returned with a floating reference")
        g_object_ref_sink(widget)
    }

    func send(_ event: String) {
        #expect(event.withCString { quireEngineSend(handle, $0, nil) })
    }

    var sensitive: Bool { gtk_widget_get_sensitive(quire_widget(widget)) != 0 }
}

/// Records what an observer set through the C API receives.
final class Notes {
    var lines: [String] = []
}

let notesObserver: QuireEngineObserver = { _, text, data in
    Unmanaged<Notes>.fromOpaque(data!).takeUnretainedValue().lines.append(String(cString: text!))
}
let notesRelease: QuireDestroyNotify = { data in Unmanaged<Notes>.fromOpaque(data!).release() }

@MainActor
@Suite(.serialized, Display.enabled)
struct EmbeddedGtkView {
    @Test func aNullOrFreedEngineGivesNoWidget() throws {
        #expect(quireEngineGtkViewNew(nil) == nil)
        // Off the process's first thread (here) the call is refused, never trapped.
        let handle = try #require(Display.demoFlow.withCString { quireEngineNewFromFile($0, nil) })
        defer { quireEngineFree(handle) }
        #expect(quire_is_main_thread() == 0)
        #expect(quireEngineGtkViewNew(handle) == nil)
    }

    @Test func eventsSentThroughTheCAPIUpdateTheView() throws {
        let fixture = try Fixture()
        defer {
            g_object_unref(fixture.widget)
            quireEngineFree(fixture.handle)
        }
        Toolkit.iterate()
        #expect(!fixture.view.walkthrough.chrome.backEnabled)
        #expect(fixture.view.walkthrough.builtPages == [0, 1])
        fixture.send(#"{"tap": "button:next"}"#)
        fixture.send(#"{"settle": true}"#)
        Toolkit.iterate()
        // The views rendered the events the app sent: Back is enabled on the second page, and
        // the third page was built as its neighbour.
        #expect(fixture.view.walkthrough.chrome.backEnabled)
        #expect(fixture.view.walkthrough.builtPages == [0, 1, 2])
    }

    @Test func eventsTheViewSendsReachTheAppsObserver() throws {
        let fixture = try Fixture()
        defer {
            g_object_unref(fixture.widget)
            quireEngineFree(fixture.handle)
        }
        let notes = Notes()
        #expect(quireEngineSetObserver(fixture.handle, notesObserver, Unmanaged.passRetained(notes).toOpaque(), notesRelease))
        #expect(fixture.view.walkthrough.press("Right"))
        fixture.view.host.send(.settle)
        #expect(notes.lines == [#"{"pageWillChange":{"from":0,"to":1}}"#, #"{"pageDidChange":{"from":0,"to":1,"completed":true}}"#])
        #expect(quireEngineGetPageIndex(fixture.handle) == 1)
    }

    @Test func aCompletedSessionLeavesTheViewShowingItAndTakingNoInput() throws {
        let fixture = try Fixture()
        defer {
            g_object_unref(fixture.widget)
            quireEngineFree(fixture.handle)
        }
        #expect(fixture.sensitive)
        fixture.send(#"{"tap": "button:cancel"}"#)
        Toolkit.iterate()
        #expect(quireEngineIsCompleted(fixture.handle))
        #expect(!fixture.sensitive)
        #expect(gtk_widget_has_css_class(quire_widget(fixture.widget), "completed") != 0)
        #expect(fixture.view.walkthrough.builtPages == [0, 1], "the last page stays")
    }

    @Test func destroyingTheWidgetFinalizesItAndStopsListening() throws {
        let fixture = try Fixture()
        defer { quireEngineFree(fixture.handle) }
        let widgetWatch = FinalizationWatch(fixture.widget)
        let rootWatch = FinalizationWatch(fixture.view.walkthrough.root.pointer)
        weak let host = fixture.view.host
        #expect(fixture.engine.listenerCount == 1)
        g_object_unref(fixture.widget)
        Toolkit.iterate()
        #expect(widgetWatch.finalized)
        #expect(rootWatch.finalized)
        #expect(host == nil)
        #expect(fixture.engine.listenerCount == 0)
        // The engine works on without it.
        fixture.send(#"{"tap": "button:next"}"#)
        #expect(quireEngineGetPageCount(fixture.handle) == 5)
    }

    @Test func inAWindowTheWindowsDestructionReleasesEverything() throws {
        let fixture = try Fixture()
        defer { quireEngineFree(fixture.handle) }
        let window = gtk_window_new()!
        gtk_window_set_child(quire_window(UnsafeMutableRawPointer(window)), quire_widget(fixture.widget))
        g_object_unref(fixture.widget)  // the window holds it now
        let watch = FinalizationWatch(fixture.widget)
        gtk_window_present(quire_window(UnsafeMutableRawPointer(window)))
        Toolkit.run(milliseconds: 2000) { gtk_widget_get_mapped(quire_widget(fixture.widget)) != 0 }
        fixture.send(#"{"swipe": "next"}"#)
        Toolkit.run(milliseconds: 200)
        gtk_window_destroy(quire_window(UnsafeMutableRawPointer(window)))
        Toolkit.iterate()
        #expect(watch.finalized)
        #expect(fixture.engine.listenerCount == 0)
    }

    @Test func freeingTheEngineFirstLeavesTheLastStateInsensitive() throws {
        let fixture = try Fixture()
        defer { g_object_unref(fixture.widget) }
        fixture.send(#"{"swipe": "next"}"#)
        fixture.send(#"{"settle": true}"#)
        quireEngineFree(fixture.handle)
        #expect(!fixture.sensitive)
        #expect(fixture.view.host.session.currentIndex == 1)
        #expect(fixture.view.host.send(.tap(.button(.back))).isEmpty)
        #expect(fixture.view.host.session.currentIndex == 1)
    }
}
