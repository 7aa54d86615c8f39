/// The answers and what they derive: one value per field with its text length and whether its
/// errors are shown, and per page and field what the conditions and validation say now.
///
/// It changes only its own arrays; the propagation that decides what to store is the session's
/// (`Derivation`, Session+Conditions.swift). Sized at load and updated in place, so a keystroke
/// or a page move costs the same whatever the size of the flow.
struct Answers: Sendable, Equatable {
    private(set) var values: [FieldValue]
    /// The length of each text answer in grapheme clusters (0 for other fields), kept as text is
    /// typed so a keystroke costs the same however long the answer is.
    private(set) var textLengths: [Int]
    /// The length of each text answer in Unicode scalars (0 for other fields), kept beside
    /// `textLengths` so an `edit` finds its offsets from the nearer end of the text.
    private(set) var scalarCounts: [Int]
    /// Fields whose errors are shown: edited and resigned, or named by a refused gate or finish.
    private(set) var touched: [Bool]
    /// Errors a host put on fields with a failed apply, each kept until its field's value
    /// changes (CONTRACT §6.1).
    private(set) var hostErrors: [Int: HostError] = [:]

    // Derived from the values (rebuilt on restore, kept up to date by the session's propagation).
    private(set) var pageVisible: [Bool]
    private(set) var fieldVisible: [Bool]
    private(set) var fieldEnabled: [Bool]
    private(set) var fieldRequired: [Bool]
    private(set) var fieldError: [ValidationCode?]
    private(set) var pageErrorCount: [Int32]
    private(set) var visiblePages: FenwickTree
    private(set) var pagesWithErrors: FenwickTree

    /// Answers with nothing derived yet: every page and field hidden and without errors.
    init(pageCount: Int, values: [FieldValue], textLengths: [Int]) {
        let fieldCount = values.count
        self.values = values
        self.textLengths = textLengths
        scalarCounts = values.map { if case .text(let text) = $0 { text.unicodeScalars.count } else { 0 } }
        touched = [Bool](repeating: false, count: fieldCount)
        pageVisible = [Bool](repeating: false, count: pageCount)
        fieldVisible = [Bool](repeating: false, count: fieldCount)
        fieldEnabled = [Bool](repeating: true, count: fieldCount)
        fieldRequired = [Bool](repeating: false, count: fieldCount)
        fieldError = [ValidationCode?](repeating: nil, count: fieldCount)
        pageErrorCount = [Int32](repeating: 0, count: pageCount)
        visiblePages = FenwickTree(count: pageCount)
        pagesWithErrors = FenwickTree(count: pageCount)
    }

    mutating func set(_ field: Int, _ value: FieldValue) { values[field] = value }

    /// Edits text field `field`'s answer where it is stored (no copy of the text), which is then
    /// `clusters` grapheme clusters long and has `scalars` Unicode scalars more (or fewer).
    /// Returns the new text.
    mutating func editText(_ field: Int, clusters: Int, scalars: Int, _ edit: (inout String) -> Void) -> String {
        textLengths[field] = clusters
        scalarCounts[field] += scalars
        return values[field].editText(edit)
    }

    /// The field's error is shown from now on.
    mutating func reveal(_ field: Int) { touched[field] = true }

    /// A snapshot's touched marks.
    mutating func restore(touched: [Bool]) { self.touched = touched }

    mutating func setHostError(_ field: Int, _ error: HostError) { hostErrors[field] = error }

    /// The field's value changed: a host's error on it no longer applies.
    mutating func dropHostError(_ field: Int) {
        if !hostErrors.isEmpty { hostErrors[field] = nil }
    }

    mutating func setPageVisible(_ page: Int, _ visible: Bool) {
        pageVisible[page] = visible
        visiblePages.add(page, visible ? 1 : -1)
    }

    mutating func setFlags(_ field: Int, visible: Bool, enabled: Bool, required: Bool) {
        fieldVisible[field] = visible
        fieldEnabled[field] = enabled
        fieldRequired[field] = required
    }

    /// Sets a field's error, counting errors per page.
    mutating func setError(_ field: Int, onPage page: Int, _ error: ValidationCode?) {
        let old = fieldError[field]
        fieldError[field] = error
        if old == nil {
            pageErrorCount[page] += 1
            if pageErrorCount[page] == 1 { pagesWithErrors.add(page, 1) }
        } else if error == nil {
            pageErrorCount[page] -= 1
            if pageErrorCount[page] == 0 { pagesWithErrors.add(page, -1) }
        }
    }

    /// Sets a page's visibility while everything is being evaluated from scratch; the page trees
    /// are built once at the end (`rebuildPageTrees`).
    mutating func resetPageVisible(_ page: Int, _ visible: Bool) { pageVisible[page] = visible }

    mutating func rebuildPageTrees() {
        visiblePages = FenwickTree(flags: pageVisible)
        pagesWithErrors = FenwickTree(flags: pageErrorCount.map { $0 > 0 })
    }

    // MARK: Reading

    /// How many pages are visible.
    var visibleCount: Int { visiblePages.total }
    /// How many visible pages come before `page`.
    func visibleIndex(ofPage page: Int) -> Int { visiblePages.prefix(page) }
    func page(atVisible index: Int) -> Int { visiblePages.find(index) }

    func nextVisiblePage(after page: Int) -> Int? {
        let before = visiblePages.prefix(page + 1)
        return before < visiblePages.total ? visiblePages.find(before) : nil
    }

    func previousVisiblePage(before page: Int) -> Int? {
        let before = visiblePages.prefix(page)
        return before > 0 ? visiblePages.find(before - 1) : nil
    }

    func pageHasErrors(_ page: Int) -> Bool { pageErrorCount[page] > 0 }

    func nextPageWithErrors(from page: Int) -> Int? {
        let before = pagesWithErrors.prefix(page)
        return before < pagesWithErrors.total ? pagesWithErrors.find(before) : nil
    }
}
