import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// One page of the flow: title, body and field rows, from its `PagePresentation`. The pager
/// builds one for the current page and each neighbour, and drops it when it is no longer near.
@MainActor
final class PageView {
    let index: Int
    let root: Box
    /// The page scrolls vertically when its content is taller than the pager (many fields, long
    /// texts); the content is clamped to `PageView.maximumWidth` and centred.
    let scroller = ScrolledWindow()
    private let clamp = Clamp(maximum: PageView.maximumWidth, centresVertically: true)
    private let content = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)
    private let title = Label()
    private let body = Label()
    private let fieldsBox = Box(GTK_ORIENTATION_VERTICAL, spacing: 18)
    /// The page's fields as shown; `rows` holds the rows of the first of them. A long page builds
    /// its first `rowsAtOnce` rows with the page and the rest when the loop is idle, after the
    /// frame is drawn (`rowsPerIdle` at a time), or at once up to a field something needs
    /// (`row(for:)`: keyboard focus landing on it, a picker opened on it).
    private var fields: [FieldPresentation] = []
    private var rows: [FieldRowView] = []
    private var pendingRows: MainLoop.IdleCall?
    private var shown: PagePresentation?
    private weak var host: SessionHost?
    /// The page's GtkBuilder layout, when it has one that loads: its widgets replace the title,
    /// body and rows, and every field keeps its row (hidden fields' widgets are hidden).
    private var layout: LoadedLayout?
    private var layoutRows: [String: FieldRowView] = [:]

    init(_ page: PagePresentation, host: SessionHost) {
        index = page.index
        self.host = host
        root = Box(GTK_ORIENTATION_VERTICAL)
        root.addCSSClass("quire-page")
        root.hexpand = true
        root.vexpand = true
        // Centred while it fits (by the clamp); from the top, scrolling, when it does not.
        content.vexpand = true
        content.setMargins(top: 24, bottom: 24, start: PageView.sideMargin, end: PageView.sideMargin)
        // Title and body keep their reading width (max-width-chars) in a wide clamp.
        title.halign = GTK_ALIGN_CENTER
        body.halign = GTK_ALIGN_CENTER
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
        clamp.setChild(content)
        scroller.setChild(clamp)
        scroller.vexpand = true
        root.append(scroller)
        let flow = host.session.flow
        if let flowIndex = flow.pageIndex(of: page.id) {
            switch LoadedLayout.load(page: flowIndex, of: flow) {
            case .loaded(let loaded)?:
                layout = loaded
                content.remove(title)
                content.remove(body)
                content.remove(fieldsBox)
                content.append(loaded.root)
                for field in flow.pages[flowIndex].fieldRange {
                    let id = flow.fields[field].id
                    guard let parts = loaded.parts[field] else { continue }
                    layoutRows[id] = FieldRowView(host.session.presentField(field), layout: parts, host: host)
                }
            case .failed(let problems)?:
                // `quire run` checks layouts before it opens a window; an embedder learns here.
                for problem in problems {
                    quire_log_warning("page '\(page.id)': the built-in rows are shown: \(problem.message)")
                }
            case nil:
                break
            }
        }
        update(page)
    }

    /// The widest the page's content gets (its side margins included), however wide the window.
    static let maximumWidth: Int32 = 600
    static let sideMargin: Int32 = 24

    /// Scrolls the page so that a field's row is in view (a picker opened on it).
    func scrollToShow(field: String) {
        guard let row = row(for: field) else { return }
        if row.root.height > 0 {
            scroller.scrollToShow(row.root)
        } else {
            showOnceLaidOut(row, always: true)
        }
    }

    /// Rows built with the page: 24 rows, at least 48 px apart, fill a window 1,152 px high; the
    /// rest follow the first frame, `rowsPerIdle` at a time.
    static let rowsAtOnce = 24
    static let rowsPerIdle = 24

    /// A field's row, built now if it was not yet.
    func row(for field: String) -> FieldRowView? {
        if layout != nil { return builtRow(for: field) }
        guard let index = fields.firstIndex(where: { $0.id == field }) else { return nil }
        buildRows(upTo: index + 1)
        let row = rows[index]
        if row.root.height == 0 { showOnceLaidOut(row, always: false) }
        return row
    }

    private var revealClock: FrameClock?
    private weak var revealing: FieldRowView?
    private var revealingAlways = false

    /// A row built on demand, or by the last idle step, is not laid out yet, so neither GTK's
    /// viewport (when it takes keyboard focus now) nor `scrollToShow` can scroll to it: after the
    /// frame that lays it out, the page scrolls to it (`always`, or if keyboard focus is in it
    /// then). The last row asked for is the one.
    private func showOnceLaidOut(_ row: FieldRowView, always: Bool) {
        revealingAlways = always || (revealing === row && revealingAlways)
        revealing = row
        guard revealClock == nil, let clock = gtk_widget_get_frame_clock(scroller.widget) else { return }
        let frames = FrameClock(UnsafeMutableRawPointer(clock))
        revealClock = frames
        frames.onAfterPaint { [weak self] in
            guard let self else { return }
            if let row = self.revealing {
                guard row.root.height > 0 else { return }
                if self.revealingAlways || row.root.containsFocus { self.scroller.scrollToShow(row.root) }
            }
            self.revealing = nil
            self.revealClock = nil
        }
    }

    /// A field's row if it is built (asking whether keyboard focus is in it builds nothing).
    func builtRow(for field: String) -> FieldRowView? {
        if layout != nil { return shown?.fields.contains { $0.id == field } == true ? layoutRows[field] : nil }
        return rows.first { $0.id == field }
    }

    /// How many rows are built (the first of the page's fields), and whether that is all (tests).
    var builtRowCount: Int { rows.count }
    var rowsComplete: Bool { rows.count == fields.count }

    private func buildRows(upTo count: Int) {
        guard let host, rows.count < count else { return }
        for field in fields[rows.count..<count] {
            let row = FieldRowView(field, host: host)
            fieldsBox.append(row.root)
            rows.append(row)
        }
    }

    /// Builds the next rows when the loop is idle, until the page has them all.
    private func buildRemainingRows() {
        guard rows.count < fields.count, pendingRows == nil else { return }
        pendingRows = MainLoop.idle { [weak self] in
            guard let self else { return }
            self.pendingRows = nil
            self.buildRows(upTo: min(self.fields.count, self.rows.count + Self.rowsPerIdle))
            self.buildRemainingRows()
        }
    }

    /// The entry of a text field on this page, if shown.
    func entry(for field: String) -> Entry? {
        row(for: field)?.entry
    }

    func update(_ page: PagePresentation) {
        guard page != shown else { return }
        shown = page
        if let layout {
            layout.title?.text = page.title ?? ""
            layout.body?.text = page.body ?? ""
            let visible = Set(page.fields.map(\.id))
            for (id, row) in layoutRows { row.setShown(visible.contains(id)) }
            for field in page.fields { layoutRows[field.id]?.update(field) }
            return
        }
        title.text = page.title ?? ""
        title.isVisible = page.title != nil
        body.text = page.body ?? ""
        body.isVisible = page.body != nil
        // Fields appear and disappear with `visibleIf`: rebuild the rows when the list changes.
        if fields.map(\.id) != page.fields.map(\.id) {
            for row in rows { fieldsBox.remove(row.root) }
            rows.removeAll()
            pendingRows = nil
            fields = page.fields
            buildRows(upTo: min(fields.count, Self.rowsAtOnce))
            buildRemainingRows()
        } else {
            fields = page.fields
            for (row, field) in zip(rows, fields) { row.update(field) }
        }
        fieldsBox.isVisible = !fields.isEmpty
    }
}
