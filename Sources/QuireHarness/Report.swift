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

public final class FileSink: OutputSink {
    let descriptor: Int32
    let owned: Bool
    private var buffer: [UInt8] = []

    public static func standardOutput() -> FileSink { FileSink(descriptor: 1, owned: false) }
    public static func standardError() -> FileSink { FileSink(descriptor: 2, owned: false) }

    init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
        buffer.reserveCapacity(1 << 16)
    }

    /// Creates (or truncates) a file; nil when it cannot be opened for writing.
    public convenience init?(path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.init(descriptor: descriptor, owned: true)
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
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
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
/// and the totals as the last line.
public final class ConsoleReporter: Reporter {
    let sink: OutputSink
    let live: Bool
    let quiet: Bool
    var candidates = 0
    var seen = 0
    var counts = Summary()
    var progressShown = false

    public init(sink: OutputSink, live: Bool, quiet: Bool = false) {
        self.sink = sink
        self.live = live
        self.quiet = quiet
    }

    public func begin(candidates: Int) {
        self.candidates = candidates
    }

    func clearProgress() {
        if progressShown {
            sink.write("\r\u{1B}[K")
            progressShown = false
        }
    }

    public func report(_ result: ScriptResult) {
        seen += 1
        switch result.status {
        case .skipped:
            break
        case .passed:
            counts.passed += 1
            if !live && !quiet { sink.write("PASS  \(result.file) — \(result.name)\n") }
        case .failed(let failure):
            counts.failed += 1
            clearProgress()
            sink.write(Self.failureText(result, failure))
        case .bad(let diagnostics):
            counts.bad += 1
            clearProgress()
            sink.write("BAD   \(result.file)\n")
            for diagnostic in diagnostics { sink.write("  \(diagnostic)\n") }
        }
        if live {
            let step = max(1, candidates / 200)
            if seen % step == 0 || seen == candidates {
                sink.write("\r\u{1B}[K[\(seen)/\(candidates)] \(counts.line)")
                progressShown = true
                sink.flush()
            }
        }
    }

    static func failureText(_ result: ScriptResult, _ failure: Failure) -> String {
        var text = "FAIL  \(result.file) — \(result.name)\n"
        text += "  \(failure.location): $.steps[\(failure.step - 1)] (step \(failure.step)): \(failure.stepJSON)\n"
        for line in failure.lines { text += "    \(line)\n" }
        if !failure.recent.isEmpty {
            text += "  last events:\n"
            for event in failure.recent {
                let emitted = event.notifications.isEmpty ? "(nothing)" : event.notifications.joined(separator: ", ")
                text += "    step \(event.step): \(event.json) → \(emitted)\n"
            }
        }
        return text
    }

    public func finish(_ summary: Summary) {
        clearProgress()
        sink.write(summary.line + "\n")
        sink.flush()
    }
}

/// TAP version 14, the plan at the end (the count is known only once folders are read).
public final class TAPReporter: Reporter {
    let sink: OutputSink
    var number = 0

    public init(sink: OutputSink) {
        self.sink = sink
    }

    public func begin(candidates: Int) {
        sink.write("TAP version 14\n")
    }

    static func yamlString(_ text: String) -> String { JSONWriter.quoted(text) }

    public func report(_ result: ScriptResult) {
        let title = "\(result.file) - \(result.name)".replacingOccurrences(of: "#", with: "\\#")
        switch result.status {
        case .skipped:
            return
        case .passed:
            number += 1
            sink.write("ok \(number) - \(title)\n")
        case .failed(let failure):
            number += 1
            sink.write("not ok \(number) - \(title)\n")
            sink.write("  ---\n")
            sink.write("  message: \(Self.yamlString(failure.lines.first ?? "failed"))\n")
            sink.write("  step: \(failure.step)\n")
            sink.write("  at: \(Self.yamlString(failure.location))\n")
            sink.write("  event: \(Self.yamlString(failure.stepJSON))\n")
            sink.write("  details:\n")
            for line in failure.lines { sink.write("    - \(Self.yamlString(line))\n") }
            sink.write("  ...\n")
        case .bad(let diagnostics):
            number += 1
            sink.write("not ok \(number) - \(result.file) # bad input\n")
            sink.write("  ---\n")
            sink.write("  message: \(Self.yamlString("bad input"))\n")
            sink.write("  problems:\n")
            for diagnostic in diagnostics { sink.write("    - \(Self.yamlString(diagnostic.description))\n") }
            sink.write("  ...\n")
        }
    }

    public func finish(_ summary: Summary) {
        sink.write("1..\(number)\n")
        sink.write("# \(summary.line)\n")
        sink.flush()
    }
}

/// JUnit XML: one testcase per script, a property per step. Test cases stream to a temporary
/// file, so memory stays flat however many scripts run; the totals are written around them at
/// the end. `time` attributes are in seconds as the schema says; each step's time in
/// milliseconds is a property (`step.N.ms`), and so is the script's (`time.ms`).
public final class JUnitReporter: Reporter {
    let path: String
    let partPath: String
    let part: FileSink
    var counts = Summary()
    var tests = 0

    public init?(path: String) {
        self.path = path
        partPath = path + ".part"
        guard let part = FileSink(path: partPath) else { return nil }
        self.part = part
    }

    public func begin(candidates: Int) {}

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                // XML 1.0 cannot carry most control characters, even escaped.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    static func seconds(_ milliseconds: Double) -> String { String(format: "%.6f", milliseconds / 1000) }
    static func ms(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }

    public func report(_ result: ScriptResult) {
        if case .skipped = result.status { return }
        tests += 1
        var directory = (result.file as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        let classname = directory.replacingOccurrences(of: "/", with: ".")
        var xml = "    <testcase classname=\"\(Self.escape(classname))\" name=\"\(Self.escape(result.name))\" file=\"\(Self.escape(result.file))\" time=\"\(Self.seconds(result.milliseconds))\">\n"
        xml += "      <properties>\n"
        xml += "        <property name=\"time.ms\" value=\"\(Self.ms(result.milliseconds))\"/>\n"
        for step in result.steps {
            xml += "        <property name=\"step.\(step.index)\" value=\"\(Self.escape(step.json))\"/>\n"
            xml += "        <property name=\"step.\(step.index).ms\" value=\"\(Self.ms(step.milliseconds))\"/>\n"
        }
        xml += "      </properties>\n"
        switch result.status {
        case .passed, .skipped:
            counts.passed += 1
        case .failed(let failure):
            counts.failed += 1
            xml += "      <failure type=\"expectation\" message=\"\(Self.escape(failure.summary))\">"
            xml += Self.escape(ConsoleReporter.failureText(result, failure))
            xml += "</failure>\n"
        case .bad(let diagnostics):
            counts.bad += 1
            xml += "      <error type=\"bad input\" message=\"\(Self.escape(diagnostics.first?.description ?? "bad input"))\">"
            xml += Self.escape(diagnostics.map(\.description).joined(separator: "\n"))
            xml += "</error>\n"
        }
        xml += "    </testcase>\n"
        part.write(xml)
    }

    public func finish(_ summary: Summary) {
        part.flush()
        guard let out = FileSink(path: path) else { return }
        let time = Self.seconds(summary.milliseconds)
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.write("<testsuites name=\"quire\" tests=\"\(tests)\" failures=\"\(counts.failed)\" errors=\"\(counts.bad)\" time=\"\(time)\">\n")
        out.write("  <testsuite name=\"quire test\" tests=\"\(tests)\" failures=\"\(counts.failed)\" errors=\"\(counts.bad)\" skipped=\"0\" time=\"\(time)\">\n")
        // Copied in chunks, so a large suite's report never sits in memory whole.
        if let input = FileHandle(forReadingAtPath: partPath) {
            while let chunk = try? input.read(upToCount: 1 << 16), !chunk.isEmpty {
                chunk.withUnsafeBytes { out.write(bytes: $0) }
            }
            try? input.close()
        }
        out.write("  </testsuite>\n</testsuites>\n")
        out.flush()
        unlink(partPath)
    }
}
