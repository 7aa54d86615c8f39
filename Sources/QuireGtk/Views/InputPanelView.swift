import CGtk
import CGtkShim
import QuireCore

/// The input view (inputView + inputAccessoryView): a panel that slides up from the bottom while
/// a field is first responder, with the accessory toolbar over the duration wheels, the choice
/// list, or nothing for text (the keyboard is the physical one). When the field resigns, it slides
/// down showing what it last showed.
@MainActor
final class InputPanelView: SessionView {
    let revealer = Revealer(GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP, milliseconds: 200)
    private let panel = Box(GTK_ORIENTATION_VERTICAL)
    private let title = Label()
    let accessory: AccessoryBar
    private let content = Stack()
    let wheels: DurationWheelsView
    let choices: ChoiceListView
    private let keyboard = Box(GTK_ORIENTATION_VERTICAL)
    private var shown: InputPresentation?

    init(host: SessionHost) {
        accessory = AccessoryBar(host: host)
        wheels = DurationWheelsView(host: host)
        choices = ChoiceListView(host: host)
        revealer.valign = GTK_ALIGN_END
        revealer.hexpand = true
        panel.addCSSClass("quire-input-panel")
        panel.addCSSClass("background")
        let bar = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        bar.setMargins(top: 6, bottom: 6, start: 8, end: 8)
        title.addCSSClass("dim-label")
        title.setEllipsize(true)
        accessory.root.hexpand = true
        bar.append(accessory.root)
        panel.append(bar)
        content.add(keyboard, name: "keyboard")
        content.add(wheels.root, name: "wheels")
        content.add(choices.root, name: "choices")
        gtk_stack_set_vhomogeneous(quire_stack(content.pointer), 0)
        panel.append(content)
        revealer.setChild(panel)
        // Closed, the panel leaves the accessible tree too (once it has slid away): a screen
        // reader must not offer a toolbar that is not there.
        revealer.isVisible = false
        revealer.onPointer("notify::child-revealed") { [weak self] _ in
            guard let self, !self.revealer.revealed, !self.revealer.childRevealed else { return }
            self.revealer.isVisible = false
        }
    }

    /// The panel's natural height at a width (what it covers when shown).
    func naturalHeight(forWidth width: Int32) -> Int32 {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_measure(panel.widget, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, nil, nil)
        return natural
    }

    /// "keyboard", "wheels" or "choices".
    var contentShown: String { content.visibleName }

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let input = session.chrome.input
        if input != nil { revealer.isVisible = true }
        revealer.revealed = input != nil
        guard let input, input != shown else { return }
        shown = input
        accessory.update(input.toolbar)
        switch input.view {
        case .durationPicker:
            wheels.update(input.wheels, fieldLabel: input.label)
            content.visibleName = "wheels"
        case .choiceList:
            choices.update(input.options)
            content.visibleName = "choices"
        default:
            content.visibleName = "keyboard"
        }
        panel.setAccessibleLabel(input.label)
    }
}
