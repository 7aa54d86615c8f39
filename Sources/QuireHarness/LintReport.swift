import Foundation
import QuireCore

/// `quire check`'s findings in the formats code review reads: `quire.check/1` JSON, SARIF 2.1.0
/// (GitHub code scanning, and any SARIF viewer) and GitLab Code Quality JSON. See docs/lint.md.
public struct LintReport: Sendable {
    public struct Finding: Sendable {
        public var file: String
        public var rule: FlowLint.Rule
        /// After the config: never nil here (a rule that is off reports nothing).
        public var severity: FlowLint.Severity
        public var message: String
        public var path: JSONPath
        public var position: SourcePosition
        /// The reason of the suppression that matched it, if one did.
        public var suppressed: String?
        /// SHA-256 of the file, the rule id and the JSON path (and, for a repeat, its number):
        /// stable while the flow is edited elsewhere, unique within a report.
        public var fingerprint: String
    }

    public struct File: Sendable {
        public var file: String
        /// The flow's id, when it loaded.
        public var flow: String?
        /// Why it was rejected (not lint: load, layout and read errors).
        public var errors: [Diagnostic]
        public var findings: [Finding]
    }

    public var files: [File] = []
    public var toolVersion: String
    /// Fingerprints given so far, to keep them unique.
    var fingerprints = Set<String>()

    public init(toolVersion: String) { self.toolVersion = toolVersion }

    /// Records a checked flow's findings, with the config's severities and suppressions; returns
    /// the findings (suppressed ones too) and marks in `used` the suppressions that matched.
    @discardableResult
    public mutating func add(
        file: String, flow: String, lint: FlowLint, bytes: [UInt8], config: LintConfig, used: inout Set<Int>
    ) -> [Finding] {
        var findings: [Finding] = []
        for located in lint.located(bytes: bytes) {
            let rule = located.rule
            guard let severity = config.severity(of: rule) else { continue }
            let path = located.warning.path
            let matched = config.suppression(rule: rule.id, file: file, path: path)
            if let matched { used.insert(matched) }
            findings.append(
                Finding(
                    file: file, rule: rule, severity: severity, message: located.warning.message, path: path,
                    position: located.position, suppressed: matched.map { config.suppressions[$0].reason },
                    fingerprint: fingerprint(file: file, rule: rule.id, path: path)))
        }
        files.append(File(file: file, flow: flow, errors: [], findings: findings))
        return findings
    }

    public mutating func addRejected(file: String, errors: [Diagnostic]) {
        files.append(File(file: file, flow: nil, errors: errors, findings: []))
    }

    mutating func fingerprint(file: String, rule: String, path: JSONPath) -> String {
        let key = "quire-lint/1\n\(file)\n\(rule)\n\(path)"
        var print = SHA256.hex(Array(key.utf8))
        var repeatNumber = 1
        while !fingerprints.insert(print).inserted {
            repeatNumber += 1
            print = SHA256.hex(Array("\(key)\n\(repeatNumber)".utf8))
        }
        return print
    }

    /// SHA-256 of `text` in hex (exposed for tests).
    public static func sha256(_ text: String) -> String { SHA256.hex(Array(text.utf8)) }

    // MARK: Formats

    /// `quire.check/1`: every file checked, its errors and its findings (suppressed ones marked).
    public func json() -> String {
        var list: [JSONValue] = []
        for file in files {
            var object = JSONObject()
            object.append("file", .string(file.file))
            object.append("status", .string(file.flow == nil ? "rejected" : "ok"))
            if let flow = file.flow { object.append("flow", .string(flow)) }
            object.append("errors", .array(file.errors.map(Self.errorJSON)))
            object.append(
                "findings",
                .array(
                    file.findings.map { finding in
                        var item = JSONObject()
                        item.append("rule", .string(finding.rule.id))
                        item.append("severity", .string(finding.severity.rawValue))
                        item.append("line", .number(Double(finding.position.line)))
                        item.append("column", .number(Double(finding.position.column)))
                        item.append("path", .string(finding.path.description))
                        item.append("message", .string(finding.message))
                        item.append("fingerprint", .string(finding.fingerprint))
                        if let reason = finding.suppressed { item.append("suppressed", .string(reason)) }
                        return .object(item)
                    }))
            list.append(.object(object))
        }
        var root = JSONObject()
        root.append("format", "quire.check/1")
        root.append("files", .array(list))
        return JSONWriter.string(.object(root), style: .pretty) + "\n"
    }

    static func errorJSON(_ diagnostic: Diagnostic) -> JSONValue {
        var item = JSONObject()
        if diagnostic.position.line > 0 {
            item.append("line", .number(Double(diagnostic.position.line)))
            item.append("column", .number(Double(diagnostic.position.column)))
            item.append("path", .string(diagnostic.path.description))
        }
        item.append("message", .string(diagnostic.message))
        return .object(item)
    }

    static let sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    static func sarifLevel(_ severity: FlowLint.Severity) -> JSONValue { .string(severity.rawValue) }

    /// A file name as a URI reference: relative names stay relative (GitHub resolves them from
    /// the repository's root), an absolute one becomes `file://`; reserved bytes percent-encoded.
    static func uri(_ file: String) -> String {
        var name = file
        while name.hasPrefix("./") { name.removeFirst(2) }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        var out = ""
        for byte in name.utf8 {
            if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name.hasPrefix("/") ? "file://" + out : out
    }

    static func location(file: String, line: Int, column: Int, path: JSONPath?) -> JSONValue {
        var region = JSONObject()
        region.append("startLine", .number(Double(line)))
        region.append("startColumn", .number(Double(column)))
        var artifact = JSONObject()
        artifact.append("uri", .string(uri(file)))
        var physical = JSONObject()
        physical.append("artifactLocation", .object(artifact))
        if line > 0 { physical.append("region", .object(region)) }
        var location = JSONObject()
        location.append("physicalLocation", .object(physical))
        if let path {
            var logical = JSONObject()
            logical.append("fullyQualifiedName", .string(path.description))
            logical.append("kind", "member")
            location.append("logicalLocations", .array([.object(logical)]))
        }
        return .object(location)
    }

    /// SARIF 2.1.0: one run of the tool `quire`, every rule with its id, descriptions and default
    /// level; a result per finding with its `ruleId`, `ruleIndex`, level, region (line and column,
    /// columns counting Unicode code points) and the JSON path as a logical location; suppressed
    /// findings carry an external suppression with its reason. Rejected flows are the
    /// invocation's error notifications (`executionSuccessful` false).
    public func sarif(config: LintConfig) -> String {
        var rules: [JSONValue] = []
        for rule in FlowLint.rules {
            var object = JSONObject()
            object.append("id", .string(rule.id))
            object.append("name", .string(Self.camelName(rule.id)))
            object.append("shortDescription", ["text": .string(rule.summary)])
            object.append("fullDescription", ["text": .string(rule.summary + " " + rule.help)])
            object.append("help", ["text": .string(rule.help)])
            object.append("defaultConfiguration", ["level": Self.sarifLevel(rule.severity)])
            rules.append(.object(object))
        }
        // What the config changed, as SARIF says it: overrides of the rules' configuration.
        var overrides: [JSONValue] = []
        for (index, rule) in FlowLint.rules.enumerated() where config.severity(of: rule) != rule.severity {
            var configuration = JSONObject()
            if let severity = config.severity(of: rule) {
                configuration.append("level", Self.sarifLevel(severity))
            } else {
                configuration.append("enabled", false)
            }
            var override = JSONObject()
            override.append("descriptor", ["id": .string(rule.id), "index": .number(Double(index))])
            override.append("configuration", .object(configuration))
            overrides.append(.object(override))
        }
        var results: [JSONValue] = []
        var notifications: [JSONValue] = []
        for file in files {
            for finding in file.findings {
                var result = JSONObject()
                result.append("ruleId", .string(finding.rule.id))
                result.append("ruleIndex", .number(Double(FlowLint.rules.firstIndex(of: finding.rule)!)))
                result.append("level", Self.sarifLevel(finding.severity))
                result.append("message", ["text": .string(finding.message)])
                result.append(
                    "locations",
                    .array([
                        Self.location(
                            file: finding.file, line: finding.position.line, column: finding.position.column, path: finding.path)
                    ]))
                result.append("partialFingerprints", ["quireFinding/v1": .string(finding.fingerprint)])
                if let reason = finding.suppressed {
                    result.append("suppressions", .array([["kind": "external", "justification": .string(reason)]]))
                }
                results.append(.object(result))
            }
            for error in file.errors {
                var notification = JSONObject()
                notification.append("level", "error")
                notification.append("message", ["text": .string(error.message)])
                notification.append(
                    "locations",
                    .array([
                        Self.location(
                            file: error.file, line: error.position.line, column: error.position.column,
                            path: error.position.line > 0 ? error.path : nil)
                    ]))
                notifications.append(.object(notification))
            }
        }
        var driver = JSONObject()
        driver.append("name", "quire")
        driver.append("version", .string(toolVersion))
        driver.append("rules", .array(rules))
        var invocation = JSONObject()
        invocation.append("executionSuccessful", .bool(notifications.isEmpty))
        if !notifications.isEmpty { invocation.append("toolExecutionNotifications", .array(notifications)) }
        if !overrides.isEmpty { invocation.append("ruleConfigurationOverrides", .array(overrides)) }
        var run = JSONObject()
        run.append("tool", ["driver": .object(driver)])
        run.append("invocations", .array([.object(invocation)]))
        run.append("columnKind", "unicodeCodePoints")
        run.append("results", .array(results))
        var root = JSONObject()
        root.append("$schema", .string(Self.sarifSchema))
        root.append("version", "2.1.0")
        root.append("runs", .array([.object(run)]))
        return JSONWriter.string(.object(root), style: .pretty) + "\n"
    }

    /// `page-never-shown` → `PageNeverShown` (SARIF's rule `name`).
    static func camelName(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// GitLab Code Quality: an array of issues, each with `description`, `check_name` (the rule
    /// id), a unique `fingerprint`, `severity` (error → major, warning → minor, note → info) and
    /// `location` (path, `lines.begin`, and `positions.begin` with the column). Suppressed
    /// findings are left out (GitLab has no way to show them as such).
    public func gitlab() -> String {
        var issues: [JSONValue] = []
        for file in files {
            for finding in file.findings where finding.suppressed == nil {
                var issue = JSONObject()
                issue.append("description", .string("\(finding.path): \(finding.message)"))
                issue.append("check_name", .string(finding.rule.id))
                issue.append("fingerprint", .string(finding.fingerprint))
                let severity: String =
                    switch finding.severity {
                    case .error: "major"
                    case .warning: "minor"
                    case .note: "info"
                    }
                issue.append("severity", .string(severity))
                var location = JSONObject()
                var name = finding.file
                while name.hasPrefix("./") { name.removeFirst(2) }
                location.append("path", .string(name))
                location.append("lines", ["begin": .number(Double(finding.position.line))])
                location.append(
                    "positions",
                    [
                        "begin": [
                            "line": .number(Double(finding.position.line)), "column": .number(Double(finding.position.column)),
                        ]
                    ])
                issue.append("location", .object(location))
                issues.append(.object(issue))
            }
        }
        return JSONWriter.string(.array(issues), style: .pretty) + "\n"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
