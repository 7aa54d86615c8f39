import Foundation
import QuireCore

/// A step-by-step record of one script run: per step the step, the notifications it caused and
/// how the state changed. Written by `--trace DIR` as JSON and as a static HTML page.
public struct Trace: Sendable {
    public struct Step: Sendable {
        public var index: Int
        public var step: JSONValue
        public var notifications: [JSONValue]
        /// What a screen reader is told after the step (`Session.announcements`), each
        /// `{"text", "priority"}`; empty for a check and for an event that announces nothing.
        public var announced: [JSONValue] = []
        public var diff: [StateDiff.Entry]
        /// Why the step failed (empty when it passed).
        public var failure: [String]
        /// A picture of the front after the step (a path relative to the trace), when the run
        /// had one to show (`quire run --replay --trace`).
        public var image: String? = nil
        /// An `expectScreenshot` that did not match: its pictures (`expected`, `actual`,
        /// `difference`), paths relative to the trace.
        public var screenshot: [(label: String, image: String)] = []
        /// Notifications and state changes left out of the trace (its limits, ScriptLimits).
        public var omittedNotifications = 0
        public var omittedChanges = 0
    }

    public var initialState: JSONValue
    public var steps: [Step] = []
    public var failingStep: Int? = nil

    public func json(file: String, name: String, status: String, description: String? = nil) -> JSONValue {
        var object = JSONObject()
        object.append("format", "quire.trace/1")
        object.append("script", .string(file))
        object.append("name", .string(name))
        object.append("description", description.map(JSONValue.string) ?? .null)
        object.append("status", .string(status))
        object.append("failingStep", failingStep.map { .number(Double($0)) } ?? .null)
        object.append("initialState", initialState)
        object.append(
            "steps",
            .array(
                steps.map { step in
                    var entry = JSONObject()
                    entry.append("index", .number(Double(step.index)))
                    entry.append("step", step.step)
                    entry.append("notifications", .array(step.notifications))
                    if !step.announced.isEmpty { entry.append("announced", .array(step.announced)) }
                    entry.append("diff", .array(step.diff.map(\.json)))
                    entry.append("failure", .array(step.failure.map(JSONValue.string)))
                    if let image = step.image { entry.append("image", .string(image)) }
                    if !step.screenshot.isEmpty {
                        var pictures = JSONObject()
                        for (label, image) in step.screenshot { pictures.append(label, .string(image)) }
                        entry.append("screenshot", .object(pictures))
                    }
                    if step.omittedNotifications > 0 { entry.append("omittedNotifications", .number(Double(step.omittedNotifications))) }
                    if step.omittedChanges > 0 { entry.append("omittedChanges", .number(Double(step.omittedChanges))) }
                    return .object(entry)
                }))
        return .object(object)
    }

    /// HTML text on one line: control characters escaped (`Printable`), then `&<>"`.
    static func escape(_ text: String) -> String {
        Printable.line(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Lines for a `<pre>`: each escaped as `escape` does, kept apart by newlines.
    static func escape(lines: [String]) -> String { lines.map(escape).joined(separator: "\n") }

    /// Marks pages as ours, so a later run clears only files it wrote.
    static let generator = "<meta name=\"generator\" content=\"quire test --trace\">"

    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#fafafa;color:#222}
        header{padding:12px 24px;background:#fff;border-bottom:1px solid #ddd;position:sticky;top:0;z-index:1}
        h1{font-size:18px;margin:0 0 4px} .file{color:#666;font-family:monospace}
        .status{display:inline-block;padding:2px 8px;border-radius:4px;color:#fff;font-weight:600}
        .passed{background:#2e7d32} .failed{background:#c62828} .bad{background:#6a1b9a}
        .why{margin:8px 0 0;padding:8px 12px;border-left:4px solid #c62828;background:#fff3f3;max-height:30vh;overflow:auto}
        .why pre{margin:6px 0 0;white-space:pre-wrap} ol{list-style:none;padding:0 24px;margin:16px 0}
        li{scroll-margin-top:40vh} .ok{color:#2e7d32;font-weight:600}
        li{background:#fff;border:1px solid #e3e3e3;border-radius:6px;margin:8px 0;padding:8px 12px}
        li.fail{border:2px solid #c62828;background:#fff8f8} li:target{outline:3px solid #1565c0}
        .n{display:inline-block;min-width:3em;color:#888} code,pre{font:12px/1.4 ui-monospace,monospace}
        .notes{color:#1565c0} .heard{color:#6a1b9a} table{border-collapse:collapse;margin-top:6px;width:100%;table-layout:fixed}
        th{text-align:left;font:600 11px system-ui,sans-serif;color:#666;padding:2px 8px}
        td{border-top:1px solid #eee;padding:2px 8px;vertical-align:top;font:12px ui-monospace,monospace;overflow-wrap:anywhere}
        td.before{color:#b71c1c} td.after{color:#1b5e20} details{margin-top:6px} details.initial{margin:12px 24px 0}
        pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0 0} .desc{color:#444;margin-top:2px}
        .top{float:right;font-size:13px} .totals .status{margin-right:4px} pre.first{color:#b71c1c}
        ol.index li.is-bad pre.first{color:#6a1b9a} ol.index a{font-family:monospace} h1,li,code,.file{overflow-wrap:anywhere}
        img.shot{max-width:320px;margin-top:6px;border:1px solid #ddd;border-radius:4px}
        .compare{display:flex;gap:12px;flex-wrap:wrap}.compare figure{margin:0}.compare figcaption{font-weight:600}
        """

    /// A static page: the failure first, then every step with its notifications and state diff.
    public func html(file: String, name: String, status: String, description: String? = nil) -> String {
        var out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\(Self.generator)"
        out += "<title>\(Self.escape(name)) — quire trace</title><style>\(Self.style)</style></head><body>\n"
        out += "<header><div class=\"top\"><a href=\"index.html\">all traces</a></div>"
        out += "<h1>\(Self.escape(name)) <span class=\"status \(status)\">\(status)</span></h1>"
        out += "<div class=\"file\">\(Self.escape(file))</div>"
        if let description { out += "<div class=\"desc\">\(Self.escape(description))</div>" }
        // The failure stays in view in the sticky header while the steps scroll under it.
        if let failingStep, let step = steps.first(where: { $0.index == failingStep }) {
            out += "<section class=\"why\"><strong><a href=\"#step-\(failingStep)\">Step \(failingStep)</a> failed:</strong> "
            out += "<code>\(Self.escape(JSONWriter.string(step.step)))</code>"
            out += "<pre>\(Self.escape(lines: step.failure))</pre></section>"
        }
        out += "</header>\n"
        out +=
            "<details class=\"initial\"><summary>Initial state</summary><pre>\(Self.escape(lines: JSONWriter.string(initialState, style: .pretty).components(separatedBy: "\n")))</pre></details>\n"
        out += "<ol>\n"
        for step in steps {
            let failed = step.index == failingStep
            out += "<li id=\"step-\(step.index)\"\(failed ? " class=\"fail\"" : "")><span class=\"n\">\(step.index)</span>"
            out += "<code>\(Self.escape(JSONWriter.string(step.step)))</code>"
            if !failed, case .object(let object) = step.step, let key = object.firstMember?.key, key.hasPrefix("expect") || key == "restart"
            {
                out += " <span class=\"ok\">✓</span>"
            }
            if !step.notifications.isEmpty {
                out += "<div class=\"notes\">→ "
                out += step.notifications.map { Self.escape(JSONWriter.string($0)) }.joined(separator: "<br>→ ")
                out += "</div>"
            }
            if !step.announced.isEmpty {
                out += "<div class=\"heard\">🔊 "
                out += step.announced.map { announcement in
                    let text = announcement["text"]?.stringValue ?? ""
                    let priority = announcement["priority"]?.stringValue ?? ""
                    return "\(Self.escape(text)) <span class=\"n\">(\(Self.escape(priority)))</span>"
                }.joined(separator: "<br>🔊 ")
                out += "</div>"
            }
            if step.omittedNotifications > 0 {
                out += "<div class=\"notes\">… and \(step.omittedNotifications) more notifications (not kept: the trace's limit)</div>"
            }
            if step.omittedChanges > 0 {
                out += "<div class=\"notes\">… and \(step.omittedChanges) more state changes (not kept: the trace's limit)</div>"
            }
            if !step.diff.isEmpty {
                out += "<table><colgroup><col style=\"width:34%\"><col style=\"width:33%\"><col style=\"width:33%\"></colgroup>"
                out += "<tr><th>state</th><th>before</th><th>after</th></tr>"
                for entry in step.diff {
                    out += "<tr><td>\(Self.escape(entry.path.description))</td>"
                    out += "<td class=\"before\">\(Self.escape(entry.before.map { JSONWriter.string($0) } ?? "—"))</td>"
                    out += "<td class=\"after\">\(Self.escape(entry.after.map { JSONWriter.string($0) } ?? "—"))</td></tr>"
                }
                out += "</table>"
            }
            if failed || !step.screenshot.isEmpty { out += "<pre>\(Self.escape(lines: step.failure))</pre>" }
            if !step.screenshot.isEmpty {
                // A screenshot that differs from its baseline: the three pictures side by side.
                out += "<div class=\"compare\">"
                for (label, image) in step.screenshot {
                    out += "<figure><figcaption>\(Self.escape(label))</figcaption>"
                    out += "<img class=\"shot\" src=\"\(Self.escape(image))\" alt=\"\(Self.escape(label))\"></figure>"
                }
                out += "</div>"
            }
            if let image = step.image {
                out +=
                    "<div><img class=\"shot\" src=\"\(Self.escape(image))\" alt=\"the window after step \(step.index)\" loading=\"lazy\"></div>"
            }
            out += "</li>\n"
        }
        out += "</ol>\n"
        if let failingStep {
            // Bring the failing step into view (the summary at the top links to it too).
            out += "<script>location.hash='step-\(failingStep)';</script>\n"
        }
        out += "</body></html>\n"
        return out
    }
}

/// Writes traces into a folder: a JSON trace and an HTML page per script, named after its path
/// with a hash of the whole path (`mixed_02-fail-1f0e…c9.html`), so no two scripts share a page,
/// and an index. Pages and traces a previous run left there are removed first; nothing else is.
/// Each file is written whole or not at all (a temporary file renamed into place); the index is
/// written last, so a trace with an index is complete.
public final class TraceWriter: @unchecked Sendable {
    struct Entry {
        var file: String
        var name: String
        var description: String?
        var status: String
        var page: String?
        /// Why it failed or is bad input: the first line, then the rest.
        var why: [String]
    }

    let directory: URL
    /// The folder as given (messages name files as the user named the folder).
    let folder: String
    private struct State {
        var entries: [Entry] = []
        var pages: [String: String] = [:]
        var problem: ReportError?
    }
    private let state = Locked(State())

    public init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        var folder = directory
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        self.folder = folder
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        clearStale()
    }

    /// Removes what an earlier run wrote: `index.html` and pages and traces named as ours, each
    /// only if it starts as ours does.
    func clearStale() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name == "index.html" || Self.isPageName(name) {
            let url = directory.appendingPathComponent(name)
            // A regular file's first 512 bytes (a named pipe called index.html is never waited on).
            guard let head = Self.head(of: url.path) else { continue }
            if head.contains(Trace.generator) || head.contains("\"format\": \"quire.trace/1\"") {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// The first 512 bytes of a regular file (nil for anything else), opened without waiting.
    static func head(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, 512) }
        guard count >= 0 else { return nil }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }

    /// `…-<16 hex digits>.html` or `.trace.json`.
    static func isPageName(_ name: String) -> Bool {
        let stem: Substring
        if name.hasSuffix(".trace.json") {
            stem = name.dropLast(11)
        } else if name.hasSuffix(".html") {
            stem = name.dropLast(5)
        } else {
            return false
        }
        let hash = stem.suffix(17)
        return hash.count == 17 && hash.first == "-" && hash.dropFirst().allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// A file name for a script's page and trace: its path made readable (letters, digits, `-`
    /// and `.` kept, anything else `_`, at most 80 characters, the end kept), then a 64-bit
    /// FNV-1a hash of the whole path, the same on every run and in every shard.
    static func baseName(_ file: String) -> String {
        var name = file
        if name.hasPrefix("./") { name.removeFirst(2) }
        if name.hasSuffix(".json") { name.removeLast(5) }
        var readable = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
        if readable.count > 80 { readable = String(readable.suffix(80)) }
        if readable.hasPrefix(".") { readable = "_" + readable.dropFirst() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in file.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return readable + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    public func write(_ result: ScriptResult) {
        let status: String
        switch result.status {
        case .passed: status = "passed"
        case .failed: status = "failed"
        case .bad(let diagnostics):
            // Broken scripts have no run to show: the index lists them with their problems.
            let entry = Entry(
                file: result.file, name: result.name, description: nil, status: "bad", page: nil, why: diagnostics.map(\.description))
            state.withLock { $0.entries.append(entry) }
            return
        case .skipped: return
        }
        guard let trace = result.trace else { return }
        // Two paths with the same hash (never seen, but possible) still get a page each.
        let base = state.withLock { state in
            var base = Self.baseName(result.file)
            var suffix = 2
            while let owner = state.pages[base], owner != result.file {
                base = Self.baseName(result.file) + "-\(suffix)"
                suffix += 1
            }
            state.pages[base] = result.file
            return base
        }
        let json = JSONWriter.string(
            trace.json(file: result.file, name: result.name, status: status, description: result.description), style: .pretty)
        save(json, as: base + ".trace.json")
        save(trace.html(file: result.file, name: result.name, status: status, description: result.description), as: base + ".html")
        var why: [String] = []
        if case .failed(let failure) = result.status { why = [failure.summary] + failure.lines.dropFirst() }
        let entry = Entry(
            file: result.file, name: result.name, description: result.description, status: status, page: base + ".html", why: why)
        state.withLock { $0.entries.append(entry) }
    }

    /// The index: the totals, then every script — bad input first, then failures with the first
    /// line of why, then passes — with its name and description.
    public func finish(_ summary: Summary) {
        let rank = ["bad": 0, "failed": 1, "passed": 2]
        let list = state.withLock { $0.entries }.sorted { (rank[$0.status]!, $0.file) < (rank[$1.status]!, $1.file) }
        var out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\(Trace.generator)<title>quire traces</title>"
        out += "<style>\(Trace.style)</style></head><body><header><h1>quire traces</h1>"
        out += "<div class=\"totals\"><span class=\"status passed\">\(summary.passed) passed</span> "
        out += "<span class=\"status failed\">\(summary.failed) failed</span>"
        if summary.bad > 0 { out += " <span class=\"status bad\">\(summary.bad) bad</span>" }
        out += "</div></header>\n<ol class=\"index\">\n"
        for entry in list {
            out += "<li class=\"is-\(entry.status)\"><span class=\"status \(entry.status)\">\(entry.status)</span> "
            if let page = entry.page {
                out += "<a href=\"\(Trace.escape(page))\">\(Trace.escape(entry.file))</a> — \(Trace.escape(entry.name))"
            } else {
                out += "<span class=\"file\">\(Trace.escape(entry.file))</span>"
            }
            if let description = entry.description { out += "<div class=\"desc\">\(Trace.escape(description))</div>" }
            if let first = entry.why.first {
                out += "<pre class=\"first\">\(Trace.escape(first))</pre>"
                if entry.why.count > 1 {
                    let more = entry.why.count - 1
                    out += "<details><summary>\(more) more line\(more == 1 ? "" : "s")</summary>"
                    out += "<pre>\(Trace.escape(lines: Array(entry.why.dropFirst())))</pre></details>"
                }
            }
            out += "</li>\n"
        }
        out += "</ol></body></html>\n"
        save(out, as: "index.html")
    }

    /// Writes one file of the trace atomically (`writeAtomically`: whole or absent); the first
    /// error is kept, and the run that asked for the trace fails with it.
    func save(_ text: String, as name: String) {
        let path = folder == "/" ? "/" + name : folder + "/" + name
        guard let reason = writeAtomically(text.utf8, to: path) else { return }
        state.withLock { state in
            if state.problem == nil { state.problem = ReportError(what: "the trace", path: path, reason: reason) }
        }
    }

    /// The first file of the trace that could not be written, and why; nil when all were.
    public var problem: ReportError? { state.withLock { $0.problem } }
}
