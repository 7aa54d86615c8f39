import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// GTK tests need a display: `scripts/test` runs them under Xvfb and a private session bus with
/// `G_DEBUG=fatal-warnings` (any GTK warning aborts). Without a display they are skipped.
@MainActor
enum GtkTest {
    /// GTK, and libadwaita as the app has it (`adw_init`: its types and stylesheet), so the
    /// views are drawn as the app draws them whichever test runs first.
    static let available: Bool = {
        guard Toolkit.initialize() else { return false }
        Adwaita.initialize()
        return true
    }()

    /// A trait for suites that need GTK.
    nonisolated static let enabled = ConditionTrait.enabled("needs a display (run under Xvfb)") { await MainActor.run { available } }

    /// The folder holding Package.swift.
    nonisolated static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func flow(_ name: String) throws -> Flow {
        try Flow.load(contentsOf: packageRoot.appendingPathComponent("data/flows/\(name)").path)
    }

    static func flow(json: String) throws -> Flow {
        try Flow.load(json: json)
    }

    /// A flow of `count` pages without fields.
    static func pages(_ count: Int, wrap: Bool = false) throws -> Flow {
        let pages = (0..<count).map { #"{"id": "p\#($0)", "title": "Page \#($0)"}"# }.joined(separator: ", ")
        return try Flow.load(json: #"{"format": "quire.flow/1", "id": "t", "paging": {"wrap": \#(wrap)}, "pages": [\#(pages)]}"#)
    }
}

/// A toplevel window holding a widget, laid out and mapped on the test display.
@MainActor
final class TestWindow {
    let window: ObjectRef

    init(_ child: Widget, width: Int32 = 520, height: Int32 = 680) {
        window = ObjectRef(UnsafeMutableRawPointer(gtk_window_new()!), .sink)
        gtk_window_set_default_size(quire_window(window.pointer), width, height)
        gtk_window_set_child(quire_window(window.pointer), child.widget)
        gtk_window_present(quire_window(window.pointer))
        Toolkit.run(milliseconds: 3000) {
            gtk_widget_get_mapped(child.widget) != 0 && gtk_widget_get_width(child.widget) > 0
        }
        // The active window, always (no window manager decides it under Xvfb, and an inactive
        // one is drawn in its backdrop style).
        quire_focus_toplevel(window.pointer)
        Toolkit.run(milliseconds: 2000) { gtk_window_is_active(quire_window(window.pointer)) != 0 }
        Toolkit.iterate()
    }

    func close() {
        gtk_window_destroy(quire_window(window.pointer))
        Toolkit.iterate()
    }

    /// Runs the loop until `done` holds (or 3 s pass): frames, ticks, transitions.
    func wait(until done: () -> Bool) {
        Toolkit.run(milliseconds: 3000, until: done)
    }
}
