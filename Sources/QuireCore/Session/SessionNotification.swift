/// What a session tells its fronts after an event (UIKit's delegate callbacks), CONTRACT §4.
public enum SessionNotification: Sendable, Hashable {
    case pageWillChange(from: Int, to: Int)
    case pageDidChange(from: Int, to: Int, completed: Bool)
    case focusChanged(from: String?, to: String?)
    case inputPresented(field: String, view: InputView)
    case inputDismissed(field: String, committed: Bool)
    case valueChanged(field: String, value: JSONValue)
    /// Extension: the open picker's draft changed (a wheel turned, an option selected).
    case draftChanged(field: String, draft: JSONValue)
    case refused(reason: Refusal, errors: [FieldError])
    case ignored(event: String, target: String?, reason: IgnoreReason)
    case completed(outcome: Outcome)
    /// The session asks its host to apply a page's answers (CONTRACT §6.1): `values` as a
    /// `finished` result holds them (the visible fields of the flow).
    case applyRequested(page: String, values: JSONObject)
    /// The apply in progress ended: applied, failed, cancelled or timed out.
    case applyFinished(page: String, outcome: ApplyOutcome)

    /// The kinds of notification: the one list the session, the harness and the docs read.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case pageWillChange, pageDidChange, focusChanged, inputPresented, inputDismissed, valueChanged, draftChanged,
            refused, ignored, completed, applyRequested, applyFinished

        /// The keys of this kind's payload, in the order they are written.
        public var payloadKeys: [String] {
            switch self {
            case .pageWillChange: ["from", "to"]
            case .pageDidChange: ["from", "to", "completed"]
            case .focusChanged: ["from", "to"]
            case .inputPresented: ["field", "view"]
            case .inputDismissed: ["field", "committed"]
            case .valueChanged: ["field", "value"]
            case .draftChanged: ["field", "draft"]
            case .refused: ["reason", "errors"]
            case .ignored: ["event", "target", "reason"]
            case .completed: ["outcome"]
            case .applyRequested: ["page", "values"]
            case .applyFinished: ["page", "outcome"]
            }
        }

        /// The values its `reason` can take, for kinds that have one.
        public var reasons: [String]? {
            switch self {
            case .refused: Refusal.allCases.map(\.rawValue)
            case .ignored: IgnoreReason.allNames
            default: nil
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .pageWillChange: .pageWillChange
        case .pageDidChange: .pageDidChange
        case .focusChanged: .focusChanged
        case .inputPresented: .inputPresented
        case .inputDismissed: .inputDismissed
        case .valueChanged: .valueChanged
        case .draftChanged: .draftChanged
        case .refused: .refused
        case .ignored: .ignored
        case .completed: .completed
        case .applyRequested: .applyRequested
        case .applyFinished: .applyFinished
        }
    }

    public var name: String { kind.rawValue }

    public static let names = Kind.allCases.map(\.rawValue)

    /// `{"name": {payload}}`, the same one-key shape as events.
    public var json: JSONValue {
        let payload: JSONValue
        switch self {
        case .pageWillChange(let from, let to):
            payload = ["from": .number(Double(from)), "to": .number(Double(to))]
        case .pageDidChange(let from, let to, let completed):
            payload = ["from": .number(Double(from)), "to": .number(Double(to)), "completed": .bool(completed)]
        case .focusChanged(let from, let to):
            payload = ["from": from.map(JSONValue.string) ?? .null, "to": to.map(JSONValue.string) ?? .null]
        case .inputPresented(let field, let view):
            payload = ["field": .string(field), "view": .string(view.rawValue)]
        case .inputDismissed(let field, let committed):
            payload = ["field": .string(field), "committed": .bool(committed)]
        case .valueChanged(let field, let value):
            payload = ["field": .string(field), "value": value]
        case .draftChanged(let field, let draft):
            payload = ["field": .string(field), "draft": draft]
        case .refused(let reason, let errors):
            var map = JSONObject()
            for error in errors { map[error.field] = .string(error.code.rawValue) }
            payload = ["reason": .string(reason.rawValue), "errors": .object(map)]
        case .ignored(let event, let target, let reason):
            var object = JSONObject()
            object.append("event", .string(event))
            if let target { object["target"] = .string(target) }
            object["reason"] = .string(reason.rawValue)
            payload = .object(object)
        case .completed(let outcome):
            payload = ["outcome": .string(outcome.rawValue)]
        case .applyRequested(let page, let values):
            payload = ["page": .string(page), "values": .object(values)]
        case .applyFinished(let page, let outcome):
            payload = ["page": .string(page), "outcome": .string(outcome.rawValue)]
        }
        return [name: payload]
    }
}

public enum InputView: String, Sendable, Hashable {
    case keyboard, durationPicker, choiceList
}

public enum Outcome: String, Sendable, Hashable {
    case finished, cancelled
}

/// How an apply ended (`applyFinished`).
public enum ApplyOutcome: String, Sendable, Hashable, CaseIterable {
    case applied, failed, cancelled, timedOut
}

/// A validation error code (CONTRACT §2 "Validation").
///
/// The session's own codes are the five below; a host's failed apply (CONTRACT §6.1) may put its
/// own codes, any id such as `taken`, on fields.
public struct ValidationCode: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String

    /// One of the session's own codes; nil for any other name.
    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    /// A host's code (an id): the session's own code of that name, if it is one.
    public init(host name: String) { rawValue = name }

    private init(_ name: StaticString) { rawValue = "\(name)" }

    public static let required = ValidationCode("required")
    public static let minLength = ValidationCode("minLength")
    public static let maxLength = ValidationCode("maxLength")
    public static let min = ValidationCode("min")
    public static let max = ValidationCode("max")

    /// The session's own codes.
    public static let allCases: [ValidationCode] = [.required, .minLength, .maxLength, .min, .max]

    public var description: String { rawValue }
}

public struct FieldError: Sendable, Hashable {
    public var field: String
    public var code: ValidationCode
}

/// Why a requested action was refused (the request was understood, the rules said no).
public enum Refusal: String, Sendable, Hashable, CaseIterable {
    /// A forward move left or passed over a page with errors (`paging.gate: "valid"`).
    case gate
    /// `button:finish` with errors on some visible page.
    case finish
    /// Typing would make the text longer than `maxLength`.
    case maxLength
    /// The host did not accept the page's answers, or did not answer in time (CONTRACT §6.1).
    case apply
}

/// Why an event did not apply (it changed nothing).
public enum IgnoreReason: String, Sendable, Hashable, CaseIterable {
    /// The session has completed.
    case completed
    /// The page is being applied: everything but Cancel, Escape and the clock waits.
    case applying
    /// An `applied` or `applyFailed` that answers no apply in progress.
    case notApplying
    /// The event needs a first responder and nothing is focused.
    case noFirstResponder
    /// A tap named a field the flow does not have.
    case unknownField
    case hidden, disabled, otherPage
    /// A transition (animation or drag) is running; the front is moving pages.
    case transitionInProgress
    /// A drag is in progress (a second drag, or a programmatic move during it).
    case dragInProgress
    /// `dragUpdate`/`dragEnd` with no drag begun.
    case noDrag
    /// `paging.swipe` is false.
    case swipeDisabled
    /// No page in that direction (and no wrap), or the list/wheel stops there.
    case atEnd
    /// `indicator:N` with N outside the visible pages.
    case noSuchPage
    /// A move to the page the pager is already on (or heading to).
    case samePage
    /// The indicator is hidden, so it cannot be tapped.
    case indicatorHidden
    /// The accessory item is not in the first responder's toolbar.
    case notInAccessory
    /// Spacers in the toolbar are not buttons.
    case notAButton
    /// Typing into a picker (only a newline applies there, as Return).
    case notTextInput
    /// `BackSpace` on empty text, `type` with an empty string, or an `edit` that replaces an
    /// empty range with nothing.
    case emptyText
    /// An `edit` whose range ends past the end of the text.
    case outOfRange
    /// `spin` with no duration picker open.
    case noDurationPicker
    /// `spin` names a wheel the open picker does not have.
    case noSuchWheel
    /// `select` with no choice list open.
    case noChoiceList
    case unknownOption
    /// `Tab` on a page with no editable field, or no other one.
    case noEditableField
    /// A paging or arrow key while a field is first responder that does not use it.
    case firstResponderActive
    /// An arrow key with nothing focused that does not page (`Up`/`Down`).
    case noAction
}

extension IgnoreReason {
    public static let allNames = allCases.map(\.rawValue)

}
