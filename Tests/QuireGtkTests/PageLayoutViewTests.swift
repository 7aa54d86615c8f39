import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings
import QuireTestSupport

/// Pages laid out by GtkBuilder files (data/flows/layout-onboarding.json): the layout's own
/// widgets are bound to the fields, both ways; bad layouts are reported, never half-bound.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct PageLayoutViewTests {
    func open(page: Int) throws -> (WalkthroughView, TestWindow) {
        let view = WalkthroughView(host: SessionHost(Session(flow: try GtkTest.flow("layout-onboarding.json"))))
        let window = TestWindow(view.root)
        if page > 1 {
            // Past the profile page's gate.
            view.host.send(.tap(.indicatorPage(1)))
            view.host.send(.settle)
            view.host.send(.tap(.field("userName")))
            view.host.send(.type("Aki"))
        }
        view.host.send(.tap(.indicatorPage(page)))
        view.host.send(.settle)
        Toolkit.iterate()
        return (view, window)
    }

    func buildableID(_ widget: Widget) -> String? {
        quire_buildable_id(widget.pointer).map { String(cString: $0) }
    }

    @Test func typingIntoTheLayoutsEntryChangesTheSessionAndTheSessionSetsIt() throws {
        let (view, window) = try open(page: 1)
        defer { window.close() }
        let row = try #require(view.pager.row(for: "userName", onPage: 1))
        // The row is the layout's own GtkEntry, not a built-in one.
        #expect(Borrowed(row.root.pointer).typeName == "GtkEntry")
        #expect(buildableID(row.root) == "userName")
        #expect(row.activate())
        #expect(view.host.session.focusedField == "userName")
        #expect(row.typeIntoEntry("Aki"))
        #expect(view.host.session.state["values"]?["userName"] == .string("Aki"))
        // A change made by the session (not the entry) shows in the entry.
        view.host.send(.key(.backSpace))
        #expect(row.entry?.text == "Ak")
    }

    @Test func theErrorLabelShowsOnlyWhileTheFieldHasAnError() throws {
        let (view, window) = try open(page: 1)
        defer { window.close() }
        let entry = try #require(view.pager.row(for: "userName", onPage: 1)?.root)
        let error = try #require(gtk_widget_get_next_sibling(entry.widget))
        #expect(String(cString: gtk_buildable_get_buildable_id(OpaquePointer(error))) == "userName:error")
        #expect(gtk_widget_get_visible(error) == 0)
        view.host.send(.tap(.button(.next)))  // refused: the name is required
        #expect(gtk_widget_get_visible(error) != 0)
        #expect(String(cString: gtk_label_get_text(quire_label(error))) == "Required")
        view.host.send(.tap(.field("userName")))
        view.host.send(.type("A"))
        #expect(gtk_widget_get_visible(error) == 0)
    }

    @Test func aCheckButtonTogglesTheFieldAndHidesWhatDependsOnIt() throws {
        let (view, window) = try open(page: 2)
        defer { window.close() }
        let toggle = try #require(view.pager.row(for: "reminders", onPage: 2))
        #expect(Borrowed(toggle.root.pointer).typeName == "GtkCheckButton")
        let note = try #require(view.pager.row(for: "breakNote", onPage: 2))
        #expect(Borrowed(note.root.pointer).typeName == "GtkEntry")
        #expect(note.root.isVisible)
        #expect(toggle.activate())  // a click on the box
        #expect(view.host.session.state["values"]?["reminders"] == .bool(false))
        #expect(gtk_check_button_get_active(quire_check_button(toggle.root.pointer)) == 0)
        // breakNote is visible only while reminders are on: its widgets hide with it.
        #expect(!note.root.isVisible)
        #expect(view.pager.row(for: "breakNote", onPage: 2) == nil)
        view.host.send(.tap(.field("reminders")))
        #expect(gtk_check_button_get_active(quire_check_button(toggle.root.pointer)) != 0)
        #expect(note.root.isVisible)
    }

    @Test func theDurationButtonOpensThePickerAndShowsTheValue() throws {
        let (view, window) = try open(page: 2)
        defer { window.close() }
        let row = try #require(view.pager.row(for: "focusTime", onPage: 2))
        #expect(buildableID(row.root) == "focusTime")
        #expect(row.activate())
        #expect(view.host.session.focusedField == "focusTime")
        view.host.send(.spin(component: .minutes, by: 1))
        view.host.send(.tap(.accessory(.done)))
        let child = try #require(gtk_button_get_child(quire_button(row.root.pointer)))
        #expect(String(cString: gtk_label_get_text(quire_label(child))) == "30 min")
    }

    // MARK: Bad layouts

    /// Problems of a one-page flow whose page has fields `name` (text) and `on` (toggle) and the
    /// layout `ui`, the layout named `p.ui` (not the temporary folder it is in). The core's
    /// layout policy (`LayoutPolicy`) finds most of them, at their line and column, before GTK
    /// reads the file; GTK's own checks come after.
    func problems(_ ui: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-ui-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "p.ui", "fields": [{"id": "name", "kind": "text"}, {"id": "on", "kind": "toggle"}]}]}"#
            .write(toFile: folder + "/flow.json", atomically: true, encoding: .utf8)
        try ui.write(toFile: folder + "/p.ui", atomically: true, encoding: .utf8)
        let flow = try Flow.load(contentsOf: folder + "/flow.json")
        return try #require(LayoutCheck.problems(in: flow)).map { $0.replacingOccurrences(of: folder + "/", with: "") }
    }

    let inputs = #"<child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child>"#

    func layout(_ children: String) -> String {
        #"<interface><object class="GtkBox" id="page:root">\#(children)</object></interface>"#
    }

    @Test func aGoodLayoutHasNoProblems() throws {
        #expect(
            try problems(layout(#"<child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child>"#))
                == [])
    }

    @Test func unknownIdsWrongTypesAndMissingFieldsAreAllListed() throws {
        let found = try problems(
            layout(
                #"""
                <child><object class="GtkSwitch" id="name"/></child>
                <child><object class="GtkLabel" id="nmae:error"/></child>
                """#))
        #expect(
            found == [
                "$.pages[0].layout: p.ui:1:57: the widget 'name' is a GtkSwitch, but a text field binds to a GtkEntry or GtkText",
                "$.pages[0].layout: p.ui:2:8: the id 'nmae:error' is not a field of page 'p'; did you mean 'name:error'?",
                "$.pages[0].layout: p.ui:1:12: the field 'on' has no widget in the layout (give its input widget the id 'on')",
            ])
    }

    @Test func aLayoutCannotConnectSignals() throws {
        let found = try problems(
            layout(inputs + #"<child><object class="GtkButton"><signal name="clicked" handler="exit"/></object></child>"#))
        #expect(
            found == [
                "$.pages[0].layout: p.ui:1:184: the layout connects the handler 'exit'; layouts cannot connect signals (Quire binds widgets by id)"
            ])
    }

    @Test func aLayoutCannotCreateTypesOutsideTheList() throws {
        let found = try problems(
            layout(inputs + #"<child><object class="GtkImage"><property name="file">/etc/passwd</property></object></child>"#))
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix("$.pages[0].layout: p.ui:1:158: the type 'GtkImage' is not allowed in a layout (allowed: ") == true,
            "\(found)")
    }

    @Test func aFileThatIsNotWellFormedIsRefusedBeforeGtkReadsIt() throws {
        let found = try problems("<interface><object class=\"GtkBox\" id=\"page:root\"></interface>")
        #expect(found == ["$.pages[0].layout: p.ui:1:50: not a well-formed layout: </interface> does not close <object> (opened at 1:12)"])
    }

    @Test func theRootMustBeATopLevelObject() throws {
        let found = try problems(
            #"""
            <interface><object class="GtkBox"><child><object class="GtkBox" id="page:root">
              <child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child>
            </object></child></object></interface>
            """#)
        #expect(
            found == [
                "$.pages[0].layout: p.ui:1:42: the widget 'page:root' is inside another widget; it must be a top-level object of the layout"
            ])
    }
}

/// `quire run` loads a flow's layouts before it opens a window.
@Suite(.serialized) struct LayoutRunCommandTests {
    func run(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
        let run = try runProcess(RunCommandTests.binary, arguments, environment: environment)
        return (run.status, run.stderr)
    }

    @Test(GtkTest.enabled) func aLayoutWithProblemsIsBadInputBeforeAnyWindow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-run-ui-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "p.ui", "fields": [{"id": "name", "kind": "text"}]}]}"#
            .write(toFile: folder + "/flow.json", atomically: true, encoding: .utf8)
        try #"<interface><object class="GtkBox" id="page:root"><child><object class="GtkSwitch" id="name"/></child></object></interface>"#
            .write(toFile: folder + "/p.ui", atomically: true, encoding: .utf8)
        let (status, stderr) = try run(["run", folder + "/flow.json"], environment: ProcessInfo.processInfo.environment)
        #expect(status == 2)
        // The core's check, as `quire check` prints it, before GTK is started.
        #expect(
            stderr
                == "\(folder)/flow.json:1:71: $.pages[0].layout: \(folder)/p.ui:1:57: the widget 'name' is a GtkSwitch, but a text field binds to a GtkEntry or GtkText\n"
        )
    }

    @Test func aLayoutFlowWithoutADisplayExitsThree() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let flow = GtkTest.packageRoot.appendingPathComponent("data/flows/layout-onboarding.json").path
        let (status, stderr) = try run(["run", flow], environment: environment)
        #expect(status == 3)
        #expect(stderr.contains("cannot open a display"))
    }
}
