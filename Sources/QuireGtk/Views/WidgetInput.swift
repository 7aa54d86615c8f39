import GtkBindings
import CGtk
import CGtkShim
import QuireCore

extension WalkthroughView {
    /// Performs the user's input for `event` on the widgets (a click, a key press, text into
    /// the focused entry, a wheel turned, a drag); false when no widget can.
    package func perform(_ event: Event) -> Bool {
        let session = host.session
        switch event {
        case .tap(let target):
            switch target {
            case .field(let id):
                guard let row = pager.row(for: id, onPage: session.currentIndex), session.transition == nil else {
                    return false
                }
                return row.activate()
            case .background:
                pager.clickBackground()
                return true
            case .indicatorLeft, .indicatorRight, .indicatorPage:
                guard let x = chrome.indicator.clickX(for: target) else { return false }
                chrome.indicator.clicked(x: x)
                return true
            case .button(let button):
                guard let widget = chrome.button(button), widget.isSensitive else { return false }
                quire_signal_emit(widget.pointer, "clicked")
                return true
            case .accessory(let item):
                guard session.chrome.input != nil, let widget = input.accessory.button(for: item), widget.isSensitive else {
                    return false
                }
                quire_signal_emit(widget.pointer, "clicked")
                return true
            }
        case .key(.backSpace) where session.chrome.input?.view == .keyboard:
            // GtkText's BackSpace at the end of the text: its last grapheme cluster deleted.
            guard let field = session.focusedField, let row = pager.row(for: field, onPage: session.currentIndex),
                let text = row.entry?.text
            else { return false }
            let length = text.unicodeScalars.count
            return row.editEntry(from: length - (text.last?.unicodeScalars.count ?? 0), to: length, "")
        case .key(let key):
            let name = key == .shiftTab ? "ISO_Left_Tab" : key.rawValue
            let modifiers = key == .shiftTab ? GDK_SHIFT_MASK : GdkModifierType(0)
            _ = press(name, modifiers)
            return true
        case .type(let text):
            // Typed as a user types: the text between newlines into the focused entry, each
            // newline as a press of Return.
            var typed = false
            for (index, segment) in Session.typedSegments(text).enumerated() {
                if index > 0 { typed = press("Return") || typed }
                guard !segment.isEmpty else { continue }
                guard let field = host.session.focusedField, let row = pager.row(for: field, onPage: host.session.currentIndex),
                    row.typeIntoEntry(String(segment))
                else {
                    // No entry takes it (nothing focused, a picker): the session says why.
                    host.send(.type(String(segment)))
                    continue
                }
                typed = true
            }
            return typed
        case .edit(let from, let to, let text):
            guard let field = session.focusedField, let row = pager.row(for: field, onPage: session.currentIndex) else {
                return false
            }
            return row.editEntry(from: from, to: to, text)
        case .spin(let component, let steps):
            guard session.chrome.input?.view == .durationPicker, let wheel = input.wheels.wheel(component) else { return false }
            wheel.spin(steps)
            return true
        case .select(let option):
            guard session.chrome.input?.view == .choiceList, let button = input.choices.button(for: option) else {
                return false
            }
            quire_signal_emit(button.pointer, "clicked")
            return true
        // One pointer: a drag begins (or a swipe happens) only when none is under way, and
        // only a drag under way moves or ends.
        case .dragBegin:
            guard !session.pagerPresentation.isDragging else { return false }
            pager.beginDrag()
            return true
        case .dragUpdate(let dx):
            guard session.pagerPresentation.isDragging else { return false }
            pager.moveDrag(dx: dx, time: 0)
            return true
        case .dragEnd(let vx):
            guard session.pagerPresentation.isDragging else { return false }
            pager.endDrag(vx: vx)
            return true
        case .swipe(let dx, let vx):
            guard !session.pagerPresentation.isDragging else { return false }
            swipe(dx: dx, vx: vx)
            return true
        case .swipePage(let forward):
            guard !session.pagerPresentation.isDragging else { return false }
            let gesture = session.swipeGesture(forward: forward)
            swipe(dx: gesture.dx, vx: gesture.vx)
            return true
        case .tick, .settle:
            return false
        case .applied, .applyFailed:
            // The host's answers: no widget gives them; they go to the session as they are.
            return false
        }
    }

    private func swipe(dx: Double, vx: Double) {
        pager.beginDrag()
        pager.moveDrag(dx: dx, time: 0)
        pager.endDrag(vx: vx)
    }
}
