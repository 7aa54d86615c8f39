import Foundation
import QuireCore

/// Where reporters write: standard output, a file, or a string (golden tests).
public protocol OutputSink: AnyObject {
    func write(_ text: String)
    func flush()
}

public final class StringSink: OutputSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
    public func flush() {}
}

/// Standard output or standard error (the console report). A write error is kept (`problem`),
/// so a run whose console could not be written says so; report files are `ReportFile`s.
public final class FileSink: OutputSink {
    let descriptor: Int32
    let owned: Bool
    private var buffer: [UInt8] = []
    /// The first write error, in the system's words; nothing is written after one.
    public private(set) var problem: String?

    public static func standardOutput() -> FileSink { FileSink(descriptor: 1, owned: false) }
    public static func standardError() -> FileSink { FileSink(descriptor: 2, owned: false) }

    init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
        buffer.reserveCapacity(1 << 16)
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        flush()
        writeAll(bytes)
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        if problem == nil { buffer.withUnsafeBytes { writeAll($0) } }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                problem = String(cString: strerror(errno))
                return
            }
            offset += written
        }
    }

    deinit {
        flush()
        if owned { close(descriptor) }
    }
}

/// Totals of a run.
public struct Summary: Sendable, Hashable {
    public var passed = 0
    public var failed = 0
    public var bad = 0
    public var milliseconds = 0.0

    public init() {}

    /// `N passed, N failed` (plus `, N bad` when any): the console's last line.
    public var line: String {
        "\(passed) passed, \(failed) failed" + (bad > 0 ? ", \(bad) bad" : "")
    }
}

/// Receives results in a stable order (the order scripts were found), one at a time.
public protocol Reporter: AnyObject {
    func begin(candidates: Int)
    func report(_ result: ScriptResult)
    func finish(_ summary: Summary)
}

enum Report {
    /// A mismatch as lines: scalars on one line, objects and arrays as a -/+ diff.
    static func describe(_ mismatch: Mismatch) -> [String] {
        func composite(_ value: JSONValue?) -> Bool {
            switch value {
            case .object(let object)?: !object.isEmpty
            case .array(let array)?: !array.isEmpty
            default: false
            }
        }
        guard composite(mismatch.expected) || composite(mismatch.actual) else { return [mismatch.description] }
        var lines = ["\(mismatch.path): expected (-) and actual (+) differ:"]
        let expected = mismatch.expected.map { JSONWriter.string($0, style: .pretty) } ?? "(no such key)"
        let actual = mismatch.actual.map { JSONWriter.string($0, style: .pretty) } ?? "(no such key)"
        lines += expected.split(separator: "\n", omittingEmptySubsequences: false).map { "  - " + $0 }
        lines += actual.split(separator: "\n", omittingEmptySubsequences: false).map { "  + " + $0 }
        return lines
    }
}

/// The console: a line per script (or a live progress line on a terminal), failures in full,
/// and the totals as the last line. Text from scripts and file names is escaped
/// (`Printable.line`), so every line printed is a line Quire wrote.
public final class ConsoleReporter: Reporter {
    let sink: OutputSink
    let live: Bool
    let quiet: Bool
    /// The terminal's width in columns, asked before each progress line (nil when unknown).
    let width: () -> Int?
    /// Files that may be scripts: the candidates, less those found not to be scripts so far.
    var total = 0
    var seen = 0
    var counts = Summary()
    var progressShown = false

    public init(sink: OutputSink, live: Bool, quiet: Bool = false, width: @escaping () -> Int? = { nil }) {
        self.sink = sink
        self.live = live
        self.quiet = quiet
        self.width = width
    }

    public func begin(candidates: Int) {
        total = candidates
    }

    func clearProgress() {
        if progressShown {
            sink.write("\r\u{1B}[K")
            progressShown = false
        }
    }

    func write(_ lines: [String]) {
        for line in lines { sink.write(Printable.line(line) + "\n") }
    }

    public func report(_ result: ScriptResult) {
        if !result.rewrites.isEmpty {
            clearProgress()
            let steps = result.rewrites.map { "step \($0.step + 1) (\($0.key))" }
            write(["UPDATED \(result.file): " + steps.joined(separator: ", ")])
        }
        switch result.status {
        case .skipped:
            // Not a script: it leaves the total rather than counting as done.
            total -= 1
        case .passed:
            seen += 1
            counts.passed += 1
            if !live && !quiet { write(["PASS  \(result.file) — \(result.name)"]) }
        case .failed(let failure):
            seen += 1
            counts.failed += 1
            clearProgress()
            write(Self.failureLines(result, failure))
        case .bad(let diagnostics):
            seen += 1
            counts.bad += 1
            clearProgress()
            write(["BAD   \(result.file)"] + diagnostics.map { "  \($0)" })
        }
        if live {
            let step = max(1, total / 200)
            if seen % step == 0 || seen == total { drawProgress() }
        }
    }

    /// One line, never wider than the terminal, so it is redrawn in place instead of wrapping.
    func drawProgress() {
        var line = "[\(seen)/\(total)] \(counts.line)"
        if let columns = width(), columns > 0, line.count >= columns {
            // The last column is left free: writing into it wraps on some terminals.
            line = String(line.prefix(max(1, columns - 1)))
        }
        sink.write("\r\u{1B}[K" + line)
        progressShown = true
        sink.flush()
    }

    /// A failure as the console shows it (unescaped lines).
    static func failureLines(_ result: ScriptResult, _ failure: Failure) -> [String] {
        var lines = [
            "FAIL  \(result.file) — \(result.name)",
            "  \(failure.location): $.steps[\(failure.step - 1)] (step \(failure.step)): \(failure.stepJSON)",
        ]
        for line in failure.lines { lines.append("    \(line)") }
        if !failure.recent.isEmpty {
            lines.append("  last events:")
            for event in failure.recent {
                let emitted = event.notifications.isEmpty ? "(nothing)" : event.notifications.joined(separator: ", ")
                lines.append("    step \(event.step): \(event.json) → \(emitted)")
            }
        }
        return lines
    }

    public func finish(_ summary: Summary) {
        clearProgress()
        sink.write(summary.line + "\n")
        sink.flush()
    }
}

/// TAP version 13, read alike by Perl's `prove` (TAP::Harness 3.44, which rejects version 14)
/// and tap.py. The plan comes last (the count is known only once folders are read), after a
/// comment with the totals. A failure or bad input carries a YAML block of double-quoted
/// one-line scalars only, the subset both readers parse.
public final class TAPReporter: Reporter {
    let sink: OutputSink
    var number = 0

    public init(sink: OutputSink) {
        self.sink = sink
    }

    public func begin(candidates: Int) {
        sink.write("TAP version 13\n")
    }

    /// A test point's description, on one line: `\` and `#` are escaped as the TAP spec says
    /// (`\\`, `\#`), so no name can start a directive for `prove`; a `#` that SKIP or TODO
    /// follows is written `\u0023`, because tap.py (like TAP 13) ends a description at any `#`,
    /// escaped or not. Control characters are escaped as everywhere (`Printable`).
    static func description(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\": out += "\\\\"
            case "#":
                var next = index + 1
                while next < scalars.count, scalars[next].properties.isWhitespace { next += 1 }
                let word = String(String.UnicodeScalarView(scalars[next..<min(next + 4, scalars.count)])).lowercased()
                out += word == "skip" || word == "todo" ? "\\u0023" : "\\#"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return Printable.line(out)
    }

    /// A YAML double-quoted scalar that both `prove`'s YAMLish reader and PyYAML decode to
    /// `text`: escapes only from the set both know.
    static func yaml(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                let value = scalar.value
                if value < 0x20 || (value >= 0x7F && value <= 0x9F) {
                    out += "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
                } else if value == 0x2028 || value == 0x2029 || value == 0xFFFE || value == 0xFFFF {
                    out += "\\u" + String(value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Lines as one scalar: each line escaped, joined by newlines.
    static func yaml(lines: [String]) -> String { yaml(lines.map(Printable.line).joined(separator: "\n")) }

    public func report(_ result: ScriptResult) {
        switch result.status {
        case .skipped:
            return
        case .passed:
            number += 1
            sink.write("ok \(number) - \(Self.description("\(result.file) - \(result.name)"))\n")
        case .failed(let failure):
            number += 1
            sink.write("not ok \(number) - \(Self.description("\(result.file) - \(result.name)"))\n")
            sink.write("  ---\n")
            sink.write("  message: \(Self.yaml(lines: [failure.lines.first ?? "failed"]))\n")
            sink.write("  severity: fail\n")
            sink.write("  at: \(Self.yaml(lines: [failure.location]))\n")
            sink.write("  step: \(failure.step)\n")
            sink.write("  event: \(Self.yaml(lines: [failure.stepJSON]))\n")
            sink.write("  details: \(Self.yaml(lines: failure.lines))\n")
            sink.write("  ...\n")
        case .bad(let diagnostics):
            number += 1
            sink.write("not ok \(number) - \(Self.description("\(result.file) - bad input"))\n")
            sink.write("  ---\n")
            sink.write("  message: \(Self.yaml(lines: ["bad input: " + (diagnostics.first?.message ?? "")]))\n")
            sink.write("  severity: fail\n")
            sink.write("  problems: \(Self.yaml(lines: diagnostics.map(\.description)))\n")
            sink.write("  ...\n")
        }
    }

    public func finish(_ summary: Summary) {
        // The plan is the last line: tap.py wants it first or last.
        sink.write("# \(summary.line)\n")
        sink.write("1..\(number)\n")
        sink.flush()
    }
}

/// JUnit XML valid against the strictest schema in common use, the Jenkins xUnit plugin's
/// `junit-10.xsd` (checked with `docs/junit.xsd`, ours, which encodes the same rules for what we
/// write): one `<testcase>` per script, identified by its path (`TestID`); a failure or bad
/// input as `<failure>` or `<error>`; the script's name, description and each step with its
/// time in `<system-out>`. Times are seconds with three decimals. Test cases stream to a scratch
/// file that has no name (created and at once unlinked beside the report, so nothing is left
/// behind however the run ends), so memory stays flat however many scripts run; the totals are
/// written around them at the end, into `out` (a `ReportFile`, renamed into place only when
/// whole).
public final class JUnitReporter: Reporter {
    let out: ReportFile
    let part: SpoolFile
    var counts = Summary()
    var tests = 0

    /// Writes into `out`; fails (with the reason) when no scratch file can be made beside it.
    public init(out: ReportFile) throws(ReportError) {
        guard let part = SpoolFile(folder: out.scratchFolder) else {
            throw ReportError(
                what: out.what, path: out.path,
                reason: "cannot create a file in '\(out.scratchFolder)': \(ReportError.reason(errno: errno))")
        }
        self.out = out
        self.part = part
    }

    public func begin(candidates: Int) {}

    /// Lines for an attribute or element: each line's control characters escaped (`Printable`;
    /// XML 1.0 cannot carry most of them, even as references), then XML-escaped; lines are kept
    /// apart by newlines (`&#10;` in an attribute).
    static func escape(lines: [String], attribute: Bool = false) -> String {
        var out = ""
        for (index, line) in lines.enumerated() {
            if index > 0 { out += attribute ? "&#10;" : "\n" }
            for scalar in Printable.line(line).unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\u{FFFE}", "\u{FFFF}": out += "\\u" + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    static func escape(_ line: String) -> String { escape(lines: [line], attribute: true) }

    static func seconds(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds / 1000) }
    static func ms(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }

    public func report(_ result: ScriptResult) {
        if case .skipped = result.status { return }
        tests += 1
        var xml = "    <testcase classname=\"\(Self.escape(result.id.classname))\""
        xml += " name=\"\(Self.escape(result.id.name))\" time=\"\(Self.seconds(result.milliseconds))\">\n"
        var output = ["script: \(result.file)"]
        switch result.status {
        case .passed, .skipped:
            counts.passed += 1
        case .failed(let failure):
            counts.failed += 1
            xml += "      <failure type=\"expectation\" message=\"\(Self.escape(failure.summary))\">"
            xml += Self.escape(lines: ConsoleReporter.failureLines(result, failure))
            xml += "</failure>\n"
        case .bad(let diagnostics):
            counts.bad += 1
            xml += "      <error type=\"bad input\" message=\"\(Self.escape(diagnostics.first?.description ?? "bad input"))\">"
            xml += Self.escape(lines: diagnostics.map(\.description))
            xml += "</error>\n"
        }
        if result.name != result.file { output.append("name: \(result.name)") }
        if let description = result.description { output.append("description: \(description)") }
        output.append("time: \(Self.ms(result.milliseconds)) ms")
        for step in result.steps { output.append("step \(step.index) (\(Self.ms(step.milliseconds)) ms): \(step.json)") }
        xml += "      <system-out>\(Self.escape(lines: output))</system-out>\n"
        xml += "    </testcase>\n"
        part.write(xml)
    }

    public func finish(_ summary: Summary) {
        let time = Self.seconds(summary.milliseconds)
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.write(
            "<testsuites name=\"quire\" tests=\"\(tests)\" failures=\"\(counts.failed)\" errors=\"\(counts.bad)\" time=\"\(time)\">\n")
        out.write(
            "  <testsuite name=\"quire test\" tests=\"\(tests)\" failures=\"\(counts.failed)\" errors=\"\(counts.bad)\" skipped=\"0\" time=\"\(time)\">\n"
        )
        part.copy(into: out)
        out.write("  </testsuite>\n</testsuites>\n")
        out.flush()
    }
}

/// `--final-states`: one JSON object a line per script that ran, in the report order:
/// `{"script": PATH, "status": "passed" | "failed", "state": STATE}`, the state after the last
/// step run. Other fronts replay the same scripts and compare their final state with it (the C
/// library's test does).
public final class FinalStatesReporter: Reporter {
    let sink: OutputSink

    public init(sink: OutputSink) {
        self.sink = sink
    }

    public func begin(candidates: Int) {}

    public func report(_ result: ScriptResult) {
        guard let state = result.finalState else { return }
        let status: String
        switch result.status {
        case .passed: status = "passed"
        case .failed: status = "failed"
        case .bad, .skipped: return
        }
        let line: JSONValue = ["script": .string(result.file), "status": .string(status), "state": state]
        sink.write(JSONWriter.string(line) + "\n")
    }

    public func finish(_ summary: Summary) {
        sink.flush()
    }
}
