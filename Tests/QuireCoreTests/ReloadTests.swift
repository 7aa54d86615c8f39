import QuireCore
import Testing

/// `Session.reload` (`quire run --watch`, issue 38 item 2): the events heard, replayed on an
/// edited flow, until one no longer applies.
@Suite struct ReloadTests {
    static func flow(name: String = "name", required: Bool = false, title: String = "Two") throws -> Flow {
        try Flow.load(
            json: """
                {"format": "quire.flow/1", "id": "r", "paging": {"animationMs": 100},
                 "pages": [{"id": "a", "fields": [{"id": "\(name)", "kind": "text"}, {"id": "mail", "kind": "text", "required": \(required)}]},
                           {"id": "b", "title": "\(title)"}, {"id": "c"}]}
                """)
    }

    /// What a window heard: taps, typing, a move and its frame ticks.
    static func heard(on flow: Flow) -> (Session, [HeardEvent]) {
        var session = Session(flow: flow, locale: "en", viewportWidth: 640)
        var heard: [HeardEvent] = []
        let events: [Event] = [
            .tap(.field("name")), .type("Aki"), .tap(.button(.back)), .tap(.button(.next)), .tick(50), .tick(60), .tick(16),
        ]
        for event in events { heard.append(HeardEvent(event, emitted: session.send(event))) }
        return (session, heard)
    }

    @Test func aTitleChangeReplaysEverythingToTheSamePlace() throws {
        let (before, heard) = Self.heard(on: try Self.flow())
        #expect(heard[2].ignored)  // Back on the first page: ignored then, and now, so it goes on.
        let reload = Session.reload(
            flow: try Self.flow(title: "Deux"), locale: "en", viewportWidth: 640, reducedMotion: false, startingWith: JSONObject(),
            events: heard)
        #expect(reload.stop == nil)
        #expect(reload.replayed == heard.count)
        #expect(reload.session.state == before.state)
        #expect(reload.session.state["page"]?["index"] == 1)
        #expect(reload.session.viewportWidth == 640)
    }

    @Test func aGoneFieldStopsTheReplayBeforeItsEvent() throws {
        let (_, heard) = Self.heard(on: try Self.flow())
        let reload = Session.reload(
            flow: try Self.flow(name: "who"), locale: "en", viewportWidth: 640, reducedMotion: false, startingWith: JSONObject(),
            events: heard)
        #expect(reload.replayed == 0)
        #expect(reload.stop?.index == 0)
        #expect(reload.stop?.event == .tap(.field("name")))
        #expect(reload.stop?.reason == "ignored now (unknownField)")
        #expect(reload.session.state["page"]?["index"] == 0)
    }

    @Test func aFieldMadeRequiredStopsAtTheRefusedMove() throws {
        let (_, heard) = Self.heard(on: try Self.flow())
        let reload = Session.reload(
            flow: try Self.flow(required: true), locale: "en", viewportWidth: 640, reducedMotion: false, startingWith: JSONObject(),
            events: heard)
        #expect(reload.replayed == 3)
        #expect(reload.stop?.event == Event.tap(.button(.next)))
        #expect(reload.stop?.reason == "refused now (gate: mail required)")
        #expect(reload.session.state["values"]?["name"] == "Aki")
    }
}
