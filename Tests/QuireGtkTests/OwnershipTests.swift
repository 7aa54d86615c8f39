import CGtk
import CGtkShim
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// One owner per GObject reference, closures owned by GLib: checked the way libadwaita's tests
/// check finalization (a weak reference that fires when the object is finalized).
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct OwnershipTests {
    final class Tracker {}

    @Test func aWrapperThatGoesFinalizesItsWidget() {
        var label: Label? = Label("x")
        let watch = FinalizationWatch(label!.pointer)
        #expect(!watch.finalized)
        label = nil
        #expect(watch.finalized)
    }

    @Test func aWidgetInAContainerOutlivesItsWrapperUntilTheContainerGoes() {
        var box: Box? = Box(GTK_ORIENTATION_VERTICAL)
        var label: Label? = Label("x")
        box!.append(label!)
        let watch = FinalizationWatch(label!.pointer)
        label = nil
        #expect(!watch.finalized)
        box = nil
        #expect(watch.finalized)
    }

    @Test func aSignalClosureIsReleasedWhenTheWidgetGoes() {
        var tracker: Tracker? = Tracker()
        weak let watched = tracker
        var button: Button? = Button(label: "b")
        button!.onClicked { [tracker] in _ = tracker }
        tracker = nil
        #expect(watched != nil)
        button = nil
        #expect(watched == nil)
    }

    @Test func aWrapperDisconnectsItsHandlersWhenItGoesWhileTheWidgetLives() {
        let box = Box(GTK_ORIENTATION_VERTICAL)
        var tracker: Tracker? = Tracker()
        weak let watched = tracker
        var button: Button? = Button(label: "b")
        let pointer = button!.pointer
        box.append(button!)
        button!.onClicked { [tracker] in _ = tracker }
        tracker = nil
        button = nil
        // The widget lives on in the box, but the handler (and the closure) are gone with the wrapper.
        #expect(watched == nil)
        #expect(quire_is_object(pointer) != 0)
    }

    @Test func aHandlerRunsOnTheSignalAndNotWhileBlocked() {
        let button = Button(label: "b")
        var clicks = 0
        let handler = button.onClicked { clicks += 1 }
        quire_signal_emit(button.pointer, "clicked")
        #expect(clicks == 1)
        button.withBlocked(handler) { quire_signal_emit(button.pointer, "clicked") }
        #expect(clicks == 1)
        quire_signal_emit(button.pointer, "clicked")
        #expect(clicks == 2)
    }

    @Test func disconnectReleasesTheClosureAtOnce() {
        let button = Button(label: "b")
        var tracker: Tracker? = Tracker()
        weak let watched = tracker
        let handler = button.onClicked { [tracker] in _ = tracker }
        tracker = nil
        #expect(watched != nil)
        button.disconnect(handler)
        #expect(watched == nil)
    }

    @Test func aDrawFunctionIsReleasedWithItsArea() {
        var tracker: Tracker? = Tracker()
        weak let watched = tracker
        var area: DrawingArea? = DrawingArea()
        area!.setDraw { [tracker] _, _, _ in _ = tracker }
        tracker = nil
        #expect(watched != nil)
        area = nil
        #expect(watched == nil)
    }

    @Test func aControllerIsFinalizedWithItsWidgetAndWrapper() {
        var button: Button? = Button(label: "b")
        var drag: DragGesture? = DragGesture()
        let watch = FinalizationWatch(drag!.pointer)
        button!.addController(drag!)
        drag = nil
        #expect(!watch.finalized)
        button = nil
        #expect(watch.finalized)
    }
}
