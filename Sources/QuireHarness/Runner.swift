import QuireCore

/// What a script's events go through: the session itself (the headless harness), or a front that
/// turns each event into input on its widgets (`quire run --replay`), whose session then receives
/// what the widgets send. The runner checks the script's expectations against `session`.
public protocol SessionDriver: AnyObject {
    /// The session as it stands after the events so far.
    var session: Session { get }
    /// Delivers one event; `buffer` receives (after being cleared) everything the session emitted.
    func send(_ event: Event, into buffer: inout [SessionNotification])
    /// Goes on from a session restored from a snapshot (the `restart` step).
    func replace(with session: Session)
}

/// The harness's own driver: events go straight to the session.
public final class DirectDriver: SessionDriver {
    public private(set) var session: Session

    public init(_ session: Session) {
        self.session = session
    }

    public func send(_ event: Event, into buffer: inout [SessionNotification]) {
        session.send(event, into: &buffer)
    }

    public func replace(with session: Session) {
        self.session = session
    }
}

/// Replays one script against a fresh session, stopping at the first failing step.
public enum Runner {
    public struct Options: Sendable {
        /// Keep every step's JSON and time (for JUnit properties).
        public var recordSteps = false
        /// Keep a full trace (state diff per step) for `--trace`.
        public var trace = false
        /// How many recent events a failure report shows.
        public var recentEvents = 5
        /// Keep the session's state after the last step run (for `--final-states`).
        public var finalState = false
        /// With `trace`: called after each step (1-based) for a picture of the front to show with
        /// it; returns its path relative to the trace, or nil.
        public var stepImage: (@Sendable (Int) -> String?)? = nil
        /// A front's check of `expectScreenshot` (step, 1-based, and name): why the window differs
        /// from its baseline (nothing when it matches) and the pictures for the trace. Without
        /// it (headless `quire test`) the step is skipped.
        public var screenshot: (@Sendable (Int, String) -> ScreenshotCheck)? = nil
        /// A front's check of `expectAccessible` (step, 1-based, and the expected tree) against
        /// the tree it exposes: the failure's lines, nothing when it matches. The core's tree is
        /// checked too, and a failure shows what each gave.
        public var accessible: (@Sendable (Int, [AccessibleElement]) -> [String])? = nil
        /// How many notifications of each recent event a failure report names.
        public var recentNotifications = 20
        public var limits = ScriptLimits.default
        /// Record what the script exercised of its flow (`--coverage`; a flow given inline is not covered).
        public var coverage = false
        /// Each flow's empty coverage, shared by the scripts of a run (`Suite` makes it).
        public var coverageTemplates: CoverageTemplates? = nil
        /// Run each script this many times and fail it when a run differs (`--repeat-each`).
        public var repeatEach = 1
        /// Keep a digest of every notification emitted (for `repeatEach`).
        var digest = false
        /// `--update`: a failing expectation does not stop the script; what would make it pass is
        /// kept in the result's `rewrites` (`Update`).
        public var update = false

        public init(recordSteps: Bool = false, trace: Bool = false) {
            self.recordSteps = recordSteps
            self.trace = trace
        }
    }

    /// `flows`, the cache `script` was loaded with, gives its start session (`FlowCache.startSession`).
    public static func run(_ script: SessionScript, options: Options = Options(), flows: FlowCache? = nil) -> ScriptResult {
        var session = flows?.startSession(of: script) ?? script.startSession
        session.reducedMotion = script.reducedMotion
        return run(script, options: options, driver: DirectDriver(session))
    }

    /// Why a script is not run with `--coverage` when its flow was read otherwise than the first
    /// time (`CoverageTemplates`).
    static let flowChanged =
        "the flow file changed while the tests ran: this script read it otherwise than a script before it, so its coverage would count other items; the script was not run (run the tests again once the file stays put)"

    /// Replays `script` through `driver`, whose session must start as the script's (its flow,
    /// locale and viewport).
    public static func run(_ script: SessionScript, options: Options = Options(), driver: SessionDriver) -> ScriptResult {
        let started = ContinuousClock.now
        let limits = options.limits
        var buffer: [SessionNotification] = []
        buffer.reserveCapacity(16)
        // The script is known in advance: each event's notifications are kept only for the next
        // expectEmitted that will read them, and only as much of them as it asks about.
        let (firstCheck, nextCheck) = checks(script.steps)
        var window = NotificationWindow(limits: limits)
        window.reset(for: firstCheck.flatMap { expectation(script.steps[$0]) })
        var emittedInAll = 0
        var recent = RecentEvents(capacity: options.recentEvents, events: script.steps.count)
        var records: [StepRecord] = []
        var trace = options.trace ? Trace(initialState: driver.session.state) : nil
        var traceBudget = (notifications: limits.traceNotifications, changes: limits.traceChanges)
        var failure: Failure? = nil
        var overLimit: Diagnostic? = nil
        // The last event and what it emitted, kept only for scripts that ask where keyboard
        // focus goes (`expectKeyboardFocus`).
        let keepsLastEvent = script.steps.contains { if case .expectKeyboardFocus = $0 { true } else { false } }
        var lastEvent: (event: Event, emitted: [SessionNotification])? = nil
        // The refusal notice a front would show now, kept only for scripts that check it.
        let keepsNotice = script.steps.contains { if case .expectNotice = $0 { true } else { false } }
        var notice = NoticeShown()
        // The announcements made since the last `expectAnnounced`, kept only for scripts that
        // check them (each event's needs the errors in view from before it).
        // (A trace shows each step's announcements too.)
        let keepsAnnouncements = trace != nil || script.steps.contains { if case .expectAnnounced = $0 { true } else { false } }
        var announced: [Announcement] = []
        // The last refusal on the page shown, which a failed expectation about the page or
        // `completed` explains itself with (`Explain`).
        var refusal: Explain.Refusal? = nil
        // With `update`: every notification since the last expectEmitted, and the rewrites so far.
        var sinceCheck: [SessionNotification] = []
        var rewrites: [Rewrite] = []
        // With `update`: how many of `sinceCheck` the last run of events (the events since the
        // last step that was not one) emitted: what an expectEmitted after them is about.
        var lastRun = 0
        var previousWasEvent = false
        var coverage: CoverageRecorder? = nil
        var digest = options.digest ? Hasher() : nil
        if options.coverage, let flowFile = script.flowFile {
            let template: FlowCoverage
            if let templates = options.coverageTemplates {
                guard let made = templates.template(file: flowFile, flow: script.flow) else {
                    return ScriptResult(
                        file: script.file, name: script.name, status: .bad([Diagnostic.whole(file: flowFile, message: Self.flowChanged)]),
                        milliseconds: 0)
                }
                template = made
            } else {
                template = FlowCoverage(file: FileWalker.normalized(flowFile), flow: script.flow)
            }
            coverage = CoverageRecorder(template)
            coverage!.observe(driver.session)
        }
        // Asked once: `coverage != nil` copies the recorder (its flow and counters) to compare it.
        let covering = coverage != nil

        // `expectScreenshot` mismatches, all of them (the script fails at the first once it ends).
        var screenshotLines: [String] = []
        var screenshotStep: Int? = nil
        stepLoop: for (index, step) in script.steps.enumerated() {
            let stepStarted = options.recordSteps ? ContinuousClock.now : nil
            let before: JSONValue? = trace != nil ? driver.session.state : nil
            var lines: [String] = []
            var emitted: ArraySlice<SessionNotification> = []
            var omittedNotifications = 0
            var stepAnnounced: [Announcement] = []
            var shotLines: [String] = []
            var shotImages: [(label: String, image: String)] = []
            switch step {
            case .event(let event):
                let inView = keepsAnnouncements ? driver.session.errorsInView : nil
                driver.send(event, into: &buffer)
                if keepsAnnouncements {
                    stepAnnounced = driver.session.announcements(after: event, emitted: buffer, before: inView)
                    announced += stepAnnounced
                }
                emittedInAll += buffer.count
                if digest != nil {
                    for notification in buffer { digest!.combine(notification) }
                    digest!.combine(-1)
                }
                if keepsLastEvent { lastEvent = (event, buffer) }
                if refusal != nil || !buffer.isEmpty { refusal = Explain.refusal(after: event, at: index, emitted: buffer, kept: refusal) }
                if keepsNotice { notice.follow(event, emitted: buffer, in: driver.session) }
                if covering { coverage!.record(event, emitted: buffer, driver: driver) }
                if nextCheck[index] != nil {
                    for notification in buffer { window.append(notification) }
                    if options.update {
                        if !previousWasEvent { lastRun = 0 }
                        sinceCheck += buffer
                        lastRun += buffer.count
                    }
                }
                if script.strict, let reason = strictProblem(script, at: index, emitted: buffer) { lines = [reason] }
                recent.record(step: index, buffer)
                if trace != nil {
                    let kept = min(buffer.count, limits.traceNotificationsPerStep, traceBudget.notifications)
                    emitted = buffer.prefix(kept)
                    omittedNotifications = buffer.count - kept
                    traceBudget.notifications -= kept
                }
                if emittedInAll > limits.notifications {
                    overLimit = script.diagnostic(
                        ofStep: index,
                        "over a limit: the script's events have emitted \(emittedInAll) notifications; a script may emit at most \(limits.notifications)"
                    )
                } else if window.count > limits.window {
                    overLimit = script.diagnostic(
                        ofStep: index,
                        "over a limit: \(window.count) notifications are waiting for the next expectEmitted; at most \(limits.window) are kept (check them sooner)"
                    )
                }
            case .expect(let expected):
                let mismatches = Matcher.match(expected, session: driver.session)
                lines = mismatches.flatMap(Report.describe)
                if !mismatches.isEmpty && !options.update {
                    lines += Explain.lines(for: mismatches, session: driver.session, script: script, refusal: refusal)
                }
                if options.update && !lines.isEmpty {
                    rewrites.append(
                        Rewrite(
                            step: index, key: "expect",
                            value: Update.expectation(expected, session: driver.session, exactly: false)))
                    lines = []
                }
            case .expectExactly(let expected):
                let mismatches = Matcher.matchExactly(expected, session: driver.session)
                lines = mismatches.flatMap(Report.describe)
                if !mismatches.isEmpty && !options.update {
                    lines += Explain.lines(for: mismatches, session: driver.session, script: script, refusal: refusal)
                }
                if options.update && !lines.isEmpty {
                    rewrites.append(
                        Rewrite(
                            step: index, key: "expectExactly",
                            value: Update.expectation(expected, session: driver.session, exactly: true)
                        ))
                    lines = []
                }
            case .expectKeyboardFocus(let expected):
                let actual = driver.session.keyboardFocus(after: lastEvent?.event, emitted: lastEvent?.emitted ?? []).name
                if actual != expected {
                    lines = ["keyboard focus: expected \(expected), got \(actual)"]
                    if options.update {
                        rewrites.append(Rewrite(step: index, key: "expectKeyboardFocus", value: .string(actual)))
                        lines = []
                    }
                }
            case .expectNotice(let expected):
                let actual = notice.notice?.json ?? .null
                if expected == .null || actual == .null {
                    if expected != actual { lines = ["notice: expected \(JSONWriter.string(expected)), got \(JSONWriter.string(actual))"] }
                } else {
                    var mismatches: [Mismatch] = []
                    Matcher.match(expected: expected, actual: actual, at: .root, into: &mismatches)
                    lines = mismatches.map { "notice \($0)" }
                }
                if options.update && !lines.isEmpty {
                    rewrites.append(Rewrite(step: index, key: "expectNotice", value: Update.notice(expected, actual: actual)))
                    lines = []
                }
            case .expectAnnounced(let expected):
                let matches =
                    expected.count == announced.count
                    && zip(expected, announced).allSatisfy { want, had in
                        want.text.unicodeScalars.elementsEqual(had.text.unicodeScalars)
                            && (want.priority == nil || want.priority == had.priority)
                    }
                if !matches {
                    let wanted = expected.map { want in
                        want.priority.map { JSONWriter.string(Announcement(want.text, $0).json) } ?? JSONWriter.string(.string(want.text))
                    }
                    let got = announced.map { JSONWriter.string($0.json) }
                    lines = ["announced: expected [\(wanted.joined(separator: ", "))], got [\(got.joined(separator: ", "))]"]
                    if options.update {
                        rewrites.append(Rewrite(step: index, key: "expectAnnounced", value: Update.announced(expected, actual: announced)))
                        lines = []
                    }
                }
                announced = []
            case .expectAccessible(let expected):
                let actual = driver.session.accessibleTree
                lines = AccessibleCheck.differences(expected: expected, actual: actual)
                if options.update && !lines.isEmpty {
                    rewrites.append(Rewrite(step: index, key: "expectAccessible", value: .array(actual.map(\.json))))
                    lines = []
                }
                // The front's tree is compared too, whatever the core's gave: a failure shows both.
                if !options.update, let front = options.accessible { lines += front(index + 1, expected) }
            case .expectEmitted(let patterns), .expectEmittedExactly(let patterns):
                if let reason = window.check() {
                    lines = [reason]
                    if options.update {
                        // `expectEmitted` gets what the events just before it emitted (any contiguous run
                        // passes), or everything since the last check when they emitted nothing;
                        // `expectEmittedExactly` gets everything since the last check.
                        let exactly = if case .expectEmittedExactly = step { true } else { false }
                        let run = min(lastRun, sinceCheck.count)
                        let actual = exactly || run == 0 ? sinceCheck : Array(sinceCheck.suffix(run))
                        rewrites.append(
                            Rewrite(
                                step: index, key: exactly ? "expectEmittedExactly" : "expectEmitted",
                                value: Update.emitted(patterns, actual: actual)))
                        lines = []
                    }
                }
                sinceCheck.removeAll(keepingCapacity: true)
                lastRun = 0
                window.reset(for: nextCheck[index].flatMap { expectation(script.steps[$0]) })
            case .expectScreenshot(let name):
                // A mismatch does not stop the script: every screenshot is compared, and the
                // script fails at the end listing them all (below).
                if let check = options.screenshot?(index + 1, name), !check.lines.isEmpty {
                    screenshotLines += check.lines.map { "step \(index + 1): \($0)" }
                    screenshotStep = screenshotStep ?? index
                    shotLines = check.lines
                    shotImages = check.images
                }
            case .restart:
                var session = driver.session
                lines = restart(&session, flow: script.flow)
                driver.replace(with: session)
                if covering { coverage!.restarted(driver.session) }
            }
            if let stepStarted {
                let elapsed = ContinuousClock.now - stepStarted
                records.append(
                    StepRecord(index: index + 1, json: JSONWriter.string(script.rawStep(index)), milliseconds: elapsed.milliseconds))
            }
            if trace != nil, let before {
                var diff = StateDiff.diff(before, driver.session.state)
                let omittedChanges = max(0, diff.count - traceBudget.changes)
                diff.removeLast(omittedChanges)
                traceBudget.changes -= diff.count
                var entry = Trace.Step(
                    index: index + 1, step: script.rawStep(index), notifications: emitted.map { limits.shown($0.json) },
                    diff: diff.map { change in
                        var shown = change
                        shown.before = change.before.map(limits.shown)
                        shown.after = change.after.map(limits.shown)
                        return shown
                    }, failure: lines + shotLines, image: options.stepImage?(index + 1))
                entry.announced = stepAnnounced.prefix(limits.traceNotificationsPerStep).map { limits.shown($0.json) }
                entry.screenshot = shotImages
                entry.omittedNotifications = omittedNotifications
                entry.omittedChanges = omittedChanges
                trace!.steps.append(entry)
            }
            previousWasEvent = if case .event = step { true } else { false }
            if overLimit != nil { break stepLoop }
            if !lines.isEmpty {
                failure = Failure(
                    step: index + 1, location: script.location(ofStep: index), stepJSON: JSONWriter.string(script.rawStep(index)),
                    lines: lines,
                    recent: recent.inOrder.map { entry in
                        let shown = entry.codes.prefix(options.recentNotifications).map(NotificationCode.name)
                        let more = entry.codes.count - shown.count
                        return RecentEvent(
                            step: entry.step + 1, json: JSONWriter.string(script.rawStep(entry.step)),
                            notifications: shown + (more > 0 ? ["… \(more) more"] : []))
                    })
                break stepLoop
            }
        }
        if failure == nil, overLimit == nil, let at = screenshotStep {
            failure = Failure(
                step: at + 1, location: script.location(ofStep: at), stepJSON: JSONWriter.string(script.rawStep(at)),
                lines: [
                    screenshotLines.count == 1
                        ? "1 screenshot differs from its baseline:" : "\(screenshotLines.count) screenshots differ from their baselines:"
                ]
                    + screenshotLines,
                recent: [])
        }
        let elapsed = (ContinuousClock.now - started).milliseconds
        trace?.failingStep = failure?.step
        let status: ScriptResult.Status =
            if let overLimit { .bad([overLimit]) } else { failure.map(ScriptResult.Status.failed) ?? .passed }
        return ScriptResult(
            file: script.file, name: script.name, status: status, milliseconds: elapsed, steps: records, trace: trace,
            description: script.description, finalState: options.finalState ? driver.session.state : nil,
            coverage: coverage?.coverage, notifications: digest.map { (emittedInAll, $0.finalize()) }, rewrites: rewrites)
    }

    /// `"strict": true`: why the event at step `index` fails the script — it was ignored, and the
    /// next step is not an expectEmitted (or expectEmittedExactly) that names `ignored` — or nil.
    static func strictProblem(_ script: SessionScript, at index: Int, emitted: [SessionNotification]) -> String? {
        guard let ignored = emitted.first(where: { $0.kind == .ignored }) else { return nil }
        if index + 1 < script.steps.count {
            switch script.steps[index + 1] {
            case .expectEmitted(let patterns), .expectEmittedExactly(let patterns):
                if patterns.contains(where: { $0.name == "ignored" }) { return nil }
            default:
                break
            }
        }
        var reason = "ignored"
        if case .ignored(_, _, let why) = ignored { reason = why.rawValue }
        return
            "strict: the event was ignored (\(reason)): no person could do this here; fix the step, or expect it with {\"expectEmitted\": [{\"ignored\": {\"reason\": \"\(reason)\"}}]} as the next step"
    }

    /// The index of the first expectEmitted(Exactly), and for each step the index of the first
    /// one after it.
    static func checks(_ steps: [SessionScript.Step]) -> (first: Int?, after: [Int?]) {
        var next: Int? = nil
        var result = [Int?](repeating: nil, count: steps.count)
        for index in steps.indices.reversed() {
            result[index] = next
            switch steps[index] {
            case .expectEmitted, .expectEmittedExactly: next = index
            default: break
            }
        }
        return (next, result)
    }

    static func expectation(_ step: SessionScript.Step) -> EmittedExpectation? {
        switch step {
        case .expectEmitted(let patterns): EmittedExpectation(patterns, exactly: false)
        case .expectEmittedExactly(let patterns): EmittedExpectation(patterns, exactly: true)
        default: nil
        }
    }

    /// `restart`: snapshots the session, serializes the snapshot to JSON text, builds a new session
    /// from it (`restore`, the core's restore unless a test replaces it) and goes on with that one.
    /// Returns why the step fails: the differences when the session did not come back equal, or
    /// the diagnostics when the snapshot did not restore; nothing when all is well.
    static func restart(
        _ session: inout Session, flow: Flow,
        restore: (_ snapshot: [UInt8], _ flow: Flow) throws(DocumentError) -> Session = Runner.restore
    ) -> [String] {
        let snapshot = session.snapshotData(includingFlow: false)
        var restored: Session
        do {
            restored = try restore(snapshot, flow)
            // A front's setting, not the session's state: the front sets it again.
            restored.reducedMotion = session.reducedMotion
        } catch {
            return ["restart failed: the snapshot did not restore"] + error.diagnostics.map { "  \($0)" }
        }
        var lines: [String] = []
        if restored != session {
            lines = ["restart changed the session"] + StateDiff.diff(session.state, restored.state).map { "  \($0)" }
            // What the state does not show.
            if restored.locale != session.locale {
                lines.append("  locale: \(JSONWriter.string(.string(session.locale))) → \(JSONWriter.string(.string(restored.locale)))")
            }
            if restored.viewportWidth != session.viewportWidth {
                lines.append("  viewportWidth: \(session.viewportWidth) → \(restored.viewportWidth)")
            }
            if lines.count == 1 { lines.append("  (the state is the same; something a snapshot keeps outside it differs)") }
        }
        session = restored
        return lines
    }

    static func restore(_ snapshot: [UInt8], _ flow: Flow) throws(DocumentError) -> Session {
        try Session(restoring: snapshot, flow: flow, file: "<snapshot>")
    }

    /// Whether `patterns` match a contiguous run of `notifications` (an empty list: there are
    /// none), as `expectEmitted` judges.
    static func containsRun(_ notifications: [SessionNotification], _ patterns: [EmittedPattern]) -> Bool {
        let expectation = EmittedExpectation(patterns, exactly: false)
        var window = NotificationWindow(limits: .default)
        window.reset(for: expectation)
        for notification in notifications { window.append(notification) }
        return window.containsRun(expectation)
    }
}
