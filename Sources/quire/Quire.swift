import ArgumentParser
import Foundation
import QuireCore
import QuireHarness

/// Exit codes (documented in the README): 0 success, 1 a script failed (test) or a flow has
/// warnings under --strict (check), 2 bad input or usage, 3 no display (run), 4 built without
/// GTK (run), 6 Graphviz's dot is missing (map --format svg).
@main
struct Quire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Paged forms and input sessions: check flows, replay session scripts, run walkthroughs.",
        discussion: """
            Flows (quire.flow/1) describe a paged walkthrough or form; session scripts \
            (quire.session/1) replay input against one headlessly. See docs/ for both formats.

            Exit codes: 0 success; 1 a session script failed (test), or a flow has warnings \
            (check --strict); 2 bad input (a broken flow or script, \
            a missing file), a report that could not be written, or a usage error; 3 (run) no \
            display; 4 (run) built without GTK 4; 5 (run) the --record file could not be written; \
            6 (map) Graphviz's dot program is missing, failed or timed out; 130/143/129 (test, map) interrupted by SIGINT/SIGTERM/SIGHUP.
            """,
        version: "0.1.0",
        subcommands: [Check.self, Test.self, CoverageCommand.self, ReportCommand.self, Map.self, GenerateSessions.self, Run.self]
    )

    static func main() {
        StartupMarks.add("main")
        // A file-size limit (ulimit -f) makes a write that goes over it fail with EFBIG, which
        // every writer reports ("cannot write …", "cannot save …"), instead of killing the
        // process with SIGXFSZ and leaving its temporary file behind.
        signal(SIGXFSZ, SIG_IGN)
        if CommandLine.arguments.count == 1 {
            // No subcommand: say how to use it, as a usage error.
            FileHandle.standardError.write(Data((helpMessage() + "\n").utf8))
            Foundation.exit(QuireExit.badInput)
        }
        do {
            var command = try parseAsRoot()
            StartupMarks.add("parsed")
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            if let exit = error as? ExitCode { Foundation.exit(exit.rawValue) }
            // Usage errors (ArgumentParser's 64) are bad input too: one documented code.
            Foundation.exit(QuireExit.badInput)
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate flow files and print every problem.",
        discussion: """
            Each problem is printed as file:line:column: $.json.path: message. A folder is \
            searched recursively, following symbolic links, for *.json files whose format is \
            quire.flow/1 (or that have pages but no format); other JSON files, session scripts \
            among them, are skipped, and a folder with no flow is an error. Each page's layout \
            (.ui) is read and checked against the layout policy quire run applies \
            (docs/flow-format.md): a problem in it is printed at the page's layout key, followed by \
            LAYOUT:line:column. A session script named \
            on its own gets a one-line hint to use quire test.

            A valid flow is then linted: pages and fields that can never be shown, conditions \
            that are never or always true, a min or max the wheels cannot show, texts missing in \
            a locale the flow uses. Each is printed as file:line:column: $.path: warning: message \
            (docs/flow-format.md, "Warnings"); a duration bound the wheels snap past is a note, \
            which --strict does not count. Each finding names its rule ([page-never-shown]); \
            --config FILE (quire.lint/1) sets rules' severities and suppresses findings by rule, \
            file and JSON path; --format json, sarif or gitlab writes the findings to standard \
            output as quire.check/1, SARIF 2.1.0 or GitLab Code Quality JSON (docs/lint.md).

            Exits 0 when every flow is valid, 2 when any is not (or a path cannot be read, a \
            script was named, or the config was rejected), 1 when every flow is valid but one has \
            a finding of severity error, or, with --strict, a warning.
            """)

    @Argument(help: "Flow files (quire.flow/1) or folders of them.")
    var flows: [String]

    @Flag(name: .shortAndLong, help: "Print nothing for valid flows (warnings are still printed).")
    var quiet = false

    @Flag(help: "Fail (exit 1) when a valid flow has warnings.")
    var strict = false

    @Option(
        name: .customLong("max-bytes"),
        help: "The largest flow file read, in bytes (default: \(JSONLimits.default.documentBytes), 16 MiB).")
    var maxBytes: Int?

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif, gitlab
    }

    @Option(
        help:
            "text (default: findings on standard error), json (quire.check/1), sarif (SARIF 2.1.0) or gitlab (Code Quality JSON), on standard output (docs/lint.md)."
    )
    var format: Format = .text

    @Option(help: "A lint config (quire.lint/1): rule severities and suppressions (docs/lint.md).")
    var config: String?

    func validate() throws {
        if flows.isEmpty { throw ValidationError("give at least one flow file or folder") }
        if let maxBytes, maxBytes < 1 { throw ValidationError("--max-bytes must be at least 1 (got \(maxBytes))") }
    }

    /// The caps documents are read with: the defaults, with `--max-bytes` as the document size.
    var limits: JSONLimits {
        var limits = JSONLimits.default
        if let maxBytes { limits.documentBytes = maxBytes }
        return limits
    }

    enum Outcome {
        case valid, rejected, skipped
        /// Valid, with this many warnings (not suppressed).
        case warned(Int)
        /// Valid, with a finding of a rule whose severity is error (not suppressed).
        case failed
        /// A session script named on its own.
        case script
    }

    /// What the run gathers for the report formats, and the suppressions that matched.
    final class Gathered {
        var report = LintReport(toolVersion: Quire.configuration.version)
        var used = Set<Int>()
    }

    func run() throws {
        var lintConfig = LintConfig()
        if let config {
            do {
                lintConfig = try LintConfig.load(path: config)
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                printError("quire check: the lint config '\(Printable.line(config))' was rejected")
                throw ExitCode(QuireExit.badInput)
            }
        }
        let gathered = Gathered()
        var checked = 0
        var rejected = 0
        var scripts = 0
        var warned = 0
        var failed = 0
        func count(_ outcome: Outcome) {
            switch outcome {
            case .valid: checked += 1
            case .warned:
                checked += 1
                warned += 1
            case .failed:
                checked += 1
                failed += 1
            case .rejected:
                checked += 1
                rejected += 1
            case .script: scripts += 1
            case .skipped: break
            }
        }
        for path in flows {
            switch FileWalker.kind(of: path) {
            case .folder:
                var found = false
                for entry in FileWalker.jsonFiles(in: path) {
                    let outcome: Outcome
                    if let problem = entry.problem {
                        let whole = Diagnostic.whole(file: entry.path, message: problem)
                        printError(whole.description)
                        gathered.report.addRejected(file: entry.path, errors: [whole])
                        outcome = .rejected
                    } else {
                        outcome = check(entry.path, named: false, config: lintConfig, into: gathered)
                    }
                    if case .skipped = outcome {} else { found = true }
                    count(outcome)
                }
                if !found {
                    let whole = Diagnostic.whole(file: path, message: "no quire.flow/1 flow in this folder")
                    printError(whole.description)
                    gathered.report.addRejected(file: path, errors: [whole])
                    count(.rejected)
                }
            case .problem(let message):
                let whole = Diagnostic.whole(file: path, message: message)
                printError(whole.description)
                gathered.report.addRejected(file: path, errors: [whole])
                count(.rejected)
            case .file, .other, .missing:
                count(check(path, named: true, config: lintConfig, into: gathered))
            }
        }
        if config != nil {
            // A suppression that matched nothing is stale: said once, in every format.
            for diagnostic in lintConfig.unused(gathered.used) { printError(diagnostic.description) }
        }
        switch format {
        case .text: break
        case .json: print(gathered.report.json(), terminator: "")
        case .sarif: print(gathered.report.sarif(config: lintConfig), terminator: "")
        case .gitlab: print(gathered.report.gitlab(), terminator: "")
        }
        if rejected > 0 {
            printError("\(rejected) of \(checked) flow\(checked == 1 ? "" : "s") rejected")
        }
        if rejected > 0 || scripts > 0 { throw ExitCode(QuireExit.badInput) }
        if failed > 0 {
            printError("\(failed) of \(checked) flow\(checked == 1 ? "" : "s") with findings of severity error")
            throw ExitCode(QuireExit.failed)
        }
        if strict && warned > 0 {
            printError("\(warned) of \(checked) flow\(checked == 1 ? "" : "s") with warnings (--strict)")
            throw ExitCode(QuireExit.failed)
        }
    }

    /// Checks one file. Found in a folder, a file that is not a flow is skipped; named on the
    /// command line, it is checked as a flow (a session script gets a hint instead).
    func check(_ path: String, named: Bool, config: LintConfig, into gathered: Gathered) -> Outcome {
        let bytes: [UInt8]
        do {
            bytes = try Flow.readDocument(path, limits: limits)
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            gathered.report.addRejected(file: path, errors: error.diagnostics)
            return .rejected
        }
        if let value = try? DocumentReader.parse(file: path, bytes: bytes, limits: limits).0, case .object(let object) = value {
            switch object["format"] {
            case .string(let format)? where format.hasPrefix("quire.session/") && object["pages"] == nil:
                // (With pages, it is a flow with the wrong format, and is checked as one.)
                if named {
                    printError(Printable.line("\(path): a session script, not a flow: run it with `quire test \(path)`"))
                    return .script
                }
                return .skipped
            case .string(let format)? where !format.hasPrefix("quire.flow/"):
                if !named { return .skipped }
            case nil where object["pages"] == nil:
                if !named { return .skipped }
            default:
                break
            }
        }
        do {
            let flow = try Flow.load(bytes: bytes, file: path, folder: Flow.folder(ofFile: path), limits: limits)
            // Each page's layout, read and checked as `quire run` checks it before GTK sees it
            // (LayoutPolicy): the same verdict without a display.
            let layouts = flow.layoutDiagnostics(file: path, bytes: bytes)
            if !layouts.isEmpty {
                for diagnostic in layouts { printError(diagnostic.description) }
                gathered.report.addRejected(file: path, errors: layouts)
                return .rejected
            }
            let lint = FlowLint(flow)
            let findings = gathered.report.add(
                file: path, flow: flow.id, lint: lint, bytes: bytes, config: config, used: &gathered.used)
            let shown = findings.filter { $0.suppressed == nil }
            if format == .text {
                // `file:line:column: $.path: warning: message [rule-id]`, in document order.
                // At most `diagnosticLimit` a file, as for load errors; the other formats list all.
                for finding in shown.prefix(DocumentReader.diagnosticLimit) {
                    let message = "\(finding.severity.rawValue): \(finding.message) [\(finding.rule.id)]"
                    printError(Diagnostic(file: path, position: finding.position, path: finding.path, message: message).description)
                }
                if shown.count > DocumentReader.diagnosticLimit {
                    let more = shown.count - DocumentReader.diagnosticLimit
                    printError(
                        Diagnostic.whole(
                            file: path,
                            message:
                                "… and \(more) more problem\(more == 1 ? "" : "s") (a file lists its first \(DocumentReader.diagnosticLimit))"
                        ).description)
                }
            }
            let errors = shown.count { $0.severity == .error }
            let warnings = shown.count { $0.severity == .warning }
            let notes = shown.count { $0.severity == .note }
            let suppressed = findings.count - shown.count
            if !quiet && format == .text {
                let pages = flow.pages.count == 1 ? "1 page" : "\(flow.pages.count) pages"
                let fields = flow.fields.count == 1 ? "1 field" : "\(flow.fields.count) fields"
                var extra = errors == 0 ? "" : ", \(errors) error\(errors == 1 ? "" : "s")"
                if warnings > 0 { extra += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
                if notes > 0 { extra += ", \(notes) note\(notes == 1 ? "" : "s")" }
                if suppressed > 0 { extra += ", \(suppressed) suppressed" }
                print(Printable.line("\(path): ok: flow '\(flow.id)', \(pages), \(fields)\(extra)"))
            }
            if errors > 0 { return .failed }
            return warnings == 0 ? .valid : .warned(warnings)
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            gathered.report.addRejected(file: path, errors: error.diagnostics)
            return .rejected
        }
    }
}

/// Moments of the start-up (`quire run` reports them with its first frame when measured,
/// `QUIRE_MEASURE_T0_US`): name and monotonic µs, the clock GLib's `g_get_monotonic_time` reads.
enum StartupMarks {
    nonisolated(unsafe) static var all: [(String, Int)] = []

    static func add(_ name: String) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        all.append((name, now.tv_sec * 1_000_000 + now.tv_nsec / 1000))
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
