import QuireCore

/// The cases coverage counts, in the order of its counters: made once, where `allCases` makes a
/// new array at each use.
extension ValidationCode { static let counted = allCases }
extension Refusal { static let counted = allCases }
extension AccessoryItem { static let counted = allCases }
extension MoveKind { static let counted = allCases }
extension ApplyOutcome { static let counted = allCases }

/// How a page move was asked for, as `--coverage` counts them (docs/coverage.md).
public enum MoveKind: String, Sendable, Hashable, CaseIterable {
    case button, key, dot, drag, fling, autoAdvance, restart

    /// The kind of move an event that began a page change (`pageWillChange`) made.
    static func of(_ event: Event, paging: Paging) -> MoveKind? {
        switch event {
        case .tap(.indicatorLeft), .tap(.indicatorRight), .tap(.indicatorPage): .dot
        case .tap: .button
        case .key: .key
        case .dragBegin, .dragUpdate: .drag
        case .dragEnd(let vx), .swipe(_, let vx): paging.isFling(vx) ? .fling : .drag
        case .swipePage: .fling
        case .tick, .settle: .autoAdvance
        case .type, .edit, .spin, .select, .applied, .applyFailed: nil
        }
    }
}

/// What a suite exercised of one flow: counters per page, field, condition outcome, validation
/// code, refusal reason, accessory item and move kind. Counters add up across scripts and jobs
/// (`merge`), so the order scripts ran in does not matter.
public struct FlowCoverage: Sendable {
    /// The flow's file, as scripts resolved it.
    public let file: String
    public let flow: Flow
    public let sites: [ConditionSite]
    public var scripts = 0
    /// Times each page was made current (the first page counts once per script).
    public var pageCurrent: [Int]
    public var fieldFocused: [Int]
    public var fieldEdited: [Int]
    /// Steps after which each condition was seen true / false (while it mattered).
    public var siteTrue: [Int]
    public var siteFalse: [Int]
    /// Per field, per `ValidationCode.allCases`: steps after which it was shown, or refusals that named it.
    public var codes: [Int]
    public var refusals: [Int]
    public var accessory: [Int]
    public var moves: [Int]
    /// Applies that ended each way (`ApplyOutcome`): applied, failed, cancelled, timed out.
    public var applies: [Int]

    public init(file: String, flow: Flow) {
        self.file = file
        self.flow = flow
        sites = flow.conditionSites
        pageCurrent = Array(repeating: 0, count: flow.pages.count)
        fieldFocused = Array(repeating: 0, count: flow.fields.count)
        fieldEdited = fieldFocused
        siteTrue = Array(repeating: 0, count: sites.count)
        siteFalse = siteTrue
        codes = Array(repeating: 0, count: flow.fields.count * ValidationCode.allCases.count)
        refusals = Array(repeating: 0, count: Refusal.allCases.count)
        accessory = Array(repeating: 0, count: AccessoryItem.allCases.count)
        moves = Array(repeating: 0, count: MoveKind.allCases.count)
        applies = Array(repeating: 0, count: ApplyOutcome.allCases.count)
    }

    /// The largest count: the largest whole number a JSON reader is sure to read exactly (2^53).
    /// Counts that add up past it stay at it (`merge`), so merging coverage files that claim
    /// huge counts gives a count a coverage file can hold, never an overflow.
    public static let maxCount = 9_007_199_254_740_992

    /// Adds `other`'s counters, which must be of the same flow (the same reading of its file).
    public mutating func merge(_ other: FlowCoverage) {
        func sum(_ a: Int, _ b: Int) -> Int {
            let (total, overflow) = a.addingReportingOverflow(b)
            return overflow ? Self.maxCount : min(total, Self.maxCount)
        }
        scripts = sum(scripts, other.scripts)
        func add(_ into: inout [Int], _ from: [Int]) { for at in into.indices { into[at] = sum(into[at], from[at]) } }
        add(&pageCurrent, other.pageCurrent)
        add(&fieldFocused, other.fieldFocused)
        add(&fieldEdited, other.fieldEdited)
        add(&siteTrue, other.siteTrue)
        add(&siteFalse, other.siteFalse)
        add(&codes, other.codes)
        add(&refusals, other.refusals)
        add(&accessory, other.accessory)
        add(&moves, other.moves)
        add(&applies, other.applies)
    }

    static let codeCount = ValidationCode.allCases.count

    public func codeHits(field: Int, _ code: ValidationCode) -> Int {
        codes[field * Self.codeCount + ValidationCode.counted.firstIndex(of: code)!]
    }

    // MARK: What can be covered

    /// The validation codes a field can show (or a refusal can name): `required` for a field
    /// required (or `requiredIf`) that can be empty, `minLength` for a text with a `minLength`
    /// over 1, `maxLength` for a text with a `maxLength` (typing past it is refused).
    public func possibleCodes(_ field: Int) -> [ValidationCode] {
        let definition = flow.fields[field]
        let mayRequire = definition.required || definition.requiredIf != nil
        var codes: [ValidationCode] = []
        switch definition.kind {
        case .text(let options):
            if mayRequire { codes.append(.required) }
            if (options.minLength ?? 0) > 1 { codes.append(.minLength) }
            if options.maxLength != nil { codes.append(.maxLength) }
        case .toggle:
            if mayRequire { codes.append(.required) }
        case .duration, .choice:
            if mayRequire && definition.defaultValue.isNull { codes.append(.required) }
        }
        return codes
    }

    /// The refusal reasons this flow can give (`finish` not where the gate proves it never is:
    /// `finishNeverRefused`).
    public var possibleRefusals: [Refusal] {
        let emptiable = flow.fields.indices.contains { possibleCodes($0).contains { $0 != .maxLength } }
        let limited = flow.fields.indices.contains { possibleCodes($0).contains(.maxLength) }
        var reasons: [Refusal] = []
        if emptiable && flow.paging.gate == .valid { reasons.append(.gate) }
        if emptiable && !Self.finishNeverRefused(flow) { reasons.append(.finish) }
        if limited { reasons.append(.maxLength) }
        if flow.pages.contains(where: { $0.apply != nil }) { reasons.append(.apply) }
        return reasons
    }

    /// Whether `finish` is never refused on `flow`, from any session that starts on its first page
    /// (with any starting values), by this argument (false: it does not apply). It follows
    /// `Session.finish` and `decideFinish`:
    ///
    /// - `finish` is taken only on the last visible page, settled and not applying. It commits
    ///   the open picker, then is refused when a page at or before the current one has an error,
    ///   or (with no errors) when the commit showed pages after it.
    /// - With the gate (`gate: "valid"`) and no `wrap`, no page before the page shown (or headed
    ///   to, or dragged from) has an error: a session starts on page 0; every forward move —
    ///   a step, a dot, skip, a drag's release — is refused while a page it passes has errors
    ///   (hidden pages have none), and a drag that takes over a spring-back from the gate's band
    ///   anchors on the held page; backward moves and animations pass no page; and nothing
    ///   changes a passed page afterwards, since values change only on the page shown (taps and
    ///   focus are refused during a transition, a move resigns the first responder), a host's
    ///   error lands on the page being applied, which is the page headed to, and conditions name
    ///   earlier answers only (the flow format's "no looking ahead"). (A backward wrap would
    ///   reach the last page past no gate.)
    /// - So a refusal needs an error, or an open picker, on the last visible page itself. The
    ///   pages that can be last are the last page without a `visibleIf` and those after it;
    ///   when none of them has a field, there is neither.
    public static func finishNeverRefused(_ flow: Flow) -> Bool {
        guard flow.paging.gate == .valid && !flow.paging.wrap else { return false }
        let last = flow.pages.lastIndex { $0.visibleIf == nil } ?? 0
        return flow.pages[last...].allSatisfy { $0.fieldRange.isEmpty }
    }

    /// The accessory items a person can tap: those of the toolbars of the flow's editable fields.
    public var possibleAccessory: [AccessoryItem] {
        var items = Set<AccessoryItem>()
        for field in flow.fields where field.isEditable {
            items.formUnion(field.accessory ?? flow.accessory ?? AccessoryItem.standard)
        }
        return AccessoryItem.allCases.filter { items.contains($0) && $0 != .flexibleSpace && $0 != .fixedSpace }
    }

    /// The move kinds the flow's paging allows.
    public var possibleMoves: [MoveKind] {
        MoveKind.allCases.filter { kind in
            switch kind {
            case .button, .key, .restart: true
            case .dot: flow.paging.indicatorStyle != .none
            case .drag, .fling: flow.paging.swipe
            case .autoAdvance: flow.paging.autoAdvanceMs > 0
            }
        }
    }

    /// How an apply can end, in a flow with `apply` pages: every way (a timeout only where a
    /// page has `timeoutMs`).
    public var possibleApplyOutcomes: [ApplyOutcome] {
        let pages = flow.pages.compactMap(\.apply)
        guard !pages.isEmpty else { return [] }
        let timed = pages.contains { $0.timeoutMs > 0 }
        return ApplyOutcome.allCases.filter { $0 != .timedOut || timed }
    }

    // MARK: Summary

    public struct Category: Sendable, Hashable {
        public var name: String
        public var covered: Int
        public var total: Int

        public var percent: Double { total == 0 ? 100 : Double(covered) * 100 / Double(total) }
    }

    /// An item not covered: where, and what.
    public struct Gap: Sendable, Hashable {
        public var path: JSONPath
        public var message: String
    }

    /// Per category: covered and total.
    public var categories: [Category] {
        var list: [Category] = []
        list.append(Category(name: "pages", covered: pageCurrent.count { $0 > 0 }, total: flow.pages.count))
        list.append(
            Category(
                name: "fields", covered: flow.fields.indices.count { fieldFocused[$0] > 0 || fieldEdited[$0] > 0 },
                total: flow.fields.count))
        list.append(
            Category(
                name: "conditions", covered: siteTrue.count { $0 > 0 } + siteFalse.count { $0 > 0 }, total: sites.count * 2))
        var codesCovered = 0
        var codesTotal = 0
        for field in flow.fields.indices {
            for code in possibleCodes(field) {
                codesTotal += 1
                if codeHits(field: field, code) > 0 { codesCovered += 1 }
            }
        }
        list.append(Category(name: "validation", covered: codesCovered, total: codesTotal))
        let reasons = possibleRefusals
        list.append(
            Category(
                name: "refusals", covered: reasons.count { refusals[Refusal.counted.firstIndex(of: $0)!] > 0 },
                total: reasons.count))
        let items = possibleAccessory
        list.append(
            Category(
                name: "accessory", covered: items.count { accessory[AccessoryItem.counted.firstIndex(of: $0)!] > 0 },
                total: items.count))
        let kinds = possibleMoves
        list.append(
            Category(name: "moves", covered: kinds.count { moves[MoveKind.counted.firstIndex(of: $0)!] > 0 }, total: kinds.count))
        let outcomes = possibleApplyOutcomes
        if !outcomes.isEmpty {
            list.append(
                Category(
                    name: "applies", covered: outcomes.count { applies[ApplyOutcome.counted.firstIndex(of: $0)!] > 0 },
                    total: outcomes.count))
        }
        return list
    }

    /// Every item not covered, in document order of their paths (flow-wide ones at the root).
    public var gaps: [Gap] {
        var gaps: [Gap] = []
        for (page, hits) in pageCurrent.enumerated() where hits == 0 {
            gaps.append(Gap(path: .root + "pages" + page, message: "page '\(flow.pages[page].id)' was never current"))
        }
        for field in flow.fields.indices {
            let id = flow.fields[field].id
            if fieldFocused[field] == 0 && fieldEdited[field] == 0 {
                gaps.append(Gap(path: flow.path(ofField: field), message: "field '\(id)' was never focused or edited"))
            }
            for code in possibleCodes(field) where codeHits(field: field, code) == 0 {
                gaps.append(Gap(path: flow.path(ofField: field), message: "field '\(id)' never showed '\(code.rawValue)'"))
            }
        }
        for (at, site) in sites.enumerated() {
            let missing = [siteTrue[at] == 0 ? "true" : nil, siteFalse[at] == 0 ? "false" : nil].compactMap { $0 }
            guard !missing.isEmpty else { continue }
            gaps.append(Gap(path: site.path, message: "\(site.key.rawValue) was never \(missing.joined(separator: " or "))"))
        }
        for reason in possibleRefusals where refusals[Refusal.counted.firstIndex(of: reason)!] == 0 {
            gaps.append(Gap(path: .root, message: "no move was refused for '\(reason.rawValue)'"))
        }
        for item in possibleAccessory where accessory[AccessoryItem.counted.firstIndex(of: item)!] == 0 {
            gaps.append(Gap(path: .root, message: "the accessory item '\(item.rawValue)' was never used"))
        }
        for kind in possibleMoves where moves[MoveKind.counted.firstIndex(of: kind)!] == 0 {
            gaps.append(Gap(path: .root, message: "no page move by '\(kind.rawValue)'"))
        }
        for outcome in possibleApplyOutcomes where applies[ApplyOutcome.counted.firstIndex(of: outcome)!] == 0 {
            gaps.append(Gap(path: .root, message: "no apply ended '\(outcome.rawValue)'"))
        }
        return gaps
    }
}

/// Empty coverage of each flow file, made once per run and copied for each script (its counters
/// are written in place only once a script counts something): a script does not list the flow's
/// conditions again or normalize its path.
///
/// Shared by every job of a run, it also holds the run to one reading of each flow file: each job
/// reads its own flows (and may read one again once its cache let it go), so a file that changed
/// during the run can reach two scripts as two flows. The first reading is the one counted; a
/// script whose flow was read otherwise gets no template (`nil`), since its counters would count
/// other pages, fields and conditions.
public final class CoverageTemplates: Sendable {
    private let templates = Locked([String: FlowCoverage]())

    public init() {}

    func template(file: String, flow: Flow) -> FlowCoverage? {
        let normalized = FileWalker.normalized(file)
        if let known = templates.withLock({ $0[normalized] }) { return known.flow.isSameReading(as: flow) ? known : nil }
        let made = FlowCoverage(file: normalized, flow: flow)
        return templates.withLock { templates in
            // Another job may have made it meanwhile: the first one kept wins.
            let kept = templates[normalized] ?? made
            templates[normalized] = kept
            return kept.flow.isSameReading(as: flow) ? kept : nil
        }
    }
}

/// Records one script's coverage as the runner replays it.
struct CoverageRecorder {
    var coverage: FlowCoverage
    /// The flow, read in place (not copied out of `coverage` for each event).
    let flow: Flow
    private var lastPage = -1

    init(_ template: FlowCoverage) {
        coverage = template
        coverage.scripts = 1
        flow = template.flow
    }

    /// Reads the session as it stands: the current page, each condition's outcome, the errors shown.
    mutating func observe(_ session: Session) {
        let page = session.currentPageIndex
        if page != lastPage {
            coverage.pageCurrent[page] += 1
            lastPage = page
        }
        for (at, site) in coverage.sites.enumerated() {
            switch session.outcome(of: site) {
            case true?: coverage.siteTrue[at] += 1
            case false?: coverage.siteFalse[at] += 1
            case nil: break
            }
        }
        // (A host's own codes, from a failed apply, are not the flow's to cover.)
        session.forEachShownError { field, code in
            if let at = ValidationCode.counted.firstIndex(of: code) { coverage.codes[field * FlowCoverage.codeCount + at] += 1 }
        }
    }

    /// An event and what it emitted, then the session after it. An event that emitted nothing,
    /// or only `ignored` (an event that does not apply changes nothing), changed nothing coverage
    /// reads (no page, value, focus or error changed), and the session is not read.
    mutating func record(_ event: Event, emitted: [SessionNotification], driver: SessionDriver) {
        guard !emitted.isEmpty else { return }
        tally(event, emitted: emitted)
        guard emitted.contains(where: { if case .ignored = $0 { false } else { true } }) else { return }
        observe(driver.session)
    }

    private mutating func tally(_ event: Event, emitted: [SessionNotification]) {
        var ignored = false
        for notification in emitted {
            switch notification {
            case .pageWillChange:
                if let kind = MoveKind.of(event, paging: flow.paging) { coverage.moves[MoveKind.counted.firstIndex(of: kind)!] += 1 }
            case .applyFinished(_, let outcome):
                coverage.applies[ApplyOutcome.counted.firstIndex(of: outcome)!] += 1
            case .focusChanged(_, let to?):
                if let field = flow.fieldIndex(of: to) { coverage.fieldFocused[field] += 1 }
            case .valueChanged(let id, _):
                if let field = flow.fieldIndex(of: id) { coverage.fieldEdited[field] += 1 }
            case .refused(let reason, let errors):
                coverage.refusals[Refusal.counted.firstIndex(of: reason)!] += 1
                for error in errors {
                    if let field = flow.fieldIndex(of: error.field), let at = ValidationCode.counted.firstIndex(of: error.code) {
                        coverage.codes[field * FlowCoverage.codeCount + at] += 1
                    }
                }
            case .ignored:
                ignored = true
            default:
                break
            }
        }
        if case .tap(.accessory(let item)) = event, !ignored {
            coverage.accessory[AccessoryItem.counted.firstIndex(of: item)!] += 1
        }
    }

    mutating func restarted(_ session: Session) {
        coverage.moves[MoveKind.counted.firstIndex(of: .restart)!] += 1
        observe(session)
    }
}

extension FileWalker {
    /// `path` with `.` parts and `folder/..` pairs taken out (lexically: links are not followed),
    /// so scripts in different folders that name the same flow file merge their coverage.
    public static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == ".." && absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
