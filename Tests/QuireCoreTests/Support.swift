import Foundation
import Testing

@testable import QuireCore

/// A test fixture that does not load: the test that uses it fails with every diagnostic, and the
/// other tests still run.
struct BadFixture: Error, CustomStringConvertible {
    var problems: [String]
    var description: String { "the test flow did not load:\n" + problems.joined(separator: "\n") }
}

/// Loads a flow from JSON text; throws `BadFixture` with every diagnostic if it does not load.
func makeFlow(_ json: String) throws -> Flow {
    do {
        return try Flow.load(json: json, file: "test-flow.json")
    } catch {
        throw BadFixture(problems: error.diagnostics.map(\.description))
    }
}

/// Problems a flow is rejected with, as printed lines.
func problems(_ json: String) -> [String] {
    do {
        _ = try Flow.load(json: json, file: "f.json")
        return []
    } catch {
        return error.diagnostics.map(\.description)
    }
}

/// A flow of `count` pages ("p0", "p1", …) with no fields.
func pagesFlow(_ count: Int, paging: String = #"{"animationMs": 0}"#) throws -> Flow {
    let pages = (0..<count).map { #"{"id": "p\#($0)"}"# }.joined(separator: ",")
    return try makeFlow(#"{"format": "quire.flow/1", "id": "pages", "paging": \#(paging), "pages": [\#(pages)]}"#)
}

/// A form: page "intro"; page "form" with a required text `name` (max 5), a duration `time`
/// (interval 5, min 60), a choice `color` (red, green, blue) and a toggle `agree`; page "more"
/// with an optional text `note` (min 3); page "end".
func formFlow(paging: String = #"{"animationMs": 0}"#) throws -> Flow {
    try makeFlow(
        #"""
        {"format": "quire.flow/1", "id": "form", "paging": \#(paging),
         "pages": [
          {"id": "intro"},
          {"id": "form", "fields": [
            {"id": "name", "kind": "text", "label": "Name", "required": true, "maxLength": 5},
            {"id": "time", "kind": "duration", "label": "Time", "minuteInterval": 5},
            {"id": "color", "kind": "choice", "label": "Color",
             "options": [{"id": "red", "label": "Red"}, {"id": "green", "label": "Green"}, {"id": "blue", "label": "Blue"}]},
            {"id": "agree", "kind": "toggle", "label": "Agree"}
          ]},
          {"id": "more", "fields": [{"id": "note", "kind": "text", "minLength": 3}]},
          {"id": "end"}
         ]}
        """#)
}

extension Session {
    /// Sends events in order; returns the names of everything they emitted.
    @discardableResult
    mutating func run(_ events: Event...) -> [String] {
        events.flatMap { send($0).map(\.name) }
    }

    /// The state at a JSON path such as "page.index" or "values.name".
    func at(_ path: String) -> JSONValue? {
        var parts = path.split(separator: ".").map(String.init)
        var value = stateValue(parts.removeFirst())
        for part in parts { value = value?[part] }
        return value
    }

    var pageID: String { flow.pages[pager.currentPage].id }
}

extension SessionNotification {
    var ignoredReason: IgnoreReason? {
        if case .ignored(_, _, let reason) = self { return reason }
        return nil
    }
}

func tapField(_ id: String) -> Event { .tap(.field(id)) }
let next = Event.tap(.button(.next))
let back = Event.tap(.button(.back))

@Suite struct FixtureTests {
    /// A fixture with a mistake fails the test that loads it, with the loader's diagnostics; it
    /// does not stop the test process (the other tests still run and report).
    @Test func aBadFixtureThrowsWithItsDiagnostics() {
        let error = #expect(throws: BadFixture.self) {
            try makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "titel": "x"}]}"#)
        }
        #expect(error?.problems == ["test-flow.json:1:61: $.pages[0].titel: unknown key 'titel' in a page; did you mean 'title'?"])
    }
}
