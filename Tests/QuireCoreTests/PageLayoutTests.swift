import Foundation
import Testing

@testable import QuireCore

/// Page layouts (`"layout"` on a page): which paths may be used, where they are resolved, and
/// what the ids in a layout bind to. Everything here is decided by the core, without GTK.
@Suite struct PageLayoutTests {
    /// A folder with a flow whose page names `layout`, and whatever files `setUp` makes in it.
    func withFlowFolder(layout: String, _ setUp: (String) throws -> Void = { _ in }) throws -> (folder: String, file: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-layout-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/flow/pages", withIntermediateDirectories: true)
        let flow = """
            {"format": "quire.flow/1", "id": "f", "pages": [
              {"id": "p", "layout": \(JSONWriter.string(.string(layout))),
               "fields": [{"id": "name", "kind": "text"}, {"id": "on", "kind": "toggle"}, {"id": "when", "kind": "duration"}]},
              {"id": "q", "fields": [{"id": "later", "kind": "text"}]}
            ]}
            """
        try flow.write(toFile: folder + "/flow/flow.json", atomically: true, encoding: .utf8)
        try setUp(folder)
        return (folder, folder + "/flow/flow.json")
    }

    func problems(layout: String, _ setUp: (String) throws -> Void = { _ in }) throws -> [String] {
        let (folder, file) = try withFlowFolder(layout: layout, setUp)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            _ = try Flow.load(contentsOf: file)
            return []
        } catch {
            return error.diagnostics.map { "\($0.path): \($0.message)" }
        }
    }

    @Test func aLayoutInsideTheFlowsFolderLoadsAndTheFlowKeepsItsFolder() throws {
        let (folder, file) = try withFlowFolder(layout: "pages/p.ui") {
            try "<interface/>".write(toFile: $0 + "/flow/pages/p.ui", atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flow = try Flow.load(contentsOf: file)
        #expect(flow.pages[0].layout == "pages/p.ui")
        #expect(flow.folder == folder + "/flow")
        let found = try PageLayout.resolve("pages/p.ui", inFolder: flow.folder!).get()
        #expect(found.bytes == Array("<interface/>".utf8))
    }

    @Test func aMissingLayoutIsBadInputAtItsKey() throws {
        #expect(
            try problems(layout: "pages/missing.ui") == [
                "$.pages[0].layout: cannot read the layout 'pages/missing.ui': it does not exist"
            ])
    }

    @Test func pathsThatCouldLeaveTheFolderAreRejectedAsWritten() throws {
        #expect(
            try problems(layout: "/etc/passwd.ui") == [
                "$.pages[0].layout: the layout path '/etc/passwd.ui' is absolute; give a path relative to the flow's folder"
            ])
        #expect(
            try problems(layout: "../outside.ui") == [
                "$.pages[0].layout: the layout path '../outside.ui' contains '..'; a layout is resolved inside the flow's folder only"
            ])
        #expect(
            try problems(layout: "pages/../../outside.ui") == [
                "$.pages[0].layout: the layout path 'pages/../../outside.ui' contains '..'; a layout is resolved inside the flow's folder only"
            ])
        #expect(
            try problems(layout: "~/x.ui") == [
                "$.pages[0].layout: the layout path '~/x.ui' starts with '~'; give a path relative to the flow's folder"
            ])
        #expect(try problems(layout: "") == ["$.pages[0].layout: a layout path cannot be empty"])
        #expect(
            try problems(layout: "pages/p.xml") == [
                "$.pages[0].layout: the layout path 'pages/p.xml' does not name a .ui file (a GtkBuilder layout)"
            ])
        #expect(try problems(layout: "a\u{1}.ui") == ["$.pages[0].layout: the layout path contains a control character"])
    }

    @Test func aSymbolicLinkThatLeavesTheFolderIsRejected() throws {
        let found = try problems(layout: "pages/link.ui") { folder in
            try "<interface/>".write(toFile: folder + "/outside.ui", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/flow/pages/link.ui", withDestinationPath: "../../outside.ui")
        }
        #expect(
            found == [
                "$.pages[0].layout: the layout 'pages/link.ui' leaves the flow's folder through a symbolic link; a layout is resolved inside the flow's folder only"
            ])
        // A folder on the way that is a link out of the flow's folder is caught the same way.
        let throughFolder = try problems(layout: "elsewhere/p.ui") { folder in
            try FileManager.default.createDirectory(atPath: folder + "/other", withIntermediateDirectories: true)
            try "<interface/>".write(toFile: folder + "/other/p.ui", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/flow/elsewhere", withDestinationPath: "../other")
        }
        #expect(
            throughFolder == [
                "$.pages[0].layout: the layout 'elsewhere/p.ui' leaves the flow's folder through a symbolic link; a layout is resolved inside the flow's folder only"
            ])
    }

    @Test func aSymbolicLinkThatStaysInsideIsFollowed() throws {
        #expect(
            try problems(layout: "pages/link.ui") { folder in
                try "<interface/>".write(toFile: folder + "/flow/real.ui", atomically: true, encoding: .utf8)
                try FileManager.default.createSymbolicLink(atPath: folder + "/flow/pages/link.ui", withDestinationPath: "../real.ui")
            }.isEmpty)
    }

    @Test func aFolderADanglingLinkAndAnOversizedFileAreNamed() throws {
        #expect(
            try problems(layout: "pages/dir.ui") {
                try FileManager.default.createDirectory(atPath: $0 + "/flow/pages/dir.ui", withIntermediateDirectories: true)
            } == [
                "$.pages[0].layout: cannot read the layout 'pages/dir.ui': it is a directory"
            ])
        #expect(
            try problems(layout: "pages/dangling.ui") {
                try FileManager.default.createSymbolicLink(atPath: $0 + "/flow/pages/dangling.ui", withDestinationPath: "nowhere.ui")
            } == [
                "$.pages[0].layout: cannot read the layout 'pages/dangling.ui': it is a symbolic link to nothing (its target does not exist)"
            ])
        let big = PageLayout.maxBytes + 1
        #expect(
            try problems(layout: "pages/big.ui") { try Data(count: big).write(to: URL(fileURLWithPath: $0 + "/flow/pages/big.ui")) } == [
                "$.pages[0].layout: the layout 'pages/big.ui' is \(big) bytes; the limit is \(PageLayout.maxBytes)"
            ])
    }

    @Test func aFlowGivenAsTextHasNoFolderSoItsLayoutIsCheckedAsWrittenOnly() throws {
        let text = #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "pages/missing.ui"}]}"#
        let flow = try Flow.load(json: text)
        #expect(flow.folder == nil)
        #expect(flow.pages[0].layout == "pages/missing.ui")
        let bad = #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "../x.ui"}]}"#
        #expect(throws: DocumentError.self) { try Flow.load(json: bad) }
        let wrongType = #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": 3}]}"#
        #expect(throws: DocumentError.self) { try Flow.load(json: wrongType) }
    }

    // MARK: Ids and widgets

    func flow() throws -> Flow {
        try Flow.load(
            json: """
                {"format": "quire.flow/1", "id": "f", "pages": [
                  {"id": "p", "fields": [{"id": "name", "kind": "text"}, {"id": "on", "kind": "toggle"},
                                         {"id": "when", "kind": "duration"}, {"id": "pick", "kind": "choice", "options": [{"id": "a"}]}]},
                  {"id": "q", "fields": [{"id": "later", "kind": "text"}]}
                ]}
                """)
    }

    @Test func idsBindToThePagesFieldsTheirLabelsAndErrorsAndThePage() throws {
        let flow = try flow()
        #expect(try PageLayout.binding(forID: "name", page: 0, in: flow).get() == .input(field: 0))
        #expect(try PageLayout.binding(forID: "on:label", page: 0, in: flow).get() == .label(field: 1))
        #expect(try PageLayout.binding(forID: "when:error", page: 0, in: flow).get() == .error(field: 2))
        #expect(try PageLayout.binding(forID: "page:root", page: 0, in: flow).get() == .root)
        #expect(try PageLayout.binding(forID: "page:title", page: 1, in: flow).get() == .pageTitle)
    }

    @Test func unknownIdsAreReportedWithWhatWouldBeRight() throws {
        let flow = try flow()
        func message(_ id: String, page: Int = 0) -> String? {
            if case .failure(let problem) = PageLayout.binding(forID: id, page: page, in: flow) { return problem.message }
            return nil
        }
        #expect(message("nmae") == "the id 'nmae' is not a field of page 'p'; did you mean 'name'?")
        #expect(message("nmae:error") == "the id 'nmae:error' is not a field of page 'p'; did you mean 'name:error'?")
        #expect(message("zzzzzzzz") == "the id 'zzzzzzzz' is not a field of page 'p' (its fields are name, on, when, pick)")
        #expect(message("later") == "the id 'later' names a field of page 'q', not of page 'p'")
        #expect(
            message("name:hint")
                == "the id 'name:hint' is not one Quire binds (ids with ':' are page:root, page:title, page:body, FIELD:label, FIELD:error)"
        )
        #expect(
            message("page:footer")
                == "the id 'page:footer' is not one Quire binds (ids with ':' are page:root, page:title, page:body, FIELD:label, FIELD:error)"
        )
    }

    @Test func eachKindBindsToItsKindOfWidget() throws {
        let flow = try flow()
        func problem(_ binding: PageLayout.Binding, _ role: PageLayout.WidgetRole, _ type: String) -> String? {
            PageLayout.widgetProblem(id: "x", binding: binding, role: role, typeName: type, in: flow)?.message
        }
        #expect(problem(.input(field: 0), .textInput, "GtkEntry") == nil)
        #expect(problem(.input(field: 1), .toggle, "GtkCheckButton") == nil)
        #expect(problem(.input(field: 2), .button, "GtkButton") == nil)
        #expect(problem(.input(field: 3), .button, "GtkButton") == nil)
        #expect(problem(.root, .other, "GtkBox") == nil)
        #expect(
            problem(.input(field: 0), .toggle, "GtkSwitch")
                == "the widget 'x' is a GtkSwitch, but a text field binds to a GtkEntry or GtkText")
        #expect(
            problem(.input(field: 1), .textInput, "GtkEntry")
                == "the widget 'x' is a GtkEntry, but a toggle binds to a GtkSwitch or GtkCheckButton")
        #expect(
            problem(.input(field: 2), .label, "GtkLabel")
                == "the widget 'x' is a GtkLabel, but a duration field binds to a GtkButton (it opens the picker)")
        #expect(
            problem(.input(field: 3), .textInput, "GtkText")
                == "the widget 'x' is a GtkText, but a choice field binds to a GtkButton (it opens the picker)")
        #expect(problem(.error(field: 0), .button, "GtkButton") == "the widget 'x' is a GtkButton, but a field's error binds to a GtkLabel")
    }

    @Test func aLayoutMustHoldItsRootAndAnInputForEveryFieldOfThePage() throws {
        let flow = try flow()
        #expect(
            PageLayout.missing([.root, .input(field: 0), .input(field: 1), .input(field: 2), .input(field: 3)], page: 0, in: flow).isEmpty)
        #expect(
            PageLayout.missing([.input(field: 0), .input(field: 2), .input(field: 3)], page: 0, in: flow).map(\.message) == [
                "the layout has no widget with the id 'page:root' (the page's content)",
                "the field 'on' has no widget in the layout (give its input widget the id 'on')",
            ])
    }

    @Test func onlyListedTypesMayBeCreated() {
        #expect(PageLayout.typeProblem("GtkEntry") == nil)
        #expect(
            PageLayout.typeProblem("GtkImage")?.message.hasPrefix("the type 'GtkImage' is not allowed in a layout (allowed: GtkBox, ")
                == true)
        #expect(PageLayout.typeProblem("GtkWindow") != nil)
        #expect(PageLayout.typeProblem("GtkCssProvider") != nil)
    }
}
