/// The lint's rules: one stable id per kind of finding, with its default severity. The ids are
/// what suppressions, SARIF's `ruleId` and GitLab's `check_name` name; they never change once
/// released (a new kind of finding gets a new id). See docs/lint.md.
extension FlowLint {
    /// How much a finding matters. `error` fails `quire check` (exit 1) even without `--strict`;
    /// `warning` fails it under `--strict`; a `note` never does.
    public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
        case note, warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public struct Rule: Sendable, Hashable {
        /// Stable, kebab-case: `page-never-shown`.
        public var id: String
        public var kind: Kind
        public var severity: Severity
        /// One line: what the rule finds.
        public var summary: String
        /// What to do about it.
        public var help: String
    }

    /// Every rule, in a fixed order (SARIF's `ruleIndex` counts in it).
    public static let rules: [Rule] = [
        Rule(
            id: "page-never-shown", kind: .pageNeverVisible, severity: .warning,
            summary: "A page whose visibleIf is false for every value its fields can hold.",
            help: "Fix the condition, or remove the page: no person will ever see it."),
        Rule(
            id: "field-never-shown", kind: .fieldNeverVisible, severity: .warning,
            summary: "A field whose visibleIf is false whenever its page is shown.",
            help: "Fix the condition, or remove the field."),
        Rule(
            id: "field-never-enabled", kind: .fieldNeverEnabled, severity: .warning,
            summary: "A field whose enabledIf is false whenever the field is shown.",
            help: "Fix the condition: the field can never be edited."),
        Rule(
            id: "condition-never-true", kind: .conditionNeverTrue, severity: .warning,
            summary: "A requiredIf that is never true while its field is shown.",
            help: "Fix the condition, or leave it out: the field is never required."),
        Rule(
            id: "condition-always-true", kind: .conditionAlwaysTrue, severity: .warning,
            summary: "A condition that is true for every value the fields it names can hold.",
            help: "Leave the condition out (for requiredIf, write \"required\": true)."),
        Rule(
            id: "missing-text", kind: .missingText, severity: .warning,
            summary: "A display string that lacks a language tag other display strings of the flow use.",
            help: "Add the text in that language; until then the fallback language is shown there."),
        Rule(
            id: "back-without-effect", kind: .backWithoutEffect, severity: .warning,
            summary: "\"back\": false on the first page of a flow that does not wrap.",
            help: "Leave it out: there is no page before the first."),
        Rule(
            id: "min-unreachable", kind: .minUnreachable, severity: .note,
            summary: "A duration's min that the wheels cannot show; the picker snaps past it.",
            help: "Write the smallest value the wheels can show, if that is what is meant."),
        Rule(
            id: "max-unreachable", kind: .maxUnreachable, severity: .note,
            summary: "A duration's max that the wheels cannot show; the picker snaps below it.",
            help: "Write the largest value the wheels can show, if that is what is meant."),
        Rule(
            id: "not-analysed", kind: .notAnalysed, severity: .note,
            summary: "Conditions the lint could not decide within its limits.",
            help: "Nothing is wrong for sure; simpler conditions (fewer fields reached) can be analysed."),
    ]

    /// The rule with this id, if any.
    public static func rule(id: String) -> Rule? { rules.first { $0.id == id } }
}

extension FlowLint.Kind {
    /// The rule that reports this kind of finding.
    public var rule: FlowLint.Rule { FlowLint.rules.first { $0.kind == self }! }
}

extension FlowLint {
    /// A finding with its position in the flow's document.
    public struct Located: Sendable, Hashable {
        public var warning: Warning
        public var position: SourcePosition
        public var rule: Rule { warning.kind.rule }
    }

    /// Every finding at its position in `bytes` (the flow's document), in document order (ties
    /// in the order found). Unlike `diagnostics`, nothing is left out: the lint's findings are
    /// bounded by the flow's size.
    public func located(bytes: [UInt8]) -> [Located] {
        guard !warnings.isEmpty else { return [] }
        let locations = JSONParser.locate(bytes, paths: warnings.map(\.path))
        let offsets = warnings.map { locations.valueOffset($0.path) }
        let positions = SourcePosition.positions(of: offsets, in: bytes)
        let order = warnings.indices.sorted { (offsets[$0], $0) < (offsets[$1], $1) }
        return order.map { Located(warning: warnings[$0], position: positions[offsets[$0]]!) }
    }
}
