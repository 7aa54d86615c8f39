import Testing

@testable import QuireCore

/// The precedence of ignore reasons (CONTRACT §3, amended; `IgnoreReason.Tier`): what the
/// session is doing comes before whether the target exists, which comes before its state.
@Suite struct IgnorePrecedenceTests {
    static func reason(_ notifications: [SessionNotification]) -> IgnoreReason? {
        guard notifications.count == 1, case .ignored(_, _, let reason) = notifications[0] else { return nil }
        return reason
    }

    @Test func anUnknownFieldTappedDuringATransitionIsTransitionInProgress() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        session.send(.tap(.button(.next)))
        #expect(Self.reason(session.send(.tap(.field("nosuchfield")))) == .transitionInProgress)
        session.send(.settle)
        #expect(Self.reason(session.send(.tap(.field("nosuchfield")))) == .unknownField)
        session.send(.dragBegin)
        #expect(Self.reason(session.send(.tap(.field("nosuchfield")))) == .transitionInProgress)
    }

    @Test func aHiddenIndicatorDuringADragIsDragInProgress() throws {
        var session = try Session(flow: pagesFlow(2, paging: #"{"animationMs": 0, "indicator": {"style": "none"}}"#))
        #expect(Self.reason(session.send(.tap(.indicatorPage(5)))) == .indicatorHidden)
        session.send(.dragBegin)
        #expect(Self.reason(session.send(.tap(.indicatorPage(5)))) == .dragInProgress)
        #expect(Self.reason(session.send(.tap(.indicatorRight))) == .dragInProgress)
    }

    @Test func aDisabledButtonDuringADragIsDragInProgress() throws {
        var session = try Session(flow: pagesFlow(3))
        #expect(Self.reason(session.send(.tap(.button(.back)))) == .disabled)
        session.send(.dragBegin)
        #expect(Self.reason(session.send(.tap(.button(.back)))) == .dragInProgress)
    }

    @Test func everyReasonHasATierAndTheTiersAreInTheContractsOrder() {
        #expect(IgnoreReason.completed.tier == .completed)
        #expect(IgnoreReason.dragInProgress.tier < IgnoreReason.noSuchPage.tier)
        #expect(IgnoreReason.transitionInProgress.tier < IgnoreReason.unknownField.tier)
        #expect(IgnoreReason.noSuchPage.tier < IgnoreReason.samePage.tier)
        #expect(IgnoreReason.indicatorHidden.tier < IgnoreReason.disabled.tier)
        #expect(IgnoreReason.Tier.allCases == [.completed, .activity, .target, .targetState])
    }
}
