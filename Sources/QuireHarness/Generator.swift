import Foundation
import QuireCore

/// Writes random but reproducible session scripts against a flow: a workload for benchmarking
/// the harness (and a fuzz corpus). Expectations are recorded from the core as it replays the
/// events, so every generated script passes on the engine that wrote it.
public enum ScriptGenerator {
    static func events(for flow: Flow) -> [Event] {
        var events: [Event] = [
            .tap(.button(.next)), .tap(.button(.back)), .tap(.button(.next)), .swipePage(forward: true),
            .swipePage(forward: false), .tap(.background), .key(.tab), .key(.shiftTab), .key(.return), .key(.escape),
            .key(.up), .key(.down), .key(.left), .key(.right), .type("Aki"), .type("Sato\n"), .key(.backSpace),
            .tap(.accessory(.done)), .tap(.accessory(.next)), .tap(.accessory(.cancel)), .tick(16), .tick(120), .settle,
            .settle, .tap(.indicatorRight), .tap(.indicatorPage(1)), .dragBegin, .dragUpdate(dx: -300), .dragEnd(vx: -500),
        ]
        for component in DurationComponent.allCases { events.append(.spin(component: component, by: 1)) }
        for field in flow.fields {
            events.append(.tap(.field(field.id)))
            if case .choice(let options) = field.kind { events += options.options.map { .select($0.id) } }
        }
        return events
    }

    /// Writes `count` scripts of `steps` steps each into `directory`, with the flow beside them.
    public static func generate(flowPath: String, count: Int, steps: Int, seed: UInt64, into directory: String) throws {
        let flow = try Flow.load(contentsOf: flowPath)
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let flowCopy = (directory as NSString).appendingPathComponent("flow.json")
        if manager.fileExists(atPath: flowCopy) { try manager.removeItem(atPath: flowCopy) }
        try manager.copyItem(atPath: flowPath, toPath: flowCopy)
        let events = events(for: flow)
        var random = SplitMix64(seed: seed)
        let width = String(count - 1).count
        for index in 0..<count {
            var session = Session(flow: flow)
            var stepList: [JSONValue] = []
            var lastEmitted: [String] = []
            while stepList.count < steps {
                let roll = random.below(10)
                if roll == 0 && stepList.count + 1 < steps {
                    var expected = JSONObject()
                    for key in ["page", "focus", "values", "errors", "buttons"] where random.below(2) == 0 || key == "page" {
                        expected.append(key, session.stateValue(key)!)
                    }
                    stepList.append(["expect": .object(expected)])
                } else if roll == 1 && !lastEmitted.isEmpty {
                    stepList.append(["expectEmitted": .array(lastEmitted.map(JSONValue.string))])
                    lastEmitted = []
                } else {
                    let event = events[random.below(events.count)]
                    let notes = session.send(event)
                    // Names since the last expectEmitted, for the next one.
                    lastEmitted += notes.map(\.name)
                    if lastEmitted.count > 4 { lastEmitted.removeFirst(lastEmitted.count - 4) }
                    stepList.append(event.json)
                }
            }
            let script: JSONValue = [
                "format": .string(SessionScript.format),
                "name": .string("generated \(index) (seed \(seed))"),
                "flow": "flow.json",
                "steps": .array(stepList),
            ]
            let name = "s" + String(repeating: "0", count: width - String(index).count) + String(index) + ".json"
            try Data(JSONWriter.string(script).utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(name)))
        }
    }
}
