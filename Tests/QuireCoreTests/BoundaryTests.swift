import Testing

@testable import QuireCore

/// Limits are inclusive: a value at a bound is valid and one past it is not. (One past `max` or
/// `maxLength` cannot be reached through the session, whose picker clamps and whose typing is
/// refused, so the rule itself is checked here; the scripts in data/sessions/validation check the
/// bound through the session.)
@Suite struct BoundaryTests {
    let flow: Flow

    init() throws {
        flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "bounds", "pages": [{"id": "p", "fields": [
              {"id": "tag", "kind": "text", "minLength": 2, "maxLength": 4},
              {"id": "time", "kind": "duration", "components": ["hours", "minutes", "seconds"], "min": 30, "max": 3600}]}]}
            """#)
    }

    func error(_ field: String, _ value: FieldValue) -> ValidationCode? {
        flow.fieldTraits[flow.fieldIndex(of: field)!].validate(value, length: value.textLength, required: false)
    }

    @Test func textOfExactlyMaxLengthIsValidAndOneMoreIsNot() {
        #expect(error("tag", .text("abcd")) == nil)
        #expect(error("tag", .text("abcde")) == .maxLength)
        #expect(error("tag", .text("e\u{301}👍🏽👨‍👩‍👧🇯🇵")) == nil)  // 4 clusters, 15 code points
    }

    @Test func textOfExactlyMinLengthIsValidAndOneLessIsNot() {
        #expect(error("tag", .text("ab")) == nil)
        #expect(error("tag", .text("a")) == .minLength)
    }

    @Test func minLengthCountsGraphemeClusters() {
        #expect(error("tag", .text("e\u{301}")) == .minLength)  // one cluster, two code points
        #expect(error("tag", .text("👨‍👩‍👧")) == .minLength)  // one cluster, five code points
        #expect(error("tag", .text("e\u{301}👨‍👩‍👧")) == nil)
    }

    @Test func aDurationOfExactlyMaxOrMinIsValidAndOnePastIsNot() {
        #expect(error("time", .duration(3600)) == nil)
        #expect(error("time", .duration(3601)) == .max)
        #expect(error("time", .duration(30)) == nil)
        #expect(error("time", .duration(29)) == .min)
    }

    @Test func greaterThanAndLessThanAreFalseAtTheirBound() {
        let time = flow.fieldIndex(of: "time")!
        func holds(_ condition: Condition, _ seconds: Int) -> Bool { condition.evaluate { _ in .duration(seconds) } }
        #expect(!holds(.greaterThan(field: time, 120), 120))
        #expect(holds(.greaterThan(field: time, 120), 121))
        #expect(!holds(.lessThan(field: time, 120), 120))
        #expect(holds(.lessThan(field: time, 120), 119))
    }
}
