import Foundation
import Testing

@testable import QuireCore

/// "Go to page 2" on a refusal notice lands keyboard focus on the field it names, not on the
/// page dots (issue 33: typing after the button went nowhere).
@Suite struct NoticeFocusTests {
    func onboarding() throws -> Session {
        Session(flow: try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/focus-onboarding.json").path))
    }

    @Test func theNoticesActionFocusesTheFieldItNames() throws {
        var session = try onboarding()
        let refused = session.send(.tap(.button(.skip)))
        let notice = try #require(session.refusalNotice(after: .tap(.button(.skip)), emitted: refused, previous: nil))
        #expect(notice.field == "userName")
        let emitted = session.send(notice.event)
        #expect(session.keyboardFocus(afterNoticeAction: notice, emitted: emitted) == .field("userName"))
        // The same dot tapped by itself keeps focus on the dots, as before.
        #expect(session.keyboardFocus(after: notice.event, emitted: emitted) == .stop(.indicator))
        // No first responder was made: the field waits for the person to type.
        #expect(session.focusedField == nil)
    }

    @Test func aNoticeWhoseFieldIsGoneFallsBackToTheGeneralRule() throws {
        var session = try onboarding()
        let refused = session.send(.tap(.button(.skip)))
        var notice = try #require(session.refusalNotice(after: .tap(.button(.skip)), emitted: refused, previous: nil))
        notice.field = "noSuchField"
        let emitted = session.send(notice.event)
        #expect(
            session.keyboardFocus(afterNoticeAction: notice, emitted: emitted)
                == session.keyboardFocus(after: notice.event, emitted: emitted))
    }
}
