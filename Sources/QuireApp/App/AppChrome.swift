import GtkBindings
import QuireGtk
import CAdw
import CGtk
import CGtkShim
import QuireCore

/// The app's GNOME chrome (issues 20 and 33): the primary menu of the header bar, the Keyboard
/// Shortcuts window (Ctrl+?; GTK's, libadwaita 1.2 has none) and the About window (AdwAboutWindow).
@MainActor
enum AppChrome {
    static let version = "0.1.0"
    static let website = "https://github.com/quire-dev/quire"

    /// The primary menu: a `GtkMenuButton` with GNOME's `open-menu-symbolic` icon, `primary`
    /// (F10 opens it), named "Main Menu". Preferences (only with the main window; the action's
    /// enabled state greys it out otherwise), Keyboard Shortcuts and About in one section, Quit
    /// in the last.
    static func primaryMenu(_ strings: AppStrings) -> Widget {
        let button = Widget(new: gtk_menu_button_new())
        let menuButton = OpaquePointer(button.widget)
        gtk_menu_button_set_icon_name(menuButton, "open-menu-symbolic")
        gtk_menu_button_set_primary(menuButton, 1)
        button.tooltip = strings.mainMenu
        button.setAccessibleLabel(strings.mainMenu)
        let menu = g_menu_new()
        let first = g_menu_new()
        g_menu_append(first, strings.editPreferences, "app.preferences")
        g_menu_append(first, strings.keyboardShortcuts, "win.show-help-overlay")
        g_menu_append(first, strings.aboutApp, "app.about")
        let last = g_menu_new()
        g_menu_append(last, strings.quit, "app.quit")
        g_menu_append_section(menu, nil, menuModel(first))
        g_menu_append_section(menu, nil, menuModel(last))
        gtk_menu_button_set_menu_model(menuButton, menuModel(menu))
        for model in [first, last, menu] { g_object_unref(UnsafeMutableRawPointer(model)) }
        return button
    }

    /// A shortcut the window lists: what it does and either the app's action (GTK shows the
    /// accelerators `gtk_application_set_accels_for_action` gave it, so the list cannot drift
    /// from the keys) or, for keys that are no action (the walkthrough's own), the keys.
    struct Shortcut {
        var title: String
        var action: String?
        var keys: String?
    }

    struct Group {
        var title: String
        var shortcuts: [Shortcut]
    }

    /// The shortcuts of the app and of the walkthrough (README, docs/gtk-shell.md).
    static func groups(_ strings: AppStrings) -> [Group] {
        [
            Group(
                title: strings.general,
                shortcuts: [
                    Shortcut(title: strings.preferences, action: "app.preferences"),
                    Shortcut(title: strings.showShortcuts, action: "win.show-help-overlay"),
                    Shortcut(title: strings.runAgain, action: "app.walkthrough"),
                    Shortcut(title: strings.quit, action: "app.quit"),
                ]),
            Group(
                title: strings.focusTimer,
                shortcuts: [
                    Shortcut(title: strings.startOrPause, action: "app.timer-toggle"),
                    Shortcut(title: strings.resetTimer, action: "app.timer-reset"),
                ]),
            Group(
                title: strings.walkthrough,
                shortcuts: [
                    Shortcut(title: strings.previousPage, action: "app.back"),
                    Shortcut(title: strings.nextPage, action: "app.next"),
                    Shortcut(title: strings.skipPage, action: "app.skip"),
                    Shortcut(title: strings.finishWalkthrough, action: "app.finish"),
                    Shortcut(title: strings.nextControl, keys: "Tab"),
                    Shortcut(title: strings.previousControl, keys: "<Shift>Tab"),
                    Shortcut(title: strings.confirmField, keys: "Return"),
                    Shortcut(title: strings.cancelField, keys: "Escape"),
                    Shortcut(title: strings.firstLastPage, keys: "Home End"),
                    Shortcut(title: strings.recordExpectation, action: "app.record-expect"),
                ]),
        ]
    }

    /// The GtkBuilder description of the shortcuts window (GTK 4.8 builds its sections and
    /// groups only from a description); every text is escaped.
    static func shortcutsDescription(_ strings: AppStrings) -> String {
        func property(_ name: String, _ value: String) -> String {
            "<property name=\"\(name)\">\(escapeMarkup(value))</property>"
        }
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\">"
        xml += property("modal", "1") + property("title", strings.keyboardShortcuts)
        xml += "<child><object class=\"GtkShortcutsSection\">" + property("section-name", "shortcuts") + property("max-height", "12")
        for group in groups(strings) {
            xml += "<child><object class=\"GtkShortcutsGroup\">" + property("title", group.title)
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\">" + property("title", shortcut.title)
                if let action = shortcut.action { xml += property("action-name", action) }
                if let keys = shortcut.keys { xml += property("accelerator", keys) }
                xml += "</object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        return xml
    }

    /// The Keyboard Shortcuts window, made the window's help overlay: `win.show-help-overlay`
    /// (Ctrl+?) opens it.
    static func installShortcuts(_ strings: AppStrings, on window: UnsafeMutablePointer<GtkWindow>) {
        let builder = gtk_builder_new_from_string(shortcutsDescription(strings), -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let shortcuts = gtk_builder_get_object(builder, "shortcuts") else { return }
        gtk_application_window_set_help_overlay(
            UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkApplicationWindow.self), OpaquePointer(shortcuts))
        let overlay = UnsafeMutableRawPointer(shortcuts).assumingMemoryBound(to: GtkWindow.self)
        closesWithKeys(overlay)
        gtk_window_set_application(overlay, gtk_window_get_application(window))
    }

    /// Escape and Ctrl+W close `window` (`window.close`), as they close a dialog or a secondary
    /// window in GNOME's apps.
    static func closesWithKeys(_ window: UnsafeMutablePointer<GtkWindow>) {
        guard let controller = gtk_shortcut_controller_new() else { return }
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape|<Control>w"), gtk_named_action_new("window.close"))
        gtk_shortcut_controller_add_shortcut(controller, shortcut)
        gtk_widget_add_controller(quire_widget(UnsafeMutableRawPointer(window)), controller)
    }

    /// The About window (AdwAboutWindow): the app's name, version, what it does, its website and
    /// its icon when the icon theme has it (installed by meson-helper), else the theme's
    /// `alarm-symbolic`. Quire has no licence file, so none is shown. Titled "About Quire"; it
    /// hides on close and is kept for the next time.
    static func aboutDialog(_ strings: AppStrings, parent: UnsafeMutablePointer<GtkWindow>?) -> Window {
        // (The app's shortcuts reach it through its parent's application; Escape closes it, as
        // libadwaita's windows do, and so does Ctrl+W.)
        let dialog = Window(new: adw_about_window_new())
        let about = OpaquePointer(dialog.widget)
        adw_about_window_set_application_name(about, strings.appName)
        adw_about_window_set_version(about, version)
        adw_about_window_set_comments(about, strings.summary)
        adw_about_window_set_website(about, website)
        // The app's icon where meson-helper installed it; else the theme's timer icon (the window
        // would keep an empty square for an icon it cannot find).
        var logo = "alarm-symbolic"
        if let display = gdk_display_get_default(),
            gtk_icon_theme_has_icon(gtk_icon_theme_get_for_display(display), QuireApplication.applicationID) != 0
        {
            logo = QuireApplication.applicationID
        }
        adw_about_window_set_application_icon(about, logo)
        let window = quire_window(dialog.pointer)
        gtk_window_set_title(window, strings.aboutApp)
        gtk_window_set_modal(window, 1)
        gtk_window_set_hide_on_close(window, 1)
        if let parent {
            gtk_window_set_transient_for(window, parent)
            gtk_window_set_application(window, gtk_window_get_application(parent))
        }
        if let window { closesWithKeys(window) }
        return dialog
    }
}

/// A GMenu as the GMenuModel it is.
private func menuModel(_ menu: OpaquePointer?) -> UnsafeMutablePointer<GMenuModel>? {
    menu.map { UnsafeMutablePointer<GMenuModel>($0) }
}

/// Text escaped for GtkBuilder and Pango markup: & < > " '.
func escapeMarkup(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}
