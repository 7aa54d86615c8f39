import CGtk
import QuireCore

/// One page of the flow: title, body and field rows, from its `PagePresentation`. The pager
/// builds one for the current page and each neighbour, and drops it when it is no longer near.
@MainActor
final class PageView {
    let index: Int
    let root: Box
    private let content = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)
    private let title = Label()
    private let body = Label()
    private let fieldsBox = Box(GTK_ORIENTATION_VERTICAL, spacing: 18)
    private var rows: [FieldRowView] = []
    private var shown: PagePresentation?
    private weak var host: SessionHost?

    init(_ page: PagePresentation, host: SessionHost) {
        index = page.index
        self.host = host
        root = Box(GTK_ORIENTATION_VERTICAL)
        root.addCSSClass("quire-page")
        root.hexpand = true
        root.vexpand = true
        content.halign = GTK_ALIGN_CENTER
        content.valign = GTK_ALIGN_CENTER
        content.vexpand = true
        content.setSizeRequest(width: 320)
        content.setMargins(top: 24, bottom: 24, start: 24, end: 24)
        title.addCSSClass("title-1")
        title.setWrap()
        title.setJustify(GTK_JUSTIFY_CENTER)
        title.setMaxWidthChars(28)
        body.setWrap()
        body.setJustify(GTK_JUSTIFY_CENTER)
        body.setMaxWidthChars(40)
        body.addCSSClass("body")
        fieldsBox.setMargins(top: 12)
        content.append(title)
        content.append(body)
        content.append(fieldsBox)
        root.append(content)
        update(page)
    }

    func row(for field: String) -> FieldRowView? {
        rows.first { $0.id == field }
    }

    /// The entry of a text field on this page, if shown.
    func entry(for field: String) -> Entry? {
        rows.first { $0.id == field }?.entry
    }

    func update(_ page: PagePresentation) {
        guard page != shown else { return }
        shown = page
        title.text = page.title ?? ""
        title.isVisible = page.title != nil
        body.text = page.body ?? ""
        body.isVisible = page.body != nil
        // Fields appear and disappear with `visibleIf`: rebuild the rows when the list changes.
        if rows.map(\.id) != page.fields.map(\.id) {
            for row in rows { fieldsBox.remove(row.root) }
            rows.removeAll()
            if let host {
                for field in page.fields {
                    let row = FieldRowView(field, host: host)
                    fieldsBox.append(row.root)
                    rows.append(row)
                }
            }
        } else {
            for (row, field) in zip(rows, page.fields) { row.update(field) }
        }
        fieldsBox.isVisible = !rows.isEmpty
    }
}
