import CGtk
import QuireCore

/// What opens when the walkthrough is finished, for now: the answers as the walkthrough showed
/// them and a button that runs it again. (The focus timer and its header popover come later.)
@MainActor
final class MainPlaceholderView {
    let root = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)

    init(session: Session, completion: Completion) {
        root.addCSSClass("quire-main")
        root.valign = GTK_ALIGN_CENTER
        root.halign = GTK_ALIGN_CENTER
        root.setMargins(top: 24, bottom: 24, start: 24, end: 24)
        let title = Label(session.chrome.title ?? session.flow.id)
        title.addCSSClass("title-1")
        root.append(title)
        for index in 0..<session.pageCount {
            guard let page = session.presentPage(at: index) else { continue }
            for field in page.fields {
                let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
                let label = Label(field.label)
                label.addCSSClass("dim-label")
                label.hexpand = true
                label.setXAlign(0)
                let value = Label(field.display.isEmpty ? field.placeholder : field.display)
                value.setXAlign(1)
                line.append(label)
                line.append(value)
                root.append(line)
            }
        }
        let again = Button(label: "Run the walkthrough again")
        again.addCSSClass("pill")
        gtk_actionable_set_action_name(OpaquePointer(again.widget), "app.walkthrough")
        again.setMargins(top: 12)
        root.append(again)
    }
}
