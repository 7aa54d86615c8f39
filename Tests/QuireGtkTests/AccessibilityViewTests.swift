import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// What the views tell assistive technology and how they follow the desktop's animations
/// setting, in a real window (the AT-SPI side is Tests/RealInput's a11y/* cases).
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct AccessibilityViewTests {
    func open(_ flow: Flow) -> (WalkthroughView, TestWindow) {
        quire_settings_set_bool("gtk-enable-animations", 1)
        let view = WalkthroughView(host: SessionHost(Session(flow: flow)))
        return (view, TestWindow(view.root))
    }

    @Test func onlyTheCurrentPageIsInTheAccessibilityTree() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        Toolkit.iterate()
        #expect(view.builtPages == [0, 1, 2])
        #expect(view.pager.isAccessibleHidden(1) == false)
        #expect(view.pager.isAccessibleHidden(0) == true)
        #expect(view.pager.isAccessibleHidden(2) == true)
        #expect(view.pageName == "About you — page 2 of 5")
        view.host.send(.tap(.button(.back)))
        view.host.send(.settle)
        Toolkit.iterate()
        #expect(view.pager.isAccessibleHidden(0) == false)
        #expect(view.pager.isAccessibleHidden(1) == true)
        #expect(view.pageName == "Welcome — page 1 of 5")
    }

    @Test func thePageNameReachesTheWindowTitleCallbackOnEveryChange() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        var names: [String] = []
        view.onPageName = { names.append($0) }
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("Ada"))
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        #expect(names == ["About you — page 2 of 5", "Your focus time — page 3 of 5"])
    }

    @Test func theIndicatorAndTheWheelsTakeFocusThroughTheirStandIns() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        let indicator = view.chrome.indicator
        #expect(indicator.focusWidget.accessibleRole == GTK_ACCESSIBLE_ROLE_SLIDER)
        #expect(gtk_widget_get_focusable(indicator.focusWidget.widget) != 0)
        #expect(gtk_widget_get_focusable(indicator.area.widget) == 0)
        // The stand-in covers the dots, which keep their size.
        Toolkit.iterate()
        #expect(indicator.focusWidget.width == indicator.area.width && indicator.area.width > 0)
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("Ada"))
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        view.host.send(.tap(.field("focusTime")))
        Toolkit.iterate()
        let minutes = try #require(view.input.wheels.wheel(.minutes))
        #expect(minutes.focusWidget.accessibleRole == GTK_ACCESSIBLE_ROLE_SPIN_BUTTON)
        // Keyboard focus rests on the selected (hours) wheel's stand-in.
        let hours = try #require(view.input.wheels.wheel(.hours))
        window.wait { hours.focusWidget.hasFocus }
        #expect(hours.focusWidget.hasFocus)
    }

    @Test func animationsOffMakeMovesInstantAndPauseTheClock() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer {
            window.close()
            quire_settings_set_bool("gtk-enable-animations", 1)
        }
        #expect(!view.host.session.reducedMotion)
        view.host.send(.tap(.button(.next)))
        #expect(view.host.session.transition != nil && view.isClockRunning)
        view.host.send(.settle)
        quire_settings_set_bool("gtk-enable-animations", 0)
        #expect(view.host.session.reducedMotion)
        view.host.send(.tap(.button(.back)))
        #expect(view.host.session.currentIndex == 0 && view.host.session.transition == nil)
        #expect(!view.host.session.pagerPresentation.needsClock)
        // The tick callback goes on its next frame and is not asked for again.
        window.wait { !view.isClockRunning }
        #expect(!view.isClockRunning)
        view.host.send(.tap(.button(.next)))
        #expect(view.host.session.currentIndex == 1 && view.host.session.transition == nil)
        #expect(!view.isClockRunning)
        quire_settings_set_bool("gtk-enable-animations", 1)
        #expect(!view.host.session.reducedMotion)
    }
}
