/// What a person sees of a session, as the state's keys: what `quire run --record`'s "expect
/// what is on screen" key (Ctrl+E) writes into the recording as an `expect` (issue 38 item 4).
extension Session {
    /// The page shown (index, id, count), the field being edited (`focus`), the values of the
    /// fields shown on that page, the errors shown (`{}` when none: an `expect` then asserts
    /// that none is), the buttons, and `completed` once the walkthrough is over.
    ///
    /// **Decision:** only the page's own fields' values — the others are not on screen, and an
    /// expectation of them would break when a page the author never looked at changes. Not the
    /// position, the transition nor the input panel's wheels: what the author checks by looking
    /// is where they are and what they entered, not the frame the key was pressed in.
    public var onScreen: JSONObject {
        var object = JSONObject(minimumCapacity: 6)
        object.append("page", stateValue(.page))
        object.append("focus", stateValue(.focus))
        var values = JSONObject()
        for field in flow.pages[pager.currentPage].fieldRange where answers.fieldVisible[field] {
            values.append(flow.fieldIDs[field], flow.fields[field].json(answers.values[field]))
        }
        object.append("values", .object(values))
        object.append("errors", stateValue(.errors))
        object.append("buttons", stateValue(.buttons))
        if completion != nil { object.append("completed", stateValue(.completed)) }
        return object
    }
}
