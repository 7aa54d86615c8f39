import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// While the host applies a page (docs/session-semantics.md, "Applying a page"): a row under the
/// header bar with a spinner and the apply's label ("Creating your account…"), and the pages
/// insensitive. The chrome's buttons are off because the core says so; Cancel and Escape stay,
/// and stop the apply (the core decides that too). This only shows what the session says.
///
/// The row is a `status` for assistive technology, named by the label; what a screen reader says
/// when the apply starts, stops or fails is the core's announcements, spoken by the front that
/// speaks them.
@MainActor
final class ApplyingView: SessionView {
    let revealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN, milliseconds: 150)
    private let row = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
    private let spinner = Widget(new: gtk_spinner_new())
    private let label = Label()
    /// The pages, made insensitive while applying.
    private let pages: Widget
    /// The label shown now; nil while nothing is applied.
    private(set) var shown: String?

    init(pages: Widget) {
        self.pages = pages
        row.addCSSClass("quire-applying")
        row.halign = GTK_ALIGN_CENTER
        label.setWrap()
        row.append(spinner)
        row.append(label)
        revealer.setChild(row)
        revealer.isVisible = false
        revealer.canTarget = false
        revealer.onNotify("child-revealed") { [weak self] in
            guard let self, !self.revealer.revealed, !self.revealer.childRevealed else { return }
            self.revealer.isVisible = false
        }
    }

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let next = session.applyLabel
        pages.isSensitive = next == nil
        guard next != shown else { return }
        shown = next
        if let next {
            label.text = next
            row.setAccessibleLabel(next)
            gtk_spinner_start(OpaquePointer(spinner.widget))
            revealer.isVisible = true
            revealer.revealed = true
        } else {
            gtk_spinner_stop(OpaquePointer(spinner.widget))
            revealer.revealed = false
        }
    }
}
