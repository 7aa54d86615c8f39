import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// The views, in a real window on the test display, driven only through the session host and
/// GTK's own signals.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct WalkthroughViewTests {
    func open(_ flow: Flow, locale: String = "en") -> (WalkthroughView, TestWindow) {
        // These tests time animations: animations on, whatever a test before turned off (the
        // view follows the setting: reduced motion).
        quire_settings_set_bool("gtk-enable-animations", 1)
        let view = WalkthroughView(host: SessionHost(Session(flow: flow, locale: locale)))
        return (view, TestWindow(view.root))
    }

    @Test func thePagerBuildsOnlyTheCurrentPageAndItsNeighbours() throws {
        let (view, window) = open(try GtkTest.pages(10))
        defer { window.close() }
        #expect(view.builtPages == [0, 1])
        view.host.send(.tap(.indicatorPage(5)))
        view.host.send(.settle)
        Toolkit.iterate()
        #expect(view.builtPages == [4, 5, 6])
        view.host.send(.tap(.button(.skip)))
        view.host.send(.settle)
        Toolkit.iterate()
        #expect(view.builtPages == [8, 9])
    }

    /// While pages move, a frame builds only what comes on screen; the next neighbour is built
    /// once the loop is idle (frames stay cheap).
    @Test func neighboursForLaterAreBuiltWhenTheLoopIsIdle() throws {
        let (view, window) = open(try GtkTest.pages(10))
        defer { window.close() }
        #expect(view.builtPages == [0, 1])
        view.host.send(.tap(.button(.next)))
        view.host.send(.tick(50))
        #expect(view.builtPages == [0, 1])  // page 2 is not on screen yet
        Toolkit.iterate()
        // Built while the move runs, before it lands: the landing frame builds nothing.
        #expect(view.builtPages == [0, 1, 2])
        view.host.send(.settle)
        #expect(view.builtPages == [0, 1, 2])
    }

    /// The input panel is hidden until a field is first responder: it is built after the first
    /// frame is painted (when the loop is idle), not before it.
    @Test func theInputPanelIsBuiltAfterTheFirstFrame() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"))))
        #expect(!view.input.isBuilt)
        let window = ObjectRef(UnsafeMutableRawPointer(gtk_window_new()!), .sink)
        defer { gtk_window_destroy(quire_window(window.pointer)) }
        gtk_window_set_default_size(quire_window(window.pointer), 520, 680)
        gtk_window_set_child(quire_window(window.pointer), view.root.widget)
        gtk_window_present(quire_window(window.pointer))
        var builtAtFirstPaint: Bool?
        var frames: ObjectRef?
        Toolkit.run(milliseconds: 3000) {
            if frames == nil, let clock = gtk_widget_get_frame_clock(view.root.widget) {
                let clockRef = FrameClock(UnsafeMutableRawPointer(clock))
                clockRef.onAfterPaint { if builtAtFirstPaint == nil { builtAtFirstPaint = view.input.isBuilt } }
                frames = clockRef
            }
            return builtAtFirstPaint != nil
        }
        frames?.disconnectAll()
        #expect(builtAtFirstPaint == false)
        Toolkit.iterate()
        #expect(view.input.isBuilt)
        // Opening a picker shows the built panel with its wheels.
        view.host.send(.tap(.indicatorPage(1)))
        view.host.send(.settle)
        view.host.send(.tap(.field("feedLanguage")))
        #expect(view.input.revealer.revealed)
        #expect(view.input.contentShown == "choices")
    }

    @Test func aWrappingPagerBuildsTheNeighbourAcrossTheSeam() throws {
        let (view, window) = open(try GtkTest.pages(4, wrap: true))
        defer { window.close() }
        #expect(view.builtPages == [0, 1, 3])
    }

    @Test func theFrameClockFeedsAMoveAndStopsWhenItSettles() throws {
        let (view, window) = open(try GtkTest.pages(3))
        defer { window.close() }
        #expect(!view.isClockRunning)
        view.host.send(.tap(.button(.next)))
        #expect(view.isClockRunning)
        window.wait { view.host.session.transition == nil }
        #expect(view.host.session.currentIndex == 1)
        #expect(view.host.session.pagerPresentation.position == 1)
        Toolkit.iterate()
        #expect(!view.isClockRunning)
    }

    /// Idle means idle: once a move has settled, the window draws no frame at all.
    @Test func aSettledWalkthroughDrawsNoFrames() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        view.host.send(.tap(.button(.next)))
        window.wait { view.host.session.transition == nil && !view.isClockRunning }
        Toolkit.run(milliseconds: 400)  // let the last frame and any style transition finish
        let clock = try #require(gtk_widget_get_frame_clock(view.root.widget))
        let frames = FrameClock(UnsafeMutableRawPointer(clock))
        var painted = 0
        frames.onPaint { painted += 1 }
        Toolkit.run(milliseconds: 600)
        #expect(painted == 0)
        // A move draws frames again, and stops.
        view.host.send(.tap(.button(.back)))
        Toolkit.run(milliseconds: 600)
        #expect(painted > 0)
    }

    @Test func typingInTheEntryBecomesEditEventsAndIsNotEchoed() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        var events: [Event] = []
        view.host.onEvent = { event, _ in if !event.isClock { events.append(event) } }
        view.host.send(.key(.right))
        view.host.send(.settle)
        view.host.send(.key(.tab))
        let entry = try #require(view.pager.entry(for: "userName"))
        events.removeAll()
        var position: Int32 = 0
        gtk_editable_insert_text(quire_editable(entry.pointer), "Aki", -1, &position)
        // One edit at the cursor, let through to the widget (which keeps its own cursor).
        #expect(events == [.edit(from: 0, to: 0, text: "Aki")])
        #expect(view.host.session.value(of: "userName") == .string("Aki"))
        #expect(entry.text == "Aki")
        #expect(position == 3)
    }

    @Test func flippingTheSwitchTapsTheToggleOnce() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        // Page 3 (focus-setup) holds the toggle; page 2 needs a name to pass the gate.
        view.host.send(.key(.right))
        view.host.send(.settle)
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("Aki"))
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        #expect(view.host.session.currentIndex == 2)
        let toggle = try #require(findSwitch(view.pager.root.widget))
        var events: [Event] = []
        view.host.onEvent = { event, _ in if !event.isClock { events.append(event) } }
        #expect(gtk_switch_get_active(quire_switch(toggle)) != 0)
        gtk_switch_set_active(quire_switch(toggle), 0)
        Toolkit.iterate()
        #expect(events == [.tap(.field("reminders"))])
        #expect(view.host.session.value(of: "reminders") == .bool(false))
        #expect(gtk_switch_get_active(quire_switch(toggle)) == 0)
    }

    @Test func theIndicatorIsAnAccessibleSliderNamedAfterThePage() throws {
        let (view, window) = open(try GtkTest.pages(4))
        defer { window.close() }
        let indicator = view.chrome.indicator.focusWidget
        #expect(view.chrome.indicator.accessibleLabel == "Page 1 of 4")
        #expect(indicator.accessibleRole == GTK_ACCESSIBLE_ROLE_SLIDER)
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        #expect(view.chrome.indicator.accessibleLabel == "Page 2 of 4")
    }

    @Test func theChromeShowsTheSessionsButtons() throws {
        let (view, window) = open(try GtkTest.pages(2))
        defer { window.close() }
        #expect(view.chrome.backEnabled == false)
        #expect(view.chrome.trailingShown == "next")
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        #expect(view.chrome.backEnabled == true)
        #expect(view.chrome.trailingShown == "finish")
    }

    /// Cancel sits above the pages; clicking it cancels the walkthrough (an open picker's draft
    /// committed, the values kept), and it follows the presentation's enabled flag afterwards.
    @Test func cancelAboveThePagesCancelsTheWalkthrough() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"), locale: "ja")
        defer { window.close() }
        let cancel = try #require(view.chrome.button(.cancel))
        #expect(cancel.label == "キャンセル")
        #expect(cancel.isSensitive)
        #expect(gtk_widget_get_mapped(cancel.widget) != 0)
        // Above the pages: its bottom edge is above the pager's top edge.
        var bounds = graphene_rect_t()
        #expect(gtk_widget_compute_bounds(cancel.widget, view.pager.root.widget, &bounds) != 0)
        #expect(bounds.origin.y + bounds.size.height <= 0.5)
        view.host.send(.tap(.button(.next)))
        view.host.send(.settle)
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("Aki"))
        quire_signal_emit(cancel.pointer, "clicked")
        let completed = try #require(view.host.session.completed)
        #expect(completed.outcome == .cancelled)
        #expect(completed.values["userName"] == .string("Aki"))
        #expect(!cancel.isSensitive)
    }

    @Test func theInputPanelShowsTheOpenPicker() throws {
        let (view, window) = open(try GtkTest.flow("focus-onboarding.json"))
        defer { window.close() }
        #expect(!view.input.revealer.revealed)
        view.host.send(.tap(.indicatorPage(1)))
        view.host.send(.settle)
        view.host.send(.tap(.field("feedLanguage")))
        #expect(view.input.revealer.revealed)
        #expect(view.input.contentShown == "choices")
        view.host.send(.tap(.accessory(.done)))
        #expect(!view.input.revealer.revealed)
        window.wait { !view.input.revealer.isVisible }
        #expect(!view.input.revealer.isVisible)
    }

    @Test func arrowKeysOnAPageControlMovePagesAndTabGoesRoundTheControls() throws {
        let (view, window) = open(try GtkTest.pages(3))
        defer { window.close() }
        // Focus starts on Next, never on the pager (a container).
        #expect(view.chrome.nextButton.hasFocus)
        #expect(!view.pager.root.hasFocus)
        #expect(view.press("Right"))
        view.host.send(.settle)
        #expect(view.host.session.currentIndex == 1)
        #expect(view.chrome.nextButton.hasFocus)
        // A page without fields: Tab goes round its controls.
        #expect(view.press("Tab"))
        #expect(view.focusedStop == .cancel)
        #expect(view.press("Tab"))
        #expect(view.focusedStop == .back)
    }

    @Test func returnAndSpaceOnAControlAreGTKs() throws {
        let (view, window) = open(try GtkTest.pages(3))
        defer { window.close() }
        view.chrome.nextButton.grabFocus()
        #expect(view.chrome.nextButton.hasFocus)
        // Return activates the focused button as GTK does: the window leaves it to GTK.
        #expect(!view.press("Return"))
        #expect(!view.press("space"))
        #expect(view.host.session.currentIndex == 0)
    }

    @Test func aClosedWalkthroughLetsGoOfItsWidgets() throws {
        var view: WalkthroughView? = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"))))
        var window: TestWindow? = TestWindow(view!.root)
        let pagerWatch = FinalizationWatch(view!.pager.root.pointer)
        let rootWatch = FinalizationWatch(view!.root.pointer)
        view!.host.send(.tap(.indicatorPage(1)))
        view!.host.send(.settle)
        view!.host.send(.tap(.field("feedLanguage")))
        window!.close()
        window = nil
        view = nil
        Toolkit.iterate()
        #expect(pagerWatch.finalized)
        #expect(rootWatch.finalized)
    }

    private func findSwitch(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutableRawPointer? {
        if Borrowed(UnsafeMutableRawPointer(widget)).typeName == "GtkSwitch" { return UnsafeMutableRawPointer(widget) }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = findSwitch(current) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}
