import CGtk
import CGtkShim
import QuireCore

/// The page indicator (UIPageControl): dots that follow the pager's fractional position. A click
/// on a dot jumps there (`indicator:N`), a click left or right of the current dot steps
/// (`indicator:left` / `indicator:right`); with the keyboard, Left/Right step and Home/End jump to
/// the ends. It is an accessible slider named "Page 2 of 4" — libadwaita's dots are display-only
/// and unnamed.
@MainActor
final class PageIndicatorView: SessionView {
    let area = DrawingArea(role: GTK_ACCESSIBLE_ROLE_SLIDER)
    private weak var host: SessionHost?
    private let click = ClickGesture()
    private let keys = KeyController()
    private let focus = FocusController()
    private var count = 0
    private var current = 0
    private var position = 0.0
    private var wraps = false
    private var style = Paging.IndicatorStyle.dots
    private var label = ""
    /// The accessible label last set ("Page 2 of 4").
    var accessibleLabel: String { label }

    static let dot = 8.0
    static let gap = 10.0

    init(host: SessionHost) {
        self.host = host
        area.addCSSClass("quire-indicator")
        area.isFocusable = true
        area.focusOnClick = false
        area.valign = GTK_ALIGN_CENTER
        area.setContentSize(height: 24)
        area.setDraw { [weak self] cr, width, height in self?.draw(cr, width: Double(width), height: Double(height)) }
        click.onPress("released") { [weak self] _, x, _ in self?.clicked(x: x) }
        area.addController(click)
        keys.onKey("key-pressed") { [weak self] keyval, _, state in self?.keyPressed(keyval, state) ?? false }
        area.addController(keys)
        focus.on("enter") { [weak self] in self?.area.queueDraw() }
        focus.on("leave") { [weak self] in self?.area.queueDraw() }
        area.addController(focus)
    }

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let chrome = session.chrome
        let pager = session.pager
        area.isVisible = !chrome.indicatorHidden
        if chrome.indicatorCount != count || chrome.indicatorStyle != style {
            count = chrome.indicatorCount
            style = chrome.indicatorStyle
            area.setContentSize(width: Int32(contentWidth))
        }
        wraps = pager.wraps
        if chrome.indicatorCurrent != current || chrome.indicatorLabel != label {
            current = chrome.indicatorCurrent
            label = chrome.indicatorLabel
            area.setAccessibleLabel(label)
            quire_accessible_set_value(area.pointer, 1, Double(max(count, 1)), Double(current + 1), label)
            if style == .numbers { area.setContentSize(width: Int32(contentWidth)) }
            area.queueDraw()
        }
        if pager.position != position {
            position = pager.position
            area.queueDraw()
        }
    }

    private var contentWidth: Double {
        switch style {
        case .dots: return Double(count) * PageIndicatorView.dot + Double(max(count - 1, 0)) * PageIndicatorView.gap + 8
        case .numbers: return Drawing.size(Drawing.layout(area, label)).0 + 16
        case .none: return 0
        }
    }

    /// The x of dot `index`'s centre in a widget `width` wide.
    private func dotCenter(_ index: Int, width: Double) -> Double {
        let total = Double(count) * PageIndicatorView.dot + Double(max(count - 1, 0)) * PageIndicatorView.gap
        let start = (width - total) / 2
        return start + Double(index) * (PageIndicatorView.dot + PageIndicatorView.gap) + PageIndicatorView.dot / 2
    }

    /// How close the position is to dot `index` (1 on it, 0 a page or more away), across the
    /// wrap seam when the flow wraps.
    private func nearness(_ index: Int) -> Double {
        var distance = abs(position - Double(index))
        if wraps && count > 0 { distance = min(distance, abs(position - Double(index + count)), abs(position - Double(index - count))) }
        return max(0, 1 - distance)
    }

    private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
        let color = Drawing.foreground(of: area)
        switch style {
        case .none:
            return
        case .numbers:
            Drawing.setColor(cr, color, alpha: 0.8)
            let layout = Drawing.layout(area, label)
            Drawing.show(cr, layout, centerX: width / 2, centerY: height / 2)
            g_object_unref(UnsafeMutableRawPointer(layout))
        case .dots:
            let y = height / 2
            for index in 0..<count {
                let near = nearness(index)
                let radius = PageIndicatorView.dot / 2 * (1 + 0.25 * near)
                Drawing.setColor(cr, color, alpha: 0.3 + 0.7 * near)
                cairo_arc(cr, dotCenter(index, width: width), y, radius, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        }
        if area.hasFocus {
            Drawing.setColor(cr, color, alpha: 0.5)
            cairo_set_line_width(cr, 1)
            Drawing.roundedRectangle(cr, x: 0.5, y: 0.5, width: width - 1, height: height - 1, radius: 6)
            cairo_stroke(cr)
        }
    }

    private func clicked(x: Double) {
        guard let host, count > 0 else { return }
        let width = Double(area.width)
        if style == .dots {
            for index in 0..<count where abs(x - dotCenter(index, width: width)) <= (PageIndicatorView.dot + PageIndicatorView.gap) / 2 {
                if index != current { host.send(.tap(.indicatorPage(index))) }
                return
            }
        }
        let here = style == .dots ? dotCenter(current, width: width) : width / 2
        host.send(.tap(x < here ? .indicatorLeft : .indicatorRight))
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        guard let host, let key = KeyTranslation.key(keyval: keyval, state: state) else { return false }
        switch key {
        case .left: host.send(.tap(.indicatorLeft))
        case .right: host.send(.tap(.indicatorRight))
        case .home: host.send(.tap(.indicatorPage(0)))
        case .end: host.send(.tap(.indicatorPage(max(count - 1, 0))))
        default: return false
        }
        return true
    }
}
