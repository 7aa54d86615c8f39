import Testing

@testable import QuireCore

@Suite struct PagingTests {
    /// Pages a, b, c; b is shown only when the toggle `more` on page a is on (it starts off).
    static func optionalPageFlow() throws -> Flow {
        try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "more", "kind": "toggle", "default": false}]},
                       {"id": "b", "visibleIf": {"field": "more", "equals": true}}, {"id": "c"}]}
            """#)
    }

    @Test func startsOnTheFirstVisiblePageWithNothingFocused() throws {
        let session = try Session(flow: formFlow())
        #expect(session.at("page") == ["index": 0, "id": "intro", "count": 4])
        #expect(session.at("focus") == .null)
        #expect(session.at("input") == .null)
        #expect(session.at("position") == 0)
        #expect(session.at("transition") == .null)
    }

    @Test func hiddenPagesDoNotCountForNavigationOrTheIndicator() throws {
        var session = try Session(flow: Self.optionalPageFlow())
        #expect(session.at("page.count") == 2)
        #expect(session.at("indicator.count") == 2)
        session.run(next)
        #expect(session.pageID == "c")
        #expect(session.at("page.index") == 1)
    }

    @Test func visibilityIsEvaluatedAgainAfterEveryValueChange() throws {
        var session = try Session(flow: Self.optionalPageFlow())
        session.run(tapField("more"))
        #expect(session.at("page.count") == 3)
        session.run(next)
        #expect(session.pageID == "b")
    }

    @Test func buttonNextEmitsWillChangeFirstAndDidChangeLast() throws {
        var session = try Session(flow: pagesFlow(3))
        let notes = session.send(next)
        #expect(notes == [.pageWillChange(from: 0, to: 1), .pageDidChange(from: 0, to: 1, completed: true)])
        #expect(session.at("page.index") == 1)
    }

    @Test func backOnTheFirstPageIsDisabledAndIgnored() throws {
        var session = try Session(flow: pagesFlow(3))
        #expect(session.at("buttons.back") == false)
        let notes = session.send(back)
        #expect(notes.first?.ignoredReason == .disabled)
        #expect(session.at("page.index") == 0)
    }

    @Test func nextOnTheLastPageIsDisabledWithoutWrap() throws {
        var session = try Session(flow: pagesFlow(2))
        session.run(next)
        #expect(session.at("buttons") == ["back": true, "next": false, "skip": false, "finish": true])
        #expect(session.send(next).first?.ignoredReason == .disabled)
        #expect(session.send(.key(.right)).first?.ignoredReason == .atEnd)
    }

    @Test func wrapRunsPastTheEndAndNormalizesOnCompletion() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"wrap": true, "animationMs": 100}"#))
        session.run(.key(.end), .settle)
        #expect(session.at("buttons.next") == true)
        session.run(next, .tick(50))
        let position = session.at("position")?.numberValue ?? 0
        #expect(position > 2 && position < 3)
        #expect(session.at("transition.to") == 0)
        session.run(.settle)
        #expect(session.at("page.index") == 0)
        #expect(session.at("position") == 0)
    }

    @Test func wrapBackwardsFromTheFirstPageRunsTowardsMinusOne() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"wrap": true, "animationMs": 100}"#))
        session.run(back, .tick(50))
        let position = session.at("position")?.numberValue ?? 0
        #expect(position < 0 && position > -1)
        session.run(.settle)
        #expect(session.at("page.index") == 2)
    }

    @Test func indicatorTapsLeftAndRightStepExactlyOnePage() throws {
        var session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 0}"#))
        session.run(.tap(.indicatorRight))
        #expect(session.at("indicator.current") == 1)
        session.run(.tap(.indicatorRight), .tap(.indicatorLeft))
        #expect(session.at("indicator.current") == 1)
    }

    @Test func indicatorTapOnADotJumpsThere() throws {
        var session = try Session(flow: pagesFlow(5))
        let notes = session.send(.tap(.indicatorPage(3)))
        #expect(notes == [.pageWillChange(from: 0, to: 3), .pageDidChange(from: 0, to: 3, completed: true)])
        #expect(session.send(.tap(.indicatorPage(9))).first?.ignoredReason == .noSuchPage)
    }

    @Test func indicatorStepsWrapWithWrap() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"wrap": true, "animationMs": 0}"#))
        session.run(.tap(.indicatorLeft))
        #expect(session.at("page.index") == 2)
    }

    @Test func indicatorHidesForASinglePageAndCannotBeTapped() throws {
        var session = try Session(flow: pagesFlow(1))
        #expect(session.at("indicator") == ["count": 1, "current": 0, "hidden": true])
        #expect(session.send(.tap(.indicatorRight)).first?.ignoredReason == .indicatorHidden)
    }

    @Test func pageIndexChangesOnlyWhenTheTransitionCompletes() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        session.run(next, .tick(200))
        #expect(session.at("page.index") == 0)
        session.run(.tick(50))
        #expect(session.at("page.index") == 1)
        #expect(session.at("transition") == .null)
    }

    @Test func animationEasesOutCubic() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        session.run(next, .tick(125))
        #expect(session.at("position") == 0.875)
        #expect(session.at("transition") == ["from": 0, "to": 1, "progress": 0.875, "interactive": false])
    }

    @Test func aJumpOfSeveralPagesTakesTheSameTime() throws {
        var session = try Session(flow: pagesFlow(5, paging: #"{"animationMs": 250}"#))
        session.run(.tap(.indicatorPage(4)), .tick(125))
        #expect(session.at("position") == 3.5)
        session.run(.tick(125))
        #expect(session.at("page.index") == 4)
    }

    @Test func twoQuickNextGoTwoPagesWithOneDidChange() throws {
        var session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 250}"#))
        var notes = session.send(next)
        session.run(.tick(100))
        notes += session.send(next)
        notes += session.send(.settle)
        #expect(
            notes == [
                .pageWillChange(from: 0, to: 1), .pageWillChange(from: 0, to: 2),
                .pageDidChange(from: 0, to: 2, completed: true),
            ])
        #expect(session.at("page.index") == 2)
    }

    @Test func aRetargetStartsFromTheCurrentPosition() throws {
        var session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 100}"#))
        session.run(next, .tick(50))
        let before = session.at("position")
        session.run(next)
        #expect(session.at("position") == before)
        #expect(session.at("transition.progress") == 0.4375)  // 0.875 of the way to page 2
    }

    @Test func aDragMovesThePositionByTheOffsetOverTheWidth() throws {
        var session = try Session(flow: pagesFlow(3), viewportWidth: 800)
        session.run(.dragBegin, .dragUpdate(dx: -200))
        #expect(session.at("position") == 0.25)
        #expect(session.at("transition") == ["from": 0, "to": 1, "progress": 0.25, "interactive": true])
    }

    @Test func aDragPastTheStartRubberBandsAtAThirdOfTheOffset() throws {
        var session = try Session(flow: pagesFlow(3))
        let notes = session.run(.dragBegin, .dragUpdate(dx: 200))
        #expect(session.at("position") == -0.0875)
        #expect(session.at("transition.to") == 0)
        #expect(notes.isEmpty)
    }

    @Test func aForwardDragOnAGatedPageRubberBands() throws {
        var session = try Session(flow: formFlow())
        session.run(next)
        session.run(.dragBegin, .dragUpdate(dx: -400))
        #expect(session.at("position") == 1.175)
        session.run(.dragEnd(vx: 0))
        #expect(session.at("page.index") == 1)
    }

    @Test func releasingPastSnapDistanceSnapsToTheNeighbour() throws {
        var session = try Session(flow: pagesFlow(3))
        session.run(.dragBegin, .dragUpdate(dx: -400), .dragEnd(vx: 0))
        #expect(session.at("page.index") == 1)
    }

    @Test func releasingShortOfSnapDistanceSpringsBackWithCompletedFalse() throws {
        var session = try Session(flow: pagesFlow(3))
        session.run(.dragBegin, .dragUpdate(dx: -399))
        let notes = session.send(.dragEnd(vx: 0))
        #expect(notes == [.pageDidChange(from: 0, to: 1, completed: false)])
        #expect(session.at("page.index") == 0)
        #expect(session.at("position") == 0)
    }

    @Test func aFlingSnapsEvenAfterAShortDrag() throws {
        var session = try Session(flow: pagesFlow(3))
        session.run(.dragBegin, .dragUpdate(dx: -40), .dragEnd(vx: -400))
        #expect(session.at("page.index") == 1)
        session.run(.dragBegin, .dragUpdate(dx: 40), .dragEnd(vx: 399))
        #expect(session.at("page.index") == 1)
    }

    @Test func aDragTakesOverARunningAnimation() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        session.run(next, .tick(125), .dragBegin)
        #expect(session.at("position") == 0.875)
        #expect(session.at("transition.interactive") == true)
        session.run(.dragUpdate(dx: 0), .dragEnd(vx: 0), .settle)
        #expect(session.at("page.index") == 1)
    }

    @Test func swipeNextIsAFullWidthFling() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        let notes = session.run(.swipePage(forward: true), .settle)
        #expect(notes == ["pageWillChange", "pageDidChange"])
        #expect(session.at("page.index") == 1)
    }

    @Test func swipesAreIgnoredWhenSwipingIsOff() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"swipe": false}"#))
        #expect(session.send(.swipePage(forward: true)).first?.ignoredReason == .swipeDisabled)
        #expect(session.send(.dragUpdate(dx: 10)).first?.ignoredReason == .noDrag)
    }

    @Test func theGateRefusesAForwardMoveAndRevealsErrors() throws {
        var session = try Session(flow: formFlow())
        session.run(next)
        let notes = session.send(next)
        #expect(notes == [.refused(reason: .gate, errors: [FieldError(field: "name", code: .required)])])
        #expect(session.at("page.index") == 1)
        #expect(session.at("errors") == ["name": "required"])
    }

    @Test func theGateRefusesJumpsThatPassOverAnInvalidPage() throws {
        var session = try Session(flow: formFlow())
        for event in [Event.tap(.button(.skip)), .key(.end), .tap(.indicatorPage(3))] {
            let notes = session.send(event)
            guard case .refused(.gate, let errors)? = notes.first else {
                Issue.record("\(event) was not refused: \(notes)")
                continue
            }
            #expect(errors == [FieldError(field: "name", code: .required)])
            #expect(session.at("page.index") == 0)
        }
    }

    @Test func theGateJudgesValuesThatAreNotRevealedYet() throws {
        var session = try Session(flow: formFlow())
        session.run(next)
        #expect(session.at("errors") == [:])
        #expect(session.send(.swipePage(forward: true)).contains { $0.name == "refused" })
    }

    @Test func backwardMovesAreAlwaysAllowed() throws {
        var session = try Session(flow: formFlow())
        session.run(next)
        session.run(back)
        #expect(session.at("page.index") == 0)
    }

    @Test func gateNoneLetsEveryMoveThrough() throws {
        var session = try Session(flow: formFlow(paging: #"{"animationMs": 0, "gate": "none"}"#))
        session.run(.key(.end))
        #expect(session.at("page.index") == 3)
    }

    @Test func autoAdvanceMovesAfterTheDelayAndStopsAtTheFirstUserEvent() throws {
        var session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 0, "autoAdvanceMs": 1000}"#))
        session.run(.tick(999))
        #expect(session.at("page.index") == 0)
        session.run(.tick(1))
        #expect(session.at("page.index") == 1)
        session.run(.tap(.background), .tick(5000))
        #expect(session.at("page.index") == 1)
    }

    @Test func autoAdvanceNeverPassesTheGate() throws {
        var session = try Session(flow: formFlow(paging: #"{"animationMs": 0, "autoAdvanceMs": 500}"#))
        session.run(.tick(500))
        #expect(session.at("page.index") == 1)
        session.run(.tick(5000))
        #expect(session.at("page.index") == 1)
    }

    @Test func arrowAndPageKeysMoveOnePageWithNothingFocused() throws {
        var session = try Session(flow: pagesFlow(4))
        session.run(.key(.right), .key(.pageDown))
        #expect(session.at("page.index") == 2)
        session.run(.key(.left))
        #expect(session.at("page.index") == 1)
        session.run(.key(.pageUp))
        #expect(session.at("page.index") == 0)
        #expect(session.send(.key(.left)).first?.ignoredReason == .atEnd)
    }

    @Test func homeAndEndGoToTheFirstAndLastVisiblePage() throws {
        var session = try Session(flow: pagesFlow(4))
        session.run(.key(.end))
        #expect(session.at("page.index") == 3)
        session.run(.key(.home))
        #expect(session.at("page.index") == 0)
    }

    @Test func changingPageResignsTheFirstResponderCommittingItsDraft() throws {
        var session = try Session(flow: formFlow())
        session.run(next, tapField("name"), .type("Aki"), tapField("time"), .spin(component: .hours, by: 1))
        let notes = session.run(next)
        #expect(notes == ["pageWillChange", "inputDismissed", "valueChanged", "focusChanged", "pageDidChange"])
        #expect(session.at("values.time") == 3900)
        #expect(session.at("focus") == .null)
    }

    /// A required choice on the first of two pages.
    func requiredChoiceFlow() throws -> Flow {
        try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "pick", "kind": "choice", "required": true,
                         "options": [{"id": "x"}, {"id": "y"}]}]}, {"id": "b"}]}
            """#)
    }

    @Test func anOpenPickersDraftCountsForTheGate() throws {
        let flow = try requiredChoiceFlow()
        var session = Session(flow: flow)
        session.run(tapField("pick"), .select("x"))
        session.run(next)
        #expect(session.at("page.index") == 1)
        #expect(session.at("values.pick") == "x")
    }

    @Test func anOpenPickerNobodyChangedIsNoAnswerToTheGate() throws {
        let flow = try requiredChoiceFlow()
        var session = Session(flow: flow)
        session.run(tapField("pick"))
        let notes = session.send(next)
        #expect(notes == [.refused(reason: .gate, errors: [FieldError(field: "pick", code: .required)])])
        #expect(session.at("page.index") == 0)
        #expect(session.at("values.pick") == .null)
        #expect(session.at("input.draft") == "x")
    }
}
