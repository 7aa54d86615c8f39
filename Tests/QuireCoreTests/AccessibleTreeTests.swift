import Testing

@testable import QuireCore

/// `Session.accessibleTree`: what a front must expose for the current page (`expectAccessible`).
@Suite struct AccessibleTreeTests {
    @Test func theFirstPageIsItsTextsAndTheBarUnderIt() throws {
        let session = Session(flow: try demoFlow())
        #expect(
            session.accessibleTree.map(\.line) == [
                #"label "Welcome""#,
                #"label "Focus helps you work in short, timed sessions. This takes a minute to set up.""#,
                #"push button "Back" [disabled]"#,
                #"slider "Page 1 of 5" = "Page 1 of 5""#,
                #"push button "Skip""#,
                #"push button "Next""#,
            ])
    }

    @Test func aRefusedRequiredFieldIsInvalidAndDescribedByItsError() throws {
        var session = Session(flow: try demoFlow())
        session.run(.tap(.button(.next)), .settle)
        let name = try #require(session.accessibleTree.first { $0.role == .text })
        #expect(name == AccessibleElement(.text, "Name", states: [.required]))
        session.run(.tap(.button(.next)))
        let tree = session.accessibleTree
        let at = try #require(tree.firstIndex { $0.role == .text })
        #expect(tree[at] == AccessibleElement(.text, "Name", states: [.invalid, .required], describedBy: "Required"))
        // The error as shown follows its field; only the current page is in the tree.
        #expect(tree[at + 1] == AccessibleElement(.label, "Required"))
        #expect(!tree.contains { $0.name == "Welcome" || $0.name == "Your focus time" })
        session.run(.tap(.field("userName")), .type("Ada"))
        #expect(session.accessibleTree[at] == AccessibleElement(.text, "Name", value: "Ada", states: [.required]))
        #expect(!session.accessibleTree.contains { $0.role == .label && $0.name == "Required" })
    }

    @Test func anOpenPickerFollowsTheBarAndTheLastPageShowsFinish() throws {
        var session = Session(flow: try demoFlow())
        session.run(.tap(.button(.next)), .settle, .tap(.field("userName")), .type("Ada"), .tap(.field("feedLanguage")))
        var tail = session.accessibleTree.suffix(3).map(\.line)
        #expect(tail == [#"list "Feed language""#, #"list item "English" [selected]"#, #"list item "日本語""#])
        session.run(.select("ja"))
        tail = session.accessibleTree.suffix(2).map(\.line)
        #expect(tail == [#"list item "English""#, #"list item "日本語" [selected]"#])
        session.run(.tap(.accessory(.done)), .tap(.button(.next)), .settle, .tap(.field("reminders")))
        #expect(session.accessibleTree.contains(AccessibleElement(.checkBox, "Remind me to take breaks")))
        session.run(.tap(.button(.next)), .settle)
        let buttons = session.accessibleTree.filter { $0.role == .pushButton }.map(\.name)
        #expect(buttons.last == "Finish" && !buttons.contains("Next"))
        session.run(.tap(.button(.finish)))
        #expect(session.accessibleTree.isEmpty)
    }

    @Test func japaneseNamesComeFromTheSameStrings() throws {
        var session = Session(flow: try demoFlow(), locale: "ja")
        session.run(.tap(.button(.next)), .settle)
        #expect(session.accessibleTree.contains(AccessibleElement(.slider, "5ページ中2ページ目", value: "5ページ中2ページ目")))
        #expect(session.accessibleTree.contains(AccessibleElement(.pushButton, "フィードの言語: English")))
    }

    @Test func anElementReadsBackFromItsJSON() throws {
        let element = AccessibleElement(.text, "Name", value: "Ada", states: [.invalid, .required], describedBy: "Required")
        #expect(element.states == [.required, .invalid])
        #expect(try AccessibleElement.parse(element.json).get() == element)
        #expect(
            JSONWriter.string(element.json)
                == #"{"role":"text","name":"Name","value":"Ada","states":["required","invalid"],"describedBy":"Required"}"#)
        let bad: [(String, String)] = [
            (#"{"role": "button", "name": "Next"}"#, "role is one of"),
            (#"{"role": "label"}"#, "name is a string"),
            (#"{"role": "label", "name": "x", "states": ["focused"]}"#, "a state is one of"),
            (#"{"role": "label", "name": "x", "states": ["checked", "checked"]}"#, "listed twice"),
            (#"{"role": "label", "name": "x", "label": "y"}"#, "unknown key 'label'"),
        ]
        for (json, message) in bad {
            let value = try JSONParser.parse(json).value
            guard case .failure(let error) = AccessibleElement.parse(value) else {
                Issue.record("\(json) was accepted")
                continue
            }
            #expect(error.message.contains(message), "\(json): \(error.message)")
        }
    }
}
