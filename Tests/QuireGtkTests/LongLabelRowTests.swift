import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// A field's label longer than 80 characters (`FieldPresentation.stacksLabel`) is shown above its
/// control across the row, with a minimum width of 20 characters; a short one stays beside it
/// (docs/gtk-shell.md, "Window sizes"). Laid out in a real 360×640 window on the test display.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct LongLabelRowTests {
    static let long = String(repeating: "x", count: Flow.maxDisplayCharacters)

    /// A page whose title, body, text field (label and placeholder), duration, choice (and an
    /// option) and toggle are `long`, with a duration, a choice and a toggle labelled "Short"
    /// (`short-labels.json` is its twin with short texts, for the first-frame figures in
    /// docs/performance.md).
    static let flowFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("EndToEnd/long-labels.json")

    func flow() throws -> Flow { try Flow.load(contentsOf: Self.flowFile.path) }

    typealias Rect = (x: Double, y: Double, width: Double, height: Double)

    func bounds(_ widget: Widget, in target: Widget) -> Rect? {
        var rect = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget.widget, target.widget, &rect) != 0 else { return nil }
        return (Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height))
    }

    func minimumWidth(_ widget: Widget) -> Int32 {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_measure(widget.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return minimum
    }

    /// The label's and the control's bounds in the row.
    func parts(_ row: FieldRowView) -> (label: Rect, control: Rect, row: Double)? {
        guard let control = row.ownWidget, let label = bounds(row.label, in: row.root), let shown = bounds(control, in: row.root) else {
            return nil
        }
        return (label, shown, Double(row.root.width))
    }

    func isStacked(_ row: FieldRowView) -> Bool {
        guard let (label, control, width) = parts(row) else { return false }
        // Above: the control starts below the label's end; across: the label spans the row;
        // the control at the row's end.
        return label.y + label.height <= control.y && label.width >= width - 1 && abs(control.x + control.width - width) < 1
    }

    func isBeside(_ row: FieldRowView) -> Bool {
        guard let (label, control, _) = parts(row) else { return false }
        return label.x + label.width <= control.x && label.y < control.y + control.height && control.y < label.y + label.height
    }

    @Test func aLongLabelIsShownAboveItsControlAndAShortOneBesideIt() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try flow())))
        let window = TestWindow(view.root, width: 360, height: 640)
        defer { window.close() }
        #expect(gtk_widget_get_width(quire_widget(window.window.pointer)) <= 360)
        for id in ["d", "c", "g"] {
            let row = try #require(view.pager.row(for: id, onPage: 0))
            #expect(isStacked(row), "\(id): \(String(describing: parts(row)))")
            #expect(!isBeside(row))
            // At least 20 characters wide (not one, which GTK lays out line by line), and narrower
            // than the 312 px a row has at 360 px.
            #expect((100...312).contains(minimumWidth(row.label)), "\(id): \(minimumWidth(row.label)) px")
            // The whole text, as set (the zero-width spaces are the label's display only).
            #expect(row.label.text == Self.long)
        }
        let text = try #require(view.pager.row(for: "t", onPage: 0))
        #expect((100...312).contains(minimumWidth(text.label)))
        for id in ["ds", "cs", "gs"] {
            let row = try #require(view.pager.row(for: id, onPage: 0))
            #expect(isBeside(row), "\(id): \(String(describing: parts(row)))")
            #expect(!isStacked(row))
            #expect(minimumWidth(row.label) < 100)
        }
    }

    /// A row follows its label: one that becomes long moves above the control, and back beside
    /// it when it is short again (a label changes with the language).
    @Test func aRowFollowsItsLabelsLength() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try flow())))
        let window = TestWindow(view.root, width: 360, height: 640)
        defer { window.close() }
        let page = try #require(view.host.session.presentPage(at: 0))
        for id in ["ds", "cs", "gs"] {
            let row = try #require(view.pager.row(for: id, onPage: 0))
            var field = try #require(page.fields.first { $0.id == id })
            field.label = String(repeating: "word ", count: 40)
            row.update(field)
            window.wait { isStacked(row) }
            #expect(isStacked(row), "\(id) with a long label: \(String(describing: parts(row)))")
            field.label = "Short again"
            row.update(field)
            window.wait { isBeside(row) }
            #expect(isBeside(row), "\(id) with a short label again: \(String(describing: parts(row)))")
            #expect(row.label.text == "Short again")
        }
    }
}

extension EndToEndTests {
    /// What a screen reader reads of rows whose labels are 2,000 characters, shown above their
    /// controls: each label, the entry, the value buttons (label and value) and the switch carry
    /// the whole label as their accessible names, over AT-SPI.
    @Test func longLabelsReachAScreenReaderWhole() throws {
        let long = LongLabelRowTests.long
        let dumps = try walk(["wait check box:Short", "dump"], flow: LongLabelRowTests.flowFile.path)
        let dump = try #require(dumps.first)
        // The header bar's title (the page's), the page's title and body, four rows.
        #expect(dump.filter { $0.hasPrefix("label\t\(long)\t") }.count == 7)
        #expect(has(dump, "text", long))
        #expect(has(dump, "push button", "\(long): 25 min"))
        #expect(has(dump, "push button", "\(long): Not set"))
        #expect(has(dump, "check box", long))
        #expect(has(dump, "check box", "Short"))
    }
}
