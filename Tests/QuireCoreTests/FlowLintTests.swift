import Foundation
import Testing

@testable import QuireCore

/// `FlowLint`: the warnings `quire check` prints for flows that load but cannot work as written.
@Suite struct FlowLintTests {
    /// The warnings of a flow, as printed lines (`file:line:column: $.path: warning: …`).
    func warnings(_ json: String) throws -> [String] {
        let flow = try makeFlow(json)
        return FlowLint(flow).diagnostics(file: "f.json", bytes: Array(json.utf8)).map(\.description)
    }

    func flow(_ pages: String, paging: String = "{}") -> String {
        #"{"format": "quire.flow/1", "id": "lint", "paging": \#(paging), "pages": [\#(pages)]}"#
    }

    @Test func everyFlowInDataIsClean() throws {
        let folder = repositoryRoot.appendingPathComponent("data/flows")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 10)
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let bytes = try Flow.readDocument(path)
            let flow = try Flow.load(bytes: bytes, file: path)
            let lint = FlowLint(flow)
            #expect(lint.warnings.filter { !$0.isNote }.map(\.message) == [], "\(file)")
            #expect(lint.skipped == 0, "\(file)")
        }
    }

    @Test func aPageNoAnswerCanShowIsWarnedAtItsVisibleIf() throws {
        let json = flow(
            """
            {"id": "start", "fields": [{"id": "pet", "kind": "choice", "options": [{"id": "dog"}, {"id": "cat"}]}]},
            {"id": "never", "visibleIf": {"all": [{"field": "pet", "equals": "dog"}, {"field": "pet", "equals": "cat"}]}},
            {"id": "dogs", "visibleIf": {"field": "pet", "equals": "dog"}}
            """)
        let lines = try warnings(json)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("f.json:2:") == true)
        #expect(lines.first?.contains("$.pages[1].visibleIf: warning: page 'never' can never be shown") == true)
        // The position is the visibleIf's value, on the flow's second line.
        let column = Int(lines[0].split(separator: ":")[2])!
        let line = json.split(separator: "\n", omittingEmptySubsequences: false)[1]
        #expect(String(line.unicodeScalars.dropFirst(column - 1).prefix(8).map(Character.init)) == #"{"all": "#)
    }

    @Test func hidingCascadesThroughAHiddenField() throws {
        // `kind` is shown only with a pet; a page that needs no pet and a kind can never show.
        let lines = try warnings(
            flow(
                """
                {"id": "start", "fields": [
                  {"id": "hasPet", "kind": "toggle"},
                  {"id": "kind", "kind": "choice", "visibleIf": {"field": "hasPet", "equals": true}, "options": [{"id": "dog"}, {"id": "cat"}]}]},
                {"id": "odd", "visibleIf": {"all": [{"field": "hasPet", "equals": false}, {"field": "kind", "filled": true}]}},
                {"id": "fine", "visibleIf": {"any": [{"field": "hasPet", "equals": false}, {"field": "kind", "filled": true}]}}
                """))
        #expect(lines.count == 1)
        #expect(lines.first?.contains("$.pages[1].visibleIf: warning: page 'odd' can never be shown") == true)
    }

    @Test func conditionsThatCannotChangeAreWarned() throws {
        let lines = try warnings(
            flow(
                """
                {"id": "start", "fields": [
                  {"id": "agree", "kind": "toggle", "default": false},
                  {"id": "a", "kind": "text", "visibleIf": {"any": [{"field": "agree", "equals": true}, {"field": "agree", "equals": false}]}},
                  {"id": "b", "kind": "text", "requiredIf": {"field": "agree", "filled": true}},
                  {"id": "c", "kind": "text", "enabledIf": {"not": {"field": "agree", "filled": true}}},
                  {"id": "d", "kind": "text", "requiredIf": {"field": "agree", "equals": true}}]}
                """))
        #expect(lines.count == 3)
        #expect(lines.contains { $0.contains("fields[1].visibleIf: warning: field 'a': visibleIf is always true") })
        #expect(lines.contains { $0.contains("fields[2].requiredIf: warning: field 'b': requiredIf is always true") })
        #expect(lines.contains { $0.contains("fields[3].enabledIf: warning: field 'c' can never be enabled") })
    }

    @Test func aTextLongerThanMaxLengthCanNeverBeTyped() throws {
        let lines = try warnings(
            flow(
                """
                {"id": "start", "fields": [{"id": "code", "kind": "text", "maxLength": 3}]},
                {"id": "secret", "visibleIf": {"field": "code", "equals": "open sesame"}},
                {"id": "short", "visibleIf": {"field": "code", "equals": "abc"}}
                """))
        #expect(lines.count == 1)
        #expect(lines.first?.contains("page 'secret' can never be shown") == true)
    }

    @Test func durationComparisonsOutsideTheWheelsRangeAreNeverTrue() throws {
        let lines = try warnings(
            flow(
                """
                {"id": "start", "fields": [{"id": "t", "kind": "duration", "default": 1800, "min": 600, "max": 3600, "minuteInterval": 15}]},
                {"id": "long", "visibleIf": {"field": "t", "greaterThan": 3600}},
                {"id": "odd", "visibleIf": {"field": "t", "equals": 1260}},
                {"id": "mid", "visibleIf": {"field": "t", "greaterThan": 1000}},
                {"id": "all", "visibleIf": {"field": "t", "greaterThan": 599}}
                """))
        #expect(lines.count == 4)
        #expect(
            lines.contains {
                $0.contains(
                    "fields[0].min: note: field 't': min 600 cannot be shown by the wheels (minuteInterval 15, no seconds wheel); the smallest value a person can pick is 900"
                )
            })
        #expect(lines.contains { $0.contains("page 'long' can never be shown") })
        #expect(lines.contains { $0.contains("page 'odd' can never be shown") })
        #expect(lines.contains { $0.contains("page 'all': visibleIf is always true") })
    }

    @Test func aFieldOnlyShownWithAnImpossibleValueIsWarned() throws {
        let lines = try warnings(
            flow(
                """
                {"id": "start", "fields": [
                  {"id": "on", "kind": "toggle", "default": true},
                  {"id": "why", "kind": "text", "visibleIf": {"field": "on", "filled": false}}]}
                """))
        #expect(lines == [lines.first ?? ""])
        #expect(lines.first?.contains("$.pages[0].fields[1].visibleIf: warning: field 'why' can never be shown") == true)
    }

    @Test func aMaxTheWheelsCannotShowIsANoteButTheDefaultMinIsNot() throws {
        let lines = try warnings(
            flow(#"{"id": "p", "fields": [{"id": "t", "kind": "duration", "minuteInterval": 5, "max": 3700}]}"#))
        #expect(lines.count == 1)
        #expect(lines.first?.contains("fields[0].max: note: field 't': max 3700 cannot be shown") == true)
        #expect(lines.first?.contains("the largest value a person can pick is 3600") == true)
    }

    @Test func aTextMissingInALocaleTheFlowUsesIsWarned() throws {
        let lines = try warnings(
            """
            {"format": "quire.flow/1", "id": "l", "title": {"en": "Hi", "ja": "やあ"}, "pages": [
              {"id": "p", "title": {"en": "Page"}, "body": "plain is for every locale",
               "fields": [{"id": "c", "kind": "choice", "label": {"ja": "色", "EN": "Color"}, "options": [{"id": "x", "label": {"fr": "X"}}]}]}]}
            """)
        #expect(lines.count == 4)
        #expect(lines[0].contains("$.title: warning: no text for 'fr' (the flow's display strings use 'en', 'ja', 'fr')"))
        #expect(lines[1].contains("$.pages[0].title: warning: no text for 'ja', 'fr'"))
        #expect(lines[2].contains("$.pages[0].fields[0].label: warning: no text for 'fr'"))
        #expect(lines[3].contains("$.pages[0].fields[0].options[0].label: warning: no text for 'en', 'ja'"))
    }

    @Test func rangesThatCannotWorkAreLoadErrorsNotWarnings() {
        // minLength > maxLength, min > max, a default outside its range and wheels that show no
        // value in range are refused when the flow loads (exit 2), at their positions.
        let text = problems(flow(#"{"id": "p", "fields": [{"id": "t", "kind": "text", "minLength": 5, "maxLength": 2}]}"#))
        #expect(text.contains { $0.contains("$.pages[0].fields[0].minLength: minLength 5 is greater than maxLength 2") })
        let duration = problems(flow(#"{"id": "p", "fields": [{"id": "t", "kind": "duration", "min": 600, "max": 300}]}"#))
        #expect(duration.contains { $0.contains("$.pages[0].fields[0].min: min 600 is greater than max 300") })
        let outside = problems(flow(#"{"id": "p", "fields": [{"id": "t", "kind": "duration", "min": 600, "default": 60}]}"#))
        #expect(outside.contains { $0.contains("$.pages[0].fields[0].default") })
        let wheels = problems(
            flow(#"{"id": "p", "fields": [{"id": "t", "kind": "duration", "min": 61, "max": 119, "minuteInterval": 1}]}"#))
        #expect(wheels.contains { $0.contains("no value from min 61 to max 119 can be shown by the wheels") })
    }

    @Test func aFlowBeyondTheCombinationLimitIsNotedNotWarned() throws {
        // 11 choices, each of 3 values to conditions (null, the option named, another), reach
        // 4 × 3^10 = 236,196 combinations: more than one item may evaluate.
        let fields = (0..<11).map {
            #"{"id": "c\#($0)", "kind": "choice", "options": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]}"#
        }
        let never = (0..<11).map { #"{"field": "c\#($0)", "equals": "a"}"# }.joined(separator: ",")
        let json = flow(
            #"{"id": "p", "fields": [\#(fields.joined(separator: ","))]}, {"id": "q", "visibleIf": {"all": [\#(never), {"field": "c0", "equals": "b"}]}}"#
        )
        let lint = FlowLint(try makeFlow(json))
        #expect(lint.warningCount == 0)
        #expect(lint.skipped == 1)
        let lines = try warnings(json)
        // At the condition (its value).
        let column =
            json.utf8.count - #"{"all": ["#.utf8.count - never.utf8.count - #", {"field": "c0", "equals": "b"}]}}]}"#.utf8.count + 1
        #expect(
            lines == [
                "f.json:1:\(column): $.pages[1].visibleIf: note: page 'q': visibleIf not analysed: the values of the 11 fields it reaches make more than 65536 combinations"
            ])
    }

    /// A flow whose conditions are each a long `any`: 8 toggles (3 values each: 6,561
    /// combinations) and fields whose `enabledIf` is `any` of `parts` false clauses, so each is
    /// evaluated whole for every combination.
    func largeConditions(fields: Int, parts: Int) -> String {
        let toggles = (0..<8).map { #"{"id": "t\#($0)", "kind": "toggle"}"# }.joined(separator: ",")
        let clause = (0..<parts).map { #"{"all": [{"field": "t\#($0 % 8)", "equals": true}, {"field": "t\#($0 % 8)", "equals": false}]}"# }
            .joined(separator: ",")
        let conditional = (0..<fields).map { #"{"id": "f\#($0)", "kind": "toggle", "enabledIf": {"any": [\#(clause)]}}"# }
        return flow(#"{"id": "a", "fields": [\#(toggles)]}, {"id": "b", "fields": [\#(conditional.joined(separator: ","))]}"#)
    }

    @Test func theWorkOfOneItemIsBoundedByTheSizeOfItsConditionsNotOnlyItsCombinations() throws {
        // 6,561 combinations × a condition of 1 + 400 × 5 steps: far past `workLimit`, though
        // far under `combinationLimit`. Noted at the key, never warned.
        let json = largeConditions(fields: 2, parts: 400)
        let lint = FlowLint(try makeFlow(json))
        #expect(lint.warningCount == 0)
        #expect(lint.skipped == 2)
        let lines = try warnings(json)
        #expect(lines.count == 2)
        #expect(
            lines[0].contains(
                "$.pages[1].fields[0].enabledIf: note: field 'f0': enabledIf not analysed: its 6561 combinations × 2001 steps of conditions each are more than the 2000000 steps one item may take"
            ), "\(lines)")
        // A small one is decided: never true.
        let small = try warnings(largeConditions(fields: 1, parts: 10))
        #expect(small.count == 1 && small[0].contains("warning: field 'f0' can never be enabled"), "\(small)")
    }

    @Test func theFlowsWorkIsBoundedAndOneNoteCountsWhatWasLeft() throws {
        // Each item takes 2 × 6,561 × 201 = 2.6 M steps, all evaluated (never true, judged as
        // shown and while the field is): the flow's 20 M steps decide 7 of them; the 8th has a
        // note that counts the 32 after it.
        let json = largeConditions(fields: 40, parts: 40)
        let lint = FlowLint(try makeFlow(json))
        let notes = lint.warnings.filter { $0.kind == .notAnalysed }
        #expect(lint.warnings.count { $0.kind == .fieldNeverEnabled } == 7)
        #expect(notes.count == 1)
        #expect(
            notes.first?.message
                == "field 'f7': enabledIf not analysed: the lint's 20000000 steps for the whole flow are spent, nor 32 later pages and fields with conditions"
        )
        #expect(lint.skipped == 33)
        #expect(lint.budget >= 0)
    }

    @Test func aMissingTextWarningNamesAFewTagsAndCountsTheRest() throws {
        // 300 display strings, each with its own tag besides "en": each lacks 299 tags; the
        // message names 8 and counts the rest, so the output is linear in the flow.
        let pages = (0..<300).map { #"{"id": "p\#($0)", "title": {"en": "x", "en-\#(String($0, radix: 16))": "y"}}"# }
        let json = flow(pages.joined(separator: ","))
        let messages = FlowLint(try makeFlow(json)).warnings.map(\.message)
        #expect(messages.count == 300)
        #expect(messages.allSatisfy { $0.count < 300 })
        let lines = try warnings(json)
        #expect(
            lines[0].hasSuffix(
                "$.pages[0].title: warning: no text for 'en-1', 'en-2', 'en-3', 'en-4', 'en-5', 'en-6', 'en-7', 'en-8' and 291 more (the flow's display strings use 'en', 'en-0', 'en-1', 'en-2', 'en-3', 'en-4', 'en-5', 'en-6' and 293 more)"
            ), "\(lines[0])")
        #expect(messages[299].hasPrefix("no text for 'en-0', 'en-1', 'en-2', 'en-3', 'en-4', 'en-5', 'en-6', 'en-7' and 291 more"))
        // A long tag is shortened.
        let long = "en-" + Array(repeating: "abcdefgh", count: 20).joined(separator: "-")
        let shortened = try warnings(flow(#"{"id": "p", "title": {"en": "x", "\#(long)": "y"}, "body": {"en": "z"}}"#))
        #expect(shortened.count == 1 && shortened[0].contains("no text for '\(long.prefix(35))…'"), "\(shortened)")
    }

    @Test func aLongChainOfConditionsIsLintedInBoundedWork() throws {
        // 3,000 toggles, each shown only when the one before is on: every item reaches all the
        // fields before it, so past `reachLimit` items are skipped rather than enumerated.
        var fields = [#"{"id": "t0", "kind": "toggle"}"#]
        for at in 1..<3000 { fields.append(#"{"id": "t\#(at)", "kind": "toggle", "visibleIf": {"field": "t\#(at - 1)", "equals": true}}"#) }
        let pages = (0..<30).map { page in
            #"{"id": "p\#(page)", "fields": [\#(fields[(page * 100)..<(page * 100 + 100)].joined(separator: ","))]}"#
        }
        let lint = FlowLint(try makeFlow(flow(pages.joined(separator: ","))))
        #expect(lint.warningCount == 0)
        #expect(lint.warnings.allSatisfy { $0.kind == .notAnalysed })
        #expect(lint.warnings.count { $0.message.contains("its conditions reach more than 32 fields") } > 2900)
        #expect(lint.skipped > 2900)
        // The first fields are analysed: t1 is shown when t0 is on, hidden when it is not.
        #expect(lint.skipped < 3000)
    }
}
