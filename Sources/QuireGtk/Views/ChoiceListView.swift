import GtkBindings
import CGtk
import QuireCore

/// The choice picker: its options as a list; clicking one makes it the draft (`select`), the
/// session's draft is marked with a check. Up/Down move the draft (the window sends those keys).
/// Assistive technology reads a list (role list) of list items named by their labels, the draft's
/// item `selected` (as a single-selection GtkListBox's rows), rather than "…, selected" in a
/// push button's name.
@MainActor
final class ChoiceListView {
    let root = AccessibleWidgets.box(GTK_ORIENTATION_VERTICAL, spacing: 2, role: GTK_ACCESSIBLE_ROLE_LIST)
    private weak var host: SessionHost?
    private var ids: [String] = []
    private var rows: [(button: Button, label: Label, check: Label)] = []

    init(host: SessionHost) {
        self.host = host
        root.addCSSClass("quire-choices")
        root.setMargins(top: 8, bottom: 12, start: 12, end: 12)
    }

    func button(for option: String) -> Button? {
        ids.firstIndex(of: option).map { rows[$0].button }
    }

    func update(_ options: [OptionPresentation]) {
        if options.map(\.id) != ids {
            for row in rows { root.remove(row.button) }
            rows.removeAll()
            ids = options.map(\.id)
            for option in options {
                let button = AccessibleWidgets.button(role: GTK_ACCESSIBLE_ROLE_LIST_ITEM)
                button.hasFrame = false
                // Keyboard focus rests on the selected option while the list is open (Up/Down,
                // Return, Escape reach the session from there); a click leaves it where it is.
                button.isFocusable = true
                button.focusOnClick = false
                let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
                let label = Label()
                label.setXAlign(0)
                label.setWrap()  // a long option wraps in a narrow panel (Window sizes)
                label.hexpand = true
                let check = Label("✓")
                line.append(label)
                line.append(check)
                button.setChild(line)
                let id = option.id
                button.onClicked { [weak self] in self?.host?.send(.select(id)) }
                root.append(button)
                rows.append((button, label, check))
            }
        }
        for (row, option) in zip(rows, options) {
            row.label.text = option.label
            row.check.opacity = option.selected ? 1 : 0
            row.button.setCSSClass("quire-selected", option.selected)
            row.button.setAccessibleLabel(option.label)
            row.button.setAccessibleSelected(option.selected)
        }
    }
}
