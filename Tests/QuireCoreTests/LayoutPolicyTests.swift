import Foundation
import QuireCore
import Testing

/// The layout policy (issue 19): what a page's `.ui` file may hold, checked without GTK, with
/// every problem at LAYOUT:line:column. `quire run` applies the same check before GtkBuilder
/// reads a byte (QuireGtkTests' LayoutPolicyAgreementTests holds GTK to it).
@Suite struct LayoutPolicyTests {
    /// A one-page flow with a text field `name` and a toggle `on`, given as text with a folder so
    /// it can be checked against layouts.
    let flow: Flow = {
        let text =
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [{"id": "name", "kind": "text"}, {"id": "on", "kind": "toggle"}]}]}"#
        return try! Flow.load(json: text)
    }()

    func problems(_ ui: String) -> [String] {
        LayoutPolicy.problems(in: Array(ui.utf8), named: "p.ui", page: 0, of: flow).map(\.message)
    }

    /// A page root holding `children`, with the two fields' widgets after them.
    func layout(_ children: String, fields: Bool = true) -> String {
        let inputs = fields ? #"<child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child>"# : ""
        return "<interface>\n<object class=\"GtkBox\" id=\"page:root\">\n\(children)\(inputs)</object>\n</interface>\n"
    }

    @Test func theExampleLayoutsPass() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let flow = try Flow.load(contentsOf: root.appendingPathComponent("data/flows/layout-onboarding.json").path)
        #expect(flow.layoutProblems().isEmpty)
        #expect(problems(layout("")) == [])
    }

    @Test func propertiesThatNameFilesIconsOrResourcesAreRefused() {
        let refused = [
            ("GtkEntry", "primary-icon-name"), ("GtkEntry", "secondary-icon-name"), ("GtkEntry", "primary-icon-gicon"),
            ("GtkEntry", "primary-icon-paintable"), ("GtkEntry", "secondary_icon_paintable"), ("GtkButton", "icon-name"),
            ("GtkEntry", "im-module"), ("GtkText", "im-module"), ("GtkLabel", "use-markup"), ("GtkBox", "tooltip-markup"),
            ("GtkBox", "cursor"),
        ]
        for (className, property) in refused {
            let found = problems(
                layout("<child><object class=\"\(className)\"><property name=\"\(property)\">/etc/passwd</property></object></child>\n"))
            #expect(found.count == 1, "\(className).\(property): \(found)")
            #expect(found.first?.hasPrefix("p.ui:3:") == true, "\(found)")
            #expect(found.first?.contains("is not allowed in a layout") == true, "\(found)")
        }
        #expect(
            problems(layout(#"<child><object class="GtkEntry"><property name="primary-icon-name">x</property></object></child>"#))
                == [
                    "p.ui:3:43: the property 'primary-icon-name' is not allowed in a layout: it names an icon, a file, a URI or a resource, and a layout may not make GTK open anything"
                ])
    }

    @Test func nothingReachesTheApplicationsActionsOrMenus() {
        #expect(
            problems(layout(#"<child><object class="GtkButton"><property name="action-name">app.walkthrough</property></object></child>"#))
                == [
                    "p.ui:3:44: the property 'action-name' is not allowed in a layout: it would let a widget trigger the application's actions (a layout only shows fields; Quire binds widgets by id)"
                ])
        #expect(
            problems(layout(#"<child><object class="GtkCheckButton"><property name="action-target">'x'</property></object></child>"#)).count
                == 1)
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="extra-menu">m</property></object></child>"#))
                == ["p.ui:3:43: the property 'extra-menu' is not allowed in a layout: menus reach the application's actions"])
        let menu =
            #"<interface><menu id="m"><section><item><attribute name="action">app.quit</attribute></item></section></menu>"#
            + #"<object class="GtkBox" id="page:root"><child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child></object></interface>"#
        #expect(problems(menu) == ["p.ui:1:12: a <menu> is not allowed in a layout: menus reach the application's actions"])
        #expect(
            problems(#"<interface><object class="GMenu" id="page:root"/></interface>"#).first?.contains(
                "the type 'GMenu' is not allowed in a layout") == true)
    }

    @Test func noCodeSignalsExpressionsOrTemplates() {
        #expect(
            problems(layout(#"<child><object class="GtkButton"><signal name="clicked" handler="exit"/></object></child>"#))
                == ["p.ui:3:34: the layout connects the handler 'exit'; layouts cannot connect signals (Quire binds widgets by id)"])
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><binding name="label"><lookup name="x"/></binding></object></child>"#)).count
                == 1)
        #expect(
            problems(#"<interface><template class="Evil" parent="GtkBox"/></interface>"#)
                .contains("p.ui:1:12: a <template> is not allowed in a layout: it defines a class"))
        #expect(
            problems(layout(#"<child><object class="GtkLabel" type-func="gtk_label_get_type"/></child>"#))
                == ["p.ui:3:33: the attribute 'type-func' is not allowed on <object>: it names a function to call"])
        #expect(
            problems(
                layout(
                    #"<child><object class="GtkLabel"><property name="label" bind-source="name" bind-property="text"/></object></child>"#))
                == [
                    "p.ui:3:56: the attribute 'bind-source' is not allowed on <property>: bindings are not allowed in a layout",
                    "p.ui:3:75: the attribute 'bind-property' is not allowed on <property>: bindings are not allowed in a layout",
                ])
    }

    @Test func nothingIsLookedUpOutsideTheFile() {
        #expect(
            problems(
                #"<interface domain="gtk40"><object class="GtkBox" id="page:root"><child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child></object></interface>"#
            )
                == [
                    "p.ui:1:12: the attribute 'domain' is not allowed on <interface>: translations are looked up in catalogs outside the flow's folder; give texts in the flow"
                ])
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="label" translatable="yes">Hi</property></object></child>"#))
                .count == 1)
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="label" translatable="no">Hi</property></object></child>"#))
                == [])
        let doctype = "<!DOCTYPE interface [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>" + layout("")
        #expect(
            problems(doctype) == [
                "p.ui:1:1: not a well-formed layout: a DOCTYPE is not allowed in a layout (it can define entities and name outside files)"
            ])
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="label">&x;</property></object></child>"#))
                == [
                    "p.ui:3:56: not a well-formed layout: the entity '&x;' is not one GtkBuilder reads (only &lt; &gt; &amp; &quot; &apos; and character references)"
                ])
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="label">&lt;b&gt; &#x41;&#66;</property></object></child>"#))
                == [])
        #expect(
            problems(#"<interface><requires lib="gtk" version="4.99"/></interface>"#).contains(
                "p.ui:1:32: a layout requires GTK version 4.0, not '4.99'"))
    }

    @Test func valuesAreCheckedAsGtkReadsThem() {
        let cases: [(String, String?)] = [
            (#"<property name="spacing">12</property>"#, nil),
            (#"<property name="spacing">twelve</property>"#, "p.ui:3:56: GtkBox.spacing: 'twelve' is not a whole number"),
            (#"<property name="margin-top">32767</property>"#, "p.ui:3:59: GtkBox.margin-top: 32767 is not between 0 and 1000"),
            (
                #"<property name="orientation">diagonal</property>"#,
                "p.ui:3:60: GtkBox.orientation: 'diagonal' is not one of horizontal, vertical"
            ),
            (#"<property name="hexpand">Yes</property>"#, nil),
            (#"<property name="hexpand">maybe</property>"#, "p.ui:3:56: GtkBox.hexpand: 'maybe' is not true or false"),
            (#"<property name="opacity">0.5</property>"#, nil),
            (#"<property name="opacity">2</property>"#, "p.ui:3:56: GtkBox.opacity: 2 is not between 0.0 and 1.0"),
            (#"<property name="width_request">4001</property>"#, "p.ui:3:62: GtkBox.width-request: 4001 is not between -1 and 4000"),
        ]
        for (property, expected) in cases {
            let found = problems(layout("<child><object class=\"GtkBox\">\(property)</object></child>"))
            #expect(found == (expected.map { [$0] } ?? []), "\(property)")
        }
        #expect(
            problems(
                layout(#"<child><object class="GtkEntry"><property name="input-hints">spellcheck | lowercase</property></object></child>"#))
                == [])
        #expect(
            problems(layout(#"<child><object class="GtkEntry"><property name="input-hints">spellcheck|evil</property></object></child>"#))
                .count == 1)
        #expect(
            problems(layout(#"<child><object class="GtkBox"><property name="spacnig">1</property></object></child>"#))
                == ["p.ui:3:41: the property 'spacnig' is not one a GtkBox may set in a layout; did you mean 'spacing'?"])
    }

    @Test func objectReferencesMustNameObjectsOfTheLayout() {
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="mnemonic-widget">name</property></object></child>"#)) == [])
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><property name="mnemonic-widget">nowhere</property></object></child>"#))
                == ["p.ui:3:66: GtkLabel.mnemonic-widget: no object of the layout has the id 'nowhere'"])
        #expect(
            problems(layout(#"<child><object class="GtkCheckButton"><property name="group">name</property></object></child>"#))
                == ["p.ui:3:62: GtkCheckButton.group: 'name' is a GtkEntry, not GtkCheckButton"])
        let sizeGroup =
            #"<interface><object class="GtkSizeGroup"><widgets><widget name="name"/><widget name="x"/></widgets></object>"#
            + #"<object class="GtkBox" id="page:root"><child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child></object></interface>"#
        #expect(problems(sizeGroup) == ["p.ui:1:79: GtkSizeGroup's widget: no object of the layout has the id 'x'"])
    }

    @Test func childrenAreWhatEachContainerTakes() {
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><child><object class="GtkBox"/></child></object></child>"#))
                == ["p.ui:3:33: a GtkLabel takes no children"])
        #expect(
            problems(
                layout(
                    #"<child><object class="GtkFrame"><child><object class="GtkBox"/></child><child><object class="GtkBox"/></child></object></child>"#
                ))
                == ["p.ui:3:72: a GtkFrame takes at most 1 child"])
        #expect(
            problems(
                layout(
                    #"<child><object class="GtkCenterBox"><child type="start"><object class="GtkBox"/></child><child type="middle"><object class="GtkBox"/></child></object></child>"#
                ))
                == ["p.ui:3:96: a GtkCenterBox takes no child of type 'middle' (its child types: center, end, start)"])
        #expect(
            problems(layout(#"<child internal-child="entry"><object class="GtkText"/></child>"#))
                == ["p.ui:3:8: the attribute 'internal-child' is not allowed on <child>: a layout builds its own widgets only"])
        #expect(
            problems(layout(#"<child><object class="GtkSizeGroup"/></child>"#))
                == ["p.ui:3:8: a GtkSizeGroup is not a widget: it can only be a top-level object"])
        // <layout> only under a container whose layout has child properties (a grid, an overlay).
        #expect(
            problems(
                #"<interface><object class="GtkGrid" id="page:root"><child><object class="GtkEntry" id="name"><layout><property name="column">1</property></layout></object></child><child><object class="GtkSwitch" id="on"/></child></object></interface>"#
            ) == [])
        #expect(
            problems(layout(#"<child><object class="GtkLabel"><layout><property name="column">1</property></layout></object></child>"#))
                .first?.contains("the element <layout> is not allowed in <object>") == true)
    }

    @Test func depthAndObjectCountAreCapped() {
        // 12,000 nested boxes (the layout that overflowed GTK's stack): refused at the cap.
        let deep =
            "<interface>" + String(repeating: #"<object class="GtkBox"><child>"#, count: 12_000)
            + String(repeating: "</child></object>", count: 12_000) + "</interface>"
        let found = problems(deep)
        #expect(found.count == 1, "\(found.prefix(3))")
        #expect(found.first?.hasPrefix("p.ui:1:") == true)
        #expect(found.first?.contains("nested more than") == true, "\(found)")
        let nested =
            "<interface>" + String(repeating: #"<object class="GtkBox"><child>"#, count: 40)
            + String(repeating: "</child></object>", count: 40) + "</interface>"
        #expect(problems(nested).first == "p.ui:1:972: objects are nested more than 32 deep", "\(problems(nested))")
        let many = layout(String(repeating: #"<child><object class="GtkLabel"/></child>"#, count: 1_200))
        #expect(problems(many).contains { $0.hasSuffix("the layout has more than 1000 objects") })
    }

    @Test func longTextsAreRefusedAtTheirPosition() {
        let long = String(repeating: "x", count: 2_001)
        #expect(
            problems(layout("<child><object class=\"GtkLabel\"><property name=\"label\">\(long)</property></object></child>"))
                == [
                    "p.ui:3:56: GtkLabel.label: the text is 2001 characters long; a layout's texts have at most 2000 (a longer text takes seconds to lay out)"
                ])
        let fits = String(repeating: "語", count: 2_000)
        #expect(problems(layout("<child><object class=\"GtkLabel\"><property name=\"label\">\(fits)</property></object></child>")) == [])
    }

    @Test func bindingsAreCheckedAgainstThePageWithPositions() {
        #expect(
            problems(
                layout(
                    #"<child><object class="GtkSwitch" id="name"/></child><child><object class="GtkLabel" id="nmae:error"/></child>"#,
                    fields: false))
                == [
                    "p.ui:3:8: the widget 'name' is a GtkSwitch, but a text field binds to a GtkEntry or GtkText",
                    "p.ui:3:60: the id 'nmae:error' is not a field of page 'p'; did you mean 'name:error'?",
                    "p.ui:2:1: the field 'on' has no widget in the layout (give its input widget the id 'on')",
                ])
        #expect(
            problems(
                #"<interface><object class="GtkBox"><child><object class="GtkBox" id="page:root"><child><object class="GtkEntry" id="name"/></child><child><object class="GtkSwitch" id="on"/></child></object></child></object></interface>"#
            )
                == ["p.ui:1:42: the widget 'page:root' is inside another widget; it must be a top-level object of the layout"])
        #expect(
            problems(
                layout(
                    #"<child><object class="GtkLabel" id="page:title"/></child><child><object class="GtkLabel" id="page:title"/></child>"#))
                == ["p.ui:3:90: the id 'page:title' is used twice (first at 3:8)"])
    }

    @Test func aFileThatIsNotWellFormedIsOneProblem() {
        #expect(
            problems(#"<interface><object class="GtkBox" id="page:root"></interface>"#) == [
                "p.ui:1:50: not a well-formed layout: </interface> does not close <object> (opened at 1:12)"
            ])
        #expect(problems("") == ["p.ui:1:1: not a well-formed layout: the file has no element"])
        #expect(problems("<interface>\u{0}</interface>").first?.contains("NUL") == true)
        #expect(
            LayoutPolicy.problems(in: [0x3C, 0x69, 0xFF, 0x3E], named: "p.ui", page: 0, of: flow).map(\.message) == [
                "p.ui:1:3: not a well-formed layout: the file is not valid UTF-8"
            ])
    }

    @Test func aLayoutListsItsFirstTwentyProblems() {
        let many = layout(String(repeating: #"<child><object class="GtkImage"/></child>"#, count: 30))
        let found = problems(many)
        #expect(found.count == 21)
        #expect(found.last == "p.ui: … and 10 more problems (a layout lists its first 20)")
    }

    /// `Flow.layoutDiagnostics`: problems at the page's `layout` key of the flow file, then the
    /// layout's own position.
    @Test func aFlowFilesLayoutProblemsArePlacedAtItsLayoutKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-policy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/ui", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text =
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "ui/p.ui", "fields": [{"id": "name", "kind": "text"}, {"id": "on", "kind": "toggle"}]}]}"#
        try text.write(toFile: folder + "/flow.json", atomically: true, encoding: .utf8)
        try layout(#"<child><object class="GtkEntry"><property name="primary-icon-name">x</property></object></child>"#)
            .write(toFile: folder + "/ui/p.ui", atomically: true, encoding: .utf8)
        let flow = try Flow.load(contentsOf: folder + "/flow.json")
        let diagnostics = flow.layoutDiagnostics(file: "flow.json", bytes: Array(text.utf8))
        #expect(
            diagnostics.map(\.description) == [
                "flow.json:1:71: $.pages[0].layout: \(folder)/ui/p.ui:3:43: the property 'primary-icon-name' is not allowed in a layout: it names an icon, a file, a URI or a resource, and a layout may not make GTK open anything"
            ])
    }

    // MARK: Flow limits (bounded cost)

    @Test func displayStringsAndFieldsPerPageAreCapped() throws {
        let long = String(repeating: "é", count: 2_001)
        let flowText =
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "title": {"en": "ok", "ja": "\#(long)"}, "body": "\#(long)"}]}"#
        #expect(throws: DocumentError.self) { try Flow.load(json: flowText) }
        do {
            _ = try Flow.load(json: flowText, file: "f.json")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "f.json:1:89: $.pages[0].title.ja: title in 'ja' is 2001 characters long; a display string has at most 2000 (a longer text takes seconds to lay out)",
                    "f.json:1:2103: $.pages[0].body: body is 2001 characters long; a display string has at most 2000 (a longer text takes seconds to lay out)",
                ])
        }
        // 2,000 characters of three bytes each load (through the full path, which counts them).
        let fits = String(repeating: "語", count: 2_000)
        #expect(try Flow.load(json: #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "body": "\#(fits)"}]}"#).pages.count == 1)

        let fields = (0...1_000).map { #"{"id": "f\#($0)", "kind": "toggle"}"# }.joined(separator: ", ")
        do {
            _ = try Flow.load(
                json: #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [\#(fields)]}]}"#, file: "f.json")
            Issue.record("1,001 fields on a page loaded")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics.first?.message == "a page has at most 1000 fields (this one has 1001)")
            #expect(error.diagnostics.first?.path.description == "$.pages[0].fields[1000]")
        }
        let thousand = (0..<1_000).map { #"{"id": "f\#($0)", "kind": "toggle"}"# }.joined(separator: ", ")
        #expect(
            try Flow.load(json: #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [\#(thousand)]}]}"#).fields.count
                == 1_000)
    }
}
