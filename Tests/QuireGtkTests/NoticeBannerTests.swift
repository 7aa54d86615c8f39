import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// The refusal notice's banner and Cancel in the header bar (issue 20, items 2 and 6), in a real
/// window on the test display, driven through GTK's own signals.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct NoticeBannerTests {
    func open() throws -> (WalkthroughView, TestWindow) {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"))))
        return (view, TestWindow(view.root))
    }

    @Test func aRefusedSkipShowsTheNoticeAndItsButtonGoesThere() throws {
        let (view, window) = try open()
        defer { window.close() }
        #expect(!view.banner.revealer.revealed)
        #expect(!view.banner.revealer.isVisible)
        quire_signal_emit(try #require(view.chrome.button(.skip)).pointer, "clicked")
        #expect(view.host.session.currentIndex == 0)
        #expect(view.banner.revealer.revealed)
        #expect(view.banner.label.text == "Name is required — on page 2, About you")
        #expect(view.banner.button.label == "Go to page 2")
        #expect(gtk_accessible_get_accessible_role(OpaquePointer(view.banner.box.pointer)) == GTK_ACCESSIBLE_ROLE_ALERT)
        // An ignored event (Back on the first page) keeps it.
        view.host.send(.tap(.button(.back)))
        #expect(view.banner.revealer.revealed)
        // Its button makes the core's move there; the move clears it.
        quire_signal_emit(view.banner.button.pointer, "clicked")
        #expect(!view.banner.revealer.revealed)
        view.host.send(.settle)
        #expect(view.host.session.currentIndex == 1)
        window.wait { !view.banner.revealer.isVisible }
        #expect(!view.banner.revealer.isVisible)
        // A refused Next on the page of the error: the error is in sight, no notice.
        quire_signal_emit(try #require(view.chrome.button(.next)).pointer, "clicked")
        #expect(view.host.session.shownErrors.map(\.field) == ["userName"])
        #expect(!view.banner.revealer.revealed)
    }

    /// The notice's button is reached with Tab: after Cancel, before the page (the core's
    /// `keyboardStops(noticeShown:)`); gone with the notice.
    @Test func tabReachesTheNoticesButtonAfterCancel() throws {
        let (view, window) = try open()
        defer { window.close() }
        window.wait(until: { view.focusedStop == .next })
        quire_signal_emit(try #require(view.chrome.button(.skip)).pointer, "clicked")
        #expect(view.banner.revealer.revealed)
        window.wait(until: { view.banner.revealer.childRevealed })
        #expect(view.land(.stop(.cancel)))
        #expect(view.focusedStop == .cancel)
        #expect(view.press("Tab"))
        #expect(view.focusedStop == .notice)
        #expect(view.focusWidget == view.banner.button.widget)
        // The welcome page has no fields: Tab goes on to the controls; shift+Tab comes back.
        #expect(view.press("Tab"))
        #expect(view.focusedStop == view.host.session.keyboardStops[1])
        #expect(view.press("ISO_Left_Tab", GDK_SHIFT_MASK))
        #expect(view.focusedStop == .notice)
        // Return on it goes there, as its click does, and the notice (and its stop) goes.
        quire_signal_emit(view.banner.button.pointer, "clicked")
        view.host.send(.settle)
        #expect(view.host.session.currentIndex == 1)
        #expect(view.banner.notice == nil)
        #expect(view.focusedStop != .notice)
    }

    @Test func cancelSitsInTheHeaderBarFirstInTabOrderAndComesBackWhenTheViewLeaves() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"))))
        let window = ObjectRef(UnsafeMutableRawPointer(gtk_window_new()!), .sink)
        defer {
            gtk_window_destroy(quire_window(window.pointer))
            Toolkit.iterate()
        }
        let header = Widget(new: gtk_header_bar_new())
        gtk_window_set_titlebar(quire_window(window.pointer), header.widget)
        gtk_window_set_default_size(quire_window(window.pointer), 520, 680)
        gtk_window_set_child(quire_window(window.pointer), view.root.widget)
        view.placeCancel(inHeaderBar: header)
        gtk_window_present(quire_window(window.pointer))
        quire_focus_toplevel(window.pointer)
        Toolkit.run(milliseconds: 3000) { gtk_widget_get_mapped(view.root.widget) != 0 && view.focusedStop == .next }
        let cancel = view.chrome.cancelButton
        #expect(gtk_widget_is_ancestor(cancel.widget, header.widget) != 0)
        #expect(!view.chrome.top.isVisible)
        // Focus starts on Next; Tab goes round to Cancel, in the header bar.
        #expect(view.focusedStop == .next)
        #expect(view.press("Tab"))
        #expect(view.focusedStop == .cancel)
        #expect(view.focusWidget == cancel.widget)
        // shift+Tab goes back to Next, Tab on from Cancel to the page's first stop after it.
        #expect(view.press("ISO_Left_Tab", GDK_SHIFT_MASK))
        #expect(view.focusedStop == .next)
        #expect(view.press("Tab"))
        #expect(view.press("Tab"))
        #expect(view.focusedStop == view.host.session.keyboardStops[1])
        // The view leaves the window: Cancel comes back to its own row.
        let other = Label("other")
        gtk_window_set_child(quire_window(window.pointer), other.widget)
        Toolkit.iterate()
        #expect(gtk_widget_get_parent(cancel.widget) == view.chrome.top.widget)
        #expect(view.chrome.top.isVisible)
    }
}

extension EndToEndTests {
    /// What a screen reader meets (over AT-SPI, `quire run` driven with real keys): a refused
    /// Skip on the welcome page is an alert named by the notice's sentence, with its button; the
    /// button (its accessible action) goes to page 2 and the alert leaves the tree.
    @Test func aRefusalOutOfSightIsAnAlertAScreenReaderReads() throws {
        let sentence = "Name is required — on page 2, About you"
        let dumps = try walk([
            "sleep 1", "dump", "key alt+s", "wait alert:\(sentence)", "dump", "press push button:Go to page 2",
            "wait slider:Page 2 of 5", "sleep 1", "dump",
        ])
        try #require(dumps.count == 3)
        #expect(!dumps[0].contains { $0.hasPrefix("alert\t") })
        #expect(dumps[1].contains { $0.hasPrefix("alert\t\(sentence)\t") })
        #expect(dumps[1].contains { $0.hasPrefix("push button\tGo to page 2\t") })
        #expect(!dumps[2].contains { $0.hasPrefix("alert\t") })
        #expect(!dumps[2].contains { $0.contains(sentence) })
    }

    /// The same with the keyboard alone (real keys): from Next, Tab reaches the header bar's
    /// primary menu (the window's own control, where the page's stops wrap), then Cancel, then
    /// the notice's button; Return on it goes to page 2.
    @Test func aKeyboardUserReachesTheNoticesButton() throws {
        let sentence = "Name is required — on page 2, About you"
        let dumps = try walk([
            "sleep 1", "key alt+s", "wait alert:\(sentence)", "sleep 0.5", "key Tab", "wait push button:Main Menu[focused]", "key Tab",
            "wait push button:Cancel[focused]", "key Tab", "wait push button:Go to page 2[focused]", "key Return",
            "wait slider:Page 2 of 5", "sleep 1", "dump",
        ])
        try #require(dumps.count == 1)
        #expect(!dumps[0].contains { $0.hasPrefix("alert\t") })
    }
}
