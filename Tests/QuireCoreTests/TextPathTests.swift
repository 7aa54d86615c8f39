import Testing

@testable import QuireCore

/// The typing path (a text changed where it is stored, then `Session.textChanged`, which `type`
/// and `BackSpace` take) against the general one (`setValue(field, .text(text))`): the same
/// session and the same notifications, on a flow whose
/// text fields are named by visibility, enablement and requiredness conditions of fields and
/// pages, with every text rule (`required`, `minLength`, `maxLength`).
@Suite struct TextPathTests {
    static func flow() throws -> Flow {
        try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "typing", "paging": {"animationMs": 0, "gate": "none"},
             "pages": [
              {"id": "a", "fields": [
                {"id": "name", "kind": "text", "required": true, "minLength": 2, "maxLength": 6},
                {"id": "code", "kind": "text"},
                {"id": "nick", "kind": "text", "visibleIf": {"field": "name", "filled": true}, "minLength": 3},
                {"id": "city", "kind": "text", "enabledIf": {"field": "name", "equals": "ab"}, "required": true},
                {"id": "zip", "kind": "text", "requiredIf": {"field": "code", "filled": true}, "maxLength": 2},
                {"id": "on", "kind": "toggle", "default": true}]},
              {"id": "b", "visibleIf": {"field": "code", "equals": "x"}, "fields": [
                {"id": "b1", "kind": "text", "requiredIf": {"field": "name", "notEquals": "abc"}},
                {"id": "b2", "kind": "text", "minLength": 3, "enabledIf": {"not": {"field": "code", "filled": false}}}]},
              {"id": "c", "fields": [
                {"id": "c1", "kind": "text", "visibleIf": {"any": [{"field": "name", "equals": "abcd"}, {"field": "nick", "filled": true}]},
                 "requiredIf": {"field": "zip", "in": ["1", "12"]}},
                {"id": "c2", "kind": "text", "visibleIf": {"field": "on", "equals": true}, "maxLength": 1}]}]}
            """#)
    }

    static let texts = ["", "a", "ab", "abc", "abcd", "abcdefg", "x", "1", "12", "é", "e\u{301}", "👍🏽", "\r\n", "日本語", "a text of 24 characters"]

    /// Events that move the session into varied states: fields focused, typed into, hidden and
    /// shown by what is typed, pages turned.
    static func events(_ flow: Flow) -> [Event] {
        var events: [Event] = [.key(.tab), .key(.shiftTab), .key(.backSpace), .key(.backSpace), .key(.return), .tap(.background),
                               .tap(.indicatorRight), .tap(.indicatorLeft), .type("\n")]
        events += texts.filter { !$0.isEmpty }.map { .type($0) }
        events += flow.fields.map { .tap(.field($0.id)) }
        return events
    }

    /// A small generator (the same LCG as the other seeded tests).
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
    }

    /// In every state the events reach, setting any text field to any text in place and
    /// announcing it with `textChanged` leaves the same session (values, lengths, visibility, enablement, requiredness, errors,
    /// page counts, first responder) and the same notifications as `setValue`.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func textChangedDoesWhatSetValueDoes(seed: UInt64) throws {
        let flow = try Self.flow()
        let events = Self.events(flow)
        let textFields = flow.fields.indices.filter { flow.fieldTraits[$0].kind == .text }
        var random = Generator(seed: seed)
        var session = Session(flow: flow)
        var compared = 0
        for _ in 0..<300 {
            session.send(events[random.next(events.count)])
            for _ in 0..<3 {
                let field = textFields[random.next(textFields.count)]
                let text = Self.texts[random.next(Self.texts.count)]
                var fast = session
                var general = session
                fast.textLengths[field] = text.count
                general.textLengths[field] = text.count
                fast.values[field] = .text(text)
                fast.textChanged(field, isEmpty: text.isEmpty)
                general.setValue(field, .text(text))
                // The first difference only (a whole session printed per case would drown it).
                guard fast == general, fast.outbox == general.outbox else {
                    Issue.record("seed \(seed): \(flow.fieldIDs[field]) = \(text.debugDescription) differs from setValue")
                    return
                }
                compared += 1
            }
        }
        #expect(compared == 900)
    }

    /// Typed and erased through events, every text change leaves derived state equal to a
    /// recomputation from scratch, and ends with one `valueChanged` carrying the new text: the
    /// text before with the typed text appended (`String.append`), or its last character
    /// removed (`String.removeLast()`).
    @Test(arguments: [11, 12, 13, 14, 15, 16])
    func typingKeepsDerivedStateAsAFullRecomputation(seed: UInt64) throws {
        let flow = try Self.flow()
        let events = Self.events(flow)
        var random = Generator(seed: seed)
        var session = Session(flow: flow)
        var changes = 0
        for _ in 0..<600 {
            let event = events[random.next(events.count)]
            let before = session.focusedField.flatMap { session.value(of: $0)?.stringValue } ?? ""
            let notes = session.send(event)
            var fresh = session
            fresh.rebuildDerived()
            guard fresh == session else {
                Issue.record("seed \(seed): after \(event), derived state differs from a full recomputation")
                return
            }
            if case .valueChanged(let id, let value) = notes.last, let field = flow.fieldIndex(of: id),
                flow.fieldTraits[field].kind == .text
            {
                #expect(session.value(of: id) == value)
                var expected = before
                switch event {
                case .type(let typed) where !typed.contains(where: \.isNewline): expected.append(typed)
                case .key(.backSpace): expected.removeLast()
                default: expected = value.stringValue ?? ""
                }
                #expect(value == .string(expected), "seed \(seed): \(before.debugDescription) after \(event)")
                #expect(session.textLengths[field] == (value.stringValue ?? "").count)
                changes += 1
            }
        }
        #expect(changes > 50, "seed \(seed): only \(changes) text changes")
    }
}
