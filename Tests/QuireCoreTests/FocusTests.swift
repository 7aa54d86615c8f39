import Testing

@testable import QuireCore

/// A session on the "form" page of `formFlow`.
func onForm(_ paging: String = #"{"animationMs": 0}"#) throws -> Session {
    var session = try Session(flow: formFlow(paging: paging))
    session.run(next)
    return session
}

@Suite struct FocusTests {
    /// A tap target's name is a field id unless it has a prefix this module knows; ids have no
    /// `:`, so a name with one anywhere (however it is composed) names nothing.
    @Test func aNameWithAColonIsNoFieldTarget() {
        #expect(TapTarget("userName") == .field("userName"))
        for name in ["a:b", ":", "name:", "x:\u{301}", ":\u{301}y", "button:", "accessory:later", "indicator:x"] {
            #expect(TapTarget(name) == nil, "\(name.debugDescription)")
        }
    }

    @Test func tappingAFieldMakesItFirstResponderAndPresentsItsInputView() throws {
        var session = try onForm()
        let notes = session.send(tapField("name"))
        #expect(notes == [.focusChanged(from: nil, to: "name"), .inputPresented(field: "name", view: .keyboard)])
        #expect(session.at("focus") == "name")
        #expect(session.at("input.view") == "keyboard")
    }

    @Test func tappingAnotherFieldMovesFocusWithOneFocusChange() throws {
        var session = try onForm()
        session.run(tapField("name"))
        let notes = session.send(tapField("time"))
        #expect(
            notes == [
                .inputDismissed(field: "name", committed: true), .focusChanged(from: "name", to: "time"),
                .inputPresented(field: "time", view: .durationPicker),
            ])
    }

    @Test func aFieldOnAnotherPageCannotBecomeFirstResponder() throws {
        var session = try Session(flow: formFlow())
        #expect(session.send(tapField("name")).first?.ignoredReason == .otherPage)
        #expect(session.at("focus") == .null)
    }

    @Test func hiddenAndDisabledFieldsCannotBecomeFirstResponder() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f",
             "pages": [{"id": "a", "fields": [
               {"id": "on", "kind": "toggle", "default": false},
               {"id": "shown", "kind": "text", "visibleIf": {"field": "on", "equals": true}},
               {"id": "usable", "kind": "text", "enabledIf": {"field": "on", "equals": true}}]}]}
            """#)
        var session = Session(flow: flow)
        #expect(session.send(tapField("shown")).first?.ignoredReason == .hidden)
        #expect(session.send(tapField("usable")).first?.ignoredReason == .disabled)
        session.run(tapField("on"), tapField("usable"))
        #expect(session.at("focus") == "usable")
    }

    @Test func tappingAnOpenPickerAgainCommitsAndResigns() throws {
        var session = try onForm()
        session.run(tapField("color"), .select("blue"))
        let notes = session.send(tapField("color"))
        #expect(
            notes == [
                .inputDismissed(field: "color", committed: true), .valueChanged(field: "color", value: "blue"),
                .focusChanged(from: "color", to: nil),
            ])
    }

    @Test func tappingTheFocusedTextFieldKeepsIt() throws {
        var session = try onForm()
        session.run(tapField("name"))
        #expect(session.send(tapField("name")).isEmpty)
        #expect(session.at("focus") == "name")
    }

    @Test func tappingTheBackgroundResigns() throws {
        var session = try onForm()
        session.run(tapField("name"))
        #expect(session.run(.tap(.background)) == ["inputDismissed", "focusChanged"])
        #expect(session.send(.tap(.background)).first?.ignoredReason == .noFirstResponder)
    }

    @Test func tabMovesThroughEditableFieldsAndLeavesTheChainAtTheEnd() throws {
        var session = try onForm()
        session.run(.key(.tab))
        #expect(session.at("focus") == "name")
        session.run(.key(.tab), .key(.tab))
        #expect(session.at("focus") == "color")
        // Past the last field (the toggle is skipped) the field resigns: no wrapping. Its list was
        // passed through, never changed, on a field with no value: nothing is chosen (§6.5).
        let emitted = session.send(.key(.tab))
        #expect(emitted.map(\.name) == ["inputDismissed", "focusChanged"])
        #expect(session.at("values.color") == .null)
        #expect(session.at("focus") == .null)
        #expect(session.keyboardFocus(after: .key(.tab), emitted: emitted) == .stop(.toggle("agree")))
        #expect(session.keyboardStops == [.cancel, .toggle("agree"), .back, .indicator, .skip, .next])
        session.run(.key(.tab))
        #expect(session.at("focus") == "name")
    }

    @Test func shiftTabWithNothingFocusedFocusesTheLastAndLeavesTheChainAtTheFirst() throws {
        var session = try onForm()
        session.run(.key(.shiftTab))
        #expect(session.at("focus") == "color")
        session.run(.key(.shiftTab), .key(.shiftTab))
        #expect(session.at("focus") == "name")
        session.run(.key(.shiftTab))
        #expect(session.at("focus") == .null)
        session.run(.key(.shiftTab))
        #expect(session.at("focus") == "color")
    }

    /// A refusal notice's button is a stop between Cancel and the chain while it is shown, so a
    /// keyboard user reaches "Go to page N" with Tab; without a notice it is not there.
    @Test func aShownNoticeIsAStopBetweenCancelAndTheChain() throws {
        let session = try onForm()
        let (stops, before) = session.keyboardStops(noticeShown: true)
        #expect(stops == [.cancel, .notice] + session.keyboardStops.dropFirst())
        #expect(before == 2)
        #expect(session.keyboardStep(from: .cancel, forward: true, noticeShown: true) == .stop(.notice))
        #expect(session.keyboardStep(from: .notice, forward: true, noticeShown: true) == .chain)
        #expect(session.keyboardStep(from: .notice, forward: false, noticeShown: true) == .stop(.cancel))
        #expect(session.keyboardStep(from: stops[2], forward: false, noticeShown: true) == .chain)
        #expect(session.keyboardStep(from: .cancel, forward: true) == .chain)
        #expect(!session.keyboardStops.contains(.notice))
        #expect(KeyboardStop.notice.name == "notice")
    }

    @Test func keyboardStepsGoRoundTheStopsAndBackIntoTheChain() throws {
        var session = try onForm()
        let stops = session.keyboardStops
        // Cancel (the header bar) first; the chain sits between it and the rest.
        #expect(stops.first == .cancel)
        #expect(session.keyboardStep(from: .cancel, forward: true) == .chain)
        #expect(session.keyboardStep(from: stops[1], forward: false) == .chain)
        #expect(session.keyboardStep(from: stops[1], forward: true) == .stop(stops[2]))
        #expect(session.keyboardStep(from: stops.last, forward: true) == .stop(.cancel))
        #expect(session.keyboardStep(from: .cancel, forward: false) == .stop(stops[stops.count - 1]))
        // shift+Tab before the first field lands on Cancel, Tab past the last on the stop after it.
        var back = session
        back.run(.key(.tab))
        let emitted = back.send(.key(.shiftTab))
        #expect(back.keyboardFocus(after: .key(.shiftTab), emitted: emitted) == .stop(.cancel))
        // A page without editable fields goes round its stops.
        session = try Session(flow: formFlow())
        let first = session.keyboardStops
        #expect(session.keyboardStep(from: first.last, forward: true) == .stop(first[0]))
        #expect(session.keyboardStep(from: first.first, forward: false) == .stop(first[first.count - 1]))
    }

    @Test func tabOnAPageWithoutEditableFieldsIsIgnored() throws {
        var session = try Session(flow: formFlow())
        #expect(session.send(.key(.tab)).first?.ignoredReason == .noEditableField)
    }

    @Test func accessoryPreviousAndNextAreDisabledAtTheEnds() throws {
        var session = try onForm()
        session.run(tapField("name"))
        #expect(
            session.at("input.accessory")
                == [
                    ["item": "previous", "enabled": false], ["item": "next", "enabled": true],
                    ["item": "flexibleSpace", "enabled": true], ["item": "done", "enabled": true],
                ])
        #expect(session.send(.tap(.accessory(.previous))).first?.ignoredReason == .disabled)
        session.run(.tap(.accessory(.next)))
        #expect(session.at("focus") == "time")
        session.run(.tap(.accessory(.next)))
        #expect(session.at("input.accessory")?.arrayValue?[1] == ["item": "next", "enabled": false])
    }

    @Test func aFieldsAccessoryWinsOverTheFlowsWhichWinsOverTheStandardOne() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "accessory": ["done"],
             "pages": [{"id": "a", "fields": [
               {"id": "plain", "kind": "text"},
               {"id": "own", "kind": "duration", "accessory": ["cancel", "flexibleSpace", "done"]}]}]}
            """#)
        var session = Session(flow: flow)
        session.run(tapField("plain"))
        #expect(session.at("input.accessory") == [["item": "done", "enabled": true]])
        session.run(tapField("own"))
        #expect(session.at("input.accessory")?.arrayValue?.count == 3)
        #expect(session.send(.tap(.accessory(.next))).first?.ignoredReason == .notInAccessory)
        #expect(session.send(.tap(.accessory(.flexibleSpace))).first?.ignoredReason == .notAButton)
    }

    @Test func aToggleNeverBecomesFirstResponder() throws {
        var session = try onForm()
        session.run(tapField("agree"))
        #expect(session.at("focus") == .null)
        #expect(session.at("values.agree") == true)
    }

    @Test func returnWithDefaultReturnKeyGoesToTheNextFieldThenResigns() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [
               {"id": "first", "kind": "text"}, {"id": "second", "kind": "text"}]}]}
            """#)
        var session = Session(flow: flow)
        session.run(tapField("first"))
        #expect(session.at("input.returnKey") == "next")
        session.run(.key(.return))
        #expect(session.at("focus") == "second")
        #expect(session.at("input.returnKey") == "done")
        session.run(.key(.return))
        #expect(session.at("focus") == .null)
    }

    @Test func returnKeyDoneResignsAndNextWraps() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [
               {"id": "first", "kind": "text", "returnKey": "done"}, {"id": "second", "kind": "text", "returnKey": "next"}]}]}
            """#)
        var session = Session(flow: flow)
        session.run(tapField("first"), .key(.return))
        #expect(session.at("focus") == .null)
        session.run(tapField("second"), .key(.return))
        #expect(session.at("focus") == "first")
    }

    @Test func returnAndEscapeWithNothingFocusedDoNothing() throws {
        var session = try onForm()
        let before = session
        #expect(session.send(.key(.return)).first?.ignoredReason == .noFirstResponder)
        #expect(session.send(.key(.escape)).first?.ignoredReason == .noFirstResponder)
        #expect(session.state == before.state)
    }

    @Test func tapsOnFieldsDuringATransitionAreIgnored() throws {
        var session = try Session(flow: formFlow(paging: #"{"animationMs": 200}"#))
        session.run(next, .settle, back, .tick(10))
        #expect(session.send(tapField("name")).first?.ignoredReason == .transitionInProgress)
    }
}

@Suite struct TextTests {
    @Test func typingAppliesAtOnce() throws {
        var session = try onForm()
        session.run(tapField("name"))
        #expect(session.at("values.name") == .null)
        let notes = session.send(.type("Ak"))
        #expect(notes == [.valueChanged(field: "name", value: "Ak")])
        #expect(session.at("values.name") == "Ak")
    }

    @Test func backSpaceDeletesTheLastGraphemeCluster() throws {
        let flow = try makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [{"id": "t", "kind": "text"}]}]}"#)
        var session = Session(flow: flow)
        session.run(tapField("t"), .type("a👨‍👩‍👧é"), .key(.backSpace))
        #expect(session.at("values.t") == "a👨‍👩‍👧")
        session.run(.key(.backSpace))
        #expect(session.at("values.t") == "a")
    }

    @Test func backSpaceOnEmptyTextDoesNothing() throws {
        var session = try onForm()
        session.run(tapField("name"), .type("A"), .key(.backSpace))
        #expect(session.at("values.name") == "")
        #expect(session.send(.key(.backSpace)).first?.ignoredReason == .emptyText)
    }

    @Test func anInsertionOverMaxLengthIsRefusedWhole() throws {
        var session = try onForm()
        session.run(tapField("name"), .type("Aki"))
        let notes = session.send(.type("ko!"))
        #expect(notes == [.refused(reason: .maxLength, errors: [FieldError(field: "name", code: .maxLength)])])
        #expect(session.at("values.name") == "Aki")
        session.run(.type("ko"))
        #expect(session.at("values.name") == "Akiko")
    }

    @Test func maxLengthCountsGraphemeClusters() throws {
        var session = try onForm()
        session.run(tapField("name"), .type("🇯🇵🇯🇵🇯🇵🇯🇵e"))
        #expect(session.at("values.name") == "🇯🇵🇯🇵🇯🇵🇯🇵e")
        session.run(.type("\u{301}"))  // a combining accent joins the last cluster
        #expect(session.at("values.name") == "🇯🇵🇯🇵🇯🇵🇯🇵e\u{301}")
        // Scalar by scalar, the precomposed é is another text.
        #expect(session.at("values.name") != "🇯🇵🇯🇵🇯🇵🇯🇵\u{E9}")
    }

    @Test func aNewlineInTypedTextActsAsReturn() throws {
        let flow = try makeFlow(
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [{"id": "a1", "kind": "text"}, {"id": "a2", "kind": "text"}]}]}"#
        )
        var session = Session(flow: flow)
        session.run(tapField("a1"), .type("Aki\nSato"))
        #expect(session.at("values") == ["a1": "Aki", "a2": "Sato"])
        #expect(session.at("focus") == "a2")
    }

    @Test func escapeAndCancelResignAndKeepTheText() throws {
        let flow = try makeFlow(
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [{"id": "t", "kind": "text", "accessory": ["cancel", "done"]}]}]}"#
        )
        var session = Session(flow: flow)
        session.run(tapField("t"), .type("x"), .key(.escape))
        #expect(session.at("values.t") == "x")
        session.run(tapField("t"), .type("y"))
        #expect(session.run(.tap(.accessory(.cancel))) == ["inputDismissed", "focusChanged"])
        #expect(session.at("values.t") == "xy")
    }

    @Test func arrowKeysInATextFieldDoNothingToPaging() throws {
        var session = try onForm()
        session.run(tapField("name"))
        #expect(session.send(.key(.right)).first?.ignoredReason == .firstResponderActive)
        #expect(session.send(.key(.end)).first?.ignoredReason == .firstResponderActive)
        #expect(session.at("page.index") == 1)
    }

    @Test func typingWithNothingFocusedIsIgnored() throws {
        var session = try onForm()
        #expect(session.send(.type("x")).first?.ignoredReason == .noFirstResponder)
    }
}
