import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// The core's layout policy (`LayoutPolicy`, what `quire check` applies without GTK) held to the
/// GTK that `quire run` builds layouts with: every class and property it allows exists in this
/// GTK with the type the policy reads its value as, every range fits GTK's, and a layout that
/// sets every allowed property of every class builds with no error and no warning (the suite
/// runs under G_DEBUG=fatal-warnings). So what check accepts, run builds.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct LayoutPolicyAgreementTests {
    // GLib's fundamental types (G_TYPE_MAKE_FUNDAMENTAL(n) = n << 2).
    static let boolean = GType(5 << 2), int = GType(6 << 2), uint = GType(7 << 2), enumeration = GType(12 << 2),
        flags = GType(13 << 2), float = GType(14 << 2), double = GType(15 << 2), string = GType(16 << 2), object = GType(20 << 2)

    func find(_ type: GType, _ property: String) -> UnsafeMutablePointer<GParamSpec>? {
        let klass = g_type_class_ref(type)
        defer { g_type_class_unref(klass) }
        return g_object_class_find_property(klass?.assumingMemoryBound(to: GObjectClass.self), property)
    }

    /// Why `spec` cannot take values of `value`; nil when it can.
    func mismatch(_ spec: UnsafeMutablePointer<GParamSpec>, _ value: LayoutPolicy.Value) -> String? {
        let type = spec.pointee.value_type
        let fundamental = g_type_fundamental(type)
        if spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue == 0 { return "not writable" }
        switch value {
        case .bool: return fundamental == Self.boolean ? nil : "not a boolean"
        case .int(let range):
            if fundamental == Self.uint {
                let uint = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecUInt.self).pointee
                return range.lowerBound >= 0 && Int(uint.minimum) <= range.lowerBound && range.upperBound <= Int(uint.maximum)
                    ? nil : "range \(range) outside \(uint.minimum)...\(uint.maximum)"
            }
            guard fundamental == Self.int else { return "not an int" }
            let int = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecInt.self).pointee
            return Int(int.minimum) <= range.lowerBound && range.upperBound <= Int(int.maximum)
                ? nil : "range \(range) outside \(int.minimum)...\(int.maximum)"
        case .double(let range):
            if fundamental == Self.double {
                let double = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecDouble.self).pointee
                return double.minimum <= range.lowerBound && range.upperBound <= double.maximum ? nil : "range outside GTK's"
            }
            if fundamental == Self.float {
                let float = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecFloat.self).pointee
                return Double(float.minimum) <= range.lowerBound && range.upperBound <= Double(float.maximum) ? nil : "range outside GTK's"
            }
            return "not a double"
        case .text, .name: return fundamental == Self.string ? nil : "not a string"
        case .choice(let nicks):
            guard fundamental == Self.enumeration else { return "not an enum" }
            let klass = g_type_class_ref(type)!.assumingMemoryBound(to: GEnumClass.self)
            defer { g_type_class_unref(klass) }
            let unknown = nicks.filter { g_enum_get_value_by_nick(klass, $0) == nil }
            return unknown.isEmpty ? nil : "no nick \(unknown)"
        case .flags(let nicks):
            guard fundamental == Self.flags else { return "not flags" }
            let klass = g_type_class_ref(type)!.assumingMemoryBound(to: GFlagsClass.self)
            defer { g_type_class_unref(klass) }
            let unknown = nicks.filter { g_flags_get_value_by_nick(klass, $0) == nil }
            return unknown.isEmpty ? nil : "no nick \(unknown)"
        case .object: return fundamental == Self.object ? nil : "not an object"
        }
    }

    @Test func everyAllowedClassAndPropertyIsGtksWithTheTypeThePolicyReads() {
        quire_layout_ensure_types()
        var problems: [String] = []
        for className in LayoutPolicy.classNames {
            let type = g_type_from_name(className)
            guard type != 0 else {
                problems.append("\(className): no such type")
                continue
            }
            #expect((g_type_is_a(type, gtk_widget_get_type()) != 0) == LayoutPolicy.classes[className]!.isWidget, "\(className)")
            for (property, value) in LayoutPolicy.properties(of: className).sorted(by: { $0.key < $1.key }) {
                guard let spec = find(type, property) else {
                    problems.append("\(className).\(property): no such property")
                    continue
                }
                if let why = mismatch(spec, value) { problems.append("\(className).\(property): \(why)") }
            }
        }
        // Child properties of <layout>: the containers' layout managers' child types.
        let layoutChildren = ["GtkGrid": gtk_grid_layout_child_get_type(), "GtkOverlay": gtk_overlay_layout_child_get_type()]
        for (className, rule) in LayoutPolicy.classes where !rule.children.layout.isEmpty {
            guard let childType = layoutChildren[className] else {
                problems.append("\(className): layout child properties with no known layout child type")
                continue
            }
            for (property, value) in rule.children.layout {
                guard let spec = find(childType, property) else {
                    problems.append("\(className) <layout> \(property): no such property")
                    continue
                }
                if let why = mismatch(spec, value) { problems.append("\(className) <layout> \(property): \(why)") }
            }
        }
        #expect(problems == [])
    }

    /// A sample value of each kind, as text.
    func sample(_ value: LayoutPolicy.Value, widget: String, checkButton: String) -> String {
        switch value {
        case .bool: "true"
        case .int(let range): "\(max(range.lowerBound, min(range.upperBound, 1)))"
        case .double(let range): "\(range.upperBound)"
        case .text: "Text &amp; more"
        case .name: "sample-name"
        case .choice(let nicks): nicks.last!
        case .flags(let nicks): nicks.suffix(2).joined(separator: " | ")
        case .object(let classes): classes.contains("GtkCheckButton") ? checkButton : widget
        }
    }

    /// One layout holding an object of every class, each setting every property it may: the
    /// policy accepts it and GtkBuilder (with Quire's scope) builds it without a word.
    @Test func aLayoutSettingEveryAllowedPropertyBuildsInGtk() throws {
        var objects = ""
        var number = 0
        for className in LayoutPolicy.classNames where className != "GtkSizeGroup" {
            number += 1
            var properties = ""
            for (property, value) in LayoutPolicy.properties(of: className).sorted(by: { $0.key < $1.key }) {
                // A widget's own mnemonic widget or group: the anchor objects below.
                properties += "<property name=\"\(property)\">\(sample(value, widget: "anchor", checkButton: "anchor-check"))</property>"
            }
            let rule = LayoutPolicy.classes[className]!
            var children = ""
            if rule.children.plain > 0 { children += #"<child><object class="GtkLabel"/></child>"# }
            for type in rule.children.typed.keys.sorted() { children += "<child type=\"\(type)\"><object class=\"GtkLabel\"/></child>" }
            if !rule.children.layout.isEmpty {
                var layout = ""
                for (property, value) in rule.children.layout.sorted(by: { $0.key < $1.key }) {
                    layout += "<property name=\"\(property)\">\(sample(value, widget: "anchor", checkButton: "anchor-check"))</property>"
                }
                children += "<child><object class=\"GtkLabel\"><layout>\(layout)</layout></object></child>"
                if rule.children.plain == 1 {
                    children = children.replacingOccurrences(of: #"<child><object class="GtkLabel"/></child>"#, with: "")
                }
            }
            objects += "<child><object class=\"\(className)\" id=\"sample\(number)\">\(properties)\(children)</object></child>\n"
        }
        let ui = """
            <?xml version="1.0" encoding="UTF-8"?>
            <interface>
              <requires lib="gtk" version="4.0"/>
              <object class="GtkSizeGroup"><property name="mode">both</property><widgets><widget name="anchor"/></widgets></object>
              <object class="GtkBox" id="page:root">
                <child><object class="GtkLabel" id="anchor"/></child>
                <child><object class="GtkCheckButton" id="anchor-check"/></child>
            \(objects)  </object>
            </interface>
            """
        let flow = try Flow.load(json: #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p"}]}"#)
        // Ids other than Quire's are refused by the binding rules; the policy alone is what is compared.
        let policy = LayoutPolicy.check(Array(ui.utf8))
        #expect(policy.problems.isEmpty, "\(policy.problems.prefix(5))")
        _ = flow
        quire_layout_ensure_types()
        let scope = LayoutPolicy.classNames.map { strdup($0) }
        defer { scope.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = scope.map { UnsafePointer($0) } + [nil]
        let builderScope = pointers.withUnsafeBufferPointer { quire_layout_scope_new($0.baseAddress!)! }
        defer { g_object_unref(UnsafeMutableRawPointer(builderScope)) }
        let builder = gtk_builder_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        gtk_builder_set_scope(builder, builderScope)
        var error: UnsafeMutablePointer<GError>?
        let built = gtk_builder_add_from_string(builder, ui, -1, &error)
        let message = error.map { String(cString: $0.pointee.message) } ?? ""
        if let error { g_error_free(error) }
        #expect(built != 0, "GtkBuilder: \(message)")
    }

    /// What the policy refuses never reaches GtkBuilder: `LoadedLayout` reports the core's
    /// problems, the same text `quire check` prints.
    @Test func theGtkLoaderReportsThePolicysProblemsBeforeBuilding() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-agree-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "layout": "p.ui", "fields": [{"id": "name", "kind": "text"}]}]}"#
            .write(toFile: folder + "/flow.json", atomically: true, encoding: .utf8)
        let ui =
            #"<interface><object class="GtkBox" id="page:root"><child><object class="GtkEntry" id="name"><property name="primary-icon-name">/etc/passwd</property></object></child></object></interface>"#
        try ui.write(toFile: folder + "/p.ui", atomically: true, encoding: .utf8)
        let flow = try Flow.load(contentsOf: folder + "/flow.json")
        let core = flow.layoutProblems().map { "$.pages[\($0.page)].layout: \($0.problem.message)" }
        #expect(core.count == 1)
        #expect(LayoutCheck.problems(in: flow) == core)
    }
}
