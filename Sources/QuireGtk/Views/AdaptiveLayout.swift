import GtkBindings
import CGtk
import CGtkShim

// The window's adaptive layout (docs/gtk-shell.md, "Window sizes"): a clamp that keeps content
// within a readable width however wide the window, a column whose pages give way (and scroll)
// so the chrome stays on screen and nothing an input panel does grows the window, and vertical
// scrolling. Plain GTK 4.8: GtkCustomLayout callbacks reading what they need from the widget
// itself (its children, a number kept on the widget), so no Swift object has to outlive a
// callback.

/// A GtkScrolledWindow that scrolls vertically only (its child takes the viewport's width).
@MainActor
final class ScrolledWindow: Widget {
    init() {
        super.init(new: gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(scrolled, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }

    private var scrolled: OpaquePointer { OpaquePointer(pointer) }

    func setChild(_ child: Widget) { gtk_scrolled_window_set_child(scrolled, child.widget) }

    /// Grow with the content up to `maximum` px tall, then scroll (a list in a panel).
    func propagateNaturalHeight(upTo maximum: Int32) {
        gtk_scrolled_window_set_propagate_natural_height(scrolled, 1)
        gtk_scrolled_window_set_propagate_natural_width(scrolled, 1)
        gtk_scrolled_window_set_max_content_height(scrolled, maximum)
    }

    /// The vertical scroll offset, in px.
    var offset: Double {
        get { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(scrolled)) }
        set { gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(scrolled), newValue) }
    }

    /// The height of the visible part, in px.
    var pageSize: Double { gtk_adjustment_get_page_size(gtk_scrolled_window_get_vadjustment(scrolled)) }

    /// Scrolls (as little as it takes) so that `widget`, a descendant, is wholly in view, or its
    /// top is when it is taller than the view. `margin` px are kept around it.
    func scrollToShow(_ target: Widget, margin: Double = 12) {
        // The viewport GTK put between the scrolled window and its child.
        guard let viewport = gtk_scrolled_window_get_child(scrolled) else { return }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(target.widget, viewport, &bounds) != 0 else { return }
        // Bounds in the viewport's coordinates: relative to what is shown now.
        let top = offset + Double(bounds.origin.y) - margin
        let bottom = offset + Double(bounds.origin.y + bounds.size.height) + margin
        let visible = pageSize
        if top < offset {
            offset = top
        } else if bottom > offset + visible {
            offset = min(top, bottom - visible)
        }
    }
}

/// A clamp (as libadwaita's AdwClamp, kept plain): one child, as wide as the clamp is given up
/// to `maximum` px, centred. Its natural width is `maximum` (or the child's minimum when that
/// is wider), so a clamp placed with `halign` centre — an overlay child — takes
/// `min(available, maximum)`, and in a box that fills it centres its child.
///
/// `centresVertically`: a child shorter than the clamp is given its natural height, centred.
/// The clamp does it, not the child's `valign`: GTK 4.8 places a height-for-width widget that is
/// not set to fill by asking its width for the height it is given, and a column of rows asked
/// that asks each row's wrapping label the same, which GtkLabel answers by a binary search over
/// widths, a Pango layout at each step (about 10 ms a row).
@MainActor
final class Clamp: Widget {
    init(maximum: Int32, centresVertically: Bool = false) {
        super.init(new: gtk_fixed_new())
        isFocusable = false
        g_object_set_data(quire_object(pointer), Clamp.maximumKey, UnsafeMutableRawPointer(bitPattern: Int(maximum)))
        if centresVertically { g_object_set_data(quire_object(pointer), Clamp.centresKey, UnsafeMutableRawPointer(bitPattern: 1)) }
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(nil, clampMeasure, clampAllocate))
    }

    func setChild(_ child: Widget) {
        while let old = gtk_widget_get_first_child(widget) { gtk_widget_unparent(old) }
        adopt(child)
    }

    nonisolated static let maximumKey = "quire-clamp-maximum"
    nonisolated static let centresKey = "quire-clamp-centres-vertically"

    /// The width a clamp of `maximum` gives a child of minimum width `childMinimum` within `width`.
    nonisolated static func childWidth(within width: Int32, maximum: Int32, childMinimum: Int32) -> Int32 {
        max(childMinimum, min(width, maximum))
    }
}

private func clampMaximum(_ widget: UnsafeMutablePointer<GtkWidget>) -> Int32 {
    Int32(truncatingIfNeeded: Int(bitPattern: g_object_get_data(quire_object(widget), Clamp.maximumKey)))
}

private func measured(_ child: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation, _ forSize: Int32) -> (Int32, Int32) {
    var minimum: Int32 = 0
    var natural: Int32 = 0
    gtk_widget_measure(child, orientation, forSize, &minimum, &natural, nil, nil)
    return (minimum, natural)
}

private let clampMeasure: GtkCustomMeasureFunc = { widget, orientation, forSize, minimum, natural, _, _ in
    guard let widget, let child = gtk_widget_get_first_child(widget), gtk_widget_should_layout(child) != 0 else {
        minimum?.pointee = 0
        natural?.pointee = 0
        return
    }
    let maximum = clampMaximum(widget)
    if orientation == GTK_ORIENTATION_HORIZONTAL {
        let (low, _) = measured(child, orientation, forSize)
        minimum?.pointee = low
        natural?.pointee = max(low, maximum)
    } else {
        var width: Int32 = -1
        if forSize >= 0 {
            let (childMinimum, _) = measured(child, GTK_ORIENTATION_HORIZONTAL, -1)
            width = Clamp.childWidth(within: forSize, maximum: maximum, childMinimum: childMinimum)
        }
        let (low, high) = measured(child, orientation, width)
        minimum?.pointee = low
        natural?.pointee = high
    }
}

private let clampAllocate: GtkCustomAllocateFunc = { widget, width, height, _ in
    guard let widget, let child = gtk_widget_get_first_child(widget), gtk_widget_should_layout(child) != 0 else { return }
    let (childMinimum, _) = measured(child, GTK_ORIENTATION_HORIZONTAL, -1)
    let childWidth = Clamp.childWidth(within: width, maximum: clampMaximum(widget), childMinimum: childMinimum)
    var allocation = GtkAllocation(x: max(0, (width - childWidth) / 2), y: 0, width: childWidth, height: height)
    if g_object_get_data(quire_object(widget), Clamp.centresKey) != nil {
        let (_, naturalHeight) = measured(child, GTK_ORIENTATION_VERTICAL, childWidth)
        if naturalHeight < height {
            allocation.y = (height - naturalHeight) / 2
            allocation.height = naturalHeight
        }
    }
    gtk_widget_size_allocate(child, &allocation, -1)
}

/// The walkthrough's column: children stacked top to bottom at their natural heights, except one
/// that fills (the pages) and one inset (the room made under the pages while the input panel is
/// up). The column's size never counts the inset: the inset takes at most what the filling
/// child can give up above its own minimum, so showing the panel never grows the window, and the
/// children after it (the chrome) always keep their place at the bottom.
@MainActor
final class Column: Widget {
    init() {
        super.init(new: gtk_fixed_new())
        isFocusable = false
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(nil, columnMeasure, columnAllocate))
    }

    enum Role: Int { case fixed = 0, fill = 1, inset = 2 }

    nonisolated static let roleKey = "quire-column-role"

    func append(_ child: Widget, _ role: Role = .fixed) {
        g_object_set_data(quire_object(child.pointer), Column.roleKey, UnsafeMutableRawPointer(bitPattern: role.rawValue))
        adopt(child)
    }
}

private func columnRole(_ child: UnsafeMutablePointer<GtkWidget>) -> Column.Role {
    Column.Role(rawValue: Int(bitPattern: g_object_get_data(quire_object(child), Column.roleKey))) ?? .fixed
}

private func columnChildren(_ widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
    var children: [UnsafeMutablePointer<GtkWidget>] = []
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        if gtk_widget_should_layout(current) != 0 { children.append(current) }
        child = gtk_widget_get_next_sibling(current)
    }
    return children
}

private let columnMeasure: GtkCustomMeasureFunc = { widget, orientation, forSize, minimum, natural, _, _ in
    var low: Int32 = 0
    var high: Int32 = 0
    if let widget {
        for child in columnChildren(widget) where columnRole(child) != .inset {
            if orientation == GTK_ORIENTATION_HORIZONTAL {
                let (childLow, childHigh) = measured(child, orientation, -1)
                low = max(low, childLow)
                high = max(high, childHigh)
            } else {
                let (childLow, childHigh) = measured(child, orientation, forSize)
                low += childLow
                high += childHigh
            }
        }
    }
    minimum?.pointee = low
    natural?.pointee = high
}

private let columnAllocate: GtkCustomAllocateFunc = { widget, width, height, _ in
    guard let widget else { return }
    let children = columnChildren(widget)
    var heights = children.map { measured($0, GTK_ORIENTATION_VERTICAL, width) }
    let roles = children.map(columnRole)
    let fillMinimum = zip(heights, roles).filter { $0.1 == .fill }.map(\.0.0).reduce(0, +)
    // Fixed children at their natural heights, or their minimum ones when those do not fit.
    let fixedNatural = zip(heights, roles).filter { $0.1 == .fixed }.map(\.0.1).reduce(0, +)
    let useNatural = fixedNatural + fillMinimum <= height
    var fixed: Int32 = 0
    for index in heights.indices where roles[index] == .fixed {
        heights[index].0 = useNatural ? heights[index].1 : heights[index].0
        fixed += heights[index].0
    }
    let spare = max(0, height - fixed - fillMinimum)
    var inset: Int32 = 0
    for index in heights.indices where roles[index] == .inset {
        heights[index].0 = min(heights[index].1, spare - inset)
        inset += heights[index].0
    }
    let fills = roles.filter { $0 == .fill }.count
    var y: Int32 = 0
    for (index, child) in children.enumerated() {
        var childHeight = heights[index].0
        if roles[index] == .fill { childHeight = max(heights[index].0, (height - fixed - inset) / Int32(max(fills, 1))) }
        var allocation = GtkAllocation(x: 0, y: y, width: width, height: childHeight)
        gtk_widget_size_allocate(child, &allocation, -1)
        y += childHeight
    }
}
