import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import GtkBindings

/// A page applied by the host (issue 37, item 3), in a real window: while applying the pages
/// are insensitive and a spinner with the label shows; Cancel stops the apply; a failed apply's
/// host error shows on its field and its page message in the notice.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct ApplyingViewTests {
    func open() throws -> (WalkthroughView, TestWindow) {
        var session = Session(flow: try GtkTest.flow("account-apply.json"))
        for event: Event in [.tap(.button(.next)), .tap(.field("userName")), .type("admin")] { session.send(event) }
        let view = WalkthroughView(host: SessionHost(session))
        return (view, TestWindow(view.root))
    }

    @Test func applyingShowsTheLabelAndLocksThePagesUntilTheHostAnswers() throws {
        let (view, window) = try open()
        defer { window.close() }
        #expect(view.applying.shown == nil)
        #expect(view.pager.root.isSensitive)
        quire_signal_emit(try #require(view.chrome.button(.next)).pointer, "clicked")
        #expect(view.host.session.isApplying)
        #expect(view.applying.shown == "Creating your account…")
        #expect(view.applying.revealer.revealed)
        #expect(!view.pager.root.isSensitive)
        #expect(try #require(view.chrome.button(.next)).isSensitive == false)
        // Cancel stops the apply, not the walkthrough.
        quire_signal_emit(try #require(view.chrome.button(.cancel)).pointer, "clicked")
        #expect(!view.host.session.isApplying)
        #expect(view.host.session.completed == nil)
        #expect(view.applying.shown == nil)
        #expect(view.pager.root.isSensitive)
        // Again; this time the host refuses the name and gives a page message.
        quire_signal_emit(try #require(view.chrome.button(.next)).pointer, "clicked")
        view.host.send(
            .applyFailed(
                ApplyFailure(
                    page: "account",
                    errors: [.init(field: "userName", code: ValidationCode(host: "taken"), message: LocalizedText("That name is taken"))],
                    message: LocalizedText("Try another name."))))
        #expect(view.applying.shown == nil)
        #expect(view.host.session.presentField(0).error == "That name is taken")
        #expect(view.banner.revealer.revealed)
        #expect(view.banner.label.text == "Try another name.")
        #expect(!view.banner.button.isVisible)
        // Applied: the move happens.
        quire_signal_emit(try #require(view.chrome.button(.next)).pointer, "clicked")
        #expect(view.host.session.isApplying == false)
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("2"))
        quire_signal_emit(try #require(view.chrome.button(.next)).pointer, "clicked")
        #expect(view.host.session.isApplying)
        view.host.send(.applied(page: "account"))
        view.host.send(.settle)
        #expect(view.host.session.currentIndex == 2)
        #expect(view.applying.shown == nil)
        #expect(!view.banner.revealer.revealed)
    }
}
