import PropertyBased
import Testing

@testable import QuireCore

/// The `Tab` path's shortcuts against the general paths they stand for, over random event
/// sequences on the property tests' flows: handing focus over in one step (`Session.handFocus`)
/// against resigning first (`focusResigningFirst`), and notifications written over the previous
/// event's in a reused buffer against a fresh buffer.
@Suite struct FocusHandOffTests {
    /// `focusResigningFirst(field)` on a copy of `session`, or `focus(field)` with `stale` of
    /// the previous event's notifications in the buffer (as a `Tab` leaves them): the session
    /// after it and what it emitted.
    static func focused(_ session: Session, _ field: Int, resigningFirst: Bool, stale: Int = 0) -> (Session, [SessionNotification]) {
        var session = session
        session.outbox = []
        if resigningFirst {
            session.focusResigningFirst(field)
        } else {
            session.outbox = (0..<stale).map { .focusChanged(from: "old\($0)", to: nil) }
            session.stale = stale
            session.focus(field)
            session.discardStale()
        }
        let notes = session.outbox
        session.outbox = []
        return (session, notes)
    }

    @Test(.reproducibleSeed, arguments: 0..<PropertyTests.flows.count)
    func handingFocusOverMatchesResigningFirst(flowIndex: Int) async throws {
        let flow = try PropertyTests.flows[flowIndex]()
        let events = PropertyTests.events(for: flow)
        let textFields = flow.fields.indices.filter { flow.fieldTraits[$0].kind == .text }
        await propertyCheck(count: 40, input: Gen.int(in: 0...(events.count - 1)).array(of: 10...120)) { indices in
            var session = Session(flow: flow, viewportWidth: 800)
            for (step, eventIndex) in indices.enumerated() {
                session.send(events[eventIndex])
                var start = session
                // A text field restored from a snapshot may carry a draft and a wheel.
                if step % 7 == 3, start.hasInput, textFields.contains(start.inputField) {
                    start.inputDraft = .text("draft")
                    start.inputWheel = 2
                }
                for field in flow.fields.indices {
                    let stale = [0, 3, 2, 5][(step + field) % 4]
                    let expected = Self.focused(start, field, resigningFirst: true)
                    let actual = Self.focused(start, field, resigningFirst: false, stale: stale)
                    if actual.1 != expected.1 || actual.0 != expected.0 {
                        Issue.record(
                            "flow \(flow.id), step \(step), focus \(flow.fields[field].id) over \(stale): \(actual.1) against \(expected.1)")
                        return
                    }
                }
                // `send` takes `Tab` on a path of its own (`sendTab`), with the previous
                // notifications in the buffer: as `dispatch` on an empty one.
                for key in [Key.tab, .shiftTab] {
                    var viaSend = start
                    var buffer: [SessionNotification] = (0..<(step % 6)).map { .focusChanged(from: "old\($0)", to: nil) }
                    viaSend.send(.key(key), into: &buffer)
                    var viaDispatch = start
                    viaDispatch.outbox = []
                    viaDispatch.dispatch(.key(key))
                    let expected = viaDispatch.outbox
                    viaDispatch.outbox = []
                    if buffer != expected || viaSend != viaDispatch {
                        Issue.record("flow \(flow.id), step \(step), \(key): \(buffer) against \(expected)")
                        return
                    }
                }
            }
        }
    }

    @Test(.reproducibleSeed, arguments: 0..<PropertyTests.flows.count)
    func aReusedBufferHoldsTheSameNotificationsAsAFreshOne(flowIndex: Int) async throws {
        let flow = try PropertyTests.flows[flowIndex]()
        let events = PropertyTests.events(for: flow)
        await propertyCheck(count: 40, input: Gen.int(in: 0...(events.count - 1)).array(of: 10...200)) { indices in
            var reused = Session(flow: flow)
            var fresh = Session(flow: flow)
            var buffer: [SessionNotification] = []
            var previous: [SessionNotification] = []
            for (step, eventIndex) in indices.enumerated() {
                let event = events[eventIndex]
                // Now and then the caller keeps the previous notifications (the buffer shared):
                // they stay as they were.
                let kept = step % 5 == 0 ? buffer : nil
                reused.send(event, into: &buffer)
                let expected = fresh.send(event)
                if buffer != expected || reused != fresh {
                    Issue.record("flow \(flow.id), step \(step) \(event): \(buffer) against \(expected)")
                    return
                }
                if let kept, kept != previous {
                    Issue.record("flow \(flow.id), step \(step) \(event): the kept notifications changed")
                    return
                }
                previous = expected
            }
            #expect(reused.outbox.isEmpty && reused.stale == 0)
        }
    }

    @Test func aTabAfterATabWritesOverTheBufferInPlace() {
        let fields = ["a", "b", "c"].map { #"{"id": "\#($0)", "kind": "text"}"# }.joined(separator: ",")
        var session = Session(
            flow: try! makeFlow(#"{"format": "quire.flow/1", "id": "tabs", "pages": [{"id": "p", "fields": [\#(fields)]}]}"#))
        var buffer: [SessionNotification] = []
        session.send(tapField("a"), into: &buffer)
        session.send(.key(.tab), into: &buffer)
        let kept = buffer
        session.send(.key(.tab), into: &buffer)
        #expect(buffer == [.inputDismissed(field: "b", committed: true), .focusChanged(from: "b", to: "c"), .inputPresented(field: "c", view: .keyboard)])
        // The copy the caller kept is not written over.
        #expect(kept == [.inputDismissed(field: "a", committed: true), .focusChanged(from: "a", to: "b"), .inputPresented(field: "b", view: .keyboard)])
        // Fewer notifications than the buffer held: the rest are removed.
        session.send(.key(.escape), into: &buffer)
        #expect(buffer == [.inputDismissed(field: "c", committed: true), .focusChanged(from: "c", to: nil)])
    }
}
