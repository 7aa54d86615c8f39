import Foundation
import Synchronization
import QuireCore

/// A step-by-step record of one script run: per step the step, the notifications it caused and
/// how the state changed. Written by `--trace DIR` as JSON and as a static HTML page.
public struct Trace: Sendable {
    public struct Step: Sendable {
        public var index: Int
        public var step: JSONValue
        public var notifications: [JSONValue]
        public var diff: [StateDiff.Entry]
        /// Why the step failed (empty when it passed).
        public var failure: [String]
        /// A picture of the front after the step (a path relative to the trace), when the run
        /// had one to show (`quire run --replay --trace`).
        public var image: String? = nil
    }

    public var initialState: JSONValue
    public var steps: [Step] = []
    public var failingStep: Int? = nil

    public func json(file: String, name: String, status: String) -> JSONValue {
        var object = JSONObject()
        object.append("format", "quire.trace/1")
        object.append("script", .string(file))
        object.append("name", .string(name))
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
                    entry.append("diff", .array(step.diff.map(\.json)))
                    entry.append("failure", .array(step.failure.map(JSONValue.string)))
                    if let image = step.image { entry.append("image", .string(image)) }
                    return .object(entry)
                }))
        return .object(object)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

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
        .notes{color:#1565c0} table{border-collapse:collapse;margin-top:6px;width:100%;table-layout:fixed}
        th{text-align:left;font:600 11px system-ui,sans-serif;color:#666;padding:2px 8px}
        td{border-top:1px solid #eee;padding:2px 8px;vertical-align:top;font:12px ui-monospace,monospace;overflow-wrap:anywhere}
        td.before{color:#b71c1c} td.after{color:#1b5e20} details{margin-top:6px} details.initial{margin:12px 24px 0}
        img.shot{max-width:320px;margin-top:6px;border:1px solid #ddd;border-radius:4px}
        """

    /// A static page: the failure first, then every step with its notifications and state diff.
    public func html(file: String, name: String, status: String) -> String {
        var out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        out += "<title>\(Self.escape(name)) — quire trace</title><style>\(Self.style)</style></head><body>\n"
        out += "<header><h1>\(Self.escape(name)) <span class=\"status \(status)\">\(status)</span></h1>"
        out += "<div class=\"file\">\(Self.escape(file))</div>"
        // The failure stays in view in the sticky header while the steps scroll under it.
        if let failingStep, let step = steps.first(where: { $0.index == failingStep }) {
            out += "<section class=\"why\"><strong><a href=\"#step-\(failingStep)\">Step \(failingStep)</a> failed:</strong> "
            out += "<code>\(Self.escape(JSONWriter.string(step.step)))</code>"
            out += "<pre>\(Self.escape(step.failure.joined(separator: "\n")))</pre></section>"
        }
        out += "</header>\n"
        out += "<details class=\"initial\"><summary>Initial state</summary><pre>\(Self.escape(JSONWriter.string(initialState, style: .pretty)))</pre></details>\n"
        out += "<ol>\n"
        for step in steps {
            let failed = step.index == failingStep
            out += "<li id=\"step-\(step.index)\"\(failed ? " class=\"fail\"" : "")><span class=\"n\">\(step.index)</span>"
            out += "<code>\(Self.escape(JSONWriter.string(step.step)))</code>"
            if !failed, case .object(let object) = step.step, let key = object.keys.first, key.hasPrefix("expect") || key == "restart" {
                out += " <span class=\"ok\">✓</span>"
            }
            if !step.notifications.isEmpty {
                out += "<div class=\"notes\">→ "
                out += step.notifications.map { Self.escape(JSONWriter.string($0)) }.joined(separator: "<br>→ ")
                out += "</div>"
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
            if failed { out += "<pre>\(Self.escape(step.failure.joined(separator: "\n")))</pre>" }
            if let image = step.image {
                out += "<div><img class=\"shot\" src=\"\(Self.escape(image))\" alt=\"the window after step \(step.index)\" loading=\"lazy\"></div>"
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

/// Writes traces into a folder: `<script path>.trace.json` and `.html` per script, and an index.
public final class TraceWriter: @unchecked Sendable {
    let directory: URL
    private let entries = Mutex<[(file: String, name: String, status: String, page: String?, problems: [String])]>([])

    public init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    }

    static func baseName(_ file: String) -> String {
        var name = file
        if name.hasPrefix("./") { name.removeFirst(2) }
        if name.hasSuffix(".json") { name.removeLast(5) }
        return String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
    }

    public func write(_ result: ScriptResult) {
        let status: String
        switch result.status {
        case .passed: status = "passed"
        case .failed: status = "failed"
        case .bad(let diagnostics):
            // Broken scripts have no run to show: the index lists them with their problems.
            entries.withLock { $0.append((result.file, result.name, "bad", nil, diagnostics.map(\.description))) }
            return
        case .skipped: return
        }
        guard let trace = result.trace else { return }
        let base = Self.baseName(result.file)
        let json = JSONWriter.string(trace.json(file: result.file, name: result.name, status: status), style: .pretty)
        try? Data(json.utf8).write(to: directory.appendingPathComponent(base + ".trace.json"))
        try? Data(trace.html(file: result.file, name: result.name, status: status).utf8)
            .write(to: directory.appendingPathComponent(base + ".html"))
        entries.withLock { $0.append((result.file, result.name, status, base + ".html", [])) }
    }

    /// An index page listing every script: bad input first, then failures, then passes.
    public func finish() {
        let rank = ["bad": 0, "failed": 1, "passed": 2]
        let list = entries.withLock { $0 }.sorted { (rank[$0.status]!, $0.file) < (rank[$1.status]!, $1.file) }
        var out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>quire traces</title>"
        out += "<style>\(Trace.style)</style></head><body><header><h1>quire traces</h1></header><ol>\n"
        for entry in list {
            out += "<li><span class=\"status \(entry.status)\">\(entry.status)</span> "
            if let page = entry.page {
                out += "<a href=\"\(Trace.escape(page))\">\(Trace.escape(entry.file))</a> — \(Trace.escape(entry.name))"
            } else {
                out += "\(Trace.escape(entry.file))<pre>\(Trace.escape(entry.problems.joined(separator: "\n")))</pre>"
            }
            out += "</li>\n"
        }
        out += "</ol></body></html>\n"
        try? Data(out.utf8).write(to: directory.appendingPathComponent("index.html"))
    }
}
