import GtkBindings
import CGtk

/// Small cairo/pango helpers shared by the drawn views (indicator, wheels).
@MainActor
enum Drawing {
    /// The widget's foreground colour from its style (GTK 4.8 has no gtk_widget_get_color).
    static func foreground(of widget: Widget) -> GdkRGBA {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget.widget), &color)
        return color
    }

    static func setColor(_ cr: OpaquePointer, _ color: GdkRGBA, alpha: Double = 1) {
        cairo_set_source_rgba(cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha) * alpha)
    }

    /// A pango layout of `text` in the widget's font (any script; labels never use markup).
    static func layout(_ widget: Widget, _ text: String, scale: Double = 1, bold: Bool = false) -> OpaquePointer {
        let layout = gtk_widget_create_pango_layout(widget.widget, text)!
        if scale != 1 || bold {
            let context = gtk_widget_get_pango_context(widget.widget)
            let description = pango_font_description_copy(pango_context_get_font_description(context))
            if scale != 1 {
                let size = pango_font_description_get_size(description)
                pango_font_description_set_size(description, Int32(Double(size) * scale))
            }
            if bold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
            pango_layout_set_font_description(layout, description)
            pango_font_description_free(description)
        }
        return layout
    }

    /// Draws a layout centred on (x, y); returns its pixel size.
    @discardableResult
    static func show(_ cr: OpaquePointer, _ layout: OpaquePointer, centerX x: Double, centerY y: Double) -> (Double, Double) {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_move_to(cr, x - Double(width) / 2, y - Double(height) / 2)
        pango_cairo_show_layout(cr, layout)
        return (Double(width), Double(height))
    }

    static func size(_ layout: OpaquePointer) -> (Double, Double) {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (Double(width), Double(height))
    }

    static func roundedRectangle(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = min(radius, min(width, height) / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}
