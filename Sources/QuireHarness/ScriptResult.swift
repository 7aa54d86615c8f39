import QuireCore

/// The last events a failure report lists, each with its notifications' codes. Every event's
/// codes go onto one list and the event notes where its codes end: recording an event is an
/// append, and the lists are cut back to the last `capacity` events once either holds more
/// than `kept` entries (65,536) (a script has up to `ScriptLimits.steps` steps and emits up
/// to `ScriptLimits.notifications`).
struct RecentEvents {
    let capacity: Int
    /// Each recorded event's step and the end of its codes in `codes`.
    private var events: [(step: Int, end: Int)] = []
    private var codes: [UInt8] = []

    /// How many entries a list holds before it is cut back (`kept`).
    let kept: Int

    init(capacity: Int, events expected: Int = 0, kept: Int = 1 << 16) {
        self.capacity = max(0, capacity)
        self.kept = kept
        events.reserveCapacity(self.capacity > 0 ? expected : 0)
        codes.reserveCapacity(self.capacity > 0 ? expected : 0)
    }

    mutating func record(step: Int, _ notifications: [SessionNotification]) {
        guard capacity > 0 else { return }
        for notification in notifications { codes.append(NotificationCode.of(notification.kind)) }
        events.append((step, codes.count))
        if codes.count > kept || events.count > kept { dropOlder() }
    }

    /// The first of the last `capacity` events.
    private var firstKept: Int { events.count - min(events.count, capacity) }

    /// Where the codes of event `index` start in `codes`.
    private func codesStart(_ index: Int) -> Int { index == 0 ? 0 : events[index - 1].end }

    /// Forgets the events before the last `capacity` and their codes.
    private mutating func dropOlder() {
        let first = firstKept
        let start = codesStart(first)
        codes.removeFirst(start)
        events.removeFirst(first)
        for index in events.indices { events[index].end -= start }
    }

    /// Oldest first.
    var inOrder: [(step: Int, codes: [UInt8])] {
        (firstKept..<events.count).map { index in (events[index].step, Array(codes[codesStart(index)..<events[index].end])) }
    }
}

public struct StepRecord: Sendable, Hashable {
    public var index: Int
    public var json: String
    public var milliseconds: Double
}

public struct RecentEvent: Sendable, Hashable {
    public var step: Int
    public var json: String
    public var notifications: [String]
}

/// What a front found comparing its window with an `expectScreenshot` baseline.
public struct ScreenshotCheck: Sendable {
    /// Why it differs; empty when it matches (or the baseline was written).
    public var lines: [String]
    /// Pictures for the trace: `expected`, `actual`, `difference` (paths relative to it).
    public var images: [(label: String, image: String)]

    public init(lines: [String] = [], images: [(label: String, image: String)] = []) {
        self.lines = lines
        self.images = images
    }
}

public struct Failure: Sendable, Hashable {
    /// 1-based step number.
    public var step: Int
    /// `file:line:column` of the step.
    public var location: String
    public var stepJSON: String
    /// Why: one line per mismatch (objects as a -/+ diff).
    public var lines: [String]
    public var recent: [RecentEvent]

    /// The first line, for one-line reporters.
    public var summary: String { "\(location): step \(step): \(lines.first ?? "failed")" }
}

public struct ScriptResult: Sendable {
    public enum Status: Sendable {
        case passed
        case failed(Failure)
        case bad([Diagnostic])
        /// A JSON file in a folder that is not a session script.
        case skipped
    }

    public var file: String
    public var name: String
    public var status: Status
    public var milliseconds: Double
    public var steps: [StepRecord] = []
    public var trace: Trace? = nil
    /// The script's `description`, when it has one.
    public var description: String? = nil
    /// The state after the last step run (every step when it passed), when asked for.
    public var finalState: JSONValue? = nil
    /// What the script exercised of its flow, with `--coverage`.
    public var coverage: FlowCoverage? = nil
    /// With `repeatEach`: how many notifications the script's events emitted, and a digest of
    /// them (the same in one process for the same notifications in the same order).
    public var notifications: (count: Int, digest: Int)? = nil
    /// With `Runner.Options.update` (`quire test --update`): the expectations rewritten.
    public var rewrites: [Rewrite] = []
    /// The script's identity in reports (a JUnit `classname` and `name`), from its path; it
    /// stays the same when the script turns bad. Set by `Suite`.
    public var id = TestID()
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// Differences between two states, as `path: before → after` lines or structured entries.
public enum StateDiff {
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        public var path: JSONPath
        public var before: JSONValue?
        public var after: JSONValue?

        public var description: String {
            "\(path): \(before.map { JSONWriter.string($0) } ?? "(none)") → \(after.map { JSONWriter.string($0) } ?? "(none)")"
        }

        public var json: JSONValue {
            ["path": .string(path.description), "before": before ?? .null, "after": after ?? .null]
        }
    }

    public static func diff(_ before: JSONValue, _ after: JSONValue, at path: JSONPath = .root) -> [Entry] {
        var entries: [Entry] = []
        diff(before, after, at: path, into: &entries)
        return entries
    }

    static func diff(_ before: JSONValue?, _ after: JSONValue?, at path: JSONPath, into entries: inout [Entry]) {
        switch (before, after) {
        case (.object(let a)?, .object(let b)?):
            for (key, value) in a { diff(value, b[key], at: path + key, into: &entries) }
            for (key, value) in b where a[key] == nil { entries.append(Entry(path: path + key, before: nil, after: value)) }
        default:
            if before != after { entries.append(Entry(path: path, before: before, after: after)) }
        }
    }
}
