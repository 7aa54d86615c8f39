import Testing

@testable import QuireCore

/// `Session.resumePoint`: what a resume restores, so a front saving as it goes knows when a save
/// is due (the GTK app's autosave).
@Suite struct ResumePointTests {
    /// A drag in flight has no resume point (a resume starts from before it); its release has one,
    /// different from before the drag when the pages move.
    @Test func aDragInFlightHasNoPointAndItsReleaseHasOne() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        let before = try #require(session.resumePoint)
        session.run(.dragBegin)
        #expect(session.resumePoint == nil)
        session.run(.dragUpdate(dx: -300), .dragUpdate(dx: -500))
        #expect(session.resumePoint == nil)
        session.run(.dragEnd(vx: -800))
        let released = try #require(session.resumePoint)
        #expect(released != before)
        // A drag that goes back where it began changes nothing a resume restores once it lands.
        session.run(.settle)
        let landed = try #require(session.resumePoint)
        session.run(.dragBegin, .dragUpdate(dx: -20), .dragUpdate(dx: 0), .dragEnd(vx: 0), .settle)
        #expect(session.resumePoint == landed)
    }

    /// Ticks that only advance an animation leave the point alone; the tick that lands it does not.
    @Test func ticksChangeThePointOnlyWhenTheMoveLands() throws {
        var session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 250}"#))
        session.run(next)
        let moving = try #require(session.resumePoint)
        session.run(.tick(16), .tick(16), .tick(100))
        #expect(session.resumePoint == moving)
        session.run(.tick(200))
        #expect(session.pageID == "p1")
        #expect(session.resumePoint != moving)
        // Next again while moving turns the move towards the page after: a new point.
        session.run(next, .tick(16))
        let turning = try #require(session.resumePoint)
        session.run(next)
        #expect(session.resumePoint != turning)
        // Past the last page, next is ignored: the same point.
        session.run(.settle)
        let last = try #require(session.resumePoint)
        session.run(next)
        #expect(session.resumePoint == last)
    }

    /// The auto-advance wait is time: a resume runs it again, so its ticks change nothing.
    @Test func theAutoAdvanceWaitIsNotAChange() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 0, "autoAdvanceMs": 1000}"#))
        let waiting = try #require(session.resumePoint)
        session.run(.tick(400), .tick(400))
        #expect(session.resumePoint == waiting)
        session.run(.tick(200))
        #expect(session.resumePoint != waiting)
    }

    /// Answers, focus, a picker's draft and a completion each change the point; an ignored event
    /// does not.
    @Test func answersFocusDraftsAndCompletionAreChanges() throws {
        var session = try Session(flow: formFlow())
        session.run(next)
        var last = try #require(session.resumePoint)
        func changed(_ event: Event) throws -> Bool {
            session.run(event)
            let point = try #require(session.resumePoint)
            defer { last = point }
            return point != last
        }
        #expect(try changed(tapField("name")))  // focus
        #expect(try changed(.type("Ann")))  // an answer
        #expect(try !changed(.key(.left)))  // ignored in a text field
        #expect(try changed(tapField("time")))  // a picker opens with its draft
        #expect(try changed(.spin(component: .minutes, by: 1)))  // the draft
        #expect(try changed(.tap(.accessory(.done))))
        #expect(try !changed(.tap(.accessory(.done))))  // nothing open: ignored
        #expect(try changed(.tap(.button(.cancel))))  // completed
    }

    /// A session restored from its snapshot resumes at the same point: the point holds nothing a
    /// snapshot does not.
    @Test func aRestoredSnapshotHasTheSamePoint() throws {
        var session = try Session(flow: formFlow(paging: #"{"animationMs": 250}"#))
        for event: Event in [next, tapField("name"), .type("Bo"), tapField("color"), .key(.down), next, .tick(50)] {
            session.run(event)
            let restored = try Session(restoring: session.snapshot(), flow: session.flow)
            #expect(restored.resumePoint == session.resumePoint)
        }
    }
}
