/// `quire check`'s lint: what a flow that loads can still get wrong — pages and fields that can
/// never be shown, conditions that never change, a minimum the wheels cannot reach, texts missing
/// in a locale the flow uses. Each finding is a warning at a JSON path (positions come from the
/// document, as for load errors). See docs/flow-format.md, "Warnings".
///
/// The analysis enumerates the values each field can hold (its *domain*) and evaluates conditions
/// exactly as the session does (a hidden field is `null` to conditions). Domains over-approximate
/// what a person can enter, so a warning is never wrong: a condition reported "never true" is
/// false for every value the fields could hold, and "always true" is true for all of them.
public struct FlowLint: Sendable {
    public struct Warning: Sendable, Hashable {
        public var path: JSONPath
        public var message: String
        /// What the warning is about (tests and the map read it).
        public var kind: Kind
        /// The page, or the field, it is about.
        public var page: Int?
        public var field: Int?

        /// A note informs and never fails `--strict`: the bound of a duration the wheels cannot
        /// show snaps to one they can (CONTRACT §2), which a flow may mean (durations.json's nap).
        /// So is an item the analysis could not decide within its bounds (`notAnalysed`).
        public var isNote: Bool { kind == .minUnreachable || kind == .maxUnreachable || kind == .notAnalysed }
    }

    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case pageNeverVisible, fieldNeverVisible, fieldNeverEnabled, conditionNeverTrue, conditionAlwaysTrue
        case minUnreachable, maxUnreachable, missingText, notAnalysed
        /// `"back": false` where no backward move could happen anyway.
        case backWithoutEffect
    }

    /// Value combinations evaluated for one page or field; beyond it the item is not analysed
    /// (a note says so; never a wrong warning). A documented limit: the product of the domains
    /// of the fields a condition reaches, transitively through their own visibility.
    public static let combinationLimit = 65_536
    /// Steps one page or field may take: its combinations × the size of the conditions each
    /// evaluates (nodes, values listed, long texts compared). Beyond it the item is not analysed.
    public static let workLimit = 2_000_000
    /// Steps for the whole flow; past it, the remaining items are not analysed (one note says
    /// how many), so the lint of any flow is bounded: linear in the document up to this bound.
    public static let flowWorkLimit = 20_000_000
    /// Fields one item's conditions may reach, transitively; beyond it the item is skipped.
    public static let reachLimit = 32

    /// Steps left for this flow.
    var budget = FlowLint.flowWorkLimit
    /// Each field's page and `visibleIf`, each page's `visibleIf`, read without copying the flow.
    let fieldPage: [Int]
    let fieldVisibleIf: [Condition?]
    let pageVisibleIf: [Condition?]
    /// The size of each field's and each page's `visibleIf` (`Condition.cost`), and the fields
    /// it names (nil past `reachLimit`), found once: an item's cost never walks another's condition.
    let fieldVisibleCost: [Int]
    let pageVisibleCost: [Int]
    let fieldVisibleNames: [[Int]?]
    let pageVisibleNames: [[Int]?]
    /// The item the flow's budget ran out at (its note is completed at the end), and how many
    /// items were not analysed after it.
    var budgetNote: Int? = nil
    var pastBudget = 0

    public let flow: Flow
    public private(set) var warnings: [Warning] = []
    /// Pages and fields the analysis did not decide for its limits (each has a note, but those
    /// past the flow's budget, counted in one).
    public private(set) var skipped = 0

    public init(_ flow: Flow) {
        self.flow = flow
        fieldPage = flow.fields.map(\.page)
        fieldVisibleIf = flow.fields.map(\.visibleIf)
        pageVisibleIf = flow.pages.map(\.visibleIf)
        fieldVisibleCost = fieldVisibleIf.map { $0?.cost ?? 0 }
        pageVisibleCost = pageVisibleIf.map { $0?.cost ?? 0 }
        fieldVisibleNames = fieldVisibleIf.map { $0.map(Self.names(in:)) ?? [] }
        pageVisibleNames = pageVisibleIf.map { $0.map(Self.names(in:)) ?? [] }
        let (literals, bounds) = Self.comparisons(in: flow)
        domains = flow.fields.enumerated().map {
            Self.domain(of: $0.element, literals: literals[$0.offset] ?? [], bounds: bounds[$0.offset] ?? [])
        }
        analyseConditions()
        if let at = budgetNote, pastBudget > 1 {
            warnings[at].message +=
                ", nor \(pastBudget - 1) later page\(pastBudget == 2 ? "" : "s") and field\(pastBudget == 2 ? "" : "s") with conditions"
        }
        analyseWheels()
        analyseLocales()
        analyseNoWayBack()
    }

    /// `"back": false` on the first page of a flow that does not wrap stops nothing: there is no
    /// page before it.
    mutating func analyseNoWayBack() {
        guard !flow.paging.wrap, let first = flow.pages.first, !first.back else { return }
        warnings.append(
            Warning(
                path: JSONPath.root + "pages" + 0 + "back",
                message: "page '\(first.id)': back false has no effect on the first page (there is no page before it)",
                kind: .backWithoutEffect, page: 0))
    }

    /// Diagnostics at the findings' positions in `bytes` (the flow's document), each message
    /// starting `warning: ` or `note: `, in document order.
    public func diagnostics(file: String, bytes: [UInt8]) -> [Diagnostic] {
        guard !warnings.isEmpty else { return [] }
        var reader = DocumentReader(file: file, bytes: bytes)
        for warning in warnings { reader.error(warning.path, (warning.isNote ? "note: " : "warning: ") + warning.message) }
        return reader.diagnostics()
    }

    /// How many findings are warnings (not notes).
    public var warningCount: Int { warnings.count { !$0.isNote } }

    // MARK: Domains

    /// The raw values a field can hold while visible, one per class of values conditions can tell apart.
    let domains: [[FieldValue]]

    /// What conditions compare each field with: values (`equals`, `notEquals`, `in`) and bounds
    /// (`greaterThan`, `lessThan`), in one pass over every condition of the flow.
    static func comparisons(in flow: Flow) -> (literals: [Int: [FieldValue]], bounds: [Int: [Double]]) {
        var literals: [Int: [FieldValue]] = [:]
        var bounds: [Int: [Double]] = [:]
        func collect(_ condition: Condition?) {
            guard let condition else { return }
            switch condition {
            case .equals(let f, let value), .notEquals(let f, let value):
                literals[f, default: []].append(value)
            case .oneOf(let f, let values):
                literals[f, default: []].append(contentsOf: values)
            case .greaterThan(let f, let bound), .lessThan(let f, let bound):
                bounds[f, default: []].append(bound)
            case .filled:
                break
            case .all(let parts), .any(let parts):
                parts.forEach(collect)
            case .not(let inner):
                collect(inner)
            }
        }
        for page in flow.pages { collect(page.visibleIf) }
        for other in flow.fields {
            collect(other.visibleIf)
            collect(other.enabledIf)
            collect(other.requiredIf)
        }
        return (literals, bounds)
    }

    /// One value for each class of values conditions can tell apart: the values they name, and
    /// one they do not (an option, a text) — never every option of a long list.
    static func domain(of field: Field, literals: [FieldValue], bounds: [Double]) -> [FieldValue] {
        var values: [FieldValue] = []
        var seen = Set<FieldValue>()
        func add(_ value: FieldValue) { if seen.insert(value).inserted { values.append(value) } }
        if field.defaultValue.isNull { add(.null) } else { add(field.defaultValue) }
        switch field.kind {
        case .toggle:
            add(.toggle(true))
            add(.toggle(false))
        case .choice(let options):
            for case .choice(let option) in literals { add(.choice(option)) }
            // An option no condition names, if there is one (all such options act alike).
            let named = Set(literals.compactMap { if case .choice(let option) = $0 { option } else { nil } })
            if let other = options.options.indices.first(where: { !named.contains($0) }) { add(.choice(other)) }
        case .text(let options):
            // Typing past maxLength is refused, so a longer text is never held; a shorter one
            // than minLength is (it is only invalid). Empty text is not filled.
            let maxLength = options.maxLength ?? .max
            add(.text(""))
            for case .text(let text) in literals where text.count <= maxLength { add(.text(text)) }
            // A text no condition names, as long as the field accepts.
            var other = String(repeating: "\u{E000}", count: Swift.max(1, Swift.min(options.minLength ?? 1, maxLength)))
            while seen.contains(.text(other)) { other += "\u{E001}" }
            if other.count <= maxLength { add(.text(other)) }
        case .duration(let options):
            // The wheels hold values they can show, snapped into min...max.
            func point(_ seconds: Int?) {
                guard let seconds, seconds >= options.min, seconds <= options.max, options.isRepresentable(seconds) else { return }
                add(.duration(seconds))
            }
            point(options.snappedMin)
            point(options.clampedMax)
            var marks = bounds
            for case .duration(let seconds) in literals { marks.append(Double(seconds)) }
            for mark in marks where mark.isFinite {
                let low = Int(mark.rounded(.down))
                let high = Int(mark.rounded(.up))
                for x in [low - 1, low, high, high + 1] {
                    point(options.representable(atLeast: x))
                    point(options.representable(atMost: x))
                }
            }
        }
        return values
    }

    // MARK: Conditions

    mutating func analyseConditions() {
        var neverVisiblePages = Set<Int>()
        for (pageIndex, page) in flow.pages.enumerated() {
            guard let condition = page.visibleIf else { continue }
            let path = JSONPath.root + "pages" + pageIndex
            let item = "page '\(page.id)': visibleIf"
            guard
                let outcomes = outcomes(
                    of: [condition], over: fieldsOf([pageVisibleNames[pageIndex]]), when: { _ in true }, whenCost: 0,
                    item: item, at: path + "visibleIf")
            else { continue }
            if !outcomes[0].true {
                neverVisiblePages.insert(pageIndex)
                warnings.append(
                    Warning(
                        path: path + "visibleIf",
                        message:
                            "page '\(page.id)' can never be shown: its visibleIf is false for every value the fields it names can hold",
                        kind: .pageNeverVisible, page: pageIndex))
            } else if !outcomes[0].false {
                warnings.append(
                    Warning(
                        path: path + "visibleIf", message: "page '\(page.id)': visibleIf is always true (leave it out)",
                        kind: .conditionAlwaysTrue, page: pageIndex))
            }
        }
        for (fieldIndex, field) in flow.fields.enumerated() where !neverVisiblePages.contains(field.page) {
            let keys: [(String, Condition?)] = [
                ("visibleIf", field.visibleIf), ("enabledIf", field.enabledIf), ("requiredIf", field.requiredIf),
            ]
            let present = keys.compactMap { key, condition in condition.map { (key, $0) } }
            guard !present.isEmpty else { continue }
            let page = flow.pages[field.page]
            let path = JSONPath.root + "pages" + field.page + "fields" + (fieldIndex - page.fieldRange.lowerBound)
            // Each condition matters only while the field's page is shown; enabledIf and
            // requiredIf only while the field is.
            // (The field's own visibleIf and its page's are named by lists found once.)
            var names = [fieldVisibleNames[fieldIndex], pageVisibleNames[field.page]]
            for (key, condition) in present where key != "visibleIf" { names.append(Self.names(in: condition)) }
            let fields = fieldsOf(names)
            let pageVisible = { (value: (Int) -> FieldValue) in page.visibleIf?.evaluate(value) ?? true }
            let visibleCondition = field.visibleIf
            let pageCost = pageVisibleCost[field.page]
            let item = "field '\(field.id)': " + present.map(\.0).joined(separator: ", ")
            let at = path + present[0].0
            guard
                let visibility = outcomes(of: present.map(\.1), over: fields, when: pageVisible, whenCost: pageCost, item: item, at: at),
                let whileVisible = outcomes(
                    of: present.map(\.1), over: fields,
                    when: { value in pageVisible(value) && (visibleCondition?.evaluate(value) ?? true) },
                    whenCost: pageCost + fieldVisibleCost[fieldIndex], item: item, at: at)
            else { continue }
            for (at, (key, _)) in present.enumerated() {
                let seen = key == "visibleIf" ? visibility[at] : whileVisible[at]
                if key == "visibleIf" && !seen.true {
                    warnings.append(
                        Warning(
                            path: path + key,
                            message:
                                "field '\(field.id)' can never be shown: its visibleIf is false for every value the fields it names can hold while its page is shown",
                            kind: .fieldNeverVisible, field: fieldIndex))
                    break
                } else if key == "enabledIf" && !seen.true {
                    warnings.append(
                        Warning(
                            path: path + key,
                            message: "field '\(field.id)' can never be enabled: its enabledIf is false whenever the field is shown",
                            kind: .fieldNeverEnabled, field: fieldIndex))
                } else if !seen.true {
                    warnings.append(
                        Warning(
                            path: path + key, message: "field '\(field.id)': \(key) is never true while the field is shown",
                            kind: .conditionNeverTrue, field: fieldIndex))
                } else if !seen.false {
                    let hint = key == "requiredIf" ? " (use \"required\": true)" : " (leave it out)"
                    warnings.append(
                        Warning(
                            path: path + key,
                            message:
                                "field '\(field.id)': \(key) is always true while \(key == "visibleIf" ? "its page" : "the field") is shown\(hint)",
                            kind: .conditionAlwaysTrue, field: fieldIndex))
                }
            }
        }
    }

    /// The distinct fields `condition` names, in the order met; nil past `reachLimit`. Linear in
    /// the condition (a `Set` of at most `reachLimit + 1` fields).
    static func names(in condition: Condition) -> [Int]? {
        var found = Set<Int>()
        var list: [Int] = []
        condition.forEachField { field in
            if found.count <= reachLimit, found.insert(field).inserted { list.append(field) }
        }
        return found.count > reachLimit ? nil : list
    }

    /// The fields the lists `names` hold (those of an item's conditions), with, transitively, the
    /// fields their visibility depends on (their own and their page's `visibleIf`, from the lists
    /// found once), in document order. nil when they reach more than `reachLimit` fields, or a
    /// condition on the way names more.
    func fieldsOf(_ names: [[Int]?]) -> [Int]? {
        var found = Set<Int>()
        var work: [Int] = []
        func visit(_ list: [Int]?) -> Bool {
            guard let list else { return false }
            for field in list where found.insert(field).inserted {
                if found.count > Self.reachLimit { return false }
                work.append(field)
            }
            return true
        }
        for list in names where !visit(list) { return nil }
        while let field = work.popLast() {
            guard visit(fieldVisibleNames[field]), visit(pageVisibleNames[fieldPage[field]]) else { return nil }
        }
        return found.sorted()
    }

    /// A note that `item` (`page 'p': visibleIf`, `field 'f': enabledIf, requiredIf`) was not
    /// analysed, and why.
    mutating func notAnalysed(_ item: String, at path: JSONPath, _ why: String) {
        warnings.append(Warning(path: path, message: "\(item) not analysed: \(why)", kind: .notAnalysed))
        skipped += 1
    }

    /// For each condition, whether it was seen true and seen false over every combination of the
    /// domains of `fields` for which `when` (of size `whenCost`) holds; nil, with a note at `path`
    /// saying why, beyond `combinationLimit`, `workLimit` or what is left of `flowWorkLimit`.
    mutating func outcomes(
        of conditions: [Condition], over fields: [Int]?, when: ((Int) -> FieldValue) -> Bool, whenCost: Int,
        item: String, at path: JSONPath
    ) -> [(true: Bool, false: Bool)]? {
        if budgetNote != nil {
            pastBudget += 1
            skipped += 1
            return nil
        }
        guard let fields else {
            notAnalysed(item, at: path, "its conditions reach more than \(Self.reachLimit) fields (with those their visibility depends on)")
            return nil
        }
        var total = 1
        for field in fields {
            total *= domains[field].count
            if total > Self.combinationLimit {
                notAnalysed(
                    item, at: path,
                    "the values of the \(fields.count) fields it reaches make more than \(Self.combinationLimit) combinations")
                return nil
            }
        }
        // The steps of one combination: each reached field's visibility (its page's visibleIf
        // once a page), the conditions judged and `when`.
        var step = whenCost + conditions.reduce(0) { $0 + $1.cost }
        var lastPage = -1
        for field in fields {
            step += fieldVisibleCost[field]
            if fieldPage[field] != lastPage {
                lastPage = fieldPage[field]
                step += pageVisibleCost[lastPage]
            }
        }
        let work = total.multipliedReportingOverflow(by: Swift.max(step, 1))
        if work.overflow || work.partialValue > Self.workLimit {
            notAnalysed(
                item, at: path,
                "its \(total) combinations × \(step) steps of conditions each are more than the \(Self.workLimit) steps one item may take")
            return nil
        }
        guard work.partialValue <= budget else {
            notAnalysed(item, at: path, "the lint's \(Self.flowWorkLimit) steps for the whole flow are spent")
            budgetNote = warnings.count - 1
            pastBudget = 1
            return nil
        }
        // The budget is charged the combinations evaluated (most items see both outcomes early).
        var evaluated = 0
        defer { budget -= evaluated * Swift.max(step, 1) }
        var seen = [(true: Bool, false: Bool)](repeating: (false, false), count: conditions.count)
        var choice = [Int](repeating: 0, count: fields.count)
        // Per combination, the effective values by position in `fields`; a field outside them is
        // never read (`fields` is closed under what visibility depends on).
        let position = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($0.element, $0.offset) })
        let pageOf = fields.map { fieldPage[$0] }
        let visibleIfOf = fields.map { fieldVisibleIf[$0] }
        let pageConditions = pageOf.map { pageVisibleIf[$0] }
        var effective = [FieldValue](repeating: .null, count: fields.count)
        while true {
            evaluated += 1
            // Effective values in document order, as the session derives them.
            let lookup = { (field: Int) -> FieldValue in position[field].map { effective[$0] } ?? .null }
            var lastPage = -1
            var shown = true
            for at in fields.indices {
                if pageOf[at] != lastPage {
                    lastPage = pageOf[at]
                    shown = pageConditions[at]?.evaluate(lookup) ?? true
                }
                let visible = shown && (visibleIfOf[at]?.evaluate(lookup) ?? true)
                effective[at] = visible ? domains[fields[at]][choice[at]] : .null
            }
            if when(lookup) {
                for (at, condition) in conditions.enumerated() {
                    if condition.evaluate(lookup) { seen[at].true = true } else { seen[at].false = true }
                }
                if seen.allSatisfy({ $0.true && $0.false }) { return seen }
            }
            // The next combination.
            var digit = 0
            while digit < fields.count {
                choice[digit] += 1
                if choice[digit] < domains[fields[digit]].count { break }
                choice[digit] = 0
                digit += 1
            }
            if digit == fields.count { return seen }
        }
    }

    // MARK: Wheels

    /// A `min` (or `max`) the flow gives that the wheels cannot show: the picker snaps past it.
    /// Only a `min`/`max` written in the flow is judged (the default `min` of 60 s snaps up to
    /// the first minute the interval shows without a word).
    mutating func analyseWheels() {
        guard case .object(let root) = flow.document, case .array(let pages)? = root["pages"] else { return }
        for (fieldIndex, field) in flow.fields.enumerated() {
            guard case .duration(let options) = field.kind else { continue }
            let within = fieldIndex - flow.pages[field.page].fieldRange.lowerBound
            guard pages.indices.contains(field.page), case .object(let page) = pages[field.page],
                case .array(let fields)? = page["fields"], fields.indices.contains(within),
                case .object(let object) = fields[within]
            else { continue }
            let path = JSONPath.root + "pages" + field.page + "fields" + within
            let wheels = "minuteInterval \(options.minuteInterval)\(options.hasSeconds ? "" : ", no seconds wheel")"
            let ends: [(key: String, value: Int, reachable: Int, words: String, kind: Kind)] = [
                ("min", options.min, options.snappedMin, "smallest", .minUnreachable),
                ("max", options.max, options.clampedMax, "largest", .maxUnreachable),
            ]
            for end in ends where object[end.key] != nil && !options.isRepresentable(end.value) {
                warnings.append(
                    Warning(
                        path: path + end.key,
                        message:
                            "field '\(field.id)': \(end.key) \(end.value) cannot be shown by the wheels (\(wheels)); the \(end.words) value a person can pick is \(end.reachable)",
                        kind: end.kind, field: fieldIndex))
            }
        }
    }

    // MARK: Locales

    /// The locales a flow declares are the tags its display strings use. A display string given
    /// by tags that lacks one of them is shown in the fallback language there. A plain string is
    /// one text for every locale (a language's own name, a brand) and is not judged.
    mutating func analyseLocales() {
        var texts: [(JSONPath, LocalizedText)] = []
        if let title = flow.title { texts.append((JSONPath.root + "title", title)) }
        for (pageIndex, page) in flow.pages.enumerated() {
            let pagePath = JSONPath.root + "pages" + pageIndex
            if let title = page.title { texts.append((pagePath + "title", title)) }
            if let body = page.body { texts.append((pagePath + "body", body)) }
            for fieldIndex in page.fieldRange {
                let field = flow.fields[fieldIndex]
                let path = pagePath + "fields" + (fieldIndex - page.fieldRange.lowerBound)
                if let label = field.label { texts.append((path + "label", label)) }
                switch field.kind {
                case .text(let options):
                    if let placeholder = options.placeholder { texts.append((path + "placeholder", placeholder)) }
                case .choice(let options):
                    for (at, option) in options.options.enumerated() {
                        if let label = option.label { texts.append((path + "options" + at + "label", label)) }
                    }
                case .duration, .toggle:
                    break
                }
            }
        }
        var declared: [String] = []
        var declaredSet = Set<String>()
        var tagged: [(JSONPath, Set<String>)] = []
        for (path, text) in texts {
            let entries = text.entries
            guard !(entries.count == 1 && entries[0].tag.isEmpty) else { continue }
            var tags = Set<String>()
            for entry in entries {
                let tag = entry.tag.lowercased()
                tags.insert(tag)
                if declaredSet.insert(tag).inserted { declared.append(tag) }
            }
            tagged.append((path, tags))
        }
        // Every message names at most `tagsNamed` tags of each list and counts the rest, so the
        // lint's output, like its work, is linear in the flow: the missing tags of a string are
        // found walking the declared ones, past at most as many present ones as it has.
        let used = Self.named(declared.prefix(Self.tagsNamed), of: declared.count)
        for (path, tags) in tagged {
            let missingCount = declared.count - tags.count
            guard missingCount > 0 else { continue }
            var missing: [String] = []
            for tag in declared where !tags.contains(tag) {
                missing.append(tag)
                if missing.count == Self.tagsNamed { break }
            }
            warnings.append(
                Warning(
                    path: path, message: "no text for \(Self.named(missing, of: missingCount)) (the flow's display strings use \(used))",
                    kind: .missingText))
        }
    }

    /// How many tags a missing-text warning names in each of its lists (then "and N more").
    public static let tagsNamed = 8
    /// How many characters of a tag a warning shows (then `…`); a tag may have many subtags.
    public static let tagCharacters = 35

    /// `'a', 'b'`, or `'a', 'b' and 3 more` when `count` exceeds the tags given.
    static func named<Tags: Collection<String>>(_ tags: Tags, of count: Int) -> String {
        let list = tags.map { tag in "'" + (tag.count > tagCharacters ? String(tag.prefix(tagCharacters)) + "…" : tag) + "'" }
            .joined(separator: ", ")
        return count > tags.count ? "\(list) and \(count - tags.count) more" : list
    }
}
