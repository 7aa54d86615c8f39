import GtkBindings
import CGtk
import QuireCore

/// The input view's accessory toolbar (inputAccessoryView: Cancel · flexible space · Done, or
/// previous · next · flexible space · done), from the presentation's toolbar items.
@MainActor
final class AccessoryBar {
    let root = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
    private weak var host: SessionHost?
    private var items: [AccessoryItem] = []
    private var widgets: [Widget] = []
    private var buttons: [AccessoryItem: Button] = [:]

    init(host: SessionHost) {
        self.host = host
        root.addCSSClass("toolbar")
        root.addCSSClass("quire-accessory")
        root.setAccessibleLabel("Input toolbar")
    }

    func button(for item: AccessoryItem) -> Button? { buttons[item] }

    func update(_ toolbar: [ToolbarItemPresentation]) {
        let wanted = toolbar.map(\.item)
        if wanted != items {
            for widget in widgets { root.remove(widget) }
            widgets.removeAll()
            buttons.removeAll()
            items = wanted
            for item in wanted {
                switch item {
                case .flexibleSpace:
                    let space = Box(GTK_ORIENTATION_HORIZONTAL)
                    space.hexpand = true
                    widgets.append(space)
                case .fixedSpace:
                    let space = Box(GTK_ORIENTATION_HORIZONTAL)
                    space.setSizeRequest(width: 16)
                    widgets.append(space)
                default:
                    let button = Button(label: "")
                    // The keyboard stays with the field (Return, Escape, Tab do the same).
                    button.isFocusable = false
                    button.focusOnClick = false
                    if item == .done { button.addCSSClass("suggested-action") } else { button.addCSSClass("flat") }
                    button.onClicked { [weak self] in self?.host?.send(.tap(.accessory(item))) }
                    buttons[item] = button
                    widgets.append(button)
                }
            }
            for widget in widgets { root.append(widget) }
        }
        for entry in toolbar {
            guard let button = buttons[entry.item] else { continue }
            if button.label != entry.title {
                button.label = entry.title
                button.setAccessibleLabel(entry.title)
            }
            button.isSensitive = entry.enabled
        }
    }
}
