/// A session rebuilt from an edited flow (`quire run --watch`, issue 38 item 2): started as the
/// old one was, then given the author's own events since launch, so the window shows the same
/// page and answers — until an event no longer does what it did.
public struct HeardEvent: Sendable, Hashable {
    public var event: Event
    /// The session ignored it when it was heard.
    public var ignored: Bool
    /// The session refused it when it was heard (the gate, Finish, maxLength, the host).
    public var refused: Bool

    public init(_ event: Event, emitted: [SessionNotification]) {
        self.event = event
        ignored = emitted.contains { if case .ignored = $0 { true } else { false } }
        refused = emitted.contains { if case .refused = $0 { true } else { false } }
    }
}

public struct Reload: Sendable {
    /// Where the replay stopped: the event (0-based) that no longer applies, and why.
    public struct Stop: Sendable, Hashable {
        public var index: Int
        public var event: Event
        public var reason: String
    }

    public var session: Session
    /// How many of the events were replayed (all of them, unless `stop`).
    public var replayed: Int
    public var stop: Stop?
}

extension Session {
    /// `flow`'s session started as a walkthrough started (its locale, viewport width, reduced
    /// motion and starting values), with `events` replayed in order.
    ///
    /// **Decisions:** an event no longer applies when the new flow's session ignores it and the
    /// old one did not (a tap on a field that is gone or hidden now), refuses it and the old one
    /// did not (a field made required), or would complete the walkthrough (the window would
    /// leave it; the author is editing it). The replay stops before that event: the session is
    /// as it was after the one before, and `stop` says which event and why. Ticks replay with
    /// their durations, so moves land where they landed.
    public static func reload(
        flow: Flow, locale: String, viewportWidth: Double, reducedMotion: Bool, startingWith values: JSONObject,
        events: [HeardEvent]
    ) -> Reload {
        var session = Session(flow: flow, locale: locale, viewportWidth: viewportWidth, startingWith: values)
        session.reducedMotion = reducedMotion
        var buffer: [SessionNotification] = []
        for (index, heard) in events.enumerated() {
            var next = session
            next.send(heard.event, into: &buffer)
            var reason: String? = nil
            for notification in buffer where reason == nil {
                switch notification {
                case .ignored(_, _, let why) where !heard.ignored:
                    reason = "ignored now (\(why.rawValue))"
                case .refused(let refusal, let errors) where !heard.refused:
                    let fields = errors.map { "\($0.field) \($0.code)" }.joined(separator: ", ")
                    reason = "refused now (\(refusal.rawValue)\(fields.isEmpty ? "" : ": " + fields))"
                case .completed(let outcome):
                    reason = "it would complete the walkthrough (\(outcome.rawValue))"
                default:
                    break
                }
            }
            if let reason {
                return Reload(session: session, replayed: index, stop: Reload.Stop(index: index, event: heard.event, reason: reason))
            }
            session = next
        }
        return Reload(session: session, replayed: events.count, stop: nil)
    }
}
