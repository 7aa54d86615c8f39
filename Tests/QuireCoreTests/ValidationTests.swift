import Testing

@testable import QuireCore

@Suite struct ValidationTests {
    @Test func anErrorIsRevealedOnceTheFieldIsResigned() throws {
        var session = try onForm()
        session.run(tapField("name"))
        #expect(session.at("errors") == [:])
        session.run(.tap(.background))
        #expect(session.at("errors") == ["name": "required"])
    }

    @Test func anErrorDisappearsAsSoonAsItIsFixed() throws {
        var session = try onForm()
        session.run(tapField("name"), .tap(.background), tapField("name"), .type("A"))
        #expect(session.at("errors") == [:])
        session.run(.key(.backSpace))
        #expect(session.at("errors") == ["name": "required"])
    }

    @Test func minLengthAppliesToTextThatIsThere() throws {
        var session = try onForm()
        session.run(tapField("name"), .type("Aki"), next, tapField("note"), .tap(.background))
        #expect(session.at("errors") == [:])  // optional and empty: fine
        session.run(tapField("note"), .type("ab"), .tap(.background))
        #expect(session.at("errors") == ["note": "minLength"])
    }

    @Test func minMaxAndMaxLengthErrorsShowForValuesOutOfRange() throws {
        var session = try onForm()
        var snapshot = session.snapshot().objectValue!
        var values = snapshot["values"]!.objectValue!
        values["name"] = "Too long"
        values["time"] = 30
        snapshot["values"] = .object(values)
        snapshot["touched"] = ["name", "time"]
        session = try Session(restoring: .object(snapshot))
        #expect(session.at("errors") == ["name": "maxLength", "time": "min"])
    }

    @Test func hiddenFieldsAreNotValidated() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "ask", "kind": "toggle", "default": true},
                                            {"id": "why", "kind": "text", "required": true, "visibleIf": {"field": "ask", "equals": true}}]},
                       {"id": "b"}]}
            """#)
        var session = Session(flow: flow)
        #expect(session.send(next).first?.name == "refused")
        session.run(tapField("ask"), next)
        #expect(session.at("page.index") == 1)
    }

    @Test func disabledFieldsAreNotValidated() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "on", "kind": "toggle", "default": false},
                                            {"id": "t", "kind": "text", "required": true, "enabledIf": {"field": "on", "equals": true}}]},
                       {"id": "b"}]}
            """#)
        var session = Session(flow: flow)
        session.run(next)
        #expect(session.at("page.index") == 1)
    }

    @Test func requiredIfMakesAFieldRequired() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "kind", "kind": "choice", "default": "other", "options": [{"id": "basic"}, {"id": "other"}]},
                                            {"id": "detail", "kind": "text", "requiredIf": {"field": "kind", "in": ["other"]}}]},
                       {"id": "b"}]}
            """#)
        var session = Session(flow: flow)
        #expect(session.send(next).first == .refused(reason: .gate, errors: [FieldError(field: "detail", code: .required)]))
        session.run(tapField("kind"), .select("basic"), .tap(.accessory(.done)), next)
        #expect(session.at("page.index") == 1)
    }

    @Test func aRequiredToggleMustBeOn() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "terms", "kind": "toggle", "required": true}]}]}
            """#)
        var session = Session(flow: flow)
        #expect(session.at("values.terms") == .null)
        #expect(session.send(.tap(.button(.finish))).first?.name == "refused")
        session.run(tapField("terms"), .tap(.button(.finish)))
        #expect(session.at("completed.outcome") == "finished")
    }

    @Test func conditionsSeeHiddenFieldsAsUnanswered() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f",
             "pages": [{"id": "a", "fields": [{"id": "on", "kind": "toggle", "default": true}]},
                       {"id": "b", "visibleIf": {"field": "on", "equals": true},
                        "fields": [{"id": "long", "kind": "duration", "default": 7200}]},
                       {"id": "c", "visibleIf": {"field": "long", "greaterThan": 3600}}]}
            """#)
        var session = Session(flow: flow)
        #expect(session.at("page.count") == 3)
        session.run(tapField("on"))
        #expect(session.at("page.count") == 1)
        #expect(session.at("values.long") == 7200)
    }
}

@Suite struct CompletionTests {
    /// A session on the last page of `formFlow` with a valid form.
    func filled() throws -> Session {
        var session = try onForm()
        session.run(tapField("name"), .type("Aki"), .tap(.background), .key(.end))
        return session
    }

    @Test func finishCompletesOnceWithTheVisibleValues() throws {
        var session = try filled()
        #expect(session.send(.tap(.button(.finish))) == [.completed(outcome: .finished)])
        #expect(session.at("completed.outcome") == "finished")
        #expect(session.at("completed.values.name") == "Aki")
        let after = session
        for event in [Event.tap(.button(.finish)), .tap(.button(.cancel)), .key(.home), .tick(500)] {
            #expect(session.send(event).first?.ignoredReason == .completed)
        }
        #expect(session == after)
    }

    @Test func finishIsOnlyEnabledOnTheLastPage() throws {
        var session = try onForm()
        #expect(session.at("buttons.finish") == false)
        #expect(session.send(.tap(.button(.finish))).first?.ignoredReason == .disabled)
    }

    @Test func aRefusedFinishRevealsTheFirstInvalidPageAndMovesThere() throws {
        var session = try Session(flow: formFlow(paging: #"{"animationMs": 0, "gate": "none"}"#))
        session.run(.key(.end))
        let notes = session.send(.tap(.button(.finish)))
        #expect(notes.first == .refused(reason: .finish, errors: [FieldError(field: "name", code: .required)]))
        #expect(session.at("page.id") == "form")
        #expect(session.at("errors") == ["name": "required"])
        #expect(session.at("completed") == .null)
    }

    @Test func aFinishedResultLeavesHiddenFieldsOut() throws {
        let flow = try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f",
             "pages": [{"id": "a", "fields": [{"id": "on", "kind": "toggle", "default": true},
                                            {"id": "extra", "kind": "text", "default": "kept", "visibleIf": {"field": "on", "equals": true}}]}]}
            """#)
        var session = Session(flow: flow)
        session.run(tapField("on"), .tap(.button(.finish)))
        #expect(session.at("completed.values") == ["on": false])
        #expect(session.at("values.extra") == "kept")
    }

    @Test func cancelCompletesWithEveryValueAndCommitsAnOpenPicker() throws {
        var session = try onForm()
        session.run(tapField("color"), .select("green"))
        let notes = session.run(.tap(.button(.cancel)))
        #expect(notes == ["inputDismissed", "valueChanged", "focusChanged", "completed"])
        #expect(session.at("completed.outcome") == "cancelled")
        #expect(session.at("completed.values.color") == "green")
        #expect(session.at("completed.values")?.objectValue?.count == 5)
    }

    @Test func cancelDuringATransitionClosesIt() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        session.run(next, .tick(100))
        let notes = session.send(.tap(.button(.cancel)))
        #expect(notes == [.pageDidChange(from: 0, to: 1, completed: false), .completed(outcome: .cancelled)])
        #expect(session.at("transition") == .null)
        #expect(session.at("position") == 0)
    }
}

@Suite struct FinishEdgeTests {
    /// The last page has a choice that, once committed, shows one more page.
    static func flow() throws -> Flow {
        try makeFlow(
            #"""
            {"format": "quire.flow/1", "id": "f", "paging": {"animationMs": 0},
             "pages": [{"id": "a", "fields": [{"id": "plan", "kind": "choice", "options": [{"id": "free"}, {"id": "pro"}]}]},
                       {"id": "billing", "visibleIf": {"field": "plan", "equals": "pro"},
                        "fields": [{"id": "card", "kind": "text", "required": true}]},
                       {"id": "extra", "visibleIf": {"field": "plan", "equals": "free"}}]}
            """#)
    }

    @Test func committingOnFinishThatShowsNewPagesMovesToThemInsteadOfFinishing() throws {
        var session = try Session(flow: Self.flow())
        #expect(session.at("buttons.finish") == true)  // only page a is visible
        session.run(tapField("plan"), .select("free"))
        let notes = session.send(.tap(.button(.finish)))
        #expect(notes.contains(.refused(reason: .finish, errors: [])))
        #expect(session.pageID == "extra")
        #expect(session.at("completed") == .null)
    }

    @Test func committingOnFinishThatShowsAPageWithARequiredFieldMovesThereWithoutRevealingIt() throws {
        var session = try Session(flow: Self.flow())
        session.run(tapField("plan"), .select("pro"))
        let notes = session.send(.tap(.button(.finish)))
        #expect(notes.contains(.refused(reason: .finish, errors: [])))
        #expect(session.pageID == "billing")
        // The user has not seen the card field yet: its error waits until they leave it or try again.
        #expect(session.at("errors") == [:])
        let again = session.send(.tap(.button(.finish)))
        #expect(again.contains(.refused(reason: .finish, errors: [FieldError(field: "card", code: .required)])))
        #expect(session.at("errors") == ["card": "required"])
    }
}

@Suite struct TextLengthTests {
    // "\u{600}" is a prepend: the character typed after it joins its cluster.
    static let pieces = ["a", "\u{600}", "e", "\u{301}", "\u{308}", "🇯", "🇵", "🇺🇸", "👩", "\u{200D}", "💻", "한", "\u{1100}", "\u{1161}", "日本"]

    /// Typing keeps each answer's length in grapheme clusters without recounting the whole text;
    /// whatever is typed and deleted, it equals a full count, and `maxLength` refuses exactly
    /// what the full count says is too long.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func theKeptLengthIsAlwaysTheFullCount(seed: UInt64) throws {
        let flow = try makeFlow(
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [{"id": "t", "kind": "text", "maxLength": 12}]}]}"#)
        var session = Session(flow: flow)
        session.run(tapField("t"))
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for _ in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(state >> 33)
            let before: String = session.at("values.t")?.stringValue ?? ""
            if roll % 4 == 0 {
                session.run(.key(.backSpace))
            } else {
                let piece = Self.pieces[roll % Self.pieces.count]
                let notes = session.send(.type(piece))
                let refused = notes.contains { if case .refused(.maxLength, _) = $0 { true } else { false } }
                #expect(
                    refused == ((before + piece).count > 12),
                    "seed \(seed): \(before.unicodeScalars.map { String($0.value, radix: 16) }) + \(piece)")
            }
            let text: String = session.at("values.t")?.stringValue ?? ""
            #expect(session.answers.textLengths[0] == text.count, "seed \(seed)")
        }
    }

    /// Typed and taken back through the session, ASCII texts of every length up to 40 bytes go
    /// back through exactly the values `removeLast()` gives, one `valueChanged` each.
    @Test func backSpaceThroughTheSessionFollowsRemoveLast() throws {
        let flow = try makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [{"id": "t", "kind": "text"}]}]}"#)
        var session = Session(flow: flow)
        session.run(tapField("t"))
        let full = "The quick brown fox jumps over the lazy"
        session.run(.type(full))
        var expected = full
        while !expected.isEmpty {
            expected.removeLast()
            #expect(session.send(.key(.backSpace)) == [.valueChanged(field: "t", value: .string(expected))])
            #expect(session.answers.textLengths[0] == expected.count)
        }
        #expect(session.send(.key(.backSpace)) == [.ignored(event: "key", target: "BackSpace", reason: .emptyText)])
    }
}
