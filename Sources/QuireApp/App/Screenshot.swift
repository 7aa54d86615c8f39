import GtkBindings
import QuireGtk
import CGtk
import CGtkShim

/// A widget as PNG bytes, drawn in-process by GTK's cairo renderer: the widget's paintable
/// (`gtk_widget_paintable_new`) snapshotted into a render node, rendered to a texture and encoded
/// (`gdk_texture_save_to_png_bytes`). With the cairo renderer the bytes are the same from run to
/// run on the same machine, fonts and theme, which golden-image tests rely on.
@MainActor
public enum Screenshot {
    /// The PNG of `widget` at its current size; nil when it has no size or nothing could be drawn.
    public static func png(of widget: Widget) -> [UInt8]? {
        let width = widget.width
        let height = widget.height
        guard width > 0, height > 0 else { return nil }
        guard let paintable = gtk_widget_paintable_new(widget.widget) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        guard let renderer = gsk_cairo_renderer_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(renderer)) }
        var error: UnsafeMutablePointer<GError>?
        guard gsk_renderer_realize(renderer, nil, &error) != 0 else {
            g_error_free(error)
            return nil
        }
        defer { gsk_renderer_unrealize(renderer) }
        var viewport = graphene_rect_t()
        graphene_rect_init(&viewport, 0, 0, Float(width), Float(height))
        guard let texture = gsk_renderer_render_texture(renderer, node, &viewport) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        guard let bytes = gdk_texture_save_to_png_bytes(texture) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size: Int = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }
}
