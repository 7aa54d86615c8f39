/// The desktop keyboard model (docs/session-semantics.md, "Keyboard focus"): where a front puts
/// its keyboard focus, decided here once for every front.
///
/// Keyboard focus goes round the window in its visual order: Cancel (in the header bar, at the
/// top), the page's editable fields (the first-responder chain, `Tab`, `shift+Tab`), its toggles,
/// then Back, the indicator, Skip and Next or Finish (the bar under the pages), and from there
/// back to Cancel. Cancel and the rest are the page's *stops*, listed in that order: the chain
/// sits between the first stop (Cancel) and the others. Tab past the last field goes to the
/// first stop after Cancel, shift+Tab before the first field to Cancel; Tab on Cancel comes into
/// the chain (`Tab` with nothing focused), shift+Tab on the first stop after Cancel to the last
/// field; a page without editable fields goes round its stops. While a refusal notice is shown
/// (under the header bar), its button is a stop between Cancel and the chain.

/// A place keyboard focus can rest outside the first-responder chain.
public enum KeyboardStop: Sendable, Hashable {
    /// A toggle field (not a first responder: it flips on a press).
    case toggle(String)
    case back, indicator, skip, next, finish, cancel
    /// The shown refusal notice's button that goes to the field's page (`RefusalNotice.event`).
    case notice

    /// `button:back`, `indicator`, a toggle's field id, …: the name scripts use.
    public var name: String {
        switch self {
        case .toggle(let id): id
        case .back: "button:back"
        case .indicator: "indicator"
        case .skip: "button:skip"
        case .next: "button:next"
        case .finish: "button:finish"
        case .cancel: "button:cancel"
        case .notice: "notice"
        }
    }
}

/// Where keyboard focus goes after an event.
public enum KeyboardFocus: Sendable, Hashable {
    /// A field: the first responder's input (a text field's entry, an open picker's selected
    /// wheel or option), or, for a field that is not first responder, the field's own widget,
    /// without opening anything.
    case field(String)
    /// One of the page's stops.
    case stop(KeyboardStop)
    /// Leave keyboard focus where it is if it rests on one of the page's stops that can still
    /// take it (the stops stay as pages change); otherwise this stop.
    case stay(orElse: KeyboardStop)
    /// Keyboard focus stays where it is.
    case unchanged
    /// The session completed: the front hands focus to what follows it (the window after the
    /// walkthrough, its first control).
    case completed

    /// Whether `name` has the form of a `name` (the ids in it are not checked).
    public static func isName(_ name: String) -> Bool {
        let stop = name.strip(prefix: "stay:") ?? name
        if name == "unchanged" || name == "completed" || stop == "indicator" { return true }
        if let id = stop.strip(prefix: "field:") { return !id.isEmpty }
        if let button = stop.strip(prefix: "button:") { return TapTarget.Button(rawValue: button) != nil }
        return false
    }

    /// `field:ID`, `button:next`, `indicator`, `stay:button:next`, `unchanged`, `completed`.
    public var name: String {
        switch self {
        case .field(let id): "field:\(id)"
        case .stop(.toggle(let id)): "field:\(id)"
        case .stop(let stop): stop.name
        case .stay(let stop): "stay:\(KeyboardFocus.stop(stop).name)"
        case .unchanged: "unchanged"
        case .completed: "completed"
        }
    }
}

/// What Tab or shift+Tab on a stop does.
public enum KeyboardStep: Sendable, Hashable {
    /// Keyboard focus moves to this stop.
    case stop(KeyboardStop)
    /// Keyboard focus goes back into the chain: the front sends `Tab` (`shift+Tab`), which with
    /// nothing focused focuses the first (last) editable field.
    case chain
}

extension Session {
    /// The page's stops that can take keyboard focus now, in visual order: Cancel, then (after
    /// the first-responder chain) its visible, enabled toggles (in page order), Back, the
    /// indicator, Skip, Next or Finish (the one shown).
    public var keyboardStops: [KeyboardStop] { keyboardStops(atIndex: currentIndex) }

    /// How many of `keyboardStops` come before the first-responder chain (Cancel): Tab on the
    /// last of them enters the chain, Tab past the last field goes to the stop after them.
    public static let stopsBeforeChain = 1

    /// The stops of the visible page `index` (where a move is going).
    func keyboardStops(atIndex index: Int) -> [KeyboardStop] {
        guard completion == nil, index >= 0, index < pageCount else { return [] }
        var stops: [KeyboardStop] = [.cancel]
        for field in flow.pages[answers.visiblePages.find(index)].fieldRange
        where flow.fieldTraits[field].kind == .toggle && isFieldVisible(field) && isFieldEnabled(field) {
            stops.append(.toggle(flow.fieldIDs[field]))
        }
        let enabled = buttons(atIndex: index)
        if enabled.back { stops.append(.back) }
        if !indicatorHidden { stops.append(.indicator) }
        if enabled.skip { stops.append(.skip) }
        if enabled.finish {
            stops.append(.finish)
        } else if enabled.next {
            stops.append(.next)
        }
        return stops
    }

    /// The stop a page's keyboard focus starts on: Finish on the last page, else Next, else
    /// the first stop there is.
    public var primaryStop: KeyboardStop { Self.primary(of: keyboardStops) }

    static func primary(of stops: [KeyboardStop]) -> KeyboardStop {
        if stops.contains(.finish) { return .finish }
        if stops.contains(.next) { return .next }
        return stops.first ?? .cancel
    }

    /// The stops with a refusal notice shown (`noticeShown`): its button after Cancel, before
    /// the chain. How many stops then come before the chain.
    public func keyboardStops(noticeShown: Bool) -> (stops: [KeyboardStop], beforeChain: Int) {
        var stops = keyboardStops
        guard noticeShown, !stops.isEmpty else { return (stops, Self.stopsBeforeChain) }
        stops.insert(.notice, at: Self.stopsBeforeChain)
        return (stops, Self.stopsBeforeChain + 1)
    }

    /// Tab (`forward`) or shift+Tab with keyboard focus on `stop` (nil: on none of them, e.g.
    /// a stop that has just been disabled), with a refusal notice shown or not.
    public func keyboardStep(from stop: KeyboardStop?, forward: Bool, noticeShown: Bool = false) -> KeyboardStep {
        let (stops, before) = keyboardStops(noticeShown: noticeShown)
        let hasChain = focusTarget(.tab(forward: forward)) != nil
        guard let stop, let index = stops.firstIndex(of: stop) else {
            if hasChain { return .chain }
            return stops.isEmpty ? .chain : .stop(forward ? stops[0] : stops[stops.count - 1])
        }
        // The chain sits between the stops before it (Cancel, the notice) and the rest.
        if hasChain && (forward ? index == before - 1 : index == before) { return .chain }
        let next = (index + (forward ? 1 : -1) + stops.count) % stops.count
        return .stop(stops[next])
    }

    /// Tab (`forward`) or shift+Tab with keyboard focus on the own widget of field `id` (a text
    /// field's entry or a picker's button that the pointer focused) while nothing is first
    /// responder: the events a front sends, in order. The field becomes first responder (a picker
    /// opens) and Tab goes on from it along the chain as from any first responder — a picker so
    /// passed through chooses nothing (CONTRACT §6.5).
    public func tabEvents(fromFieldWidget id: String, forward: Bool) -> [Event] {
        [.tap(.field(id)), .key(forward ? .tab : .shiftTab)]
    }

    /// The stop Tab past the last field goes to (`forward`), or shift+Tab before the first.
    func stopBesideChain(forward: Bool) -> KeyboardStop {
        let stops = keyboardStops
        let before = Self.stopsBeforeChain
        if forward { return stops.count > before ? stops[before] : stops.last ?? primaryStop }
        return stops.count >= before && before > 0 ? stops[before - 1] : stops.last ?? primaryStop
    }

    /// Where keyboard focus goes after `event` (nil: the session has just started or been
    /// restored), given what the event emitted.
    public func keyboardFocus(after event: Event?, emitted: some Collection<SessionNotification>) -> KeyboardFocus {
        if emitted.contains(where: { if case .completed = $0 { true } else { false } }) { return .completed }
        if completion != nil { return .unchanged }
        guard let event else { return focusedField.map(KeyboardFocus.field) ?? .stop(primaryStop) }
        // A first responder has it, wherever the event came from.
        if let field = focusedField { return .field(field) }
        var resigned: String? = nil
        // The visible page a move is going to (nil: the event moved no page).
        var destination: Int? = nil
        for notification in emitted {
            switch notification {
            case .focusChanged(let from?, nil): resigned = from
            case .pageWillChange(_, let to), .pageDidChange(_, let to, true): destination = to
            default: break
            }
        }
        // A refused move or finish: the first field whose error it revealed, when it is on the
        // page the pager shows or goes to; out of sight, focus stays (a notice says where it is).
        for case .refused(let reason, let errors) in emitted where reason != .maxLength {
            if let first = errors.first, isOnPage(field: first.field, destination: destination) { return .field(first.field) }
            return .stay(orElse: destination.map { Self.primary(of: keyboardStops(atIndex: $0)) } ?? primaryStop)
        }
        if let destination {
            // A move from a page control keeps focus there if the control is still there on
            // the page it goes to; any other move leaves focus on the stops where it is.
            let stops = keyboardStops(atIndex: destination)
            let primary = Self.primary(of: stops)
            switch event {
            case .tap(.button(let button)):
                let stop = KeyboardStop(button)
                return stops.contains(stop) ? .stop(stop) : .stop(primary)
            case .tap(.indicatorLeft), .tap(.indicatorRight), .tap(.indicatorPage):
                return indicatorHidden ? .stop(primary) : .stop(.indicator)
            default:
                return .stay(orElse: primary)
            }
        }
        if let resigned {
            switch event {
            case .key(.tab):
                return .stop(stopBesideChain(forward: true))
            case .key(.shiftTab):
                return .stop(stopBesideChain(forward: false))
            case .tap(.field(let tapped)) where tapped != resigned:
                // A toggle's press resigned the first responder: focus is on the toggle.
                return .field(tapped)
            default:
                // A closed picker leaves focus on its field's widget; a resigned text field's
                // entry would take typing the session no longer accepts, so focus goes to the
                // page's controls.
                guard let index = flow.fieldIndex(of: resigned), flow.fieldTraits[index].isPicker, canFocus(index) else {
                    return .stay(orElse: primaryStop)
                }
                return .field(resigned)
            }
        }
        return .unchanged
    }
}

extension KeyboardStop {
    init(_ button: TapTarget.Button) {
        switch button {
        case .back: self = .back
        case .next: self = .next
        case .skip: self = .skip
        case .finish: self = .finish
        case .cancel: self = .cancel
        }
    }
}
