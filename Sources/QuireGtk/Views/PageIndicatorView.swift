import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// The page indicator (UIPageControl): dots that follow the pager's fractional position. A click
/// on a dot jumps there (`indicator:N`), a click left or right of the current dot steps
/// (`indicator:left` / `indicator:right`); with the keyboard, Left/Right step and Home/End jump to
/// the ends. It is an accessible slider named "Page 2 of 4" with a value (now, 1…count, text) —
/// libadwaita's dots are display-only and unnamed. The slider is `focusWidget`, a stand-in inside
/// the drawn dots (`attachValueProxy`: GTK 4.8 gives a Value interface only to range-like
/// widgets); it takes the keyboard focus and keys, the dots take the clicks.
@MainActor
final class PageIndicatorView: SessionView {
    let area = DrawingArea(role: GTK_ACCESSIBLE_ROLE_GENERIC)
    /// The accessible slider, which holds the keyboard focus (KeyboardFocusing).
    let focusWidget: Widget
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

    init(host: SessionHost) {
        self.host = host
        focusWidget = area.attachValueProxy(role: GTK_ACCESSIBLE_ROLE_SLIDER)
        area.addCSSClass("quire-indicator")
        area.isFocusable = false
        focusWidget.isFocusable = true
        focusWidget.focusOnClick = false
        area.valign = GTK_ALIGN_CENTER
        area.setContentSize(height: 24)
        area.setDraw { [weak self] cr, width, height in self?.draw(cr, width: Double(width), height: Double(height)) }
        click.onReleased { [weak self] _, x, _ in self?.clicked(x: x) }
        area.addController(click)
        keys.onKeyPressed { [weak self] keyval, _, state in self?.keyPressed(keyval, state) ?? false }
        focusWidget.addController(keys)
        focus.onEnter { [weak self] in self?.area.queueDraw() }
        focus.onLeave { [weak self] in self?.area.queueDraw() }
        focusWidget.addController(focus)
    }

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let chrome = session.chrome
        let pager = session.pagerPresentation
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
            focusWidget.setAccessibleLabel(label)
            focusWidget.setAccessibleValue(min: 1, max: Double(max(count, 1)), now: Double(current + 1), text: label)
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
        // Half a pitch either side of the strip: room for a click left or right of the current
        // dot (`clickX`) and the focus ring, and no more — the bar under the pages fits 360 px
        // with libadwaita's bold, wider button labels (docs/gtk-shell.md, "Window sizes").
        case .dots: return geometry.stripWidth + DotGeometry.pitch
        case .numbers: return Drawing.size(Drawing.layout(area, label)).0 + 16
        case .none: return 0
        }
    }

    private var geometry: DotGeometry { DotGeometry(count: count, position: position) }

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
            let geometry = self.geometry
            for (index, fade) in geometry.drawn {
                let near = nearness(index)
                let radius = DotGeometry.dot / 2 * (1 + 0.25 * near) * (0.5 + 0.5 * fade)
                Drawing.setColor(cr, color, alpha: (0.3 + 0.7 * near) * fade)
                cairo_arc(cr, geometry.center(index, width: width), y, radius, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        }
        if focusWidget.hasFocus {
            Drawing.setColor(cr, color, alpha: 0.5)
            cairo_set_line_width(cr, 1)
            Drawing.roundedRectangle(cr, x: 0.5, y: 0.5, width: width - 1, height: height - 1, radius: 6)
            cairo_stroke(cr)
        }
    }

    /// Where a click lands for a target: a dot's centre, or half-way to the next dot on the
    /// left or right of the current one; nil when no click could make it (hidden, no such dot).
    func clickX(for target: TapTarget) -> Double? {
        guard area.isVisible, count > 0, style != .none else { return nil }
        let width = Double(area.width)
        let here = style == .dots ? geometry.center(current, width: width) : width / 2
        switch target {
        case .indicatorLeft: return here - DotGeometry.pitch / 2
        case .indicatorRight: return here + DotGeometry.pitch / 2
        case .indicatorPage(let index):
            guard style == .dots, index >= 0, index < count else { return nil }
            let x = geometry.center(index, width: width)
            return geometry.hit(x: x, width: width) == index ? x : nil
        default: return nil
        }
    }

    func clicked(x: Double) {
        guard let host, count > 0 else { return }
        let width = Double(area.width)
        if style == .dots, let index = geometry.hit(x: x, width: width) {
            // (The dot shown too: the core says it is the same page.)
            host.send(.tap(.indicatorPage(index)))
            return
        }
        let here = style == .dots ? geometry.center(current, width: width) : width / 2
        host.send(.tap(x < here ? .indicatorLeft : .indicatorRight))
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        guard let host, let key = KeyTranslation.key(keyval: keyval, state: state),
            let event = host.session.indicatorEvent(forKey: key)
        else { return false }
        host.send(event)
        return true
    }
}

/// Where the indicator's dots go. Up to `maxDots` are shown; a longer flow shows a strip of them
/// that scrolls with the position (as UIPageControl does), the dots at its ends fading, so a
/// 1,000-page flow costs what a 5-page one does and the window keeps its size. Five, so the bar
/// under the pages (Back · dots · Skip · Next) fits 360 px whatever the page count: each more dot
/// is 18 px, and six took the bar to 365 px.
struct DotGeometry: Sendable, Equatable {
    static let dot = 8.0
    static let gap = 10.0
    static let pitch = dot + gap

    var count: Int
    var position: Double
    var maxDots = 5

    var visible: Int { min(count, maxDots) }
    var stripWidth: Double { Double(visible) * DotGeometry.dot + Double(max(visible - 1, 0)) * DotGeometry.gap }

    /// The (continuous) index shown in the strip's first slot.
    var first: Double {
        guard count > maxDots else { return 0 }
        return min(max(position - Double(maxDots / 2), 0), Double(count - maxDots))
    }

    /// The x of dot `index`'s centre in a widget `width` wide.
    func center(_ index: Int, width: Double) -> Double {
        (width - stripWidth) / 2 + (Double(index) - first) * DotGeometry.pitch + DotGeometry.dot / 2
    }

    /// The dots to draw and how far each has faded in (1 inside the strip, less at its ends).
    var drawn: [(index: Int, fade: Double)] {
        guard count > 0 else { return [] }
        let last = first + Double(visible - 1)
        let low = max(0, Int(first.rounded(.down)))
        let high = min(count - 1, Int(last.rounded(.up)))
        guard low <= high else { return [] }
        return (low...high).map { index in
            let outside = max(first - Double(index), Double(index) - last, 0)
            return (index, max(0, 1 - outside))
        }
    }

    /// How far from a dot's centre a click still hits it; between two dots is beside both.
    static let hitRadius = dot / 2 + 3

    /// The dot under `x`, if a fully shown one is.
    func hit(x: Double, width: Double) -> Int? {
        drawn.first { $0.fade >= 0.5 && abs(x - center($0.index, width: width)) <= DotGeometry.hitRadius }?.index
    }
}
