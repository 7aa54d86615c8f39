import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import GtkBindings
@testable import QuireGtk

/// The GTK front speaks what the core says must be announced (CONTRACT §6.4), after every event
/// whoever sent it, in the session's language; what Orca makes of it is the real-input `orca/*`
/// cases' to check.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct AnnouncementTests {
    func open(locale: String = "en") throws -> (WalkthroughView, TestWindow, () -> [Announcement]) {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"), locale: locale)))
        var said: [Announcement] = []
        view.onAnnounce = { said += $0 }
        return (
            view, TestWindow(view.root),
            {
                defer { said = [] }; return said
            }
        )
    }

    @Test func aWalkIsAnnouncedAsTheCoreDecides() throws {
        let (view, window, said) = try open()
        defer { window.close() }
        view.host.send(.tap(.button(.skip)))
        #expect(said() == [Announcement("Name is required — on page 2, About you", .assertive)])
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        // The page's body comes with its arrival, for a reader to say after it (`spoken`).
        let arrival = said()
        #expect(arrival.map(\.text) == ["About you, page 2 of 5"])
        #expect(arrival.first?.spoken == "About you, page 2 of 5. Tell us what to call you.")
        view.host.send(.tap(.button(.next)))
        #expect(said() == [Announcement("Name: Required", .assertive)])
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("Aki"))
        #expect(said() == [])
        view.host.send(.tap(.button(.cancel)))
        #expect(said() == [Announcement("Cancelled", .polite)])
    }

    @Test func anErrorRevealedWhereFocusNoLongerIsIsAnnouncedInJapanese() throws {
        let (view, window, said) = try open(locale: "ja")
        defer { window.close() }
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        #expect(said().map(\.spoken) == ["あなたについて、5ページ中2ページ目。お名前を教えてください。"])
        view.host.send(.tap(.field("userName")))
        view.host.send(.key(.tab))
        #expect(said() == [Announcement("名前: 入力してください", .polite)])
    }
}
