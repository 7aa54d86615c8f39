import QuireCore

/// `quire map`: a flow as a Graphviz graph — its pages in order with their fields (required
/// marked), the conditions that show, enable or require them, the gate, what the lint found, and
/// with a coverage document what a suite covered (docs/flow-map.md).
public struct FlowMap {
    public let flow: Flow
    public var locale = "en"
    /// Coverage read from `quire.coverage/1` for this flow, if any.
    public var coverage: Coverage? = nil

    /// What a coverage document says of one flow, by id and path.
    public struct Coverage: Sendable {
        public var pages: [String: Int] = [:]
        public var fields: [String: Int] = [:]
        public var conditions: [String: (true: Int, false: Int)] = [:]

        /// The entry of `document` (`quire.coverage/1`) for the flow `id` whose file ends like
        /// `file` (or the only one with that id); nil when there is none.
        public static func read(_ document: JSONValue, flowID id: String, file: String) -> Coverage? {
            guard case .object(let root) = document, root["format"] == .string(CoverageReport.format),
                case .array(let flows)? = root["flows"]
            else { return nil }
            let candidates = flows.compactMap { value -> JSONObject? in
                guard case .object(let object) = value, object["id"] == .string(id) else { return nil }
                return object
            }
            let name = FileWalker.normalized(file)
            let chosen =
                candidates.first { object in
                    if case .string(let recorded)? = object["file"] {
                        let normalized = FileWalker.normalized(recorded)
                        return normalized == name || name.hasSuffix("/" + normalized) || normalized.hasSuffix("/" + name)
                    }
                    return false
                } ?? (candidates.count == 1 ? candidates[0] : nil)
            guard let chosen else { return nil }
            var coverage = Coverage()
            func number(_ value: JSONValue?) -> Int { value?.intValue ?? 0 }
            if case .array(let pages)? = chosen["pages"] {
                for case .object(let page) in pages {
                    if case .string(let id)? = page["id"] { coverage.pages[id] = number(page["current"]) }
                }
            }
            if case .array(let fields)? = chosen["fields"] {
                for case .object(let field) in fields {
                    if case .string(let id)? = field["id"] { coverage.fields[id] = number(field["focused"]) + number(field["edited"]) }
                }
            }
            if case .array(let conditions)? = chosen["conditions"] {
                for case .object(let condition) in conditions {
                    if case .string(let path)? = condition["path"] {
                        coverage.conditions[path] = (number(condition["true"]), number(condition["false"]))
                    }
                }
            }
            return coverage
        }
    }

    public init(flow: Flow, locale: String = "en", coverage: Coverage? = nil) {
        self.flow = flow
        self.locale = locale
        self.coverage = coverage
    }

    /// How many characters of a display string or a condition a label shows (then `…`).
    public static let labelLimit = 60

    static let red = "#c62828"
    static let green = "#2e7d32"
    static let grey = "#9e9e9e"

    // MARK: DOT

    public func dot() -> String {
        let lint = FlowLint(flow)
        let neverPages = Set(lint.warnings.filter { $0.kind == .pageNeverVisible }.compactMap(\.page))
        var fieldFindings: [Int: [String]] = [:]
        for warning in lint.warnings {
            if let field = warning.field { fieldFindings[field, default: []].append(warning.kind.rawValue) }
        }
        let conditionFindings = Dictionary(
            lint.warnings.filter {
                [.conditionAlwaysTrue, .conditionNeverTrue, .fieldNeverEnabled, .fieldNeverVisible, .pageNeverVisible].contains($0.kind)
            }
            .map { ($0.path.description, $0.kind) }, uniquingKeysWith: { first, _ in first })

        var out = "digraph quire_flow {\n"
        let title = flow.title.map { " — " + $0.resolve(locale) } ?? ""
        out += "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=16, labelloc=t, nodesep=0.4, ranksep=0.5, "
        out += "label=<" + Self.escape("flow '\(flow.id)'\(title)", limit: 100) + "<BR/><FONT POINT-SIZE=\"11\">"
        out += Self.escape(legend, limit: 400) + "</FONT>>];\n"
        out += "  node [shape=plain, fontname=\"Helvetica\", fontsize=11];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
        let sites = flow.conditionSites
        let siteByPath = Dictionary(sites.map { ($0.path.description, $0) }, uniquingKeysWith: { first, _ in first })
        for (pageIndex, page) in flow.pages.enumerated() {
            let never = neverPages.contains(pageIndex)
            let covered = coverage.map { ($0.pages[page.id] ?? 0) > 0 }
            let border = never ? Self.red : (covered == false ? Self.grey : (covered == true ? Self.green : "#37474f"))
            let header = never ? "#ffcdd2" : (covered == true ? "#c8e6c9" : (covered == false ? "#eeeeee" : "#e3f2fd"))
            var rows: [String] = []
            var heading = "<B>\(pageIndex + 1). " + Self.escape(page.id, limit: 64) + "</B>"
            if let title = page.title { heading += " " + Self.escape(title.resolve(locale), limit: Self.labelLimit) }
            if never { heading += " <FONT COLOR=\"\(Self.red)\">(can never be shown)</FONT>" }
            if let covered {
                heading +=
                    covered ? " <FONT COLOR=\"\(Self.green)\">✔ current</FONT>" : " <FONT COLOR=\"\(Self.grey)\">never current</FONT>"
            }
            rows.append("<TR><TD ALIGN=\"LEFT\" BGCOLOR=\"\(header)\">\(heading)</TD></TR>")
            let pagePath = (JSONPath.root + "pages" + pageIndex).description
            if let site = siteByPath[pagePath + ".visibleIf"] {
                rows.append(conditionRow(site, finding: conditionFindings[site.path.description], indent: ""))
            }
            for field in page.fieldRange {
                let definition = flow.fields[field]
                let findings = fieldFindings[field] ?? []
                let hidden = findings.contains(FlowLint.Kind.fieldNeverVisible.rawValue)
                var text = "• <B>" + Self.escape(definition.id, limit: 64) + "</B> (" + definition.kind.name + ")"
                if let label = definition.label { text += " " + Self.escape(label.resolve(locale), limit: Self.labelLimit) }
                if definition.required { text += " <FONT COLOR=\"\(Self.red)\">* required</FONT>" }
                if hidden { text += " <FONT COLOR=\"\(Self.red)\">(can never be shown)</FONT>" }
                if let coverage {
                    let hits = coverage.fields[definition.id] ?? 0
                    text += hits > 0 ? " <FONT COLOR=\"\(Self.green)\">✔</FONT>" : " <FONT COLOR=\"\(Self.grey)\">not exercised</FONT>"
                }
                rows.append("<TR><TD ALIGN=\"LEFT\">\(hidden ? "<FONT COLOR=\"\(Self.red)\">" + text + "</FONT>" : text)</TD></TR>")
                let fieldPath = flow.path(ofField: field).description
                for key in ConditionSite.Key.allCases {
                    if let site = siteByPath[fieldPath + "." + key.rawValue] {
                        rows.append(conditionRow(site, finding: conditionFindings[site.path.description], indent: "    "))
                    }
                }
            }
            out +=
                "  p\(pageIndex) [color=\"\(border)\", label=<<TABLE BORDER=\"\(never ? 2 : 1)\" COLOR=\"\(border)\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"4\">"
            out += rows.joined() + "</TABLE>>];\n"
        }
        // Edges: the next page in order; a dashed edge past pages that may be hidden; the gate.
        let gated = flow.paging.gate == .valid
        for pageIndex in flow.pages.indices.dropLast() {
            let page = flow.pages[pageIndex]
            let validated = page.fieldRange.contains { field in
                let definition = flow.fields[field]
                if definition.required || definition.requiredIf != nil { return true }
                if case .text(let options) = definition.kind, (options.minLength ?? 0) > 1 { return true }
                return false
            }
            let label = gated && validated ? "next (gate: valid)" : "next"
            let color = gated && validated ? "#e65100" : "#37474f"
            out += "  p\(pageIndex) -> p\(pageIndex + 1) [label=\"\(label)\", color=\"\(color)\", fontcolor=\"\(color)\"];\n"
            // Past a run of pages that have a visibleIf, to the first that has none: one edge a run,
            // from the page before it (not a fan from each page of the run, which Graphviz lays
            // out in time growing with the square of the run).
            guard pageIndex == 0 || flow.pages[pageIndex].visibleIf == nil else { continue }
            var next = pageIndex + 1
            while next < flow.pages.count, flow.pages[next].visibleIf != nil { next += 1 }
            if next > pageIndex + 1 && next < flow.pages.count {
                out += "  p\(pageIndex) -> p\(next) [style=dashed, label=\"when hidden\", color=\"#607d8b\", fontcolor=\"#607d8b\"];\n"
            }
        }
        if flow.paging.wrap, flow.pages.count > 1 {
            out += "  p\(flow.pages.count - 1) -> p0 [style=dotted, label=\"wrap\", constraint=false];\n"
        }
        out += "}\n"
        return out
    }

    var legend: String {
        var parts = ["gate: \(flow.paging.gate.rawValue)", "swipe: \(flow.paging.swipe)", "wrap: \(flow.paging.wrap)"]
        if flow.paging.autoAdvanceMs > 0 { parts.append("auto-advance: \(Int(flow.paging.autoAdvanceMs)) ms") }
        parts.append("red: can never be shown")
        if coverage != nil { parts.append("green: covered, grey: not covered") }
        return parts.joined(separator: " · ")
    }

    func conditionRow(_ site: ConditionSite, finding: FlowLint.Kind?, indent: String) -> String {
        var text = indent + site.key.rawValue + ": " + Self.escape(describe(site.condition), limit: Self.labelLimit)
        var color: String? = nil
        switch finding {
        case .pageNeverVisible?, .fieldNeverVisible?, .fieldNeverEnabled?, .conditionNeverTrue?:
            text += " (never true)"
            color = Self.red
        case .conditionAlwaysTrue?:
            text += " (always true)"
            color = "#e65100"
        default:
            break
        }
        if let outcomes = coverage?.conditions[site.path.description] {
            let seen = (outcomes.true > 0 ? 1 : 0) + (outcomes.false > 0 ? 1 : 0)
            text += " [true \(outcomes.true > 0 ? "✔" : "✘") false \(outcomes.false > 0 ? "✔" : "✘")]"
            if color == nil { color = seen == 2 ? Self.green : Self.grey }
        }
        let body = color.map { "<FONT COLOR=\"\($0)\">" + text + "</FONT>" } ?? text
        return "<TR><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"10\">" + body + "</FONT></TD></TR>"
    }

    /// A condition in words: `pet = dog`, `time > 1800`, `all(…, …)`.
    public func describe(_ condition: Condition) -> String {
        func name(_ field: Int) -> String { flow.fields[field].id }
        func value(_ field: Int, _ value: FieldValue) -> String {
            switch flow.fields[field].json(value) {
            case .string(let text):
                if case .text = flow.fields[field].kind { return JSONWriter.quoted(text) }
                return text
            case let other: return JSONWriter.string(other)
            }
        }
        switch condition {
        case .equals(let field, let expected): return "\(name(field)) = \(value(field, expected))"
        case .notEquals(let field, let expected): return "\(name(field)) ≠ \(value(field, expected))"
        case .oneOf(let field, let values): return "\(name(field)) in {\(values.map { value(field, $0) }.joined(separator: ", "))}"
        case .greaterThan(let field, let bound): return "\(name(field)) > \(JSONWriter.number(bound))"
        case .lessThan(let field, let bound): return "\(name(field)) < \(JSONWriter.number(bound))"
        case .filled(let field, let filled): return "\(name(field)) \(filled ? "filled" : "empty")"
        case .all(let parts): return "all(" + parts.map(describe).joined(separator: ", ") + ")"
        case .any(let parts): return "any(" + parts.map(describe).joined(separator: ", ") + ")"
        case .not(let inner): return "not " + describe(inner)
        }
    }

    /// Text from a document made safe inside a Graphviz HTML-like label (and so in the SVG
    /// `dot` makes of it): at most `limit` characters (then `…`), control characters and the
    /// other characters XML forbids (U+FFFE, U+FFFF) written as `\n`, `\uXXXX`, `& < > " '` as
    /// entities, and a backslash doubled — Graphviz expands `\N`, `\G`, `\E`, … in labels (to
    /// the node's name, the graph's, …), even written `&#92;N`, and shows `\\` as one backslash.
    public static func escape(_ text: String, limit: Int) -> String {
        var shown = Printable.line(text)
        if shown.count > limit { shown = String(shown.prefix(limit)) + "…" }
        var out = ""
        out.reserveCapacity(shown.utf8.count)
        for scalar in shown.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\\": out += "\\\\"
            case "\u{FFFE}": out += "\\\\ufffe"
            case "\u{FFFF}": out += "\\\\uffff"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The most pages and fields `--format svg` hands Graphviz's `dot`, whose layout grows faster
    /// than the graph (a map of this size takes seconds); a larger flow is refused (exit 2), and
    /// `--format dot` still writes its graph.
    public static let svgPageLimit = 500
    public static let svgFieldLimit = 5_000

    /// Where and why a flow is too large for `--format svg`: the first page or field past the limits.
    public func svgProblem() -> (path: JSONPath, message: String)? {
        if flow.pages.count > Self.svgPageLimit {
            return (
                JSONPath.root + "pages" + Self.svgPageLimit,
                "--format svg draws at most \(Self.svgPageLimit) pages and this flow has \(flow.pages.count) (Graphviz's layout grows faster than the graph); --format dot writes the graph"
            )
        }
        if flow.fields.count > Self.svgFieldLimit {
            return (
                flow.path(ofField: Self.svgFieldLimit),
                "--format svg draws at most \(Self.svgFieldLimit) fields and this flow has \(flow.fields.count) (Graphviz's layout grows faster than the graph); --format dot writes the graph"
            )
        }
        return nil
    }
}
