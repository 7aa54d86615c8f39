import ArgumentParser
import Foundation
import QuireCore
import QuireHarness

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay session scripts headlessly and check their expectations.",
        discussion: """
            PATH is a script or a folder; folders are searched recursively, following symbolic \
            links, for *.json files whose format is quire.session/1 (other JSON files are skipped; \
            a folder with no script, a folder that cannot be read, a link to nothing and a link \
            loop are bad input). Scripts run in parallel; reports keep the order in which scripts \
            were found.

            The last line of the console report is exactly "N passed, N failed" (", N bad" follows \
            when a script or its flow was broken).

            --coverage prints, after the totals, what the scripts exercised of each flow file: \
            pages made current, fields focused or edited, conditions seen true and false, \
            validation codes shown, refusal reasons, accessory items and kinds of page move, \
            with every item not covered at file:line:column; --coverage-json and \
            --coverage-lcov write it as quire.coverage/1 JSON and as an lcov tracefile over the \
            flow files' lines (docs/coverage.md).

            --update keeps scripts up to date: each failing expect, expectExactly, expectEmitted, \
            expectEmittedExactly, expectKeyboardFocus, expectNotice, expectAnnounced and expectAccessible is \
            rewritten in place with what the session did, and every other byte of the file is left \
            as it was (an expect keeps the keys it names, and what already matched as written). \
            A line "UPDATED FILE: step N (expect), …" names each rewrite; the script is then run \
            again from the rewritten file, and that run is reported. A step that is not an \
            expectation (a restart that changed the session, an ignored event in a strict script) \
            still fails. Review the changes (git diff) before committing them (docs/session-scripts.md).

            --shard K/N runs part K of N; --results FILE writes the run's results as \
            quire.results/1, which quire report merge turns into the JUnit and TAP reports of one \
            unsharded run. Without --shard, Bazel's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX choose \
            the shard (TEST_SHARD_STATUS_FILE is touched), and without --junit the JUnit report \
            goes to XML_OUTPUT_FILE when it is set (docs/sharding.md).

            Reports (--junit, --tap, --final-states, --coverage-json, --coverage-lcov, --trace) are written to a temporary file \
            beside each and renamed into place only when complete, so a report is whole or absent.

            Exit codes: 0 every script passed; 1 a script failed; 2 bad input (a broken script or \
            flow, a path that cannot be used), a report that could not be written (the path and \
            the reason are printed), or a usage error; 130, 143, 129 interrupted by SIGINT, \
            SIGTERM, SIGHUP (unfinished reports removed). Bad input is listed with the results and \
            counted apart; it wins over failures.
            """)

    @Argument(help: "Session scripts or folders of them (at least one).")
    var paths: [String] = []

    // Read unconditionally, so `--jobs -1` gets our message rather than "missing value".
    @Option(name: .shortAndLong, parsing: .unconditional, help: "Scripts to run at once (the default is this machine's core count).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Run only part K of N (1-based), e.g. 2/4, to spread a suite over machines.", valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Also write a JUnit XML report to FILE ('-': standard output, the console report then goes to standard error).",
            valueName: "FILE"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Also write a TAP 13 report to FILE ('-': standard output, the console report then goes to standard error).", valueName: "FILE")
    )
    var tap: String?

    @Option(help: ArgumentHelp("Write a JSON trace and an HTML page per script into DIR.", valueName: "DIR"))
    var trace: String?

    @Option(
        help: ArgumentHelp(
            "Write this run's results as quire.results/1 JSON to FILE, for quire report merge (docs/sharding.md).", valueName: "FILE"))
    var results: String?

    @Option(
        help: ArgumentHelp(
            "Write each script's final state to FILE, one JSON object a line: {\"script\", \"status\", \"state\"} ('-': standard output, the console report then goes to standard error).",
            valueName: "FILE"))
    var finalStates: String?

    @Flag(name: .shortAndLong, help: "List only failures and the totals (no line per passing script).")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Run each script N times (1–\(Repeat.limit)); a run whose final state, notifications or report differs from the first fails the script.",
            valueName: "N"))
    var repeatEach = 1

    @Flag(help: "Record what the scripts exercised of their flows and print a summary (docs/coverage.md).")
    var coverage = false

    @Option(help: ArgumentHelp("Write the coverage as JSON (quire.coverage/1) to FILE (implies --coverage).", valueName: "FILE"))
    var coverageJson: String?

    @Option(
        help: ArgumentHelp(
            "Write the coverage as an lcov tracefile over the flow files' lines to FILE (implies --coverage).", valueName: "FILE"))
    var coverageLcov: String?

    @Flag(help: "Never draw a live progress line, even on a terminal.")
    var plain = false

    @Flag(
        help: ArgumentHelp(
            "Rewrite each failing expect, expectExactly, expectEmitted, expectEmittedExactly, expectKeyboardFocus, expectNotice, expectAnnounced and expectAccessible in its script with what the session did (every other byte of the file is kept), then run the script again."
        ))
    var update = false

    @Flag(
        help: ArgumentHelp(
            "After the run, watch the scripts and their flows (and the flows' layouts): run again each script whose file, flow or layout changed, until interrupted (Ctrl+C)."
        ))
    var watch = false

    /// Tests: with --watch, stop after this many runs after the first (exit as a run would).
    @Option(help: .hidden)
    var watchRounds: Int?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one script or folder, e.g. quire test data/sessions") }
        if repeatEach < 1 || repeatEach > Repeat.limit {
            throw ValidationError("--repeat-each takes how many times to run each script, 1 to \(Repeat.limit); got \(repeatEach)")
        }
        if jobs < 1 { throw ValidationError("--jobs takes how many scripts to run at once, at least 1; got \(jobs)") }
        if update && repeatEach > 1 { throw ValidationError("--update runs each script once; leave out --repeat-each") }
        if [tap, junit, finalStates, coverageJson, coverageLcov, results].filter({ $0 == "-" }).count > 1 {
            throw ValidationError(
                "only one report can go to standard output: give --tap, --junit, --final-states, --coverage-json, --coverage-lcov or --results a file"
            )
        }
        if watch
            && (tap != nil || junit != nil || trace != nil || finalStates != nil || coverage || coverageJson != nil
                || coverageLcov != nil || update || repeatEach > 1 || shard != nil)
        {
            throw ValidationError(
                "--watch reports to the console only: leave out --tap, --junit, --trace, --final-states, --coverage…, --update, --repeat-each and --shard"
            )
        }
        if let shard, parseShard(shard) == nil {
            throw ValidationError("--shard takes K/N with 1 <= K <= N, e.g. 1/4; got '\(shard)'")
        }
    }

    func parseShard(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else { return nil }
        return (k, n)
    }

    /// Bazel's test sharding protocol: with TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (0-based) set
    /// and no --shard, run that shard; TEST_SHARD_STATUS_FILE is touched to say sharding is
    /// supported; XML_OUTPUT_FILE is where the JUnit report goes when --junit is not given.
    static func bazelShard(_ environment: [String: String]) throws -> (Int, Int)? {
        guard let totalText = environment["TEST_TOTAL_SHARDS"], let indexText = environment["TEST_SHARD_INDEX"] else { return nil }
        guard let total = Int(totalText), let index = Int(indexText), total >= 1, index >= 0, index < total else {
            throw ValidationError(
                "TEST_TOTAL_SHARDS and TEST_SHARD_INDEX must be N >= 1 and 0 <= K < N (Bazel's sharding); got '\(totalText)' and '\(indexText)'"
            )
        }
        if let status = environment["TEST_SHARD_STATUS_FILE"], !status.isEmpty {
            let fd = Foundation.open(status, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            if fd < 0 {
                throw ValidationError(
                    "cannot touch TEST_SHARD_STATUS_FILE '\(Printable.line(status))': \(String(cString: strerror(errno)))")
            }
            futimens(fd, nil)
            close(fd)
        }
        return (index + 1, total)
    }

    func run() throws {
        let candidates = Suite.discover(paths)
        var options = Suite.Options(jobs: jobs)
        let environment = ProcessInfo.processInfo.environment
        if let shard, let (k, n) = parseShard(shard) {
            options.shard = (k, n)
        } else if let (k, n) = try Self.bazelShard(environment) {
            options.shard = (k, n)
        }
        var junit = self.junit
        if junit == nil, let xml = environment["XML_OUTPUT_FILE"], !xml.isEmpty { junit = xml }
        options.runner.recordSteps = junit != nil || results != nil
        options.runner.trace = trace != nil
        options.runner.finalState = finalStates != nil
        let covering = coverage || coverageJson != nil || coverageLcov != nil
        options.runner.coverage = covering
        options.runner.repeatEach = repeatEach
        options.runner.update = update

        // An interrupted run removes the temporary files of its unfinished reports, says so and
        // exits 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP).
        Interruption.install { signal in
            "quire test: interrupted by \(signal); unfinished reports were removed (none was written in part)"
        }
        let reportToStdout =
            tap == "-" || junit == "-" || finalStates == "-" || coverageJson == "-" || coverageLcov == "-" || results == "-"
        let consoleFD: Int32 = reportToStdout ? 2 : 1
        let consoleSink = reportToStdout ? FileSink.standardError() : FileSink.standardOutput()
        let live = !plain && isatty(consoleFD) != 0
        var reporters: [Reporter] = [ConsoleReporter(sink: consoleSink, live: live, quiet: quiet, width: { terminalColumns(consoleFD) })]
        // Every report is opened before any script runs, so a report that cannot be written at
        // all (no such folder, no permission, a read-only file system) stops the run at once.
        let reports = ReportFiles(command: "quire test")
        if let tap { reporters.append(TAPReporter(sink: try reports.open(tap, "the TAP report"))) }
        if let junit { reporters.append(try reports.junit(junit)) }
        if let finalStates { reporters.append(FinalStatesReporter(sink: try reports.open(finalStates, "the final states"))) }
        if let results {
            reporters.append(
                ResultsReporter(
                    sink: try reports.open(results, "the results"), shard: options.shard, total: candidates.count, roots: paths))
        }
        let coverageJSONFile = try coverageJson.map { try reports.open($0, "the coverage JSON") }
        let coverageLcovFile = try coverageLcov.map { try reports.open($0, "the lcov coverage") }
        var traces: TraceWriter?
        if let trace {
            do {
                traces = try TraceWriter(directory: trace)
            } catch {
                throw reports.fail("cannot create the trace folder '\(Printable.line(trace))': \(error.localizedDescription)")
            }
        }

        // Watching, the files are stamped before the first run: a save during it is run after it.
        var watcher = watch ? ScriptWatch(paths: paths) : nil
        var outcome = Suite.run(candidates, options: options, reporters: reporters, traces: traces, roots: paths)
        if watcher != nil {
            var rounds = 0
            consoleSink.write("watch: waiting for a script, flow or layout to change (Ctrl+C stops)\n")
            consoleSink.flush()
            while watchRounds.map({ rounds < $0 }) ?? true {
                usleep(100_000)
                let (changed, scripts) = watcher!.changes()
                guard !scripts.isEmpty else { continue }
                rounds += 1
                let names = changed.prefix(5).map { Printable.line($0) }.joined(separator: ", ")
                let more = changed.count > 5 ? " and \(changed.count - 5) more" : ""
                let count = scripts.count == 1 ? "1 script" : "\(scripts.count) scripts"
                consoleSink.write("watch: \(names)\(more) changed; running \(count) again\n")
                let console = ConsoleReporter(sink: consoleSink, live: live, quiet: quiet, width: { terminalColumns(consoleFD) })
                outcome = Suite.run(scripts, options: options, reporters: [console], roots: [])
                consoleSink.write("watch: waiting for a script, flow or layout to change (Ctrl+C stops)\n")
                consoleSink.flush()
            }
        }
        if covering {
            // After the totals line: the coverage summary, then its files.
            let lines = CoverageReport.console(outcome.coverage)
            consoleSink.write(lines.isEmpty ? "coverage: no script ran against a flow file\n" : lines.joined(separator: "\n") + "\n")
            coverageJSONFile?.write(JSONWriter.string(CoverageReport.json(outcome.coverage), style: .pretty) + "\n")
            if let coverageLcovFile {
                coverageLcovFile.write(CoverageReport.lcov(outcome.coverage))
                for line in CoverageReport.lcovLeftOut(outcome.coverage) { printError("quire test: \(line)") }
            }
        }
        // A report is renamed into place only when every byte of it was written; any that was not
        // fails the run (never "N passed" beside an empty or half-written report).
        var problems = reports.commit()
        if let problem = traces?.problem { problems.append(problem) }
        consoleSink.flush()
        if let problem = consoleSink.problem {
            problems.append(
                ReportError(what: "the console report", path: reportToStdout ? "standard error" : "standard output", reason: problem))
        }
        if !problems.isEmpty {
            for problem in problems { printError("quire test: \(problem)") }
            throw ExitCode(QuireExit.badInput)
        }
        if outcome.summary.bad > 0 { throw ExitCode(QuireExit.badInput) }
        if outcome.summary.failed > 0 { throw ExitCode(QuireExit.failed) }
        if outcome.summary.passed == 0 {
            // Only possible with a shard that got no script.
            printError("quire test: no script ran (shard \(options.shard.index)/\(options.shard.count) of \(candidates.count) files)")
        }
    }
}

/// The width of the terminal on `descriptor`, asked each time (it may be resized during a run).
func terminalColumns(_ descriptor: Int32) -> Int? {
    var size = winsize()
    let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
    guard status == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
}

struct GenerateSessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-sessions",
        abstract: "Write random, reproducible session scripts (a benchmark workload).",
        discussion: """
            The scripts replay random events against FLOW, with expectations recorded from the \
            engine, so they all pass. The same seed gives the same scripts. See \
            docs/performance.md.
            """)

    @Option(help: "The flow the scripts run against.")
    var flow = "data/flows/focus-onboarding.json"

    @Option(help: "How many scripts.")
    var count = 10_000

    @Option(help: "Steps per script.")
    var steps = 50

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Argument(help: "The folder to write into (created if missing).")
    var directory: String

    @Option(
        help: ArgumentHelp(
            "Write witness scripts instead: a small suite reaching every coverage item of FLOW the search reaches, and each item left at its position, proved unreachable by the lint or undecided (docs/coverage.md).",
            valueName: "FLOW"))
    var cover: String?

    @Option(help: "With --cover: how many walks the search may take.")
    var walks = 2000

    @Option(help: "With --cover: how long the search may take, in seconds.")
    var maxSeconds = 30.0

    func validate() throws {
        if count < 1 || steps < 1 { throw ValidationError("--count and --steps must be at least 1") }
        if walks < 1 || !(maxSeconds > 0) { throw ValidationError("--walks and --max-seconds must be positive") }
    }

    /// `--cover FLOW`: witness scripts, and what they do not reach.
    func runCover(_ path: String) throws {
        let flow: Flow
        let bytes: [UInt8]
        do {
            bytes = try Flow.readDocument(path)
            flow = try Flow.load(bytes: bytes, file: path, folder: Flow.folder(ofFile: path))
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        }
        var bounds = WitnessSearch.Bounds()
        bounds.walks = walks
        bounds.steps = steps
        bounds.seconds = maxSeconds
        let outcome = WitnessSearch.search(flow: flow, file: path, bounds: bounds, seed: seed)
        let names: [String]
        do {
            names = try WitnessSearch.write(outcome, flowPath: path, into: directory)
        } catch {
            printError("quire generate-sessions: cannot write into '\(Printable.line(directory))': \(error.localizedDescription)")
            throw ExitCode(QuireExit.badInput)
        }
        let reached = outcome.total - outcome.remaining.count
        let proved = outcome.remaining.count { $0.proof != nil }
        print(
            Printable.line(
                "wrote \(names.count) witness script\(names.count == 1 ? "" : "s") to \(directory): \(reached) of \(outcome.total) coverage items reached in \(outcome.walks) walks of at most \(steps) steps"
                    + (proved > 0 ? ", \(proved) proved unreachable" : "")
            ))
        // Each item left, at its position in the flow: proved unreachable by the lint, or not decided.
        var reader = DocumentReader(file: path, bytes: bytes)
        var undecided = 0
        for (gap, proof) in outcome.remaining {
            switch proof {
            case .lint(let warning):
                reader.error(gap.path, "unreachable: \(gap.message) (the lint proves it: \(warning.message)) [\(warning.kind.rule.id)]")
            case nil:
                undecided += 1
                reader.error(gap.path, "undecided: \(gap.message) (not reached within the search's bounds)")
            }
        }
        for diagnostic in reader.diagnostics() { print(diagnostic.description) }
        if undecided > 0 {
            print(
                "\(undecided) item\(undecided == 1 ? "" : "s") undecided\(outcome.stoppedBy.map { ": the search stopped at \($0)" } ?? "")")
        }
    }

    func run() throws {
        if let cover {
            try runCover(cover)
            return
        }
        do {
            try ScriptGenerator.generate(flowPath: flow, count: count, steps: steps, seed: seed, into: directory)
        } catch let error as DocumentError {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        }
        print("wrote \(count) scripts of \(steps) steps to \(directory)")
    }
}
