import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// The refusal notice (docs/session-semantics.md, "Refusal notices") as a banner under the
/// header bar: when a refused move's error is out of sight ("Name is required — on page 2, About
/// you"), it slides down with a button that makes the core's move there (`RefusalNotice.event`),
/// and slides away at the next accepted event. The core decides what it says and when; this only
/// shows it.
///
/// For assistive technology the banner is an `alert` whose name is the sentence: it appears in
/// the tree only while shown, so a screen reader meets it as a new alert (GTK 4.8 has no
/// `gtk_accessible_announce`), and its label and button read the sentence and the action.
@MainActor
final class NoticeBanner: SessionView {
    let revealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN, milliseconds: 200)
    let box = NoticeBanner.alertBox()
    let label = Label()
    let button = Button(label: "")
    /// The notice whose action is being sent (while its event is handled and rendered): keyboard
    /// focus then goes where the core says after a notice's action.
    private(set) var acting: RefusalNotice?
    private weak var host: SessionHost?
    /// The notice shown now, which follows each event by the core's rule.
    private var shown = NoticeShown()
    var notice: RefusalNotice? { shown.notice }

    init(host: SessionHost) {
        self.host = host
        box.addCSSClass("quire-notice")
        label.setWrap()
        label.setXAlign(0)
        label.hexpand = true
        button.valign = GTK_ALIGN_CENTER
        button.focusOnClick = false
        gtk_box_append(quire_box(box.pointer), label.widget)
        gtk_box_append(quire_box(box.pointer), button.widget)
        revealer.setChild(box)
        revealer.isVisible = false
        // Hidden at the end of its slide, so a gone notice is gone from the accessible tree.
        revealer.onNotify("child-revealed") { [weak self] in
            guard let self, !self.revealer.revealed, !self.revealer.childRevealed else { return }
            self.revealer.isVisible = false
        }
        button.onClicked { [weak self] in
            guard let self, let notice = self.notice else { return }
            self.acting = notice
            defer { self.acting = nil }
            self.host?.send(notice.event)
        }
    }

    /// A failed apply's page message (`Session.applyMessage`) shown now, without an action.
    private(set) var applyMessage: String?

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let changed = shown.follow(host?.lastEvent, emitted: notifications, in: session)
        let next = shown.notice
        let message = next == nil ? session.applyMessage?.resolve(session.locale) : nil
        guard changed || message != applyMessage else { return }
        applyMessage = message
        if let next {
            show(next.message, action: next.actionTitle)
        } else if let message {
            show(message, action: nil)
        } else {
            revealer.revealed = false
        }
    }

    private func show(_ message: String, action: String?) {
        label.text = message
        button.isVisible = action != nil
        if let action {
            button.label = action
            button.setAccessibleLabel(action)
        }
        box.setAccessibleLabel(message)
        revealer.isVisible = true
        revealer.revealed = true
    }

    /// A horizontal GtkBox whose accessible role is `alert` (construct-only, so set through
    /// `g_object_new_with_properties`, which Swift can call, unlike the variadic `g_object_new`).
    static func alertBox() -> Widget {
        var role = GValue()
        g_value_init(&role, gtk_accessible_role_get_type())
        g_value_set_enum(&role, gint(GTK_ACCESSIBLE_ROLE_ALERT.rawValue))
        defer { g_value_unset(&role) }
        let object = "accessible-role".withCString { name -> UnsafeMutablePointer<GObject>? in
            var names: [UnsafePointer<CChar>?] = [name]
            return withUnsafeMutablePointer(to: &role) { value in
                g_object_new_with_properties(gtk_box_get_type(), 1, &names, value)
            }
        }
        let box = Widget(existing: UnsafeMutableRawPointer(object!))
        gtk_box_set_spacing(quire_box(box.pointer), 12)
        return box
    }
}
