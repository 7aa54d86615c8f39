import Testing

@testable import QuireCore

/// Focus and paging events cost the same whatever the size of the flow: the session indexes what
/// it needs at load (visible pages and pages with errors in Fenwick trees, condition dependents
/// per field) and touches only the current page's fields. Work is counted, not timed
/// (`WorkMeter`, debug builds).
@Suite struct WorkPerEventTests {
    /// An intro page, a form page, `extraPages` pages of 10 fields each, and a last page.
    static func bigFlow(extraPages: Int, gate: String) throws -> Flow {
        var pages = [#"{"id": "intro"}"#]
        pages.append(
            #"""
            {"id": "form", "fields": [
              {"id": "name", "kind": "text", "required": true},
              {"id": "time", "kind": "duration"},
              {"id": "color", "kind": "choice", "options": [{"id": "red"}, {"id": "blue"}]},
              {"id": "agree", "kind": "toggle"}]}
            """#)
        for page in 0..<extraPages {
            let fields = (0..<10).map { #"{"id": "f\#(page)_\#($0)", "kind": "text"}"# }.joined(separator: ",")
            pages.append(#"{"id": "extra\#(page)", "fields": [\#(fields)]}"#)
        }
        pages.append(#"{"id": "last"}"#)
        return try makeFlow(
            #"{"format": "quire.flow/1", "id": "big", "paging": {"animationMs": 100, "gate": "\#(gate)"}, "pages": [\#(pages.joined(separator: ","))]}"#
        )
    }

    static let focusAndPagingEvents: [Event] = [
        next, .settle, tapField("name"), .key(.tab), .spin(component: .hours, by: 1), .tap(.accessory(.next)),
        .key(.down), .tap(.accessory(.done)), .key(.shiftTab), .key(.escape), .tap(.background),
        next,  // refused by the gate: the name is empty
        .key(.end), .tap(.indicatorPage(0)), .settle, .key(.right), .tick(50), .key(.right), .settle,
        tapField("name"), .type("Aki"), .key(.return), .tap(.background), .tap(.indicatorRight), .settle,
        .dragBegin, .dragUpdate(dx: 300), .dragEnd(vx: 500), .settle, .swipePage(forward: true), .settle,
        .key(.end), .settle, .key(.home), .tick(30), .tap(.indicatorRight), .settle,
    ]

    static func work(extraPages: Int, gate: String) throws -> Int {
        let flow = try bigFlow(extraPages: extraPages, gate: gate)
        var session = Session(flow: flow)
        return WorkMeter.measure {
            for event in focusAndPagingEvents { session.send(event) }
        }.units
    }

    @Test(arguments: ["valid", "none"])
    func workPerEventDoesNotGrowWithTheFlow(gate: String) throws {
        #if DEBUG
            let small = try Self.work(extraPages: 10, gate: gate)
            let large = try Self.work(extraPages: 3000, gate: gate)
            #expect(small > 0)
            // Fenwick operations are counted once each (their inner loops are O(log n) in the
            // page count), so equal counts mean the same operations on both flows.
            #expect(small == large)
        #endif
    }
}
