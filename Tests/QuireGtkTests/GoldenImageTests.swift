import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// Golden images of the demo walkthrough, drawn in-process with the cairo renderer (byte-stable
/// on the same machine, fonts and theme): each page, the open duration picker and the open choice
/// list, 520×680, in English. A change to how Quire looks fails here until the images are updated
/// on purpose: `scripts/update-golden-images` (or `QUIRE_UPDATE_GOLDEN=1` with the GTK tests).
/// A mismatch leaves the image drawn now beside the test's temporary folder to compare.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct GoldenImageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The demo walkthrough (the demo flow's five pages) in a window, with nothing that changes
    /// with time (no cursor blink, no CSS animations), settled.
    func open() throws -> (WalkthroughView, TestWindow) {
        quire_settings_set_bool("gtk-cursor-blink", 0)
        quire_settings_set_bool("gtk-enable-animations", 0)
        let flow = try GtkTest.flow("focus-onboarding.json")
        let view = WalkthroughView(host: SessionHost(Session(flow: flow, locale: "en")))
        return (view, TestWindow(view.root, width: 520, height: 680))
    }

    func settle(_ view: WalkthroughView, _ window: TestWindow) {
        view.host.send(.settle)
        window.wait { !view.isClockRunning }
        Toolkit.run(milliseconds: 300)
    }

    /// The image once two draws 100 ms apart agree (a late focus or style change has landed).
    func stableImage(_ view: WalkthroughView) -> [UInt8]? {
        var last = Screenshot.png(of: view.root)
        for _ in 0..<30 {
            Toolkit.run(milliseconds: 100)
            let next = Screenshot.png(of: view.root)
            if next == last { return next }
            last = next
        }
        return nil
    }

    func check(_ view: WalkthroughView, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let toplevel = try #require(gtk_widget_get_root(view.root.widget), sourceLocation: sourceLocation)
        #expect(gtk_window_is_active(quire_window(UnsafeMutableRawPointer(toplevel))) != 0, sourceLocation: sourceLocation)
        let png = try #require(stableImage(view), "the image never settled", sourceLocation: sourceLocation)
        let file = Self.folder.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["QUIRE_UPDATE_GOLDEN"] == "1" {
            try Data(png).write(to: file)
        }
        guard let expected = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no golden image \(file.path): run scripts/update-golden-images", sourceLocation: sourceLocation)
            return
        }
        if Array(expected) != png {
            let actual = FileManager.default.temporaryDirectory.appendingPathComponent("quire-golden-\(name).png")
            try Data(png).write(to: actual)
            Issue.record("\(name).png differs from the golden image; drawn now: \(actual.path)", sourceLocation: sourceLocation)
        }
    }

    @Test func theDemoWalkthroughLooksAsItDid() throws {
        let (view, window) = try open()
        defer { window.close() }
        settle(view, window)
        try check(view, "page-1-intro")
        view.host.send(.tap(.button(.next)))
        settle(view, window)
        try check(view, "page-2-profile")
        view.host.send(.tap(.field("feedLanguage")))
        settle(view, window)
        try check(view, "choice-list")
        view.host.send(.tap(.accessory(.done)))
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("Aki"))
        view.host.send(.tap(.background))
        view.host.send(.tap(.button(.next)))
        settle(view, window)
        try check(view, "page-3-focus-setup")
        view.host.send(.tap(.field("focusTime")))
        view.host.send(.spin(component: .minutes, by: 1))
        settle(view, window)
        try check(view, "duration-picker")
        view.host.send(.tap(.accessory(.done)))
        view.host.send(.tap(.button(.next)))
        settle(view, window)
        try check(view, "page-4-reminder-time")
        view.host.send(.tap(.button(.next)))
        settle(view, window)
        try check(view, "page-5-finish")
    }

    @Test func twoWindowsInTheSameStateGiveTheSameBytes() throws {
        var images: [[UInt8]] = []
        for _ in 0..<2 {
            let (view, window) = try open()
            view.host.send(.tap(.button(.next)))
            settle(view, window)
            images.append(try #require(stableImage(view)))
            window.close()
        }
        #expect(images[0] == images[1])
        #expect(images[0].starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
