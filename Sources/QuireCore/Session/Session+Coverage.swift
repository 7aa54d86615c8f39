/// What coverage (`quire test --coverage`) and the flow map read of a flow and a session: the
/// flow's conditions as sites with their JSON paths, and how each is decided now.

/// A condition of a flow where it is written: a page's `visibleIf`, or a field's `visibleIf`,
/// `enabledIf` or `requiredIf`.
public struct ConditionSite: Sendable, Hashable {
    public enum Key: String, Sendable, Hashable, CaseIterable {
        case visibleIf, enabledIf, requiredIf
    }

    /// The page the condition is on (the page itself, or its field's page).
    public let page: Int
    /// The field, for a field's condition.
    public let field: Int?
    public let key: Key
    public let condition: Condition
    /// `$.pages[P].visibleIf`, `$.pages[P].fields[F].enabledIf`, …
    public let path: JSONPath
    /// A `requiredIf` of a field that is `required` anyway (its outcome is not in the flags).
    let requiredAnyway: Bool

    init(page: Int, field: Int?, key: Key, condition: Condition, path: JSONPath, requiredAnyway: Bool = false) {
        self.page = page
        self.field = field
        self.key = key
        self.condition = condition
        self.path = path
        self.requiredAnyway = requiredAnyway
    }
}

extension Flow {
    /// Every condition of the flow, in document order.
    public var conditionSites: [ConditionSite] {
        var sites: [ConditionSite] = []
        for (pageIndex, page) in pages.enumerated() {
            let pagePath = JSONPath.root + "pages" + pageIndex
            if let condition = page.visibleIf {
                sites.append(
                    ConditionSite(page: pageIndex, field: nil, key: .visibleIf, condition: condition, path: pagePath + "visibleIf"))
            }
            for field in page.fieldRange {
                let path = pagePath + "fields" + (field - page.fieldRange.lowerBound)
                let definition = fields[field]
                for (key, condition) in [
                    (ConditionSite.Key.visibleIf, definition.visibleIf), (.enabledIf, definition.enabledIf),
                    (.requiredIf, definition.requiredIf),
                ] {
                    if let condition {
                        sites.append(
                            ConditionSite(
                                page: pageIndex, field: field, key: key, condition: condition, path: path + key.rawValue,
                                requiredAnyway: definition.required))
                    }
                }
            }
        }
        return sites
    }

    /// `$.pages[P].fields[F]` of a field.
    public func path(ofField field: Int) -> JSONPath {
        let page = fields[field].page
        return JSONPath.root + "pages" + page + "fields" + (field - pages[page].fieldRange.lowerBound)
    }

    /// Whether a condition names a field.
    public func fieldsNamed(by condition: Condition) -> [Int] {
        var named: [Int] = []
        condition.forEachField { if !named.contains($0) { named.append($0) } }
        return named
    }
}

extension Session {
    /// The page shown when settled, as an index of `flow.pages`.
    public var currentPageIndex: Int { pager.currentPage }

    /// The first responder, as an index of `flow.fields`.
    public var firstResponderIndex: Int? { focusChain.hasInput ? focusChain.field : nil }

    /// How `site`'s condition is decided now, or nil while it does not matter: a field's
    /// `visibleIf` while its page is hidden, its `enabledIf` and `requiredIf` while it is hidden.
    public func outcome(of site: ConditionSite) -> Bool? {
        // Read from the flags the session keeps up to date (each is its condition's value as
        // last evaluated), without evaluating anything: coverage reads every condition after
        // every event.
        guard let field = site.field else { return answers.pageVisible[site.page] }
        guard answers.pageVisible[site.page] else { return nil }
        switch site.key {
        case .visibleIf:
            return answers.fieldVisible[field]
        case .enabledIf:
            return answers.fieldVisible[field] ? answers.fieldEnabled[field] : nil
        case .requiredIf:
            guard answers.fieldVisible[field] else { return nil }
            if !site.requiredAnyway { return answers.fieldRequired[field] }
            return site.condition.evaluate { effectiveValue($0) }
        }
    }

    /// Calls `body` with each revealed error (field index and code), in field order.
    public func forEachShownError(_ body: (Int, ValidationCode) -> Void) {
        for field in flow.fields.indices where answers.touched[field] {
            if let code = answers.fieldError[field] { body(field, code) }
        }
    }
}
