import GtkBindings
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
    private let host: SessionHost
    private var shown: InputPresentation?
    /// The panel's widgets, built the first time they are needed — a field becomes first
    /// responder, the panel is measured, a replay looks for a button — or when the loop is idle
    /// after the window's first frame: the panel is hidden then, so building it earlier would only
    /// delay that frame.
    private var built: Parts?
    private var pendingBuild: MainLoop.IdleCall?

    /// What the panel holds: its toolbar over a stack of the wheels, the choice list and nothing.
    @MainActor
    private final class Parts {
        let panel = Box(GTK_ORIENTATION_VERTICAL)
        /// The panel at most `InputPanelView.maximumWidth` wide, centred: on a wide window the
        /// toolbar stays with the wheels.
        let clamp = Clamp(maximum: InputPanelView.maximumWidth)
        /// The sheet the panel lies on, the window's whole width, as a keyboard spans it: on a
        /// wide window it covers the bottom bar from edge to edge (it covered the dots and left
        /// Back and Next beside it), and the field's accessory toolbar is where to go on.
        let sheet = Box(GTK_ORIENTATION_VERTICAL)
        /// The choice list scrolls past `InputPanelView.maximumListHeight`.
        let choiceScroller = ScrolledWindow()
        let accessory: AccessoryBar
        let content = OneShown()
        let wheels: DurationWheelsView
        let choices: ChoiceListView
        let keyboard = Box(GTK_ORIENTATION_VERTICAL)

        init(host: SessionHost) {
            accessory = AccessoryBar(host: host)
            wheels = DurationWheelsView(host: host)
            choices = ChoiceListView(host: host)
            sheet.addCSSClass("quire-input-panel")
            sheet.addCSSClass("background")
            let bar = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
            bar.setMargins(top: 6, bottom: 6, start: 8, end: 8)
            accessory.root.hexpand = true
            bar.append(accessory.root)
            panel.append(bar)
            content.add(keyboard, name: "keyboard")
            content.add(wheels.root, name: "wheels")
            choiceScroller.propagateNaturalHeight(upTo: InputPanelView.maximumListHeight)
            choiceScroller.setChild(choices.root)
            content.add(choiceScroller, name: "choices")
            panel.append(content)
            clamp.setChild(panel)
            clamp.hexpand = true
            sheet.append(clamp)
        }
    }

    /// The widest the panel gets, however wide the window (its toolbar's Cancel and Done stay
    /// this close); on a narrower window it is the window's width.
    static let maximumWidth: Int32 = 600
    /// The tallest the choice list gets before it scrolls (about six options), so the panel
    /// fits a 640 px tall window with the chrome and the field above it.
    static let maximumListHeight: Int32 = 264

    init(host: SessionHost) {
        self.host = host
        revealer.valign = GTK_ALIGN_END
        // The window's width; the clamp inside centres the panel at min(window, maximumWidth).
        revealer.halign = GTK_ALIGN_FILL
        // Closed, the panel leaves the accessible tree too (once it has slid away): a screen
        // reader must not offer a toolbar that is not there.
        revealer.isVisible = false
        revealer.onNotify("child-revealed") { [weak self] in
            guard let self, !self.revealer.revealed, !self.revealer.childRevealed else { return }
            self.revealer.isVisible = false
        }
        pendingBuild = MainLoop.idle { [weak self] in _ = self?.parts }
    }

    /// The panel's widgets, built now if they were not yet.
    private var parts: Parts {
        if let built { return built }
        let parts = Parts(host: host)
        built = parts
        pendingBuild = nil
        revealer.setChild(parts.sheet)
        return parts
    }

    /// Whether the panel's widgets exist yet (tests).
    var isBuilt: Bool { built != nil }
    var accessory: AccessoryBar { parts.accessory }
    var wheels: DurationWheelsView { parts.wheels }
    var choices: ChoiceListView { parts.choices }

    /// The panel's natural height at a width (what it covers when shown).
    func naturalHeight(forWidth width: Int32) -> Int32 {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_measure(parts.clamp.widget, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, nil, nil)
        return natural
    }

    /// "keyboard", "wheels" or "choices".
    var contentShown: String { built?.content.visibleName ?? "keyboard" }

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let input = session.chrome.input
        if input != nil { revealer.isVisible = true }
        revealer.revealed = input != nil
        guard let input, input != shown else { return }
        shown = input
        let parts = self.parts
        parts.accessory.update(input.toolbar)
        switch input.view {
        case .durationPicker:
            parts.wheels.update(input.wheels, fieldLabel: input.label)
            parts.content.visibleName = "wheels"
        case .choiceList:
            parts.choices.update(input.options)
            // The list is the field's (GTK 4.8 would name it "GtkBox").
            parts.choices.root.setAccessibleLabel(input.label)
            parts.content.visibleName = "choices"
        default:
            parts.content.visibleName = "keyboard"
        }
        parts.panel.setAccessibleLabel(input.label)
    }
}
