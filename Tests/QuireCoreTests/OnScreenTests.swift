import QuireCore
import Testing

/// `Session.onScreen`: what `quire run --record`'s Ctrl+E writes as an `expect` (issue 38 item 4).
@Suite struct OnScreenTests {
    @Test func thePageItsShownFieldsErrorsAndButtons() throws {
        let flow = try Flow.load(
            json: """
                {"format": "quire.flow/1", "id": "s", "paging": {"animationMs": 0},
                 "pages": [{"id": "a", "fields": [{"id": "name", "kind": "text", "required": true},
                                                  {"id": "more", "kind": "toggle", "default": false},
                                                  {"id": "why", "kind": "text", "visibleIf": {"field": "more", "equals": true}}]},
                           {"id": "b", "fields": [{"id": "later", "kind": "text", "default": "x"}]}]}
                """)
        var session = Session(flow: flow)
        _ = session.send(.tap(.button(.next)))
        let refused = session.onScreen
        #expect(Array(refused.map(\.key)) == ["page", "focus", "values", "errors", "buttons"])
        #expect(refused["page"]?["id"] == "a")
        // The page's own fields, the hidden one left out; not the next page's.
        #expect(refused["values"] == ["name": .null, "more": false])
        #expect(refused["errors"] == ["name": "required"])
        #expect(refused["buttons"]?["next"] == true)
        _ = session.send(.tap(.field("name")))
        _ = session.send(.type("Aki"))
        #expect(session.onScreen["focus"] == "name")
        _ = session.send(.tap(.field("more")))
        let typed = session.onScreen
        #expect(typed["focus"] == .null)
        #expect(typed["values"] == ["name": "Aki", "more": true, "why": .null])
        #expect(typed["errors"] == [:])
    }
}
