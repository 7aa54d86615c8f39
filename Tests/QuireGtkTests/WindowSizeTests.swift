import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// Window sizes (docs/gtk-shell.md, "Window sizes"): usable from 360×640 to 1920×1080 — the
/// walkthrough fits 360 px, a picker never resizes the window, the panel and the page content are
/// clamped on a wide window, and a page with many fields scrolls with Next on screen. Sizes are
/// read from real windows on the test display (GTK's measure and allocation).
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct WindowSizeTests {
    /// A widget's minimum width (GTK's measure).
    func minimumWidth(_ widget: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return minimum
    }

    /// A widget's bounds in the coordinates of `target`.
    func bounds(_ widget: Widget, in target: Widget) -> (x: Double, y: Double, width: Double, height: Double)? {
        var rect = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget.widget, target.widget, &rect) != 0 else { return nil }
        return (Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height))
    }

    /// Moves the demo to a page (its Name is required to leave page 1) and waits for the field's row.
    func go(_ view: WalkthroughView, _ window: TestWindow, toPage page: Int, field: String) {
        if page > 1 && view.host.session.value(of: "userName") != .string("Ada") {
            view.host.send(.tap(.indicatorPage(1)))
            view.host.send(.settle)
            view.host.send(.tap(.field("userName")))
            view.host.send(.type("Ada"))
            view.host.send(.tap(.background))
        }
        view.host.send(.tap(.indicatorPage(page)))
        view.host.send(.settle)
        window.wait { view.host.session.currentIndex == page && view.pager.row(for: field, onPage: page) != nil }
        Toolkit.run(milliseconds: 50)
    }

    func windowSize(_ window: TestWindow) -> (Int32, Int32) {
        let widget = quire_widget(window.window.pointer)
        return (gtk_widget_get_width(widget), gtk_widget_get_height(widget))
    }

    /// Every page of every flow in data/flows, in English and Japanese, and the whole walkthrough
    /// on its first page, need at most 360 px (GNOME Mobile's width).
    @Test func everyPageOfEveryFlowFits360Pixels() throws {
        let folder = GtkTest.packageRoot.appendingPathComponent("data/flows").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 10)
        var widest: [String] = []
        for name in names {
            let flow = try GtkTest.flow(name)
            for locale in ["en", "ja"] {
                let host = SessionHost(Session(flow: flow, locale: locale))
                let view = WalkthroughView(host: host)
                let whole = minimumWidth(view.root.widget)
                if whole > 360 { widest.append("\(name) \(locale) walkthrough: \(whole) px") }
                for index in 0..<host.session.pagerPresentation.count {
                    guard let page = host.session.presentPage(at: index) else { continue }
                    let pageView = PageView(page, host: host)
                    let width = minimumWidth(pageView.root.widget)
                    if width > 360 { widest.append("\(name) \(locale) page \(index): \(width) px") }
                }
            }
        }
        #expect(widest.isEmpty, "wider than 360 px: \(widest.joined(separator: "; "))")
    }

    /// A window asked for 300 px gets no wider than 360, and the demo's pickers fit it.
    @Test func theWalkthroughWindowGoesDownTo360Pixels() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"), locale: "ja")))
        let window = TestWindow(view.root, width: 300, height: 640)
        defer { window.close() }
        let (width, _) = windowSize(window)
        #expect(width <= 360, "the window is \(width) px wide")
        #expect(view.root.width <= 360)
        go(view, window, toPage: 2, field: "focusTime")
        view.host.send(.tap(.field("focusTime")))
        #expect(view.host.session.focusedField == "focusTime")
        window.wait { view.input.revealer.childRevealed }
        #expect(minimumWidth(view.input.revealer.widget) <= 360)
        #expect(windowSize(window).0 == width)
    }

    /// Opening and closing each picker of the demo, at its minimum size and at 520×680, leaves
    /// the window as it was — and the field stays above the panel.
    @Test func openingAPickerNeverResizesTheWindow() throws {
        for (requested, locale) in [((Int32(300), Int32(300)), "en"), ((300, 640), "ja"), ((520, 680), "en")] {
            let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"), locale: locale)))
            let window = TestWindow(view.root, width: requested.0, height: requested.1)
            defer { window.close() }
            let before = windowSize(window)
            for (page, field) in [(1, "feedLanguage"), (2, "focusTime")] {
                go(view, window, toPage: page, field: field)
                view.host.send(.tap(.field(field)))
                #expect(view.host.session.focusedField == field)
                window.wait { view.input.revealer.childRevealed }
                Toolkit.run(milliseconds: 300)
                #expect(windowSize(window) == before, "\(field) at \(requested): \(windowSize(window)) after \(before)")
                // The chrome stays inside the window.
                if let next = bounds(view.chrome.nextButton, in: view.root) {
                    #expect(next.y + next.height <= Double(view.root.height) + 0.5)
                }
                if requested.1 >= 640, let row = view.pager.row(for: field, onPage: page),
                    let field = bounds(row.root, in: view.root), let panel = bounds(view.input.revealer, in: view.root)
                {
                    #expect(field.y + field.height <= panel.y + 0.5, "the field \(field) is under the panel \(panel) at \(requested)")
                }
                view.host.send(.tap(.accessory(.done)))
                window.wait { !view.input.revealer.isVisible }
                Toolkit.run(milliseconds: 300)
                #expect(windowSize(window) == before)
            }
        }
    }

    /// On a wide window the panel is clamped: its toolbar's Cancel and Done stay within 600 px,
    /// the panel is centred, and so is the page's content; the sheet under it spans the window,
    /// so it covers the bottom bar from edge to edge (it used to cover the dots only). (The test display is 1280 px wide;
    /// the real-input case `size/wide-1920` checks 1920×1080.)
    @Test func aWideWindowClampsThePanelAndThePage() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("focus-onboarding.json"))))
        let window = TestWindow(view.root, width: 1280, height: 720)
        defer { window.close() }
        #expect(view.root.width == 1280)
        let middle = Double(view.root.width) / 2
        go(view, window, toPage: 2, field: "focusTime")
        view.host.send(.tap(.field("focusTime")))
        window.wait { view.input.revealer.childRevealed }
        Toolkit.run(milliseconds: 100)
        let cancel = try #require(view.input.accessory.button(for: .cancel).flatMap { bounds($0, in: view.root) })
        let done = try #require(view.input.accessory.button(for: .done).flatMap { bounds($0, in: view.root) })
        let apart = done.x + done.width - cancel.x
        #expect(apart > 100 && apart <= Double(InputPanelView.maximumWidth), "Cancel to Done: \(apart) px")
        let sheet = try #require(bounds(view.input.revealer, in: view.root))
        #expect(sheet.width == Double(view.root.width))
        #expect(sheet.y < Double(try #require(bounds(view.chrome.bar, in: view.root)).y))
        #expect(abs((cancel.x + done.x + done.width) / 2 - middle) <= 1)
        let row = try #require(view.pager.row(for: "focusTime", onPage: 2).flatMap { bounds($0.root, in: view.root) })
        #expect(row.width <= Double(PageView.maximumWidth - 2 * PageView.sideMargin))
        #expect(abs(row.x + row.width / 2 - middle) <= 1)
    }

    /// A flow of one page with `count` text fields.
    func manyFields(_ count: Int) throws -> Flow {
        let fields = (0..<count).map { #"{"id": "f\#($0)", "kind": "text", "label": "Field \#($0)"}"# }.joined(separator: ", ")
        return try GtkTest.flow(
            json:
                #"{"format": "quire.flow/1", "id": "many", "pages": [{"id": "p", "title": "Many", "fields": [\#(fields)]}, {"id": "q", "title": "Next"}]}"#
        )
    }

    /// A page of 400 fields and one of 1,000 (the most a page may hold, `Flow.maxFieldsPerPage`)
    /// scroll: the window shows within a few seconds at its size, and Next is on screen.
    @Test func aPageWithManyFieldsScrollsWithNextOnScreen() throws {
        for count in [400, Flow.maxFieldsPerPage] {
            let started = g_get_monotonic_time()
            let view = WalkthroughView(host: SessionHost(Session(flow: try manyFields(count))))
            let window = TestWindow(view.root, width: 360, height: 640)
            defer { window.close() }
            let seconds = Double(g_get_monotonic_time() - started) / 1e6
            #expect(seconds < 5, "\(count) fields: the window took \(seconds) s")
            #expect(windowSize(window).1 <= 640)
            let next = try #require(bounds(view.chrome.nextButton, in: view.root))
            #expect(next.y >= 0 && next.y + next.height <= Double(view.root.height))
            #expect(next.x >= 0 && next.x + next.width <= Double(view.root.width))
            // The last field is reached by scrolling the page (its row built first if it was not).
            let page = try #require(view.pager.pageView(at: 0))
            page.scrollToShow(field: "f\(count - 1)")
            let last = try #require(view.pager.row(for: "f\(count - 1)", onPage: 0))
            Toolkit.run(milliseconds: 10_000) { page.scroller.offset > 1000 }
            Toolkit.run(milliseconds: 100)
            let shown = try #require(bounds(last.root, in: page.scroller))
            #expect(shown.y >= 0 && shown.y + shown.height <= Double(page.scroller.height))
            #expect(page.scroller.offset > 1000)
        }
    }

    /// Long unbroken runs get break opportunities (U+200B every 24 characters past 48), and
    /// nothing else changes.
    @Test func longRunsGetBreakOpportunities() {
        #expect(LineBreaks.breakable("A short title") == nil)
        #expect(LineBreaks.breakable(String(repeating: "word ", count: 400)) == nil)
        #expect(LineBreaks.breakable(String(repeating: "x", count: 48)) == nil)
        let long = String(repeating: "x", count: 2_000)
        let shown = try! #require(LineBreaks.breakable("Go " + long + " now"))
        #expect(shown.filter { $0 == "\u{200B}" }.count == 1_999 / 24)
        #expect(shown.replacingOccurrences(of: "\u{200B}", with: "") == "Go " + long + " now")
        // A wrapped label keeps the text as set, and so does its accessible name.
        let label = Label()
        label.setWrap()
        label.text = long
        #expect(label.text == long)
        #expect(String(cString: gtk_label_get_text(quire_label(label.pointer))) != long)
    }

    /// A page whose title, body, text field label and placeholder are each 2,000 characters
    /// without a space (`Flow.maxDisplayCharacters`) shows at 360×640 within 3 s in a debug build
    /// (1.8 s measured; each of those labels took 2–4 s alone before break opportunities were
    /// added, about 10 s together; docs/gtk-shell.md, "Window sizes").
    @Test func textsAtTheDisplayLimitShowQuickly() throws {
        let text = String(repeating: "x", count: Flow.maxDisplayCharacters)
        let flow = try GtkTest.flow(
            json:
                #"{"format": "quire.flow/1", "id": "long", "pages": [{"id": "p", "title": "\#(text)", "body": "\#(text)", "fields": [{"id": "f", "kind": "text", "label": "\#(text)", "placeholder": "\#(text)"}]}, {"id": "q", "title": "\#(text)"}]}"#
        )
        let started = g_get_monotonic_time()
        let view = WalkthroughView(host: SessionHost(Session(flow: flow)))
        let window = TestWindow(view.root, width: 360, height: 640)
        defer { window.close() }
        let seconds = Double(g_get_monotonic_time() - started) / 1e6
        #expect(seconds < 3, "the window took \(seconds) s")
        #expect(windowSize(window).0 <= 360)
        let next = try #require(bounds(view.chrome.nextButton, in: view.root))
        #expect(next.y + next.height <= Double(view.root.height))
    }
}
