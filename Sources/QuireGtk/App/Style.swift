import CGtk

/// The walkthrough's stylesheet: the few things Adwaita has no class for (its own background, so
/// it draws whole wherever it is put; the input panel's edge; the value button of the field being
/// edited). Installed for the display by the first walkthrough view.
@MainActor
enum Style {
    static let css = """
        .quire-walkthrough { background-color: @theme_bg_color; }
        .quire-input-panel { border-top: 1px solid alpha(currentColor, 0.15); box-shadow: 0 -2px 8px alpha(black, 0.12); }
        .quire-value-button.quire-editing { background-image: none; background-color: alpha(@theme_selected_bg_color, 0.3); }
        .quire-value-button.error, entry.error { color: @error_color; }
        .quire-page .title-1 { margin-bottom: 6px; }
        .quire-chrome { border-top: 1px solid alpha(currentColor, 0.08); }
        .quire-choices button.quire-selected { font-weight: bold; }
        .quire-timer { font-size: 56px; font-weight: 300; }
        """

    private static var installed = false

    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
