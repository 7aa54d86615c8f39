import Foundation
import Testing

@testable import QuireCore

/// `Session(flow:startingWith:)`: a walkthrough run again starts from the answers given (issue 20).
@Suite struct StartingValuesTests {
    @Test func valuesTheFieldsCanHoldReplaceTheDefaults() throws {
        let flow = try demoFlow()
        var values = JSONObject()
        values.append("userName", "Aki")
        values.append("feedLanguage", "ja")
        values.append("focusTime", .number(2700))
        values.append("reminders", .bool(false))
        let session = Session(flow: flow, locale: "en", startingWith: values)
        #expect(session.stateValue("values") == .object(values.appending("remindAfter", .number(90))))
        // A fresh start otherwise: page one, nothing touched or focused, the reminder page hidden.
        #expect(session.currentIndex == 0)
        #expect(session.pageCount == 4)
        #expect(session.stateValue("errors") == .object(JSONObject()))
        #expect(session.stateValue("focus") == .null)
    }

    @Test func whatAFieldCannotHoldLeavesItsDefault() throws {
        let flow = try demoFlow()
        var values = JSONObject()
        values.append("userName", .string(String(repeating: "x", count: 41)))  // maxLength 40
        values.append("feedLanguage", "fr")  // not an option
        values.append("focusTime", .number(1501))  // not on the 5-minute wheels
        values.append("reminders", "yes")  // another kind
        values.append("nobody", .number(1))  // no such field
        let session = Session(flow: flow, startingWith: values)
        #expect(session == Session(flow: flow))
        var cleared = JSONObject()
        cleared.append("feedLanguage", .null)
        #expect(Session(flow: flow, startingWith: cleared).stateValue("values")?["feedLanguage"] == .null)
        // At the limit it is taken.
        var forty = JSONObject()
        forty.append("userName", .string(String(repeating: "é", count: 40)))
        #expect(Session(flow: flow, startingWith: forty).stateValue("values")?["userName"] == .string(String(repeating: "é", count: 40)))
    }

    @Test func anEmptyObjectIsAFreshSession() throws {
        let flow = try demoFlow()
        #expect(Session(flow: flow, locale: "ja", startingWith: JSONObject()) == Session(flow: flow, locale: "ja"))
    }
}

extension JSONObject {
    fileprivate func appending(_ key: String, _ value: JSONValue) -> JSONObject {
        var copy = self
        copy.append(key, value)
        return copy
    }
}
