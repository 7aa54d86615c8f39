import Testing

@testable import QuireCore

/// A snapshot whose position is somewhere the pages cannot be (hand-edited: each key has the right
/// type) is refused by every reader, with the problem at `$.position`; every place a session can
/// really be in is restored.
@Suite struct SnapshotPlaceTests {
    static func edited(_ session: Session, position: String) -> [UInt8] {
        var text = JSONWriter.string(session.snapshot(includingFlow: false))
        let written = "\"position\":" + JSONWriter.number(session.stateValue("position")?.numberValue ?? .nan)
        precondition(text.contains(written))
        text = text.replacingOccurrences(of: written, with: "\"position\":" + position)
        return Array(text.utf8)
    }

    static func restored(_ bytes: [UInt8], flow: Flow) -> Result<Session, DocumentError> {
        Result { () throws(DocumentError) in try Session(restoring: bytes, flow: flow, file: "s.json") }
    }

    @Test(arguments: [
        ("99999", "position 99999 is off its page (visible page 0 of"),
        ("0.5", "position 0.5 is off its page (visible page 0 of"),
        ("-1", "position -1 is off its page (visible page 0 of"),
    ])
    func aSettledSessionOffItsPageIsRefused(position: String, problem: String) throws {
        let flow = try formFlow()
        let bytes = Self.edited(Session(flow: flow), position: position)
        for result in [Self.restored(bytes, flow: flow)] {
            guard case .failure(let error) = result else {
                Issue.record("restored a session at position \(position)")
                continue
            }
            let message = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(message.contains("$.position: \(problem)"), "\(message)")
        }
        // Given as a value, it is refused too.
        let tree = try JSONParser.parse(bytes).value
        #expect(throws: DocumentError.self) { try Session(restoring: tree, flow: flow) }
    }

    @Test func aMoveTowardsAPageOffThePagesIsRefused() throws {
        let flow = try formFlow(paging: #"{"animationMs": 300}"#)
        var session = Session(flow: flow)
        _ = session.send(.tap(.button(.next)))
        #expect(session.transition != nil)
        let bytes = Self.edited(session, position: "1e5")
        guard case .failure(let error) = Self.restored(bytes, flow: flow) else {
            Issue.record("restored a move from position 1e5")
            return
        }
        #expect(error.diagnostics.map(\.description).joined().contains("is off the pages"), "\(error.diagnostics)")
    }

    @Test func everyPlaceASessionReallyIsInIsRestored() throws {
        let flow = try formFlow(paging: #"{"animationMs": 300}"#)
        var session = Session(flow: flow)
        let events: [Event] = [.tap(.button(.next)), .tick(100), .settle, .dragBegin, .dragUpdate(dx: -300), .dragEnd(vx: 0), .tick(50)]
        for event in events {
            _ = session.send(event)
            let bytes = JSONWriter.data(session.snapshot(includingFlow: false))
            let restored = try Session(restoring: bytes, flow: flow)
            #expect(restored.currentIndex == session.currentIndex)
            #expect(restored.transition?.to == session.transition?.to)
        }
    }

    /// A drag with a picker open reveals the pages its draft makes: here the committed answer
    /// leaves one page and the draft adds the second, which the drag reveals. Its snapshot is
    /// restored as it was (the reader judges the place against those pages too).
    @Test func aDragRevealingAPageTheDraftAddsIsRestored() throws {
        let flow = try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/draft-decides.json").path)
        var session = Session(flow: flow, viewportWidth: 800)
        for event: Event in [
            .tap(.field("plan")), .key(.down), .tap(.accessory(.next)), .dragBegin, .tap(.accessory(.previous)), .key(.up),
            .dragUpdate(dx: -120),
        ] {
            session.send(event)
        }
        #expect(session.pageCount == 1)
        #expect(session.transition?.to == 1)
        #expect(session.placeProblem == nil)
        let restored = try Session(restoring: session.snapshotData(includingFlow: false), flow: flow)
        #expect(restored == session)
    }
}
