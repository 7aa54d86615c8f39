import Testing

@testable import QuireCore

@Suite struct SnapshotTests {
    func roundTrip(_ session: Session) throws -> Session {
        let bytes = JSONWriter.data(session.snapshot())
        return try Session(restoring: bytes, file: "snap.json")
    }

    @Test func aSnapshotRestoresAnEqualSessionMidAnimation() throws {
        var session = try Session(flow: pagesFlow(4, paging: #"{"animationMs": 250}"#))
        session.run(next, .tick(70), next, .tick(33))
        let restored = try roundTrip(session)
        #expect(restored == session)
        var a = session
        var b = restored
        #expect(a.run(.tick(50), .settle) == b.run(.tick(50), .settle))
        #expect(a == b)
    }

    @Test func aSnapshotRestoresAnEqualSessionMidDrag() throws {
        var session = try Session(flow: pagesFlow(3), viewportWidth: 640)
        session.run(.dragBegin, .dragUpdate(dx: -123.25))
        #expect(try roundTrip(session) == session)
    }

    @Test func aSnapshotKeepsAnOpenPickerWithItsDraft() throws {
        var session = try onForm()
        session.run(tapField("time"), .spin(component: .hours, by: 2), .key(.right))
        var restored = try roundTrip(session)
        #expect(restored == session)
        restored.run(.key(.escape))
        #expect(restored.at("values.time") == .null)
    }

    @Test func aSnapshotRestoresAnAnswerOf100000GraphemeClusters() throws {
        // Over the 64 KiB string cap of documents people write: a snapshot is Quire's own, and an
        // autosave must never lose what was typed.
        var session = try Session(
            flow: makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [{"id": "essay", "kind": "text"}]}]}"#))
        session.run(tapField("essay"))
        let chunk = String(repeating: "e\u{301}", count: 10_000)  // 10,000 clusters, 30,000 bytes
        for _ in 0..<10 { session.run(.type(chunk)) }
        let restored = try roundTrip(session)
        #expect(restored == session)
        guard case .string(let essay) = restored.at("values.essay") else { return #expect(Bool(false)) }
        #expect(essay.count == 100_000)
    }

    @Test func aSnapshotOf50000FieldsRestoresToAnEqualSession() throws {
        let pages = (0..<5_000).map { page in
            let fields = (0..<10).map { #"{"id": "f\#(page)_\#($0)", "kind": "text", "label": "\"quoted\" \\ \u2028 line"}"# }
            return #"{"id": "p\#(page)", "fields": [\#(fields.joined(separator: ","))]}"#
        }
        let flow = try makeFlow(#"{"format": "quire.flow/1", "id": "big", "pages": [\#(pages.joined(separator: ","))]}"#)
        var session = Session(flow: flow)
        session.run(tapField("f0_0"), .type("a\"b\\c\n"), .type("tab\there"), .key(.tab), .type("日本語 \u{7}"))
        #expect(session.flow.fields.count == 50_000)
        #expect(try roundTrip(session) == session)
    }

    @Test func theWriterEscapesWhatEndsALineOrAString() throws {
        let text = "a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{7f}\u{85}\u{9b}\u{2028}\u{2029}é日本\u{a0}"
        #expect(JSONWriter.quoted(text) == #""a\"b\\c\n\r\t\b\f\u0001\u007f\u0085\u009b\u2028\u2029é日本"# + "\u{a0}\"")
        let parsed = try JSONParser.parse(JSONWriter.data(.string(text)))
        #expect(parsed.value == .string(text))
    }

    @Test func aSnapshotKeepsTheResult() throws {
        var session = try onForm()
        session.run(.tap(.button(.cancel)))
        #expect(try roundTrip(session) == session)
    }

    @Test func aBrokenSnapshotIsRejectedWithWhereAndWhy() throws {
        let text =
            #"{"format": "quire.snapshot/1", "flow": {"format": "quire.flow/1", "id": "f", "pages": [{"id": "a"}]}, "values": {"ghost": 1}, "page": "b", "position": 0}"#
        #expect(throws: DocumentError.self) { try Session(restoring: Array(text.utf8), file: "s.json") }
        do {
            _ = try Session(restoring: Array(text.utf8), file: "s.json")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "s.json:1:114: $.values.ghost: the flow has no field 'ghost'",
                    "s.json:1:135: $.page: 'b' is not a visible page of the flow",
                ])
        }
    }
}

@Suite struct PresentationTests {
    @Test(
        arguments: [
            (1500, false, "en", "25 min"), (3900, false, "en", "1 h 05 min"), (90, true, "en", "1 min 30 s"),
            (1500, false, "ja", "25分"), (3900, false, "ja", "1時間05分"), (0, false, "en", "0 min"),
            // One format with or without a seconds wheel (issue 20): seconds only when there are some.
            (1500, true, "en", "25 min"), (30, true, "en", "30 s"), (0, true, "en", "0 s"), (3605, true, "en", "1 h 00 min 05 s"),
            (3900, true, "en", "1 h 05 min"), (90, true, "ja", "1分30秒"), (30, true, "ja", "30秒"), (3605, true, "ja", "1時間00分05秒"),
            (-5, false, "en", "0 min"), (59, false, "en", "0 min"),
        ] as [(Int, Bool, String, String)])
    func durationsDisplayAsPeopleReadThem(seconds: Int, withSeconds: Bool, locale: String, expected: String) {
        #expect(Strings(locale: locale).duration(seconds, withSeconds: withSeconds) == expected)
    }

    @Test(
        arguments: [(1500, "25:00"), (299, "04:59"), (3900, "1:05:00"), (0, "00:00"), (-3, "00:00"), (86_399, "23:59:59")]
            as [(Int, String)])
    func aCountdownShowsAClockFace(seconds: Int, expected: String) {
        #expect(Strings.countdown(seconds) == expected)
    }

    @Test func aPageIsPresentedInTheSessionsLocale() throws {
        let flow = try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/focus-onboarding.json").path)
        var session = Session(flow: flow, locale: "ja-JP")
        let page = session.presentPage(at: 2)
        #expect(page?.title == "集中する時間")
        #expect(page?.fields.map(\.display) == ["25分", "オン"])
        session.locale = "en"
        #expect(session.presentPage(at: 2)?.fields.map(\.label) == ["Focus time", "Remind me to take breaks"])
        #expect(session.presentPage(at: 3)?.fields.first?.display == "1 min 30 s")
    }

    @Test func revealedErrorsCarryTheirText() throws {
        var session = try onForm()
        session.run(tapField("name"), .tap(.background))
        let name = session.presentPage(at: 1)?.fields.first
        #expect(name?.error == "Required")
        #expect(name?.errorCode == .required)
        session.locale = "ja"
        #expect(session.presentPage(at: 1)?.fields.first?.error == "入力してください")
    }

    @Test func theInputViewShowsWheelsOptionsAndToolbarTitles() throws {
        var session = try onForm()
        session.run(tapField("time"))
        let input = session.chrome.input
        #expect(input?.wheels.map(\.title) == ["hours", "min"])
        #expect(input?.wheels[1].values.count == 12)
        #expect(input?.draftDisplay == "5 min")
        #expect(input?.toolbar.map(\.title) == ["Previous", "Next", "", "Done"])
        session.run(tapField("color"))
        #expect(session.chrome.input?.options.map(\.selected) == [true, false, false])
    }

    @Test func theChromeCarriesButtonsIndicatorAndProgress() throws {
        var session = try Session(flow: formFlow())
        session.run(next)
        let chrome = session.chrome
        #expect(chrome.indicatorLabel == "Page 2 of 4")
        #expect(chrome.buttons.map(\.enabled) == [true, true, true, false, true])
        #expect(abs(chrome.progress - 1.0 / 3) < 1e-12)
    }

    @Test func aFrontBuildsOnlyTheCurrentPageAndItsNeighbours() throws {
        var session = try Session(flow: pagesFlow(1000))
        session.run(.tap(.indicatorPage(500)))
        #expect(session.presentNeighbourhood().map(\.index) == [499, 500, 501])
    }
}
