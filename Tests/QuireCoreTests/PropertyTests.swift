import Foundation
import PropertyBased
import Testing

@testable import QuireCore

/// Long random event sequences on several flows; the invariants hold after every event.
@Suite struct PropertyTests {
    /// Every event a script could send to `flow`, so a sequence is a list of indices into it.
    static func events(for flow: Flow) -> [Event] {
        var events: [Event] = [
            .tap(.background), .tap(.indicatorLeft), .tap(.indicatorRight), .tap(.indicatorPage(0)), .tap(.indicatorPage(2)),
            .type("a"), .type("Zz\n"), .type("é👍"), .select("red"), .select("ja"), .select("free"), .select("team"), .dragBegin,
            .dragUpdate(dx: -120),
            .dragUpdate(dx: -500), .dragUpdate(dx: 300), .dragEnd(vx: 0), .dragEnd(vx: -900), .dragEnd(vx: 450),
            .swipePage(forward: true), .swipePage(forward: false), .swipe(dx: -200, vx: 0), .tick(16), .tick(100), .tick(1000),
            .settle,
        ]
        events += TapTarget.Button.allCases.filter { $0 != .cancel }.map { .tap(.button($0)) }
        events += AccessoryItem.allCases.map { .tap(.accessory($0)) }
        events += Key.allCases.map { .key($0) }
        events += DurationComponent.allCases.flatMap { [.spin(component: $0, by: 1), .spin(component: $0, by: -3)] }
        for field in flow.fields {
            events += [.tap(.field(field.id)), .tap(.field(field.id))]
        }
        // Rarely: cancel the whole flow.
        events.append(.tap(.button(.cancel)))
        return events
    }

    /// The flows the properties run on, loaded in the test that uses them (a flow that does not
    /// load fails that test, not the whole run).
    static let flows: [@Sendable () throws -> Flow] = [
        { try formFlow(paging: #"{"animationMs": 120}"#) },
        { try formFlow(paging: #"{"animationMs": 0, "wrap": true, "gate": "none"}"#) },
        { try pagesFlow(5, paging: #"{"animationMs": 200, "wrap": true, "autoAdvanceMs": 300}"#) },
        { try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/focus-onboarding.json").path) },
        // An open picker's draft adds and removes the pages after the first (input during drags).
        { try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/draft-decides.json").path) },
        {
            try makeFlow(
                #"""
                {"format": "quire.flow/1", "id": "cond", "paging": {"animationMs": 50},
                 "pages": [
                  {"id": "a", "fields": [{"id": "on", "kind": "toggle", "default": true},
                                         {"id": "color", "kind": "choice", "options": [{"id": "red"}, {"id": "blue"}]},
                                         {"id": "n", "kind": "text", "requiredIf": {"field": "color", "equals": "red"}, "maxLength": 3}]},
                  {"id": "b", "visibleIf": {"field": "on", "equals": true},
                   "fields": [{"id": "d", "kind": "duration", "components": ["hours", "minutes", "seconds"], "min": 0, "required": true}]},
                  {"id": "c", "visibleIf": {"any": [{"field": "d", "greaterThan": 60}, {"field": "color", "equals": "blue"}]},
                   "fields": [{"id": "t", "kind": "toggle", "required": true}]},
                  {"id": "z"}]}
                """#)
        },
    ]

    /// Checks every invariant after one event. Returns a description of the first broken one.
    static func check(before: Session, after: Session, notes: [SessionNotification], event: Event) -> String? {
        let count = after.pageCount
        let index = after.currentIndex
        if !(0..<count).contains(index) { return "page index \(index) outside 0..<\(count)" }
        if !after.answers.pageVisible[after.pager.currentPage] { return "the current page is hidden" }
        // The visible index is kept as pages turn and appear, not counted per event.
        let counted = after.answers.pageVisible[..<after.pager.currentPage].filter { $0 }.count
        if index != counted { return "current index \(index) kept, \(counted) counted" }
        if after.transition == nil && after.pager.position != Double(index) {
            return "settled at position \(after.pager.position), page \(index)"
        }
        // A drag with a picker open reveals the pages its draft makes: its target is an index
        // among the pages as they will be once the draft commits (docs/session-semantics.md,
        // "With a picker open, a drag sees the pages its draft makes").
        let reachable = after.draftChangesValue ? max(count, Outlook(committingDraftOf: after).visibleCount) : count
        if let transition = after.transition, !(0..<reachable).contains(transition.to) {
            return "transition to \(transition.to) outside 0..<\(reachable)"
        }
        // A drag is always laid out against the pages and answers as they are now (input during
        // the drag moves it at once): laying it out again with the same offset changes nothing.
        if case .dragging(let drag) = after.pager.motion {
            var relaid = after
            let relaidNotes = relaid.send(.dragUpdate(dx: drag.dx))
            if relaid != after || !relaidNotes.isEmpty { return "the drag was not laid out against the pages as they are" }
        }
        if let input = after.focusChain.input {
            // At most one first responder (by construction), and it is a legal one.
            if !after.canFocus(input.field) || after.flow.fields[input.field].page != after.pager.currentPage {
                return "first responder \(after.flow.fields[input.field].id) cannot be one"
            }
        }
        // The first responder is kept as plain fields: with none they are at rest (so equal
        // sessions compare equal field by field), and `input` read and restored changes nothing.
        if !after.focusChain.hasInput
            && (after.focusChain.draft != .null || after.focusChain.original != .null || after.focusChain.wheel != 0)
        {
            return "no first responder, but its fields are not at rest"
        }
        if (after.focusChain.input == nil) == after.focusChain.hasInput { return "input and hasInput disagree" }
        var rewritten = after
        rewritten.focusChain.restore(after.focusChain.input)
        if rewritten != after { return "input read and restored changed the session" }
        if before.completion != nil {
            if after != before { return "the session changed after completion" }
            if notes.count != 1 || notes.first?.ignoredReason != .completed { return "an event after completion was not ignored" }
        }
        if notes.filter({ $0.name == "completed" }).count > (before.completion == nil ? 1 : 0) {
            return "completed more than once"
        }
        // A committed value changes only with a valueChanged for its field, carrying the new value.
        for (field, definition) in after.flow.fields.enumerated() where before.answers.values[field] != after.answers.values[field] {
            let expected = SessionNotification.valueChanged(field: definition.id, value: definition.json(after.answers.values[field]))
            if !notes.contains(expected) { return "\(definition.id) changed without valueChanged" }
        }
        return nil
    }

    @Test(.reproducibleSeed, arguments: 0..<flows.count)
    func invariantsHoldOverLongRandomSequences(flowIndex: Int) async throws {
        let flow = try Self.flows[flowIndex]()
        let events = Self.events(for: flow)
        await propertyCheck(count: 60, input: Gen.int(in: 0...(events.count - 1)).array(of: 20...250)) { indices in
            var session = Session(flow: flow, viewportWidth: 800)
            for (step, eventIndex) in indices.enumerated() {
                let event = events[eventIndex]
                let before = session
                let notes = session.send(event)
                if let broken = Self.check(before: before, after: session, notes: notes, event: event) {
                    Issue.record("flow \(flow.id), step \(step) \(event): \(broken)")
                    return
                }
                // Snapshot → restore gives an equal session, at every step.
                let restored = try? Session(
                    restoring: JSONWriter.data(session.snapshot(includingFlow: step % 25 == 0)), flow: step % 25 == 0 ? nil : flow)
                if restored != session {
                    Issue.record("flow \(flow.id), step \(step) \(event): snapshot did not restore an equal session")
                    return
                }
            }
        }
    }

    /// Input while a finger is down, where it matters: a field is focused, a drag reveals the next
    /// page, then picker drafts, commits, typing and erasing mix with moves of the finger. After
    /// every event the invariants hold, among them that the drag is laid out against the pages and
    /// answers as they are then (a draft that removes the revealed page rubber-bands at once).
    @Test(.reproducibleSeed, arguments: [("draft-decides", "plan", 0), ("gated-form", "userName", 1)])
    func inputDuringADragMovesTheDragAtOnce(flowName: String, field: String, page: Int) async throws {
        let flow = try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/\(flowName).json").path)
        let inputs: [Event] = [
            .select("free"), .select("pro"), .select("team"), .select("family"), .select("solo"), .key(.up), .key(.down),
            .key(.return), .key(.backSpace), .key(.escape), .type("a"), .type("ab"), .tap(.accessory(.done)),
            .tap(.field(field)), .dragUpdate(dx: -400), .dragUpdate(dx: -700), .dragUpdate(dx: 300), .dragUpdate(dx: 0),
        ]
        await propertyCheck(count: 60, input: Gen.int(in: 0...(inputs.count - 1)).array(of: 1...30)) { indices in
            var session = Session(flow: flow, viewportWidth: 800)
            if page > 0 {
                session.send(.tap(.indicatorPage(page)))
                session.send(.settle)
            }
            for event in [Event.tap(.field(field)), .dragBegin, .dragUpdate(dx: -400)] { session.send(event) }
            for (step, index) in indices.enumerated() {
                let before = session
                let notes = session.send(inputs[index])
                if let broken = Self.check(before: before, after: session, notes: notes, event: inputs[index]) {
                    Issue.record("flow \(flow.id), step \(step) \(inputs[index]): \(broken)")
                    return
                }
            }
        }
    }

    @Test(.reproducibleSeed) func theSameEventsGiveTheSameSession() async throws {
        let flow = try Self.flows[0]()
        let events = Self.events(for: flow)
        await propertyCheck(count: 30, input: Gen.int(in: 0...(events.count - 1)).array(of: 1...150)) { indices in
            var a = Session(flow: flow)
            var b = Session(flow: flow)
            for index in indices {
                #expect(a.send(events[index]) == b.send(events[index]))
            }
            #expect(a == b)
        }
    }
}
