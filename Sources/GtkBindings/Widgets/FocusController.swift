import CGtk
import CGtkShim

/// GtkEventControllerFocus: `enter` when the keyboard focus moves into its widget.
@MainActor
public final class FocusController: Controller {
    public init() {
        super.init(new: gtk_event_controller_focus_new())
    }
}
