import CAdw
import CGtk
import CGtkShim
import GtkBindings

/// libadwaita 1.2 (Debian 12) for the app's chrome only: the window, its header bar and title,
/// the toasts, the preferences and About windows. The views of a session (QuireGtk, what
/// libquire-gtk embeds) stay plain GTK 4 and never import this.
@MainActor
enum Adwaita {
    private static var initialized = false

    /// `adw_init`, once: libadwaita's types, its stylesheet and its style manager (which follows
    /// the desktop's dark style). After it, the colour scheme is the style manager's to set
    /// (`setStyle`): GtkSettings' prefer-dark property is a warning with libadwaita.
    static func initialize() {
        guard !initialized else { return }
        initialized = true
        adw_init()
    }

    /// `--style`: forces light or dark through the style manager; `system` follows the desktop.
    static func setStyle(_ appearance: QuireApplication.Appearance) {
        let scheme: AdwColorScheme =
            switch appearance {
            case .system: ADW_COLOR_SCHEME_DEFAULT
            case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
            case .dark: ADW_COLOR_SCHEME_FORCE_DARK
            }
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
    }
}

/// An `AdwHeaderBar` with an `AdwWindowTitle`: the title and a subtitle each on its own line, so
/// a long page title and its place ("Page 2 of 5") are ellipsized apart instead of one being cut.
@MainActor
final class HeaderBar {
    let bar = Widget(new: adw_header_bar_new())
    let title = Widget(new: adw_window_title_new("", ""))

    init() {
        adw_header_bar_set_title_widget(OpaquePointer(bar.widget), title.widget)
    }

    func packStart(_ widget: UnsafeMutablePointer<GtkWidget>) { adw_header_bar_pack_start(OpaquePointer(bar.widget), widget) }
    func packEnd(_ widget: UnsafeMutablePointer<GtkWidget>) { adw_header_bar_pack_end(OpaquePointer(bar.widget), widget) }
    func remove(_ widget: UnsafeMutablePointer<GtkWidget>) { adw_header_bar_remove(OpaquePointer(bar.widget), widget) }

    /// What the title widget shows (an empty subtitle is hidden).
    func setTitle(_ text: String, subtitle: String) {
        adw_window_title_set_title(OpaquePointer(title.widget), text)
        adw_window_title_set_subtitle(OpaquePointer(title.widget), subtitle)
    }

    var shownTitle: String { String(cString: adw_window_title_get_title(OpaquePointer(title.widget))) }
    var shownSubtitle: String { String(cString: adw_window_title_get_subtitle(OpaquePointer(title.widget))) }
}

/// A widget pointer as libadwaita's class of it (derivable classes are imported as structs).
func adwaita<T>(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}
