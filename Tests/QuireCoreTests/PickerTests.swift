import Testing

@testable import QuireCore

func durationFlow(_ field: String) throws -> Flow {
    try makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [\#(field)]}]}"#)
}

@Suite struct DurationTests {
    @Test func wheelsWrapWithinThemselvesAndNeverCarry() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "minuteInterval": 5, "default": 6900}"#))
        session.run(tapField("d"))
        #expect(session.at("input.wheels") == ["hours": 1, "minutes": 55])
        session.run(.spin(component: .minutes, by: 1))
        #expect(session.at("input.wheels") == ["hours": 1, "minutes": 0])
        session.run(.spin(component: .hours, by: -2))
        #expect(session.at("input.wheels") == ["hours": 23, "minutes": 0])
    }

    /// A wheel offers only values the picker can take: with `max` 2 h the hours wheel holds 0–2,
    /// not 0–23 (a person turning it to 9 saw it jump back to 2 h 00).
    @Test func wheelsOfferOnlyReachableValues() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "minuteInterval": 5, "min": 300, "max": 7200}"#))
        session.run(tapField("d"))
        let wheels = session.presentation["chrome"]?["input"]?["wheels"]?.arrayValue
        #expect(wheels?[0]["values"] == [0, 1, 2])
        #expect(wheels?[1]["values"]?.arrayValue?.count == 12)
        var short = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "minuteInterval": 5, "min": 600, "max": 1500}"#))
        short.run(tapField("d"))
        let narrow = short.presentation["chrome"]?["input"]?["wheels"]?.arrayValue
        #expect(narrow?[0]["values"] == [0])
        #expect(narrow?[1]["values"] == [10, 15, 20, 25])
        // Down on 0 still wraps within the wheel (CONTRACT §2) and lands on the largest value.
        session.run(.key(.down))
        #expect(session.at("input.draft") == 7200)
        #expect(session.presentation["chrome"]?["input"]?["wheels"]?.arrayValue?[0]["selectedIndex"] == 2)
    }

    @Test func aDraftBelowMinSnapsUpToTheSmallestValueTheWheelsShow() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "minuteInterval": 5, "default": 300}"#))
        session.run(tapField("d"), .spin(component: .minutes, by: -1))
        #expect(session.at("input.draft") == 300)  // 0:00 is below min 60: 5 min is the smallest at least 60
    }

    @Test func aDraftAboveMaxClampsDownToTheLargestValueTheWheelsShow() throws {
        var session = try Session(
            flow: durationFlow(#"{"id": "d", "kind": "duration", "minuteInterval": 15, "max": 5000, "default": 3600}"#))
        session.run(tapField("d"), .spin(component: .minutes, by: 2))
        #expect(session.at("input.draft") == 4500)  // 1:30 is above 5000 s: 1:15 is the largest at most 5000
    }

    @Test func aPickerOnAFieldWithNoValueStartsAtTheSnappedMin() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "minuteInterval": 10, "min": 61}"#))
        #expect(session.at("values.d") == .null)
        session.run(tapField("d"))
        #expect(session.at("input.draft") == 600)
    }

    @Test func aDefaultIsTheStartingValue() throws {
        let session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 1500}"#))
        #expect(session.at("values.d") == 1500)
    }

    @Test func aSecondsWheelIsOptional() throws {
        var session = try Session(
            flow: durationFlow(#"{"id": "d", "kind": "duration", "components": ["hours", "minutes", "seconds"], "default": 90, "min": 1}"#))
        session.run(tapField("d"))
        #expect(session.at("input.wheels") == ["hours": 0, "minutes": 1, "seconds": 30])
        session.run(.spin(component: .seconds, by: 45))
        #expect(session.at("input.draft") == 75)
    }

    @Test func minZeroMakesZeroSelectable() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "min": 0, "default": 60}"#))
        session.run(tapField("d"), .spin(component: .minutes, by: -1), .tap(.accessory(.done)))
        #expect(session.at("values.d") == 0)
    }

    @Test func arrowKeysSelectAWheelAndTurnIt() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 3600}"#))
        session.run(tapField("d"))
        #expect(session.at("input.selectedWheel") == "hours")
        session.run(.key(.up))
        #expect(session.at("input.draft") == 7200)
        session.run(.key(.right), .key(.down))
        #expect(session.at("input.selectedWheel") == "minutes")
        #expect(session.at("input.draft") == 10740)
        #expect(session.send(.key(.right)).first?.ignoredReason == .atEnd)
    }

    @Test func cancelAndEscapeRestoreTheValueFromBeforeEditing() throws {
        var session = try Session(
            flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 3600, "accessory": ["cancel", "done"]}"#))
        session.run(tapField("d"), .spin(component: .hours, by: 1))
        #expect(
            session.send(.tap(.accessory(.cancel))) == [.inputDismissed(field: "d", committed: false), .focusChanged(from: "d", to: nil)])
        #expect(session.at("values.d") == 3600)
        session.run(tapField("d"), .spin(component: .hours, by: 1), .key(.escape))
        #expect(session.at("values.d") == 3600)
    }

    @Test func doneAndReturnCommitTheDraft() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 3600}"#))
        session.run(tapField("d"), .spin(component: .hours, by: 1), .tap(.accessory(.done)))
        #expect(session.at("values.d") == 7200)
        session.run(tapField("d"), .spin(component: .hours, by: 1), .key(.return))
        #expect(session.at("values.d") == 10800)
    }

    @Test func aDraftChangeDoesNotChangeTheValue() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 3600}"#))
        session.run(tapField("d"))
        #expect(session.send(.spin(component: .hours, by: 1)) == [.draftChanged(field: "d", draft: 7200)])
        #expect(session.at("values.d") == 3600)
    }

    @Test func spinningWithoutAPickerOrOnAMissingWheelIsIgnored() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 3600}"#))
        #expect(session.send(.spin(component: .hours, by: 1)).first?.ignoredReason == .noDurationPicker)
        session.run(tapField("d"))
        #expect(session.send(.spin(component: .seconds, by: 1)).first?.ignoredReason == .noSuchWheel)
    }

    @Test func typingIntoAPickerIsIgnoredButANewlineActsAsReturn() throws {
        var session = try Session(flow: durationFlow(#"{"id": "d", "kind": "duration", "default": 3600}"#))
        session.run(tapField("d"), .spin(component: .hours, by: 1))
        #expect(session.send(.type("12")).first?.ignoredReason == .notTextInput)
        session.run(.type("\n"))
        #expect(session.at("focus") == .null)
        #expect(session.at("values.d") == 7200)
    }

    @Test(
        arguments: [
            (1, false, 0, 0), (1, false, 59, 60), (5, false, 60, 300), (5, false, 301, 600), (5, false, 3599, 3600),
            (5, false, 86_341, nil), (5, true, 61, 300), (5, true, 301, 301), (1, true, 59, 59),
        ] as [(Int, Bool, Int, Int?)])
    func representableAtLeast(interval: Int, seconds: Bool, value: Int, expected: Int?) {
        let options = DurationOptions(components: seconds ? [.hours, .minutes, .seconds] : [.hours, .minutes], minuteInterval: interval)
        #expect(options.representable(atLeast: value) == expected)
    }

    @Test(
        arguments: [
            (1, false, 86_399, 86_340), (5, false, 86_399, 86_100), (5, false, 299, 0), (5, true, 299, 59), (15, true, 1000, 959),
        ] as [(Int, Bool, Int, Int?)])
    func representableAtMost(interval: Int, seconds: Bool, value: Int, expected: Int?) {
        let options = DurationOptions(components: seconds ? [.hours, .minutes, .seconds] : [.hours, .minutes], minuteInterval: interval)
        #expect(options.representable(atMost: value) == expected)
    }
}

@Suite struct ChoiceTests {
    @Test func aListOpenedWithNoValueStartsAtTheFirstOption() throws {
        var session = try onForm()
        session.run(tapField("color"))
        #expect(
            session.at("input") == [
                "field": "color", "view": "choiceList", "draft": "red",
                "accessory": [
                    ["item": "previous", "enabled": true], ["item": "next", "enabled": false],
                    ["item": "flexibleSpace", "enabled": true], ["item": "done", "enabled": true],
                ],
            ])
    }

    @Test func selectSetsTheDraftAndDoneCommitsIt() throws {
        var session = try onForm()
        session.run(tapField("color"), .select("green"))
        #expect(session.at("values.color") == .null)
        session.run(.tap(.accessory(.done)))
        #expect(session.at("values.color") == "green")
    }

    @Test func downAndUpMoveTheDraftAndStopAtTheEnds() throws {
        var session = try onForm()
        session.run(tapField("color"))
        #expect(session.send(.key(.up)).first?.ignoredReason == .atEnd)
        session.run(.key(.down), .key(.down))
        #expect(session.at("input.draft") == "blue")
        #expect(session.send(.key(.down)).first?.ignoredReason == .atEnd)
    }

    @Test func selectingAnUnknownOptionOrWithNoListIsIgnored() throws {
        var session = try onForm()
        #expect(session.send(.select("red")).first?.ignoredReason == .noChoiceList)
        session.run(tapField("color"))
        #expect(session.send(.select("purple")).first?.ignoredReason == .unknownOption)
    }
}

@Suite struct ToggleTests {
    @Test func aTapFlipsTheValue() throws {
        var session = try onForm()
        #expect(session.send(tapField("agree")) == [.valueChanged(field: "agree", value: true)])
        #expect(session.send(tapField("agree")) == [.valueChanged(field: "agree", value: false)])
    }

    @Test func aToggleResignsTheFirstResponderCommittingItsDraftFirst() throws {
        var session = try onForm()
        session.run(tapField("color"), .select("blue"))
        #expect(
            session.run(tapField("agree")) == ["inputDismissed", "valueChanged", "focusChanged", "valueChanged"])
        #expect(session.at("values.color") == "blue")
        #expect(session.at("values.agree") == true)
    }
}
