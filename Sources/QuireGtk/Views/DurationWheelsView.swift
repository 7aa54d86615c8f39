import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// The duration picker's wheels (UIDatePicker's countdown mode): one drawn wheel per component,
/// turned by dragging it (a step per row height crossed), scrolling over it, clicking the row
/// above or below the selection, or Up/Down (a row) and Page_Up/Page_Down (a quarter turn; the
/// window sends those keys to the session, which turns the selected wheel). Each turn is a
/// `spin` event or a key; the wheels show the session's draft. Each wheel is a focusable spin
/// button (keyboard focus rests on the selected one) with a value: now, min, max and the text
/// the core words ("25 minutes").
@MainActor
final class DurationWheelsView {
    let root = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
    private weak var host: SessionHost?
    private var wheels: [Wheel] = []

    init(host: SessionHost) {
        self.host = host
        root.halign = GTK_ALIGN_CENTER
        root.homogeneous = true
        root.addCSSClass("quire-wheels")
        root.setMargins(top: 8, bottom: 12, start: 12, end: 12)
    }

    func wheel(_ component: DurationComponent) -> Wheel? {
        wheels.first { $0.component == component }
    }

    func update(_ presentation: [WheelPresentation], fieldLabel: String) {
        if presentation.map(\.component) != wheels.map(\.component) {
            for wheel in wheels { root.remove(wheel.area) }
            wheels = presentation.map { Wheel($0.component, host: host) }
            for wheel in wheels { root.append(wheel.area) }
        }
        for (wheel, shown) in zip(wheels, presentation) { wheel.update(shown, fieldLabel: fieldLabel) }
    }

    @MainActor
    final class Wheel {
        let component: DurationComponent
        let area = DrawingArea(role: GTK_ACCESSIBLE_ROLE_GENERIC)
        /// The accessible spin button (a stand-in inside the drawn wheel, `attachValueProxy`),
        /// which holds the keyboard focus (KeyboardFocusing).
        let focusWidget: Widget
        private weak var host: SessionHost?
        private var shown: WheelPresentation?
        private let drag = DragGesture()
        private let scroll = ScrollController(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)
        private let click = ClickGesture()
        private var stepsSent = 0
        private var dragged = false
        static let rowHeight = 36.0
        static let rows = 5

        init(_ component: DurationComponent, host: SessionHost?) {
            self.component = component
            self.host = host
            focusWidget = area.attachValueProxy(role: GTK_ACCESSIBLE_ROLE_SPIN_BUTTON)
            area.setContentSize(width: 96, height: Int32(Wheel.rowHeight * Double(Wheel.rows)))
            area.addCSSClass("quire-wheel")
            // Keyboard focus rests on the selected wheel while the picker is open.
            focusWidget.isFocusable = true
            focusWidget.focusOnClick = false
            area.setDraw { [weak self] cr, width, height in self?.draw(cr, width: Double(width), height: Double(height)) }
            drag.onDragBegin { [weak self] _, _ in
                self?.stepsSent = 0
                self?.dragged = false
            }
            drag.onDragUpdate { [weak self] _, dy in self?.dragged(dy: dy) }
            area.addController(drag)
            scroll.onScroll { [weak self] _, dy in
                guard let self, dy != 0 else { return false }
                self.spin(dy > 0 ? 1 : -1)
                return true
            }
            area.addController(scroll)
            click.onReleased { [weak self] _, _, y in self?.clicked(y: y) }
            area.addController(click)
        }

        private func dragged(dy: Double) {
            // Dragging up brings larger values to the middle, as a wheel turned by hand.
            let steps = Int((-dy / Wheel.rowHeight).rounded(.towardZero))
            if steps != stepsSent {
                dragged = true
                spin(steps - stepsSent)
                stepsSent = steps
            }
        }

        private func clicked(y: Double) {
            guard !dragged else { return }
            let middle = Double(area.height) / 2
            if y < middle - Wheel.rowHeight / 2 { spin(-1) } else if y > middle + Wheel.rowHeight / 2 { spin(1) }
        }

        func spin(_ steps: Int) {
            guard steps != 0 else { return }
            host?.send(.spin(component: component, by: steps))
        }

        func update(_ wheel: WheelPresentation, fieldLabel: String) {
            guard wheel != shown else { return }
            shown = wheel
            let value = wheel.values.indices.contains(wheel.selectedIndex) ? wheel.values[wheel.selectedIndex] : 0
            focusWidget.setAccessibleLabel("\(fieldLabel), \(wheel.title)")
            // A spin button's value: now within the wheel's range, and in words from the core
            // ("25 minutes", "25分").
            focusWidget.setAccessibleValue(
                min: Double(wheel.values.first ?? 0), max: Double(wheel.values.last ?? 0), now: Double(value), text: wheel.valueText)
            // GTK 4.8's Value interface has no text: the words are the description too.
            focusWidget.setAccessibleDescription(wheel.valueText)
            area.queueDraw()
        }

        private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
            guard let wheel = shown, !wheel.values.isEmpty else { return }
            let color = Drawing.foreground(of: area)
            let middle = height / 2
            // The selection band, stronger on the wheel the arrow keys turn.
            Drawing.setColor(cr, color, alpha: wheel.isSelectedWheel ? 0.14 : 0.07)
            Drawing.roundedRectangle(cr, x: 2, y: middle - Wheel.rowHeight / 2, width: width - 4, height: Wheel.rowHeight, radius: 8)
            cairo_fill(cr)
            if wheel.isSelectedWheel {
                // The wheel the arrow keys turn is outlined in the text colour (well over 3:1
                // against the background), not only by a lighter band.
                Drawing.setColor(cr, color, alpha: 0.9)
                cairo_set_line_width(cr, 2)
                Drawing.roundedRectangle(
                    cr, x: 3, y: middle - Wheel.rowHeight / 2 + 1, width: width - 6, height: Wheel.rowHeight - 2, radius: 7)
                cairo_stroke(cr)
            }
            let count = wheel.values.count
            // As many rows as there are values, up to the wheel's height: a short wheel (the hours
            // a 2 h maximum allows) shows each value once.
            let half = Wheel.rows / 2
            for offset in -min(half, (count - 1) / 2)...min(half, count / 2) {
                // The wheel wraps (spinning past the end starts again), so rows wrap too.
                let index = ((wheel.selectedIndex + offset) % count + count) % count
                let value = wheel.values[index]
                let text = wheel.component == .hours ? "\(value)" : (value < 10 ? "0\(value)" : "\(value)")
                let distance = Double(abs(offset))
                let layout = Drawing.layout(area, text, scale: offset == 0 ? 1.3 : 1.1, bold: offset == 0)
                Drawing.setColor(cr, color, alpha: offset == 0 ? 1 : max(0.15, 0.55 - 0.2 * (distance - 1)))
                let x = offset == 0 ? width * 0.38 : width * 0.38
                Drawing.show(cr, layout, centerX: x, centerY: middle + Double(offset) * Wheel.rowHeight)
                g_object_unref(UnsafeMutableRawPointer(layout))
            }
            // The unit beside the selected value.
            let unit = Drawing.layout(area, wheel.title, scale: 0.85)
            let (unitWidth, _) = Drawing.size(unit)
            Drawing.setColor(cr, color, alpha: 0.8)
            Drawing.show(cr, unit, centerX: min(width - unitWidth / 2 - 6, width * 0.72), centerY: middle)
            g_object_unref(UnsafeMutableRawPointer(unit))
        }
    }
}
