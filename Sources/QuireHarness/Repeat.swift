import QuireCore

/// `quire test --repeat-each N`: determinism made visible. Each script runs N times in a row on
/// one thread; every run must end in the same state, emit the same notifications in the same
/// order, and get the same verdict and report lines as the first. A difference fails the script,
/// saying which run differed from the first, and how.
public enum Repeat {
    /// The most runs a script gets (a documented limit).
    public static let limit = 1000

    static func run(_ script: SessionScript, options: Runner.Options) -> ScriptResult {
        var each = options
        each.repeatEach = 1
        each.finalState = true
        each.digest = true
        let first = Runner.run(script, options: each)
        var result = first
        for attempt in 2...max(2, options.repeatEach) {
            // Coverage counts the first run only: repeats add nothing new to see.
            each.coverage = false
            let again = Runner.run(script, options: each)
            let differences = compare(first, again)
            if !differences.isEmpty {
                let lines =
                    ["run \(attempt) of \(options.repeatEach) differs from run 1 (the session is not deterministic):"]
                    + differences.map { "  " + $0 }
                result.status = .failed(
                    Failure(step: script.steps.count, location: "\(script.file):1:1", stepJSON: "", lines: lines, recent: []))
                break
            }
        }
        if !options.finalState { result.finalState = nil }
        result.notifications = nil
        return result
    }

    /// How `again` differs from `first`: verdict and report lines, notifications, final state.
    public static func compare(_ first: ScriptResult, _ again: ScriptResult) -> [String] {
        var lines: [String] = []
        let verdicts = (verdict(first.status), verdict(again.status))
        if verdicts.0 != verdicts.1 { lines.append("verdict: \(verdicts.0) → \(verdicts.1)") }
        if let a = first.notifications, let b = again.notifications {
            if a.count != b.count {
                lines.append("notifications: \(a.count) → \(b.count)")
            } else if a.digest != b.digest {
                lines.append("notifications: the same number (\(a.count)), not the same ones")
            }
        }
        if let a = first.finalState, let b = again.finalState, a != b {
            lines.append("final state:")
            lines += StateDiff.diff(a, b).map { "  \($0)" }
        }
        return lines
    }

    /// The verdict and what the report says about it.
    static func verdict(_ status: ScriptResult.Status) -> String {
        switch status {
        case .passed: "passed"
        case .failed(let failure): "failed at step \(failure.step): " + failure.lines.joined(separator: " / ")
        case .bad(let diagnostics): "bad: " + diagnostics.map(\.description).joined(separator: " / ")
        case .skipped: "skipped"
        }
    }
}
