import CAdw
import CGtk
import CGtkShim
import Foundation
import QuireCore
import Testing

@testable import QuireGtk
@testable import QuireApp
@testable import GtkBindings

/// The app's own strings go through gettext: every `tr("…")` of AppStrings.swift is in
/// po/quire.pot, and po/ja.po translates every one of them (scripts/update-po keeps them so).
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct AppStringsTests {
    static func msgids(_ path: String) throws -> Set<String> {
        let text = try String(contentsOf: GtkTest.packageRoot.appendingPathComponent(path), encoding: .utf8)
        var ids = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("msgid \"") {
            let id = String(line.dropFirst(7).dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            if !id.isEmpty { ids.insert(id) }
        }
        return ids
    }

    static func translations(_ path: String) throws -> [String: String] {
        let text = try String(contentsOf: GtkTest.packageRoot.appendingPathComponent(path), encoding: .utf8)
        var result: [String: String] = [:]
        var id: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("msgid \"") { id = String(line.dropFirst(7).dropLast()) }
            if line.hasPrefix("msgstr \""), let current = id, !current.isEmpty { result[current] = String(line.dropFirst(8).dropLast()) }
        }
        return result
    }

    @Test func theCatalogueTemplateHoldsEveryStringOfTheApp() throws {
        let source = try String(
            contentsOf: GtkTest.packageRoot.appendingPathComponent("Sources/QuireApp/App/AppStrings.swift"), encoding: .utf8)
        let calls = Set(source.matches(of: /tr\("((?:[^"\\]|\\.)*)"/).map { String($0.output.1) })
        #expect(calls.count > 20)
        #expect(try Self.msgids("po/quire.pot") == calls, "run scripts/update-po")
    }

    @Test func japaneseTranslatesEveryStringAndKeepsItsPlaceholders() throws {
        let template = try Self.msgids("po/quire.pot")
        let japanese = try Self.translations("po/ja.po")
        for id in template {
            let text = try #require(japanese[id], "po/ja.po has no entry for \(id)")
            #expect(!text.isEmpty, "po/ja.po leaves \(id) untranslated")
            for placeholder in id.matches(of: /\{[a-z]+\}/) {
                #expect(text.contains(placeholder.output), "the translation of \(id) drops \(placeholder.output)")
            }
        }
    }

    @Test func theCompiledCatalogueIsFoundAndFollowsTheSessionsLanguage() throws {
        #expect(Gettext.folder != nil, "no compiled catalogue: run scripts/setup (msgfmt po/ja.po into .build/locale)")
        let japanese = AppStrings(locale: "ja-JP")
        #expect(japanese.keyboardShortcuts == "キーボードショートカット")
        #expect(japanese.remaining("25分") == "残り 25分")
        #expect(AppStrings(locale: "en").keyboardShortcuts == "Keyboard Shortcuts")
        // Back again: gettext's cache does not keep the other language.
        #expect(AppStrings(locale: "ja").quit == "終了")
        #expect(AppStrings(locale: "en-GB").quit == "Quit")
        #expect(AppStrings(locale: "fr").sessionEnded("25 min") == "Your focus session of 25 min has ended.")
    }
}

/// The primary menu, the shortcuts window and the About dialog.
@MainActor
@Suite(.serialized, GtkTest.enabled)
struct AppChromeTests {
    @Test func thePrimaryMenuIsAnIconButtonWithTheMenuModel() throws {
        let button = AppChrome.primaryMenu(AppStrings(locale: "en"))
        let menuButton = OpaquePointer(button.widget)
        #expect(String(cString: gtk_menu_button_get_icon_name(menuButton)) == "open-menu-symbolic")
        #expect(gtk_menu_button_get_primary(menuButton) != 0)
        let model = try #require(gtk_menu_button_get_menu_model(menuButton))
        var items: [String] = []
        for section in 0..<g_menu_model_get_n_items(model) {
            let link = try #require(g_menu_model_get_item_link(model, section, G_MENU_LINK_SECTION))
            defer { g_object_unref(UnsafeMutableRawPointer(link)) }
            for item in 0..<g_menu_model_get_n_items(link) {
                let value = try #require(g_menu_model_get_item_attribute_value(link, item, G_MENU_ATTRIBUTE_ACTION, nil))
                defer { g_variant_unref(value) }
                items.append(String(cString: g_variant_get_string(value, nil)))
            }
        }
        #expect(items == ["app.preferences", "win.show-help-overlay", "app.about", "app.quit"])
    }

    @Test func theShortcutsWindowListsTheAppsAndTheWalkthroughsKeys() throws {
        let strings = AppStrings(locale: "en")
        let description = AppChrome.shortcutsDescription(strings)
        let builder = gtk_builder_new_from_string(description, -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        let window = try #require(gtk_builder_get_object(builder, "shortcuts"))
        defer { gtk_window_destroy(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)) }
        #expect(quire_is_a(UnsafeMutableRawPointer(window), gtk_shortcuts_window_get_type()) != 0)
        let actions = AppChrome.groups(strings).flatMap(\.shortcuts).compactMap(\.action)
        #expect(
            Set(actions) == [
                "app.preferences", "win.show-help-overlay", "app.walkthrough", "app.quit", "app.timer-toggle", "app.timer-reset",
                "app.back", "app.next", "app.skip", "app.finish", "app.record-expect",
            ])
        // The walkthrough's own keys, which are no action, parse as accelerators.
        for keys in AppChrome.groups(strings).flatMap(\.shortcuts).compactMap(\.keys) {
            for key in keys.split(separator: " ") {
                var keyval: guint = 0
                var modifiers = GdkModifierType(rawValue: 0)
                #expect(gtk_accelerator_parse(String(key), &keyval, &modifiers) != 0, "\(key)")
            }
        }
        #expect(description.contains("Start or pause the timer"))
    }

    @Test func textsAreEscapedInTheShortcutsDescription() {
        #expect(escapeMarkup("Tom & <Jerry> \"'") == "Tom &amp; &lt;Jerry&gt; &quot;&apos;")
        #expect(AppChrome.shortcutsDescription(AppStrings(locale: "ja")).contains("キーボードショートカット"))
    }

    @Test func theAboutDialogNamesTheAppAndItsVersion() throws {
        let dialog = AppChrome.aboutDialog(AppStrings(locale: "en"), parent: nil)
        defer { gtk_window_destroy(quire_window(dialog.pointer)) }
        let about = OpaquePointer(dialog.widget)
        #expect(quire_is_a(dialog.pointer, adw_about_window_get_type()) != 0)
        #expect(String(cString: adw_about_window_get_application_name(about)) == "Quire")
        #expect(String(cString: adw_about_window_get_version(about)) == AppChrome.version)
        #expect(String(cString: adw_about_window_get_comments(about)) == "Fill in paged forms and walkthroughs")
        #expect(String(cString: gtk_window_get_title(quire_window(dialog.pointer))) == "About Quire")
    }
}
