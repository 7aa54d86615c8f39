import CGtk
import CGtkShim
import QuireCore
import Testing

@testable import QuireGtk
@testable import GtkBindings

/// A long page builds its first rows with the page and the rest when the loop is idle, after the
/// first frame (`PageView.rowsAtOnce`); a row something needs before then is built at once, in
/// the page's order, and keyboard focus landing on it and scrolling to it work as on a built row.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct LongPageTests {
    /// One page of `count` fields of every kind, then a short page.
    func longPage(_ count: Int = 320) throws -> Flow {
        let kinds = ["text", "toggle", "duration", "choice"]
        let fields = (0..<count).map { index -> String in
            let kind = kinds[index % 4]
            let options = kind == "choice" ? #", "options": [{"id": "a", "label": "Yes"}, {"id": "b", "label": "No"}]"# : ""
            return #"{"id": "f\#(index)", "kind": "\#(kind)", "label": "Question \#(index)"\#(options)}"#
        }
        return try GtkTest.flow(
            json:
                #"{"format": "quire.flow/1", "id": "long", "pages": [{"id": "p", "title": "Long", "fields": [\#(fields.joined(separator: ", "))]}, {"id": "q", "title": "Next"}]}"#
        )
    }

    @Test func theFirstRowsAreBuiltWithThePageAndTheRestWhenIdle() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try longPage())))
        let page = try #require(view.pager.pageView(at: 0))
        #expect(page.builtRowCount == PageView.rowsAtOnce)
        #expect(page.builtRow(for: "f\(PageView.rowsAtOnce)") == nil)
        let window = TestWindow(view.root, width: 360, height: 640)
        defer { window.close() }
        window.wait { page.rowsComplete }
        #expect(page.rowsComplete)
        #expect(page.builtRowCount == 320)
        // In the page's order, each with its own field.
        for index in [0, 23, 24, 200, 319] {
            #expect(page.builtRow(for: "f\(index)")?.id == "f\(index)")
        }
    }

    @Test func aRowAskedForBeforeItIsBuiltIsBuiltInOrder() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try longPage())))
        let page = try #require(view.pager.pageView(at: 0))
        let row = try #require(view.pager.row(for: "f300", onPage: 0))
        #expect(row.id == "f300")
        #expect(page.builtRowCount == 301)
        #expect(view.pager.builtRow(for: "f301", onPage: 0) == nil)
        // Asking where keyboard focus is builds nothing.
        #expect(view.focusedStop == nil)
        #expect(page.builtRowCount == 301)
    }

    @Test func keyboardFocusLandsOnAFieldFarDownAndThePageScrollsToIt() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try longPage())))
        let window = TestWindow(view.root, width: 360, height: 640)
        defer { window.close() }
        let page = try #require(view.pager.pageView(at: 0))
        view.host.send(.tap(.field("f316")))
        let entry = try #require(view.pager.row(for: "f316", onPage: 0)?.entry)
        let row = try #require(view.pager.row(for: "f316", onPage: 0))
        // In view above the input panel, once the panel is up.
        func inView() -> Bool {
            var rect = graphene_rect_t()
            guard gtk_widget_compute_bounds(row.root.widget, page.scroller.widget, &rect) != 0 else { return false }
            return rect.origin.y >= 0 && Double(rect.origin.y + rect.size.height) <= Double(page.scroller.height)
        }
        Toolkit.run(milliseconds: 10_000) { entry.containsFocus && page.scroller.offset > 1000 && inView() }
        #expect(view.host.session.focusedField == "f316")
        #expect(entry.containsFocus)
        #expect(inView())
        // Tab goes on along the chain (toggles are not in it) to the next field.
        #expect(view.press("Tab"))
        #expect(view.host.session.focusedField == "f318")
    }

    /// A session whose first responder is far down (as a resumed one may be): the window's first
    /// landing builds the rows up to it, before they are laid out, and the page scrolls to it.
    @Test func aFieldFocusedBeforeTheWindowShowsIsBuiltAndScrolledTo() throws {
        let view = WalkthroughView(host: SessionHost(Session(flow: try longPage())))
        view.host.send(.tap(.field("f300")))
        let page = try #require(view.pager.pageView(at: 0))
        let window = TestWindow(view.root, width: 360, height: 640)
        defer { window.close() }
        let entry = try #require(view.pager.row(for: "f300", onPage: 0)?.entry)
        Toolkit.run(milliseconds: 10_000) { entry.containsFocus && page.scroller.offset > 1000 }
        #expect(entry.containsFocus)
        #expect(page.scroller.offset > 1000)
    }
}
