import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// Every typed signal helper the views use, connected and emitted with real arguments (from C,
/// as GTK emits them: `quire_signal_emit_*`, or GTK's own functions where they emit the signal):
/// each closure receives exactly what was emitted, and its result reaches the emitter. Run under
/// `G_DEBUG=fatal-warnings`, so a GLib warning about a signal fails the run.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct SignalTests {
    final class Tracker {}
    final class Answer { var handled = true }

    // MARK: Gestures

    @Test func dragGestureSignalsCarryThePointAndTheOffsets() {
        let drag = DragGesture()
        var begins: [[Double]] = []
        var updates: [[Double]] = []
        var ends: [[Double]] = []
        drag.onDragBegin { x, y in begins.append([x, y]) }
        drag.onDragUpdate { dx, dy in updates.append([dx, dy]) }
        drag.onDragEnd { dx, dy in ends.append([dx, dy]) }
        quire_signal_emit_double2(drag.pointer, "drag-begin", 120.5, 64.25)
        quire_signal_emit_double2(drag.pointer, "drag-update", -40.75, 3.5)
        quire_signal_emit_double2(drag.pointer, "drag-end", -81, -0.125)
        #expect(begins == [[120.5, 64.25]])
        #expect(updates == [[-40.75, 3.5]])
        #expect(ends == [[-81, -0.125]])
    }

    @Test func cancelCarriesTheSequenceAndANullOneAsNil() {
        let drag = DragGesture()
        let click = ClickGesture()
        var dragSequences: [OpaquePointer?] = []
        var clickSequences: [OpaquePointer?] = []
        drag.onCancel { sequence in dragSequences.append(sequence) }
        click.onCancel { sequence in clickSequences.append(sequence) }
        // A mouse's sequence is NULL: the closure gets nil, and runs (it once read NULL as its data).
        quire_signal_emit_pointer(drag.pointer, "cancel", nil)
        quire_signal_emit_pointer(click.pointer, "cancel", nil)
        #expect(dragSequences.count == 1)
        #expect(dragSequences.first == .some(nil))
        #expect(clickSequences.count == 1)
        #expect(clickSequences.first == .some(nil))
        // A touch's sequence is an opaque pointer GDK makes from the touch id.
        let touch = OpaquePointer(bitPattern: 7)
        quire_signal_emit_pointer(drag.pointer, "cancel", UnsafeMutableRawPointer(touch))
        #expect(dragSequences.count == 2)
        #expect(dragSequences.last == .some(touch))
    }

    @Test func clickGesturePressedAndReleasedCarryTheCountAndThePoint() {
        let click = ClickGesture()
        var pressed: [[Double]] = []
        var released: [[Double]] = []
        click.onPressed { n, x, y in pressed.append([Double(n), x, y]) }
        click.onReleased { n, x, y in released.append([Double(n), x, y]) }
        quire_signal_emit_int_double2(click.pointer, "pressed", 2, 10.5, 20.25)
        quire_signal_emit_int_double2(click.pointer, "released", 3, -1.5, 99)
        #expect(pressed == [[2, 10.5, 20.25]])
        #expect(released == [[3, -1.5, 99]])
    }

    // MARK: Controllers

    @Test func keyPressedCarriesTheKeyAndItsResultReachesGTK() {
        let keys = KeyController()
        var seen: [[UInt32]] = []
        keys.onKeyPressed { keyval, keycode, state in
            seen.append([keyval, keycode, state.rawValue])
            return keyval == UInt32(GDK_KEY_Tab)
        }
        let shift = GDK_SHIFT_MASK
        let handled = quire_signal_emit_key(keys.pointer, "key-pressed", guint(GDK_KEY_Tab), 23, shift)
        let notHandled = quire_signal_emit_key(keys.pointer, "key-pressed", guint(GDK_KEY_a), 38, GdkModifierType(rawValue: 0))
        #expect(seen == [[UInt32(GDK_KEY_Tab), 23, shift.rawValue], [UInt32(GDK_KEY_a), 38, 0]])
        #expect(handled != 0)
        #expect(notHandled == 0)
    }

    @Test func scrollSignalsCarryTheDeltasAndTheResultReachesGTK() {
        let scroll = ScrollController(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)
        var events: [String] = []
        var deltas: [[Double]] = []
        scroll.onScrollBegin { events.append("begin") }
        scroll.onScroll { dx, dy in
            deltas.append([dx, dy])
            return dy != 0
        }
        scroll.onScrollEnd { events.append("end") }
        quire_signal_emit(scroll.pointer, "scroll-begin")
        let handled = quire_signal_emit_double2_boolean(scroll.pointer, "scroll", 1.5, -2.25)
        let notHandled = quire_signal_emit_double2_boolean(scroll.pointer, "scroll", 4, 0)
        quire_signal_emit(scroll.pointer, "scroll-end")
        #expect(events == ["begin", "end"])
        #expect(deltas == [[1.5, -2.25], [4, 0]])
        #expect(handled != 0)
        #expect(notHandled == 0)
    }

    @Test func focusControllerEnterAndLeave() {
        let focus = FocusController()
        var events: [String] = []
        focus.onEnter { events.append("enter") }
        focus.onLeave { events.append("leave") }
        quire_signal_emit(focus.pointer, "enter")
        quire_signal_emit(focus.pointer, "leave")
        #expect(events == ["enter", "leave"])
    }

    // MARK: Widgets

    @Test func buttonClickedCheckButtonToggledSpinButtonValueChanged() {
        let button = Button(label: "b")
        var clicks = 0
        button.onClicked { clicks += 1 }
        quire_signal_emit(button.pointer, "clicked")
        #expect(clicks == 1)

        let check = CheckButton(existing: UnsafeMutableRawPointer(gtk_check_button_new()!))
        var toggles: [Bool] = []
        check.onToggled { toggles.append(check.isOn) }
        check.isOn = true
        check.isOn = false
        #expect(toggles == [true, false])

        let spin = SpinButton(new: gtk_spin_button_new_with_range(0, 10, 1))
        var values: [Double] = []
        spin.onValueChanged { values.append(gtk_spin_button_get_value(OpaquePointer(spin.widget))) }
        gtk_spin_button_set_value(OpaquePointer(spin.widget), 3)
        #expect(values == [3])
    }

    @Test func switchStateSetCarriesTheStateAndItsResultReachesGTK() {
        let toggle = Switch()
        var states: [Bool] = []
        let answer = Answer()
        toggle.onStateSet { state in
            states.append(state)
            return answer.handled
        }
        // Handled: GTK's own handler (which sets the state) does not run.
        let first = quire_signal_emit_boolean(toggle.pointer, "state-set", 1)
        #expect(states == [true])
        #expect(first != 0)
        #expect(gtk_switch_get_state(quire_switch(toggle.pointer)) == 0)
        // Not handled: GTK sets the state (and, setting the switch active, emits state-set again).
        answer.handled = false
        _ = quire_signal_emit_boolean(toggle.pointer, "state-set", 1)
        #expect(states.count >= 2 && states.allSatisfy { $0 })
        #expect(gtk_switch_get_state(quire_switch(toggle.pointer)) != 0)
    }

    @Test func editableInsertTextCarriesTextAndPositionAndTheHandlerMovesIt() throws {
        let entry = Entry()
        entry.text = "Ada"
        let editable = Editable(try #require(entry.delegate))
        var inserted: [String] = []
        var positions: [Int32] = []
        var deleted: [[Int32]] = []
        var changes = 0
        editable.onInsertText { text, position in
            inserted.append(text)
            positions.append(position)
            position = 0  // inserted at the start instead
        }
        editable.onDeleteText { start, end in deleted.append([start, end]) }
        editable.onChanged { changes += 1 }
        // GTK's own path: the entry hands the edit to its GtkText, which emits insert-text with
        // the bytes given (9 of "日本語xyz": 日本語) and where (characters).
        var position: Int32 = 3
        gtk_editable_insert_text(quire_editable(entry.pointer), "日本語xyz", 9, &position)
        #expect(inserted == ["日本語"])
        #expect(positions == [3])
        #expect(entry.text == "日本語Ada")
        #expect(position == 3)  // after the insertion where the handler moved it
        #expect(changes == 1)
        // Emitted directly, as an input method's commit reaches the text.
        var at: Int32 = 6
        quire_signal_emit_insert_text(editable.pointer, "Zé", -1, &at)
        #expect(inserted == ["日本語", "Zé"])
        #expect(positions == [3, 6])
        #expect(entry.text == "Zé日本語Ada")
        #expect(at == 2)
        gtk_editable_delete_text(quire_editable(entry.pointer), 1, 4)
        #expect(deleted == [[1, 4]])
        #expect(entry.text == "Z語Ada")
        #expect(changes == 3)
    }

    @Test func anEntryThatDelegatesIsNotAnEditableToConnect() {
        // Its insert-text is emitted on its GtkText only; `Editable` takes the delegate.
        let entry = Entry()
        #expect(entry.delegate != nil)
        #expect(entry.delegate?.pointer != entry.pointer)
        #expect(quire_is_a(entry.delegate!.pointer, gtk_text_get_type()) != 0)
    }

    @Test func notifyRunsForItsPropertyOnly() {
        let revealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_NONE)
        var childRevealed = 0
        revealer.onNotify("child-revealed") { childRevealed += 1 }
        g_object_notify(quire_object(revealer.pointer), "child-revealed")
        g_object_notify(quire_object(revealer.pointer), "reveal-child")
        #expect(childRevealed == 1)
    }

    @Test func mapAndDestroyOfAWindowAndItsChild() {
        let window = Window(new: gtk_window_new())
        let child = Box(GTK_ORIENTATION_VERTICAL)
        var events: [String] = []
        child.onMap { events.append("map") }
        window.onDestroy { events.append("destroy") }
        gtk_window_set_child(quire_window(window.pointer), child.widget)
        gtk_window_present(quire_window(window.pointer))
        Toolkit.run(milliseconds: 3000) { events.contains("map") }
        #expect(events == ["map"])
        // GTK disposes a window (emits `destroy`) when its last reference goes; the wrapper
        // holds one, so the test disposes it as that moment would.
        gtk_window_destroy(quire_window(window.pointer))
        g_object_run_dispose(quire_object(window.pointer))
        Toolkit.iterate()
        #expect(events == ["map", "destroy"])
    }

    @Test func destroyOfAnUnownedWidgetRunsAndReleasesItsClosure() {
        let widget = UnsafeMutableRawPointer(g_object_ref_sink(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!)
        var tracker: Tracker? = Tracker()
        weak let watched = tracker
        var destroyed = 0
        Widget.onDestroy(unowned: widget) { [tracker] in
            _ = tracker
            destroyed += 1
        }
        tracker = nil
        #expect(watched != nil)
        g_object_unref(widget)  // the last reference: disposed (destroy), then finalized
        #expect(destroyed == 1)
        #expect(watched == nil)
    }

    @Test func frameClockPaintAndAfterPaint() throws {
        let window = Window(new: gtk_window_new())
        let area = DrawingArea()
        area.setContentSize(width: 40, height: 40)
        gtk_window_set_child(quire_window(window.pointer), area.widget)
        defer { gtk_window_destroy(quire_window(window.pointer)) }
        gtk_window_present(quire_window(window.pointer))
        Toolkit.run(milliseconds: 3000) { gtk_widget_get_mapped(area.widget) != 0 }
        let clock = FrameClock(UnsafeMutableRawPointer(try #require(gtk_widget_get_frame_clock(area.widget))))
        var events: [String] = []
        clock.onPaint { events.append("paint") }
        clock.onAfterPaint { events.append("after-paint") }
        area.queueDraw()
        Toolkit.run(milliseconds: 3000) { events.contains("after-paint") }
        let first = Array(events.prefix(2))
        #expect(first == ["paint", "after-paint"])
    }

    // MARK: Application and actions

    @Test func applicationStartupThenActivate() {
        let app = Application(new: gtk_application_new("dev.quire.SignalTests", G_APPLICATION_NON_UNIQUE))
        var events: [String] = []
        app.onStartup { events.append("startup") }
        app.onActivate { events.append("activate") }
        // Nothing holds the application: it returns once activated.
        let status = g_application_run(quire_g_application(app.pointer), 0, nil)
        #expect(status == 0)
        #expect(events == ["startup", "activate"])
    }

    @Test func simpleActionActivateCarriesItsParameter() {
        let plain = SimpleAction(new: g_simple_action_new("plain", nil))
        var plainParameters: [OpaquePointer?] = []
        plain.onActivate { parameter in plainParameters.append(parameter) }
        g_action_activate(OpaquePointer(plain.pointer), nil)
        #expect(plainParameters.count == 1)
        #expect(plainParameters.first == .some(nil))

        let type = g_variant_type_new("i")
        defer { g_variant_type_free(type) }
        let numbered = SimpleAction(new: g_simple_action_new("numbered", type))
        var numbers: [Int32] = []
        numbered.onActivate { parameter in
            if let parameter { numbers.append(g_variant_get_int32(parameter)) }
        }
        g_action_activate(OpaquePointer(numbered.pointer), g_variant_new_int32(7))
        #expect(numbers == [7])
    }

    // MARK: The signature check

    @Test func theSignatureCheckNamesAMismatch() {
        let drag = DragGesture()
        // `cancel` read as `void (gpointer, gpointer)`, the mistake that crashed on every click.
        let mismatch = signalMismatch(drag.pointer, "cancel", SignalSignature())
        #expect(mismatch == "GtkGestureDrag::cancel is (GBoxed) -> void, its handler reads () -> void")
        #expect(signalMismatch(drag.pointer, "cancel", SignalSignature([.boxed])) == nil)
        #expect(signalMismatch(drag.pointer, "drag-update", SignalSignature([.double, .double])) == nil)
        #expect(signalMismatch(drag.pointer, "drag-update", SignalSignature([.double, .double], returns: .boolean)) != nil)
        #expect(signalMismatch(drag.pointer, "no-such-signal", SignalSignature()) == "no signal no-such-signal on GtkGestureDrag")
        let revealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_NONE)
        #expect(signalMismatch(revealer.pointer, "notify::child-revealed", SignalSignature([.param])) == nil)
        #expect(signalMismatch(revealer.pointer, "notify::child-revealed", SignalSignature([.pointer])) != nil)
    }

    // MARK: The crash

    /// The walkthrough's own pager: a drag begun and moved, then cancelled with a NULL sequence
    /// (a mouse's, when a control claims the click) ends the drag instead of crashing.
    @Test func thePagersDragCancelledWithANullSequenceEndsTheDrag() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.pages(3))))
        let window = TestWindow(view.root)
        defer { window.close() }
        let drag = try #require(controller(of: view.pager.root, gtk_gesture_drag_get_type()))
        quire_signal_emit_double2(drag, "drag-begin", 200, 300)
        quire_signal_emit_double2(drag, "drag-update", -60, 2)
        #expect(view.host.session.pagerPresentation.isDragging)
        quire_signal_emit_pointer(drag, "cancel", nil)
        #expect(!view.host.session.pagerPresentation.isDragging)
        // And again with no drag in progress (a plain click that a button claimed).
        quire_signal_emit_pointer(drag, "cancel", nil)
        let click = try #require(controller(of: view.pager.root, gtk_gesture_click_get_type()))
        quire_signal_emit_pointer(click, "cancel", nil)
        window.wait { view.host.session.transition == nil }
        #expect(view.host.session.currentIndex == 0)
    }

    /// The first event controller of `type` on a widget (not retained: the widget holds it).
    private func controller(of widget: Widget, _ type: GType) -> UnsafeMutableRawPointer? {
        guard let list = gtk_widget_observe_controllers(widget.widget) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(list)) }
        for index in 0..<g_list_model_get_n_items(list) {
            guard let item = g_list_model_get_item(list, index) else { continue }
            g_object_unref(item)
            if quire_is_a(item, type) != 0 { return item }
        }
        return nil
    }
}
