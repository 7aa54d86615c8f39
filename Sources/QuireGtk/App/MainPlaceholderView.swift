import CGtk
import QuireCore

/// What opens when the walkthrough is finished, for now: the settings it chose, shown as the
/// walkthrough showed them, and a button that runs it again. (The focus timer and its header
/// popover come later.)
@MainActor
final class MainPlaceholderView {
    let root = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)

    /// `values` are a finished walkthrough's result (its visible fields).
    init(flow: Flow, locale: String, values: JSONObject) {
        let formatter = Session(flow: flow, locale: locale)
        root.addCSSClass("quire-main")
        root.valign = GTK_ALIGN_CENTER
        root.halign = GTK_ALIGN_CENTER
        root.setMargins(top: 24, bottom: 24, start: 24, end: 24)
        let title = Label(formatter.chrome.title ?? flow.id)
        title.addCSSClass("title-1")
        root.append(title)
        for field in flow.fields {
            guard let json = values[field.id], let value = field.value(from: json) else { continue }
            let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
            let label = Label(field.label?.resolve(locale) ?? field.id)
            label.addCSSClass("dim-label")
            label.hexpand = true
            label.setXAlign(0)
            let shown = formatter.display(value, of: field)
            let valueLabel = Label(shown.isEmpty ? "—" : shown)
            valueLabel.setXAlign(1)
            line.append(label)
            line.append(valueLabel)
            root.append(line)
        }
        let again = Button(label: "Run the walkthrough again")
        again.addCSSClass("pill")
        gtk_actionable_set_action_name(OpaquePointer(again.widget), "app.walkthrough")
        again.setMargins(top: 12)
        root.append(again)
    }
}
