import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// The pictures of `quire run --replay --trace` (`TraceCamera`).
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct TraceCameraTests {
    /// `Screenshot.png` draws the render node GTK kept from the widget's last painted frame; it
    /// runs no frame itself (it neither lays out nor draws). A change that shows on screen — a
    /// redraw or a relayout of any widget inside — drops that node up to the window, so until a
    /// frame has painted the change the picture is nil, never the frame before; `shoot` then runs
    /// the loop until a frame has painted it. A change made just before `shoot`, with no loop
    /// iteration in between, is therefore in the picture — which is why the camera needs no wait
    /// of its own for a frame (the wait it had was removed: this test passes without it, and fails
    /// if `shoot` takes a picture without letting a frame paint).
    @Test(arguments: ["redraw", "relayout"])
    func aStepsPictureShowsThatStepNotTheFrameBefore(_ change: String) throws {
        try withCamera { driver, camera, folder in
            Toolkit.run(milliseconds: 300)
            let before = try #require(Screenshot.png(of: driver.root))

            // A visible change, and no frame since.
            let label = Label("A new line")
            if change == "redraw" {
                gtk_widget_set_opacity(driver.root.widget, 0.25)
            } else {
                label.valign = GTK_ALIGN_CENTER
                gtk_overlay_add_overlay(quire_overlay(driver.root.widget), label.widget)
            }
            #expect(Screenshot.png(of: driver.root) == nil, "the frame before is dropped, not pictured")
            let name = try #require(camera.shoot(1))
            let pictured = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(pictured != before)
            // The picture is the window as it is drawn with the change.
            Toolkit.run(milliseconds: 300)
            #expect(pictured == Screenshot.png(of: driver.root))
        }
    }

    /// A step's picture is where the step leaves the window, not one of GTK's own transitions on
    /// its way: refused on an empty required name, the page shows "Required" at once, not its
    /// revealer starting to slide (the camera turns GTK's animations off; with them on, the
    /// picture differs from the window a moment later).
    @Test func aStepsPictureIsWhereTheStepLeavesTheWindow() throws {
        quire_settings_set_bool("gtk-enable-animations", 1)  // as on a user's desktop
        try withCamera { driver, camera, folder in
            var buffer: [SessionNotification] = []
            driver.send(.swipePage(forward: true), into: &buffer)
            driver.send(.settle, into: &buffer)
            Toolkit.run(milliseconds: 300)
            driver.send(.tap(.button(.next)), into: &buffer)
            #expect(buffer.contains { $0.kind == .refused }, "\(buffer)")
            let name = try #require(camera.shoot(1))
            let pictured = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            Toolkit.run(milliseconds: 400)
            #expect(pictured == Screenshot.png(of: driver.root), "the picture is of a transition on its way")
        }
    }

    /// A window with the walkthrough of `focus-onboarding.json`, its driver and a camera writing
    /// into a folder of its own, for `body`; all gone afterwards.
    private func withCamera(_ body: (ReplayDriver, TraceCamera, URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let window = ObjectRef(UnsafeMutableRawPointer(gtk_window_new()!), .sink)
        gtk_window_set_default_size(quire_window(window.pointer), 520, 680)
        gtk_window_present(quire_window(window.pointer))
        defer { gtk_window_destroy(quire_window(window.pointer)) }
        let driver = ReplayDriver(session: Session(flow: try GtkTest.flow("focus-onboarding.json"), locale: "en"), window: window.pointer)
        try body(driver, TraceCamera(driver: driver, directory: folder.path, base: "camera"), folder)
    }
}
