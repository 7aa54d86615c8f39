import GtkBindings
import CGtk

/// The walkthrough's stylesheet: the few things Adwaita has no class for (its own background, so
/// it draws whole wherever it is put; the input panel's edge; the value button of the field being
/// edited; the refusal notice's banner). Installed for the display by the first walkthrough view.
///
/// Text meets WCAG AA (a contrast of at least 4.5:1) in the light and the dark style, checked on
/// rendered screenshots (Tests/Contrast): GTK 4.8's Adwaita draws `.error` text in its
/// `@error_color`, whose red is fine on the light background but 1.9:1 on the dark one, so error
/// text is that red mixed 60 % towards the style's own text colour (`@theme_fg_color`) — a
/// darker red on light, a lighter one on dark, from the style's named colours alone, so one rule
/// serves both styles and any theme that defines them. `.dim-label` (a picker's "Not set") is
/// dimmed to 75 % rather than Adwaita's 55 %, which is 3.9:1 on dark.
@MainActor
package enum Style {
    package static let css = """
        .quire-walkthrough { background-color: @theme_bg_color; }
        .quire-input-panel { border-top: 1px solid alpha(currentColor, 0.15); box-shadow: 0 -2px 8px alpha(black, 0.12); }
        .quire-value-button.quire-editing { background-image: none; background-color: alpha(@theme_selected_bg_color, 0.3); }
        .quire-walkthrough .error, .quire-value-button.error, entry.error { color: mix(@error_color, @theme_fg_color, 0.6); }
        .quire-walkthrough .dim-label { opacity: 0.75; }
        .quire-notice { padding: 6px 12px; background-color: mix(@theme_bg_color, @theme_selected_bg_color, 0.15); border-bottom: 1px solid alpha(currentColor, 0.15); }
        .quire-page .title-1 { margin-bottom: 6px; }
        .quire-chrome { border-top: 1px solid alpha(currentColor, 0.08); }
        .quire-choices button.quire-selected { font-weight: bold; }
        .quire-timer { font-size: 56px; font-weight: 300; }
        """

    private static var installed = false

    package static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
