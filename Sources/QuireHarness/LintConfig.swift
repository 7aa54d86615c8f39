import Foundation
import QuireCore

/// `quire check --config FILE` (`quire.lint/1`): the severity of each rule, and suppressions by
/// rule, file and JSON path, each with its reason. See docs/lint.md.
///
/// ```json
/// {"format": "quire.lint/1",
///  "rules": {"missing-text": "note", "back-without-effect": "off"},
///  "suppress": [{"rule": "page-never-shown", "file": "flows/pets.json", "path": "$.pages[2]",
///                "reason": "kept hidden until the clinic opens"}]}
/// ```
public struct LintConfig: Sendable {
    public struct Suppression: Sendable {
        public var rule: String?
        /// Matches a file named exactly so, or ending with `/` + it.
        public var file: String?
        /// `$.pages[2]`: matches that path and every path under it.
        public var path: String?
        public var reason: String
        /// Where it is in the config file (for "matched no finding").
        public var at: JSONPath
    }

    /// A rule's severity, or nil when the rule is off; rules not named keep their default.
    public var severities: [String: FlowLint.Severity?] = [:]
    public var suppressions: [Suppression] = []
    /// The config file's name and bytes (positions of its notes).
    public var file: String = ""
    var bytes: [UInt8] = []

    public init() {}

    public static let format = "quire.lint/1"

    /// Reads a config file; every problem at its position, as flows are reported.
    public static func load(path: String) throws(DocumentError) -> LintConfig {
        let bytes = try Flow.readDocument(path, limits: .default)
        let (value, reader) = try DocumentReader.parse(file: path, bytes: bytes)
        var config = LintConfig()
        config.file = path
        config.bytes = bytes
        var problems = reader
        guard case .object(let root) = value else {
            problems.error(.root, "a lint config is a JSON object ({\"format\": \"\(format)\", …})")
            try problems.finish()
            return config
        }
        for (key, _) in root where !["format", "rules", "suppress", "$schema"].contains(key) {
            problems.error(JSONPath.root + key, "unknown key '\(key)' (a lint config has format, rules, suppress)", onKey: true)
        }
        if root["format"] != .string(format) {
            problems.error(JSONPath.root + "format", "expected \"format\": \"\(format)\"")
        }
        let ids = FlowLint.rules.map(\.id).joined(separator: ", ")
        if let rules = root["rules"] {
            if case .object(let rules) = rules {
                for (id, level) in rules {
                    let at = JSONPath.root + "rules" + id
                    guard FlowLint.rule(id: id) != nil else {
                        problems.error(at, "no rule '\(id)' (the rules: \(ids))", onKey: true)
                        continue
                    }
                    switch level {
                    case .string("off"): config.severities[id] = .some(nil)
                    case .string(let name) where FlowLint.Severity(rawValue: name) != nil:
                        config.severities[id] = FlowLint.Severity(rawValue: name)
                    default: problems.error(at, "a rule's severity is \"error\", \"warning\", \"note\" or \"off\"")
                    }
                }
            } else {
                problems.error(JSONPath.root + "rules", "expected an object of rule ids and severities")
            }
        }
        if let list = root["suppress"] {
            if case .array(let list) = list {
                for (index, item) in list.enumerated() {
                    let at = JSONPath.root + "suppress" + index
                    guard case .object(let item) = item else {
                        problems.error(at, "a suppression is an object with rule, file, path and reason")
                        continue
                    }
                    var strings: [String: String] = [:]
                    for (key, value) in item {
                        guard ["rule", "file", "path", "reason"].contains(key) else {
                            problems.error(at + key, "unknown key '\(key)' (a suppression has rule, file, path, reason)", onKey: true)
                            continue
                        }
                        guard case .string(let text) = value, !text.isEmpty else {
                            problems.error(at + key, "expected a non-empty string")
                            continue
                        }
                        strings[key] = text
                    }
                    if let rule = strings["rule"], FlowLint.rule(id: rule) == nil {
                        problems.error(at + "rule", "no rule '\(rule)' (the rules: \(ids))")
                    }
                    if let path = strings["path"], !path.hasPrefix("$") {
                        problems.error(at + "path", "a JSON path starts with $ (as quire check prints it: $.pages[2].visibleIf)")
                    }
                    if strings["rule"] == nil && strings["path"] == nil {
                        problems.error(at, "a suppression names a rule, a path or both")
                    }
                    guard let reason = strings["reason"] else {
                        if item["reason"] == nil { problems.error(at, "a suppression gives its reason (\"reason\": \"…\")") }
                        continue
                    }
                    config.suppressions.append(
                        Suppression(rule: strings["rule"], file: strings["file"], path: strings["path"], reason: reason, at: at))
                }
            } else {
                problems.error(JSONPath.root + "suppress", "expected an array of suppressions")
            }
        }
        try problems.finish()
        return config
    }

    /// The severity a rule reports at, or nil when it is off.
    public func severity(of rule: FlowLint.Rule) -> FlowLint.Severity? {
        if let set = severities[rule.id] { return set }
        return rule.severity
    }

    /// The first suppression that matches a finding of `rule` at `path` in `file`.
    public func suppression(rule: String, file: String, path: JSONPath) -> Int? {
        let text = path.description
        return suppressions.firstIndex { suppression in
            if let want = suppression.rule, want != rule { return false }
            if let want = suppression.file, !Self.sameFile(file, want) { return false }
            if let want = suppression.path, !Self.within(text, want) { return false }
            return true
        }
    }

    /// `file` as quire check names it is `want`, or ends with `/` + `want` (`./` dropped).
    static func sameFile(_ file: String, _ want: String) -> Bool {
        func plain(_ name: String) -> String {
            var name = name
            while name.hasPrefix("./") { name.removeFirst(2) }
            return name
        }
        let file = plain(file)
        let want = plain(want)
        return file == want || file.hasSuffix("/" + want)
    }

    /// `path` is `prefix` or a path under it (the next character starts a component).
    static func within(_ path: String, _ prefix: String) -> Bool {
        guard path.hasPrefix(prefix) else { return false }
        guard let next = path.dropFirst(prefix.count).first else { return true }
        return next == "." || next == "[" || prefix == "$"
    }

    /// Notes, at their positions in the config file, for suppressions that matched nothing.
    public func unused(_ used: Set<Int>) -> [Diagnostic] {
        var reader = DocumentReader(file: file, bytes: bytes)
        for (index, suppression) in suppressions.enumerated() where !used.contains(index) {
            reader.error(suppression.at, "note: this suppression matched no finding (remove it)")
        }
        return reader.diagnostics()
    }
}
