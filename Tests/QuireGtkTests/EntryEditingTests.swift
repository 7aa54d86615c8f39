import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// A text field's entry edited the way GtkText edits it (at the cursor, over a selection, an
/// input method's commit), each change an `edit` the session decides; and keyboard focus where the
/// core says after each event.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct EntryEditingTests {
    /// The demo on its profile page with the Name field first responder, its entry focused.
    func onName() throws -> (WalkthroughView, TestWindow, Entry, [Event]) {
        let host = SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json")))
        let view = WalkthroughView(host: host)
        let window = TestWindow(view.root)
        host.send(.tap(.button(.next)))
        host.send(.settle)
        Toolkit.iterate()
        host.send(.tap(.field("userName")))
        Toolkit.iterate()
        let entry = try #require(view.pager.row(for: "userName", onPage: 1)?.entry)
        return (view, window, entry, [])
    }

    final class EventLog {
        var events: [Event] = []
    }

    func record(_ host: SessionHost) -> () -> [Event] {
        let log = EventLog()
        host.onEvent = { event, _ in log.events.append(event) }
        return { log.events }
    }

    @Test func typingAtTheCursorAndOverASelectionAreEditsTheSessionTakes() throws {
        let (view, window, entry, _) = try onName()
        defer { window.close() }
        let events = record(view.host)
        let editable = quire_editable(entry.pointer)
        var position: Int32 = 0
        gtk_editable_insert_text(editable, "Ada", -1, &position)
        // Home, then Z: inserted at the cursor.
        gtk_editable_set_position(editable, 0)
        position = 0
        gtk_editable_insert_text(editable, "Z", -1, &position)
        #expect(entry.text == "ZAda")
        #expect(view.host.session.value(of: "userName") == "ZAda")
        // Select all, then type Bo: one edit replaces the selection.
        gtk_editable_select_region(editable, 0, -1)
        let before = events().count
        gtk_editable_delete_selection(editable)
        position = 0
        gtk_editable_insert_text(editable, "Bo", -1, &position)
        #expect(entry.text == "Bo")
        #expect(view.host.session.value(of: "userName") == "Bo")
        #expect(Array(events().dropFirst(before)) == [.edit(from: 0, to: 4, text: "Bo")])
        // An input method's commit of 日本語 is one edit.
        gtk_editable_set_position(editable, 2)
        position = 2
        gtk_editable_insert_text(editable, "日本語", -1, &position)
        #expect(events().last == .edit(from: 2, to: 2, text: "日本語"))
        #expect(view.host.session.value(of: "userName") == "Bo日本語")
        // Delete in the middle.
        gtk_editable_delete_text(editable, 1, 2)
        #expect(entry.text == "B日本語")
        #expect(view.host.session.value(of: "userName") == "B日本語")
    }

    @Test func aRefusedEditLeavesTheEntryAsItWas() throws {
        let (view, window, entry, _) = try onName()
        defer { window.close() }
        let editable = quire_editable(entry.pointer)
        var position: Int32 = 0
        let forty = String(repeating: "a", count: 40)
        gtk_editable_insert_text(editable, forty, -1, &position)
        #expect(view.host.session.value(of: "userName") == .string(forty))
        // Over maxLength (40): refused whole, at the cursor and over a selection alike.
        position = 3
        gtk_editable_insert_text(editable, "b", -1, &position)
        #expect(entry.text == forty)
        gtk_editable_select_region(editable, 0, 2)
        gtk_editable_delete_selection(editable)
        position = 0
        gtk_editable_insert_text(editable, "xyz", -1, &position)
        Toolkit.iterate()
        #expect(entry.text == forty)
        #expect(view.host.session.value(of: "userName") == .string(forty))
    }

    @Test func tabFromTheNameReachesNextThroughTheChoiceList() throws {
        let (view, window, _, _) = try onName()
        defer { window.close() }
        #expect(view.press("Tab"))
        Toolkit.iterate()
        #expect(view.host.session.focusedField == "feedLanguage")
        #expect(view.host.session.chrome.input?.view == .choiceList)
        // Focus is on the list's selected option, never under the panel.
        #expect(view.hasFocus(try #require(view.input.choices.button(for: "en"))))
        #expect(view.press("Tab"))
        Toolkit.iterate()
        #expect(view.host.session.focusedField == nil)
        var reached: [KeyboardStop] = []
        for _ in 0..<4 {
            reached.append(try #require(view.focusedStop))
            #expect(view.press("Tab"))
            Toolkit.iterate()
        }
        #expect(reached == [.back, .indicator, .skip, .next])
        #expect(view.focusedStop == .cancel)
        // Past Cancel, back into the fields.
        #expect(view.press("Tab"))
        Toolkit.iterate()
        #expect(view.host.session.focusedField == "userName")
    }

    @Test func aRefusedNextPutsFocusOnTheFieldToFix() throws {
        let host = SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json")))
        let view = WalkthroughView(host: host)
        let window = TestWindow(view.root)
        defer { window.close() }
        Toolkit.iterate()
        #expect(view.focusedStop == .next)
        host.send(.tap(.button(.next)))
        host.send(.settle)
        Toolkit.iterate()
        #expect(view.focusedStop == .next)
        host.send(.tap(.button(.next)))
        Toolkit.iterate()
        #expect(host.session.presentPage(at: 1)?.fields.first?.errorCode == .required)
        let entry = try #require(view.pager.row(for: "userName", onPage: 1)?.entry)
        #expect(entry.containsFocus)
        // Focus is there without making it first responder; typing focuses it.
        #expect(host.session.focusedField == nil)
        var position: Int32 = 0
        gtk_editable_insert_text(quire_editable(entry.pointer), "A", -1, &position)
        #expect(host.session.focusedField == "userName")
        #expect(host.session.value(of: "userName") == "A")
    }
}

/// A page layout's own widgets take keyboard focus as the built-in rows do.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct LayoutKeyboardFocusTests {
    @Test func tabReachesALayoutsTextWidget() throws {
        let host = SessionHost(Session(flow: try GtkTest.flow("layout-onboarding.json")))
        let view = WalkthroughView(host: host)
        let window = TestWindow(view.root)
        defer { window.close() }
        host.send(.tap(.button(.next)))
        host.send(.settle)
        host.send(.tap(.field("userName")))
        host.send(.type("Aki"))
        host.send(.tap(.button(.next)))
        host.send(.settle)
        Toolkit.iterate()
        #expect(host.session.currentIndex == 2)
        #expect(view.focusedStop == .next)
        #expect(view.press("Tab"))  // Next → Cancel → the first field
        #expect(view.press("Tab"))
        Toolkit.run(milliseconds: 300)
        #expect(host.session.focusedField == "focusTime")
        #expect(view.press("Tab"))
        Toolkit.run(milliseconds: 300)
        #expect(host.session.focusedField == "breakNote")
        let widget = try #require(view.pager.row(for: "breakNote", onPage: 2)?.ownWidget)
        #expect(view.hasFocus(widget))
    }
}
