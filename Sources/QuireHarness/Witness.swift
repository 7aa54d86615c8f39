import Foundation
import QuireCore

/// `quire generate-sessions --cover FLOW DIR`: a small suite of scripts that together reach the
/// coverage items (docs/coverage.md) the search could reach. The search is a seeded,
/// coverage-guided one over the events a person can send: walks from the start, each kept up to
/// its last step that reached an item no kept script reached. It stops cleanly at its bounds
/// (walks, steps per walk, seconds). An item left over is *unreachable* when the lint proves the
/// condition behind it never holds (the same position as its warning); otherwise it is
/// *undecided*: not reached within the bounds, which proves nothing. (A refusal of `finish`
/// that the gate proves impossible is not an item: `FlowCoverage.finishNeverRefused`.) See docs/coverage.md, "Witness scripts".
public enum WitnessSearch {
    public struct Bounds: Sendable {
        public var walks = 2000
        public var steps = 40
        public var seconds = 30.0
        public init() {}
    }

    /// A step of a witness: an event, or `restart` (snapshot, restore, go on).
    public enum Step: Sendable {
        case event(Event)
        case restart

        var json: JSONValue {
            switch self {
            case .event(let event): event.json
            case .restart: ["restart": true]
            }
        }
    }

    public struct Witness: Sendable {
        public var steps: [Step]
        /// The items it was kept for (gap messages with their paths).
        public var reaches: [String]
        /// The state it ends in (its final `expect`).
        public var finalState: JSONValue
    }

    /// Why an item no walk reached is unreachable.
    public enum Proof: Sendable {
        /// The lint's warning proves it (a page, field or condition outcome).
        case lint(FlowLint.Warning)
    }

    public struct Outcome: Sendable {
        public var witnesses: [Witness]
        /// Items no walk reached, each with its proof of unreachability when there is one.
        public var remaining: [(gap: FlowCoverage.Gap, proof: Proof?)]
        public var walks: Int
        /// Why the search stopped early (a bound), or nil when it ran every walk.
        public var stoppedBy: String?
        public var total: Int
    }

    /// The items a coverage still lacks, one a string: a condition never true or false is two.
    static func items(_ coverage: FlowCoverage) -> [(gap: FlowCoverage.Gap, key: String)] {
        var list: [(FlowCoverage.Gap, String)] = []
        for gap in coverage.gaps {
            if gap.message.hasSuffix(" was never true or false") {
                let stem = String(gap.message.dropLast(" true or false".count))
                for outcome in ["true", "false"] {
                    let one = FlowCoverage.Gap(path: gap.path, message: stem + " " + outcome)
                    list.append((one, "\(gap.path): \(one.message)"))
                }
            } else {
                list.append((gap, "\(gap.path): \(gap.message)"))
            }
        }
        return list
    }

    /// The events a walk draws from: the generator's (every button, key, swipe, drag, tick,
    /// accessory item, option and field) and each text a condition compares a field with.
    static func events(for flow: Flow) -> [Event] {
        var events = ScriptGenerator.events(for: flow)
        var texts: [String] = []
        func collect(_ condition: Condition?) {
            guard let condition else { return }
            switch condition {
            case .equals(_, .text(let text)), .notEquals(_, .text(let text)): texts.append(text)
            case .oneOf(_, let values): for case .text(let text) in values { texts.append(text) }
            case .all(let parts), .any(let parts): parts.forEach(collect)
            case .not(let inner): collect(inner)
            default: break
            }
        }
        for page in flow.pages { collect(page.visibleIf) }
        for field in flow.fields {
            collect(field.visibleIf)
            collect(field.enabledIf)
            collect(field.requiredIf)
        }
        for text in Set(texts).sorted() where !text.isEmpty { events.append(.type(text)) }
        events += [.tick(1000), .tick(5000)]
        // A page that applies: the host's answers. A text one past its maxLength (refused).
        for page in flow.pages where page.apply != nil {
            events += [.applied(page: page.id), .applyFailed(ApplyFailure(page: page.id)), .tick(Double(page.apply!.timeoutMs + 1))]
        }
        for field in flow.fields {
            if case .text(let options) = field.kind, let maxLength = options.maxLength, maxLength < 200 {
                events.append(.type(String(repeating: "x", count: maxLength + 1)))
            }
        }
        events += TapTarget.Button.allCases.map { Event.tap(.button($0)) }
        events += [AccessoryItem.previous, .next, .done, .cancel].map { Event.tap(.accessory($0)) }
        return events
    }

    /// Events aimed at what `session` shows: a tap on each field of the page shown and, with a
    /// field focused, on each item of its toolbar (`toolbars`, by field id). A blind draw from
    /// every event reaches a toolbar's `cancel` on page 3 only by luck.
    static func localEvents(_ session: Session, toolbars: [String: [AccessoryItem]]) -> [Event] {
        var local: [Event] = []
        for field in session.presentPage(at: session.currentIndex)?.fields ?? [] { local.append(.tap(.field(field.id))) }
        if let focused = session.focusedField {
            for item in toolbars[focused] ?? [] where item != .flexibleSpace { local.append(.tap(.accessory(item))) }
        }
        return local
    }

    public static func search(flow: Flow, file: String, bounds: Bounds, seed: UInt64) -> Outcome {
        let started = ContinuousClock.now
        let empty = FlowCoverage(file: file, flow: flow)
        let all = items(empty)
        var uncovered = Set(all.map(\.key))
        // What is proved unreachable is known before the search, which stops once only that is
        // left (a walk that reached a proved item anyway would still count it reached).
        let lint = FlowLint(flow).warnings
        var proofs: [String: Proof] = [:]
        for (gap, key) in all {
            if let warning = proof(of: gap, lint: lint) { proofs[key] = .lint(warning) }
        }
        let proved = Set(proofs.keys)
        let events = events(for: flow)
        var toolbars: [String: [AccessoryItem]] = [:]
        for field in flow.fields where field.isEditable { toolbars[field.id] = field.accessory ?? flow.accessory ?? AccessoryItem.standard }
        var random = SplitMix64(seed: seed)
        var witnesses: [Witness] = []
        var walks = 0
        var stoppedBy: String? = nil
        var buffer: [SessionNotification] = []
        while walks < bounds.walks && !uncovered.isSubset(of: proved) {
            if (ContinuousClock.now - started) > .milliseconds(Int(bounds.seconds * 1000)) {
                stoppedBy = "its \(Int(bounds.seconds)) seconds"
                break
            }
            walks += 1
            let driver = DirectDriver(Session(flow: flow))
            var recorder = CoverageRecorder(empty)
            recorder.observe(driver.session)
            var steps: [Step] = []
            var gained: [String] = []
            /// Performs a step, recording its coverage; false when a restart did not come back equal.
            func apply(_ step: Step) -> Bool {
                switch step {
                case .restart:
                    var session = driver.session
                    guard Runner.restart(&session, flow: flow).isEmpty else { return false }
                    driver.replace(with: session)
                    recorder.restarted(session)
                case .event(let event):
                    driver.send(event, into: &buffer)
                    recorder.record(event, emitted: buffer, driver: driver)
                }
                steps.append(step)
                return true
            }
            // Every other walk goes on from where a kept witness ended (deeper pages).
            if !witnesses.isEmpty && random.below(2) == 0 {
                for step in witnesses[random.below(witnesses.count)].steps where !apply(step) { break }
            }
            let prefix = steps.count
            var keep = 0
            var state: JSONValue = driver.session.state
            var sent = 0
            walk: while sent < bounds.steps {
                // One draw in 40 a restart (the snapshot's round trip is a move of its own). One
                // event in 4 a burst: the same event three times with no tick between, as quick
                // repeated taps, keys and swipes come (retargets, takeovers of a running
                // animation and rubber bands build up only so).
                // Every other event is aimed at what is on screen (`localEvents`): a field of the
                // page shown, the focused field's toolbar.
                let step: Step
                if random.below(40) == 0 {
                    step = .restart
                } else if random.below(2) == 0, case let local = localEvents(driver.session, toolbars: toolbars), !local.isEmpty {
                    step = .event(local[random.below(local.count)])
                } else {
                    step = .event(events[random.below(events.count)])
                }
                var times = 1
                if case .event = step, random.below(4) == 0 { times = 3 }
                for _ in 0..<times where sent < bounds.steps {
                    guard apply(step) else { break walk }
                    sent += 1
                    let now = Set(items(recorder.coverage).map(\.key))
                    let new = uncovered.subtracting(now).subtracting(gained)
                    if !new.isEmpty {
                        gained += new.sorted()
                        keep = steps.count
                        state = driver.session.state
                    }
                }
            }
            guard keep > prefix else { continue }
            uncovered.subtract(gained)
            witnesses.append(Witness(steps: Array(steps.prefix(keep)), reaches: gained, finalState: state))
        }
        if stoppedBy == nil && !uncovered.isSubset(of: proved) && walks >= bounds.walks { stoppedBy = "its \(bounds.walks) walks" }
        let remaining = all.filter { uncovered.contains($0.key) }.map { (gap: $0.gap, proof: proofs[$0.key]) }
        return Outcome(witnesses: witnesses, remaining: remaining, walks: walks, stoppedBy: stoppedBy, total: all.count)
    }

    /// The lint's warning that proves `gap` unreachable: a page or field that can never be shown
    /// (its own item, or a condition within it), or a condition never true or always true, at
    /// the same path.
    static func proof(of gap: FlowCoverage.Gap, lint: [FlowLint.Warning]) -> FlowLint.Warning? {
        let path = gap.path.description
        for warning in lint where !warning.isNote {
            let at = warning.path.description
            switch warning.kind {
            case .pageNeverVisible, .fieldNeverVisible:
                // `$.pages[2].visibleIf`: the page (or field) and what is under it.
                let owner = String(at.dropLast(".visibleIf".count))
                if path == owner || path.hasPrefix(owner + ".") || path.hasPrefix(owner + "[") {
                    // Its visibleIf can be false; only its true branch is unreachable.
                    if path == at && !gap.message.hasSuffix("never true") { continue }
                    return warning
                }
            case .conditionNeverTrue, .fieldNeverEnabled:
                if path == at && gap.message.contains("true") { return warning }
            case .conditionAlwaysTrue:
                if path == at && gap.message.contains("false") { return warning }
            default:
                break
            }
        }
        return nil
    }

    /// Writes the witnesses as `cover-NN.json` into `directory`, each naming the flow by its path
    /// from there and ending with an `expect` of the state it reaches; returns their names.
    public static func write(_ outcome: Outcome, flowPath: String, into directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let flowReference = relativePath(from: directory, to: flowPath)
        let width = max(2, String(outcome.witnesses.count).count)
        var names: [String] = []
        for (index, witness) in outcome.witnesses.enumerated() {
            let number = String(index + 1)
            let name = "cover-" + String(repeating: "0", count: width - number.count) + number + ".json"
            var final = JSONObject()
            for key in ["page", "values", "errors", "completed"] { if let value = witness.finalState[key] { final.append(key, value) } }
            let shown = witness.reaches.prefix(6).joined(separator: "; ")
            let more = witness.reaches.count > 6 ? "; and \(witness.reaches.count - 6) more" : ""
            var script = JSONObject()
            script.append("format", .string(SessionScript.format))
            let items = witness.reaches.count == 1 ? "1 coverage item" : "\(witness.reaches.count) coverage items"
            script.append("name", .string("witness \(index + 1): \(items)"))
            script.append("description", .string("Reaches: \(shown)\(more)."))
            script.append("flow", .string(flowReference))
            script.append("steps", .array(witness.steps.map(\.json) + [["expect": .object(final)]]))
            let text = JSONWriter.string(.object(script), style: .pretty) + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(name)))
            names.append(name)
        }
        return names
    }

    /// `to` as seen from the folder `from` (both made absolute), with `..` as needed.
    static func relativePath(from folder: String, to file: String) -> String {
        let base = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
        var common = 0
        while common < min(base.count, target.count) && base[common] == target[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...]).joined(separator: "/")
    }
}
