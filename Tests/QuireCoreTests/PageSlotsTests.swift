import Testing

@testable import QuireCore

/// `Session.pageSlots`: the pages a pager front keeps built, decided by the core.
@Suite struct PageSlotsTests {
    static func indices(_ session: Session) -> [Int] { session.pageSlots.map(\.index) }

    @Test func atRestTheCurrentPageAndItsNeighboursAreBuiltOnlyTheCurrentOnScreen() throws {
        var session = try Session(flow: pagesFlow(5))
        #expect(session.pageSlots == [PageSlot(index: 0, slot: 0, onScreen: true), PageSlot(index: 1, slot: 1, onScreen: false)])
        session.run(next, next)
        #expect(session.pageSlots.map(\.index) == [1, 2, 3])
        #expect(session.pageSlots.filter(\.onScreen).map(\.index) == [2])
        #expect(session.pageSlots.map(\.slot) == [1, 2, 3])
    }

    @Test func aWrappingFlowStandsItsNeighboursAtMinusOneAndCount() throws {
        let session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 0, "wrap": true}"#))
        #expect(
            session.pageSlots == [
                PageSlot(index: 0, slot: 0, onScreen: true), PageSlot(index: 1, slot: 1, onScreen: false),
                PageSlot(index: 3, slot: -1, onScreen: false),
            ])
    }

    @Test func aJumpAnimatingAcrossPagesKeepsThePagesThePositionPassesAndTheTarget() throws {
        var session = try Session(flow: pagesFlow(6, paging: #"{"animationMs": 200}"#))
        session.run(.tap(.indicatorPage(4)), .tick(100))
        let position = session.pagerPresentation.position
        #expect(position > 1 && position < 4)
        let slots = session.pageSlots
        let below = Int(position.rounded(.down))
        // The pages either side of the position show; the target and its neighbours are wanted.
        #expect(slots.filter(\.onScreen).map(\.index) == [below, below + 1])
        #expect(Set(slots.map(\.index)).isSuperset(of: [0, 1, below, below + 1, 3, 4, 5]))
        session.run(.settle)
        #expect(Self.indices(session) == [3, 4, 5])
    }

    @Test func aDragOntoTheNextPageShowsBothAndNoPageTwice() throws {
        var session = try Session(flow: pagesFlow(3))
        session.setViewportWidth(400)
        session.run(.dragBegin, .dragUpdate(dx: -200))
        let slots = session.pageSlots
        #expect(slots.filter(\.onScreen).map(\.index) == [0, 1])
        #expect(Set(slots.map(\.index)).count == slots.count)
    }
}
