import Testing

@testable import QuireCore

/// The presentation's JSON form (what the C API hands to other languages) says what the Swift
/// values say, with every key present.
@Suite struct PresentationJSONTests {
    @Test func theJSONCarriesTheChromeTheInputViewAndTheNeighbourPages() throws {
        var session = Session(flow: try formFlow())
        session.run(.tap(.button(.next)), .settle, .tap(.field("time")), .spin(component: .minutes, by: 2))
        let json = session.presentation
        let chrome = try #require(json["chrome"])
        #expect(chrome["indicator"] == ["count": 4, "current": 1, "hidden": false, "style": "dots", "label": "Page 2 of 4"])
        #expect(chrome["buttons"]?.arrayValue?.first == ["button": "back", "title": "Back", "enabled": true])
        #expect(chrome["progress"] == .number(1.0 / 3.0))
        #expect(chrome["completed"] == .null)
        let input = try #require(chrome["input"])
        #expect(input["field"] == "time" && input["view"] == "durationPicker")
        #expect(input["draftDisplay"] == .string(session.chrome.input?.draftDisplay ?? ""))
        let wheels = try #require(input["wheels"]?.arrayValue)
        #expect(wheels.map { $0["component"] } == ["hours", "minutes"])
        #expect(wheels[1]["values"]?.arrayValue?.count == 12)
        #expect(wheels[1]["selectedIndex"] == .number(Double(session.chrome.input?.wheels[1].selectedIndex ?? -1)))
        #expect(input["options"] == [])
        #expect(input["returnKeyTitle"] == .null)
        #expect(input["toolbar"]?.arrayValue?.last == ["item": "done", "title": "Done", "enabled": true])

        let pages = try #require(json["pages"]?.arrayValue)
        #expect(pages.map { $0["id"] } == ["intro", "form", "more"])
        let fields = try #require(pages[1]["fields"]?.arrayValue)
        #expect(fields.map { $0["id"] } == ["name", "time", "color", "agree"])
        #expect(
            fields[0]
                == [
                    "id": "name", "kind": "text", "label": "Name", "display": "", "placeholder": "", "enabled": true, "focused": false,
                    "required": true, "error": nil, "errorCode": nil, "isOn": nil, "accessibleDescription": "Required",
                ])
        // An optional field has no description until it has an error.
        #expect(fields[2]["required"] == false && fields[2]["accessibleDescription"] == .null)
        #expect(fields[1]["focused"] == true)
        #expect(fields[3]["isOn"] == false)
    }

    @Test func revealedErrorsAndTheOutcomeAppearInTheJSON() throws {
        var session = Session(flow: try formFlow())
        session.run(.tap(.button(.next)), .settle, .tap(.field("name")), .type("a"), .key(.backSpace), .tap(.background))
        let field = session.presentation["pages"]?.arrayValue?[1]["fields"]?.arrayValue?[0]
        #expect(field?["error"] == "Required" && field?["errorCode"] == "required")
        #expect(field?["accessibleDescription"] == "Required")
        session.run(.tap(.button(.cancel)))
        #expect(session.presentation["chrome"]?["completed"] == "cancelled")
    }
}
